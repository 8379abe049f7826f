#include "filter/filtervalueset.h"

#include "util/hex.h"

#include <algorithm>
#include <limits>

namespace lmct {

FilterValueSet::FilterValueSet(const std::vector<FilterLiteral> &values) {
    for (const FilterLiteral &v : values) {
        m_text.insert(v.utf8);
        if (v.hex) {
            m_hex.insert(*v.hex);
            if (std::find(m_hexLengths.begin(), m_hexLengths.end(), v.hex->size()) ==
                m_hexLengths.end()) {
                m_hexLengths.push_back(v.hex->size());
            }
        }
        if (v.number) {
            const FilterLiteral::Number &n = *v.number;
            m_numbers.insert(n.value);
            if (n.isInteger && n.unit == FilterLiteral::Unit::None) {
                m_integers.insert(n.integer);
            } else {
                m_otherNumbers.insert(n.value);
            }
        }
        if (const std::optional<bool> b = v.asBool()) {
            (*b ? m_true : m_false) = true;
        }
        m_null = m_null || v.keyword == FilterLiteral::Keyword::Null;
    }
    std::sort(m_hexLengths.begin(), m_hexLengths.end());
}

bool FilterValueSet::containsText(std::string_view utf8) const {
    return m_text.contains(QByteArray::fromRawData(utf8.data(), qsizetype(utf8.size())));
}

bool FilterValueSet::containsHash(std::string_view hash, bool isHexText) const {
    if (m_hexLengths.empty()) {
        return false;
    }
    // The hash's hex digits, lowercase, as far as the longest value reaches.
    const qsizetype available = qsizetype(hash.size()) * (isHexText ? 1 : 2);
    const qsizetype n = std::min(available, m_hexLengths.back());
    QByteArray digits(n, Qt::Uninitialized);
    for (qsizetype i = 0; i < n; ++i) {
        if (isHexText) {
            const char c = hash[size_t(i)];
            digits[i] = c >= 'A' && c <= 'F' ? char(c - 'A' + 'a') : c;
        } else {
            digits[i] = Hex::digit(Hex::nibbleAt(hash, size_t(i)));
        }
    }
    for (const qsizetype length : m_hexLengths) {
        if (length > n) {
            break;
        }
        if (m_hex.contains(QByteArray::fromRawData(digits.constData(), length))) {
            return true;
        }
    }
    return false;
}

bool FilterValueSet::containsInteger(qint64 v) const {
    return m_integers.count(v) != 0 || m_otherNumbers.count(double(v)) != 0;
}

bool FilterValueSet::containsUnsigned(quint64 v) const {
    if (v <= quint64(std::numeric_limits<qint64>::max()) && m_integers.count(qint64(v)) != 0) {
        return true;
    }
    return m_otherNumbers.count(double(v)) != 0;
}

bool FilterValueSet::containsFloat(double v) const {
    return m_numbers.count(v) != 0;  // NaN equals nothing, so it is never found
}

bool FilterValueSet::containsBool(bool v) const {
    return v ? m_true : m_false;
}

}  // namespace lmct
