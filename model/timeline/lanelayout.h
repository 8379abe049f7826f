#pragma once

#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

namespace lmct {

/**
 * The timeline's rows: which lanes there are, in what order, and which are hidden. Keys and kinds
 * only (labels, colours and heights are the widgets'): a calls row per qualname with records,
 * keyed by the qualname, and a spans row per context-manager family (ContextPairs::families()),
 * keyed "spans:<family>".
 *
 * The default order is Qualname's call flow (Qualname::flowLess), a family's spans row before
 * its `__enter__` row (else its `__exit__` row, else last). The user's order wins: moved rows
 * keep their places, and a lane that appears later goes after its default predecessor. Keys stay
 * known (order(), and hidden) when their lanes are gone for a while, e.g. while a new index is
 * built.
 *
 * Ownership: a value type. Thread-safety: none (one thread).
 */
class LaneLayout {
public:
    struct Row {
        enum class Kind { Calls, Spans };
        Kind kind = Kind::Calls;
        QString key;      ///< the qualname, or "spans:" + the family
        QString name;     ///< the qualname, or the family (e.g. "...read_prefetched_results")
        int family = -1;  ///< Spans: the family's index in setLanes()' families
    };

    static QString spanKey(const QString &family);
    static bool isSpanKey(const QString &key);
    /** The qualname of a calls key, the family of a spans key. */
    static QString nameOf(const QString &key);

    /** The lanes there are: qualnames with records (any order) and the span families. */
    void setLanes(const QStringList &qualnames, const QStringList &families);

    /** Every known key in display order, hidden ones included. */
    const QStringList &order() const { return m_order; }
    /** The shown rows in display order: the present lanes, less the hidden ones. */
    const QVector<Row> &rows() const { return m_rows; }
    /** The keys of rows(). */
    QStringList rowKeys() const;

    bool isHidden(const QString &key) const { return m_hidden.contains(key); }
    void setHidden(const QString &key, bool hidden);
    /**
     * Moves the shown row `key` by `delta` shown rows (< 0: up), clamped to the first and last;
     * false when it did not move (not shown, or at that end already).
     */
    bool move(const QString &key, int delta);
    /** Back to the default order with every lane shown. */
    void reset();

private:
    void update();

    QStringList m_qualnames;
    QStringList m_families;
    QStringList m_order;     // every known key, in display order
    QSet<QString> m_hidden;  // hidden keys
    QVector<Row> m_rows;
};

}  // namespace lmct
