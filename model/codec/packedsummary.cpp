#include "codec/packedsummary.h"

#include "codec/memorylayout.h"
#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "msgpack/packedtree.h"

#include <QStringList>
#include <optional>
#include <string_view>

namespace lmct {

namespace {

static_assert(PackedTree::kMaxPayload == quint64(Value::kMaxKeptBytes),
              "the tree declines the strings the value tree keeps only the start of");
static_assert(PackedTree::kMaxDepth < ValueDecoder::Limits{}.maxDepth &&
                  PackedTree::kMaxNodes < ValueDecoder::Limits{}.maxNodes,
              "what the tree indexes, the value tree decodes whole");

using Kind = PackedTree::Kind;

QString utf8(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/**
 * The texts of the strings met, by their bytes: the keys of a record name one model (and one
 * salt) over and over, and a QString copy is a reference count where a conversion allocates.
 */
class TextCache {
public:
    const QString &of(std::string_view s) {
        for (Entry &e : m_entries) {
            if (e.used && e.bytes == s) {
                return e.text;
            }
        }
        Entry &e = m_entries[m_next];
        m_next = (m_next + 1) % kEntries;
        e.used = true;
        e.bytes.assign(s.data(), s.size());
        e.text = utf8(s);
        return e.text;
    }

private:
    static constexpr int kEntries = 4;
    struct Entry {
        bool used = false;
        std::string bytes;
        QString text;
    };
    Entry m_entries[kEntries];
    int m_next = 0;
};

/** The summary's walks over a PackedTree: RecordSummary's, ObjectKey's and MemoryLayout's
 *  over Value, node for node. */
class Walker {
public:
    Walker(const PackedTree &t, TextCache &texts) : m_t(t), m_texts(texts) {}

    /** Value::toString(): a String's text, a Tagged value's tag, else empty. */
    QString toString(int n) const {
        if (m_t.kind(n) == Kind::String) {
            return m_texts.of(m_t.text(n));
        }
        if (m_t.kind(n) == Kind::Tagged) {
            return utf8(m_t.tag(n));
        }
        return QString();
    }

    /** ValueFormatter::display() of node `n`: its bytes decoded alone, then rendered. */
    QString display(int n, int maxChars) const {
        const QByteArrayView b = m_t.bytes(n);
        const ValueDecoder::Result r = ValueDecoder::decode(b.data(), b.size());
        return ValueFormatter::display(r.value, maxChars);
    }

    /** ObjectKey::fromValue(), of the fields the summary reads (no chunk hash). */
    std::optional<ObjectKey> objectKey(int v) const {
        int m = v;
        if (m_t.kind(v) == Kind::Tagged) {
            if (m_t.tag(v) != "ObjectKey") {
                return std::nullopt;
            }
            m = m_t.payload(v);
        }
        if (m_t.kind(m) != Kind::Map) {
            return std::nullopt;
        }
        // The first entry of each name, as find() gives it, in one pass over the entries.
        int hash = -1, model = -1, rank = -1, group = -1, salt = -1;
        m_t.forEachEntry(m, [&](std::string_view key, int v) {
            int *slot = key == "chunk_hash"        ? &hash
                        : key == "model_name"      ? &model
                        : key == "kv_rank"         ? &rank
                        : key == "object_group_id" ? &group
                        : key == "cache_salt"      ? &salt
                                                   : nullptr;
            if (slot && *slot < 0) {
                *slot = v;
            }
        });
        if (hash < 0 || model < 0 || rank < 0) {
            return std::nullopt;
        }
        if (m_t.kind(hash) != Kind::Bytes && m_t.kind(hash) != Kind::String) {
            return std::nullopt;
        }
        ObjectKey k;
        k.modelName = toString(model);
        k.kvRank = m_t.toInt(rank);
        if (group >= 0 && m_t.kind(group) == Kind::Int) {
            k.objectGroupId = m_t.toInt(group);
        }
        if (salt >= 0 && m_t.kind(salt) == Kind::String) {
            k.cacheSalt = toString(salt);
        }
        return k;
    }

    /** ObjectKey::collect(v, limit) into `out` and ObjectKey::count(v) into `count`. */
    void keys(int v, QList<ObjectKey> *out, int *count, int limit) const {
        if (m_t.kind(v) == Kind::Tagged && m_t.tag(v) == "ObjectKey") {
            if (out && out->size() < limit) {
                if (auto k = objectKey(v)) {
                    out->append(*k);
                }
            }
            ++*count;
            return;
        }
        m_t.forEachChild(v, [&](int c) {
            if (m_t.isContainer(c)) {
                keys(c, out, count, limit);
            }
        });
    }

    /** MemoryLayout::fromValue(). */
    std::optional<MemoryLayout> layout(int v) const {
        int m = v;
        if (m_t.kind(v) == Kind::Tagged) {
            if (m_t.tag(v) != "MemoryLayoutDesc") {
                return std::nullopt;
            }
            m = m_t.payload(v);
        }
        if (m_t.kind(m) != Kind::Map) {
            return std::nullopt;
        }
        const int shapes = m_t.find(m, "shapes");
        const int dtypes = m_t.find(m, "dtypes");
        if (shapes < 0 || dtypes < 0) {
            return std::nullopt;
        }
        MemoryLayout l;
        m_t.forEachChild(m_t.untagged(shapes), [&](int shape) {
            QList<qint64> dims;
            m_t.forEachChild(m_t.untagged(shape), [&](int d) { dims.append(m_t.toInt(d)); });
            l.shapes.append(dims);
        });
        m_t.forEachChild(m_t.untagged(dtypes),
                         [&](int d) { l.dtypes.append(toString(m_t.untagged(d))); });
        return l;
    }

    /** MemoryLayout::findIn(). */
    std::optional<MemoryLayout> findLayout(int v) const {
        if (m_t.kind(v) == Kind::Tagged && m_t.tag(v) == "MemoryLayoutDesc") {
            return layout(v);
        }
        std::optional<MemoryLayout> found;
        // (forEachChild has no early exit: the first found is kept, the rest not searched)
        m_t.forEachChild(v, [&](int c) {
            if (!found && m_t.isContainer(c)) {
                found = findLayout(c);
            }
        });
        return found;
    }

    /**
     * RecordSummary's findDeep(v, key) for several keys in one walk: `found[i]` is the first
     * value of key `names[i]` in the same pre-order (a map's own keys before what it holds),
     * six levels deep at most; -1 when none.
     */
    template <size_t N>
    void findDeep(int v, const std::string_view (&names)[N], int (&found)[N], int depth = 0) const {
        if (depth > 6) {
            return;
        }
        if (m_t.kind(v) == Kind::Map) {
            // One pass over the entries (the first of each name is kept, as find() gives it);
            // a key whose length no name has is passed over on one test.
            const quint32 lengths = lengthsOf(names);
            m_t.forEachEntry(v, [&](std::string_view key, int value) {
                if (key.size() < 32 && !(lengths >> key.size() & 1)) {
                    return;
                }
                for (size_t i = 0; i < N; ++i) {
                    if (found[i] < 0 && key == names[i]) {
                        found[i] = value;
                    }
                }
            });
        }
        m_t.forEachChild(v, [&](int c) {
            if (m_t.isContainer(c)) {
                findDeep(c, names, found, depth + 1);
            }
        });
    }

    /** Bit n set: a name of `names` is n bytes long (n < 32; longer keys are compared). */
    template <size_t N>
    static constexpr quint32 lengthsOf(const std::string_view (&names)[N]) {
        quint32 mask = 0;
        for (const std::string_view &n : names) {
            mask |= n.size() < 32 ? quint32(1) << n.size() : 0;
        }
        return mask;
    }

    /** RecordSummary::requestId() of the node `id` findDeep found (-1: none). */
    QString requestId(int id) const {
        if (id < 0 || m_t.kind(id) == Kind::Nil) {
            return QString();
        }
        return m_t.kind(id) == Kind::String ? toString(id) : display(id, 60);
    }

private:
    const PackedTree &m_t;
    TextCache &m_texts;
};

// The fields findDeep looks for: the flags of RecordSummary::summarize(), then the request id.
constexpr std::string_view kFlags[] = {"mode",       "policy",  "extra_count",
                                       "read_locks", "skip_l2", "external_request_id"};
constexpr size_t kRequest = 5;

/** RecordSummary::summarize(args, maxChars). */
QString summarizeArgs(const PackedTree &t, const Walker &w, int args, int maxChars) {
    QStringList parts;
    thread_local QList<ObjectKey> keys;
    keys.clear();
    keys.reserve(64);
    int nkeys = 0;
    w.keys(args, &keys, &nkeys, 100000);
    const bool withKeys = nkeys > 0 || t.find(args, "keys") >= 0;
    if (withKeys) {
        // (RecordSummary's "%1 key%2", without parsing the pattern)
        parts.append(QString::number(nkeys) +
                     (nkeys == 1 ? QLatin1String(" key") : QLatin1String(" keys")));
    }
    RecordSummary::appendKeyParts(keys, &parts);
    if (auto l = w.findLayout(args)) {
        parts.append(l->toString());
    }
    int found[std::size(kFlags)];
    std::fill(std::begin(found), std::end(found), -1);
    w.findDeep(args, kFlags, found);
    if (withKeys) {
        for (size_t i = 0; i < kRequest; ++i) {
            const int v = found[i];
            if (v < 0) {
                continue;
            }
            const int u = t.untagged(v);
            if ((t.kind(u) == Kind::Int && t.toInt(u) == 0) ||
                (t.kind(u) == Kind::Bool && !t.toBool(u)) || t.kind(u) == Kind::Nil) {
                continue;
            }
            if (i <= 1) {  // mode, policy
                parts.append(w.display(v, 30));
            } else {
                parts.append(QStringLiteral("%1=%2").arg(utf8(kFlags[i]), w.display(v, 30)));
            }
        }
    } else if (t.kind(args) == Kind::Map) {
        // No keys: events level or an unknown call. Show scalar arguments.
        t.forEachEntry(args, [&](std::string_view keyBytes, int v) {
            const QString key = utf8(keyBytes);
            if (key == QLatin1String("external_request_id")) {
                return;
            }
            if (t.kind(v) == Kind::Array) {
                parts.append(QStringLiteral("%1[%2]").arg(key).arg(t.size(v)));
            } else if (!t.isContainer(v)) {
                parts.append(QStringLiteral("%1=%2").arg(key, w.display(v, 40)));
            } else {  // ValueFormatter::typeLabel of a map or a tagged value
                parts.append(QStringLiteral("%1=%2").arg(
                    key, t.kind(v) == Kind::Map ? QStringLiteral("map{%1}").arg(t.size(v))
                                                : utf8(t.tag(v))));
            }
        });
    }
    const QString req = w.requestId(found[kRequest]);
    if (!req.isEmpty()) {
        parts.append(RecordSummary::elideMiddle(req, 28));
    }
    return RecordSummary::capped(parts, maxChars);
}

/** RecordSummary::summarize(qualname, args, maxChars) of a release or cancel with a handle. */
QString summarizeLease(const PackedTree &t, const Walker &w, int args, int handle, bool cancel,
                       int maxChars) {
    // The handle alone is decoded: its request and hits read as the value tree's.
    const QByteArrayView b = t.bytes(handle);
    const ValueDecoder::Result decoded = ValueDecoder::decode(b.data(), b.size());
    const Value &h = decoded.value.payload();
    QStringList parts;
    if (cancel) {
        parts.append(QStringLiteral("cancel ") + RecordSummary::handleRequest(h));
    } else {
        const int keys = t.find(args, "keys");
        QString what;
        if (keys < 0) {
            what = QString();  // not recorded: say nothing about the keys
        } else if (t.kind(keys) == Kind::Nil) {
            what = QStringLiteral("all keys of ");
        } else {
            int n = 0;
            w.keys(keys, nullptr, &n, 0);
            what = QStringLiteral("%1 key%2 of ").arg(n).arg(n == 1 ? "" : "s");
        }
        parts.append(QStringLiteral("release ") + what + RecordSummary::handleRequest(h));
        if (keys >= 0) {
            QList<ObjectKey> list;
            int n = 0;
            w.keys(keys, &list, &n, 100000);
            RecordSummary::appendKeyParts(list, &parts);
        }
    }
    if (const QString hits = ValueFormatter::handleHits(h); !hits.isEmpty()) {
        parts.append(hits);
    }
    return RecordSummary::capped(parts, maxChars);
}

/** RecordSummary::summarize(qualname, args, maxChars) of node `args` of `tree`. */
QString summarizeNode(const PackedTree &tree, TextCache &texts, int args, PackedSummary::Call call,
                      int maxChars) {
    const Walker w(tree, texts);
    if (call != PackedSummary::Call::Other) {
        const int handle = tree.find(args, "handle");
        if (handle >= 0 && tree.kind(handle) == Kind::Tagged &&
            tree.tag(handle) == "PrefetchHandle" && tree.kind(tree.payload(handle)) == Kind::Map) {
            return summarizeLease(tree, w, args, handle,
                                  call == PackedSummary::Call::CancelPrefetch, maxChars);
        }
    }
    return summarizeArgs(tree, w, args, maxChars);
}

thread_local PackedTree t_tree;
thread_local TextCache t_texts;

}  // namespace

PackedSummary::Call PackedSummary::callOf(const QString &qualname) {
    const QString call = Qualname::shortName(qualname);
    if (call == QLatin1String("release_prefetch_task")) {
        return Call::ReleasePrefetch;
    }
    if (call == QLatin1String("cancel_prefetch_task")) {
        return Call::CancelPrefetch;
    }
    return Call::Other;
}

bool PackedSummary::summarize(const char *args, qint64 size, Call call, int maxChars,
                              QString *out) {
    if (!t_tree.build(args, size)) {
        return false;
    }
    *out = summarizeNode(t_tree, t_texts, PackedTree::root(), call, maxChars);
    return true;
}

bool PackedSummary::summarizeRecord(const char *body, qint64 size, Call call, int maxChars,
                                    QString *out) {
    if (!t_tree.build(body, size) || t_tree.kind(PackedTree::root()) != Kind::Map) {
        return false;
    }
    const int args = t_tree.find(PackedTree::root(), "args");
    if (args < 0) {
        return false;
    }
    *out = summarizeNode(t_tree, t_texts, args, call, maxChars);
    return true;
}

}  // namespace lmct
