#pragma once

#include "common/viewstateobserver.h"
#include "stats/tracestatistics.h"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QModelIndex;
class QTableView;
class QTabWidget;
class QTimer;

namespace lmct {

class StatisticsCharts;
class StatisticsTableModel;
class ViewState;

/**
 * Statistics of the records the ViewState selects (its filter and time range): a per-call table
 * with a totals row (sortable, the totals row stays last), tables per model, per rank and per
 * cache salt, charts of the calls (StatisticsCharts: counts and rates, the time between
 * successive calls; each exports as the viewer's plots do), and a summary of the
 * `read_prefetched_results` context-manager pairs.
 *
 * TraceStatistics is computed on Qt's global pool (its parallel parts run on the compute pool)
 * whenever the document, filter or time range changes, and at most once a second while a
 * followed document grows; the old numbers stay until the new ones are ready. Not while the
 * pane is hidden (e.g. a dock tabbed behind another, see setShown(): computed when shown), and not
 * while the file is still being read (isWaitingForLoad(): computed when loading ends): a pass
 * decodes every record's arguments. Clicking a call row sets the ViewState's filter to `call ==
 * <that call>`; clicking a group row sets it to the row's FilterRole expression.
 *
 * Ownership: owns its models and views; does not own the ViewState. Thread-safety: GUI thread.
 */
class StatisticsPane : public QWidget, public ViewStateObserver {
    Q_OBJECT
public:
    explicit StatisticsPane(QWidget *parent = nullptr);
    ~StatisticsPane() override;

    void setViewState(ViewState *state) override;
    void setShown(bool shown) override;

    StatisticsTableModel *callsModel() const { return m_calls; }
    StatisticsTableModel *modelsModel() const { return m_models; }
    StatisticsTableModel *ranksModel() const { return m_ranks; }
    StatisticsTableModel *saltsModel() const { return m_salts; }
    QTableView *callsView() const { return m_callsView; }
    /** The Charts tab. */
    StatisticsCharts *charts() const { return m_charts; }
    /** The tabs (Calls, Models, Ranks, Cache Salts, Charts). */
    QTabWidget *tabs() const { return m_tabs; }
    /** The statistics shown, or null. */
    std::shared_ptr<const TraceStatistics> statistics() const { return m_stats; }
    /** The context-manager pairs line. */
    QString pairsText() const;
    /** Whether a computation is running. */
    bool isBusy() const { return m_busy; }
    /** Whether the statistics wait for the document to finish loading (see the class). */
    bool isWaitingForLoad() const { return m_waitingForLoad; }

    /** The filter a click on row `index` of a view over one of the models sets, or empty. */
    static QString filterForRow(const QModelIndex &index);

signals:
    /** New statistics are shown. */
    void updated();

private:
    void recompute();
    void showEvent(QShowEvent *event) override;
    /** Shown and on screen: isVisible() and not a dock tab behind another (setShown). */
    bool isOnScreen() const { return m_shown && isVisible(); }
    void showStatistics(std::shared_ptr<const TraceStatistics> stats);
    void onRowClicked(const QModelIndex &index);
    QTableView *makeView(StatisticsTableModel *model);

    QPointer<ViewState> m_state;
    StatisticsTableModel *m_calls = nullptr;
    StatisticsTableModel *m_models = nullptr;
    StatisticsTableModel *m_ranks = nullptr;
    StatisticsTableModel *m_salts = nullptr;
    QTableView *m_callsView = nullptr;
    QTabWidget *m_tabs = nullptr;
    StatisticsCharts *m_charts = nullptr;
    QLabel *m_scope = nullptr;
    QLabel *m_pairs = nullptr;
    QTimer *m_regrow = nullptr;
    std::shared_ptr<const TraceStatistics> m_stats;
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
    bool m_busy = false;
    const void *m_statsDocument = nullptr;  // the document computed last (compared only)
    bool m_shown = true;                    // the dock is on screen (setShown)
    bool m_dirty = false;                   // to compute when shown or loaded
    bool m_waitingForLoad = false;          // the document is still being read
};

}  // namespace lmct
