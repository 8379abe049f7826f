#include "export/jsonsink.h"

#include "util/hex.h"

#include <QLocale>
#include <QString>
#include <cmath>

namespace lmct {

namespace {

/** The two lowercase hex digits of every byte value. */
struct HexPairs {
    char pairs[512];
    constexpr HexPairs() : pairs() {
        for (int b = 0; b < 256; ++b) {
            pairs[2 * b] = Hex::digit(b >> 4);
            pairs[2 * b + 1] = Hex::digit(b & 0xf);
        }
    }
};
constexpr HexPairs kHexPairs;

/** Length of the well-formed UTF-8 sequence at `p` (Unicode table 3-7), 0 when ill-formed. */
int utf8Sequence(const uchar *p, const uchar *end) {
    const uchar c = p[0];
    const qsizetype left = end - p;
    auto cont = [&](int i, uchar lo = 0x80, uchar hi = 0xbf) {
        return i < left && p[i] >= lo && p[i] <= hi;
    };
    if (c >= 0xc2 && c <= 0xdf) {
        return cont(1) ? 2 : 0;
    }
    if (c == 0xe0) {
        return cont(1, 0xa0) && cont(2) ? 3 : 0;
    }
    if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) {
        return cont(1) && cont(2) ? 3 : 0;
    }
    if (c == 0xed) {
        return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
    }
    if (c == 0xf0) {
        return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    }
    if (c >= 0xf1 && c <= 0xf3) {
        return cont(1) && cont(2) && cont(3) ? 4 : 0;
    }
    if (c == 0xf4) {
        return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

}  // namespace

void JsonSink::appendHex(const char *data, quint32 n) {
    char *w = room(2 * qsizetype(n));
    for (quint32 i = 0; i < n; ++i) {
        std::memcpy(w + 2 * i, kHexPairs.pairs + 2 * uchar(data[i]), 2);
    }
    advance(2 * qsizetype(n));
}

void JsonSink::appendDouble(double v) {
    if (!std::isfinite(v)) {
        literal("null");
        return;
    }
    // QJsonValue(double) holds an integral double of at most 2^53 as an integer.
    constexpr double kExact = 9007199254740992.0;
    if (v >= -kExact && v <= kExact && v == std::trunc(v)) {
        appendInt(qint64(v));
        return;
    }
    append(QByteArray::number(v, 'g', QLocale::FloatingPointShortest));
}

bool JsonSink::appendEscaped(std::string_view s) {
    const auto *p = reinterpret_cast<const uchar *>(s.data());
    const auto *end = p + s.size();
    const uchar *run = p;
    while (p < end) {
        // Eight bytes at a time while none is a control, '"', '\\' or above 0x7f.
        while (end - p >= 8) {
            quint64 x;
            std::memcpy(&x, p, 8);
            constexpr quint64 kOnes = 0x0101010101010101ull;
            constexpr quint64 kHigh = 0x8080808080808080ull;
            const quint64 quote = x ^ (kOnes * '"');
            const quint64 slash = x ^ (kOnes * '\\');
            // Any byte below 0x20, zero after the XORs, or with its top bit set.
            const quint64 special = (((x - kOnes * 0x20) & ~x) | ((quote - kOnes) & ~quote) |
                                     ((slash - kOnes) & ~slash) | x) &
                                    kHigh;
            if (special) {
                break;
            }
            p += 8;
        }
        if (p >= end) {
            break;
        }
        const uchar c = *p;
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            ++p;
            continue;
        }
        if (c >= 0x80) {
            const int n = utf8Sequence(p, end);
            if (n == 0) {
                return false;
            }
            p += n;
            continue;
        }
        append(reinterpret_cast<const char *>(run), p - run);
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        int len = 2;
        switch (c) {
            case '"':
                esc[1] = '"';
                break;
            case '\\':
                esc[1] = '\\';
                break;
            case '\b':
                esc[1] = 'b';
                break;
            case '\f':
                esc[1] = 'f';
                break;
            case '\n':
                esc[1] = 'n';
                break;
            case '\r':
                esc[1] = 'r';
                break;
            case '\t':
                esc[1] = 't';
                break;
            default:
                esc[1] = 'u';
                esc[2] = '0';
                esc[3] = '0';
                esc[4] = Hex::digit(c >> 4);
                esc[5] = Hex::digit(c & 0xf);
                len = 6;
        }
        append(esc, len);
        run = ++p;
    }
    append(reinterpret_cast<const char *>(run), p - run);
    return true;
}

void JsonSink::appendString(std::string_view utf8) {
    append('"');
    const qsizetype mark = size();
    if (!appendEscaped(utf8)) {
        // Not well-formed: as QString::fromUtf8 reads it (U+FFFD for each bad byte).
        truncate(mark);
        const QByteArray valid = QString::fromUtf8(utf8.data(), qsizetype(utf8.size())).toUtf8();
        appendEscaped(std::string_view(valid.constData(), size_t(valid.size())));
    }
    append('"');
}

}  // namespace lmct
