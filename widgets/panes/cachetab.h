#pragma once

#include "cache/cacheanalysis.h"

#include <QString>
#include <QWidget>
#include <memory>

class QAbstractItemModel;
class QTableView;

namespace lmct {

/**
 * One tab of the Cache Behaviour pane (CacheBehaviourPane): a view of one part of the
 * CacheAnalysis of the current trace. The pane hands every tab the results it shows
 * (setAnalysis()) and turns a tab's recordActivated() into the ViewState's selected record, so a
 * tab never touches the ViewState nor another tab.
 *
 * Units: records are record indices in file order; counts are as CacheAnalysis counts them.
 *
 * Ownership: shares the analysis shown (it stays alive while shown); owns its widgets and item
 * models (Qt parent).
 *
 * Thread-safety: GUI thread only. Errors: none; without an analysis (nullptr: no trace, or still
 * analysing) a tab is empty.
 */
class CacheTab : public QWidget {
    Q_OBJECT
public:
    explicit CacheTab(QWidget *parent = nullptr);

    /** Shows `analysis` (nullptr: nothing). */
    void setAnalysis(std::shared_ptr<const CacheAnalysis> analysis);

    /** `n` with the locale's digit grouping: "11,906". */
    static QString count(qint64 n);
    /** "1 key", "2 keys", "11,906 keys": a count and its noun, singular for exactly one. */
    static QString counted(qint64 n, const QString &one, const QString &many);

signals:
    /** A row (or cell) that stands for `record` was clicked or moved to. */
    void recordActivated(int record);

protected:
    /** Shows m_analysis, just set by setAnalysis(). */
    virtual void showAnalysis() = 0;
    /** A read-only table over `model` selecting one row at a time, as all the pane's tables. */
    QTableView *createTable(QAbstractItemModel *model);

    std::shared_ptr<const CacheAnalysis> m_analysis;
};

}  // namespace lmct
