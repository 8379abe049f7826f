// Filter evaluation on the reference traces, checked against counts computed independently in
// this test by decoding every record's arguments through TraceDocument::args (the Value tree)
// and walking them with ObjectKey / MemoryLayout / RecordSummary, not through the evaluator's
// packed fast path.

#include "codec/memorylayout.h"
#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "filter/filterevaluator.h"
#include "trace/traceloader.h"
#include "util/computepool.h"

#include "stats/tracestatistics.h"
#include "trace/traceset.h"

#include "combinefixture.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>
#include <QtEndian>
#include <QtTest>
#include <functional>

using namespace lmct;

namespace {

/** What the test knows about one record, from the Value tree. */
struct Rec {
    int index = 0;
    QString qualname;
    QString call;
    double tMono = 0.0;
    double tWall = 0.0;
    Value args;
    QList<ObjectKey> keys;
    int keyCount = 0;
    QString request;
    std::optional<qint64> bytes;
};

struct Trace {
    std::shared_ptr<const TraceDocument> doc;
    std::vector<Rec> recs;
};

Trace loadTrace(const QString &name) {
    Trace t;
    QString error;
    t.doc = TraceLoader::load(QStringLiteral(LMCT_TRACES "/") + name, &error);
    if (!t.doc) {
        qFatal("cannot load %s: %s", qPrintable(name), qPrintable(error));
    }
    const RecordStore &rs = t.doc->records();
    t.recs.resize(size_t(rs.size()));
    for (int i = 0; i < rs.size(); ++i) {
        Rec &r = t.recs[size_t(i)];
        r.index = i;
        r.qualname = rs.qualname(i);
        r.call = Qualname::shortName(r.qualname);
        r.tMono = rs.tMono(i);
        r.tWall = rs.tWall(i);
        r.args = t.doc->args(i)->value;
        r.keys = ObjectKey::collect(r.args);
        r.keyCount = ObjectKey::count(r.args);
        r.request = RecordSummary::requestId(r.args);
        if (const auto l = MemoryLayout::findIn(r.args)) {
            if (const auto per = l->bytesPerObject()) {
                r.bytes = *per * r.keyCount;
            }
        }
    }
    return t;
}

const Trace &trace(const QString &name) {
    static QHash<QString, Trace> cache;
    if (!cache.contains(name)) {
        cache.insert(name, loadTrace(name));
    }
    return cache[name];
}

using Pred = std::function<bool(const Rec &)>;

std::vector<int> expected(const Trace &t, const Pred &p) {
    std::vector<int> out;
    for (const Rec &r : t.recs) {
        if (p(r)) {
            out.push_back(r.index);
        }
    }
    return out;
}

std::vector<int> evaluate(const Trace &t, const QString &filter,
                          FilterEvaluator::Options o = FilterEvaluator::Options()) {
    const FilterExpression e = FilterExpression::parse(filter);
    if (!e.isValid()) {
        qWarning("invalid filter %s: %s", qPrintable(filter), qPrintable(e.errorString()));
        return {};
    }
    return FilterEvaluator(t.doc, e).run(o).records;
}

bool anyKey(const Rec &r, const std::function<bool(const ObjectKey &)> &p) {
    return std::any_of(r.keys.cbegin(), r.keys.cend(), p);
}

/** The first record of call `call`, or null. */
const Rec *firstOf(const Trace &t, const QString &call) {
    for (const Rec &r : t.recs) {
        if (r.call == call) {
            return &r;
        }
    }
    return nullptr;
}

const QString kQwen = QStringLiteral("Qwen/Qwen3-8B");

}  // namespace

class TestFilterEvaluator : public QObject {
    Q_OBJECT
private slots:
    void countsMatchIndependentWalk_data();
    void countsMatchIndependentWalk();
    void versionSpecificShapes();
    void eventsLevel();
    void complementsAddUp();
    void columnFiltersNeverDecode();
    void cheapConditionsDecideFirst();
    void subsetAndRange();
    void singleRecordAgreesWithRun();
    void poolsAndChunksAgree();
    void progressAndCancel();
    void damagedTraceHasNoDecodeErrors();
    void growingDocument();
    void traceField();
    void concurrentRunsDoNotDeadlock();
    void largeInLists();
    void inAgreesWithOrOfEquals();
};

void TestFilterEvaluator::countsMatchIndependentWalk_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("first recorder") << "lmcache-first-recorder-storage.lct";
    QTest::newRow("schema1 trim policy") << "schema1-trimpolicy-tp2.lct";
    QTest::newRow("schema1 sliding window") << "schema1-sliding-window-tp2.lct";
    QTest::newRow("schema2 prefetch spec") << "schema2-prefetch-spec-tp2.lct";
    QTest::newRow("newest unknown spec") << "newest-unknown-spec-tp4.lct";
}

void TestFilterEvaluator::countsMatchIndependentWalk() {
    QFETCH(QString, file);
    const Trace &t = trace(file);
    const int total = int(t.recs.size());
    QVERIFY(total > 1000);

    // Known values taken from the trace: the first prefetch's first key and request id.
    const Rec *submit = firstOf(t, QStringLiteral("submit_prefetch_task"));
    QVERIFY(submit && !submit->keys.isEmpty() && !submit->request.isEmpty());
    const QString hash = submit->keys.front().hashHex();
    const QString prefix = hash.left(6);
    const QString request = submit->request;
    const int world = submit->keys.front().rank().worldSize;

    struct Case {
        QString filter;
        Pred pred;
        bool expectSome = true;
    };
    const std::vector<Case> cases = {
        {QStringLiteral("model_name == \"Qwen/Qwen3-8B\""),
         [](const Rec &r) {
             return anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
         }},
        {QStringLiteral("model_name == Qwen/Qwen3-8B"),
         [](const Rec &r) {
             return anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
         }},
        {QStringLiteral("model_name != \"Qwen/Qwen3-8B\""),
         [](const Rec &r) {
             return !anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
         }},
        {QStringLiteral("model_name contains Llama"),
         [](const Rec &r) {
             return anyKey(r, [](const ObjectKey &k) {
                 return k.modelName.contains(QStringLiteral("Llama"));
             });
         }},
        {QStringLiteral("rank == 1"),
         [](const Rec &r) {
             return anyKey(r, [](const ObjectKey &k) { return k.rank().rank == 1; });
         },
         world > 1},
        {QStringLiteral("rank == 0"),
         [](const Rec &r) {
             return anyKey(r, [](const ObjectKey &k) { return k.rank().rank == 0; });
         }},
        {QStringLiteral("world_size == %1").arg(world),
         [world](const Rec &r) {
             return anyKey(r, [world](const ObjectKey &k) { return k.rank().worldSize == world; });
         }},
        {QStringLiteral("kv_rank == %1").arg(submit->keys.front().kvRank),
         [kv = submit->keys.front().kvRank](const Rec &r) {
             return anyKey(r, [kv](const ObjectKey &k) { return k.kvRank == kv; });
         }},
        {QStringLiteral("chunk_hash == %1").arg(prefix),
         [prefix](const Rec &r) {
             return anyKey(r,
                           [prefix](const ObjectKey &k) { return k.hashHex().startsWith(prefix); });
         }},
        {QStringLiteral("chunk_hash == \"%1...\"").arg(prefix.toUpper()),
         [prefix](const Rec &r) {
             return anyKey(r,
                           [prefix](const ObjectKey &k) { return k.hashHex().startsWith(prefix); });
         }},
        {QStringLiteral("chunk_hash == %1").arg(hash),
         [hash](const Rec &r) {
             return anyKey(r, [hash](const ObjectKey &k) { return k.hashHex() == hash; });
         }},
        {QStringLiteral("chunk_hash == %1").arg(prefix.left(5)),  // odd number of digits
         [p = prefix.left(5)](const Rec &r) {
             return anyKey(r, [p](const ObjectKey &k) { return k.hashHex().startsWith(p); });
         }},
        {QStringLiteral("chunk_hash contains %1").arg(hash.mid(20, 8)),
         [h = hash.mid(20, 8)](const Rec &r) {
             return anyKey(r, [h](const ObjectKey &k) { return k.hashHex().contains(h); });
         }},
        {QStringLiteral("request == \"%1\"").arg(request),
         [request](const Rec &r) { return r.request == request; }},
        {QStringLiteral("request"), [](const Rec &r) { return !r.request.isEmpty(); }},
        {QStringLiteral("request matches \"^chatcmpl-[0-9a-f]{2}[0-7]\""),
         [](const Rec &r) {
             static const QRegularExpression re(QStringLiteral("^chatcmpl-[0-9a-f]{2}[0-7]"));
             return !r.request.isEmpty() && re.match(r.request).hasMatch();
         }},
        {QStringLiteral("keys.count > 30"), [](const Rec &r) { return r.keyCount > 30; }, false},
        {QStringLiteral("keys.count >= 4"), [](const Rec &r) { return r.keyCount >= 4; }},
        {QStringLiteral("keys.count == 0"), [](const Rec &r) { return r.keyCount == 0; }, false},
        {QStringLiteral("bytes > 1GiB"),
         [](const Rec &r) { return r.bytes && *r.bytes > 1024LL * 1024 * 1024; }, false},
        {QStringLiteral("bytes >= 100MiB"),
         [](const Rec &r) { return r.bytes && *r.bytes >= 100LL * 1024 * 1024; }},
        {QStringLiteral("bytes"), [](const Rec &r) { return r.bytes && *r.bytes != 0; }},
        {QStringLiteral("t_mono >= 2s && t_mono < 4500ms"),
         [](const Rec &r) { return r.tMono >= 2.0 && r.tMono < 4.5; }},
        {QStringLiteral("t_mono > 3.25"), [](const Rec &r) { return r.tMono > 3.25; }},
        {QStringLiteral("t_mono <= 900000us"), [](const Rec &r) { return r.tMono <= 0.9; }},
        {QStringLiteral("t_wall < %1").arg(t.recs[100].tWall, 0, 'f', 6),
         [&t](const Rec &r) {
             return r.tWall < QString::number(t.recs[100].tWall, 'f', 6).toDouble();
         }},
        {QStringLiteral("index >= 10 && index < 20"),
         [](const Rec &r) { return r.index >= 10 && r.index < 20; }},
        {QStringLiteral("call in [reserve_write, finish_write]"),
         [](const Rec &r) {
             return r.call == QLatin1String("reserve_write") ||
                    r.call == QLatin1String("finish_write");
         }},
        {QStringLiteral("call matches \"^read_prefetched_results\\.\""),
         [](const Rec &r) { return r.call.startsWith(QLatin1String("read_prefetched_results.")); }},
        {QStringLiteral("qualname contains \"StorageManager.finish_\""),
         [](const Rec &r) { return r.qualname.contains(QLatin1String("StorageManager.finish_")); }},
        {QStringLiteral("call == submit_prefetch_task && model_name == \"Qwen/Qwen3-8B\""),
         [](const Rec &r) {
             return r.call == QLatin1String("submit_prefetch_task") &&
                    anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
         }},
        {QStringLiteral("(rank == 0 || keys.count >= 20) && !(call == finish_write)"),
         [](const Rec &r) {
             return (anyKey(r, [](const ObjectKey &k) { return k.rank().rank == 0; }) ||
                     r.keyCount >= 20) &&
                    r.call != QLatin1String("finish_write");
         }},
        {QStringLiteral("external_request_id == \"%1\"").arg(request),
         [request](const Rec &r) {
             const Value *v = r.args.find(u"external_request_id");
             return v && v->toString() == request;
         }},
        {QStringLiteral("keys[0].model_name == \"Qwen/Qwen3-8B\""),
         [](const Rec &r) {
             const Value *keys = r.args.find(u"keys");
             if (!keys || keys->size() == 0) {
                 return false;
             }
             const auto k = ObjectKey::fromValue(keys->at(0));
             return k && k->modelName == kQwen;
         }},
        {QStringLiteral("keys.model_name == \"Qwen/Qwen3-8B\""),
         [](const Rec &r) {
             const Value *keys = r.args.find(u"keys");
             if (!keys) {
                 return false;
             }
             for (const Value &k : keys->children()) {
                 const auto o = ObjectKey::fromValue(k);
                 if (o && o->modelName == kQwen) {
                     return true;
                 }
             }
             return false;
         }},
    };
    for (const Case &c : cases) {
        const std::vector<int> want = expected(t, c.pred);
        const std::vector<int> got = evaluate(t, c.filter);
        QVERIFY2(got == want, qPrintable(QStringLiteral("%1: evaluator %2, expected %3")
                                             .arg(c.filter)
                                             .arg(got.size())
                                             .arg(want.size())));
        if (c.expectSome) {
            QVERIFY2(!want.empty(), qPrintable(c.filter + QStringLiteral(": no record matches")));
        }
    }
}

void TestFilterEvaluator::versionSpecificShapes() {
    {
        // First recorder: 3-field keys, no salt, no group id, TP=1.
        const Trace &t = trace(QStringLiteral("lmcache-first-recorder-storage.lct"));
        const int withKeys = int(expected(t, [](const Rec &r) { return r.keyCount > 0; }).size());
        QVERIFY(withKeys > 0);
        QCOMPARE(evaluate(t, QStringLiteral("cache_salt == \"\"")).size(), size_t(0));
        QCOMPARE(evaluate(t, QStringLiteral("object_group_id == 0")).size(), size_t(0));
        QCOMPARE(int(evaluate(t, QStringLiteral("world_size == 1")).size()), withKeys);
        QCOMPARE(int(evaluate(t, QStringLiteral("kv_rank == 16777472")).size()), withKeys);
        QCOMPARE(int(evaluate(t, QStringLiteral("kv_rank == 0x01000100")).size()), withKeys);
        QCOMPARE(int(evaluate(t, QStringLiteral("layout_desc.shapes contains 1024")).size()),
                 int(expected(t, [](const Rec &r) { return r.args.find(u"layout_desc"); }).size()));
    }
    {
        // Schema 2: keys inside a tagged PrefetchRequestSpec; salts present and empty.
        const Trace &t = trace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
        const auto submits = expected(
            t, [](const Rec &r) { return r.call == QLatin1String("submit_prefetch_task"); });
        QCOMPARE(evaluate(t, QStringLiteral("spec.policy == PREFIX")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("spec.mode == LOOKUP")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("spec.attn_desc.world_size == 2")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("spec.group_layout_descs.0.shapes contains 1024")),
                 submits);
        QCOMPARE(evaluate(t, QStringLiteral("args contains LOOKUP")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("skip_l2 == false")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("skip_l2")).size(), size_t(0));
        const auto qwenSubmits = expected(t, [](const Rec &r) {
            return r.call == QLatin1String("submit_prefetch_task") &&
                   anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
        });
        QVERIFY(!qwenSubmits.empty());
        QCOMPARE(evaluate(t, QStringLiteral("spec.keys.model_name == \"Qwen/Qwen3-8B\"")),
                 qwenSubmits);
        const auto withKeys = expected(t, [](const Rec &r) { return r.keyCount > 0; });
        QCOMPARE(evaluate(t, QStringLiteral("cache_salt == \"\"")), withKeys);
        QCOMPARE(evaluate(t, QStringLiteral("object_group_id == 0")), withKeys);
        const Rec *submit = firstOf(t, QStringLiteral("submit_prefetch_task"));
        const QString h = submit->keys.front().hashHex();
        QCOMPARE(evaluate(t, QStringLiteral("spec.keys[0].chunk_hash == %1").arg(h.left(8))),
                 expected(t, [&](const Rec &r) {
                     const Value *spec = r.args.find(u"spec");
                     if (!spec) {
                         return false;
                     }
                     const Value *keys = spec->payload().find(u"keys");
                     return keys && keys->size() > 0 &&
                            ObjectKey::fromValue(keys->at(0))->hashHex().startsWith(h.left(8));
                 }));
    }
    {
        // Newest: keys inside unknown tags (PrefetchTaskSpec → GroupedObjectKeys), TP=4.
        const Trace &t = trace(QStringLiteral("newest-unknown-spec-tp4.lct"));
        const auto submits = expected(
            t, [](const Rec &r) { return r.call == QLatin1String("submit_prefetch_task"); });
        QCOMPARE(evaluate(t, QStringLiteral("call == submit_prefetch_task && world_size == 4")),
                 submits);
        QCOMPARE(evaluate(t, QStringLiteral("spec.key_groups.keys.kv_rank > 0")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("spec.lock_mode == LOCK")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("call == submit_prefetch_task && bytes > 0")), submits);
        QCOMPARE(evaluate(t, QStringLiteral("rank == 3")), expected(t, [](const Rec &r) {
                     return anyKey(r, [](const ObjectKey &k) { return k.rank().rank == 3; });
                 }));
        QVERIFY(!evaluate(t, QStringLiteral("call == abort_write")).empty());
        QVERIFY(!evaluate(t, QStringLiteral("read_locks")).empty());
    }
}

void TestFilterEvaluator::eventsLevel() {
    const Trace &t = trace(QStringLiteral("events-level.lmct"));
    QVERIFY(!t.recs.empty());
    QCOMPARE(evaluate(t, QStringLiteral("instance_id == \"node-a\"")),
             expected(t, [](const Rec &r) {
                 const Value *v = r.args.find(u"instance_id");
                 return v && v->toString() == QLatin1String("node-a");
             }));
    const auto deletes = expected(t, [](const Rec &r) {
        const Value *v = r.args.find(u"event_type");
        return v && v->toString() == QLatin1String("delete");
    });
    QVERIFY(!deletes.empty());
    QCOMPARE(evaluate(t, QStringLiteral("event_type == delete")), deletes);
    const auto qwenEntries = expected(t, [](const Rec &r) {
        const Value *entries = r.args.find(u"entries");
        if (!entries) {
            return false;
        }
        for (const Value &e : entries->children()) {
            const Value *key = e.find(u"key");
            const Value *model = key ? key->find(u"model_name") : nullptr;
            if (model && model->toString() == kQwen) {
                return true;
            }
        }
        return false;
    });
    QVERIFY(!qwenEntries.empty());
    QCOMPARE(evaluate(t, QStringLiteral("entries.key.model_name == \"Qwen/Qwen3-8B\"")),
             qwenEntries);
    // Events carry plain maps, not ObjectKeys: derived key fields match nothing.
    QCOMPARE(evaluate(t, QStringLiteral("model_name == \"Qwen/Qwen3-8B\"")).size(), size_t(0));
    // Qualnames without a class are their own short name.
    QCOMPARE(evaluate(t, QStringLiteral("call == events.batch")),
             expected(t, [](const Rec &r) { return r.qualname == QLatin1String("events.batch"); }));
}

void TestFilterEvaluator::complementsAddUp() {
    const Trace &t = trace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    for (const char *f : {"model_name == \"Qwen/Qwen3-8B\"", "rank == 1", "keys.count > 12",
                          "call == reserve_write || t_mono > 7", "request contains a",
                          "bytes > 500MiB", "nonexistent.path == 3"}) {
        const QString filter = QString::fromUtf8(f);
        const size_t yes = evaluate(t, filter).size();
        const size_t no = evaluate(t, QStringLiteral("!(%1)").arg(filter)).size();
        QVERIFY2(yes + no == t.recs.size(), f);
    }
    // != is exactly !(==).
    QCOMPARE(evaluate(t, QStringLiteral("rank != 1")), evaluate(t, QStringLiteral("!(rank == 1)")));
    QCOMPARE(evaluate(t, QStringLiteral("nonexistent != 3")).size(), t.recs.size());
}

void TestFilterEvaluator::columnFiltersNeverDecode() {
    const Trace &t = trace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    const FilterExpression e = FilterExpression::parse(
        QStringLiteral("call in [reserve_write, finish_write] && t_mono > 1s || index < 5"));
    QVERIFY(!e.needsArgs());
    const FilterEvaluator::Result r = FilterEvaluator(t.doc, e).run();
    QCOMPARE(r.decoded, 0);
    QCOMPARE(r.examined, qint64(t.recs.size()));
    QVERIFY(!r.records.empty());
    QVERIFY(std::is_sorted(r.records.begin(), r.records.end()));
    QVERIFY(std::adjacent_find(r.records.begin(), r.records.end()) == r.records.end());
}

void TestFilterEvaluator::cheapConditionsDecideFirst() {
    const Trace &t = trace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    const qint64 finishes = qint64(
        expected(t, [](const Rec &r) { return r.call == QLatin1String("finish_write"); }).size());
    for (const char *f : {"call == finish_write && model_name == \"Qwen/Qwen3-8B\"",
                          "model_name == \"Qwen/Qwen3-8B\" && call == finish_write"}) {
        const FilterEvaluator::Result r =
            FilterEvaluator(t.doc, FilterExpression::parse(QString::fromUtf8(f))).run();
        QVERIFY2(r.decoded == finishes, f);
        QCOMPARE(r.decodeErrors, 0);
    }
}

void TestFilterEvaluator::subsetAndRange() {
    const Trace &t = trace(QStringLiteral("schema1-trimpolicy-tp2.lct"));
    const std::vector<int> a = evaluate(t, QStringLiteral("rank == 1"));
    FilterEvaluator::Options o;
    o.subset = &a;
    QCOMPARE(evaluate(t, QStringLiteral("keys.count > 8"), o),
             evaluate(t, QStringLiteral("rank == 1 && keys.count > 8")));
    FilterEvaluator::Options r;
    r.range = TMonoRange{2.0, 5.0};
    QCOMPARE(evaluate(t, QStringLiteral("call == finish_write"), r),
             evaluate(t, QStringLiteral("call == finish_write && t_mono >= 2 && t_mono <= 5")));
    // The empty filter selects every record of the range.
    QCOMPARE(evaluate(t, QString(), r),
             expected(t, [](const Rec &x) { return x.tMono >= 2.0 && x.tMono <= 5.0; }));
    QCOMPARE(evaluate(t, QString()).size(), t.recs.size());
}

void TestFilterEvaluator::singleRecordAgreesWithRun() {
    const Trace &t = trace(QStringLiteral("schema1-sliding-window-tp2.lct"));
    for (const char *f :
         {"keys.count >= 10 && rank == 0", "policy == PREFIX || attn_desc contains -1"}) {
        const FilterEvaluator ev(t.doc, FilterExpression::parse(QString::fromUtf8(f)));
        const std::vector<int> all = ev.run().records;
        QVERIFY(!all.empty());
        std::vector<int> one;
        for (int i = 0; i < int(t.recs.size()); ++i) {
            if (ev.matches(i)) {
                one.push_back(i);
            }
        }
        QVERIFY2(one == all, f);
        QVERIFY(!ev.matches(-1));
        QVERIFY(!ev.matches(int(t.recs.size())));
    }
}

void TestFilterEvaluator::poolsAndChunksAgree() {
    const Trace &t = trace(QStringLiteral("newest-unknown-spec-tp4.lct"));
    const QString f = QStringLiteral("rank == 2 && keys.count > 3 || call == abort_write");
    const std::vector<int> ref = evaluate(t, f);
    QVERIFY(!ref.empty());
    QThreadPool one;
    one.setMaxThreadCount(1);
    FilterEvaluator::Options o;
    o.pool = &one;
    o.chunkSize = 7;
    QCOMPARE(evaluate(t, f, o), ref);
    o.pool = nullptr;
    o.chunkSize = 1 << 30;
    QCOMPARE(evaluate(t, f, o), ref);
}

void TestFilterEvaluator::progressAndCancel() {
    const Trace &t = trace(QStringLiteral("newest-unknown-spec-tp4.lct"));
    const FilterEvaluator ev(t.doc, FilterExpression::parse(QStringLiteral("keys.count > 3")));
    QMutex m;
    std::vector<std::pair<qint64, qint64>> calls;
    FilterEvaluator::Options o;
    o.chunkSize = 100;
    o.progress = [&](qint64 done, qint64 total) {
        QMutexLocker lock(&m);
        calls.emplace_back(done, total);
    };
    const FilterEvaluator::Result r = ev.run(o);
    QVERIFY(!r.cancelled);
    QVERIFY(calls.size() >= 2);
    for (size_t i = 0; i < calls.size(); ++i) {
        QCOMPARE(calls[i].second, qint64(t.recs.size()));
        if (i > 0) {
            QVERIFY(calls[i].first >= calls[i - 1].first);
        }
    }
    QCOMPARE(calls.back().first, qint64(t.recs.size()));

    std::atomic_bool cancel{true};
    o.progress = nullptr;
    o.cancel = &cancel;
    const FilterEvaluator::Result c = ev.run(o);
    QVERIFY(c.cancelled);
    QCOMPARE(c.examined, 0);
    QVERIFY(c.records.empty());
}

void TestFilterEvaluator::damagedTraceHasNoDecodeErrors() {
    for (const char *name : {"malformed-record.lmct", "truncated-tail.lmct"}) {
        const Trace &t = trace(QString::fromUtf8(name));
        const FilterEvaluator::Result r =
            FilterEvaluator(t.doc, FilterExpression::parse(QStringLiteral("keys.count >= 0")))
                .run();
        QCOMPARE(r.decodeErrors, 0);
        QCOMPARE(r.records.size(), t.recs.size());
        QCOMPARE(r.decoded, qint64(t.recs.size()));
    }
}

// An evaluator built while the document holds one record still evaluates the records (and the
// qualnames) that a live follow appends afterwards.
void TestFilterEvaluator::growingDocument() {
    QFile in(QStringLiteral(LMCT_FIXTURES "/calls-generations.lct"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray all = in.readAll();
    qint64 firstRecordEnd = 0;
    for (int frames = 0; frames < 2; ++frames) {
        firstRecordEnd += 4 + qFromBigEndian<quint32>(all.constData() + firstRecordEnd);
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(firstRecordEnd));
    out.flush();
    QString error;
    TraceLoadOptions opt;
    opt.follow = true;
    const std::shared_ptr<TraceDocument> doc = TraceLoader::open(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 1);
    const QStringList filters = {QStringLiteral("call == finish_write"),
                                 QStringLiteral("qualname contains write || rank == 1"),
                                 QStringLiteral("!(call in [reserve_write, abort_write])")};
    std::vector<FilterEvaluator> early;
    for (const QString &f : filters) {
        early.emplace_back(doc, FilterExpression::parse(f));
    }
    QCOMPARE(doc->records().qualnameCount(), 1);
    out.write(all.mid(firstRecordEnd));
    out.flush();
    QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) > 10);
    QVERIFY(doc->records().qualnameCount() > 3);
    for (size_t i = 0; i < early.size(); ++i) {
        const std::vector<int> late =
            FilterEvaluator(doc, FilterExpression::parse(filters[qsizetype(i)])).run().records;
        QVERIFY(!late.empty());
        QCOMPARE(early[i].run().records, late);
    }
    TraceLoader::stopFollowing(doc.get());
}

// Widgets run evaluations (and statistics) inside QtConcurrent::run, and each fans out to a pool:
// more of them at once than the pools have threads, even running on the compute pool itself,
// must not deadlock (the calling thread takes part in its own work; only idle threads help).
void TestFilterEvaluator::concurrentRunsDoNotDeadlock() {
    const Trace &t = trace(QStringLiteral("schema1-trimpolicy-tp2.lct"));
    const size_t want = evaluate(t, QStringLiteral("rank == 1 && keys.count > 4")).size();
    const qint64 records = qint64(t.recs.size());
    const int n = QThreadPool::globalInstance()->maxThreadCount() * 4 + 1;
    QList<QFuture<qint64>> futures;
    for (int i = 0; i < n; ++i) {
        // Some jobs on the global pool, some on the very pool the model computes on.
        QThreadPool *jobPool = i % 3 == 0 ? ComputePool::instance() : QThreadPool::globalInstance();
        futures.append(QtConcurrent::run(jobPool, [&t, i]() -> qint64 {
            if (i % 2) {
                return TraceStatistics::compute(*t.doc).records;
            }
            FilterEvaluator::Options o;
            o.chunkSize = 64;
            return qint64(FilterEvaluator(t.doc, FilterExpression::parse(
                                                     QStringLiteral("rank == 1 && keys.count > 4")))
                              .run(o)
                              .records.size());
        }));
    }
    QElapsedTimer timer;
    timer.start();
    for (QFuture<qint64> &f : futures) {
        while (!f.isFinished() && timer.elapsed() < 120000) {
            QThread::msleep(5);
        }
        QVERIFY2(f.isFinished(), "an evaluation did not finish: deadlock?");
    }
    for (int i = 0; i < n; ++i) {
        QCOMPARE(futures[i].result(), i % 2 ? records : qint64(want));
    }
}

void TestFilterEvaluator::largeInLists() {
    // `in` with thousands of values: the values are hashed once, the matches stay exact.
    const Trace &t = trace(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
    const int total = int(t.recs.size());
    QRandomGenerator random(20261130);
    auto list = [](const QStringList &values) {
        return QStringLiteral("[%1]").arg(values.join(QStringLiteral(", ")));
    };

    // chunk_hash: 50 real hashes (full, 8-digit prefixes, upper case) among random hex values.
    QSet<QString> hashSet;
    for (const Rec &r : t.recs) {
        for (const ObjectKey &k : r.keys) {
            hashSet.insert(k.hashHex());
        }
    }
    QStringList hashes = hashSet.values();
    std::sort(hashes.begin(), hashes.end());
    QVERIFY(hashes.size() > 100);
    QStringList values;
    for (int i = 0; i < 50; ++i) {
        const QString &h = hashes[i * (hashes.size() / 50)];
        values << (i % 3 == 0 ? h : i % 3 == 1 ? h.left(8) : h.left(12).toUpper());
    }
    while (values.size() < 5000) {
        values << QString::number(random.generate64() | (quint64(1) << 63), 16);
    }
    QSet<QString> matching;  // hashes that start with one of the values (brute force)
    for (const QString &h : hashes) {
        for (const QString &v : values) {
            if (h.startsWith(v.toLower())) {
                matching.insert(h);
                break;
            }
        }
    }
    std::vector<int> want = expected(t, [&](const Rec &r) {
        return anyKey(r, [&](const ObjectKey &k) { return matching.contains(k.hashHex()); });
    });
    QVERIFY(!want.empty() && int(want.size()) < total);
    QCOMPARE(evaluate(t, QStringLiteral("chunk_hash in ") + list(values)), want);

    // index: 5000 even integers.
    values.clear();
    for (int i = 0; i < 5000; ++i) {
        values << QString::number(2 * i);
    }
    QCOMPARE(evaluate(t, QStringLiteral("index in ") + list(values)),
             expected(t, [](const Rec &r) { return r.index % 2 == 0 && r.index < 10000; }));

    // t_mono: the exact times of every third record, among times no record has.
    values.clear();
    QSet<double> times;
    for (int i = 0; i < total && values.size() < 2500; i += 3) {
        times.insert(t.recs[size_t(i)].tMono);
        values << QString::number(t.recs[size_t(i)].tMono, 'g', 17);
    }
    for (int i = 0; values.size() < 5000; ++i) {
        values << QString::number(-1.0 - i * 0.25, 'g', 17);
    }
    QCOMPARE(evaluate(t, QStringLiteral("t_mono in ") + list(values)),
             expected(t, [&](const Rec &r) { return times.contains(r.tMono); }));

    // model_name: the real model among 4999 other quoted names.
    values.clear();
    for (int i = 0; i < 4999; ++i) {
        values << QStringLiteral("\"model-%1\"").arg(i);
    }
    values.insert(2500, QStringLiteral("\"%1\"").arg(kQwen));
    want = expected(t, [](const Rec &r) {
        return anyKey(r, [](const ObjectKey &k) { return k.modelName == kQwen; });
    });
    QVERIFY(!want.empty());
    QCOMPARE(evaluate(t, QStringLiteral("model_name in ") + list(values)), want);

    // rank: 1 among 4999 ranks no key has; and none of them at all.
    values.clear();
    for (int i = 0; i < 4999; ++i) {
        values << QString::number(1000 + i);
    }
    QVERIFY(evaluate(t, QStringLiteral("rank in ") + list(values)).empty());
    values << QStringLiteral("1");
    want = expected(t, [](const Rec &r) {
        return anyKey(r, [](const ObjectKey &k) { return k.rank().rank == 1; });
    });
    QVERIFY(!want.empty());
    QCOMPARE(evaluate(t, QStringLiteral("rank in ") + list(values)), want);
}

void TestFilterEvaluator::inAgreesWithOrOfEquals() {
    // `field in [a, b, ...]` is exactly `field == a || field == b || ...`, for every kind of
    // field and literal (hex prefixes, units, numbers as text, booleans, null).
    const Trace &t = trace(QStringLiteral("schema1-sliding-window-tp2.lct"));
    const Rec *submit = firstOf(t, QStringLiteral("submit_prefetch_task"));
    QVERIFY(submit && !submit->keys.isEmpty());
    const QString hash = submit->keys.front().hashHex();
    const QStringList fields = {QStringLiteral("chunk_hash"),     QStringLiteral("model_name"),
                                QStringLiteral("rank"),           QStringLiteral("kv_rank"),
                                QStringLiteral("world_size"),     QStringLiteral("call"),
                                QStringLiteral("qualname"),       QStringLiteral("t_mono"),
                                QStringLiteral("index"),          QStringLiteral("keys.count"),
                                QStringLiteral("bytes"),          QStringLiteral("request"),
                                QStringLiteral("policy"),         QStringLiteral("cache_salt"),
                                QStringLiteral("object_group_id")};
    const QStringList literals = {hash.left(6),
                                  hash.left(10).toUpper(),
                                  QStringLiteral("0x") + hash,
                                  QStringLiteral("\"%1\"").arg(kQwen),
                                  QStringLiteral("1"),
                                  QStringLiteral("\"1\""),
                                  QStringLiteral("0x2"),
                                  QStringLiteral("1.0"),
                                  QStringLiteral("2s"),
                                  QStringLiteral("36MiB"),
                                  QStringLiteral("true"),
                                  QStringLiteral("FALSE"),
                                  QStringLiteral("null"),
                                  QStringLiteral("finish_write"),
                                  QStringLiteral("PREFIX"),
                                  QStringLiteral("3.5"),
                                  QStringLiteral("-1")};
    int compared = 0;
    for (const QString &field : fields) {
        // the literals the field takes (a field that needs a number refuses other values)
        QStringList ok;
        for (const QString &v : literals) {
            if (FilterExpression::parse(QStringLiteral("%1 == %2").arg(field, v)).isValid()) {
                ok << v;
            }
        }
        QVERIFY2(ok.size() >= 3, qPrintable(field));
        for (int i = 0; i < ok.size(); ++i) {
            const QStringList some = {ok[i], ok[(i + 1) % ok.size()], ok[(i + 5) % ok.size()]};
            QStringList ors;
            for (const QString &v : some) {
                ors << QStringLiteral("%1 == %2").arg(field, v);
            }
            const QString in =
                QStringLiteral("%1 in [%2]").arg(field, some.join(QStringLiteral(", ")));
            QVERIFY2(evaluate(t, in) == evaluate(t, ors.join(QStringLiteral(" || "))),
                     qPrintable(in));
            ++compared;
        }
    }
    QVERIFY(compared > 150);
}

void TestFilterEvaluator::traceField() {
    // Two traces of a set: `trace` names one by label, instance id or index; on a document
    // alone it is trace 0 labelled by its file name.
    QString error;
    auto a = TraceLoader::loadBytes(
        test::combineTrace(10.0, {10.1, 10.2, 10.3}, QStringLiteral("vllm-0")),
        QStringLiteral("a.lct"), &error);
    auto b = TraceLoader::loadBytes(test::combineTrace(10.0, {10.15, 10.25}),
                                    QStringLiteral("b.lct"), &error);
    QVERIFY(a && b);
    TraceSet set;
    set.add(a);
    set.add(b);
    const auto count = [&](int t, const char *text) {
        const FilterExpression e = FilterExpression::parse(QString::fromUtf8(text));
        [&] { QVERIFY2(e.isValid(), qPrintable(e.errorString())); }();
        return int(FilterEvaluator(set, t, e).run().records.size());
    };
    QCOMPARE(count(0, "trace == \"a.lct\""), 3);
    QCOMPARE(count(1, "trace == \"a.lct\""), 0);
    QCOMPARE(count(1, "trace == b.lct"), 2);
    QCOMPARE(count(0, "trace == vllm-0"), 3);  // the instance id
    QCOMPARE(count(1, "trace == vllm-0"), 0);
    QCOMPARE(count(0, "trace == 1"), 0);
    QCOMPARE(count(1, "trace == 1"), 2);
    QCOMPARE(count(1, "trace == \"1\""), 0);  // quoted: a label, not an index
    QCOMPARE(count(0, "trace != 1"), 3);
    QCOMPARE(count(1, "trace in [0, \"b.lct\"]"), 2);
    QCOMPARE(count(0, "trace in [0, \"b.lct\"]"), 3);
    QCOMPARE(count(0, "trace matches \"^vllm\""), 3);
    QCOMPARE(count(1, "trace matches \"^vllm\""), 0);
    QCOMPARE(count(1, "trace contains \".lc\""), 2);
    QCOMPARE(count(1, "trace"), 2);
    QCOMPARE(count(0, "trace == 0 && t_wall > 10.15"), 2);
    QCOMPARE(count(1, "trace == 0 || index == 1"), 1);
    // A document alone: trace 0, its file name, its instance.
    const auto alone = [&](const std::shared_ptr<const TraceDocument> &d, const char *text) {
        return int(FilterEvaluator(d, FilterExpression::parse(QString::fromUtf8(text)))
                       .run()
                       .records.size());
    };
    QCOMPARE(alone(b, "trace == \"b.lct\""), 2);
    QCOMPARE(alone(b, "trace == 0"), 2);
    QCOMPARE(alone(b, "trace == \"a.lct\""), 0);
    QCOMPARE(alone(a, "trace == vllm-0"), 3);
    // Nothing is decoded for it.
    QCOMPARE(FilterEvaluator(set, 0, FilterExpression::parse(QStringLiteral("trace == 0")))
                 .run()
                 .decoded,
             qint64(0));
}

QTEST_GUILESS_MAIN(TestFilterEvaluator)
#include "tst_filterevaluator.moc"
