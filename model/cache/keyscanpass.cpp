#include "cache/keyscanpass.h"

#include "codec/keylisthash.h"
#include "trace/tracedocument.h"
#include "util/parallelchunks.h"

#include <algorithm>

namespace lmct {

namespace {

using Call = KeyAnalysis::Call;

bool isKeyRecord(Call c) {
    return c != Call::Other && c != Call::ReadExit;
}

bool hasRequestId(Call c) {
    return c == Call::Prefetch || c == Call::Release || c == Call::Cancel;
}

bool hasKeyList(Call c) {
    return c == Call::ReadEnter || c == Call::ReadExit || c == Call::FinishRead;
}

}  // namespace

KeyScanPass::KeyScanPass(const TraceDocument &doc, const uchar *data, int records)
    : m_doc(doc), m_data(data) {
    const RecordStore &rs = doc.records();
    std::vector<Call> callById(size_t(rs.qualnameCount()), Call::Other);
    bool anyFinishRead = false;
    for (size_t id = 0; id < callById.size(); ++id) {
        callById[id] = KeyAnalysis::callOf(rs.qualnameById(quint32(id)));
        anyFinishRead = anyFinishRead || callById[id] == Call::FinishRead;
    }
    auto callAtRecord = [&](int i) {
        const quint32 q = rs.qualnameId(i);
        return q < callById.size() ? callById[q] : Call::Other;
    };
    auto scanned = [&](Call c) { return isKeyRecord(c) || (anyFinishRead && c == Call::ReadExit); };
    qint64 expectScan = 0;
    for (int i = 0; i < records; ++i) {
        const Call c = callAtRecord(i);
        m_keyRecords += isKeyRecord(c) ? 1 : 0;
        expectScan += scanned(c) ? 1 : 0;
    }
    m_records.reserve(size_t(expectScan));
    m_calls.reserve(size_t(expectScan));
    for (int i = 0; i < records; ++i) {
        const Call c = callAtRecord(i);
        if (scanned(c)) {
            m_records.push_back(i);
            m_calls.push_back(quint8(c));
        }
    }
}

void KeyScanPass::makeSlices(int begin, std::vector<Slice> *slices) const {
    // Slices are reused from batch to batch (their buffers keep their capacity: fresh pages
    // would have to be zeroed by the kernel every time).
    const int total = scanCount();
    const int end = std::min(total, begin + kBatchRecords);
    slices->resize(size_t((end - begin + kSliceRecords - 1) / kSliceRecords));
    for (size_t i = 0; i < slices->size(); ++i) {
        Slice &sl = (*slices)[i];
        sl.from = begin + int(i) * kSliceRecords;
        sl.to = std::min(end, sl.from + kSliceRecords);
        sl.keys.clear();
        sl.counts.clear();
        sl.rids.clear();
        sl.lists.clear();
        sl.handles.clear();
        sl.damaged = 0;
        sl.damagedAt.clear();
    }
}

void KeyScanPass::scanSlice(Slice &sl, const std::atomic_bool *cancel) const {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
        return;
    }
    const RecordStore &rs = m_doc.records();
    sl.counts.reserve(size_t(sl.to - sl.from));
    sl.rids.resize(size_t(sl.to - sl.from));
    sl.lists.resize(size_t(sl.to - sl.from));
    for (int si = sl.from; si < sl.to; ++si) {
        const int rec = m_records[size_t(si)];
        const Call call = callAt(si);
        const uchar *body = m_data + rs.frameOffset(rec) + 4;
        const size_t before = sl.keys.size();
        QByteArrayView *rid = hasRequestId(call) ? &sl.rids[size_t(si - sl.from)] : nullptr;
        if (!RawKeyScanner::scan(body, rs.bodyLength(rec), &sl.keys, rid)) {
            ++sl.damaged;
            sl.damagedAt.push_back(si);
        }
        if (hasKeyList(call)) {
            KeyListHash list;
            for (size_t i = before; i < sl.keys.size(); ++i) {
                list.add(sl.keys[i].hash);
            }
            sl.lists[size_t(si - sl.from)] = list.value();
        }
        if (call == Call::ReadExit) {
            sl.keys.resize(before);  // only its key list is needed
        }
        if (call == Call::Release || call == Call::Cancel) {
            if (auto h = PrefetchHandle::fromArgs(m_doc.decodeArgs(rec).value)) {
                sl.handles.emplace_back(si, std::move(*h));
            }
        }
        sl.counts.push_back(quint32(sl.keys.size() - before));
    }
}

bool KeyScanPass::run(const Merge &merge, const std::function<void(int)> &progress,
                      const std::atomic_bool *cancel) const {
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const int total = scanCount();
    int lastPercent = -1;
    // ParallelChunks: the calling thread works too and never waits for a queued task.
    std::vector<Slice> slices, next;
    makeSlices(0, &slices);
    ParallelChunks::run(int(slices.size()), [&](int i) { scanSlice(slices[size_t(i)], cancel); });
    for (int b = 0; b < total; b += kBatchRecords) {
        if (cancelled()) {
            return false;  // before merging: a cancelled scan leaves its slices incomplete
        }
        const int e = std::min(total, b + kBatchRecords);
        next.clear();
        if (e < total) {
            makeSlices(e, &next);
        }
        ParallelChunks::run(int(next.size()) + 1, [&](int i) {
            if (i == 0) {
                merge(slices);
            } else {
                scanSlice(next[size_t(i) - 1], cancel);
            }
        });
        if (cancelled()) {
            return false;
        }
        // Merged: the batch's bytes were read once; keep the file out of the RSS (keys met again
        // later are read again from the page cache).
        m_doc.releaseRecordPages(m_records[size_t(b)], m_records[size_t(e - 1)]);
        slices.swap(next);
        const int percent = int(qint64(e) * 100 / std::max(1, total));
        if (progress && percent != lastPercent) {
            lastPercent = percent;
            progress(percent);
        }
    }
    return true;
}

}  // namespace lmct
