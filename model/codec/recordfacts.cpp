#include "codec/recordfacts.h"

#include "codec/keylisthash.h"
#include "codec/memorylayout.h"

#include <QHashFunctions>

namespace lmct {

namespace {

constexpr int kMaxDepth = 128;

void walkKeys(const PackedValue &v, std::vector<PackedObjectKey> *out, int *count, int depth) {
    if (depth > kMaxDepth) {
        return;
    }
    if (v.tag() == "ObjectKey") {
        PackedObjectKey k;
        if (PackedObjectKey::fromValue(v, &k)) {
            out->push_back(k);
        }
        ++*count;
        return;
    }
    if (v.isArray()) {
        for (int i = 0, n = v.size(); i < n; ++i) {
            const PackedValue c = v.at(i);
            if (c.isContainer()) {
                walkKeys(c, out, count, depth + 1);
            }
        }
    } else if (v.isMap()) {
        for (int i = 0, n = v.size(); i < n; ++i) {
            const PackedValue c = v.valueAt(i);
            if (c.isContainer()) {
                walkKeys(c, out, count, depth + 1);
            }
        }
    }
}

/** The first MemoryLayoutDesc anywhere in `v`, depth-first (MemoryLayout::findIn order). */
PackedValue findLayout(const PackedValue &v, int depth) {
    if (depth > kMaxDepth) {
        return PackedValue();
    }
    if (v.tag() == "MemoryLayoutDesc") {
        return v;
    }
    const bool map = v.isMap();
    for (int i = 0, n = v.size(); i < n; ++i) {
        const PackedValue c = map ? v.valueAt(i) : v.at(i);
        if (c.isContainer()) {
            if (const PackedValue hit = findLayout(c, depth + 1); hit.isValid()) {
                return hit;
            }
        }
    }
    return PackedValue();
}

std::optional<qint64> layoutBytes(const PackedValue &tagged) {
    const PackedValue m = tagged.payload();
    const PackedValue shapes = m.find("shapes").untagged();
    const PackedValue dtypes = m.find("dtypes").untagged();
    if (!shapes.isValid() || !dtypes.isValid()) {
        return std::nullopt;
    }
    MemoryLayout l;
    for (int i = 0, n = shapes.size(); i < n; ++i) {
        const PackedValue shape = shapes.at(i).untagged();
        QList<qint64> dims;
        for (int j = 0, nd = shape.size(); j < nd; ++j) {
            dims.append(shape.at(j).untagged().toInt());
        }
        l.shapes.append(dims);
    }
    for (int i = 0, n = dtypes.size(); i < n; ++i) {
        l.dtypes.append(dtypes.at(i).untagged().toQString());
    }
    return l.bytesPerObject();
}

/** RecordSummary's findDeep: a map's own key first, then its children, depth ≤ 6. */
PackedValue findDeep(const PackedValue &v, std::string_view key, int depth) {
    if (depth > 6) {
        return PackedValue();
    }
    if (v.isMap()) {
        if (const PackedValue hit = v.find(key); hit.isValid()) {
            return hit;
        }
    }
    const bool map = v.isMap();
    for (int i = 0, n = v.size(); i < n; ++i) {
        const PackedValue c = map ? v.valueAt(i) : v.at(i);
        if (c.isContainer()) {
            if (const PackedValue hit = findDeep(c, key, depth + 1); hit.isValid()) {
                return hit;
            }
        }
    }
    return PackedValue();
}

}  // namespace

void RecordFacts::reset(PackedValue args) {
    m_args = args;
    m_keys.clear();
    m_keyCount = 0;
    m_haveKeys = false;
    m_haveLayout = false;
    m_layoutBytes.reset();
    m_haveRequest = false;
    m_request = PackedValue();
}

void RecordFacts::collectKeys() {
    if (!m_haveKeys) {
        walkKeys(m_args, &m_keys, &m_keyCount, 0);
        m_haveKeys = true;
    }
}

const std::vector<PackedObjectKey> &RecordFacts::keys() {
    collectKeys();
    return m_keys;
}

int RecordFacts::keyCount() {
    collectKeys();
    return m_keyCount;
}

std::optional<qint64> RecordFacts::layoutBytesPerObject() {
    if (!m_haveLayout) {
        const PackedValue l = findLayout(m_args, 0);
        m_layoutBytes = l.isValid() ? layoutBytes(l) : std::nullopt;
        m_haveLayout = true;
    }
    return m_layoutBytes;
}

std::optional<qint64> RecordFacts::bytes() {
    const std::optional<qint64> per = layoutBytesPerObject();
    if (!per) {
        return std::nullopt;
    }
    return *per * keyCount();
}

PackedValue RecordFacts::requestId() {
    if (!m_haveRequest) {
        const PackedValue id = findDeep(m_args, "external_request_id", 0);
        m_request = id.isNil() ? PackedValue() : id;
        m_haveRequest = true;
    }
    return m_request;
}

quint64 RecordFacts::keyListHash() {
    collectKeys();
    KeyListHash h;
    for (const PackedObjectKey &k : m_keys) {
        h.add(k.identityHash());
    }
    return h.value();
}

}  // namespace lmct
