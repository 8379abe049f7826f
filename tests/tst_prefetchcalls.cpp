// The prefetch-lease calls of late 2026 builds (spec §5, §6): release_prefetch_task(handle, keys)
// and cancel_prefetch_task(handle) in the call flow, their one-line summaries (table, `lmct
// dump` text and CSV), the filter fields that reach them, the PrefetchHandle in the inspector
// tree, and exports that keep the handle's raw values. Traces are written by late2026records.h.

#include "cache/anomalyreport.h"
#include "cache/keyanalysis.h"
#include "codec/prefetchhandle.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valueformatter.h"
#include "export/recordexport.h"
#include "export/recordjson.h"
#include "filter/filterevaluator.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/inspectortreemodel.h"
#include "itemmodels/recordtablemodel.h"
#include "late2026records.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

using namespace lmct;
using namespace lmct::test;
namespace l26 = lmct::test::late2026;

namespace {

const QString kRequestA = QStringLiteral("chatcmpl-3fb688cf00e48cc95c28f5c53fe9497b");
const QString kRequestB = QStringLiteral("chatcmpl-bbb");

l26::Handle handleA() {
    return l26::Handle();  // request A, L1 hits 0–3 of 7, submitted at t_mono 21.229481
}

l26::Handle handleB() {
    l26::Handle h;
    h.prefetchRequestId = 3;
    h.externalRequestId = kRequestB;
    h.l1FoundIndices = {0, 1, 2, 5, 7, 8};
    h.totalRequestedKeys = 12;
    h.submitTime = l26::kTMonoStart + 21.9;
    return h;
}

l26::Handle handleNoRequest() {
    l26::Handle h;
    h.prefetchRequestId = 17;
    h.externalRequestId = QString();
    h.l1FoundIndices = {};
    h.totalRequestedKeys = 1;
    return h;
}

/**
 * The records, by index: 0 an __enter__; 1 release of 12 keys (A) and 2 its nested
 * finish_read_prefetched; 3 release of all keys (B, nil) and 4 its finish_read_prefetched;
 * 5 cancel (A); 6 cancel of a handle without request id; 7 release of 1 key (A, seed 50) and 8
 * its finish_read_prefetched.
 */
QByteArray traceBytes() {
    l26::Trace t;
    Mp enter;
    enter.map(1).str("keys").raw(l26::keyList(3, 100));
    t.record(20.0, "read_prefetched_results.__enter__", enter.bytes);
    t.release(21.5, handleA(), 12);
    t.release(22.0, handleB(), std::nullopt);
    t.cancel(22.5, handleA());
    t.cancel(23.0, handleNoRequest());
    t.release(23.5, handleA(), 1, 50);
    return t.bytes();
}

std::vector<int> run(const std::shared_ptr<const TraceDocument> &doc, const QString &filter) {
    const FilterExpression e = FilterExpression::parse(filter);
    if (!e.isValid()) {
        qWarning("invalid filter %s: %s", qPrintable(filter), qPrintable(e.errorString()));
        return {-1};
    }
    return FilterEvaluator(doc, e).run().records;
}

const TreeNode *child(const TreeNode *n, const QString &name) {
    for (const auto &c : n->children) {
        if (c->name == name) {
            return c.get();
        }
    }
    return nullptr;
}

}  // namespace

class TestPrefetchCalls : public QObject {
    Q_OBJECT

    std::shared_ptr<TraceDocument> m_doc;
    QTemporaryDir m_dir;
    QString m_path;

    QString summary(int r) const {
        return RecordSummary::summarize(m_doc->records().qualname(r), m_doc->args(r)->value);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = writeFile(m_dir, QStringLiteral("late2026-release.lct"), traceBytes());
        QVERIFY(!m_path.isEmpty());
        QString error;
        m_doc = TraceLoader::load(m_path, &error);
        QVERIFY2(m_doc, qPrintable(error));
        QCOMPARE(m_doc->records().size(), 9);
        QVERIFY(m_doc->diagnostics().isEmpty());
    }

    // --- call flow -----------------------------------------------------------------------------

    void leaseCallsFollowFinishReadPrefetched() {
        const QStringList &flow = Qualname::callFlow();
        const qsizetype finish = flow.indexOf(QStringLiteral("finish_read_prefetched"));
        QVERIFY(finish >= 0);
        QCOMPARE(flow.value(finish + 1), QStringLiteral("release_prefetch_task"));
        QCOMPARE(flow.value(finish + 2), QStringLiteral("cancel_prefetch_task"));
        QCOMPARE(flow.value(finish + 3), QStringLiteral("read_prefetched_results.__exit__"));
        const QString p = Qualname::storagePrefix();
        QStringList lanes{p + QStringLiteral("finish_write"),
                          QStringLiteral("events.batch"),
                          p + QStringLiteral("cancel_prefetch_task"),
                          p + QStringLiteral("read_prefetched_results.__exit__"),
                          p + QStringLiteral("release_prefetch_task"),
                          p + QStringLiteral("finish_read_prefetched")};
        std::sort(lanes.begin(), lanes.end(), Qualname::flowLess);
        QCOMPARE(lanes,
                 (QStringList{p + QStringLiteral("finish_read_prefetched"),
                              p + QStringLiteral("release_prefetch_task"),
                              p + QStringLiteral("cancel_prefetch_task"),
                              p + QStringLiteral("read_prefetched_results.__exit__"),
                              p + QStringLiteral("finish_write"), QStringLiteral("events.batch")}));
    }

    // --- summaries -----------------------------------------------------------------------------

    void releaseSummaryNamesItsKeysAndRequest() {
        QCOMPARE(summary(1), QStringLiteral("release 12 keys of request chatcmpl-3fb688cf00e48cc95c"
                                            "… · Qwen/Qwen3-8B · rank 0/1 · L1 hits 4/7"));
        QCOMPARE(summary(7), QStringLiteral("release 1 key of request chatcmpl-3fb688cf00e48cc95c"
                                            "… · Qwen/Qwen3-8B · rank 0/1 · L1 hits 4/7"));
        // the nested finish_read_prefetched keeps its own summary
        QCOMPARE(summary(2), QStringLiteral("12 keys · Qwen/Qwen3-8B · rank 0/1 · read_locks=1"));
    }

    void releaseOfAllKeysSaysSo() {
        QCOMPARE(summary(3), QStringLiteral("release all keys of request chatcmpl-bbb · L1 hits "
                                            "6/12"));
    }

    void cancelSummaryNamesItsRequest() {
        QCOMPARE(summary(5),
                 QStringLiteral("cancel request chatcmpl-3fb688cf00e48cc95c… · L1 hits 4/7"));
        // no external_request_id: the handle's prefetch_request_id
        QCOMPARE(summary(6), QStringLiteral("cancel prefetch 17 · L1 hits 0/1"));
        l26::Handle none = handleNoRequest();
        none.prefetchRequestId = -1;
        const auto v = TraceLoader::loadBytes(
            frame(l26::header()) +
                frame(recordBody(1.0, 2.0, storageQualname("cancel_prefetch_task"),
                                 l26::cancelArgs(none))),
            QStringLiteral("x"), nullptr);
        QVERIFY(v);
        QCOMPARE(RecordSummary::summarize(v->records().qualname(0), v->args(0)->value),
                 QStringLiteral("cancel a prefetch without request id · L1 hits 0/1"));
    }

    void summaryNeedsTheCallAndAHandle() {
        // without the call, the arguments alone get the generic summary
        const QString generic = RecordSummary::summarize(m_doc->args(1)->value);
        QVERIFY2(!generic.startsWith(QLatin1String("release")), qPrintable(generic));
        QVERIFY(generic.startsWith(QStringLiteral("12 keys · Qwen/Qwen3-8B")));
        // another call with the same arguments: generic
        QCOMPARE(
            RecordSummary::summarize(Qualname::storagePrefix() + QStringLiteral("finish_write"),
                                     m_doc->args(1)->value),
            generic);
        // a release whose handle is not a PrefetchHandle: generic, no crash
        Mp odd;
        odd.map(2).str("handle").str("h").str("keys").nil();
        const auto doc = TraceLoader::loadBytes(
            frame(l26::header()) +
                frame(recordBody(1.0, 2.0, storageQualname("release_prefetch_task"), odd.bytes)),
            QStringLiteral("x"), nullptr);
        QVERIFY(doc);
        const QString s = RecordSummary::summarize(doc->records().qualname(0), doc->args(0)->value);
        QCOMPARE(s, RecordSummary::summarize(doc->args(0)->value));
        QVERIFY(!s.startsWith(QLatin1String("release")));
        QVERIFY(
            RecordSummary::summarize(doc->records().qualname(0), doc->args(0)->value, 20).size() <=
            20);
        QVERIFY(RecordSummary::summarize(m_doc->records().qualname(1), m_doc->args(1)->value, 20)
                    .size() <= 20);
    }

    void tableShowsTheLeaseSummaries() {
        RecordTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(m_doc);
        QCOMPARE(model.rowCount(), 9);
        const auto text = [&](int row, int role = Qt::DisplayRole) {
            return model.index(row, RecordTableModel::SummaryColumn).data(role).toString();
        };
        QVERIFY(text(1).startsWith(QLatin1String("release 12 keys of request chatcmpl-")));
        QVERIFY(text(3).startsWith(QLatin1String("release all keys of request chatcmpl-bbb")));
        QVERIFY(text(5).startsWith(QLatin1String("cancel request chatcmpl-")));
        QVERIFY(text(5, Qt::ToolTipRole).startsWith(QLatin1String("cancel request chatcmpl-")));
        QCOMPARE(model.index(5, RecordTableModel::CallColumn).data().toString(),
                 QStringLiteral("cancel_prefetch_task"));
    }

    void exportsSummariseAndKeepRawValues() {
        // CSV: the summary column says what the call does, args_json keeps the raw handle
        const QByteArray csv =
            RecordExport::formatRecord(*m_doc, 5, RecordExport::Format::Csv).trimmed();
        QVERIFY2(csv.contains(",cancel_prefetch_task,cancel request chatcmpl-3fb688cf"),
                 csv.constData());
        QVERIFY(csv.contains(
            QByteArray("\"\"submit_time\"\":") +
            QByteArray::number(handleA().submitTime, 'g', QLocale::FloatingPointShortest)));
        // JSONL and Copy Record as JSON: raw values, no derived text
        const QJsonObject line =
            QJsonDocument::fromJson(
                RecordExport::formatRecord(*m_doc, 5, RecordExport::Format::Jsonl))
                .object();
        for (const QJsonObject &o : {line, RecordJson::toJson(*m_doc, 5)}) {
            const QJsonObject handle =
                o[QStringLiteral("args")][QStringLiteral("handle")].toObject();
            QCOMPARE(handle[QStringLiteral("__t__")].toString(), QStringLiteral("PrefetchHandle"));
            const QJsonObject v = handle[QStringLiteral("v")].toObject();
            QCOMPARE(v.size(), 9);
            QCOMPARE(v[QStringLiteral("submit_time")].toDouble(), handleA().submitTime);
            QCOMPARE(v[QStringLiteral("l1_prefix_hit_count")].toInteger(), 4);
            QCOMPARE(v[QStringLiteral("l1_found_indices")].toArray(), (QJsonArray{0, 1, 2, 3}));
            QCOMPARE(v[QStringLiteral("prefetch_request_id")].toInteger(), -1);
            QCOMPARE(v[QStringLiteral("external_request_id")].toString(), kRequestA);
        }
        const QJsonObject release =
            QJsonDocument::fromJson(
                RecordExport::formatRecord(*m_doc, 3, RecordExport::Format::Jsonl))
                .object();
        QVERIFY(release[QStringLiteral("args")][QStringLiteral("keys")].isNull());
    }

    void dumpPrintsLeaseSummariesAndRawJson() {
        const ProcessRun text = runLmct({QStringLiteral("dump"), m_path, QStringLiteral("--filter"),
                                         QStringLiteral("call == cancel_prefetch_task")});
        QCOMPARE(text.exitCode, 0);
        const QList<QByteArray> lines = text.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].contains("cancel_prefetch_task"), lines[0].constData());
        QVERIFY2(lines[0].contains("cancel request chatcmpl-3fb688cf"), lines[0].constData());
        QVERIFY2(lines[1].contains("cancel prefetch 17"), lines[1].constData());
        const ProcessRun all = runLmct({QStringLiteral("dump"), m_path});
        QCOMPARE(all.exitCode, 0);
        QVERIFY(all.out.contains("release all keys of request chatcmpl-bbb"));
        const ProcessRun csv = runLmct({QStringLiteral("dump"), m_path, QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 0);
        QVERIFY(csv.out.contains(",release_prefetch_task,release 12 keys of request chatcmpl-"));
        const ProcessRun jsonl =
            runLmct({QStringLiteral("dump"), m_path, QStringLiteral("--jsonl"),
                     QStringLiteral("--filter"), QStringLiteral("call == release_prefetch_task")});
        QCOMPARE(jsonl.exitCode, 0);
        const QList<QJsonObject> objects = jsonl.jsonLines();
        QCOMPARE(objects.size(), 3);
        const QJsonObject v =
            objects[1][QStringLiteral("args")][QStringLiteral("handle")][QStringLiteral("v")]
                .toObject();
        QCOMPARE(v[QStringLiteral("submit_time")].toDouble(), handleB().submitTime);
        QCOMPARE(v[QStringLiteral("l1_found_indices")].toArray(), (QJsonArray{0, 1, 2, 5, 7, 8}));
        QCOMPARE(v[QStringLiteral("total_requested_keys")].toInteger(), 12);
    }

    // --- filters -------------------------------------------------------------------------------

    void callNamesMatchTheLeaseCalls() {
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task")),
                 (std::vector<int>{1, 3, 7}));
        QCOMPARE(run(m_doc, QStringLiteral("call == cancel_prefetch_task")),
                 (std::vector<int>{5, 6}));
        QCOMPARE(
            run(m_doc, QStringLiteral("call in [release_prefetch_task, cancel_prefetch_task]")),
            (std::vector<int>{1, 3, 5, 6, 7}));
        QCOMPARE(run(m_doc, QStringLiteral("call != cancel_prefetch_task && call matches "
                                           "\"_prefetch_task$\"")),
                 (std::vector<int>{1, 3, 7}));
        QCOMPARE(run(m_doc, QStringLiteral("qualname == \"%1cancel_prefetch_task\"")
                                .arg(Qualname::storagePrefix())),
                 (std::vector<int>{5, 6}));
    }

    void requestReachesTheHandle() {
        QCOMPARE(run(m_doc, QStringLiteral("request == \"%1\"").arg(kRequestA)),
                 (std::vector<int>{1, 5, 7}));
        QCOMPARE(run(m_doc, QStringLiteral("request == \"%1\"").arg(kRequestB)),
                 (std::vector<int>{3}));
        QCOMPARE(run(m_doc, QStringLiteral("call == cancel_prefetch_task && request")),
                 (std::vector<int>{5}));  // an empty id is not truthy
        QCOMPARE(run(m_doc, QStringLiteral("request contains \"3fb688\" && call == "
                                           "cancel_prefetch_task")),
                 (std::vector<int>{5}));
    }

    void keyFieldsSeeAReleasesKeys() {
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task && keys.count == 12")),
                 (std::vector<int>{1}));
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task && keys.count == 0")),
                 (std::vector<int>{3}));  // keys nil: all of the handle's keys, none named
        QCOMPARE(run(m_doc, QStringLiteral("call == cancel_prefetch_task && keys.count > 0")),
                 (std::vector<int>{}));
        const QString seed50 = QString::fromLatin1(chunkHash(50).toHex().left(12));
        QCOMPARE(run(m_doc, QStringLiteral("chunk_hash == %1").arg(seed50)),
                 (std::vector<int>{7, 8}));  // the release and its nested finish_read_prefetched
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task && chunk_hash == %1")
                                .arg(QString::fromLatin1(chunkHash(11).toHex()))),
                 (std::vector<int>{1}));
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task && model_name == "
                                           "\"Qwen/Qwen3-8B\" && rank == 0 && world_size == 1")),
                 (std::vector<int>{1, 7}));
        QCOMPARE(
            run(m_doc, QStringLiteral("call == release_prefetch_task && object_group_id == 0")),
            (std::vector<int>{1, 7}));
        QCOMPARE(run(m_doc, QStringLiteral("call == release_prefetch_task && cache_salt")),
                 (std::vector<int>{}));  // upstream keys carry no cache_salt
    }

    void handlePathsReachTheRawFields() {
        QCOMPARE(run(m_doc, QStringLiteral("handle.l1_found_indices contains 5")),
                 (std::vector<int>{3}));
        QCOMPARE(run(m_doc, QStringLiteral("handle.submit_time > %1")
                                .arg(QString::number(l26::kTMonoStart + 21.5, 'f', 3))),
                 (std::vector<int>{3}));
        QCOMPARE(run(m_doc, QStringLiteral("handle.prefetch_request_id == 17")),
                 (std::vector<int>{6}));
        QCOMPARE(run(m_doc, QStringLiteral("handle.total_requested_keys >= 7")),
                 (std::vector<int>{1, 3, 5, 7}));
    }

    // --- inspector tree ------------------------------------------------------------------------

    void indexRunsAreCompact_data() {
        QTest::addColumn<QList<qint64>>("indices");
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QList<qint64>{} << "none";
        QTest::newRow("one") << QList<qint64>{5} << "5";
        QTest::newRow("one run") << QList<qint64>{0, 1, 2, 3} << "0–3";
        QTest::newRow("runs") << QList<qint64>{0, 1, 2, 3, 7, 9, 10} << "0–3, 7, 9–10";
        QTest::newRow("descending") << QList<qint64>{3, 2, 1} << "3, 2, 1";
        QTest::newRow("pair") << QList<qint64>{4, 5} << "4–5";
        QTest::newRow("negative") << QList<qint64>{-2, -1, 0} << "-2–0";
    }
    void indexRunsAreCompact() {
        QFETCH(QList<qint64>, indices);
        QFETCH(QString, text);
        Value list = Value::array();
        for (const qint64 i : indices) {
            list.append(Value::integer(i));
        }
        QCOMPARE(ValueFormatter::indexRuns(list), text);
    }

    void indexRunsStayShort() {
        Value list = Value::array();
        for (int i = 0; i < 2000; ++i) {
            list.append(Value::integer(i * 2));  // no runs
        }
        const QString s = ValueFormatter::indexRuns(list, 60);
        QVERIFY2(s.size() <= 80, qPrintable(s));
        QVERIFY(s.startsWith(QLatin1String("0, 2, 4")));
        QVERIFY(s.contains(QLatin1String("more")));
        Value mixed = Value::array();
        mixed.append(Value::integer(1));
        mixed.append(Value::string(QStringLiteral("x")));
        mixed.append(Value::integer(2));
        QCOMPARE(ValueFormatter::indexRuns(mixed), QStringLiteral("1, x, 2"));
    }

    void inspectorDecodesTheHandle() {
        const auto args = m_doc->args(5);
        ArgumentTree::TimeContext time;
        time.tMonoStart = m_doc->header().tMonoStart();
        time.recordTMono = m_doc->records().tMono(5);
        const auto root = ArgumentTree::build(args->value, 200000, time);
        const TreeNode *handle = child(root.get(), QStringLiteral("handle"));
        QVERIFY(handle);
        QCOMPARE(handle->type, QStringLiteral("PrefetchHandle"));
        QVERIFY(handle->value.contains(kRequestA.left(20)));
        // every raw field is a row, in the file's order
        QStringList names;
        for (const auto &c : handle->children) {
            names.append(c->name);
        }
        QCOMPARE(names,
                 (QStringList{"prefetch_request_id", "external_request_id", "l1_prefix_hit_count",
                              "l1_found_indices", "l1_hit_chunks", "total_requested_keys",
                              "submit_time", "l2_orig_indices", "generation"}));
        QCOMPARE(child(handle, QStringLiteral("l1_prefix_hit_count"))->value,
                 QStringLiteral("4 of 7 keys hit in L1"));
        QVERIFY(!child(handle, QStringLiteral("l1_prefix_hit_count"))->problem);
        const TreeNode *found = child(handle, QStringLiteral("l1_found_indices"));
        QCOMPARE(found->value, QStringLiteral("0–3"));
        QCOMPARE(found->type, QStringLiteral("list[4]"));
        QCOMPARE(int(found->children.size()), 4);
        QCOMPARE(found->children[3]->value, QStringLiteral("3"));
        QCOMPARE(found->children[3]->path, QStringLiteral("handle.l1_found_indices[3]"));
        // submit_time: raw, with derived rows for the trace's time axis (as t_mono is shown
        // elsewhere) and for how long before the record it lies
        const TreeNode *submit = child(handle, QStringLiteral("submit_time"));
        const QString raw = ValueFormatter::number(Value::floating(handleA().submitTime));
        QCOMPARE(submit->value, raw);
        QCOMPARE(submit->type, QStringLiteral("float"));
        QCOMPARE(submit->path, QStringLiteral("handle.submit_time"));
        QVERIFY(submit->toolTip.contains(QLatin1String("time.monotonic()")));
        QCOMPARE(int(submit->children.size()), 2);
        const TreeNode *axis = child(submit, QStringLiteral("t_mono"));
        QVERIFY(axis && axis->derived);
        QCOMPARE(axis->value, QStringLiteral("21.229481 s"));
        QVERIFY(axis->toolTip.contains(QLatin1String("t_mono_start (418117.7186669254)")));
        const TreeNode *age = child(submit, QStringLiteral("age"));
        QVERIFY(age && age->derived);
        QCOMPARE(age->value, QStringLiteral("1.271 s"));
        // the other fields as they are
        QCOMPARE(child(handle, QStringLiteral("l2_orig_indices"))->value, QStringLiteral("[]"));
        QCOMPARE(child(handle, QStringLiteral("l1_hit_chunks"))->value, QStringLiteral("4"));
        QCOMPARE(child(handle, QStringLiteral("generation"))->value, QStringLiteral("0"));
        QCOMPARE(child(handle, QStringLiteral("prefetch_request_id"))->value, QStringLiteral("-1"));
        QCOMPARE(child(handle, QStringLiteral("external_request_id"))->value, kRequestA);

        // Copy Value keeps the raw values
        InspectorTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTree(ArgumentTree::build(args->value, 200000, time), args);
        const QModelIndex h = model.index(0, 0);
        QCOMPARE(h.data().toString(), QStringLiteral("handle"));
        const QModelIndex s = model.index(6, InspectorTreeModel::ValueColumn, h);
        QCOMPARE(s.data().toString(), raw);
        QCOMPARE(s.data(InspectorTreeModel::CopyTextRole).toString(), raw);
        const QModelIndex sAxis =
            model.index(0, InspectorTreeModel::ValueColumn, s.siblingAtColumn(0));
        QCOMPARE(sAxis.data().toString(), QStringLiteral("21.229481 s"));
        QVERIFY(sAxis.data(InspectorTreeModel::DerivedRole).toBool());
        QCOMPARE(model.index(3, 0, h).data(InspectorTreeModel::CopyTextRole).toString(),
                 QStringLiteral("[0,1,2,3]"));
        QCOMPARE(model.index(2, 0, h).data(InspectorTreeModel::CopyTextRole).toString(),
                 QStringLiteral("4"));
    }

    void inspectorSubmitTimeWithoutTheHeadersStart() {
        const auto root = ArgumentTree::build(m_doc->args(5)->value);
        const TreeNode *submit =
            child(child(root.get(), QStringLiteral("handle")), QStringLiteral("submit_time"));
        QVERIFY(submit);
        QCOMPARE(submit->value, ValueFormatter::number(Value::floating(handleA().submitTime)));
        QCOMPARE(int(submit->children.size()), 1);
        QCOMPARE(child(submit, QStringLiteral("t_mono"))->value, QStringLiteral("unknown"));
        // a submit after the record (clock of another host): said so, not a bare negative age
        ArgumentTree::TimeContext time;
        time.tMonoStart = l26::kTMonoStart;
        time.recordTMono = 21.0;
        const auto late = ArgumentTree::build(m_doc->args(5)->value, 200000, time);
        const TreeNode *lateSubmit =
            child(child(late.get(), QStringLiteral("handle")), QStringLiteral("submit_time"));
        QCOMPARE(child(lateSubmit, QStringLiteral("age"))->value,
                 QStringLiteral("\u2212229.48 ms (after this record)"));
    }

    void inspectorFlagsAHitCountTheIndicesContradict() {
        l26::Handle h = handleA();
        h.l1PrefixHitCount = 5;  // l1_found_indices lists 4
        const auto doc = TraceLoader::loadBytes(
            frame(l26::header()) +
                frame(recordBody(1.0, 2.0, storageQualname("cancel_prefetch_task"),
                                 l26::cancelArgs(h))),
            QStringLiteral("x"), nullptr);
        QVERIFY(doc);
        const auto root = ArgumentTree::build(doc->args(0)->value);
        const TreeNode *hits = child(child(root.get(), QStringLiteral("handle")),
                                     QStringLiteral("l1_prefix_hit_count"));
        QVERIFY(hits->problem);
        QCOMPARE(hits->value, QStringLiteral("5 of 7 keys hit in L1 ⚠ l1_found_indices lists 4"));
    }

    // Counts that cannot be: more hits than keys asked, negative ones. Marked, as a count the
    // indices contradict is.
    void inspectorFlagsImpossibleHitCounts_data() {
        QTest::addColumn<qint64>("hits");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<int>("indices");
        QTest::addColumn<QString>("hitsText");
        QTest::addColumn<QString>("totalText");
        QTest::newRow("more than the total")
            << qint64(9) << qint64(3) << 9
            << QStringLiteral("9 of 3 keys hit in L1 ⚠ more than total_requested_keys")
            << QStringLiteral("3");
        QTest::newRow("negative") << qint64(-5) << qint64(-1) << 0
                                  << QStringLiteral(
                                         "-5 of -1 keys hit in L1 ⚠ negative; "
                                         "l1_found_indices lists 0")
                                  << QStringLiteral("-1 ⚠ negative");
        QTest::newRow("possible") << qint64(3) << qint64(3) << 3
                                  << QStringLiteral("3 of 3 keys hit in L1") << QStringLiteral("3");
    }
    void inspectorFlagsImpossibleHitCounts() {
        QFETCH(qint64, hits);
        QFETCH(qint64, total);
        QFETCH(int, indices);
        QFETCH(QString, hitsText);
        QFETCH(QString, totalText);
        l26::Handle h = handleA();
        h.l1PrefixHitCount = hits;
        h.totalRequestedKeys = total;
        h.l1FoundIndices.clear();
        for (int i = 0; i < indices; ++i) {
            h.l1FoundIndices.push_back(i);
        }
        const auto doc = TraceLoader::loadBytes(
            frame(l26::header()) +
                frame(recordBody(1.0, 2.0, storageQualname("cancel_prefetch_task"),
                                 l26::cancelArgs(h))),
            QStringLiteral("x"), nullptr);
        QVERIFY(doc);
        const auto root = ArgumentTree::build(doc->args(0)->value);
        const TreeNode *handle = child(root.get(), QStringLiteral("handle"));
        const TreeNode *hitsRow = child(handle, QStringLiteral("l1_prefix_hit_count"));
        const TreeNode *totalRow = child(handle, QStringLiteral("total_requested_keys"));
        QCOMPARE(hitsRow->value, hitsText);
        QCOMPARE(hitsRow->problem, hitsText.contains(u'⚠'));
        QCOMPARE(totalRow->value, totalText);
        QCOMPARE(totalRow->problem, totalText.contains(u'⚠'));
    }

    // Counts written as uint64 above INT64_MAX: the same unsigned values in the handle, the
    // inspector and the anomaly message, never wrapped to negative numbers.
    void uint64HitCountsStayUnsigned() {
        l26::Handle h = handleA();
        h.l1FoundIndices = {0};
        h.l1PrefixHitCountU = std::numeric_limits<quint64>::max();
        h.totalRequestedKeysU = quint64(1) << 63;
        l26::Trace t;
        Mp submit;
        submit.map(2).str("keys").raw(l26::keyList(3)).str("external_request_id");
        submit.str(h.externalRequestId);
        t.record(20.0, "submit_prefetch_task", submit.bytes);
        t.cancel(21.0, h);
        const auto doc = TraceLoader::loadBytes(t.bytes(), QStringLiteral("u.lct"), nullptr);
        QVERIFY(doc);
        const QString hit = QStringLiteral("18446744073709551615 of 9223372036854775808");

        const auto handle = PrefetchHandle::fromArgs(doc->args(1)->value);
        QVERIFY(handle && handle->hasHitCount && handle->hasTotal);
        QCOMPARE(handle->hitText(), hit);
        // larger than any real count, so never taken for agreement
        QCOMPARE(handle->l1PrefixHitCount, std::numeric_limits<qint64>::max());

        const auto root = ArgumentTree::build(doc->args(1)->value);
        const TreeNode *hits = child(child(root.get(), QStringLiteral("handle")),
                                     QStringLiteral("l1_prefix_hit_count"));
        QCOMPARE(hits->value,
                 hit + QStringLiteral(" keys hit in L1 ⚠ more than "
                                      "total_requested_keys; l1_found_indices lists 1"));
        QVERIFY(hits->problem);

        const auto keys = KeyAnalysis::build(*doc);
        const auto report = AnomalyReport::build(*doc, keys);
        QVERIFY(report);
        QCOMPARE(report->count(AnomalyReport::Kind::HitDisagrees), 1);
        for (const AnomalyReport::Item &it : report->items()) {
            if (it.kind == AnomalyReport::Kind::HitDisagrees) {
                QVERIFY2(report->message(it).contains(QStringLiteral("LMCache found ") + hit +
                                                      QStringLiteral(" in L1")),
                         qPrintable(report->message(it)));
            }
        }
    }

    void inspectorShowsAReleasesKeys() {
        const auto root = ArgumentTree::build(m_doc->args(1)->value);
        const TreeNode *keys = child(root.get(), QStringLiteral("keys"));
        QVERIFY(keys);
        QCOMPARE(int(keys->children.size()), 12);
        QCOMPARE(keys->children[0]->type, QStringLiteral("ObjectKey"));
        const auto nilRoot = ArgumentTree::build(m_doc->args(3)->value);
        QCOMPARE(child(nilRoot.get(), QStringLiteral("keys"))->value, QStringLiteral("None"));
    }
};

QTEST_GUILESS_MAIN(TestPrefetchCalls)
#include "tst_prefetchcalls.moc"
