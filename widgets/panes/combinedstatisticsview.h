#pragma once

#include "common/latestjob.h"

#include "stats/tracesetstatistics.h"

#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QTabWidget;
class QTableView;

namespace lmct {

class TraceChooser;
class StatisticsTableModel;

/**
 * The statistics of a deployment's traces (TraceSetStatistics): a chooser (all traces, or one
 * of them) over the per-call table and the tables per model, per rank and per cache salt.
 *
 * "All traces" shows the combined statistics: counts exact over every trace, times on the
 * aligned t_wall axis from the combined start, distinct keys an upper bound (a key several
 * traces touch counts once per trace); the note under the chooser says so. One trace shows its
 * own statistics, as a single trace's Statistics pane does.
 *
 * Ownership: owns its models and views; shares the statistics; a running computation holds
 * copies of what it reads and is cancelled on destruction. Thread-safety: GUI thread only.
 */
class CombinedStatisticsView : public QWidget {
    Q_OBJECT
public:
    explicit CombinedStatisticsView(QWidget *parent = nullptr);

    ~CombinedStatisticsView() override;

    /**
     * Computes the statistics of `set` over `order` on a worker (JobPool), of the records in
     * `subsets` (per trace, ascending; empty: every record), and shows them when done (ready());
     * a newer call cancels an older one, whose result is dropped.
     */
    void compute(const TraceSet &set, std::shared_ptr<const MergedOrder> order,
                 const std::vector<std::shared_ptr<const std::vector<int>>> &subsets);
    /** Cancels a running computation. */
    void cancel();
    bool isComputing() const { return m_job.isRunning(); }

    /** Shows `stats` of traces labelled `labels` (null: nothing yet); keeps the choice. */
    void setStatistics(std::shared_ptr<const TraceSetStatistics> stats, const QStringList &labels);
    /** Says that statistics are being computed (or, empty, that they are in). */
    void setBusy(const QString &text);
    /** -1: all traces; else the trace shown. */
    int choice() const;
    void setChoice(int trace);

    TraceChooser *chooser() const { return m_chooser; }
    StatisticsTableModel *callModel() const { return m_calls; }
    StatisticsTableModel *groupModel(int table) const;
    QLabel *noteLabel() const { return m_note; }

signals:
    /** Statistics computed by compute() are shown. */
    void ready();

private:
    void show(int choice);

    std::shared_ptr<const TraceSetStatistics> m_stats;
    TraceChooser *m_chooser = nullptr;
    QLabel *m_note = nullptr;
    QTabWidget *m_tabs = nullptr;
    StatisticsTableModel *m_calls = nullptr;
    StatisticsTableModel *m_models = nullptr;
    StatisticsTableModel *m_ranks = nullptr;
    StatisticsTableModel *m_salts = nullptr;
    LatestJob<std::shared_ptr<const TraceSetStatistics>> m_job{this};
};

}  // namespace lmct
