#include "shell/lanegroupview.h"

#include "deploymentlink.h"
#include "shell/deploymenttimelines.h"
#include "timeline/lanelayout.h"
#include "timeline/timelinewidget.h"
#include "viewstate.h"

#include <QVBoxLayout>
#include <algorithm>

namespace lmct {

LaneGroupView::LaneGroupView(QWidget *parent) : QWidget(parent) {
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
}

void LaneGroupView::clear() {
    for (const QPointer<ViewState> &s : std::as_const(m_traceStates)) {
        if (s) {
            disconnect(s, nullptr, this, nullptr);
        }
    }
    delete m_timelines;
    m_timelines = nullptr;
    delete m_link;
    m_link = nullptr;
    qDeleteAll(m_rowStates);
    m_rowStates.clear();
    m_rows.clear();
    m_traceStates.clear();
}

void LaneGroupView::setGroups(const TraceSet &set, const LaneGrouping::Result &groups,
                              const QList<ViewState *> &traceStates) {
    clear();
    m_set = set;
    for (ViewState *s : traceStates) {
        m_traceStates.append(s);
    }
    // Rows trace by trace, each trace's groups in the grouping's order.
    TraceSet rows;
    QStringList labels;
    QList<int> badges;
    for (int t = 0; t < set.size(); ++t) {
        for (const LaneGrouping::Group &g : groups.groups) {
            const auto &records = g.records[size_t(t)];
            if (!records || records->empty()) {
                continue;
            }
            Row row;
            row.trace = t;
            row.label = set.size() > 1 ? tr("%1 · %2").arg(set.displayLabel(t), g.label) : g.label;
            row.records = records;
            const RecordStore &rs = set.document(t).records();
            QSet<quint32> ids;
            for (const int rec : *records) {
                ids.insert(rs.qualnameId(rec));
            }
            for (const quint32 id : std::as_const(ids)) {
                row.qualnames.insert(rs.qualnameById(id));
            }
            m_rows.append(row);
            const int r = rows.add(set.documentPtr(t), set.trace(t).path);
            rows.setOffset(r, set.offset(t));
            labels << tr("%1 · %n record(s)", nullptr, int(records->size())).arg(row.label);
            badges << t;
        }
    }
    m_link = new DeploymentLink(this);
    for (int r = 0; r < m_rows.size(); ++r) {
        auto *s = new ViewState(this);
        s->setDocument(rows.documentPtr(r));
        if (ViewState *ts = m_traceStates.value(m_rows[r].trace)) {
            s->setWallUtc(ts->wallUtc());
        }
        m_rowStates.append(s);
        const int trace = m_rows[r].trace;
        connect(s, &ViewState::selectedRecordChanged, this, [this, trace](int record) {
            if (!m_syncing && record >= 0 && m_traceStates.value(trace)) {
                m_syncing = true;
                m_traceStates[trace]->setSelectedRecord(record);
                m_syncing = false;
            }
        });
        connect(s, &ViewState::timeRangeChanged, this, [this, s, trace] {
            if (!m_syncing && m_traceStates.value(trace)) {
                m_syncing = true;
                m_traceStates[trace]->setTimeRange(s->timeRange());
                m_syncing = false;
            }
        });
    }
    for (int t = 0; t < m_traceStates.size(); ++t) {
        ViewState *ts = m_traceStates[t];
        connect(ts, &ViewState::selectedRecordChanged, this, [this, t](int record) {
            const int row = rowOf(t, record);
            if (!m_syncing && row >= 0) {
                m_syncing = true;
                m_rowStates[row]->setSelectedRecord(record);
                m_syncing = false;
            }
        });
        connect(ts, &ViewState::timeRangeChanged, this, [this, t, ts] {
            for (int r = 0; !m_syncing && r < m_rows.size(); ++r) {
                if (m_rows[r].trace == t) {
                    m_syncing = true;
                    m_rowStates[r]->setTimeRange(ts->timeRange());
                    m_syncing = false;
                    break;  // the row link maps it to the others
                }
            }
        });
    }
    m_link->setTraces(rows, m_rowStates);
    for (int r = 0; r < m_rows.size(); ++r) {
        applyFilter(r);
    }
    m_timelines = new DeploymentTimelines;
    m_timelines->setTraces(rows, m_rowStates, m_link, labels, badges, true);
    m_layout->addWidget(m_timelines);
    for (int r = 0; r < m_rows.size(); ++r) {
        connect(m_timelines->timeline(r), &TimelineWidget::indexReady, this,
                [this, r] { trimLanes(r); });
    }
}

void LaneGroupView::trimLanes(int row) {
    Row &r = m_rows[row];
    if (r.lanesTrimmed) {
        return;  // a lane shown again by hand stays
    }
    r.lanesTrimmed = true;
    TimelineWidget *timeline = m_timelines->timeline(row);
    for (const QString &key : timeline->laneKeys()) {
        const QString name = LaneLayout::nameOf(key);
        bool present = r.qualnames.contains(name);
        if (LaneLayout::isSpanKey(key)) {
            for (const QString &q : std::as_const(r.qualnames)) {
                present = present || q.startsWith(name);
            }
        }
        if (!present) {
            timeline->setLaneHidden(key, true);
        }
    }
}

void LaneGroupView::setSet(const TraceSet &set) {
    m_set = set;
    if (!m_link) {
        return;
    }
    TraceSet rows = m_link->set();
    for (int r = 0; r < m_rows.size(); ++r) {
        rows.setOffset(r, set.offset(m_rows[r].trace));
    }
    m_link->setSet(rows);
    m_timelines->updateSet(rows);
}

void LaneGroupView::setFilter(
    const std::vector<std::shared_ptr<const std::vector<int>>> &perTrace) {
    m_filter = perTrace;
    for (int r = 0; r < m_rows.size(); ++r) {
        applyFilter(r);
    }
}

void LaneGroupView::applyFilter(int row) {
    const Row &r = m_rows[row];
    std::shared_ptr<const std::vector<int>> shown = r.records;
    if (size_t(r.trace) < m_filter.size() && m_filter[size_t(r.trace)]) {
        auto both = std::make_shared<std::vector<int>>();
        const std::vector<int> &f = *m_filter[size_t(r.trace)];
        std::set_intersection(r.records->begin(), r.records->end(), f.begin(), f.end(),
                              std::back_inserter(*both));
        shown = std::move(both);
    }
    // The group is the row's filter: its timeline hides every other record.
    ViewState *s = m_rowStates[row];
    s->setFilterText(r.label);
    s->setFilterResult(r.label, shown);
}

int LaneGroupView::traceOfRow(int row) const {
    return row >= 0 && row < m_rows.size() ? m_rows[row].trace : -1;
}

int LaneGroupView::rowOf(int t, int record) const {
    for (int r = 0; r < m_rows.size(); ++r) {
        const Row &row = m_rows[r];
        if (row.trace == t &&
            std::binary_search(row.records->begin(), row.records->end(), record)) {
            return r;
        }
    }
    return -1;
}

}  // namespace lmct
