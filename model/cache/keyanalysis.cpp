#include "cache/keyanalysis.h"

#include "cache/handlelinker.h"
#include "cache/keyscanpass.h"
#include "cache/keystatsaccumulator.h"
#include "codec/keylisthash.h"
#include "codec/qualname.h"
#include "trace/tracedocument.h"
#include "util/hex.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** The KeyListHash of key ids already interned (a release's keys, as its finish lists them). */
quint64 idListHash(const KeyAnalysis &ka, std::span<const quint32> ids) {
    KeyListHash h;
    for (const quint32 id : ids) {
        h.add(ka.key(int(id)).hash);
    }
    return h.value();
}

}  // namespace

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
    const int records = doc.records().size();
    int readable = std::min(records, doc.readableRecordCount());
    for (;;) {
        auto ka = buildOver(doc, records, readable, progress, cancel);
        if (!ka) {
            return nullptr;
        }
        // A file cut while the scan read it: the records past its new end may have been read
        // as zeros (MappingGuard), and the keys of a batch scanned before the cut and merged
        // after it compared as zeros (new keys). Read again, over the records still there.
        const int still = std::min(readable, doc.readableRecordCount());
        if (still == readable) {
            return ka;
        }
        readable = still;
    }
}

std::shared_ptr<KeyAnalysis> KeyAnalysis::buildOver(const TraceDocument &doc, int records,
                                                    int readable, const Progress &progress,
                                                    const std::atomic_bool *cancel) {
    auto ka = std::make_shared<KeyAnalysis>();
    const RecordStore &rs = doc.records();
    ka->m_doc = doc.weak_from_this().lock();
    ka->m_store = &rs;
    ka->m_recordCount = records;
    const uchar *data = doc.fileData();  // mapped after those records were published
    const int n = readable;
    ka->m_readable = n;

    const KeyScanPass pass(doc, data, n);
    const size_t expect = size_t(pass.keyRecordCount());
    ka->m_records.reserve(expect);
    ka->m_calls.reserve(expect);
    ka->m_begin.reserve(expect + 1);

    KeyTable<Key> &table = ka->m_table;
    KeyStatsAccumulator stats;
    FinishReadPlacement placement;  // file order; see the class comment
    HandleLinker linker(*ka, doc.header().tMonoStart().value_or(qQNaN()));
    std::vector<quint32> locked;

    // Merge in file order: intern keys, update their stats, place reads, link handles.
    auto merge = [&](const std::vector<KeyScanPass::Slice> &slices) {
        for (const KeyScanPass::Slice &sl : slices) {
            ka->m_damaged += sl.damaged;
            size_t at = 0;
            size_t nextHandle = 0;
            size_t nextDamaged = 0;
            for (int si = sl.from; si < sl.to; ++si) {
                quint32 cnt = sl.counts[size_t(si - sl.from)];
                const Call call = pass.callAt(si);
                const qint32 rec = pass.recordAt(si);
                const double t = rs.tMono(rec);
                const bool damaged =
                    nextDamaged < sl.damagedAt.size() && sl.damagedAt[nextDamaged] == si;
                if (damaged) {
                    ++nextDamaged;
                    if (ka->m_firstDamaged < 0) {
                        ka->m_firstDamaged = rec;
                    }
                    if (call == Call::Finish) {
                        ka->m_lastDamagedFinish = rec;
                    }
                }
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
                    if (ka->m_firstDamaged < 0) {
                        ka->m_firstDamaged = rec;
                    }
                    at += cnt;
                    cnt = 0;
                }
                if (call == Call::Finish && cnt == 0 && !damaged) {
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
                    table.prefetch(sl.keys, at);
                    const RawKeyScanner::Key &rk = sl.keys[at];
                    const quint32 id = table.intern(rk.fields, rk.hash);
                    ka->m_keyIds.push_back(id);
                    stats.add(table.entry(id), id, call, role, rec, t);
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
                            KeyStatsAccumulator::touch(table.entry(id), rec, t);
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
    int lastPercent = -1;
    auto report = [&](int percent) {
        lastPercent = percent;
        if (progress) {
            progress(percent);
        }
    };
    if (!pass.run(merge, report, cancel)) {
        return nullptr;
    }

    for (Key &k : table.entries()) {
        k.state = KeyStatsAccumulator::stateOf(k);
        ka->m_alreadyStored += k.reservedAgain ? 1 : 0;
    }
    ka->m_saltMissing = doc.header().traceSchemaVersion().value_or(0) == 2 && table.size() > 0 &&
                        table.salts().isEmpty();
    if (ka->m_saltMissing) {
        doc.noteOnce(Diagnostic{Diagnostic::Severity::Info, Diagnostic::Kind::Note, -1,
                                QStringLiteral("trace_schema_version is 2 but ") +
                                    saltMissingNote() +
                                    QStringLiteral(" (LMCache's ObjectKey codec did not write "
                                                   "it); every key counts as one tenant")});
    }
    table.finish();
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
    const Key &k = key(id);
    if (quint64(hexPrefix.size()) > 2 * quint64(k.hashSize)) {
        return false;
    }
    const uchar *h = m_table.hashData() + k.hashOffset;
    for (qsizetype i = 0; i < hexPrefix.size(); ++i) {
        const uchar byte = h[i / 2];
        const char d = Hex::digit((i % 2 == 0) ? byte >> 4 : byte & 0x0f);
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
