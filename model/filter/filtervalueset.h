#pragma once

#include "filter/filterliteral.h"

#include <QByteArray>
#include <QSet>
#include <QtGlobal>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace lmct {

/**
 * The values of a filter's `field in [v1, v2, ...]`, hashed once so that a membership test costs
 * a few hash look-ups instead of a scan of the list.
 *
 * Each contains...() answers exactly what "the scalar == some value of the list" answers in the
 * filter language (docs/filter-language.md), for one kind of scalar:
 * - text: the same UTF-8 bytes as a value's text;
 * - chunk hashes (raw bytes, or hex text): a value's hex digits are a prefix of the hash's hex
 *   (case ignored);
 * - integers: an integer value without a unit equal to it, or any other number (units applied:
 *   seconds, bytes) equal to it as a double;
 * - floats: any number value equal to it (NaN never is);
 * - booleans: `true`/`false`, their text in any case, or the integers 1/0;
 * - null: a `null` keyword.
 *
 * Units: numbers as FilterLiteral::Number::value (seconds, bytes). Ownership: copies what it
 * needs from the literals. Thread-safety: a value type; const methods may run concurrently.
 */
class FilterValueSet {
public:
    FilterValueSet() = default;
    explicit FilterValueSet(const std::vector<FilterLiteral> &values);

    /** A string scalar (UTF-8). */
    bool containsText(std::string_view utf8) const;
    /** A chunk hash: `raw` bytes when `isHexText` is false, else hex digits (any case). */
    bool containsHash(std::string_view hash, bool isHexText) const;
    bool containsInteger(qint64 v) const;
    bool containsUnsigned(quint64 v) const;
    bool containsFloat(double v) const;
    bool containsBool(bool v) const;
    bool containsNull() const { return m_null; }

private:
    QSet<QByteArray> m_text;                    // every value's UTF-8 text
    QSet<QByteArray> m_hex;                     // lowercase hex digits of the hex values
    std::vector<qsizetype> m_hexLengths;        // the distinct lengths in m_hex, ascending
    std::unordered_set<qint64> m_integers;      // integers written without a unit
    std::unordered_set<double> m_otherNumbers;  // values of the other numbers
    std::unordered_set<double> m_numbers;       // values of every number
    bool m_true = false;
    bool m_false = false;
    bool m_null = false;
};

}  // namespace lmct
