// ContextPairs (FIFO matching of __enter__/__exit__ per key list) and MsgpackSkim.

#include "codec/objectkey.h"
#include "msgpack/msgpackskim.h"
#include "timeline/contextpairs.h"
#include "trace/traceloader.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <algorithm>
#include <random>

using namespace lmct;

namespace {

using Ev = ContextPairs::Event;

QJsonObject manifest() {
    QFile f(QStringLiteral(LMCT_FIXTURES "/manifest.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

const QString kFamily =
    QStringLiteral("lmcache.v1.distributed.storage_manager.StorageManager.read_prefetched_results");

QByteArrayView bytes(const char *s) {
    return QByteArrayView(s);
}

}  // namespace

class TstContextPairs : public QObject {
    Q_OBJECT
private slots:
    void interleavedFifo() {
        // A1 B1 A2 xA xB xA : A pairs FIFO (A1 with the first xA), B in between.
        const std::vector<Ev> ev{{0, 1.0, true, bytes("A")},  {1, 1.1, true, bytes("B")},
                                 {2, 1.2, true, bytes("A")},  {3, 1.5, false, bytes("A")},
                                 {4, 1.6, false, bytes("B")}, {5, 1.9, false, bytes("A")}};
        const auto cp = ContextPairs::match(ev);
        QCOMPARE(cp->matchedCount(), 3);
        QVERIFY(cp->unmatchedEnters().empty());
        QVERIFY(cp->unmatchedExits().empty());
        const auto &s = cp->spans();  // sorted by start
        QCOMPARE(s[0].enter, 0);
        QCOMPARE(s[0].exit, 3);
        QCOMPARE(s[1].enter, 1);
        QCOMPARE(s[1].exit, 4);
        QCOMPARE(s[2].enter, 2);
        QCOMPARE(s[2].exit, 5);
        QCOMPARE(s[0].duration(), 0.5);
        // three overlapping spans need three rows
        QCOMPARE(cp->depthCount(), 3);
        QCOMPARE(s[0].depth, 0);
        QCOMPARE(s[1].depth, 1);
        QCOMPARE(s[2].depth, 2);
        QCOMPARE(cp->spanOfRecord(4), 1);
        QCOMPARE(cp->spanOfRecord(2), 2);
        QCOMPARE(cp->spanOfRecord(99), -1);
        QCOMPARE(cp->maxDuration(), 0.7);
    }

    void unmatchedAndTruncated() {
        // an exit with no open enter, then an enter never closed (trace cut short)
        const std::vector<Ev> ev{
            {0, 0.0, false, bytes("X")}, {1, 1.0, true, bytes("A")},
            {2, 2.0, false, bytes("A")}, {3, 3.0, false, bytes("A")},  // A already closed
            {4, 4.0, true, bytes("B")},  {5, 4.5, true, bytes("A")}};
        const auto cp = ContextPairs::match(ev);
        QCOMPARE(cp->matchedCount(), 1);
        QCOMPARE(cp->unmatchedExits(), (std::vector<qint32>{0, 3}));
        QCOMPARE(cp->unmatchedEnters(), (std::vector<qint32>{4, 5}));
        QCOMPARE(cp->unmatchedEnterTimes().values(), (std::vector<double>{4.0, 4.5}));
        QCOMPARE(cp->unmatchedExitTimes().values(), (std::vector<double>{0.0, 3.0}));
        QCOMPARE(cp->spanOfRecord(4), -1);
    }

    void exitSteppingBackIsClamped() {
        const std::vector<Ev> ev{{0, 2.0, true, bytes("A")}, {1, 1.9999, false, bytes("A")}};
        const auto cp = ContextPairs::match(ev);
        QCOMPARE(cp->matchedCount(), 1);
        QCOMPARE(cp->spans()[0].end, 2.0);
        QCOMPARE(cp->spans()[0].duration(), 0.0);
    }

    void manyDistinctKeys() {
        // many distinct keys: each enter pairs only with the exit of its own bytes
        std::vector<QByteArray> keys;
        for (int i = 0; i < 3000; ++i) {
            keys.push_back(QByteArray::number(i * 7919));
        }
        std::vector<Ev> ev;
        for (int i = 0; i < 3000; ++i) {
            ev.push_back({2 * i, double(i), true, keys[size_t(i)]});
        }
        for (int i = 2999; i >= 0; --i) {
            ev.push_back({6000 + (2999 - i), 5000.0 + i, false, keys[size_t(i)]});
        }
        std::sort(ev.begin(), ev.end(),
                  [](const Ev &a, const Ev &b) { return a.record < b.record; });
        const auto cp = ContextPairs::match(ev);
        QCOMPARE(cp->matchedCount(), 3000);
        for (const auto &s : cp->spans()) {
            QCOMPARE(s.exit, 6000 + (2999 - s.enter / 2));
        }
    }

    void spanQueriesMatchBruteForce() {
        std::mt19937_64 rng(3);
        std::vector<Ev> ev;
        std::vector<QByteArray> keys;
        keys.reserve(4000);
        double t = 0;
        std::vector<std::pair<double, int>> pendingExits;
        int rec = 0;
        for (int i = 0; i < 2000; ++i) {
            t += std::exponential_distribution<>(100.0)(rng);
            keys.push_back(QByteArray::number(i));
            ev.push_back({rec++, t, true, keys.back()});
            // durations from 10 µs to 2 s (a few long ones)
            const double d = (i % 97 == 0) ? 2.0 : std::exponential_distribution<>(200.0)(rng);
            pendingExits.emplace_back(t + d, i);
            std::sort(pendingExits.begin(), pendingExits.end());
            while (!pendingExits.empty() && pendingExits.front().first <= t) {
                ev.push_back({rec++, pendingExits.front().first, false,
                              keys[size_t(pendingExits.front().second)]});
                pendingExits.erase(pendingExits.begin());
            }
        }
        const auto cp = ContextPairs::match(ev);
        QCOMPARE(cp->matchedCount() + int(cp->unmatchedEnters().size()), 2000);
        const auto &spans = cp->spans();
        // row layout: spans in one row never overlap
        std::vector<double> rowEnd(size_t(cp->depthCount()), -1.0);
        for (const auto &s : spans) {
            QVERIFY(s.start > rowEnd[size_t(s.depth)]);
            rowEnd[size_t(s.depth)] = s.end;
        }
        for (int q = 0; q < 300; ++q) {
            const double from = std::uniform_real_distribution<>(-1, t + 1)(rng);
            const double to = from + std::pow(10.0, std::uniform_real_distribution<>(-5, 1)(rng));
            std::vector<int> brute;
            for (int k = 0; k < int(spans.size()); ++k) {
                if (spans[size_t(k)].start <= to && spans[size_t(k)].end >= from) {
                    brute.push_back(k);
                }
            }
            QCOMPARE(cp->overlapCount(from, to), int(brute.size()));
            std::vector<int> got;
            QVERIFY(cp->spansIn(from, to, 100000, &got));
            QCOMPARE(got, brute);
            if (brute.size() > 2) {
                QVERIFY(!cp->spansIn(from, to, int(brute.size()) - 1, &got));
                QVERIFY(got.empty());
            }
            const int w = 1 + int(rng() % 300);
            const double cw = (to - from) / w;
            std::vector<int> cols(static_cast<size_t>(w));
            cp->overlapCounts(from, cw, w, cols.data());
            for (int k = 0; k < w; ++k) {
                const double a = from + double(k) * cw, b = from + double(k + 1) * cw;
                const int n = int(std::count_if(spans.begin(), spans.end(), [&](const auto &s) {
                    return s.start < b && s.end >= a;
                }));
                QCOMPARE(cols[size_t(k)], n);
            }
        }
    }

    void fixtureCallsGenerations() {
        const QJsonObject m = manifest().value("calls-generations.lct").toObject();
        QVERIFY(!m.isEmpty());
        const QJsonObject want = m.value("context_pairs").toObject();
        QString error;
        auto doc =
            TraceLoader::load(QStringLiteral(LMCT_FIXTURES "/calls-generations.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(ContextPairs::families(doc->records()), QStringList{kFamily});
        const auto cp = ContextPairs::build(*doc, kFamily);
        QCOMPARE(cp->matchedCount(), want.value("matched").toInt());
        QCOMPARE(int(cp->unmatchedEnters().size()), want.value("unmatched_enter").toInt());
        QCOMPARE(int(cp->unmatchedExits().size()), want.value("unmatched_exit").toInt());
        QCOMPARE(cp->matchedCount(), 3);
        // each matched pair carries the same decoded key list
        for (const auto &s : cp->spans()) {
            const auto a = ObjectKey::collect(doc->args(s.enter)->value);
            const auto b = ObjectKey::collect(doc->args(s.exit)->value);
            QVERIFY(!a.isEmpty());
            QCOMPARE(a.size(), b.size());
            for (int i = 0; i < a.size(); ++i) {
                QCOMPARE(a[i].chunkHash, b[i].chunkHash);
                QCOMPARE(a[i].kvRank, b[i].kvRank);
            }
            QVERIFY(s.exit > s.enter);
        }
    }

    void fixturesAgreeWithManifest() {
        // every fixture that opens: pairing as the generator's own FIFO matcher says
        const QJsonObject all = manifest();
        int checked = 0;
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject m = it.value().toObject();
            if (!m.value("opens").toBool()) {
                continue;
            }
            QString error;
            auto doc = TraceLoader::load(QStringLiteral(LMCT_FIXTURES "/") + it.key(), &error);
            QVERIFY2(doc, qPrintable(it.key() + ": " + error));
            const QJsonObject want = m.value("context_pairs").toObject();
            int matched = 0, ue = 0, ux = 0;
            for (const QString &f : ContextPairs::families(doc->records())) {
                const auto cp = ContextPairs::build(*doc, f);
                matched += cp->matchedCount();
                ue += int(cp->unmatchedEnters().size());
                ux += int(cp->unmatchedExits().size());
            }
            QVERIFY2(
                matched == want.value("matched").toInt() &&
                    ue == want.value("unmatched_enter").toInt() &&
                    ux == want.value("unmatched_exit").toInt(),
                qPrintable(
                    QStringLiteral("%1: %2/%3/%4").arg(it.key()).arg(matched).arg(ue).arg(ux)));
            ++checked;
        }
        QVERIFY(checked > 10);
    }

    void referenceTracesEveryEnterHasAnExit() {
        const QDir dir(QStringLiteral(LMCT_TRACES));
        int withPairs = 0;
        for (const QString &name : dir.entryList({"*.lct", "*.lmct"}, QDir::Files)) {
            QString error;
            auto doc = TraceLoader::load(dir.filePath(name), &error);
            if (!doc) {
                continue;
            }
            const RecordStore &rs = doc->records();
            for (const QString &f : ContextPairs::families(rs)) {
                const auto cp = ContextPairs::build(*doc, f);
                const qint64 enters =
                    rs.qualnameCounts()[size_t(rs.qualnameIdOf(f + ".__enter__"))];
                QVERIFY2(cp->unmatchedEnters().empty() && cp->unmatchedExits().empty(),
                         qPrintable(name));
                QCOMPARE(qint64(cp->matchedCount()), enters);
                for (const auto &s : cp->spans()) {
                    QVERIFY(s.exit > s.enter);
                    QVERIFY(s.end >= s.start);
                    QCOMPARE(cp->spanOfRecord(s.enter), int(&s - cp->spans().data()));
                }
                ++withPairs;
            }
        }
        QVERIFY(withPairs >= 6);
    }

    void skimSkipsAndFinds() {
        // {"a": [1, {"k": "v"}], "keys": [b"\x01\x02"], "z": 1.5}
        const QByteArray m = QByteArray::fromHex(
            "83"
            "a161"
            "92"
            "01"
            "81a16ba176"
            "a46b657973"
            "91"
            "c4020102"
            "a17a"
            "cb3ff8000000000000");
        const auto *d = reinterpret_cast<const uchar *>(m.constData());
        QCOMPARE(MsgpackSkim::skip(d, m.size(), 0), qint64(m.size()));
        const qint64 keys = MsgpackSkim::findInMap(d, m.size(), 0, "keys");
        QCOMPARE(keys, qint64(m.indexOf(QByteArray::fromHex("91c402"))));
        QCOMPARE(MsgpackSkim::skip(d, m.size(), keys), keys + 5);
        QCOMPARE(MsgpackSkim::findInMap(d, m.size(), 0, "nope"), qint64(-1));
        QCOMPARE(MsgpackSkim::findInMap(d, m.size(), keys, "a"), qint64(-1));  // not a map
        // cut short anywhere: never past the end
        for (int cut = 0; cut < m.size(); ++cut) {
            QCOMPARE(MsgpackSkim::skip(d, cut, 0), qint64(-1));
        }
        // hostile: array32 claiming 2^32-1 elements, map32 likewise, bin32 of 4 GiB, 0xc1
        for (const char *hex : {"ddffffffff01", "dfffffffff0101", "c6ffffffff00", "c1", "9f"}) {
            const QByteArray h = QByteArray::fromHex(hex);
            QCOMPARE(MsgpackSkim::skip(reinterpret_cast<const uchar *>(h.constData()), h.size(), 0),
                     qint64(-1));
        }
        // deep nesting is fine without recursion: 100000 nested arrays of one element
        QByteArray deep(100000, char(0x91));
        deep.append(char(0x01));
        QCOMPARE(
            MsgpackSkim::skip(reinterpret_cast<const uchar *>(deep.constData()), deep.size(), 0),
            qint64(deep.size()));
    }

    void skimHashIgnoresWidths() {
        auto hex = [](const char *h) { return QByteArray::fromHex(h); };
        auto hash = [](const QByteArray &v) {
            quint64 a = 0, b = 0;
            const bool ok = MsgpackSkim::canonicalHash(v, &a, &b);
            return ok ? std::make_pair(a, b) : std::make_pair(quint64(0), quint64(0));
        };
        // [1, "ab", b"\x00"] as fixarray/fixint/fixstr/bin8 and array32/uint64/str16/bin32
        const QByteArray small = hex("9301a26162c40100");
        const QByteArray wide = hex("dd00000003cf0000000000000001da00026162c60000000100");
        QCOMPARE(hash(small), hash(wide));
        QVERIFY(hash(small).first != 0);
        QCOMPARE(hash(hex("81a161cb3ff8000000000000")),
                 hash(hex("de0001d90161ca3fc00000")));               // 1.5
        QCOMPARE(hash(hex("ff")), hash(hex("d3ffffffffffffffff")));  // -1
        QVERIFY(hash(hex("9301a26162c40100")) != hash(hex("9301a26162c40101")));
        QVERIFY(hash(hex("a161")) != hash(hex("c40161")));                     // str vs bin
        QVERIFY(hash(hex("01")) != hash(hex("cb3ff0000000000000")));           // 1 vs 1.0
        QVERIFY(hash(hex("9201")) == std::make_pair(quint64(0), quint64(0)));  // cut short
        quint64 a = 0, b = 0;
        QVERIFY(!MsgpackSkim::canonicalHash(hex("0101"), &a, &b));          // trailing bytes
        QVERIFY(!MsgpackSkim::canonicalHash(hex("ddffffffff01"), &a, &b));  // hostile claim
        // long payloads: every byte counts, on both halves
        QByteArray p1(1000, 'x'), p2(1000, 'x');
        p2[997] = 'y';
        const QByteArray s1 = hex("da03e8") + p1, s2 = hex("da03e8") + p2;
        QVERIFY(hash(s1).first != hash(s2).first && hash(s1).second != hash(s2).second);
        // pairing uses it: an enter written with array16 closes with an exit in array32
        const QByteArray k16 = hex("dc0001c4020102"), k32 = hex("dd00000001c4020102");
        const std::vector<Ev> ev{{0, 1.0, true, k16}, {1, 2.0, false, k32}};
        QCOMPARE(ContextPairs::match(ev)->matchedCount(), 1);
        QCOMPARE(ContextPairs::keyId(k16), ContextPairs::keyId(k32));
    }
};

QTEST_GUILESS_MAIN(TstContextPairs)
#include "tst_contextpairs.moc"
