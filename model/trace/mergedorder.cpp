#include "trace/mergedorder.h"

#include "util/passprogress.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr double kNoTime = -1e300;  // a trace's latest t_wall before any is known

/** The next record of a trace as the merge sees it. */
struct Head {
    double key = 0.0;  // merge key: aligned latest t_wall so far
    int trace = 0;
    qint64 record = 0;
    bool held = false;  // no record yet: the bound of what a loading trace may still add
};

/** Whether `a` goes after `b` (a min-heap with std::push_heap needs "greater"). */
bool after(const Head &a, const Head &b) {
    if (a.key != b.key) {
        return a.key > b.key;
    }
    return a.trace > b.trace;  // one head per trace: the record index never decides
}

}  // namespace

MergedOrder MergedOrder::build(const TraceSet &set) {
    return build(set, Options());
}

qint64 MergedOrder::update(const TraceSet &set) {
    return update(set, Options());
}

MergedOrder MergedOrder::build(const TraceSet &set, const Options &options) {
    MergedOrder m;
    m.reset(set);
    m.merge(set, options);
    return m;
}

void MergedOrder::reset(const TraceSet &set) {
    m_record.clear();
    m_trace8.clear();
    m_trace16.clear();
    m_wide = set.size() > 256;
    m_cursor.assign(size_t(set.size()), Cursor());
    m_docs.clear();
    m_offsets.clear();
    qint64 total = 0;
    for (int t = 0; t < set.size(); ++t) {
        m_docs.push_back(&set.document(t));
        m_offsets.push_back(set.offset(t));
        if (const auto s = set.document(t).header().tWallStart(); s && std::isfinite(*s)) {
            m_cursor[size_t(t)].latest = *s;
        }
        total += set.document(t).records().size();
    }
    m_record.reserve(size_t(total));
    if (m_wide) {
        m_trace16.reserve(size_t(total));
    } else {
        m_trace8.reserve(size_t(total));
    }
    m_lastKey = kNoTime;
    m_lastTrace = -1;
    m_complete = true;
    m_cancelled = false;
}

bool MergedOrder::sameTraces(const TraceSet &set) const {
    if (size_t(set.size()) != m_docs.size()) {
        return false;
    }
    for (int t = 0; t < set.size(); ++t) {
        if (&set.document(t) != m_docs[size_t(t)] || set.offset(t) != m_offsets[size_t(t)]) {
            return false;
        }
    }
    return true;
}

qint64 MergedOrder::update(const TraceSet &set, const Options &options) {
    bool rebuild = !sameTraces(set);
    for (int t = 0; !rebuild && t < set.size(); ++t) {
        const Cursor &c = m_cursor[size_t(t)];
        const RecordStore &rs = set.document(t).records();
        if (c.next >= rs.size()) {
            continue;
        }
        const double w = rs.tWall(int(c.next));
        Head h;
        h.key = (std::isfinite(w) ? std::max(c.latest, w) : c.latest) + set.offset(t);
        h.trace = t;
        Head last;
        last.key = m_lastKey;
        last.trace = m_lastTrace;
        rebuild = m_lastTrace >= 0 && after(last, h);  // it would go before a merged row
    }
    if (rebuild) {
        const int rebuilds = m_rebuilds + 1;
        reset(set);
        m_rebuilds = rebuilds;
        merge(set, options);
        return size();
    }
    const qint64 before = size();
    merge(set, options);
    return size() - before;
}

void MergedOrder::merge(const TraceSet &set, const Options &options) {
    const int k = set.size();
    std::vector<qint64> end(static_cast<size_t>(k));
    std::vector<char> loading(static_cast<size_t>(k));
    qint64 total = 0;
    for (int t = 0; t < k; ++t) {
        const TraceDocument &d = set.document(t);
        // Loading first: a document seen done has published all its records before.
        loading[size_t(t)] = d.isLoading() ? 1 : 0;
        end[size_t(t)] = d.records().size();
        total += end[size_t(t)] - m_cursor[size_t(t)].next;
    }
    PassProgress progress(total, options.cancel, options.progress);

    auto headOf = [&](int t, Head *h) {
        const Cursor &c = m_cursor[size_t(t)];
        h->trace = t;
        h->record = c.next;
        if (c.next < end[size_t(t)]) {
            const double w = set.document(t).records().tWall(int(c.next));
            h->key = (std::isfinite(w) ? std::max(c.latest, w) : c.latest) + m_offsets[size_t(t)];
            h->held = false;
            return true;
        }
        if (loading[size_t(t)] && c.latest != kNoTime) {
            h->key = c.latest + m_offsets[size_t(t)];
            h->held = true;
            return true;
        }
        return false;
    };

    std::vector<Head> heap;
    heap.reserve(size_t(k));
    for (int t = 0; t < k; ++t) {
        Head h;
        if (headOf(t, &h)) {
            heap.push_back(h);
        }
    }
    std::make_heap(heap.begin(), heap.end(), after);
    qint64 done = 0;
    bool stopped = false;
    Head cur;
    bool have = false;
    if (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), after);
        cur = heap.back();
        heap.pop_back();
        have = true;
    }
    while (have && !cur.held) {
        if ((done & 0xfff) == 0xfff) {
            progress.add(0x1000);
            if (progress.cancelled()) {
                stopped = true;
                break;
            }
        }
        // Take cur.
        const int t = cur.trace;
        Cursor &c = m_cursor[size_t(t)];
        if (c.next % kCheckpoint == 0) {
            c.checkpoints.push_back(c.latest);
        }
        const double w = set.document(t).records().tWall(int(cur.record));
        if (!std::isfinite(w)) {
            ++c.untimed;
        } else if (w < c.latest) {
            ++c.steppedBack;
        } else {
            c.latest = w;
        }
        push(t, int(cur.record));
        m_lastKey = cur.key;
        m_lastTrace = t;
        ++c.next;
        ++done;
        // The same trace goes on while its next record still comes first (runs cost no heap
        // operations).
        Head h;
        const bool more = headOf(t, &h);
        if (more && (heap.empty() || after(heap.front(), h))) {
            cur = h;
            continue;
        }
        if (more) {
            heap.push_back(h);
            std::push_heap(heap.begin(), heap.end(), after);
        }
        if (heap.empty()) {
            have = false;
            break;
        }
        std::pop_heap(heap.begin(), heap.end(), after);
        cur = heap.back();
        heap.pop_back();
    }
    m_cancelled = stopped;
    bool complete = !stopped;
    for (int t = 0; t < k && complete; ++t) {
        complete = !loading[size_t(t)] && m_cursor[size_t(t)].next == end[size_t(t)];
    }
    m_complete = complete;
    if (!stopped) {
        progress.finish();
    }
}

double MergedOrder::alignedWall(const TraceSet &set, qint64 row) const {
    const int t = traceAt(row);
    return set.document(t).records().tWall(recordAt(row)) + set.offset(t);
}

double MergedOrder::keyOf(const TraceSet &set, int t, int record) const {
    const Cursor &c = m_cursor[size_t(t)];
    const RecordStore &rs = set.document(t).records();
    double latest = c.checkpoints[size_t(record / kCheckpoint)];
    for (int i = record - record % kCheckpoint; i <= record; ++i) {
        const double w = rs.tWall(i);
        if (std::isfinite(w) && w > latest) {
            latest = w;
        }
    }
    return latest + m_offsets[size_t(t)];
}

qint64 MergedOrder::rowOf(const TraceSet &set, int t, int record) const {
    if (t < 0 || t >= traceCount() || record < 0 || record >= mergedCount(t)) {
        return -1;
    }
    const Head want{keyOf(set, t, record), t, record, false};
    qint64 lo = 0, hi = size();  // first row not before `want`
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        const int mt = traceAt(mid), mr = recordAt(mid);
        const Head h{keyOf(set, mt, mr), mt, mr, false};
        const bool before = h.key != want.key ? h.key < want.key
                            : h.trace != t    ? h.trace < t
                                              : h.record < record;
        if (before) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < size() && traceAt(lo) == t && recordAt(lo) == record ? lo : -1;
}

qint64 MergedOrder::rowAtTime(const TraceSet &set, double alignedWall) const {
    qint64 lo = 0, hi = size();
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        if (keyOf(set, traceAt(mid), recordAt(mid)) < alignedWall) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

qint64 MergedOrder::pendingCount(const TraceSet &set) const {
    qint64 n = 0;
    for (int t = 0; t < set.size() && size_t(t) < m_cursor.size(); ++t) {
        n += set.document(t).records().size() - m_cursor[size_t(t)].next;
    }
    return n;
}

qint64 MergedOrder::memoryBytes() const {
    qint64 checkpoints = 0;
    for (const Cursor &c : m_cursor) {
        checkpoints += qint64(c.checkpoints.capacity() * sizeof(double));
    }
    return checkpoints +
           qint64(m_record.capacity() * sizeof(quint32) + m_trace8.capacity() +
                  m_trace16.capacity() * sizeof(quint16) + m_cursor.capacity() * sizeof(Cursor) +
                  m_docs.capacity() * sizeof(void *) + m_offsets.capacity() * sizeof(double));
}

}  // namespace lmct
