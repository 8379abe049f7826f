#pragma once

#include "filter/filternode.h"

#include <QString>
#include <memory>

namespace lmct {

/**
 * A parsed filter expression (the language is documented in docs/filter-language.md).
 *
 * parse() either yields a valid expression (an AST of FilterNode) or an Error naming the 1-based
 * column and what was expected and found, e.g. "column 12: expected a value after '==', found end
 * of input". Type checks that do not depend on the record (a number for t_mono, hex digits for
 * chunk_hash, a valid regular expression for matches) are done here, so a valid expression
 * never fails later. An empty (or blank) expression is valid and matches every record.
 *
 * Usage: parse as the user types, show errorString() until isValid(), then hand the expression
 * to a FilterEvaluator. Nothing should be applied while it is invalid.
 *
 * Ownership: the AST is shared (copies are cheap) and immutable.
 * Thread-safety: immutable after parse(); a valid expression may be evaluated from several
 * threads at once.
 */
class FilterExpression {
public:
    struct Error {
        int column = 0;   ///< 1-based QChar position where the problem is
        int length = 0;   ///< characters to underline (0 at the end of input)
        QString message;  ///< "expected ..., found ..."
        /** "column 12: expected a value after '==', found end of input" */
        QString toString() const;
    };

    /** Nesting of parentheses and `!` beyond this is refused (bounded recursion). */
    static constexpr int kMaxDepth = 200;

    /** The empty expression: valid, matches everything. */
    FilterExpression() = default;

    static FilterExpression parse(const QString &text);

    QString text() const { return m_text; }
    bool isValid() const { return m_error.message.isEmpty(); }
    /** Valid and without any condition (blank text): every record matches. */
    bool isEmpty() const { return isValid() && !m_root; }
    const Error &error() const { return m_error; }
    /** error().toString() when invalid; empty otherwise. */
    QString errorString() const { return isValid() ? QString() : m_error.toString(); }

    /** The root node; null when empty or invalid. */
    std::shared_ptr<const FilterNode> root() const { return m_root; }
    /** Whether any condition needs the records' arguments decoded. */
    bool needsArgs() const { return m_root && m_root->needsArgs(); }
    /** Canonical text (fully parenthesized); empty when empty or invalid. */
    QString toString() const { return m_root ? m_root->toString() : QString(); }

private:
    QString m_text;
    std::shared_ptr<const FilterNode> m_root;
    Error m_error;
};

}  // namespace lmct
