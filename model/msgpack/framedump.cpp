#include "msgpack/framedump.h"

#include <QStringList>

namespace lmct {

namespace {

quint64 be(const uchar *p, int n) {
    quint64 v = 0;
    for (int i = 0; i < n; ++i) {
        v = (v << 8) | p[i];
    }
    return v;
}

}  // namespace

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
    auto need = [&](qint64 n) { return pos + n <= size; };
    // Containers: header length and element count (map entries count twice).
    auto container = [&](qint64 header, quint64 n, bool map, const QString &t) -> qint64 {
        setType(t);
        qint64 at = pos + header;
        const quint64 items = map ? 2 * n : n;
        for (quint64 i = 0; i < items; ++i) {
            const qint64 s = valueSize(d, size, at, nullptr, depth + 1);
            if (s < 0) {
                return -1;
            }
            at += s;
        }
        return at - pos;
    };
    auto blob = [&](int lenBytes, const char *name) -> qint64 {
        if (!need(1 + lenBytes)) {
            return -1;
        }
        const quint64 n = be(d + pos + 1, lenBytes);
        setType(QString::fromLatin1(name) + QStringLiteral("(%1)").arg(n));
        return need(qint64(1 + lenBytes + n)) ? qint64(1 + lenBytes + n) : -1;
    };
    if (b <= 0x7f) {
        setType(QStringLiteral("positive fixint"));
        return 1;
    }
    if (b >= 0xe0) {
        setType(QStringLiteral("negative fixint"));
        return 1;
    }
    if ((b & 0xf0) == 0x80) {
        return container(1, b & 0x0f, true, QStringLiteral("fixmap(%1)").arg(b & 0x0f));
    }
    if ((b & 0xf0) == 0x90) {
        return container(1, b & 0x0f, false, QStringLiteral("fixarray(%1)").arg(b & 0x0f));
    }
    if ((b & 0xe0) == 0xa0) {
        const int n = b & 0x1f;
        setType(QStringLiteral("fixstr(%1)").arg(n));
        return need(1 + n) ? 1 + n : -1;
    }
    switch (b) {
        case 0xc0:
            setType(QStringLiteral("nil"));
            return 1;
        case 0xc2:
            setType(QStringLiteral("false"));
            return 1;
        case 0xc3:
            setType(QStringLiteral("true"));
            return 1;
        case 0xc4:
            return blob(1, "bin8");
        case 0xc5:
            return blob(2, "bin16");
        case 0xc6:
            return blob(4, "bin32");
        case 0xd9:
            return blob(1, "str8");
        case 0xda:
            return blob(2, "str16");
        case 0xdb:
            return blob(4, "str32");
        case 0xca:
            setType(QStringLiteral("float32"));
            return need(5) ? 5 : -1;
        case 0xcb:
            setType(QStringLiteral("float64"));
            return need(9) ? 9 : -1;
        case 0xcc:
            setType(QStringLiteral("uint8"));
            return need(2) ? 2 : -1;
        case 0xcd:
            setType(QStringLiteral("uint16"));
            return need(3) ? 3 : -1;
        case 0xce:
            setType(QStringLiteral("uint32"));
            return need(5) ? 5 : -1;
        case 0xcf:
            setType(QStringLiteral("uint64"));
            return need(9) ? 9 : -1;
        case 0xd0:
            setType(QStringLiteral("int8"));
            return need(2) ? 2 : -1;
        case 0xd1:
            setType(QStringLiteral("int16"));
            return need(3) ? 3 : -1;
        case 0xd2:
            setType(QStringLiteral("int32"));
            return need(5) ? 5 : -1;
        case 0xd3:
            setType(QStringLiteral("int64"));
            return need(9) ? 9 : -1;
        case 0xd4:
            setType(QStringLiteral("fixext1"));
            return need(3) ? 3 : -1;
        case 0xd5:
            setType(QStringLiteral("fixext2"));
            return need(4) ? 4 : -1;
        case 0xd6:
            setType(QStringLiteral("fixext4"));
            return need(6) ? 6 : -1;
        case 0xd7:
            setType(QStringLiteral("fixext8"));
            return need(10) ? 10 : -1;
        case 0xd8:
            setType(QStringLiteral("fixext16"));
            return need(18) ? 18 : -1;
        case 0xc7:
        case 0xc8:
        case 0xc9: {
            const int lb = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;
            if (!need(1 + lb)) {
                return -1;
            }
            const quint64 n = be(d + pos + 1, lb);
            setType(QStringLiteral("ext(%1)").arg(n));
            return need(qint64(2 + lb + n)) ? qint64(2 + lb + n) : -1;
        }
        case 0xdc:
        case 0xdd:
        case 0xde:
        case 0xdf: {
            const int lb = (b == 0xdc || b == 0xde) ? 2 : 4;
            if (!need(1 + lb)) {
                return -1;
            }
            const quint64 n = be(d + pos + 1, lb);
            const bool map = b >= 0xde;
            return container(1 + lb, n, map,
                             QStringLiteral("%1%2(%3)")
                                 .arg(map ? QStringLiteral("map") : QStringLiteral("array"))
                                 .arg(lb * 8)
                                 .arg(n));
        }
        default:
            setType(QStringLiteral("reserved 0x%1").arg(b, 2, 16));
            return -1;
    }
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
    const quint64 bodyLen = be(d, 4);
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
    const uchar b = size > 4 ? d[4] : 0;
    qint64 entries = -1;
    qint64 header = 1;
    if (size > 4 && (b & 0xf0) == 0x80) {
        entries = b & 0x0f;
    } else if (size > 6 && b == 0xde) {
        entries = qint64(be(d + 5, 2));
        header = 3;
    } else if (size > 8 && b == 0xdf) {
        entries = qint64(be(d + 5, 4));
        header = 5;
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
            if ((d[pos] & 0xe0) == 0xa0) {
                key = QStringLiteral("\"%1\"").arg(
                    QString::fromUtf8(reinterpret_cast<const char *>(d + pos + 1), ks - 1));
            } else if (d[pos] == 0xd9 && ks >= 2) {
                key = QStringLiteral("\"%1\"").arg(
                    QString::fromUtf8(reinterpret_cast<const char *>(d + pos + 2), ks - 2));
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
