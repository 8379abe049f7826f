#include "filter/filterliteral.h"

#include <QRegularExpression>
#include <cmath>
#include <limits>

namespace lmct {

namespace {

struct UnitScale {
    const char16_t *name;
    double scale;
    FilterLiteral::Unit unit;
};

const UnitScale kUnits[] = {
    {u"ns", 1e-9, FilterLiteral::Unit::Time},
    {u"us", 1e-6, FilterLiteral::Unit::Time},
    {u"\u00b5s", 1e-6, FilterLiteral::Unit::Time},  // µ MICRO SIGN
    {u"\u03bcs", 1e-6, FilterLiteral::Unit::Time},  // μ GREEK SMALL LETTER MU
    {u"ms", 1e-3, FilterLiteral::Unit::Time},
    {u"s", 1.0, FilterLiteral::Unit::Time},
    {u"min", 60.0, FilterLiteral::Unit::Time},
    {u"h", 3600.0, FilterLiteral::Unit::Time},
    {u"B", 1.0, FilterLiteral::Unit::Bytes},
    {u"kB", 1e3, FilterLiteral::Unit::Bytes},
    {u"KB", 1e3, FilterLiteral::Unit::Bytes},
    {u"MB", 1e6, FilterLiteral::Unit::Bytes},
    {u"GB", 1e9, FilterLiteral::Unit::Bytes},
    {u"TB", 1e12, FilterLiteral::Unit::Bytes},
    {u"KiB", 1024.0, FilterLiteral::Unit::Bytes},
    {u"MiB", 1024.0 * 1024.0, FilterLiteral::Unit::Bytes},
    {u"GiB", 1024.0 * 1024.0 * 1024.0, FilterLiteral::Unit::Bytes},
    {u"TiB", 1024.0 * 1024.0 * 1024.0 * 1024.0, FilterLiteral::Unit::Bytes},
};

}  // namespace

std::optional<FilterLiteral::Number> FilterLiteral::parseNumber(const QString &text) {
    static const QRegularExpression hexInt(QStringLiteral("^([+-]?)0[xX]([0-9a-fA-F]{1,16})$"));
    static const QRegularExpression decimal(
        QStringLiteral("^([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
                       "([A-Za-z\u00b5\u03bc]*)$"));
    Number n;
    if (const auto m = hexInt.match(text); m.hasMatch()) {
        bool ok = false;
        const quint64 u = m.captured(2).toULongLong(&ok, 16);
        if (!ok || u > quint64(std::numeric_limits<qint64>::max())) {
            return std::nullopt;
        }
        n.isInteger = true;
        n.hex = true;
        n.integer = m.captured(1) == QLatin1String("-") ? -qint64(u) : qint64(u);
        n.value = double(n.integer);
        return n;
    }
    const auto m = decimal.match(text);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    const QString digits = m.captured(1);
    const QString unit = m.captured(2);
    bool ok = false;
    const double v = digits.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        return std::nullopt;
    }
    double scale = 1.0;
    if (!unit.isEmpty()) {
        bool found = false;
        for (const UnitScale &u : kUnits) {
            if (unit == QStringView(u.name)) {
                scale = u.scale;
                n.unit = u.unit;
                found = true;
                break;
            }
        }
        if (!found) {
            return std::nullopt;
        }
    }
    n.value = v * scale;
    const bool integralText = !digits.contains(QLatin1Char('.')) &&
                              !digits.contains(QLatin1Char('e')) &&
                              !digits.contains(QLatin1Char('E'));
    if (n.unit == Unit::None && integralText) {
        const qint64 i = digits.toLongLong(&ok);
        if (ok) {
            n.isInteger = true;
            n.integer = i;
        }
    } else if (n.unit == Unit::Bytes && n.value == std::floor(n.value) &&
               std::abs(n.value) < 9.0e18) {
        n.isInteger = true;
        n.integer = qint64(n.value);
    }
    return n;
}

std::optional<QByteArray> FilterLiteral::parseHex(const QString &text) {
    QString t = text;
    if (t.endsWith(QChar(0x2026))) {
        t.chop(1);
    } else if (t.endsWith(QLatin1String("..."))) {
        t.chop(3);
    }
    if (t.startsWith(QLatin1String("0x")) || t.startsWith(QLatin1String("0X"))) {
        t = t.mid(2);
    }
    if (t.isEmpty()) {
        return std::nullopt;
    }
    QByteArray out;
    out.reserve(t.size());
    for (QChar c : t) {
        const char16_t u = c.unicode();
        if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'f')) {
            out.append(char(u));
        } else if (u >= 'A' && u <= 'F') {
            out.append(char(u - 'A' + 'a'));
        } else {
            return std::nullopt;
        }
    }
    return out;
}

FilterLiteral FilterLiteral::make(const QString &text, bool quoted, int column, int length) {
    FilterLiteral l;
    l.text = text;
    l.utf8 = text.toUtf8();
    l.quoted = quoted;
    l.column = column;
    l.length = length;
    l.number = parseNumber(text);
    l.hex = parseHex(text);
    if (!quoted) {
        if (text == QLatin1String("true")) {
            l.keyword = Keyword::True;
        } else if (text == QLatin1String("false")) {
            l.keyword = Keyword::False;
        } else if (text == QLatin1String("null") || text == QLatin1String("None") ||
                   text == QLatin1String("nil")) {
            l.keyword = Keyword::Null;
        }
    }
    return l;
}

std::optional<bool> FilterLiteral::asBool() const {
    if (keyword == Keyword::True) {
        return true;
    }
    if (keyword == Keyword::False) {
        return false;
    }
    if (text.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0) {
        return true;
    }
    if (text.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0) {
        return false;
    }
    if (number && number->isInteger && (number->integer == 0 || number->integer == 1)) {
        return number->integer == 1;
    }
    return std::nullopt;
}

QString FilterLiteral::toString() const {
    if (!quoted) {
        return text;
    }
    QString s = text;
    s.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    s.replace(QLatin1Char('"'), QLatin1String("\\\""));
    s.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    s.replace(QLatin1Char('\t'), QLatin1String("\\t"));
    s.replace(QLatin1Char('\r'), QLatin1String("\\r"));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

}  // namespace lmct
