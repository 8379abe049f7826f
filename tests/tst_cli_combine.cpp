// `lmct info/dump/stats --combine` on traces written here with known start times and clock
// offsets: the dump's order and trace column against an order worked out in the test, and the
// combined figures of info and stats against runs on each file alone.

#include "combinefixture.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace lmct::test;

namespace {

/** Three traces of one deployment: b's clock is 3 ms ahead, c starts later and is damaged. */
struct Fleet {
    QTemporaryDir dir;
    std::vector<double> starts = {1000.0, 1000.003, 1000.2};
    std::vector<std::vector<double>> walls;
    QStringList files;

    Fleet() {
        walls.resize(3);
        for (int i = 0; i < 60; ++i) {
            walls[0].push_back(1000.0 + 0.005 * (i + 1));
            walls[1].push_back(1000.003 + 0.0051 * (i + 1) + (i == 30 ? -0.02 : 0.0));
            if (i < 40) {
                walls[2].push_back(1000.2 + 0.004 * (i + 1));
            }
        }
        files.append(writeFile(dir, QStringLiteral("a.lct"),
                               combineTrace(starts[0], walls[0], QStringLiteral("vllm-0"))));
        files.append(writeFile(dir, QStringLiteral("b.lct"),
                               combineTrace(starts[1], walls[1], QString(), 1000)));
        QByteArray c = combineTrace(starts[2], walls[2], QString(), 2000);
        c.chop(7);  // a truncated last record: a diagnostic, 39 records
        files.append(writeFile(dir, QStringLiteral("c.lct"), c));
        walls[2].pop_back();
    }
};

QJsonObject jsonOf(const ProcessRun &r) {
    return QJsonDocument::fromJson(r.out).object();
}

}  // namespace

class TestCliCombine : public QObject {
    Q_OBJECT

private slots:
    void dumpOrderAndTraceColumn() {
        Fleet f;
        const ProcessRun r = runLmct(
            QStringList{"dump", "--combine", "--jsonl", "--offset", "b.lct=-3ms"} + f.files);
        QCOMPARE(r.exitCode, 0);
        const auto want = referenceOrder(f.starts, f.walls, {0.0, -0.003, 0.0});
        const QList<QJsonObject> lines = r.jsonLines();
        QCOMPARE(qsizetype(lines.size()), qsizetype(want.size()));
        const QStringList labels = {"a.lct", "b.lct", "c.lct"};
        bool interleaved = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const auto &[t, rec] = want[size_t(i)];
            QCOMPARE(lines[i].value("trace").toString(), labels[t]);
            QCOMPARE(lines[i].value("index").toInt(), rec);
            const double aligned = f.walls[size_t(t)][size_t(rec)] + (t == 1 ? -0.003 : 0.0);
            QCOMPARE(lines[i].value("aligned_t_wall").toDouble(), aligned);
            QCOMPARE(lines[i].value("t_wall").toDouble(), f.walls[size_t(t)][size_t(rec)]);
            interleaved =
                interleaved || (i > 0 && lines[i - 1].value("trace") != lines[i].value("trace"));
        }
        QVERIFY(interleaved);
        QVERIFY(QByteArray(r.out).startsWith("{\"trace\":\"a.lct\","));  // the trace first
        // The offset changes the order: without it b's records go 3 ms later.
        const ProcessRun raw = runLmct(QStringList{"dump", "--combine", "--jsonl"} + f.files);
        QCOMPARE(raw.exitCode, 0);
        const auto rawWant = referenceOrder(f.starts, f.walls, {0.0, 0.0, 0.0});
        QVERIFY(rawWant != want);
        const QList<QJsonObject> rawLines = raw.jsonLines();
        for (qsizetype i = 0; i < rawLines.size(); ++i) {
            QCOMPARE(rawLines[i].value("trace").toString(), labels[rawWant[size_t(i)].first]);
            QCOMPARE(rawLines[i].value("index").toInt(), rawWant[size_t(i)].second);
        }
    }

    void dumpCsvAndText() {
        Fleet f;
        const ProcessRun csv = runLmct(QStringList{"dump", "--combine", "--csv"} + f.files);
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> rows = csv.out.split('\n');
        QVERIFY(rows[0].startsWith("trace,aligned_t_wall,index,t_mono,t_wall,qualname"));
        const auto want = referenceOrder(f.starts, f.walls, {0.0, 0.0, 0.0});
        const QStringList labels = {"a.lct", "b.lct", "c.lct"};
        for (size_t i = 0; i < want.size(); ++i) {
            const QList<QByteArray> cells = rows[qsizetype(i) + 1].split(',');
            QCOMPARE(QString::fromUtf8(cells[0]), labels[want[i].first]);
            QCOMPARE(cells[2].toInt(), want[i].second);
        }
        const ProcessRun text = runLmct(QStringList{"dump", "--combine"} + f.files);
        QCOMPARE(text.exitCode, 0);
        const QList<QByteArray> lines = text.out.trimmed().split('\n');
        QCOMPARE(size_t(lines.size()), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            const QList<QByteArray> words = lines[qsizetype(i)].simplified().split(' ');
            QCOMPARE(QString::fromUtf8(words[0]), labels[want[i].first]);
            QCOMPARE(words[1].toInt(), want[i].second);
        }
    }

    void regression_textColumnsAlignWhateverTheLabels() {
        // A label longer than 16 characters pushed its rows' columns right of the others', and
        // a wide (CJK) character counted one column of the two a terminal gives it.
        Fleet f;
        const QString longName = f.dir.filePath(QStringLiteral("worker-node-17-of-a-fleet.lct"));
        const QString wideName = f.dir.filePath(QStringLiteral("模型.lct"));
        QVERIFY(QFile::copy(f.files[1], longName));
        QVERIFY(QFile::copy(f.files[1], wideName));
        const ProcessRun text = runLmct({"dump", "--combine", f.files[0], longName, wideName});
        QCOMPARE(text.exitCode, 0);
        const QStringList lines = QString::fromUtf8(text.out).trimmed().split(QLatin1Char('\n'));
        QVERIFY(lines.size() > 100);
        QSet<int> qualnameColumns;
        QSet<QString> labels;
        for (const QString &line : lines) {
            const qsizetype at = line.indexOf(QRegularExpression(QStringLiteral(
                "(submit_prefetch_task|reserve_write|finish_write|read_prefetched)")));
            QVERIFY2(at > 0, qPrintable(line));
            const int wide = int(line.left(at).count(QStringLiteral("模")) +
                                 line.left(at).count(QStringLiteral("型")));
            qualnameColumns.insert(int(at) + wide);  // two columns for each of the wide ones
            labels.insert(line.section(QLatin1Char(' '), 0, 0));
        }
        QCOMPARE(labels.size(), 3);
        QVERIFY2(qualnameColumns.size() == 1, qPrintable(lines.mid(0, 6).join('\n')));
    }

    void regression_combinedStatsNameTheirTimeAxis() {
        // The combined Calls tables headed their times "First t_mono", but they are seconds on
        // the aligned t_wall axis.
        Fleet f;
        const ProcessRun text = runLmct(QStringList{"stats", "--combine"} + f.files);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("First aligned t_wall Last aligned t_wall"),
                 text.out.left(1200).constData());
        QVERIFY(!text.out.contains("First t_mono"));
        const ProcessRun one = runLmct({"stats", f.files[0]});
        QVERIFY2(one.out.contains("First t_mono Last t_mono"), one.out.left(1200).constData());
    }

    void regression_infoNamesTheFilesItLeftOut() {
        // A file that is no trace was said on stderr only: the JSON counted the others as if it
        // had not been given. And "1 records step back".
        Fleet f;
        const QString notTrace = writeFile(f.dir, QStringLiteral("x.lct"), "not a trace at all");
        const ProcessRun r =
            runLmct({"info", "--combine", "--json", f.files[0], notTrace, f.files[1]});
        QCOMPARE(r.exitCode, 2);
        const QJsonObject o = jsonOf(r);
        QCOMPARE(o.value("traces").toInt(), 2);
        const QJsonArray refused = o.value("refused").toArray();
        QCOMPARE(refused.size(), 1);
        QCOMPARE(refused[0].toObject().value("file").toString(), notTrace);
        QVERIFY(!refused[0].toObject().value("error").toString().isEmpty());
        const ProcessRun all = runLmct(QStringList{"info", "--combine", "--json"} + f.files);
        QCOMPARE(jsonOf(all).value("refused").toArray().size(), 0);
        const ProcessRun text = runLmct({"info", "--combine", f.files[0], notTrace, f.files[1]});
        QCOMPARE(text.exitCode, 2);
        QVERIFY2(text.out.contains("refused:   " + notTrace.toUtf8() + " (left out: "),
                 text.out.constData());
        QVERIFY2(text.out.contains(" 1 record steps back, "), text.out.constData());
    }

    void dumpFilterOnTrace() {
        Fleet f;
        const ProcessRun r = runLmct(QStringList{"dump", "--combine", "--jsonl", "--filter",
                                                 "trace == b.lct || trace == 0 && index < 2"} +
                                     f.files);
        QCOMPARE(r.exitCode, 0);
        const QList<QJsonObject> lines = r.jsonLines();
        QCOMPARE(lines.size(), 62);
        int a = 0, b = 0;
        for (const QJsonObject &o : lines) {
            (o.value("trace").toString() == QLatin1String("a.lct") ? a : b) += 1;
            QVERIFY(o.value("trace").toString() != QLatin1String("c.lct"));
        }
        QCOMPARE(a, 2);
        QCOMPARE(b, 60);
        // The instance id names a trace too.
        const ProcessRun byInstance = runLmct(
            QStringList{"dump", "--combine", "--jsonl", "--filter", "trace == vllm-0"} + f.files);
        QCOMPARE(byInstance.jsonLines().size(), 60);
    }

    void infoAgainstSingleRuns() {
        Fleet f;
        const ProcessRun r = runLmct(QStringList{"info", "--combine", "--json", "--offset",
                                                 "b.lct=-0.003", "--offset", "vllm-0=1ms"} +
                                     f.files);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        QVERIFY(o.value("combined").toBool());
        QCOMPARE(o.value("traces").toInt(), 3);
        const QJsonArray members = o.value("members").toArray();
        QCOMPARE(members.size(), 3);
        const double offsets[] = {0.001, -0.003, 0.0};
        qint64 records = 0;
        for (int t = 0; t < 3; ++t) {
            const ProcessRun single = runLmct(QStringList{"info", "--json", f.files[t]});
            QCOMPARE(single.exitCode, 0);
            const QJsonObject s = jsonOf(single);
            const QJsonObject m = members[t].toObject();
            QCOMPARE(m.value("trace").toInt(), t);
            QCOMPARE(m.value("file").toString(), f.files[t]);
            QCOMPARE(m.value("records").toInt(), s.value("records").toInt());
            QCOMPARE(m.value("diagnostics").toInt(), int(s.value("diagnostics").toArray().size()));
            QCOMPARE(m.value("t_wall_start").toDouble(),
                     s.value("header").toObject().value("t_wall_start").toDouble());
            QCOMPARE(m.value("offset_s").toDouble(), offsets[t]);
            records += s.value("records").toInt();
        }
        QCOMPARE(members[0].toObject().value("instance_id").toString(), QStringLiteral("vllm-0"));
        QVERIFY(members[1].toObject().value("instance_id").isNull());
        QCOMPARE(members[1].toObject().value("stepped_back").toInt(), 1);
        QVERIFY(members[2].toObject().value("diagnostics").toInt() > 0);  // the damaged one
        QCOMPARE(members[0].toObject().value("diagnostics").toInt(), 0);
        QCOMPARE(qint64(o.value("records").toInt()), records);
        QCOMPARE(o.value("t_wall_start").toDouble(), 1000.003 - 0.003);  // b starts first, aligned
        QCOMPARE(o.value("t_wall_end").toDouble(), f.walls[2].back());   // c ends last
        const ProcessRun text = runLmct(QStringList{"info", "--combine"} + f.files);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("combined:  3 traces, 159 records"));
        QVERIFY(text.out.contains("a.lct (vllm-0)"));
    }

    void statsAgainstSingleRuns() {
        Fleet f;
        const ProcessRun r = runLmct(QStringList{"stats", "--combine", "--json"} + f.files);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = jsonOf(r);
        const QJsonObject all = o.value("all").toObject();
        const QJsonArray traces = o.value("traces").toArray();
        QCOMPARE(traces.size(), 3);
        QHash<QString, qint64> counts;
        qint64 records = 0, keys = 0, matched = 0;
        for (int t = 0; t < 3; ++t) {
            const ProcessRun single = runLmct(QStringList{"stats", "--json", f.files[t]});
            QCOMPARE(single.exitCode, 0);
            QJsonObject s = jsonOf(single);
            QJsonObject m = traces[t].toObject();
            QCOMPARE(m.value("label").toString(), QStringLiteral("abc").mid(t, 1) + ".lct");
            // Per trace: exactly what the single run says.
            for (const char *k : {"records", "distinct_keys", "calls", "totals", "models", "ranks",
                                  "salts", "context_pairs"}) {
                QCOMPARE(m.value(k), s.value(k));
            }
            records += s.value("records").toInt();
            keys += s.value("distinct_keys").toInt();
            matched += s.value("context_pairs").toObject().value("matched").toInt();
            for (const QJsonValue &c : s.value("calls").toArray()) {
                counts[c.toObject().value("qualname").toString()] +=
                    c.toObject().value("count").toInt();
            }
        }
        QCOMPARE(qint64(all.value("records").toInt()), records);
        QCOMPARE(qint64(all.value("distinct_keys").toInt()), keys);
        QCOMPARE(qint64(all.value("context_pairs").toObject().value("matched").toInt()), matched);
        QCOMPARE(all.value("time_axis").toString(), QStringLiteral("t_wall"));
        QCOMPARE(all.value("t_wall_origin").toDouble(), 1000.0);
        QHash<QString, qint64> allCounts;
        for (const QJsonValue &c : all.value("calls").toArray()) {
            allCounts[c.toObject().value("qualname").toString()] =
                c.toObject().value("count").toInt();
        }
        QCOMPARE(allCounts, counts);
        // The totals row's times lie on the common axis: first and last aligned t_wall.
        const QJsonObject totals = all.value("totals").toObject();
        QCOMPARE(totals.value("count").toInt(), int(records));
        QCOMPARE(totals.value("first_t_mono").toDouble(), f.walls[0].front() - 1000.0);
        QCOMPARE(totals.value("last_t_mono").toDouble(), f.walls[2].back() - 1000.0);

        // A filter selects per trace; CSV has the trace first.
        const ProcessRun csv =
            runLmct(QStringList{"stats", "--combine", "--csv", "--filter", "trace != 2"} + f.files);
        QCOMPARE(csv.exitCode, 0);
        QVERIFY(csv.out.startsWith("trace,call,qualname,count"));
        QVERIFY(csv.out.contains("\n(all),total,(total),120,"));
        QVERIFY(csv.out.contains("\nc.lct,total,(total),0,"));
        const ProcessRun text = runLmct(QStringList{"stats", "--combine"} + f.files);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("== trace 2: c.lct"));
    }

    void damagedMemberIsWarnedOf() {
        // c.lct ends in a cut record: dump and stats --combine say so on stderr (one line, in
        // the words of `lmct compare`), as they do for c.lct alone; the others are not named.
        Fleet f;
        for (const char *command : {"dump", "stats"}) {
            const ProcessRun r = runLmct(QStringList{command, "--combine"} + f.files);
            QCOMPARE(r.exitCode, 0);
            QVERIFY(!r.out.isEmpty());
            QVERIFY2(r.err.startsWith(QStringLiteral("lmct %1: warning: c.lct is damaged: its "
                                                     "last record cut short (")
                                          .arg(QLatin1String(command))
                                          .toUtf8()),
                     r.err.constData());
            QVERIFY2(r.err.endsWith(" bytes skipped); its figures cover the 39 records read\n"),
                     r.err.constData());
            QCOMPARE(r.err.count('\n'), 1);
        }
    }

    void offsetUnits() {
        // Regression: the --offset help named ns, us, ms and s only, though min and h work.
        for (const char *command : {"info", "dump", "stats"}) {
            const ProcessRun help = runLmct({command, "--help"});
            QCOMPARE(help.exitCode, 0);
            const QString text = QString::fromUtf8(help.out).simplified();
            const qsizetype at = text.indexOf(QLatin1String("--offset <LABEL=SECONDS>"));
            QVERIFY2(at >= 0, qPrintable(text));
            QVERIFY2(text.mid(at).contains(QLatin1String("(units ns, us, ms, s, min, h allowed")),
                     qPrintable(text.mid(at)));
        }
        Fleet f;
        const ProcessRun r = runLmct(QStringList{"info", "--combine", "--json", "--offset",
                                                 "a.lct=1min", "--offset", "b.lct=-0.5h"} +
                                     f.files);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray members = jsonOf(r).value("members").toArray();
        QCOMPARE(members.size(), 3);
        QCOMPARE(members[0].toObject().value("offset_s").toDouble(), 60.0);
        QCOMPARE(members[1].toObject().value("offset_s").toDouble(), -1800.0);
    }

    void errors() {
        Fleet f;
        const QString notTrace = writeFile(f.dir, QStringLiteral("x.lct"), "not a trace at all");
        struct Case {
            QStringList args;
            int exit;
            const char *err;
        };
        const Case cases[] = {
            {{"dump", "--offset", "a.lct=1", f.files[0]}, 1, "--offset goes with --combine"},
            {{"info", "--offset", "a.lct=1", f.files[0]}, 1, "--offset goes with --combine"},
            {{"dump", "--combine", "--offset", "a.lct", f.files[0]}, 1, "invalid --offset"},
            {{"dump", "--combine", "--offset", "a.lct=5MB", f.files[0]}, 1, "invalid --offset"},
            {{"stats", "--combine", "--offset", "z.lct=1", f.files[0]}, 1, "no trace is labelled"},
            {{"dump", "--combine", "--range", "0:1", f.files[0]}, 1, "does not go with --combine"},
            {{"dump", f.files[0], f.files[1]}, 1, "expected one FILE, got 2"},
            {{"dump", "--combine", f.files[0], notTrace}, 2, "x.lct"},
            {{"info", "--combine", f.files[0], notTrace}, 2, "x.lct"},
        };
        for (const Case &c : cases) {
            const ProcessRun r = runLmct(c.args);
            QVERIFY2(r.exitCode == c.exit, qPrintable(c.args.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains(c.err), qPrintable(c.args.join(' ') + ": " + r.err));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliCombine)
#include "tst_cli_combine.moc"
