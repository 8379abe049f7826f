#include "msgpack/framedump.h"

#include "msgpack/msgpackhead.h"

#include <QStringList>

namespace lmct {

qint64 FrameDump::valueSize(const uchar *d, qint64 size, qint64 pos, QString *type, int depth) {
    if (pos >= size || depth > 64) {
        return -1;
    }
    const uchar b = d[pos];
    auto setType = [type](const QString &t) {
        if (type) {
            *type = t;
        }
    };
    const char *name = MsgpackHead::typeName(b);
    if (!name) {
        setType(QStringLiteral("reserved 0x%1").arg(b, 2, 16));
        return -1;
    }
    const MsgpackHead h = MsgpackHead::read(d + pos, size - pos);
    if (!h.ok()) {
        return -1;  // the length field is cut short
    }
    // Lengths and counts are shown, except for the fixed-size extensions (fixext1..16).
    const bool sized = h.kind == MsgpackHead::Kind::Str || h.kind == MsgpackHead::Kind::Bin ||
                       h.isContainer() || (h.kind == MsgpackHead::Kind::Ext && b < 0xd4);
    setType(sized ? QStringLiteral("%1(%2)")
                        .arg(QLatin1String(name))
                        .arg(h.isContainer() ? h.count : h.payload)
                  : QString::fromLatin1(name));
    if (!h.fits(size - pos)) {
        return -1;
    }
    qint64 at = pos + qint64(h.size());
    const quint64 items = h.children();
    for (quint64 i = 0; i < items; ++i) {
        const qint64 s = valueSize(d, size, at, nullptr, depth + 1);
        if (s < 0) {
            return -1;
        }
        at += s;
    }
    return at - pos;
}

QString FrameDump::hexLines(const QByteArray &bytes, qint64 base, int maxBytes) {
    QStringList lines;
    const int n = int(std::min<qint64>(bytes.size(), maxBytes));
    for (int row = 0; row < n; row += 16) {
        QString hex;
        QString ascii;
        for (int i = 0; i < 16; ++i) {
            if (row + i < n) {
                const uchar c = uchar(bytes.at(row + i));
                hex += QStringLiteral("%1 ").arg(c, 2, 16, QLatin1Char('0'));
                ascii += (c >= 0x20 && c < 0x7f) ? QChar(c) : QLatin1Char('.');
            } else {
                hex += QStringLiteral("   ");
            }
            if (i == 7) {
                hex += QLatin1Char(' ');
            }
        }
        lines << QStringLiteral("%1  %2 |%3|")
                     .arg(base + row, 8, 16, QLatin1Char('0'))
                     .arg(hex, ascii);
    }
    if (bytes.size() > n) {
        lines << QStringLiteral("… %1 more bytes not shown").arg(bytes.size() - n);
    }
    return lines.join(QLatin1Char('\n'));
}

QString FrameDump::dump(const QByteArray &frame, qint64 fileOffset, int maxBytes) {
    QStringList out;
    const auto *d = reinterpret_cast<const uchar *>(frame.constData());
    const qint64 size = frame.size();
    out << QStringLiteral("frame at file offset %1 (0x%2), %3 bytes")
               .arg(fileOffset)
               .arg(fileOffset, 0, 16)
               .arg(size);
    out << QString();
    out << QStringLiteral("offset  length  structure");
    auto row = [&](qint64 off, qint64 len, const QString &what) {
        out << QStringLiteral("%1  %2  %3").arg(off, 6).arg(len, 6).arg(what);
    };
    if (size < 4) {
        row(0, size, QStringLiteral("length prefix cut short"));
        out << QString() << hexLines(frame, 0, maxBytes);
        return out.join(QLatin1Char('\n'));
    }
    const quint64 bodyLen = MsgpackHead::be(d, 4);
    // A record kept under a damaged prefix (TraceLoader: its value ends where the next record
    // frame starts) was read with fewer bytes than its prefix claims (the tab said
    // both without a word).
    row(0, 4,
        bodyLen == quint64(size - 4)
            ? QStringLiteral("u32 big-endian length = %1").arg(bodyLen)
            : QStringLiteral("u32 big-endian length = %1, damaged: the record was kept with the "
                             "%2 bytes its value fills (see Diagnostics)")
                  .arg(bodyLen)
                  .arg(size - 4));
    qint64 pos = 4;
    QString type;
    qint64 entries = -1;
    qint64 header = 1;
    if (size > 4) {
        const MsgpackHead m = MsgpackHead::read(d + 4, size - 4);
        if (m.kind == MsgpackHead::Kind::Map) {
            entries = qint64(m.count);
            header = m.header;
        }
    }
    if (entries < 0) {
        const qint64 s = valueSize(d, size, pos, &type);
        row(pos, s < 0 ? size - pos : s,
            QStringLiteral("body: %1 (not a map)")
                .arg(type.isEmpty() ? QStringLiteral("?") : type));
    } else {
        row(pos, header, QStringLiteral("map, %1 entries").arg(entries));
        pos += header;
        for (qint64 i = 0; i < entries && pos < size; ++i) {
            QString keyType;
            const qint64 ks = valueSize(d, size, pos, &keyType);
            if (ks < 0) {
                row(pos, size - pos, QStringLiteral("malformed key"));
                break;
            }
            QString key = keyType;
            const MsgpackHead kh = MsgpackHead::read(d + pos, size - pos);
            if (kh.kind == MsgpackHead::Kind::Str) {
                key = QStringLiteral("\"%1\"").arg(QString::fromUtf8(
                    reinterpret_cast<const char *>(d + pos + kh.header), qsizetype(kh.payload)));
            }
            QString valueType;
            const qint64 vs = valueSize(d, size, pos + ks, &valueType);
            if (vs < 0) {
                row(pos, size - pos, QStringLiteral("key %1 → malformed value").arg(key));
                break;
            }
            row(pos, ks + vs, QStringLiteral("key %1 (%2) → %3").arg(key, keyType, valueType));
            pos += ks + vs;
        }
    }
    out << QString() << hexLines(frame, 0, maxBytes);
    return out.join(QLatin1Char('\n'));
}

}  // namespace lmct
