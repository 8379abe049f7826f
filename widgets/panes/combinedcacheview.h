#pragma once

#include "common/latestjob.h"

#include "cache/tracesetcache.h"

#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QTableView;

namespace lmct {

class TraceChooser;
class CacheSummaryTableModel;

/**
 * The cache behaviour of a deployment's traces (TraceSetCache): a chooser (all traces, or
 * one of them) over a table of figures, each with how it is combined over the traces (the
 * distinct keys a union of the merged keys, the other counts sums of the per-trace figures, the
 * hit ratio a ratio of the sums). One trace's keys, requests, anomalies and what-if in full are
 * the Cache Behaviour dock's (the combined tab's "Docks show:").
 *
 * The analysis reads every record of every trace: setTraceSet() runs it when the view is shown
 * (at once when it is, else at its next showEvent()), so a deployment whose Cache tab is never
 * opened is never analysed.
 *
 * Ownership: owns its model and view; shares the summary; a running computation holds copies
 * of what it reads and is cancelled on destruction. Thread-safety: GUI thread only.
 */
class CombinedCacheView : public QWidget {
    Q_OBJECT
public:
    explicit CombinedCacheView(QWidget *parent = nullptr);
    ~CombinedCacheView() override;

    /** Analyses every trace of `set` on a worker (JobPool) and shows the figures when done
     *  (ready()); a newer call cancels an older one, whose result is dropped. */
    void compute(const TraceSet &set);
    void cancel();
    /** The traces to analyse once shown (again after a change: call it once they are read). */
    void setTraceSet(const TraceSet &set);
    bool isComputing() const { return m_job.isRunning(); }
    /** Whether figures are shown (or being computed) for the traces. */
    bool hasSummary() const { return m_summary != nullptr || m_job.isRunning(); }

    /** Shows `summary` of traces labelled `labels` (null: nothing yet); keeps the choice. */
    void setSummary(std::shared_ptr<const TraceSetCache> summary, const QStringList &labels);
    std::shared_ptr<const TraceSetCache> summary() const { return m_summary; }
    /** -1: all traces; else the trace shown. */
    int choice() const;
    void setChoice(int trace);

    TraceChooser *chooser() const { return m_chooser; }
    CacheSummaryTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLabel *noteLabel() const { return m_note; }

protected:
    void showEvent(QShowEvent *event) override;

signals:
    /** Figures computed by compute() are shown. */
    void ready();

private:
    void show(int choice);

    TraceSet m_pending;  // traces set while hidden, analysed when shown
    bool m_hasPending = false;
    std::shared_ptr<const TraceSetCache> m_summary;
    TraceChooser *m_chooser = nullptr;
    QLabel *m_note = nullptr;
    QTableView *m_view = nullptr;
    CacheSummaryTableModel *m_model = nullptr;
    LatestJob<std::shared_ptr<const TraceSetCache>> m_job{this};
};

}  // namespace lmct
