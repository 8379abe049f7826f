#include "timeline/contextpairs.h"
#include "util/parallelchunks.h"

#include "codec/qualname.h"
#include "msgpack/msgpackskim.h"
#include "trace/tracedocument.h"

#include <QHashFunctions>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>

namespace lmct {

namespace {

constexpr int kBlock = 32;
const QLatin1String kEnter(".__enter__");
const QLatin1String kExit(".__exit__");

using Key = ContextPairs::KeyId;

/**
 * Open-addressing map from Key to a FIFO of events (linked through `next`), sized for `n` keys:
 * no allocation per key, unlike a node-based map.
 */
class FifoTable {
public:
    struct Slot {
        Key key;
        qint32 head = kEmpty;  // kEmpty: unused slot; -1: used, queue empty
        qint32 tail = -1;
    };
    static constexpr qint32 kEmpty = std::numeric_limits<qint32>::min();
    /**
     * The slot of `k`; inserted (with an empty queue) when `insert`; nullptr otherwise. The
     * table doubles when two thirds full, so it is sized by the distinct keys, not the calls
     * (every call of a trace may share one key list). A returned pointer is valid until the
     * next insert.
     */
    Slot *find(const Key &k, bool insert) {
        if (insert && 3 * (m_used + 1) > 2 * m_slots.size()) {
            if (Slot *s = find(k, false)) {
                return s;  // (present: no need to grow)
            }
            grow();
        }
        size_t i = size_t(k.a) & m_mask;
        for (;;) {
            Slot &s = m_slots[i];
            if (s.head == kEmpty) {
                if (!insert) {
                    return nullptr;
                }
                s.key = k;
                s.head = -1;
                s.tail = -1;
                ++m_used;
                return &s;
            }
            if (s.key.a == k.a && s.key.b == k.b) {
                return &s;
            }
            i = (i + 1) & m_mask;
        }
    }

private:
    void grow() {
        std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(2 * m_slots.size()));
        m_mask = m_slots.size() - 1;
        for (const Slot &o : old) {
            if (o.head == kEmpty) {
                continue;
            }
            size_t i = size_t(o.key.a) & m_mask;
            while (m_slots[i].head != kEmpty) {
                i = (i + 1) & m_mask;
            }
            m_slots[i] = o;
        }
    }

    std::vector<Slot> m_slots = std::vector<Slot>(16);
    size_t m_mask = 15;
    size_t m_used = 0;
};

/** The `keys` argument's bytes (or the whole `args`) of a record body; empty when neither. */
QByteArrayView keyBytes(const uchar *body, qint64 size) {
    const qint64 args = MsgpackSkim::findInMap(body, size, 0, "args");
    if (args < 0) {
        return {};
    }
    qint64 at = MsgpackSkim::findInMap(body, size, args, "keys");
    if (at < 0) {
        at = args;
    }
    const qint64 end = MsgpackSkim::skip(body, size, at);
    if (end < 0) {
        return {};
    }
    return QByteArrayView(reinterpret_cast<const char *>(body + at), end - at);
}

}  // namespace

QStringList ContextPairs::families(const RecordStore &store) {
    QStringList out;
    for (const QString &q : store.qualnames()) {
        QString f;
        if (q.endsWith(kEnter)) {
            f = q.chopped(kEnter.size());
        } else if (q.endsWith(kExit)) {
            f = q.chopped(kExit.size());
        }
        if (!f.isEmpty() && !out.contains(f)) {
            out.append(f);
        }
    }
    std::sort(out.begin(), out.end(), [](const QString &a, const QString &b) {
        return Qualname::flowLess(a + kEnter, b + kEnter);
    });
    return out;
}

std::shared_ptr<const ContextPairs> ContextPairs::build(const TraceDocument &doc,
                                                        const QString &family,
                                                        const std::atomic_bool *cancel) {
    const RecordStore &rs = doc.records();
    // The document may grow meanwhile: pair what is there now. After a file was cut short while
    // open, the records past its new end have no key lists any more (zeros read): left out.
    const int n = std::min(rs.size(), doc.readableRecordCount());
    const uchar *data = doc.fileData();  // mapped after those records were published
    const int enterId = rs.qualnameIdOf(family + kEnter);
    const int exitId = rs.qualnameIdOf(family + kExit);
    // The calls in file order: record index, or -1 - record for an __exit__ (4 bytes a call;
    // the time is read back from the store).
    std::vector<qint32> calls;
    if (enterId >= 0 || exitId >= 0) {
        const std::vector<qint64> counts = rs.qualnameCounts();
        qint64 expect = 0;
        for (int id : {enterId, exitId}) {
            expect += id >= 0 && size_t(id) < counts.size() ? counts[size_t(id)] : 0;
        }
        calls.reserve(size_t(expect));
        for (int i = 0; i < n; ++i) {
            const int q = int(rs.qualnameId(i));
            if ((q == enterId || q == exitId) && std::isfinite(rs.tMono(i))) {
                calls.push_back(q == enterId ? i : -1 - i);
            }
        }
    }
    auto recordOf = [&calls](size_t k) {
        const qint32 c = calls[k];
        return c >= 0 ? c : -1 - c;
    };
    // Find and hash each call's key list in the mapped file, in parallel, in one pass over
    // the bodies (they are spread over the whole file: read each once, prefetched).
    std::vector<KeyId> keys(calls.size());
    std::vector<std::pair<size_t, size_t>> ranges;
    const size_t chunk = 4096;
    for (size_t b = 0; b < calls.size(); b += chunk) {
        ranges.emplace_back(b, std::min(calls.size(), b + chunk));
    }
    ParallelChunks::run(int(ranges.size()), [&](int ri) {
        const std::pair<size_t, size_t> &r = ranges[size_t(ri)];
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            return;
        }
        constexpr size_t kAhead = 8;
        for (size_t k = r.first; k < r.second; ++k) {
            if (k + kAhead < r.second) {
                const uchar *ahead = data + rs.frameOffset(recordOf(k + kAhead));
                __builtin_prefetch(ahead);
                __builtin_prefetch(ahead + 64);
                __builtin_prefetch(ahead + 128);
            }
            const int record = recordOf(k);
            const qint64 off = rs.frameOffset(record) + 4;
            keys[k] = keyId(keyBytes(data + off, rs.bodyLength(record)));
        }
        if (r.second > r.first) {  // read once: keep the file out of the RSS
            doc.releaseRecordPages(recordOf(r.first), recordOf(r.second - 1));
        }
    });
    if (cancel && cancel->load()) {
        return nullptr;
    }
    return matchKeys(
        calls.size(),
        [&](size_t k) {
            const int record = recordOf(k);
            return Event{record, rs.tMono(record), calls[k] >= 0, {}};
        },
        std::move(keys), family);
}

QByteArrayView ContextPairs::keyListBytes(const TraceDocument &doc, int record) {
    const RecordStore &rs = doc.records();
    if (record < 0 || record >= rs.size()) {
        return {};
    }
    return keyBytes(doc.fileData() + rs.frameOffset(record) + 4, rs.bodyLength(record));
}

ContextPairs::KeyId ContextPairs::keyId(QByteArrayView v) {
    KeyId k;
    if (!MsgpackSkim::canonicalHash(v, &k.a, &k.b)) {
        // not msgpack: the bytes themselves
        k.a = qHashBits(v.data(), size_t(v.size()), 0x9e3779b9u);
        k.b = qHashBits(v.data(), size_t(v.size()), 0x85ebca6bu) ^ quint64(v.size());
    }
    return k;
}

std::shared_ptr<const ContextPairs> ContextPairs::match(const std::vector<Event> &events,
                                                        const QString &family) {
    std::vector<KeyId> keys(events.size());
    for (size_t k = 0; k < events.size(); ++k) {
        keys[k] = keyId(events[k].key);
    }
    return matchKeys(
        events.size(), [&events](size_t k) -> const Event & { return events[k]; }, std::move(keys),
        family);
}

template <typename EventAt>
std::shared_ptr<const ContextPairs> ContextPairs::matchKeys(size_t n, EventAt eventAt,
                                                            std::vector<KeyId> keys,
                                                            const QString &family) {
    auto cp = std::make_shared<ContextPairs>();
    cp->m_family = family;
    size_t enters = 0;
    for (size_t k = 0; k < n; ++k) {
        enters += eventAt(k).enter;
    }
    cp->m_spans.reserve(std::min(enters, n - enters));
    std::vector<char> matched(n, 0);
    {
        // FIFO per key list, in file order: queues are singly linked lists threaded through
        // `next` (one int per event), so an open key costs one table slot whatever its queue
        // length.
        FifoTable open;
        std::vector<qint32> next(n, -1);
        for (size_t k = 0; k < n; ++k) {
            const Event e = eventAt(k);
            if (!std::isfinite(e.t)) {
                continue;
            }
            if (e.enter) {
                FifoTable::Slot *f = open.find(keys[k], true);
                if (f->tail >= 0) {
                    next[size_t(f->tail)] = qint32(k);
                } else {
                    f->head = qint32(k);
                }
                f->tail = qint32(k);
                continue;
            }
            FifoTable::Slot *f = open.find(keys[k], false);
            if (!f || f->head < 0) {
                cp->m_unmatchedExits.push_back(e.record);
                continue;
            }
            const int head = f->head;
            const Event in = eventAt(size_t(head));
            Span s;
            s.start = in.t;
            s.end = std::max(in.t, e.t);
            s.enter = in.record;
            s.exit = e.record;
            cp->m_spans.push_back(s);
            matched[size_t(head)] = 1;
            f->head = next[size_t(head)];
            if (f->head < 0) {
                f->tail = -1;
            }
        }
    }
    keys = {};  // freed before the layout below needs its memory
    for (size_t k = 0; k < n; ++k) {
        const Event e = eventAt(k);
        if (e.enter && !matched[k] && std::isfinite(e.t)) {
            cp->m_unmatchedEnters.push_back(e.record);
        }
    }
    matched = {};
    // Unmatched calls in (t_mono, record) order, with their times alongside.
    std::vector<double> enterT, exitT;
    auto byTime = [&](std::vector<qint32> &recs, std::vector<double> &times) {
        std::sort(recs.begin(), recs.end());
        std::vector<std::pair<double, qint32>> tr;
        tr.reserve(recs.size());
        size_t j = 0;  // events and (sorted) recs are both in file order: one merge pass
        for (size_t k = 0; k < n && j < recs.size(); ++k) {
            const Event e = eventAt(k);
            if (e.record == recs[j]) {
                tr.emplace_back(e.t, e.record);
                ++j;
            }
        }
        std::sort(tr.begin(), tr.end());
        times.resize(tr.size());
        for (size_t i = 0; i < tr.size(); ++i) {
            times[i] = tr[i].first;
            recs[i] = tr[i].second;
        }
    };
    byTime(cp->m_unmatchedEnters, enterT);
    byTime(cp->m_unmatchedExits, exitT);
    cp->m_unmatchedEnterTimes = SortedTimes(std::move(enterT));
    cp->m_unmatchedExitTimes = SortedTimes(std::move(exitT));
    cp->finish();
    return cp;
}

void ContextPairs::finish() {
    std::sort(m_spans.begin(), m_spans.end(), [](const Span &a, const Span &b) {
        return a.start < b.start || (a.start == b.start && a.enter < b.enter);
    });
    const size_t n = m_spans.size();
    // Greedy row layout: the lowest row whose previous span ended before this one starts.
    using Active = std::pair<double, int>;  // (end, row)
    std::priority_queue<Active, std::vector<Active>, std::greater<>> active;
    std::priority_queue<int, std::vector<int>, std::greater<>> freeRows;
    int rows = 0;
    std::vector<double> starts(n), ends(n);
    for (size_t k = 0; k < n; ++k) {
        Span &s = m_spans[k];
        while (!active.empty() && active.top().first < s.start) {
            freeRows.push(active.top().second);
            active.pop();
        }
        if (freeRows.empty()) {
            s.depth = rows++;
        } else {
            s.depth = freeRows.top();
            freeRows.pop();
        }
        active.emplace(s.end, s.depth);
        starts[k] = s.start;
        ends[k] = s.end;
        m_maxDuration = std::max(m_maxDuration, s.duration());
    }
    m_depthCount = rows;
    std::sort(ends.begin(), ends.end());
    m_starts = SortedTimes(std::move(starts));
    m_ends = SortedTimes(std::move(ends));
    // Max-end tree over blocks of kBlock spans (in start order).
    const int blocks = int((n + kBlock - 1) / kBlock);
    m_leaves = 1;
    while (m_leaves < blocks) {
        m_leaves *= 2;
    }
    m_tree.assign(size_t(2 * m_leaves), -std::numeric_limits<double>::infinity());
    for (size_t k = 0; k < n; ++k) {
        double &m = m_tree[size_t(m_leaves) + k / kBlock];
        m = std::max(m, m_spans[k].end);
    }
    for (int i = m_leaves - 1; i >= 1; --i) {
        m_tree[size_t(i)] = std::max(m_tree[size_t(2 * i)], m_tree[size_t(2 * i + 1)]);
    }
}

int ContextPairs::overlapCount(double from, double to) const {
    if (to < from) {
        return 0;
    }
    return m_starts.rankAtOrBelow(to) - m_ends.rankBelow(from);
}

void ContextPairs::overlapCounts(double origin, double width, int n, int *out,
                                 double tolerance) const {
    if (n <= 0) {
        return;
    }
    std::vector<int> s(size_t(n) + 1), e(size_t(n) + 1);
    m_starts.edgeRanks(origin, width, n, s.data(), tolerance);
    m_ends.edgeRanks(origin, width, n, e.data(), tolerance);
    for (int k = 0; k < n; ++k) {
        // snapped start and end edges may differ slightly: never report a negative overlap
        out[k] = std::max(0, s[size_t(k) + 1] - e[size_t(k)]);
    }
}

bool ContextPairs::spansIn(double from, double to, int limit, std::vector<int> *out) const {
    out->clear();
    if (m_spans.empty() || to < from) {
        return true;
    }
    if (overlapCount(from, to) > limit) {
        return false;
    }
    const int hi = m_starts.rankAtOrBelow(to);  // spans [0, hi) start at or before `to`
    if (hi == 0) {
        return true;
    }
    const int lastBlock = (hi - 1) / kBlock;
    struct Node {
        int index, lo, hi;  // tree node covering blocks [lo, hi)
    };
    std::vector<Node> stack{{1, 0, m_leaves}};
    while (!stack.empty()) {
        const Node nd = stack.back();
        stack.pop_back();
        if (nd.lo > lastBlock || m_tree[size_t(nd.index)] < from) {
            continue;
        }
        if (nd.index >= m_leaves) {
            const int b = nd.index - m_leaves;
            const int end = std::min(hi, (b + 1) * kBlock);
            for (int k = b * kBlock; k < end; ++k) {
                if (m_spans[size_t(k)].end >= from) {
                    out->push_back(k);
                }
            }
            continue;
        }
        const int mid = (nd.lo + nd.hi) / 2;
        stack.push_back({2 * nd.index + 1, mid, nd.hi});  // right after left
        stack.push_back({2 * nd.index, nd.lo, mid});
    }
    return true;
}

int ContextPairs::spanOfRecord(int record) const {
    const auto it = std::find_if(m_spans.begin(), m_spans.end(), [record](const Span &s) {
        return s.enter == record || s.exit == record;
    });
    return it != m_spans.end() ? int(it - m_spans.begin()) : -1;
}

qint64 ContextPairs::memoryBytes() const {
    return qint64(m_spans.capacity() * sizeof(Span) + m_starts.memoryBytes() +
                  m_ends.memoryBytes() + m_tree.capacity() * sizeof(double) +
                  (m_unmatchedEnters.capacity() + m_unmatchedExits.capacity()) * sizeof(qint32) +
                  m_unmatchedEnterTimes.memoryBytes() + m_unmatchedExitTimes.memoryBytes());
}

}  // namespace lmct
