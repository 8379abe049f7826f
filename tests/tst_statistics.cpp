// TraceStatistics on a 12-record trace built here, every expected value worked out by hand
// (see the comments next to the records), and StatisticsTableModel on top of it.

#include "cachetracewriter.h"
#include "filter/filterevaluator.h"
#include "itemmodels/statisticstablemodel.h"
#include "stats/tracestatistics.h"
#include "testutil.h"
#include "timeline/contextpairs.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QtTest>
#include <cmath>
#include <msgpack.hpp>

using namespace lmct;

namespace {

const std::string kSM = "lmcache.v1.distributed.storage_manager.StorageManager.";
const std::string kA = "m/A";
const std::string kB = "m/B";
constexpr qint64 kRank0 = 33554944;  // world 2, rank 0, local world 2, local rank 0
constexpr qint64 kRank1 = 33620481;  // world 2, rank 1, local world 2, local rank 1

struct Key {
    int hash;
    std::string model;
    qint64 rank;
    bool salt;  // A keys carry cache_salt "s1"; B keys have no cache_salt field
};

using Packer = msgpack::packer<msgpack::sbuffer>;

void packStr(Packer &p, const std::string &s) {
    p.pack_str(uint32_t(s.size()));
    p.pack_str_body(s.data(), uint32_t(s.size()));
}

void packKey(Packer &p, const Key &k) {
    p.pack_map(2);
    packStr(p, "__t__");
    packStr(p, "ObjectKey");
    packStr(p, "v");
    p.pack_map(k.salt ? 5 : 4);
    packStr(p, "chunk_hash");
    const std::string hash(32, char(k.hash));
    p.pack_bin(32);
    p.pack_bin_body(hash.data(), 32);
    packStr(p, "model_name");
    packStr(p, k.model);
    packStr(p, "kv_rank");
    p.pack(k.rank);
    packStr(p, "object_group_id");
    p.pack(0);
    if (k.salt) {
        packStr(p, "cache_salt");
        packStr(p, "s1");
    }
}

void packLayout(Packer &p) {  // [[2,4]] bfloat16: 16 bytes per object
    p.pack_map(2);
    packStr(p, "__t__");
    packStr(p, "MemoryLayoutDesc");
    packStr(p, "v");
    p.pack_map(2);
    packStr(p, "shapes");
    p.pack_array(1);
    p.pack_array(2);
    p.pack(2);
    p.pack(4);
    packStr(p, "dtypes");
    p.pack_array(1);
    packStr(p, "torch.bfloat16");
}

QByteArray frame(const msgpack::sbuffer &b) {
    QByteArray out(4, '\0');
    const quint32 n = quint32(b.size());
    out[0] = char(n >> 24);
    out[1] = char(n >> 16);
    out[2] = char(n >> 8);
    out[3] = char(n);
    out.append(b.data(), qsizetype(b.size()));
    return out;
}

QByteArray header() {
    msgpack::sbuffer b;
    Packer p(b);
    p.pack_map(9);
    packStr(p, "type");
    packStr(p, "header");
    packStr(p, "magic");
    p.pack_bin(4);
    p.pack_bin_body("LMCT", 4);
    packStr(p, "format_version");
    p.pack(1);
    packStr(p, "level");
    packStr(p, "storage");
    packStr(p, "trace_schema_version");
    p.pack(2);
    packStr(p, "t_mono_start");
    p.pack(0.0);
    packStr(p, "t_wall_start");
    p.pack(1760000000.0);
    packStr(p, "sm_config_json");
    packStr(p, "");
    packStr(p, "sm_config_digest");
    packStr(p, "");
    return frame(b);
}

QByteArray record(double t, const std::string &call, const std::vector<Key> &keys, bool layout,
                  const std::string &request = std::string()) {
    msgpack::sbuffer b;
    Packer p(b);
    p.pack_map(5);
    packStr(p, "type");
    packStr(p, "record");
    packStr(p, "t_mono");
    p.pack(t);
    packStr(p, "t_wall");
    p.pack(1760000000.0 + t);
    packStr(p, "qualname");
    packStr(p, kSM + call);
    packStr(p, "args");
    p.pack_map(1 + (layout ? 1 : 0) + (request.empty() ? 0 : 1));
    packStr(p, "keys");
    p.pack_array(uint32_t(keys.size()));
    for (const Key &k : keys) {
        packKey(p, k);
    }
    if (layout) {
        packStr(p, "layout_desc");
        packLayout(p);
    }
    if (!request.empty()) {
        packStr(p, "external_request_id");
        packStr(p, request);
    }
    return frame(b);
}

const std::string kEnter = "read_prefetched_results.__enter__";
const std::string kExit = "read_prefetched_results.__exit__";

std::shared_ptr<const TraceDocument> smallTrace() {
    const Key a1r0{1, kA, kRank0, true}, a1r1{1, kA, kRank1, true};
    const Key a2r0{2, kA, kRank0, true}, a2r1{2, kA, kRank1, true};
    const Key a3r0{3, kA, kRank0, true}, a3r1{3, kA, kRank1, true};
    const Key b9r0{9, kB, kRank0, false}, b4r0{4, kB, kRank0, false};
    const std::vector<Key> l1{a1r0, a1r1};
    QByteArray bytes = header();
    bytes += record(0.0, "submit_prefetch_task", {a1r0, a1r1, a2r0, a2r1}, true, "req-1");  // 0
    bytes += record(0.5, "reserve_write", {a3r0}, true);                                    // 1
    bytes += record(1.0, "reserve_write", {a3r1}, true);                                    // 2
    bytes += record(1.5, "finish_write", {a3r0}, false);                                    // 3
    bytes += record(2.0, kEnter, l1, false);                                                // 4
    bytes += record(2.5, kEnter, l1, false);                                                // 5
    bytes += record(3.0, kExit, l1, false);                               // 6: closes 4 (1.0 s)
    bytes += record(4.0, "finish_read_prefetched", l1, false);            // 7
    bytes += record(4.5, kExit, l1, false);                               // 8: closes 5 (2.0 s)
    bytes += record(5.0, kExit, {b9r0}, false);                           // 9: unmatched exit
    bytes += record(6.0, kEnter, {a2r0}, false);                          // 10: unmatched enter
    bytes += record(8.0, "submit_prefetch_task", {b4r0}, true, "req-2");  // 11
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("small"), &error);
    if (!doc || doc->records().size() != 12) {
        qFatal("small trace: %s", qPrintable(error));
    }
    return doc;
}

const TraceStatistics::CallRow *row(const TraceStatistics &s, const QString &call) {
    for (const auto &r : s.calls) {
        if (r.call == call) {
            return &r;
        }
    }
    return nullptr;
}

bool near(double a, double b) {
    return std::abs(a - b) < 1e-12;
}

}  // namespace

class TestStatistics : public QObject {
    Q_OBJECT
private slots:
    void percentiles();
    void perCall();
    void totals();
    void groups();
    void contextPairs();
    void rangeAndSubset();
    void withoutArgs();
    void json();
    void referenceTracePairsAgreeWithTruth();
    void pairsAgreeWithTheTimelinesContextPairs();
    void tableModels();
    void groupFiltersSelectTheGroupsCalls();
    void timesThatAreNotTimesAreLeftOut();
    void finishReadsOfReleasesAndLateReleases();
    void regression_tableNamesAreEscaped();

private:
    std::shared_ptr<const TraceDocument> m_doc = smallTrace();
    TraceStatistics m_stats = TraceStatistics::compute(*m_doc);
};

void TestStatistics::percentiles() {
    QVERIFY(std::isnan(TraceStatistics::percentile({}, 0.5)));
    QCOMPARE(TraceStatistics::percentile({7.0}, 0.95), 7.0);
    QCOMPARE(TraceStatistics::percentile({1, 2, 3, 4}, 0.5), 2.5);
    QVERIFY(near(TraceStatistics::percentile({1, 2, 3, 4}, 0.95), 3.85));
    QCOMPARE(TraceStatistics::percentile({1, 2, 3, 4}, 0.0), 1.0);
    QCOMPARE(TraceStatistics::percentile({1, 2, 3, 4}, 1.0), 4.0);
}

void TestStatistics::perCall() {
    const TraceStatistics &s = m_stats;
    QCOMPARE(s.records, 12);
    QVERIFY(s.argsDecoded);
    QCOMPARE(s.decodeErrors, 0);
    QCOMPARE(s.calls.size(), 6);
    // Call-flow order.
    QStringList order;
    for (const auto &r : s.calls) {
        order << r.call;
    }
    QCOMPARE(order, (QStringList{"submit_prefetch_task", "read_prefetched_results.__enter__",
                                 "finish_read_prefetched", "read_prefetched_results.__exit__",
                                 "reserve_write", "finish_write"}));

    const auto *submit = row(s, QStringLiteral("submit_prefetch_task"));
    QCOMPARE(submit->qualname, QString::fromStdString(kSM + "submit_prefetch_task"));
    QCOMPARE(submit->count, 2);
    QVERIFY(near(submit->share, 2.0 / 12.0));
    QCOMPARE(submit->firstTMono, 0.0);
    QCOMPARE(submit->lastTMono, 8.0);
    QCOMPARE(submit->rate, 0.25);  // 2 calls over 8 s
    QCOMPARE(submit->interArrivalP50, 8.0);
    QCOMPARE(submit->interArrivalMax, 8.0);
    QCOMPARE(submit->keysMean, 2.5);  // 4 and 1 keys
    QCOMPARE(submit->keysMax, 4);
    QCOMPARE(submit->bytesMean, 40.0);  // 16 B × 4 and 16 B × 1
    QCOMPARE(submit->bytesCalls, 2);

    const auto *reserve = row(s, QStringLiteral("reserve_write"));
    QCOMPARE(reserve->count, 2);
    QCOMPARE(reserve->rate, 4.0);  // 2 calls over 0.5 s
    QCOMPARE(reserve->interArrivalP95, 0.5);
    QCOMPARE(reserve->keysMean, 1.0);
    QCOMPARE(reserve->bytesMean, 16.0);

    const auto *finish = row(s, QStringLiteral("finish_write"));
    QCOMPARE(finish->count, 1);
    QVERIFY(std::isnan(finish->rate));
    QVERIFY(std::isnan(finish->interArrivalP50));
    QVERIFY(std::isnan(finish->bytesMean));  // no layout
    QCOMPARE(finish->bytesCalls, 0);

    const auto *enter = row(s, QStringLiteral("read_prefetched_results.__enter__"));
    QCOMPARE(enter->count, 3);  // t = 2.0, 2.5, 6.0: gaps 0.5, 3.5
    QCOMPARE(enter->rate, 0.75);
    QCOMPARE(enter->interArrivalP50, 2.0);
    QVERIFY(near(enter->interArrivalP95, 3.35));
    QCOMPARE(enter->interArrivalMax, 3.5);
    QVERIFY(near(enter->keysMean, 5.0 / 3.0));
    QCOMPARE(enter->keysMax, 2);

    const auto *exit = row(s, QStringLiteral("read_prefetched_results.__exit__"));
    QCOMPARE(exit->count, 3);  // t = 3.0, 4.5, 5.0: gaps 1.5, 0.5
    QCOMPARE(exit->rate, 1.5);
    QCOMPARE(exit->interArrivalP50, 1.0);
    QVERIFY(near(exit->interArrivalP95, 1.45));
    QCOMPARE(exit->interArrivalMax, 1.5);
}

void TestStatistics::totals() {
    const TraceStatistics::CallRow &t = m_stats.totals;
    QCOMPARE(t.count, 12);
    QCOMPARE(t.share, 1.0);
    QCOMPARE(t.firstTMono, 0.0);
    QCOMPARE(t.lastTMono, 8.0);
    QCOMPARE(t.rate, 1.5);
    // Gaps of all times: eight of 0.5, two of 1.0, one of 2.0.
    QCOMPARE(t.interArrivalP50, 0.5);
    QCOMPARE(t.interArrivalP95, 1.5);
    QCOMPARE(t.interArrivalMax, 2.0);
    QVERIFY(near(t.keysMean, 20.0 / 12.0));
    QCOMPARE(t.keysMax, 4);
    QCOMPARE(t.bytesMean, 28.0);  // (64 + 16 + 16 + 16) / 4
    QCOMPARE(t.bytesCalls, 4);
    QCOMPARE(m_stats.distinctKeys, 8);
}

void TestStatistics::groups() {
    const TraceStatistics &s = m_stats;
    QCOMPARE(s.models.size(), 2);
    const auto &a = s.models[0];
    QCOMPARE(a.name, QStringLiteral("m/A"));
    QCOMPARE(a.calls, 10);
    QCOMPARE(a.reserves, 2);
    QCOMPARE(a.finishedWrites, 1);
    QCOMPARE(a.prefetches, 1);
    QCOMPARE(a.reads, 3);
    QCOMPARE(a.finishedReads, 1);
    QCOMPARE(a.distinctKeys, 6);
    const auto &b = s.models[1];
    QCOMPARE(b.name, QStringLiteral("m/B"));
    QCOMPARE(b.calls, 2);
    QCOMPARE(b.prefetches, 1);
    QCOMPARE(b.reads, 0);
    QCOMPARE(b.distinctKeys, 2);

    QCOMPARE(s.ranks.size(), 2);
    const auto &r0 = s.ranks[0];
    QCOMPARE(r0.name, QStringLiteral("rank 0/2"));
    QCOMPARE(r0.rank, 0);
    QCOMPARE(r0.worldSize, 2);
    QCOMPARE(r0.calls, 11);
    QCOMPARE(r0.reserves, 1);
    QCOMPARE(r0.finishedWrites, 1);
    QCOMPARE(r0.prefetches, 2);
    QCOMPARE(r0.reads, 3);
    QCOMPARE(r0.finishedReads, 1);
    QCOMPARE(r0.distinctKeys, 5);
    const auto &r1 = s.ranks[1];
    QCOMPARE(r1.name, QStringLiteral("rank 1/2"));
    QCOMPARE(r1.calls, 7);
    QCOMPARE(r1.reserves, 1);
    QCOMPARE(r1.finishedWrites, 0);
    QCOMPARE(r1.prefetches, 1);
    QCOMPARE(r1.reads, 2);
    QCOMPARE(r1.distinctKeys, 3);

    QCOMPARE(s.salts.size(), 2);
    QVERIFY(!s.salts[0].hasSalt);  // keys without cache_salt come first
    QCOMPARE(s.salts[0].calls, 2);
    QCOMPARE(s.salts[0].distinctKeys, 2);
    QVERIFY(s.salts[1].hasSalt);
    QCOMPARE(s.salts[1].name, QStringLiteral("s1"));
    QCOMPARE(s.salts[1].calls, 10);
    QCOMPARE(s.salts[1].distinctKeys, 6);
}

void TestStatistics::contextPairs() {
    const TraceStatistics::PairStats &p = m_stats.pairs;
    QCOMPARE(p.matched, 2);
    QCOMPARE(p.unmatchedEnter, 1);
    QCOMPARE(p.unmatchedExit, 1);
    QCOMPARE(p.durationP50, 1.5);
    QVERIFY(near(p.durationP95, 1.95));
    QCOMPARE(p.durationMax, 2.0);
}

void TestStatistics::rangeAndSubset() {
    TraceStatistics::Options o;
    o.range = TMonoRange{2.0, 5.0};  // records 4..9
    const TraceStatistics s = TraceStatistics::compute(*m_doc, o);
    QCOMPARE(s.records, 6);
    QCOMPARE(s.pairs.matched, 2);
    QCOMPARE(s.pairs.unmatchedEnter, 0);
    QCOMPARE(s.pairs.unmatchedExit, 1);
    QCOMPARE(s.totals.firstTMono, 2.0);
    QCOMPARE(s.totals.lastTMono, 5.0);
    QCOMPARE(s.models.size(), 2);
    QCOMPARE(s.models[0].calls, 5);

    // A filter result as the subset: only model B's records.
    const std::vector<int> b =
        FilterEvaluator(m_doc, FilterExpression::parse(QStringLiteral("model_name == m/B")))
            .run()
            .records;
    QCOMPARE(b, (std::vector<int>{9, 11}));
    TraceStatistics::Options so;
    so.subset = &b;
    const TraceStatistics sb = TraceStatistics::compute(*m_doc, so);
    QCOMPARE(sb.records, 2);
    QCOMPARE(sb.calls.size(), 2);
    QCOMPARE(sb.totals.share, 1.0);
    QCOMPARE(sb.models.size(), 1);
    QCOMPARE(sb.ranks.size(), 1);
    QCOMPARE(sb.pairs.unmatchedExit, 1);
    QCOMPARE(sb.distinctKeys, 2);
}

void TestStatistics::withoutArgs() {
    TraceStatistics::Options o;
    o.decodeArgs = false;
    const TraceStatistics s = TraceStatistics::compute(*m_doc, o);
    QVERIFY(!s.argsDecoded);
    QCOMPARE(s.totals.count, 12);
    QCOMPARE(s.totals.rate, 1.5);
    QVERIFY(std::isnan(s.totals.keysMean));
    QVERIFY(s.models.isEmpty());
    QCOMPARE(s.pairs.matched, 0);

    std::atomic_bool cancel{true};
    TraceStatistics::Options c;
    c.cancel = &cancel;
    const TraceStatistics sc = TraceStatistics::compute(*m_doc, c);
    QVERIFY(sc.cancelled);
    QVERIFY(!sc.argsDecoded);
}

void TestStatistics::json() {
    const QJsonObject o = m_stats.toJson();
    QCOMPARE(o.value(QStringLiteral("records")).toInt(), 12);
    QCOMPARE(o.value(QStringLiteral("calls")).toArray().size(), 6);
    QCOMPARE(o.value(QStringLiteral("totals")).toObject().value(QStringLiteral("count")).toInt(),
             12);
    const QJsonObject finish = o.value(QStringLiteral("calls")).toArray()[5].toObject();
    QCOMPARE(finish.value(QStringLiteral("call")).toString(), QStringLiteral("finish_write"));
    QVERIFY(finish.value(QStringLiteral("rate_per_s")).isNull());  // NaN → null
    QCOMPARE(o.value(QStringLiteral("context_pairs"))
                 .toObject()
                 .value(QStringLiteral("matched"))
                 .toInt(),
             2);
    QVERIFY(o.value(QStringLiteral("salts")).toArray()[0].toObject().value("name").isNull());
    QVERIFY(o.value(QStringLiteral("range")).toObject().value("from").isNull());
}

void TestStatistics::referenceTracePairsAgreeWithTruth() {
    // The fixture generator computes the same FIFO pairing over packed key lists.
    QFile f(QStringLiteral(LMCT_FIXTURES "/manifest.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject manifest = QJsonDocument::fromJson(f.readAll()).object();
    int checked = 0;
    for (const char *name :
         {"calls-generations.lct", "sample.lct", "hdr-schema1.lct", "encoding-variants.lct"}) {
        const QJsonObject want = manifest.value(QString::fromUtf8(name))
                                     .toObject()
                                     .value(QStringLiteral("context_pairs"))
                                     .toObject();
        QString error;
        const auto doc =
            TraceLoader::load(QStringLiteral(LMCT_FIXTURES "/") + QString::fromUtf8(name), &error);
        QVERIFY2(doc, qPrintable(error));
        const TraceStatistics s = TraceStatistics::compute(*doc);
        QCOMPARE(s.pairs.matched, want.value(QStringLiteral("matched")).toInteger());
        QCOMPARE(s.pairs.unmatchedEnter, want.value(QStringLiteral("unmatched_enter")).toInteger());
        QCOMPARE(s.pairs.unmatchedExit, want.value(QStringLiteral("unmatched_exit")).toInteger());
        ++checked;
    }
    QCOMPARE(checked, 4);
}

void TestStatistics::pairsAgreeWithTheTimelinesContextPairs() {
    // Statistics hash decoded key lists; ContextPairs::build hashes the raw msgpack of `keys`.
    // Both must pair the same calls.
    for (const char *name : {"schema2-prefetch-spec-tp2.lct", "newest-unknown-spec-tp4.lct",
                             "lmcache-first-recorder-storage.lct", "truncated-tail.lmct"}) {
        QString error;
        const auto doc =
            TraceLoader::load(QStringLiteral(LMCT_TRACES "/") + QString::fromUtf8(name), &error);
        QVERIFY2(doc, qPrintable(error));
        const TraceStatistics s = TraceStatistics::compute(*doc);
        const QStringList families = ContextPairs::families(doc->records());
        QCOMPARE(families.size(), 1);
        const auto cp = ContextPairs::build(*doc, families.front());
        QVERIFY(cp->matchedCount() > 0);
        QCOMPARE(s.pairs.matched, qint64(cp->matchedCount()));
        QCOMPARE(s.pairs.unmatchedEnter, qint64(cp->unmatchedEnters().size()));
        QCOMPARE(s.pairs.unmatchedExit, qint64(cp->unmatchedExits().size()));
        QCOMPARE(s.pairs.durationMax, cp->maxDuration());
    }
}

void TestStatistics::tableModels() {
    auto stats = std::make_shared<const TraceStatistics>(m_stats);
    for (auto table : {StatisticsTableModel::Table::Calls, StatisticsTableModel::Table::Models,
                       StatisticsTableModel::Table::Ranks, StatisticsTableModel::Table::Salts}) {
        StatisticsTableModel m(table);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        m.setStatistics(stats);
        QVERIFY(m.rowCount() > 0);
        QVERIFY(m.columnCount() >= 8);
        for (int c = 0; c < m.columnCount(); ++c) {
            QVERIFY(!m.headerData(c, Qt::Horizontal).toString().isEmpty());
        }
        m.setStatistics(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }
    StatisticsTableModel calls(StatisticsTableModel::Table::Calls);
    calls.setStatistics(stats);
    QCOMPARE(calls.rowCount(), 7);  // six calls and the totals row
    QCOMPARE(calls.data(calls.index(0, 0)).toString(), QStringLiteral("submit_prefetch_task"));
    QCOMPARE(calls.data(calls.index(0, 0), Qt::ToolTipRole).toString(),
             QString::fromStdString(kSM + "submit_prefetch_task"));
    QCOMPARE(calls.data(calls.index(0, 1)).toString(), QStringLiteral("2"));
    QCOMPARE(calls.data(calls.index(0, 2)).toString(), QStringLiteral("16.7 %"));
    QCOMPARE(calls.data(calls.index(0, 5)).toString(), QStringLiteral("0.25/s"));
    QCOMPARE(calls.data(calls.index(0, 11)).toString(), QStringLiteral("40 B"));
    QCOMPARE(calls.data(calls.index(0, 1), StatisticsTableModel::SortRole).toLongLong(), 2);
    QCOMPARE(calls.data(calls.index(5, 5)).toString(), QString(QChar(0x2014)));  // finish: no rate
    QVERIFY(calls.data(calls.index(6, 0), StatisticsTableModel::IsTotalRole).toBool());
    QCOMPARE(calls.data(calls.index(6, 1)).toString(), QStringLiteral("12"));
    QVERIFY(!calls.data(calls.index(0, 0), StatisticsTableModel::IsTotalRole).toBool());
    QVERIFY(calls.data(calls.index(6, 0), StatisticsTableModel::FilterRole).toString().isEmpty());

    StatisticsTableModel salts(StatisticsTableModel::Table::Salts);
    salts.setStatistics(stats);
    QCOMPARE(salts.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Cache salt"));
    QCOMPARE(salts.data(salts.index(0, 0)).toString(), QStringLiteral("(not recorded)"));
    QCOMPARE(salts.data(salts.index(1, 0)).toString(), QStringLiteral("s1"));
    QCOMPARE(salts.data(salts.index(1, 7)).toString(), QStringLiteral("6"));
}

void TestStatistics::groupFiltersSelectTheGroupsCalls() {
    // FilterRole of each row selects exactly the calls the row counts.
    auto stats = std::make_shared<const TraceStatistics>(m_stats);
    for (auto table : {StatisticsTableModel::Table::Calls, StatisticsTableModel::Table::Models,
                       StatisticsTableModel::Table::Ranks, StatisticsTableModel::Table::Salts}) {
        StatisticsTableModel m(table);
        m.setStatistics(stats);
        for (int r = 0; r < m.rowCount(); ++r) {
            const QString f = m.data(m.index(r, 0), StatisticsTableModel::FilterRole).toString();
            const FilterExpression e = FilterExpression::parse(f);
            QVERIFY2(e.isValid(), qPrintable(f + QStringLiteral(": ") + e.errorString()));
            const qint64 n = qint64(FilterEvaluator(m_doc, e).run().records.size());
            QCOMPARE(n, m.data(m.index(r, 1), StatisticsTableModel::SortRole).toLongLong());
        }
    }
}

// Regression: `lmct stats` on a trace whose first t_mono is NaN (then 1.0, 2.0) gave First
// t_mono, the rate and the inter-arrival percentiles as "—" (sorting with a NaN is not an
// order) but a maximum of 1 s; one of -1e300 made the rate 0/s. Times that are not times are
// left out of them.
void TestStatistics::timesThatAreNotTimesAreLeftOut() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QByteArray bytes = header();
    bytes += record(nan, "reserve_write", {}, true);
    bytes += record(1.0, "reserve_write", {}, true);
    bytes += record(inf, "reserve_write", {}, true);
    bytes += record(-1e300, "reserve_write", {}, true);
    bytes += record(2.0, "reserve_write", {}, true);
    bytes += record(3.0, "reserve_write", {}, true);
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("nan"), &error);
    QVERIFY2(doc && doc->records().size() == 6, qPrintable(error));
    const TraceStatistics s = TraceStatistics::compute(*doc);
    for (const TraceStatistics::CallRow *r :
         {row(s, QStringLiteral("reserve_write")),
          static_cast<const TraceStatistics::CallRow *>(&s.totals)}) {
        QVERIFY(r);
        QCOMPARE(r->count, 6);
        QCOMPARE(r->firstTMono, 1.0);
        QCOMPARE(r->lastTMono, 3.0);
        QCOMPARE(r->rate, 1.5);  // 3 timed calls over 2 s
        QCOMPARE(r->interArrivalP50, 1.0);
        QCOMPARE(r->interArrivalP95, 1.0);
        QCOMPARE(r->interArrivalMax, 1.0);
    }
}

void TestStatistics::finishReadsOfReleasesAndLateReleases() {
    // Late 2026: the finish_read_prefetched of a release and the one releasing an earlier read
    // are no reads (FinishReadPlacement, as KeyAnalysis places them); releases and cancels are
    // counted.
    using lmct::test::key;
    lmct::test::CacheTraceWriter w;
    const QString EN = QStringLiteral("read_prefetched_results.__enter__"),
                  EX = QStringLiteral("read_prefetched_results.__exit__");
    w.call(0.001, EN, {key(1)});
    w.finishRead(0.002, {key(1)});  // inside the read: a read
    w.call(0.003, EX, {key(1)});
    w.call(0.004, EN, {key(2)});
    w.call(0.005, EX, {key(2)});
    w.finishRead(0.006, {key(2)});  // after the exit: of the read
    lmct::test::THandle h;
    h.externalRequestId = QStringLiteral("r");
    w.release(0.007, h, std::vector<lmct::test::TKey>{key(3)});
    w.finishRead(0.008, {key(3)});  // of the release
    w.cancel(0.009, h);
    QString error;
    const auto doc = TraceLoader::loadBytes(w.bytes(), QStringLiteral("late.lct"), &error);
    QVERIFY2(doc, qPrintable(error));
    const TraceStatistics st = TraceStatistics::compute(*doc);
    QCOMPARE(st.finishReadRoles[0], 1);
    QCOMPARE(st.finishReadRoles[1], 1);
    QCOMPARE(st.finishReadRoles[2], 1);
    QCOMPARE(st.releases, 1);
    QCOMPARE(st.cancels, 1);
    QCOMPARE(st.models.size(), 1);
    QCOMPARE(st.models[0].finishedReads, 1);
    QCOMPARE(st.models[0].reads, 2);
    QCOMPARE(st.models[0].releases, 1);
    QCOMPARE(st.ranks[0].finishedReads, 1);
    QCOMPARE(st.salts[0].finishedReads, 1);
    QCOMPARE(st.pairs.matched, 2);
    const QJsonObject j = st.toJson();
    QCOMPARE(j[QStringLiteral("finish_read_prefetched")][QStringLiteral("of_release")].toInt(), 1);
    QCOMPARE(j[QStringLiteral("cancels")].toInt(), 1);
    QCOMPARE(j[QStringLiteral("models")][0][QStringLiteral("releases")].toInt(), 1);
    StatisticsTableModel models(StatisticsTableModel::Table::Models);
    models.setStatistics(std::make_shared<const TraceStatistics>(st));
    QCOMPARE(models.headerData(8, Qt::Horizontal).toString(), QStringLiteral("Releases"));
    QCOMPARE(models.data(models.index(0, 8)).toString(), QStringLiteral("1"));
    QCOMPARE(models.data(models.index(0, 6)).toString(), QStringLiteral("1"));  // finished reads
}

QTEST_GUILESS_MAIN(TestStatistics)
void TestStatistics::regression_tableNamesAreEscaped() {
    // The Statistics tables showed a qualname with U+202E, and a model name with an escape
    // sequence, as recorded: the rest of the row read reversed.
    using namespace lmct::test;
    QByteArray b = frame(headerBody());
    b += frame(recordBody(0.5, 1.7e9, QStringLiteral("lmcache.Cls.\u202eevil"), keysArgs(1)));
    Mp args;
    args.map(1).str("keys").arr(1);
    args.bytes += objectKey(1, 33554944, "Qwen\u202e\x1b[31m");
    b += frame(recordBody(0.75, 1.7e9, QStringLiteral("lmcache.Cls.reserve_write"), args.bytes));
    QString error;
    const auto doc = TraceLoader::loadBytes(b, QStringLiteral("ctrl.lct"), &error);
    QVERIFY2(doc, qPrintable(error));
    TraceStatistics::Options o;
    o.decodeArgs = true;
    auto stats = std::make_shared<const TraceStatistics>(TraceStatistics::compute(*doc, o));
    StatisticsTableModel calls(StatisticsTableModel::Table::Calls);
    calls.setStatistics(stats);
    QStringList names;
    for (int r = 0; r < calls.rowCount(); ++r) {
        names << calls.data(calls.index(r, 0)).toString()
              << calls.data(calls.index(r, 0), Qt::ToolTipRole).toString();
    }
    QVERIFY2(names.contains(QStringLiteral("\\u{202e}evil")), qPrintable(names.join(u'|')));
    QVERIFY2(names.contains(QStringLiteral("lmcache.Cls.\\u{202e}evil")),
             qPrintable(names.join(u'|')));
    StatisticsTableModel models(StatisticsTableModel::Table::Models);
    models.setStatistics(stats);
    int hostile = -1;
    for (int r = 0; r < models.rowCount(); ++r) {
        QVERIFY(!models.data(models.index(r, 0)).toString().contains(QChar(0x202e)));
        if (models.data(models.index(r, 0)).toString() ==
            QStringLiteral("Qwen\\u{202e}\\x1b[31m")) {
            hostile = r;
        }
    }
    QVERIFY(hostile >= 0);
    // the filter a row applies still names the model as recorded, not as displayed
    QVERIFY(!models.data(models.index(hostile, 0), StatisticsTableModel::FilterRole)
                 .toString()
                 .contains(QStringLiteral("\\u{202e}")));
}

#include "tst_statistics.moc"
