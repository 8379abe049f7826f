// The what-if's scope helpers: ChunkSize (the one rule that turns bytes into chunks, shared by
// `lmct whatif` and the What-if tab) and WhatIfScope (a scope's counts and why it has nothing to
// plot: no key calls, keys never used, keys never prefetched).

#include "cache/cacheanalysis.h"
#include "cachetracewriter.h"
#include "trace/traceloader.h"
#include "whatif/chunksize.h"
#include "whatif/usesequence.h"
#include "whatif/whatifscope.h"

#include <QtTest>
#include <limits>

using namespace lmct;
using namespace lmct::test;

namespace {

constexpr quint64 kMiB = quint64(1) << 20;
constexpr quint64 kGiB = quint64(1) << 30;

struct Analysed {
    std::shared_ptr<const TraceDocument> doc;
    std::shared_ptr<const CacheAnalysis> analysis;
};

Analysed analyse(const QByteArray &bytes) {
    Analysed a;
    QString error;
    a.doc = TraceLoader::loadBytes(bytes, QStringLiteral("scope.lct"), &error);
    if (!a.doc) {
        qWarning("%s", qPrintable(error));
        return a;
    }
    a.analysis = CacheAnalysis::run(*a.doc);
    return a;
}

TKey keyOf(int n, const QString &model) {
    TKey k = key(n);
    k.model = model;
    return k;
}

}  // namespace

class TestWhatIfScope : public QObject {
    Q_OBJECT
private slots:
    void chunkSizeOfOneSize() {
        const ChunkSize s(10, 10 * 36 * kMiB, 36 * kMiB, 36 * kMiB);
        QVERIFY(s.isKnown());
        QVERIFY(s.isUniform());
        QCOMPARE(s.perKey(), 36 * kMiB);
        QCOMPARE(s.meanBytes(), 36 * kMiB);
        // 48 GiB of 36 MiB objects: 1365.33 rounds down
        QCOMPARE(s.chunksFor(48 * kGiB), std::optional<quint64>(1365));
        QCOMPARE(s.chunksFor(36 * kMiB), std::optional<quint64>(1));
        QCOMPARE(s.chunksFor(36 * kMiB - 1), std::optional<quint64>(1));  // at least one
        QCOMPARE(s.chunksFor(1), std::optional<quint64>(1));
        QCOMPARE(s.bytesFor(1365), std::optional<quint64>(1365 * 36 * kMiB));
    }

    void chunkSizeOfMixedSizes() {
        // two models: 3 keys of 2 MiB, 1 of 36 MiB; the mean is 10.5 MiB, exactly
        const ChunkSize s(4, 3 * 2 * kMiB + 36 * kMiB, 2 * kMiB, 36 * kMiB);
        QVERIFY(s.isKnown());
        QVERIFY(!s.isUniform());
        QCOMPARE(s.perKey(), quint64(0));
        QCOMPARE(s.smallest(), 2 * kMiB);
        QCOMPARE(s.largest(), 36 * kMiB);
        QCOMPARE(s.meanBytes(), quint64(10.5 * kMiB));
        // 64 GiB / 10.5 MiB = 6241.52: rounded down, from the exact mean (not a rounded one)
        QCOMPARE(s.chunksFor(64 * kGiB), std::optional<quint64>(6241));
        // a mean that is no whole byte: 3 keys of 10 bytes in all
        const ChunkSize odd(3, 10, 3, 4);
        QCOMPARE(odd.meanBytes(), quint64(3));
        QCOMPARE(odd.chunksFor(10), std::optional<quint64>(3));    // the 10 bytes hold the 3 keys
        QCOMPARE(odd.chunksFor(100), std::optional<quint64>(30));  // 100 / 3.33, not 100 / 3
        QCOMPARE(odd.bytesFor(30), std::optional<quint64>(100));
    }

    void chunkSizeUnknown() {
        const ChunkSize none;
        QVERIFY(!none.isKnown());
        QVERIFY(!none.isUniform());
        QCOMPARE(none.chunksFor(48 * kGiB), std::optional<quint64>());
        QCOMPARE(none.bytesFor(3), std::optional<quint64>());
        QCOMPARE(none.meanBytes(), quint64(0));
        QVERIFY(!ChunkSize(0, 100, 1, 1).isKnown());
        QVERIFY(!ChunkSize(3, 0, 0, 0).isKnown());
        // no sizes in the sequence: unknown
        const std::vector<quint32> keys{0, 1, 0};
        const std::vector<quint8> kinds{UseSequence::Write, UseSequence::Write,
                                        UseSequence::Prefetch};
        QVERIFY(!ChunkSize::of(*UseSequence::fromKeys(keys, kinds)).isKnown());
        const std::vector<quint64> sizes{100, 300};
        const ChunkSize of = ChunkSize::of(*UseSequence::fromKeys(keys, kinds, sizes));
        QCOMPARE(of.keys(), quint64(2));
        QCOMPARE(of.totalBytes(), quint64(400));
        QCOMPARE(of.smallest(), quint64(100));
        QCOMPARE(of.largest(), quint64(300));
    }

    void chunkSizeSaturates() {
        const quint64 max = std::numeric_limits<quint64>::max();
        const ChunkSize s(2, 2, 1, 1);
        QCOMPARE(s.chunksFor(max), std::optional<quint64>(max));
        QCOMPARE(s.bytesFor(max), std::optional<quint64>(max));
        const ChunkSize big(1, max, max, max);
        QCOMPARE(big.bytesFor(max), std::optional<quint64>(max));
        QCOMPARE(big.chunksFor(max), std::optional<quint64>(1));
    }

    void noKeyCallsIsSaidSo() {
        // a trace with records but no key calls
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("cancel_prefetch_task"), {}, KeysAt::None);
        const Analysed a = analyse(w.bytes());
        QVERIFY(a.analysis);
        const WhatIfScope s(a.analysis.get(), UseSequence::Scope{});
        QVERIFY(s.countsKnown());
        QCOMPARE(s.uses(), qint64(0));
        QCOMPARE(s.keys(), qint64(1));  // (a log axis up to it)
        QCOMPARE(s.bestRatio(), 0.0);
        QVERIFY2(s.emptyReason(QStringLiteral("all models"))
                     .startsWith(QStringLiteral("Nothing to plot: the trace has no key calls.\n")),
                 qPrintable(s.emptyReason(QStringLiteral("all models"))));
        // a tenant scope says the same before its uses are built
        UseSequence::Scope tenant;
        tenant.salt = UseSequence::kNoSalt;
        QVERIFY(WhatIfScope(a.analysis.get(), tenant)
                    .emptyReason(QStringLiteral("x"))
                    .startsWith(QStringLiteral("Nothing to plot: the trace has no key calls.")));
        // no analysis: nothing said
        QCOMPARE(WhatIfScope(nullptr, UseSequence::Scope{}).emptyReason(QStringLiteral("x")),
                 QString());
    }

    void scopeWithoutUsesOrPrefetches() {
        // model A: written and prefetched; model B: written, never prefetched; model C: only
        // reserved (no use at all)
        CacheTraceWriter w;
        const QString a = QStringLiteral("A/a"), b = QStringLiteral("B/b"),
                      c = QStringLiteral("C/c");
        w.call(0.1, QStringLiteral("finish_write"), {keyOf(1, a), keyOf(2, a)});
        w.call(0.2, QStringLiteral("submit_prefetch_task"), {keyOf(1, a)}, KeysAt::Spec,
               QStringLiteral("r"));
        w.call(0.3, QStringLiteral("finish_write"), {keyOf(3, b)});
        w.call(0.4, QStringLiteral("reserve_write"), {keyOf(4, c)});
        const Analysed an = analyse(w.bytes());
        QVERIFY(an.analysis);
        const KeyAnalysis &ka = *an.analysis->keys;
        auto scopeOf = [&](const QString &model) {
            UseSequence::Scope s;
            s.model = int(ka.models().indexOf(model));
            return s;
        };
        const WhatIfScope all(an.analysis.get(), UseSequence::Scope{});
        QCOMPARE(all.emptyReason(QStringLiteral("all models")), QString());
        QCOMPARE(all.prefetches(), qint64(1));
        QCOMPARE(all.bestRatio(), 1.0);
        QCOMPARE(all.keys(), qint64(4));
        const WhatIfScope sa(an.analysis.get(), scopeOf(a));
        QCOMPARE(sa.emptyReason(a), QString());
        QCOMPARE(sa.keys(), qint64(2));
        const WhatIfScope sb(an.analysis.get(), scopeOf(b));
        QVERIFY2(sb.emptyReason(b).startsWith(
                     QStringLiteral("Nothing to plot: the keys of B/b are never prefetched.\n")),
                 qPrintable(sb.emptyReason(b)));
        const WhatIfScope sc(an.analysis.get(), scopeOf(c));
        QVERIFY2(sc.emptyReason(c).startsWith(
                     QStringLiteral("Nothing to plot: the keys of C/c are never used.\n")),
                 qPrintable(sc.emptyReason(c)));
        // once the uses are built, they count (here: model C's, none)
        const auto uses = UseSequence::build(*an.doc, an.analysis->keys, scopeOf(c));
        QVERIFY(uses);
        QCOMPARE(uses->size(), quint32(0));
        const WhatIfScope built(an.analysis.get(), scopeOf(c), uses.get(), 0);
        QVERIFY(built.countsKnown());
        QVERIFY(built.emptyReason(c).contains(QStringLiteral("never used")));
        // a tenant scope is not known before its uses
        UseSequence::Scope tenant;
        tenant.salt = 0;
        QVERIFY(!WhatIfScope(an.analysis.get(), tenant).countsKnown());
        QCOMPARE(WhatIfScope(an.analysis.get(), tenant).emptyReason(QStringLiteral("t")),
                 QString());
    }
};

QTEST_GUILESS_MAIN(TestWhatIfScope)
#include "tst_whatifscope.moc"
