// `lmct compare`: the JSON schema exactly (every key and its type), values against the
// generated pairs' own figures, the text sections, --help and exit codes 0/1/2.

#include "comparefixture.h"
#include "testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

/**
 * The schema of `lmct compare --json` (docs/cli.md): objects list every key, arrays give the
 * shape of each element, leaves are type names ("number", "string", "bool", "any") joined by
 * '|' where null is allowed too.
 */
QJsonObject schema() {
    QString s = QStringLiteral(R"({
      "a": TRACE, "b": TRACE,
      "header": [{"field": "string", "config": "bool", "a": "string", "b": "string",
                  "differs": "bool", "volatile": "bool"}],
      "config_diff": [{"path": "string", "kind": "string", "a": "any", "b": "any",
                       "volatile": "bool"}],
      "calls": [{"call": "string", "qualname_a": "string|null", "qualname_b": "string|null",
                 "total": "bool", "reason": "string|null", "count": PAIR, "rate_per_s": PAIR,
                 "share": PAIR, "inter_arrival_p50_s": PAIR, "inter_arrival_p95_s": PAIR,
                 "keys_per_call": PAIR}],
      "latencies": {"write_latency": LAT, "first_reuse": LAT, "read_enter_exit": LAT,
                    "time_to_read": LAT},
      "cache": {"a": CSIDE, "b": CSIDE, "hit_ratio": PAIR, "hit_ratio_reason": "string|null",
                "lmcache_hit_ratio": PAIR, "lmcache_reason": "string|null",
                "calls_hit_ratio": PAIR, "whatif_capacities": ["number"],
                "whatif_reason": "string|null",
                "key_overlap": {"models": [{"model": "string", "a_only": "number",
                                            "b_only": "number", "both": "number"}],
                                "a_only": "number", "b_only": "number", "both": "number",
                                "reason": "string|null"},
                "anomalies": KINDS_PAIR}
    })");
    const QString kinds = QStringLiteral(
        R"({"finish_without_reserve": X, "reserve_without_finish": X, "exit_without_enter": X,
            "enter_without_exit": X, "read_never_written": X, "time_backwards": X, "gap": X,
            "hit_disagrees": X})");
    const QString pair = QStringLiteral(
        R"({"a": "number|null", "b": "number|null", "delta": "number|null",
            "delta_percent": "number|null"})");
    const QString dist = QStringLiteral(
        R"({"n": "number", "p50_s": "number|null", "p95_s": "number|null",
            "max_s": "number|null", "buckets_us": ["number"]})");
    const QString account = QStringLiteral(
        R"({"requests": "number", "hit_keys": "number", "requested_keys": "number",
            "hit_ratio": "number|null"})");
    const QString side = QStringLiteral(
        R"({"at_capacity": {"l1_bytes": "number|null", "bytes_per_object": "number|null",
                            "chunks": "number|null", "in_bytes": "bool",
                            "configured_policy": "string|null", "policy": "string",
                            "prefetch_occurrences": "number", "prefetch_hits": "number",
                            "hit_ratio": "number|null", "note": "string|null",
                            "reason": "string|null"},
            "lmcache_account": ACCOUNT, "calls_account": ACCOUNT,
            "whatif": [{"policy": "string", "capacities": ["number"],
                        "prefetch_hit_ratio": ["number|null"]}],
            "reuse_distance_keys": ["number"], "reuse_distance_time_us": ["number"],
            "anomalies": KINDS_COUNT})");
    const QString trace = QStringLiteral(
        R"({"file": "string", "path": "string", "records": "number",
            "duration_s": "number|null", "config": "string", "l1_bytes": "number|null",
            "eviction_policy": "string|null", "distinct_keys": "number", "models": ["string"],
            "requests": "number", "uses": "number", "prefetch_occurrences": "number",
            "damage": {"damaged": "bool", "damaged_args_records": "number",
                       "skipped_frames": "number", "skipped_bytes": "number",
                       "tail_cut": "bool",
                       "recovered_frames": "number", "shrunk_to": "number|null",
                       "args_checked": "bool", "warning": "string|null"}})");
    s.replace(QStringLiteral("CSIDE"), side);
    s.replace(QStringLiteral("ACCOUNT"), account);
    s.replace(QStringLiteral("KINDS_PAIR"), QString(kinds).replace(QStringLiteral("X"), pair));
    s.replace(QStringLiteral("KINDS_COUNT"),
              QString(kinds).replace(QStringLiteral("X"), QStringLiteral("\"number\"")));
    s.replace(QStringLiteral("TRACE"), trace);
    s.replace(QStringLiteral("LAT"),
              QStringLiteral(R"({"label": "string", "a": DIST, "b": DIST, "p50_s": PAIR,
                                 "p95_s": PAIR, "max_s": PAIR, "reason": "string|null"})"));
    s.replace(QStringLiteral("DIST"), dist);
    s.replace(QStringLiteral("PAIR"), pair);
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(s.toUtf8(), &e);
    if (!d.isObject()) {
        qWarning("schema: %s at %d", qPrintable(e.errorString()), e.offset);
    }
    return d.object();
}

QString typeName(const QJsonValue &v) {
    switch (v.type()) {
        case QJsonValue::Null:
            return QStringLiteral("null");
        case QJsonValue::Bool:
            return QStringLiteral("bool");
        case QJsonValue::Double:
            return QStringLiteral("number");
        case QJsonValue::String:
            return QStringLiteral("string");
        case QJsonValue::Array:
            return QStringLiteral("array");
        case QJsonValue::Object:
            return QStringLiteral("object");
        case QJsonValue::Undefined:
            break;
    }
    return QStringLiteral("undefined");
}

/** Where `v` departs from schema `s` (empty when it does not); `path` names the place. */
QStringList check(const QJsonValue &v, const QJsonValue &s, const QString &path) {
    QStringList problems;
    if (s.isObject()) {
        if (!v.isObject()) {
            return {QStringLiteral("%1: expected an object, found %2").arg(path, typeName(v))};
        }
        const QJsonObject o = v.toObject(), so = s.toObject();
        QStringList keys = o.keys(), want = so.keys();
        if (keys != want) {
            problems.append(
                QStringLiteral("%1: keys %2, expected %3")
                    .arg(path, keys.join(QLatin1Char(',')), want.join(QLatin1Char(','))));
        }
        for (const QString &k : want) {
            if (o.contains(k)) {
                problems += check(o[k], so[k], path + QLatin1Char('.') + k);
            }
        }
    } else if (s.isArray()) {
        if (!v.isArray()) {
            return {QStringLiteral("%1: expected an array, found %2").arg(path, typeName(v))};
        }
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            problems += check(a[i], s.toArray()[0], path + QStringLiteral("[%1]").arg(i));
        }
    } else {
        const QStringList types = s.toString().split(QLatin1Char('|'));
        if (!types.contains(QLatin1String("any")) && !types.contains(typeName(v))) {
            problems.append(
                QStringLiteral("%1: expected %2, found %3").arg(path, s.toString(), typeName(v)));
        }
    }
    return problems;
}

}  // namespace

class TestCompareCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_halfL1, m_noPrefetch, m_renamed, m_damaged;
    Workload m_wa, m_wHalf;

    QJsonObject compareJson(const QString &a, const QString &b) {
        const ProcessRun r = runLmct({QStringLiteral("compare"), QStringLiteral("--json"), a, b});
        if (r.exitCode != 0) {
            qWarning("exit %d: %s", r.exitCode, r.err.constData());
            return {};
        }
        QJsonParseError e;
        const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
        if (!d.isObject()) {
            qWarning("not JSON: %s", qPrintable(e.errorString()));
        }
        return d.object();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        WorkloadSpec half, noPrefetch, renamed;
        half.l1Bytes /= 2;
        noPrefetch.prefetch = false;
        renamed.model = QStringLiteral("meta-llama/Llama-3.1-8B");
        WorkloadSpec handles;
        handles.handles = true;
        m_wa = makeWorkload(handles);
        m_wHalf = makeWorkload(half);
        m_a = writeFile(m_dir, QStringLiteral("a.lct"), m_wa.bytes);
        m_halfL1 = writeFile(m_dir, QStringLiteral("half.lct"), m_wHalf.bytes);
        m_noPrefetch =
            writeFile(m_dir, QStringLiteral("noprefetch.lct"), makeWorkload(noPrefetch).bytes);
        m_renamed = writeFile(m_dir, QStringLiteral("renamed.lct"), makeWorkload(renamed).bytes);
        m_damaged = writeFile(m_dir, QStringLiteral("damaged.lct"),
                              damagedWorkload(makeWorkload(half).bytes, 3));
        QVERIFY(!m_a.isEmpty() && !m_halfL1.isEmpty() && !m_noPrefetch.isEmpty() &&
                !m_renamed.isEmpty());
    }

    void jsonSchema_data() {
        QTest::addColumn<QString>("b");
        QTest::newRow("half the L1") << m_halfL1;
        QTest::newRow("no prefetches in B") << m_noPrefetch;
        QTest::newRow("renamed model") << m_renamed;
        QTest::newRow("damaged B") << m_damaged;
    }
    void jsonSchema() {
        QFETCH(QString, b);
        const QJsonObject s = schema();
        QVERIFY(!s.isEmpty());
        const QJsonObject o = compareJson(m_a, b);
        QVERIFY(!o.isEmpty());
        const QStringList problems = check(o, s, QStringLiteral("$"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 10).join(QLatin1Char('\n'))));
        // Arrays are not empty here, so their elements were checked too.
        QVERIFY(!o[QStringLiteral("calls")].toArray().isEmpty());
        QVERIFY(!o[QStringLiteral("header")].toArray().isEmpty());
        QCOMPARE(o[QStringLiteral("latencies")][QStringLiteral("write_latency")]
                  [QStringLiteral("a")][QStringLiteral("buckets_us")]
                      .toArray()
                      .size(),
                 48);
    }

    void jsonValues() {
        const QJsonObject o = compareJson(m_a, m_halfL1);
        QVERIFY(!o.isEmpty());
        const QJsonObject cache = o[QStringLiteral("cache")].toObject();
        const QJsonObject ca = cache[QStringLiteral("a")][QStringLiteral("at_capacity")].toObject();
        const QJsonObject cb = cache[QStringLiteral("b")][QStringLiteral("at_capacity")].toObject();
        QCOMPARE(ca[QStringLiteral("chunks")].toDouble(), 8.0);
        QCOMPARE(cb[QStringLiteral("chunks")].toDouble(), 4.0);
        QCOMPARE(ca[QStringLiteral("bytes_per_object")].toDouble(), 128.0);
        QCOMPARE(ca[QStringLiteral("policy")].toString(), QStringLiteral("lru"));
        const double prefetches = double(prefetchUses(m_wa.uses));
        const double ha = double(tinyReplay(m_wa.uses, 8, false)) / prefetches;
        const double hb = double(tinyReplay(m_wHalf.uses, 4, false)) / prefetches;
        QCOMPARE(ca[QStringLiteral("hit_ratio")].toDouble(), ha);
        QCOMPARE(cb[QStringLiteral("hit_ratio")].toDouble(), hb);
        QCOMPARE(cache[QStringLiteral("hit_ratio")][QStringLiteral("delta")].toDouble(), hb - ha);
        QVERIFY(cache[QStringLiteral("hit_ratio_reason")].isNull());
        QCOMPARE(cache[QStringLiteral("a")][QStringLiteral("lmcache_account")]
                      [QStringLiteral("hit_ratio")]
                          .toDouble(),
                 double(m_wa.handleHits) / double(m_wa.handleTotal));

        // The config differs in the L1 size only.
        const QJsonArray diff = o[QStringLiteral("config_diff")].toArray();
        QCOMPARE(diff.size(), 1);
        QCOMPARE(diff[0][QStringLiteral("path")].toString(),
                 QStringLiteral("l1_manager_config.memory_config.size_in_bytes"));
        QCOMPARE(diff[0][QStringLiteral("kind")].toString(), QStringLiteral("changed"));
        QCOMPARE(diff[0][QStringLiteral("a")].toDouble(), 1024.0);
        QCOMPARE(diff[0][QStringLiteral("b")].toDouble(), 512.0);

        // Calls: B has no release_prefetch_task (A has one per request).
        for (const QJsonValue &v : o[QStringLiteral("calls")].toArray()) {
            const QJsonObject row = v.toObject();
            const QString call = row[QStringLiteral("call")].toString();
            if (row[QStringLiteral("total")].toBool()) {
                QCOMPARE(call, QStringLiteral("total"));
                continue;
            }
            const QJsonObject n = row[QStringLiteral("count")].toObject();
            QCOMPARE(n[QStringLiteral("a")].toDouble(), double(m_wa.counts.value(call)));
            QCOMPARE(n[QStringLiteral("b")].toDouble(), double(m_wHalf.counts.value(call)));
            if (call == QLatin1String("release_prefetch_task")) {
                QCOMPARE(row[QStringLiteral("reason")].toString(),
                         QStringLiteral("B has no release_prefetch_task"));
                QCOMPARE(n[QStringLiteral("delta_percent")].toDouble(), -100.0);
            } else {
                QVERIFY(row[QStringLiteral("reason")].isNull());
                QCOMPARE(n[QStringLiteral("delta")].toDouble(), 0.0);
            }
        }
        const QJsonObject lat =
            o[QStringLiteral("latencies")][QStringLiteral("write_latency")].toObject();
        QCOMPARE(lat[QStringLiteral("a")][QStringLiteral("max_s")].toDouble(),
                 *std::max_element(m_wa.writeLatencies.begin(), m_wa.writeLatencies.end()));
        QCOMPARE(lat[QStringLiteral("p50_s")][QStringLiteral("a")].toDouble(),
                 percentileOf(m_wa.writeLatencies, 0.5));
    }

    void jsonReasons() {
        const QJsonObject np = compareJson(m_a, m_noPrefetch);
        QCOMPARE(np[QStringLiteral("cache")][QStringLiteral("hit_ratio_reason")].toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
        QCOMPARE(np[QStringLiteral("latencies")][QStringLiteral("time_to_read")]
                   [QStringLiteral("reason")]
                       .toString(),
                 QStringLiteral("B has no submit_prefetch_task"));
        QVERIFY(np[QStringLiteral("cache")][QStringLiteral("b")][QStringLiteral("at_capacity")]
                  [QStringLiteral("hit_ratio")]
                      .isNull());
        const QJsonObject rn = compareJson(m_a, m_renamed);
        const QJsonObject overlap =
            rn[QStringLiteral("cache")][QStringLiteral("key_overlap")].toObject();
        QCOMPARE(overlap[QStringLiteral("reason")].toString(),
                 QStringLiteral("different models: A Qwen/Qwen3-8B, B meta-llama/Llama-3.1-8B"));
        QCOMPARE(overlap[QStringLiteral("both")].toDouble(), 0.0);
        QCOMPARE(overlap[QStringLiteral("a_only")].toDouble(), 16.0);
        QCOMPARE(overlap[QStringLiteral("b_only")].toDouble(), 16.0);
    }

    void damagedTraceWarns() {
        const ProcessRun r =
            runLmct({QStringLiteral("compare"), QStringLiteral("--json"), m_a, m_damaged});
        QCOMPARE(r.exitCode, 0);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("lmct compare: warning: B (damaged.lct) is "
                                               "damaged: 3 records with damaged arguments, 1 "
                                               "frame skipped (")),
                 qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);  // A is not damaged
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject b = o[QStringLiteral("b")][QStringLiteral("damage")].toObject();
        QCOMPARE(b[QStringLiteral("damaged")].toBool(), true);
        QCOMPARE(b[QStringLiteral("damaged_args_records")].toDouble(), 3.0);
        QCOMPARE(b[QStringLiteral("skipped_frames")].toDouble(), 1.0);
        QVERIFY(b[QStringLiteral("args_checked")].toBool());
        QCOMPARE(QStringLiteral("lmct compare: warning: ") +
                     b[QStringLiteral("warning")].toString() + QLatin1Char('\n'),
                 err);
        const QJsonObject a = o[QStringLiteral("a")][QStringLiteral("damage")].toObject();
        QCOMPARE(a[QStringLiteral("damaged")].toBool(), false);
        QVERIFY(a[QStringLiteral("warning")].isNull());
        // Text output: the same warning on stderr.
        const ProcessRun t = runLmct({QStringLiteral("compare"), m_damaged, m_a});
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.err.startsWith("lmct compare: warning: A (damaged.lct) is damaged"),
                 t.err.constData());
    }

    void whatIfOfATraceWithoutPrefetchesIsNull() {
        const QJsonObject o = compareJson(m_a, m_noPrefetch);
        const QJsonObject cache = o[QStringLiteral("cache")].toObject();
        const QJsonArray curves = cache[QStringLiteral("b")][QStringLiteral("whatif")].toArray();
        QVERIFY(!curves.isEmpty());
        for (const QJsonValue &cv : curves) {
            const QJsonArray ratios = cv[QStringLiteral("prefetch_hit_ratio")].toArray();
            QVERIFY(!ratios.isEmpty());
            for (const QJsonValue &r : ratios) {
                QVERIFY(r.isNull());
            }
        }
        QVERIFY(cache[QStringLiteral("a")][QStringLiteral("whatif")][0]
                     [QStringLiteral("prefetch_hit_ratio")][0]
                         .isDouble());
        // The text: "—" for B's column.
        const ProcessRun r = runLmct({QStringLiteral("compare"), m_a, m_noPrefetch});
        const QString out = QString::fromUtf8(r.out);
        const qsizetype head = out.indexOf(QStringLiteral("CAPACITY "));
        QVERIFY(head > 0);
        const QString row = out.mid(head).section(QLatin1Char('\n'), 1, 1);
        QVERIFY2(row.contains(QStringLiteral("/—")) && !row.contains(QStringLiteral("/0 ")),
                 qPrintable(row));
    }

    void noWhatIfLeavesTheCapacitiesEmpty() {
        const ProcessRun r = runLmct({QStringLiteral("compare"), QStringLiteral("--json"),
                                      QStringLiteral("--no-whatif"), m_a, m_halfL1});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject cache =
            QJsonDocument::fromJson(r.out).object()[QStringLiteral("cache")].toObject();
        QVERIFY(cache[QStringLiteral("whatif_capacities")].isArray());
        QVERIFY(cache[QStringLiteral("whatif_capacities")].toArray().isEmpty());
        QVERIFY(cache[QStringLiteral("a")][QStringLiteral("whatif")].toArray().isEmpty());
        QVERIFY(cache[QStringLiteral("b")][QStringLiteral("whatif")].toArray().isEmpty());
        QCOMPARE(cache[QStringLiteral("whatif_reason")].toString(),
                 QStringLiteral("the what-if was not run"));
        // Without the option they are there.
        QVERIFY(!compareJson(m_a,
                             m_halfL1)[QStringLiteral("cache")][QStringLiteral("whatif_capacities")]
                     .toArray()
                     .isEmpty());
    }

    void text() {
        const ProcessRun r = runLmct({QStringLiteral("compare"), m_a, m_noPrefetch});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QString out = QString::fromUtf8(r.out);
        for (const char *section :
             {"Traces (B against A", "\nHeader and config: ", "\nCalls\n", "\nLatencies\n",
              "\nCache\n", "key overlap per model", "anomalies (A / B)"}) {
            QVERIFY2(out.contains(QLatin1String(section)), section);
        }
        QVERIFY(out.contains(QStringLiteral("B: — (B has no submit_prefetch_task)")));
        QVERIFY(out.contains(QStringLiteral("(B has no submit_prefetch_task)")));
        QVERIFY(out.contains(QStringLiteral("A: 0.")));  // A's hit ratio at its capacity

        const ProcessRun quick =
            runLmct({QStringLiteral("compare"), QStringLiteral("--no-whatif"), m_a, m_halfL1});
        QCOMPARE(quick.exitCode, 0);
        QVERIFY(!QString::fromUtf8(quick.out).contains(QStringLiteral("what-if:")));
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("what-if:")));
    }

    void regression_keyOverlapAlignsOnLongModelNames() {
        // A model name past 40 columns pushed its A only / B only / both figures right.
        auto trace = [](int seed) {
            QByteArray b = frame(headerBody());
            const char *models[] = {"meta-llama/Llama-3.1-8B-Instruct-with-a-long-suffix-日本語",
                                    "Qwen/Qwen3-8B"};
            for (int i = 0; i < 6; ++i) {
                Mp args;
                args.map(1).str("keys").arr(1).raw(objectKey(seed + i, 0, models[i % 2]));
                b += frame(recordBody(0.1 * (i + 1), 1.7e9 + 0.1 * i,
                                      storageQualname("finish_write"), args.bytes));
            }
            return b;
        };
        const QString a = writeFile(m_dir, QStringLiteral("long-a.lct"), trace(0));
        const QString b = writeFile(m_dir, QStringLiteral("long-b.lct"), trace(2));
        const ProcessRun r =
            runLmct({QStringLiteral("compare"), QStringLiteral("--no-whatif"), a, b});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
        const qsizetype head =
            lines.indexOf(QStringLiteral("  key overlap per model (A only / B only / both)"));
        QVERIFY2(head >= 0, r.out.constData());
        QSet<qsizetype> slashes;  // terminal column of each row's first " / "
        int rows = 0;
        for (qsizetype i = head + 1; i < lines.size() && lines[i].startsWith(QLatin1String("    "));
             ++i, ++rows) {
            const qsizetype at = lines[i].indexOf(QLatin1String(" / "));
            QVERIFY(at > 0);
            const QString before = lines[i].left(at);
            slashes.insert(at + before.count(QStringLiteral("日")) +
                           before.count(QStringLiteral("本")) + before.count(QStringLiteral("語")));
        }
        QCOMPARE(rows, 2);
        QCOMPARE(slashes.size(), 1);
    }

    void regression_textColumnsFitTheirValues() {
        // t_wall_start 1760000000 printed as 1.76e+09 beside 1760000000.3, and what-if cells
        // wider than their column pushed the rest of the row out of line.
        auto withWallStart = [](QByteArray b, double tWall) {
            const QByteArray key(
                "\xac"
                "t_wall_start\xcb",
                14);
            const qsizetype at = b.indexOf(key);
            if (at >= 0) {
                qToBigEndian(tWall, b.data() + at + key.size());
            }
            return b;
        };
        const QString a =
            writeFile(m_dir, QStringLiteral("wall-a.lct"), withWallStart(m_wa.bytes, 1760000000.0));
        const QString b = writeFile(m_dir, QStringLiteral("wall-b.lct"),
                                    withWallStart(m_wHalf.bytes, 1760000000.3));
        const ProcessRun r = runLmct({QStringLiteral("compare"), a, b});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QRegularExpression(
                     QStringLiteral("t_wall_start +1760000000\\.000000 +│ 1760000000\\.300000"))),
                 qPrintable(out));
        QVERIFY(!out.contains(QStringLiteral("e+09")));
        // the duration with 6 decimals too (it came at full precision: 1.2345678901234567)
        QVERIFY2(out.contains(QRegularExpression(
                     QStringLiteral("\\n  duration_s +\\d+\\.\\d{6} +│ \\d+\\.\\d{6}\\n"))),
                 qPrintable(out));
        // Every row of the what-if table is as long as its head: the columns fit their cells.
        const QStringList lines = out.split(QLatin1Char('\n'));
        qsizetype head = -1;
        for (qsizetype i = 0; i < lines.size() && head < 0; ++i) {
            if (lines[i].trimmed().startsWith(QLatin1String("CAPACITY "))) {
                head = i;
            }
        }
        QVERIFY(head > 0);
        int rows = 0;
        for (qsizetype i = head + 1;
             i < lines.size() && lines[i].contains(QRegularExpression(QStringLiteral("^ +\\d+ ")));
             ++i, ++rows) {
            QCOMPARE(lines[i].size(), lines[head].size());
        }
        QVERIFY(rows > 0);
    }

    void exitCodes() {
        const ProcessRun help = runLmct({QStringLiteral("compare"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.startsWith("Usage: lmct compare"));
        const ProcessRun one = runLmct({QStringLiteral("compare"), m_a});
        QCOMPARE(one.exitCode, 1);
        QVERIFY(one.err.contains("lmct compare: expected two FILEs"));
        const ProcessRun three = runLmct({QStringLiteral("compare"), m_a, m_a, m_a});
        QCOMPARE(three.exitCode, 1);
        const ProcessRun bad =
            runLmct({QStringLiteral("compare"), QStringLiteral("--frobnicate"), m_a, m_a});
        QCOMPARE(bad.exitCode, 1);
        const ProcessRun missing =
            runLmct({QStringLiteral("compare"), m_a, m_dir.filePath(QStringLiteral("nope.lct"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.startsWith("lmct compare: "));
        QVERIFY(missing.out.isEmpty());
        const ProcessRun usage = runLmct({QStringLiteral("--help")});
        QVERIFY(usage.out.contains("compare [--json] [--no-whatif] A B"));
    }
};

QTEST_GUILESS_MAIN(TestCompareCli)
#include "tst_comparecli.moc"
