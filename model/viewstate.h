#pragma once

#include "trace/tracedocument.h"
#include "whatif/cachepolicy.h"
#include "whatif/hitovertime.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace lmct {

/**
 * The shared view state of one open trace: the document, the selected record, the time range
 * and the time display mode. Every view observes it; no view talks to another directly.
 *
 * The active filter: filterText() is what the user asked for (set with setFilterText(), e.g. by
 * the filter bar or a "Filter to this" menu entry); filterRecords() is the evaluated result for
 * filterAppliedText() (sorted record indices), or null when no filter is applied. Whoever
 * evaluates filters (the tab's FilterBar) observes filterTextChanged(), evaluates off the GUI
 * thread and hands the result over with setFilterResult(); until then the previous result stays
 * in place. filterChanged() is emitted when the applied result changes.
 *
 * The followed key: an expression selecting the records that touch one key value (e.g.
 * `chunk_hash == 9f3a5c`), set by "Follow this key"; followedRecords() are its matching records
 * (sorted), set by the view that evaluates it. Views highlight them and step through them.
 *
 * The cache what-if: whatIfChoice() is the capacity and the policies chosen in the What-if tab
 * (capacity in chunks, or bytes when inBytes); hitOverTime() is the hit ratio over time of that
 * choice (HitOverTime, built off the GUI thread by the tab and handed over with setHitOverTime()),
 * which the timeline draws under its lanes; null until one is built. A new document clears both.
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
    /**
     * Selects `record` so that every view can show it: a time range that hides it (its
     * `t_mono` outside the range) is cleared first (timeRangeChanged(), then
     * selectedRecordChanged()). The filter is left alone. false, changing nothing, when there
     * is no document or `record` is not one of its records.
     */
    bool revealRecord(int record);

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
     * Says that the document gained records or diagnostics (progressive loading, live follow),
     * or that its file was found cut short while open (TraceDocument::shrunkTo() changed, with
     * its "shrank" diagnostic); views showing counts, rows or the file's size refresh. Emits
     * documentGrew(). The document pointer is the same; its records never decrease.
     */
    void notifyDocumentGrew();

    /** The filter the user asked for (may not be evaluated yet); empty: no filter. */
    QString filterText() const { return m_filterText; }
    /** Asks for a filter; emits filterTextChanged(). Empty text clears the filter at once. */
    void setFilterText(const QString &text);
    /** The text whose result filterRecords() holds (empty when no filter is applied). */
    QString filterAppliedText() const { return m_filterApplied; }
    /** Records matching the applied filter (ascending), or null when no filter is applied. */
    std::shared_ptr<const std::vector<int>> filterRecords() const { return m_filterRecords; }
    /** Whether filterText() differs from the applied text (evaluation pending or invalid). */
    bool filterPending() const { return m_filterText != m_filterApplied; }
    /**
     * Hands over the evaluated result of `text` (null records: no filter). Ignored when `text`
     * is no longer filterText(). Emits filterChanged().
     */
    void setFilterResult(const QString &text, std::shared_ptr<const std::vector<int>> records);

    /** The followed key as a filter expression (empty: none). */
    QString followedKey() const { return m_followedKey; }
    /** Follows `expression` (clears followedRecords until set); emits followedKeyChanged(). */
    void setFollowedKey(const QString &expression);
    /** Records touching the followed key (ascending), or null while unknown / none followed. */
    std::shared_ptr<const std::vector<int>> followedRecords() const { return m_followedRecords; }
    /** Sets the records of `expression`; ignored when it is no longer followedKey(). */
    void setFollowedRecords(const QString &expression,
                            std::shared_ptr<const std::vector<int>> records);

    /** The capacity and policies chosen for the what-if (What-if tab). */
    struct WhatIfChoice {
        quint64 capacity = 0;  ///< chunks, or bytes when inBytes; 0: none chosen
        bool inBytes = false;
        std::vector<CachePolicy::Kind> policies;  ///< in CachePolicy::all() order
        quint64 bytesPerChunk = 0;  ///< the scope's mean bytes per key; 0 when unknown
        bool operator==(const WhatIfChoice &o) const = default;
    };
    WhatIfChoice whatIfChoice() const { return m_whatIfChoice; }
    /** Emits whatIfChoiceChanged() when it differs. */
    void setWhatIfChoice(const WhatIfChoice &choice);
    /** The hit ratio over time of the chosen what-if, or null (none built yet). */
    std::shared_ptr<const HitOverTime> hitOverTime() const { return m_hitOverTime; }
    /** Hands over a built HitOverTime (null: none); emits hitOverTimeChanged() when it differs. */
    void setHitOverTime(std::shared_ptr<const HitOverTime> result);

signals:
    void documentChanged();
    /** filterText() changed: the filter must be (re-)evaluated. */
    void filterTextChanged(const QString &text);
    /** The applied filter result changed (filterRecords(), filterAppliedText()). */
    void filterChanged();
    void followedKeyChanged();
    void followedRecordsChanged();
    void selectedRecordChanged(int record);
    void timeRangeChanged();
    void wallUtcChanged(bool utc);
    /** The document gained records or diagnostics, or shrank; see notifyDocumentGrew(). */
    void documentGrew();
    void whatIfChoiceChanged();
    void hitOverTimeChanged();

private:
    std::shared_ptr<const TraceDocument> m_doc;
    int m_selected = -1;
    std::optional<TimeRange> m_range;
    bool m_wallUtc = false;
    QString m_filterText;
    QString m_filterApplied;
    std::shared_ptr<const std::vector<int>> m_filterRecords;
    QString m_followedKey;
    std::shared_ptr<const std::vector<int>> m_followedRecords;
    WhatIfChoice m_whatIfChoice;
    std::shared_ptr<const HitOverTime> m_hitOverTime;
};

}  // namespace lmct
