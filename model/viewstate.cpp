#include "viewstate.h"

namespace lmct {

ViewState::ViewState(QObject *parent) : QObject(parent) {}

void ViewState::setDocument(std::shared_ptr<const TraceDocument> doc) {
    m_doc = std::move(doc);
    m_selected = -1;
    m_range.reset();
    const bool hadFilter = !m_filterText.isEmpty() || m_filterRecords;
    m_filterText.clear();
    m_filterApplied.clear();
    m_filterRecords.reset();
    m_followedKey.clear();
    m_followedRecords.reset();
    const bool hadWhatIf = m_hitOverTime || m_whatIfChoice != WhatIfChoice();
    m_whatIfChoice = {};
    m_hitOverTime.reset();
    emit documentChanged();
    if (hadWhatIf) {
        emit whatIfChoiceChanged();
        emit hitOverTimeChanged();
    }
    if (hadFilter) {
        emit filterTextChanged(QString());
        emit filterChanged();
    }
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

bool ViewState::revealRecord(int record) {
    if (!m_doc || record < 0 || record >= m_doc->records().size()) {
        return false;
    }
    if (m_range) {
        const double t = m_doc->records().tMono(record);
        if (t < m_range->from || t > m_range->to) {
            setTimeRange(std::nullopt);
        }
    }
    setSelectedRecord(record);
    return true;
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

void ViewState::setFilterText(const QString &text) {
    const QString t = text.trimmed();
    if (t == m_filterText) {
        return;
    }
    m_filterText = t;
    emit filterTextChanged(t);
    if (t.isEmpty()) {
        setFilterResult(QString(), nullptr);
    }
}

void ViewState::setFilterResult(const QString &text,
                                std::shared_ptr<const std::vector<int>> records) {
    if (text.trimmed() != m_filterText) {
        return;
    }
    if (m_filterText.isEmpty()) {
        records.reset();
    }
    if (m_filterApplied == m_filterText && m_filterRecords == records) {
        return;
    }
    m_filterApplied = m_filterText;
    m_filterRecords = std::move(records);
    emit filterChanged();
}

void ViewState::setFollowedKey(const QString &expression) {
    if (expression == m_followedKey) {
        return;
    }
    m_followedKey = expression;
    m_followedRecords.reset();
    emit followedKeyChanged();
    emit followedRecordsChanged();
}

void ViewState::setFollowedRecords(const QString &expression,
                                   std::shared_ptr<const std::vector<int>> records) {
    if (expression != m_followedKey) {
        return;
    }
    m_followedRecords = std::move(records);
    emit followedRecordsChanged();
}

void ViewState::setWhatIfChoice(const WhatIfChoice &choice) {
    if (choice == m_whatIfChoice) {
        return;
    }
    m_whatIfChoice = choice;
    emit whatIfChoiceChanged();
}

void ViewState::setHitOverTime(std::shared_ptr<const HitOverTime> result) {
    if (result == m_hitOverTime) {
        return;
    }
    m_hitOverTime = std::move(result);
    emit hitOverTimeChanged();
}

}  // namespace lmct
