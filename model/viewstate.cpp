#include "viewstate.h"

namespace lmct {

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::setDocument(std::shared_ptr<const TraceDocument> doc) {
    m_doc = std::move(doc);
    m_selected = -1;
    m_range.reset();
    emit documentChanged();
    emit selectedRecordChanged(-1);
    emit timeRangeChanged();
}

void ViewState::setSelectedRecord(int record) {
    if (m_doc && (record < -1 || record >= m_doc->records().size())) {
        record = -1;
    }
    if (record == m_selected) {
        return;
    }
    m_selected = record;
    emit selectedRecordChanged(record);
}

void ViewState::setTimeRange(std::optional<TimeRange> range) {
    if (range && range->from > range->to) {
        std::swap(range->from, range->to);
    }
    if (range == m_range) {
        return;
    }
    m_range = range;
    emit timeRangeChanged();
}

void ViewState::setWallUtc(bool utc) {
    if (utc == m_wallUtc) {
        return;
    }
    m_wallUtc = utc;
    emit wallUtcChanged(utc);
}

void ViewState::notifyDocumentGrew() {
    if (m_doc) {
        emit documentGrew();
    }
}

}  // namespace lmct
