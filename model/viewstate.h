#pragma once

#include "tracedocument.h"

#include <QObject>
#include <memory>
#include <optional>

namespace lmct {

/**
 * The shared view state of one open trace: the document, the selected record, the time range
 * and the time display mode. Every view observes it; no view talks to another directly.
 *
 * Times are `t_mono` seconds. The time range is inclusive; no range means the whole trace.
 *
 * Thread-safety: a QObject living on the GUI thread; use it from there only.
 */
class ViewState : public QObject {
    Q_OBJECT
public:
    explicit ViewState(QObject *parent = nullptr);

    std::shared_ptr<const TraceDocument> document() const { return m_doc; }
    void setDocument(std::shared_ptr<const TraceDocument> doc);

    /** Selected record index (file order), or -1. */
    int selectedRecord() const { return m_selected; }
    void setSelectedRecord(int record);

    struct TimeRange {
        double from = 0.0;
        double to = 0.0;
        bool operator==(const TimeRange &o) const { return from == o.from && to == o.to; }
    };
    std::optional<TimeRange> timeRange() const { return m_range; }
    void setTimeRange(std::optional<TimeRange> range);

    bool wallUtc() const { return m_wallUtc; }
    void setWallUtc(bool utc);

    /**
     * Says that the document gained records or diagnostics (progressive loading, live follow);
     * views showing counts or rows refresh. Emits documentGrew(). The document pointer is the
     * same.
     */
    void notifyDocumentGrew();

signals:
    void documentChanged();
    void selectedRecordChanged(int record);
    void timeRangeChanged();
    void wallUtcChanged(bool utc);
    /** The document gained records or diagnostics; see notifyDocumentGrew(). */
    void documentGrew();

private:
    std::shared_ptr<const TraceDocument> m_doc;
    int m_selected = -1;
    std::optional<TimeRange> m_range;
    bool m_wallUtc = false;
};

}  // namespace lmct
