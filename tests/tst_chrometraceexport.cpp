// ChromeTraceExport on small synthetic traces: read_prefetched_results enter/exit pairs become
// complete events by ContextPairs' rule (FIFO per identical key list, encoding widths ignored,
// among the exported rows only), and agree with ContextPairs::build on the reference traces.

#include "export/chrometraceexport.h"
#include "testutil.h"
#include "timeline/contextpairs.h"
#include "trace/traceloader.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>
#include <numeric>

using namespace lmct;
using namespace lmct::test;

namespace {

const char *const kEnter = "read_prefetched_results.__enter__";
const char *const kExit = "read_prefetched_results.__exit__";

/** args {"keys": [ObjectKey(seed)]}, the list header written with `width` (0, -1, 16, 32). */
QByteArray keysOf(int seed, int width = 0) {
    Mp m;
    m.map(1).str("keys").arr(1, width).raw(objectKey(seed));
    return m.bytes;
}

struct Rec {
    const char *call;
    double t;
    QByteArray args;
};

std::shared_ptr<TraceDocument> traceOf(const QList<Rec> &recs) {
    QByteArray bytes = frame(headerBody());
    for (const Rec &r : recs) {
        bytes += frame(recordBody(r.t, 1760000000.0 + r.t, storageQualname(r.call), r.args));
    }
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("pairs.lct"), &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

struct Exported {
    ChromeTraceExport::Summary summary;
    QSet<QPair<int, int>> pairs;  ///< (enter_index, exit_index) of the complete events
    QSet<int> instants;           ///< record_index of the instant events
    QList<double> durations;      ///< dur of the complete events, in event order
};

bool exportRows(const TraceDocument &doc, const std::vector<int> &rows, Exported *out) {
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    QString error;
    if (!ChromeTraceExport::write(&buf, doc, rows, &out->summary, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    const QJsonArray events =
        QJsonDocument::fromJson(buf.data()).object().value(QStringLiteral("traceEvents")).toArray();
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        const QJsonObject a = e.value(QStringLiteral("args")).toObject();
        const QString ph = e.value(QStringLiteral("ph")).toString();
        if (ph == QLatin1String("X")) {
            out->pairs.insert({a.value(QStringLiteral("enter_index")).toInt(),
                               a.value(QStringLiteral("exit_index")).toInt()});
            out->durations.append(e.value(QStringLiteral("dur")).toDouble());
        } else if (ph == QLatin1String("i")) {
            out->instants.insert(a.value(QStringLiteral("record_index")).toInt());
        }
    }
    return true;
}

std::vector<int> allRows(const TraceDocument &doc) {
    std::vector<int> rows(size_t(doc.records().size()));
    std::iota(rows.begin(), rows.end(), 0);
    return rows;
}

}  // namespace

class TestChromeTraceExport : public QObject {
    Q_OBJECT
private slots:
    void pairsFifoPerKeyList();
    void pairsOnlyAmongExportedRows();
    void agreesWithContextPairsOnReferenceTraces_data();
    void agreesWithContextPairsOnReferenceTraces();
};

void TestChromeTraceExport::pairsFifoPerKeyList() {
    // A1 B A2 (plain) xA xB xC xA': A pairs FIFO, B in between, C never entered; the last exit's
    // key list is written as array16 and still pairs with A2.
    const auto doc = traceOf({{kEnter, 1.0, keysOf(1)},
                              {kEnter, 1.1, keysOf(2)},
                              {kEnter, 1.2, keysOf(1)},
                              {"reserve_write", 1.25, keysOf(1)},
                              {kExit, 1.5, keysOf(1)},
                              {kExit, 1.6, keysOf(2)},
                              {kExit, 1.7, keysOf(3)},
                              {kExit, 1.9, keysOf(1, 16)}});
    QVERIFY(doc);
    QCOMPARE(doc->records().size(), 8);
    Exported e;
    QVERIFY(exportRows(*doc, allRows(*doc), &e));
    QCOMPARE(e.summary.pairs, 3);
    QCOMPARE(e.pairs, (QSet<QPair<int, int>>{{0, 4}, {1, 5}, {2, 7}}));
    QCOMPARE(e.instants, (QSet<int>{3, 6}));
    QCOMPARE(e.summary.events, 8 - 3);
    QCOMPARE(e.durations.size(), 3);
    QCOMPARE(e.durations.at(0), (1.5 - 1.0) * 1e6);
}

void TestChromeTraceExport::pairsOnlyAmongExportedRows() {
    const auto doc = traceOf({{kEnter, 1.0, keysOf(1)},
                              {kEnter, 1.2, keysOf(1)},
                              {kExit, 1.5, keysOf(1)},
                              {kExit, 1.9, keysOf(1)}});
    QVERIFY(doc);
    // Without the first enter, the first exit closes the second enter; the last exit is alone.
    Exported e;
    QVERIFY(exportRows(*doc, {1, 2, 3}, &e));
    QCOMPARE(e.summary.pairs, 1);
    QCOMPARE(e.pairs, (QSet<QPair<int, int>>{{1, 2}}));
    QCOMPARE(e.instants, (QSet<int>{3}));
    QCOMPARE(e.summary.events, 2);
}

void TestChromeTraceExport::agreesWithContextPairsOnReferenceTraces_data() {
    QTest::addColumn<QString>("trace");
    QTest::newRow("malformed-record") << tracePath(QStringLiteral("malformed-record.lmct"));
    QTest::newRow("schema2") << tracePath(QStringLiteral("schema2-prefetch-spec-tp2.lct"));
}

void TestChromeTraceExport::agreesWithContextPairsOnReferenceTraces() {
    QFETCH(QString, trace);
    QString error;
    const auto doc = TraceLoader::load(trace, &error);
    QVERIFY2(doc, qPrintable(error));
    Exported e;
    QVERIFY(exportRows(*doc, allRows(*doc), &e));
    QSet<QPair<int, int>> expected;
    for (const QString &family : ContextPairs::families(doc->records())) {
        if (!family.endsWith(QLatin1String(".read_prefetched_results"))) {
            continue;
        }
        const auto pairs = ContextPairs::build(*doc, family);
        for (const auto &s : pairs->spans()) {
            expected.insert({s.enter, s.exit});
        }
    }
    QCOMPARE(e.pairs, expected);
    QCOMPARE(e.summary.pairs, qint64(expected.size()));
    QCOMPARE(e.summary.events, doc->records().size() - qint64(expected.size()));
}

QTEST_GUILESS_MAIN(TestChromeTraceExport)
#include "tst_chrometraceexport.moc"
