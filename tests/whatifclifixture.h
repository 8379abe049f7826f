// Helpers of the `lmct whatif` suite (tst_whatifcli.cpp): a deterministic stream of uses, a trace
// written record by record from it (one or two models, with or without layouts and config), an
// independent LRU and OPT replay to check the CLI against, and JSON readers.

#pragma once

#include "configsamples.h"
#include "testutil.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <list>
#include <set>
#include <vector>

namespace lmct::test::whatifcli {

using Run = ProcessRun;

inline const QStringList kPolicies = {QStringLiteral("lru"),   QStringLiteral("fifo"),
                                      QStringLiteral("clock"), QStringLiteral("s3fifo"),
                                      QStringLiteral("arc"),   QStringLiteral("opt")};
inline const QStringList kLabels = {QStringLiteral("LRU"),   QStringLiteral("FIFO"),
                                    QStringLiteral("CLOCK"), QStringLiteral("S3-FIFO"),
                                    QStringLiteral("ARC"),   QStringLiteral("OPT")};

inline constexpr quint64 kMiB = quint64(1) << 20;
inline constexpr quint64 kBig = 36 * kMiB;  // [2,36,256,1024] bf16
inline constexpr quint64 kSmall = kMiB;     // [2,8,256,128] bf16
inline const char *const kModelA = "Qwen/Qwen3-8B";
inline const char *const kModelB = "meta-llama/Llama-3.2-1B";

/** One use of the stream: 'w' finish_write (after a reserve_write), 'p' submit_prefetch_task,
 *  'r' read_prefetched_results.__enter__. */
struct Use {
    char kind = 'w';
    int key = 0;
};

/** A deterministic stream over `keys` keys: about 30 % writes, 45 % prefetches, 25 % reads,
 *  skewed towards low key numbers (so that some keys are reused often). */
inline std::vector<Use> stream(int n, int keys, quint32 seed) {
    std::vector<Use> out;
    quint32 s = seed;
    auto next = [&s]() {
        s = s * 1664525u + 1013904223u;
        return s >> 8;
    };
    for (int i = 0; i < n; ++i) {
        const quint32 a = next() % 100, b = next() % quint32(keys), c = next() % quint32(keys);
        const int key = int(std::min(b, c));  // skewed
        out.push_back({a < 30 ? 'w' : a < 75 ? 'p' : 'r', key});
    }
    return out;
}

inline QByteArray layout(const QList<qint64> &shape) {
    Mp m;
    m.tag("MemoryLayoutDesc").map(2).str("shapes").arr(1).arr(quint32(shape.size()));
    for (qint64 d : shape) {
        m.sint(d);
    }
    m.str("dtypes").arr(1).str("torch.bfloat16");
    return m.bytes;
}

/** A trace written record by record: header (with `config` as sm_config_json), then calls. */
class WhatIfTrace {
public:
    struct Key {
        int n = 0;
        const char *model = kModelA;
        const char *salt = "";
    };

    explicit WhatIfTrace(const QString &config = QString(), bool withLayout = true)
        : m_layout(withLayout) {
        HeaderSpec h;
        h.configJson = config;
        if (!config.isEmpty()) {
            h.configDigest = QString::fromLatin1(
                QCryptographicHash::hash(config.toUtf8(), QCryptographicHash::Sha256).toHex());
        }
        m_bytes = frame(headerBody(h));
    }

    void use(const Use &u, const char *model = kModelA, const char *salt = "") {
        const Key k{u.key, model, salt};
        switch (u.kind) {
            case 'w':
                call("reserve_write", k, true);
                call("finish_write", k, false);
                break;
            case 'p':
                call("submit_prefetch_task", k, false);
                break;
            default:
                call("read_prefetched_results.__enter__", k, false);
                call("read_prefetched_results.__exit__", k, false);
                break;
        }
    }
    void uses(const std::vector<Use> &s, const char *model = kModelA, const char *salt = "") {
        for (const Use &u : s) {
            use(u, model, salt);
        }
    }
    const QByteArray &bytes() const { return m_bytes; }

private:
    void call(const char *name, const Key &k, bool withLayoutArg) {
        const bool l = withLayoutArg && m_layout;
        Mp args;
        args.map(l ? 2 : 1).str("keys").arr(1).raw(objectKey(k.n, 33554944, k.model, k.salt));
        if (l) {
            args.str("layout_desc")
                .raw(layout(QLatin1String(k.model) == QLatin1String(kModelA)
                                ? QList<qint64>{2, 36, 256, 1024}
                                : QList<qint64>{2, 8, 256, 128}));
        }
        m_t += 0.001;
        m_bytes += frame(recordBody(m_t, 1760000000.25 + m_t, storageQualname(name), args.bytes));
    }

    bool m_layout;
    double m_t = 0.0;
    QByteArray m_bytes;
};

/** What an independent replay counts: counted prefetch hits and misses. */
struct Counts {
    qint64 prefetchHits = 0;
    qint64 misses = 0;
};

/** Which prefetch uses are counted: their key had a finish_write earlier. */
inline std::vector<bool> countedPrefetches(const std::vector<Use> &s) {
    std::vector<bool> counted(s.size(), false);
    std::set<int> written;
    for (size_t i = 0; i < s.size(); ++i) {
        counted[i] = s[i].kind == 'p' && written.count(s[i].key) > 0;
        if (s[i].kind == 'w') {
            written.insert(s[i].key);
        }
    }
    return counted;
}

/** LRU with demand admission at `capacity` chunks, a plain list. */
inline Counts lru(const std::vector<Use> &s, quint64 capacity) {
    const std::vector<bool> counted = countedPrefetches(s);
    std::list<int> order;  // front: most recent
    Counts c;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto it = std::find(order.begin(), order.end(), s[i].key);
        if (it != order.end()) {
            order.erase(it);
            c.prefetchHits += counted[i] ? 1 : 0;
        } else {
            ++c.misses;
            if (order.size() == capacity) {
                order.pop_back();
            }
        }
        order.push_front(s[i].key);
    }
    return c;
}

/** Belady's MIN with demand admission at `capacity` chunks. */
inline Counts opt(const std::vector<Use> &s, quint64 capacity) {
    const std::vector<bool> counted = countedPrefetches(s);
    auto nextUse = [&s](size_t from, int key) {
        for (size_t j = from + 1; j < s.size(); ++j) {
            if (s[j].key == key) {
                return j;
            }
        }
        return s.size();  // never
    };
    std::set<int> resident;
    Counts c;
    for (size_t i = 0; i < s.size(); ++i) {
        if (resident.count(s[i].key)) {
            c.prefetchHits += counted[i] ? 1 : 0;
            continue;
        }
        ++c.misses;
        if (resident.size() == capacity) {
            int victim = *resident.begin();
            size_t farthest = 0;
            for (int k : resident) {
                const size_t n = nextUse(i, k);
                if (n >= farthest) {
                    farthest = n;
                    victim = k;
                }
            }
            resident.erase(victim);
        }
        resident.insert(s[i].key);
    }
    return c;
}

inline qint64 prefetches(const std::vector<Use> &s) {
    return std::count_if(s.begin(), s.end(), [](const Use &u) { return u.kind == 'p'; });
}

inline int distinctKeys(const std::vector<Use> &s) {
    std::set<int> keys;
    for (const Use &u : s) {
        keys.insert(u.key);
    }
    return int(keys.size());
}

inline QJsonObject jsonOf(const Run &r) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
    if (!doc.isObject()) {
        qWarning("not a JSON object (%s): %s", qPrintable(pe.errorString()), r.out.constData());
    }
    return doc.object();
}

inline QList<quint64> capacitiesOf(const QJsonObject &o, const QString &policy) {
    QList<quint64> out;
    for (const QJsonValue &v :
         o[QStringLiteral("policies")][policy][QStringLiteral("capacities")].toArray()) {
        out << quint64(v.toInteger());
    }
    return out;
}

/** A config like LMCache's with L1 `bytes` and `policy` (absent when empty). */
inline QString configWith(quint64 bytes, const QString &policy) {
    QString json = QString::fromLatin1(kLmcacheConfig);
    json.replace(QStringLiteral("\"size_in_bytes\": 51539607552"),
                 QStringLiteral("\"size_in_bytes\": %1").arg(bytes));
    if (policy.isEmpty()) {
        json.replace(QStringLiteral("\"eviction_policy\": \"LRU\", "), QString());
    } else {
        json.replace(QStringLiteral("\"eviction_policy\": \"LRU\""),
                     QStringLiteral("\"eviction_policy\": \"%1\"").arg(policy));
    }
    return json;
}

inline QString percent(double ratio) {
    return QStringLiteral("%1 %").arg(100.0 * ratio, 0, 'f', 1);
}

}  // namespace lmct::test::whatifcli
