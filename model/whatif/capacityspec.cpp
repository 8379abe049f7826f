#include "whatif/capacityspec.h"

#include <algorithm>
#include <limits>

namespace lmct {

namespace {

constexpr quint64 kMax = std::numeric_limits<quint64>::max();

const char *const kExpected = "expected a count or a size such as 48GiB";
const char *const kSuffixes = "B, KiB, MiB, GiB, TiB, KB, MB, GB or TB";

bool isSpace(QChar c) {
    return c == QLatin1Char(' ') || c == QLatin1Char('\t');
}

bool isDigit(QChar c) {
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

/** Bytes per unit of a size suffix (case ignored); 0 when `s` is none. */
quint64 multiplier(const QString &s) {
    const QString u = s.toLower();
    static const struct {
        const char *name;
        quint64 bytes;
    } kUnits[] = {{"b", 1},
                  {"kib", quint64(1) << 10},
                  {"mib", quint64(1) << 20},
                  {"gib", quint64(1) << 30},
                  {"tib", quint64(1) << 40},
                  {"kb", 1000},
                  {"mb", 1000000},
                  {"gb", 1000000000},
                  {"tb", 1000000000000}};
    for (const auto &unit : kUnits) {
        if (u == QLatin1String(unit.name)) {
            return unit.bytes;
        }
    }
    return 0;
}

/** `s` for a message: quoted, controls shown as '?' (a message goes to a terminal). */
QString quoted(const QString &s) {
    QString out = s;
    for (QChar &c : out) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format) {
            c = QLatin1Char('?');
        }
    }
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

/**
 * Parses text[begin, end) (spaces around it allowed); positions in messages are 1-based in
 * the whole `text`.
 */
std::optional<CapacitySpec> parseItem(const QString &text, qsizetype begin, qsizetype end,
                                      QString *error) {
    auto fail = [&](qsizetype at, const QString &what) -> std::optional<CapacitySpec> {
        if (error) {
            *error = QStringLiteral("%1 at %2: %3")
                         .arg(quoted(text.mid(begin, end - begin).trimmed()))
                         .arg(at + 1)
                         .arg(what);
        }
        return std::nullopt;
    };
    qsizetype i = begin;
    while (i < end && isSpace(text[i])) {
        ++i;
    }
    qsizetype last = end;
    while (last > i && isSpace(text[last - 1])) {
        --last;
    }
    if (i == last) {
        if (error) {
            *error = QStringLiteral("empty capacity at %1: %2").arg(begin + 1).arg(kExpected);
        }
        return std::nullopt;
    }
    const qsizetype start = i;
    if (text[i] == QLatin1Char('-')) {
        return fail(i, QStringLiteral("expected a capacity above zero, found a negative number"));
    }
    if (!isDigit(text[i])) {
        return fail(i, QStringLiteral("%1, found %2").arg(kExpected, quoted(text.mid(i, 1))));
    }
    // The whole part, exactly (up to 2^64 - 1).
    unsigned __int128 whole = 0;
    bool tooLarge = false;
    while (i < last && isDigit(text[i])) {
        whole = whole * 10 + unsigned(text[i].unicode() - '0');
        if (whole > kMax) {
            tooLarge = true;
            whole = kMax;  // keep scanning the digits, the message names the whole item
        }
        ++i;
    }
    // The fraction's digits, trailing zeros dropped.
    QString fraction;
    bool hasPoint = false;
    if (i < last && text[i] == QLatin1Char('.')) {
        hasPoint = true;
        ++i;
        if (i >= last || !isDigit(text[i])) {
            return fail(i,
                        QStringLiteral("expected a digit after the decimal point, found %1")
                            .arg(i >= last ? QStringLiteral("the end") : quoted(text.mid(i, 1))));
        }
        while (i < last && isDigit(text[i])) {
            fraction += text[i];
            ++i;
        }
        while (fraction.endsWith(QLatin1Char('0'))) {
            fraction.chop(1);
        }
    }
    const qsizetype numberEnd = i;
    // at most one space between the number and its suffix ("1.5 GB", not "1.5  GB")
    if (i < last && isSpace(text[i])) {
        ++i;
    }
    if (i < last && isSpace(text[i])) {
        return fail(i, QStringLiteral("expected a size suffix (%1) after at most one space, "
                                      "found another space")
                           .arg(QLatin1String(kSuffixes)));
    }
    const QString suffix = text.mid(i, last - i);
    const QString number = text.mid(start, numberEnd - start);
    const QString tooLargeMessage =
        QStringLiteral("expected at most 18446744073709551615 (2^64 - 1), found %1")
            .arg(suffix.isEmpty() ? number : number + QLatin1Char(' ') + suffix);
    CapacitySpec spec;
    if (suffix.isEmpty()) {
        if (hasPoint) {
            return fail(start, QStringLiteral("expected a whole chunk count (or a size such as "
                                              "1.5GiB), found %1")
                                   .arg(number));
        }
        if (tooLarge) {
            return fail(start, tooLargeMessage);
        }
        spec.value = quint64(whole);
    } else {
        const quint64 mult = multiplier(suffix);
        if (mult == 0) {
            return fail(i, QStringLiteral("expected a size suffix (%1), found %2")
                               .arg(QLatin1String(kSuffixes), quoted(suffix)));
        }
        if (tooLarge) {
            return fail(start, tooLargeMessage);
        }
        unsigned __int128 bytes = whole * mult;
        if (!fraction.isEmpty()) {
            // fraction × mult, exactly, by long multiplication from the last digit: the carry
            // left is the whole bytes, the first digit written the tenths of a byte
            unsigned __int128 carry = 0;
            int tenths = 0;
            for (qsizetype d = fraction.size() - 1; d >= 0; --d) {
                carry += unsigned(fraction[d].unicode() - '0') * (unsigned __int128)mult;
                tenths = int(carry % 10);
                carry /= 10;
            }
            // to the nearest whole byte, halves up
            bytes += carry + (tenths >= 5 ? 1 : 0);
        }
        if (bytes > kMax) {
            return fail(start, tooLargeMessage);
        }
        spec.value = quint64(bytes);
        spec.bytes = true;
    }
    if (spec.value == 0) {
        return fail(start,
                    QStringLiteral("expected a capacity above zero, found %1")
                        .arg(suffix.isEmpty() ? number : number + QLatin1Char(' ') + suffix));
    }
    return spec;
}

}  // namespace

std::optional<CapacitySpec> CapacitySpec::parse(const QString &text, QString *error) {
    return parseItem(text, 0, text.size(), error);
}

std::optional<std::vector<CapacitySpec>> CapacitySpec::parseList(const QString &text,
                                                                 QString *error) {
    std::vector<CapacitySpec> out;
    qsizetype begin = 0;
    while (true) {
        qsizetype comma = text.indexOf(QLatin1Char(','), begin);
        const qsizetype end = comma < 0 ? text.size() : comma;
        const auto spec = parseItem(text, begin, end, error);
        if (!spec) {
            return std::nullopt;
        }
        out.push_back(*spec);
        if (comma < 0) {
            break;
        }
        begin = comma + 1;
    }
    return out;
}

std::optional<quint64> CapacitySpec::chunks(const ChunkSize &size) const {
    if (!bytes) {
        return value;
    }
    return size.chunksFor(value);
}

}  // namespace lmct
