#pragma once

#include "timeline/lanegrouping.h"
#include "trace/traceset.h"

#include <QList>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

class QVBoxLayout;

namespace lmct {

class DeploymentLink;
class DeploymentTimelines;
class ViewState;

/**
 * The lanes of a deployment's traces grouped by model, rank or tenant (LaneGrouping): one
 * timeline per (trace, group) with records, one under the other, each showing only its group's
 * records (the others hidden, not dimmed; the lanes of calls the group has none of hidden
 * too), labelled "worker-0.lct · rank 2/4", its badge the
 * trace's. A TP=4 trace shows its four ranks one under the other, so a late rank stands out.
 *
 * Each row has a ViewState of its own on its trace's document, whose filter result is the
 * group's records (intersected with the tab's filter, setFilter()); the rows are linked on the
 * common axis by a DeploymentLink (the same offsets as the traces). A row's selection and time
 * range are carried to its trace's ViewState (the table, the docks), and a trace's selection to
 * the row of that record's group.
 *
 * Ownership: owns the rows' ViewStates, link and timelines; not the traces' ViewStates.
 * Thread-safety: GUI thread only.
 */
class LaneGroupView : public QWidget {
    Q_OBJECT
public:
    explicit LaneGroupView(QWidget *parent = nullptr);

    /** Rows for `groups` of `set`'s traces; traceStates[t] is trace t's ViewState. Replaces the
     *  rows shown before. */
    void setGroups(const TraceSet &set, const LaneGrouping::Result &groups,
                   const QList<ViewState *> &traceStates);
    /** The tab's filter per trace (ascending records; empty: no filter). */
    void setFilter(const std::vector<std::shared_ptr<const std::vector<int>>> &perTrace);
    /** New offsets: the rows move with their traces. */
    void setSet(const TraceSet &set);

    int rowCount() const { return int(m_rows.size()); }
    ViewState *rowState(int row) const { return m_rowStates.value(row); }
    int traceOfRow(int row) const;
    /** The row showing record `record` of trace `t`, or -1. */
    int rowOf(int t, int record) const;
    DeploymentTimelines *timelines() const { return m_timelines; }
    DeploymentLink *link() const { return m_link; }

private:
    struct Row {
        int trace = 0;
        QString label;
        std::shared_ptr<const std::vector<int>> records;  // the group's, ascending
        QSet<QString> qualnames;                          // of the group's records
        bool lanesTrimmed = false;
    };
    /** Hides the row's lanes of calls its group has none of (once, when first indexed). */
    void trimLanes(int row);
    void applyFilter(int row);
    void clear();

    QVBoxLayout *m_layout = nullptr;
    TraceSet m_set;
    QList<Row> m_rows;
    QList<ViewState *> m_rowStates;
    QList<QPointer<ViewState>> m_traceStates;
    std::vector<std::shared_ptr<const std::vector<int>>> m_filter;
    DeploymentLink *m_link = nullptr;
    DeploymentTimelines *m_timelines = nullptr;
    bool m_syncing = false;
};

}  // namespace lmct
