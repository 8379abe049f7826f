#pragma once

#include <QMutex>
#include <QtGlobal>
#include <atomic>
#include <functional>
#include <utility>
#include <vector>

namespace lmct {

/**
 * Cancel and progress for one pass over `total` items: the part every heavy pass repeats.
 *
 * - Parallel passes (ParallelChunks over chunks()): each chunk calls add() when done; the
 *   counts callback gets (done, total) at most about once per percent, from whichever thread
 *   passes a step first (the others do not wait for it).
 * - Serial loops: at() at each item; every 0x1000 items it checks the cancel flag and reports a
 *   changed percent to the percent callback.
 * - finish() reports the end, (total, total) or 100.
 *
 * Items are whatever the pass counts (records, key records). The cancel flag (may be null) is
 * read relaxed; a callback left empty is not called.
 *
 * Thread-safety: cancelled() and add() may be called from several threads at once; at() and
 * finish() from one thread at a time. Callbacks are called under a lock, never two at once.
 */
class PassProgress {
public:
    using Counts = std::function<void(qint64 done, qint64 total)>;
    using Percent = std::function<void(int percent)>;

    PassProgress(qint64 total, const std::atomic_bool *cancel, Counts counts);
    PassProgress(qint64 total, const std::atomic_bool *cancel, Percent percent);
    PassProgress(const PassProgress &) = delete;
    PassProgress &operator=(const PassProgress &) = delete;

    /** [begin, end) ranges of `chunk` items covering [0, total). */
    static std::vector<std::pair<qint64, qint64>> chunks(qint64 total, qint64 chunk);

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

    /** `n` more items are done (any thread); reports when another percent step is passed. */
    void add(qint64 n);

    /** At item `i` of a serial loop: false once cancelled (checked every 0x1000 items). */
    bool at(qint64 i) { return (i & 0xfff) != 0 || poll(i); }

    /** Reports the end of the pass: (total, total), or 100. */
    void finish();

private:
    bool poll(qint64 i);

    const qint64 m_total;
    const qint64 m_step;  // items a counts report waits for: a percent of the total
    const std::atomic_bool *m_cancel;
    Counts m_counts;
    Percent m_percent;
    std::atomic<qint64> m_done{0};
    QMutex m_mutex;
    qint64 m_reported = 0;  // under m_mutex
    int m_lastPercent = -1;
};

}  // namespace lmct
