#include "cache/keyanalysis.h"

#include "cache/handlelinker.h"
#include "cache/keystatsaccumulator.h"
#include "codec/qualname.h"
#include "trace/tracedocument.h"
#include "util/parallelchunks.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kBatchRecords = 16384;  // key records scanned in parallel between two merges
constexpr int kSliceRecords = 512;    // key records per worker task

/** What one worker found in a slice of key records. */
struct Slice {
    int from = 0, to = 0;                  // key record range [from, to)
    std::vector<RawKeyScanner::Key> keys;  // all keys of the slice, in order
    std::vector<quint32> counts;           // keys per key record
    std::vector<QByteArrayView> rids;      // request id per record (submit, release, cancel)
    std::vector<quint64> lists;            // key-list hash per record (reads and releases)
    std::vector<std::pair<int, PrefetchHandle>> handles;  // (scan index, handle), ascending
    qint64 damaged = 0;
};

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

/** Order-sensitive hash of a key list from its keys' identity hashes. */
quint64 combine(quint64 h, quint64 k) {
    h ^= k + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

quint64 listHash(const std::vector<RawKeyScanner::Key> &keys, size_t from) {
    quint64 h = 0x243f6a8885a308d3ull;
    for (size_t i = from; i < keys.size(); ++i) {
        h = combine(h, keys[i].hash);
    }
    return combine(h, keys.size() - from);
}

}  // namespace

/** listHash() of key ids already interned (a release's keys, as its finish lists them). */
quint64 KeyAnalysis::idListHash(const KeyAnalysis &ka, std::span<const quint32> ids) {
    quint64 h = 0x243f6a8885a308d3ull;
    for (const quint32 id : ids) {
        h = combine(h, ka.key(int(id)).hash);
    }
    return combine(h, ids.size());
}

KeyAnalysis::Call KeyAnalysis::callOf(const QString &qualname) {
    const QString s = Qualname::shortName(qualname);
    if (s == QLatin1String("reserve_write")) {
        return Call::Reserve;
    }
    if (s == QLatin1String("reserve_write_with_status")) {
        return Call::ReserveWithStatus;
    }
    if (s == QLatin1String("finish_write")) {
        return Call::Finish;
    }
    if (s == QLatin1String("abort_write")) {
        return Call::Abort;
    }
    if (s == QLatin1String("submit_prefetch_task")) {
        return Call::Prefetch;
    }
    if (s == QLatin1String("read_prefetched_results.__enter__")) {
        return Call::ReadEnter;
    }
    if (s == QLatin1String("finish_read_prefetched")) {
        return Call::FinishRead;
    }
    if (s == QLatin1String("release_prefetch_task")) {
        return Call::Release;
    }
    if (s == QLatin1String("cancel_prefetch_task")) {
        return Call::Cancel;
    }
    if (s == QLatin1String("read_prefetched_results.__exit__")) {
        return Call::ReadExit;
    }
    return Call::Other;
}

QString KeyAnalysis::callName(Call c) {
    switch (c) {
        case Call::Reserve:
            return QStringLiteral("reserve_write");
        case Call::ReserveWithStatus:
            return QStringLiteral("reserve_write_with_status");
        case Call::Finish:
            return QStringLiteral("finish_write");
        case Call::Abort:
            return QStringLiteral("abort_write");
        case Call::Prefetch:
            return QStringLiteral("submit_prefetch_task");
        case Call::ReadEnter:
            return QStringLiteral("read_prefetched_results.__enter__");
        case Call::FinishRead:
            return QStringLiteral("finish_read_prefetched");
        case Call::Release:
            return QStringLiteral("release_prefetch_task");
        case Call::Cancel:
            return QStringLiteral("cancel_prefetch_task");
        case Call::ReadExit:
            return QStringLiteral("read_prefetched_results.__exit__");
        case Call::Other:
            break;
    }
    return QStringLiteral("other");
}

QString KeyAnalysis::stateName(State s) {
    switch (s) {
        case State::WrittenRead:
            return QStringLiteral("written_read");
        case State::Written:
            return QStringLiteral("written");
        case State::Aborted:
            return QStringLiteral("aborted");
        case State::ReservedOnly:
            return QStringLiteral("reserved_only");
        case State::PrefetchedOnly:
            break;
    }
    return QStringLiteral("prefetched_only");
}

QString KeyAnalysis::stateLabel(State s) {
    switch (s) {
        case State::WrittenRead:
            return QStringLiteral("written then read");
        case State::Written:
            return QStringLiteral("written");
        case State::Aborted:
            return QStringLiteral("aborted");
        case State::ReservedOnly:
            return QStringLiteral("reserved only");
        case State::PrefetchedOnly:
            break;
    }
    return QStringLiteral("prefetched, never written here");
}

std::shared_ptr<const KeyAnalysis> KeyAnalysis::build(const TraceDocument &doc,
                                                      const Progress &progress,
                                                      const std::atomic_bool *cancel) {
    auto ka = std::make_shared<KeyAnalysis>();
    const RecordStore &rs = doc.records();
    ka->m_doc = doc.weak_from_this().lock();
    ka->m_store = &rs;
    ka->m_recordCount = rs.size();
    const uchar *data = doc.fileData();  // mapped after those records were published
    // (cut short while open: the records past the new end read as zeros)
    const int n = std::min(ka->m_recordCount, doc.readableRecordCount());
    ka->m_readable = n;
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };

    // Calls by qualname id.
    std::vector<Call> callById(size_t(rs.qualnameCount()), Call::Other);
    bool anyFinishRead = false;
    for (size_t id = 0; id < callById.size(); ++id) {
        callById[id] = callOf(rs.qualnameById(quint32(id)));
        anyFinishRead = anyFinishRead || callById[id] == Call::FinishRead;
    }
    auto callAtRecord = [&](int i) {
        const quint32 q = rs.qualnameId(i);
        return q < callById.size() ? callById[q] : Call::Other;
    };
    // Scanned records: the key records, and the exits when finish_read_prefetched records need
    // placing (their key lists only).
    auto scanned = [&](Call c) { return isKeyRecord(c) || (anyFinishRead && c == Call::ReadExit); };
    qint64 expect = 0, expectScan = 0;
    for (int i = 0; i < n; ++i) {
        const Call c = callAtRecord(i);
        expect += isKeyRecord(c) ? 1 : 0;
        expectScan += scanned(c) ? 1 : 0;
    }
    std::vector<qint32> scanRecs;
    std::vector<quint8> scanCalls;
    scanRecs.reserve(size_t(expectScan));
    scanCalls.reserve(size_t(expectScan));
    for (int i = 0; i < n; ++i) {
        const Call c = callAtRecord(i);
        if (scanned(c)) {
            scanRecs.push_back(i);
            scanCalls.push_back(quint8(c));
        }
    }
    ka->m_records.reserve(size_t(expect));
    ka->m_calls.reserve(size_t(expect));
    ka->m_begin.reserve(size_t(expect) + 1);

    KeyStatsAccumulator stats;
    const int total = int(scanRecs.size());
    int lastPercent = -1;
    // Slices are reused from batch to batch (their buffers keep their capacity: fresh pages
    // would have to be zeroed by the kernel every time).
    auto makeSlices = [&](int b, std::vector<Slice> *slices) {
        const int e = std::min(total, b + kBatchRecords);
        slices->resize(size_t((e - b + kSliceRecords - 1) / kSliceRecords));
        for (size_t i = 0; i < slices->size(); ++i) {
            Slice &sl = (*slices)[i];
            sl.from = b + int(i) * kSliceRecords;
            sl.to = std::min(e, sl.from + kSliceRecords);
            sl.keys.clear();
            sl.counts.clear();
            sl.rids.clear();
            sl.lists.clear();
            sl.handles.clear();
            sl.damaged = 0;
        }
    };
    auto scanSlice = [&](Slice &sl) {
        if (cancelled()) {
            return;
        }
        sl.counts.reserve(size_t(sl.to - sl.from));
        sl.rids.resize(size_t(sl.to - sl.from));
        sl.lists.resize(size_t(sl.to - sl.from));
        for (int si = sl.from; si < sl.to; ++si) {
            const int rec = scanRecs[size_t(si)];
            const Call call = Call(scanCalls[size_t(si)]);
            const uchar *body = data + rs.frameOffset(rec) + 4;
            const size_t before = sl.keys.size();
            QByteArrayView *rid = hasRequestId(call) ? &sl.rids[size_t(si - sl.from)] : nullptr;
            if (!RawKeyScanner::scan(body, rs.bodyLength(rec), &sl.keys, rid)) {
                ++sl.damaged;
            }
            if (hasKeyList(call)) {
                sl.lists[size_t(si - sl.from)] = listHash(sl.keys, before);
            }
            if (call == Call::ReadExit) {
                sl.keys.resize(before);  // only its key list is needed
            }
            if (call == Call::Release || call == Call::Cancel) {
                // Rare records: their handle is decoded as a Value.
                if (auto h = PrefetchHandle::fromArgs(doc.decodeArgs(rec).value)) {
                    sl.handles.emplace_back(si, std::move(*h));
                }
            }
            sl.counts.push_back(quint32(sl.keys.size() - before));
        }
    };

    FinishReadPlacement placement;  // file order; see the class comment
    HandleLinker linker(*ka, doc.header().tMonoStart().value_or(qQNaN()));
    std::vector<quint32> locked;

    // Merge in file order: intern keys and update their stats.
    auto merge = [&](const std::vector<Slice> &slices) {
        for (const Slice &sl : slices) {
            ka->m_damaged += sl.damaged;
            size_t at = 0;
            size_t nextHandle = 0;
            for (int si = sl.from; si < sl.to; ++si) {
                quint32 cnt = sl.counts[size_t(si - sl.from)];
                const Call call = Call(scanCalls[size_t(si)]);
                const qint32 rec = scanRecs[size_t(si)];
                const double t = rs.tMono(rec);
                const quint64 list = sl.lists[size_t(si - sl.from)];
                if (call == Call::ReadExit) {
                    placement.exit(list, t);
                    continue;
                }
                const int kr = int(ka->m_records.size());
                ka->m_records.push_back(rec);
                ka->m_calls.push_back(quint8(call));
                if (quint64(ka->m_keyIds.size()) + cnt > kMaxOccurrences) {
                    ++ka->m_damaged;  // no room in the 4-byte CSR offsets: keys left out
                    at += cnt;
                    cnt = 0;
                }
                if (call == Call::Finish && cnt == 0) {
                    ka->m_keylessFinishes.push_back(rec);
                }
                const QByteArrayView rid = sl.rids[size_t(si - sl.from)];
                if (!rid.isNull()) {
                    ka->m_rids.push_back(
                        RequestIdRef{kr, quint32(ka->m_ridPool.size()), quint32(rid.size())});
                    ka->m_ridPool.append(rid.data(), rid.size());
                    if (call == Call::Prefetch) {
                        linker.addSubmit(kr, rid);
                    }
                }
                const PrefetchHandle *handle = nullptr;
                if (call == Call::Release || call == Call::Cancel) {
                    (call == Call::Release ? ka->m_releases : ka->m_cancels) += 1;
                    ka->m_handleKrs.push_back(kr);
                    while (nextHandle < sl.handles.size() && sl.handles[nextHandle].first < si) {
                        ++nextHandle;
                    }
                    if (nextHandle < sl.handles.size() && sl.handles[nextHandle].first == si) {
                        const PrefetchHandle &h = sl.handles[nextHandle].second;
                        ka->m_handles.push_back(HandleRef{kr, linker.link(h, rid), h});
                        handle = &ka->m_handles.back().handle;
                    }
                }
                FinishRole role = FinishRole::Read;
                if (call == Call::FinishRead) {
                    qint32 owner = -1;
                    role = placement.finish(list, rec, t, &owner);
                    ++ka->m_roleCounts[size_t(role)];
                    if (role != FinishRole::Read) {
                        ka->m_calls.back() |= kAttachedBit;
                        ka->m_attached.push_back(Attached{kr, owner, role});
                    }
                } else if (call == Call::ReadEnter) {
                    placement.enter(list, rec);
                }
                for (quint32 j = 0; j < cnt; ++j, ++at) {
                    ka->m_table.prefetch(sl.keys, at);
                    const RawKeyScanner::Key &rk = sl.keys[at];
                    const quint32 id = ka->m_table.intern(rk.fields, rk.hash);
                    ka->m_keyIds.push_back(id);
                    stats.add(ka->m_table.entry(id), id, call, role, rec, t);
                }
                if (call == Call::Release && cnt == 0 && handle) {
                    // keys = nil: the handle's locked keys, i.e. its request's keys at
                    // l1_found_indices (all of them when the handle lists none).
                    const qint32 skr = ka->m_handles.back().submitKr;
                    if (skr >= 0) {
                        ++ka->m_releasesNil;
                        HandleLinker::lockedKeys(*handle, ka->keysAt(skr), &locked);
                        for (const quint32 id : locked) {
                            ka->m_keyIds.push_back(id);
                            KeyStatsAccumulator::touch(ka->m_table.entry(id), rec, t);
                        }
                    }
                }
                ka->m_begin.push_back(quint32(ka->m_keyIds.size()));
                if (call == Call::Release) {
                    // A nil release's keys, resolved or not, are no reliable list: its nested
                    // finish_read_prefetched is the first one after it, whatever its keys.
                    placement.release(idListHash(*ka, ka->keysAt(kr)), rec, cnt > 0);
                }
            }
        }
    };
    // Pipeline: while one thread merges batch b, the others scan batch b + 1 (ParallelChunks:
    // the calling thread works too and never waits for a queued task).
    std::vector<Slice> slices, next;
    makeSlices(0, &slices);
    ParallelChunks::run(int(slices.size()), [&](int i) { scanSlice(slices[size_t(i)]); });
    for (int b = 0; b < total; b += kBatchRecords) {
        if (cancelled()) {
            return nullptr;  // before merging: a cancelled scan leaves its slices incomplete
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
                scanSlice(next[size_t(i) - 1]);
            }
        });
        if (cancelled()) {
            return nullptr;
        }
        // Merged: the batch's bytes were read once; keep the file out of the RSS (keys met again
        // later are read again from the page cache).
        doc.releaseRecordPages(scanRecs[size_t(b)], scanRecs[size_t(e - 1)]);
        slices.swap(next);
        const int percent = int(qint64(e) * 100 / std::max(1, total));
        if (progress && percent != lastPercent) {
            lastPercent = percent;
            progress(percent);
        }
    }
    for (Key &k : ka->m_table.entries()) {
        k.state = KeyStatsAccumulator::stateOf(k);
        ka->m_alreadyStored += k.reservedAgain ? 1 : 0;
    }
    ka->m_saltMissing = doc.header().traceSchemaVersion().value_or(0) == 2 &&
                        ka->m_table.size() > 0 && ka->m_table.salts().isEmpty();
    if (ka->m_saltMissing) {
        doc.noteOnce(Diagnostic{Diagnostic::Severity::Info, Diagnostic::Kind::Note, -1,
                                QStringLiteral("trace_schema_version is 2 but ") +
                                    saltMissingNote() +
                                    QStringLiteral(" (LMCache's ObjectKey codec did not write "
                                                   "it); every key counts as one tenant")});
    }
    ka->m_table.finish();
    ka->m_keyIds.shrink_to_fit();
    if (progress && lastPercent != 100) {
        progress(100);
    }
    return ka;
}

QByteArray KeyAnalysis::chunkHash(int id) const {
    const Key &k = key(id);
    return QByteArray(reinterpret_cast<const char *>(m_table.hashData() + k.hashOffset),
                      qsizetype(k.hashSize));
}

QString KeyAnalysis::hashHex(int id) const {
    return QString::fromLatin1(chunkHash(id).toHex());
}

ObjectKey KeyAnalysis::objectKey(int id) const {
    const Key &k = key(id);
    ObjectKey o;
    o.chunkHash = chunkHash(id);
    o.modelName = m_table.models()[k.model];
    o.kvRank = k.kvRank;
    if (k.hasGroup) {
        o.objectGroupId = k.group;
    }
    if (k.salt >= 0) {
        o.cacheSalt = m_table.salts()[k.salt];
    }
    return o;
}

int KeyAnalysis::find(const ObjectKey &o) const {
    const QByteArray model = o.modelName.toUtf8();
    const QByteArray salt = o.cacheSalt ? o.cacheSalt->toUtf8() : QByteArray();
    RawKeyScanner::Fields f;
    f.hash = reinterpret_cast<const uchar *>(o.chunkHash.constData());
    f.hashSize = quint32(o.chunkHash.size());
    f.model = reinterpret_cast<const uchar *>(model.constData());
    f.modelSize = quint32(model.size());
    f.kvRank = o.kvRank;
    f.hasGroup = o.objectGroupId.has_value();
    f.group = o.objectGroupId.value_or(0);
    f.hasSalt = o.cacheSalt.has_value();
    f.salt = reinterpret_cast<const uchar *>(salt.constData());
    f.saltSize = quint32(salt.size());
    return m_table.find(f, RawKeyScanner::identityHash(f));
}

bool KeyAnalysis::hashStartsWith(int id, const QByteArray &hexPrefix) const {
    static const char digits[] = "0123456789abcdef";
    const Key &k = key(id);
    if (quint64(hexPrefix.size()) > 2 * quint64(k.hashSize)) {
        return false;
    }
    const uchar *h = m_table.hashData() + k.hashOffset;
    for (qsizetype i = 0; i < hexPrefix.size(); ++i) {
        const uchar byte = h[i / 2];
        const char d = digits[(i % 2 == 0) ? byte >> 4 : byte & 0x0f];
        if (d != hexPrefix[i]) {
            return false;
        }
    }
    return true;
}

std::vector<int> KeyAnalysis::findByHashPrefix(const QString &hexPrefix) const {
    const QByteArray p = hexPrefix.trimmed().toLower().toLatin1();
    std::vector<int> out;
    for (int id = 0; id < keyCount(); ++id) {
        if (hashStartsWith(id, p)) {
            out.push_back(id);
        }
    }
    return out;
}

QString KeyAnalysis::followExpression(int id) const {
    if (id < 0 || id >= keyCount()) {
        return QString();
    }
    auto quoted = [](const QString &text) {
        QString q = text;
        q.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        q.replace(QLatin1Char('"'), QStringLiteral("\\\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    };
    const Key &k = key(id);
    bool exact = false, model = false, rank = false, group = false, salt = false;
    for (const int other : findByHashPrefix(hashHex(id))) {
        const Key &o = key(other);
        exact = exact || o.hashSize != k.hashSize;
        model = model || o.model != k.model;
        rank = rank || o.kvRank != k.kvRank;
        group = group || o.hasGroup != k.hasGroup || (k.hasGroup && o.group != k.group);
        salt = salt || o.salt != k.salt;
    }
    QString e = exact ? QStringLiteral("chunk_hash matches \"^%1$\"").arg(hashHex(id))
                      : QStringLiteral("chunk_hash == ") + hashHex(id);
    if (model) {
        e += QStringLiteral(" && model_name == ") + quoted(m_table.models()[k.model]);
    }
    if (rank) {
        e += QStringLiteral(" && kv_rank == ") + QString::number(k.kvRank);
    }
    if (group && k.hasGroup) {
        e += QStringLiteral(" && object_group_id == ") + QString::number(k.group);
    }
    if (salt && k.salt >= 0) {
        e += QStringLiteral(" && cache_salt == ") + quoted(m_table.salts()[k.salt]);
    }
    return e;
}

std::array<qint64, KeyAnalysis::kStateCount> KeyAnalysis::stateCounts() const {
    std::array<qint64, kStateCount> c{};
    for (const Key &k : m_table.entries()) {
        ++c[size_t(k.state)];
    }
    return c;
}

int KeyAnalysis::keyRecordOf(int record) const {
    auto it = std::lower_bound(m_records.begin(), m_records.end(), record);
    return (it != m_records.end() && *it == record) ? int(it - m_records.begin()) : -1;
}

QByteArrayView KeyAnalysis::requestIdBytesAt(int kr) const {
    auto it = std::lower_bound(m_rids.begin(), m_rids.end(), kr,
                               [](const RequestIdRef &r, int v) { return r.kr < v; });
    if (it == m_rids.end() || it->kr != kr) {
        return QByteArrayView();
    }
    return QByteArrayView(m_ridPool.constData() + it->offset, qsizetype(it->size));
}

QString KeyAnalysis::requestIdAt(int kr) const {
    return QString::fromUtf8(requestIdBytesAt(kr));
}

KeyAnalysis::FinishRole KeyAnalysis::attachedRole(int kr) const {
    auto it = std::lower_bound(m_attached.begin(), m_attached.end(), kr,
                               [](const Attached &a, int v) { return a.kr < v; });
    return it != m_attached.end() && it->kr == kr ? it->role : FinishRole::Read;
}

qint32 KeyAnalysis::finishOwnerAt(int kr) const {
    auto it = std::lower_bound(m_attached.begin(), m_attached.end(), kr,
                               [](const Attached &a, int v) { return a.kr < v; });
    return it != m_attached.end() && it->kr == kr ? it->owner : -1;
}

const PrefetchHandle *KeyAnalysis::handleAt(int kr) const {
    auto it = std::lower_bound(m_handles.begin(), m_handles.end(), kr,
                               [](const HandleRef &h, int v) { return h.kr < v; });
    return it != m_handles.end() && it->kr == kr ? &it->handle : nullptr;
}

int KeyAnalysis::handleSubmit(int kr) const {
    auto it = std::lower_bound(m_handles.begin(), m_handles.end(), kr,
                               [](const HandleRef &h, int v) { return h.kr < v; });
    return it != m_handles.end() && it->kr == kr ? it->submitKr : -1;
}

QString KeyAnalysis::saltMissingNote() {
    return QStringLiteral("keys carry no cache_salt: tenants cannot be told apart in this trace");
}

qint64 KeyAnalysis::memoryBytes() const {
    return m_table.memoryBytes() +
           qint64(m_records.capacity() * sizeof(qint32) + m_calls.capacity() +
                  m_begin.capacity() * sizeof(quint32) + m_keyIds.capacity() * sizeof(quint32) +
                  m_rids.capacity() * sizeof(RequestIdRef) + m_ridPool.capacity() +
                  m_attached.capacity() * sizeof(Attached) +
                  m_handles.capacity() * sizeof(HandleRef) +
                  m_handleKrs.capacity() * sizeof(qint32));
}

}  // namespace lmct
