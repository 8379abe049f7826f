#include "util/passprogress.h"

#include <algorithm>

namespace lmct {

PassProgress::PassProgress(qint64 total, const std::atomic_bool *cancel, Counts counts)
    : m_total(total),
      m_step(std::max<qint64>(1, total / 100)),
      m_cancel(cancel),
      m_counts(std::move(counts)) {}

PassProgress::PassProgress(qint64 total, const std::atomic_bool *cancel, Percent percent)
    : m_total(total),
      m_step(std::max<qint64>(1, total / 100)),
      m_cancel(cancel),
      m_percent(std::move(percent)) {}

std::vector<std::pair<qint64, qint64>> PassProgress::chunks(qint64 total, qint64 chunk) {
    std::vector<std::pair<qint64, qint64>> out;
    if (total <= 0 || chunk <= 0) {
        return out;
    }
    out.reserve(size_t((total + chunk - 1) / chunk));
    for (qint64 b = 0; b < total; b += chunk) {
        out.emplace_back(b, std::min(total, b + chunk));
    }
    return out;
}

void PassProgress::add(qint64 n) {
    const qint64 now = m_done.fetch_add(n) + n;
    if (m_counts && now < m_total && m_mutex.tryLock()) {
        if (now - m_reported >= m_step) {
            m_reported = now;
            m_counts(now, m_total);
        }
        m_mutex.unlock();
    }
}

bool PassProgress::poll(qint64 i) {
    if (cancelled()) {
        return false;
    }
    const int percent = m_total > 0 ? int(i * 100 / m_total) : 0;
    if (m_percent && percent != m_lastPercent) {
        m_lastPercent = percent;
        QMutexLocker lock(&m_mutex);
        m_percent(percent);
    }
    return true;
}

void PassProgress::finish() {
    QMutexLocker lock(&m_mutex);
    if (m_counts) {
        m_counts(m_total, m_total);
    }
    if (m_percent) {
        m_percent(100);
    }
}

}  // namespace lmct
