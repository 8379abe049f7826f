#pragma once

#include "codec/rawkeyscanner.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <cstring>
#include <vector>

namespace lmct {

/**
 * The distinct ObjectKey identities of a trace, interned to dense ids (0, 1, ... in order of
 * first appearance): the key table under KeyAnalysis.
 *
 * Identity: chunk hash bytes (a str of hex digits counts as the bytes it spells), model name,
 * kv_rank, object group id and cache salt; an absent object_group_id or cache_salt differs from
 * any present value (also from 0 and ""): the fields of LMCache's ObjectKey (codec tag
 * `ObjectKey`, `lmcache/v1/distributed/api.py`). The table is open addressing with linear probing
 * on the 64-bit identity hash (RawKeyScanner::identityHash, given by the caller), at most half
 * full. Equal hashes are confirmed field by field, so two identities never merge, even when their
 * hashes collide.
 *
 * `Entry` is the per-key record the caller keeps (KeyAnalysis::Key): default-constructible, with
 * the fields `hash`, `hashOffset`, `hashSize`, `model`, `salt` (-1: none), `hasGroup`, `group` and
 * `kvRank`, which the table fills; the caller owns every other field and may change it through
 * entry(). Model names and cache salts are interned too (models(), salts(): the index in Entry).
 * Chunk hash bytes live in one pool (hashData() + Entry::hashOffset, hashSize bytes).
 *
 * Ownership: a value type; views into hashData() hold until the next intern().
 * Thread-safety: none while interning; the const methods may be called from several threads once
 * interning is over.
 * Errors: none (ids are quint32: at most 2^32 − 1 keys, far more than a trace's memory holds).
 */
template <class Entry>
class KeyTable {
public:
    KeyTable() : m_slots(kInitialSlots, 0) {}

    /** Id of the key with fields `f` and identity hash `h`; a new id when the table has none. */
    quint32 intern(const RawKeyScanner::Fields &f, quint64 h);
    /** Id of the key with fields `f` and identity hash `h`; -1 when the table has none. */
    int find(const RawKeyScanner::Fields &f, quint64 h) const;
    /** Whether `e` has the identity `f` (field by field, the hash aside). */
    bool matches(const Entry &e, const RawKeyScanner::Fields &f) const;
    /**
     * Prefetches what interning keys[at + a few] will touch (hints only: a stale slot or id is
     * harmless). Interning a stream of keys is bound by cache misses (slot, then entry, then hash
     * bytes, each a random access into a large table): asking for them ahead, in three stages,
     * overlaps the loads of later occurrences.
     */
    void prefetch(const std::vector<RawKeyScanner::Key> &keys, size_t at) const;

    quint32 size() const { return quint32(m_entries.size()); }
    const Entry &entry(quint32 id) const { return m_entries[id]; }
    Entry &entry(quint32 id) { return m_entries[id]; }
    const std::vector<Entry> &entries() const { return m_entries; }
    std::vector<Entry> &entries() { return m_entries; }
    /** The chunk hash pool (Entry::hashOffset indexes it). */
    const uchar *hashData() const { return m_hashPool.data(); }
    /** Distinct model names, by Entry::model. */
    const QStringList &models() const { return m_modelNames.names; }
    /** Distinct cache salts, by Entry::salt. */
    const QStringList &salts() const { return m_saltNames.names; }

    /** Interning is over: drops the name lookups and spare entry capacity (find() still works;
     *  no intern() of a new model name or salt afterwards). */
    void finish();
    /** Bytes held by the entries, the hash pool and the slots. */
    qint64 memoryBytes() const {
        return qint64(m_entries.capacity() * sizeof(Entry) + m_hashPool.capacity() +
                      m_slots.capacity() * sizeof(quint32));
    }

private:
    static constexpr size_t kInitialSlots = 1024;  // a power of two
    struct Names {
        QStringList names;
        std::vector<QByteArray> utf8;  // by id
        QHash<QByteArray, quint32> ids;
        quint32 intern(const uchar *p, quint32 n);
    };
    void grow();

    std::vector<Entry> m_entries;
    std::vector<uchar> m_hashPool;
    std::vector<quint32> m_slots;  // key id + 1, 0 = empty; size a power of two
    Names m_modelNames, m_saltNames;
};

template <class Entry>
quint32 KeyTable<Entry>::Names::intern(const uchar *p, quint32 n) {
    const QByteArray b(reinterpret_cast<const char *>(p), qsizetype(n));
    auto it = ids.constFind(b);
    if (it != ids.constEnd()) {
        return it.value();
    }
    const quint32 id = quint32(utf8.size());
    ids.insert(b, id);
    utf8.push_back(b);
    names.append(QString::fromUtf8(b));
    return id;
}

template <class Entry>
bool KeyTable<Entry>::matches(const Entry &e, const RawKeyScanner::Fields &f) const {
    if (e.kvRank != f.kvRank || e.hasGroup != f.hasGroup || (e.hasGroup && e.group != f.group) ||
        (e.salt >= 0) != f.hasSalt) {
        return false;
    }
    const QByteArray &model = m_modelNames.utf8[e.model];
    if (quint32(model.size()) != f.modelSize ||
        (f.modelSize && std::memcmp(model.constData(), f.model, f.modelSize) != 0)) {
        return false;
    }
    if (f.hasSalt) {
        const QByteArray &salt = m_saltNames.utf8[size_t(e.salt)];
        if (quint32(salt.size()) != f.saltSize ||
            (f.saltSize && std::memcmp(salt.constData(), f.salt, f.saltSize) != 0)) {
            return false;
        }
    }
    const uchar *h = m_hashPool.data() + e.hashOffset;
    if (!f.hashIsHex) {
        return e.hashSize == f.hashSize &&
               (f.hashSize == 0 || std::memcmp(h, f.hash, f.hashSize) == 0);
    }
    const QByteArray b = f.hashBytes();
    return e.hashSize == quint32(b.size()) &&
           (b.isEmpty() || std::memcmp(h, b.constData(), size_t(b.size())) == 0);
}

template <class Entry>
void KeyTable<Entry>::prefetch(const std::vector<RawKeyScanner::Key> &keys, size_t at) const {
    constexpr size_t kSlotAhead = 24, kEntryAhead = 12, kHashAhead = 4;
    const size_t mask = m_slots.size() - 1;
    if (at + kSlotAhead < keys.size()) {
        __builtin_prefetch(&m_slots[size_t(keys[at + kSlotAhead].hash) & mask]);
    }
    auto candidate = [&](size_t i) -> const Entry * {
        const quint32 s = m_slots[size_t(keys[i].hash) & mask];
        return s != 0 && s <= m_entries.size() ? &m_entries[s - 1] : nullptr;
    };
    if (at + kEntryAhead < keys.size()) {
        if (const Entry *e = candidate(at + kEntryAhead)) {
            const char *p = reinterpret_cast<const char *>(e);
            __builtin_prefetch(p);
            __builtin_prefetch(p + 64);
            __builtin_prefetch(p + sizeof(Entry) - 1);
        }
    }
    if (at + kHashAhead < keys.size()) {
        if (const Entry *e = candidate(at + kHashAhead)) {
            __builtin_prefetch(m_hashPool.data() + e->hashOffset);
        }
    }
}

template <class Entry>
void KeyTable<Entry>::grow() {
    std::vector<quint32> table(m_slots.size() * 2, 0);
    const size_t mask = table.size() - 1;
    for (quint32 id = 0; id < m_entries.size(); ++id) {
        size_t s = size_t(m_entries[id].hash) & mask;
        while (table[s] != 0) {
            s = (s + 1) & mask;
        }
        table[s] = id + 1;
    }
    m_slots.swap(table);
}

template <class Entry>
quint32 KeyTable<Entry>::intern(const RawKeyScanner::Fields &f, quint64 h) {
    const size_t mask = m_slots.size() - 1;
    size_t s = size_t(h) & mask;
    while (m_slots[s] != 0) {
        const Entry &e = m_entries[m_slots[s] - 1];
        if (e.hash == h && matches(e, f)) {
            return m_slots[s] - 1;
        }
        s = (s + 1) & mask;
    }
    // A new key (or a 64-bit hash collision: a different identity, kept apart).
    Entry e;
    e.hash = h;
    e.kvRank = f.kvRank;
    e.hasGroup = f.hasGroup;
    e.group = f.group;
    e.model = m_modelNames.intern(f.model, f.modelSize);
    e.salt = f.hasSalt ? qint32(m_saltNames.intern(f.salt, f.saltSize)) : -1;
    e.hashOffset = m_hashPool.size();
    if (f.hashIsHex) {
        const QByteArray b = f.hashBytes();
        m_hashPool.insert(m_hashPool.end(), b.begin(), b.end());
        e.hashSize = quint32(b.size());
    } else {
        m_hashPool.insert(m_hashPool.end(), f.hash, f.hash + f.hashSize);
        e.hashSize = f.hashSize;
    }
    const quint32 id = quint32(m_entries.size());
    m_entries.push_back(e);
    m_slots[s] = id + 1;
    if (2 * m_entries.size() > m_slots.size()) {
        grow();
    }
    return id;
}

template <class Entry>
int KeyTable<Entry>::find(const RawKeyScanner::Fields &f, quint64 h) const {
    const size_t mask = m_slots.size() - 1;
    for (size_t s = size_t(h) & mask; m_slots[s] != 0; s = (s + 1) & mask) {
        const Entry &e = m_entries[m_slots[s] - 1];
        if (e.hash == h && matches(e, f)) {
            return int(m_slots[s] - 1);
        }
    }
    return -1;
}

template <class Entry>
void KeyTable<Entry>::finish() {
    m_modelNames.ids.clear();
    m_saltNames.ids.clear();
    m_entries.shrink_to_fit();
}

}  // namespace lmct
