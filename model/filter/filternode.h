#pragma once

#include "filter/filterfield.h"
#include "filter/filterliteral.h"

#include <QRegularExpression>
#include <QString>
#include <memory>
#include <vector>

namespace lmct {

/**
 * One node of a parsed filter expression (FilterExpression builds the tree).
 *
 * - And / Or: two or more children, evaluated left to right with short-circuit;
 * - Not: one child;
 * - Compare: `field op value` (or `field in [values]`); for Matches, `regex` is compiled and
 *   optimized once at parse time;
 * - Exists: a bare field, true when the field is present and truthy.
 *
 * `column` is the 1-based column of the node's first character in the expression.
 *
 * Ownership: children are shared and immutable once parsed. Thread-safety: immutable after
 * parsing; safe to read from several threads (QRegularExpression::match is const and the
 * pattern is compiled before sharing).
 */
struct FilterNode {
    enum class Kind : quint8 { And, Or, Not, Compare, Exists };
    enum class Op : quint8 { Eq, Ne, Lt, Le, Gt, Ge, Contains, Matches, In };

    Kind kind = Kind::Compare;
    int column = 0;
    std::vector<std::shared_ptr<const FilterNode>> children;

    FilterField field;
    Op op = Op::Eq;
    std::vector<FilterLiteral> values;  ///< one value, or the list of `in`
    QRegularExpression regex;           ///< Matches only

    /** Whether evaluating this node (or a child) needs the record's arguments. */
    bool needsArgs() const;
    /** Canonical text: fully parenthesized, normalized operators, literals as written. */
    QString toString() const;
    /** "==", "!=", "<", ..., "contains", "matches", "in". */
    static QString opName(Op op);
};

}  // namespace lmct
