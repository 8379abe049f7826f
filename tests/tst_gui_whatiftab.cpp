// Widget tests of what the What-if tab says beside its curves: why a scope has nothing to plot
// (and capacity ticks that are right for any range), the configured L1 in chunks as `lmct whatif`
// counts it, sizes written so that `lmct whatif --capacity` reads them, the warning of a damaged
// trace, and the pieces it shares with the Compare pane and the reports (the curve plot, the
// bucket labels).

#include "cache/bucketlabel.h"
#include "cachetracewriter.h"
#include "common/capacityticker.h"
#include "common/whatifcurveplot.h"
#include "panes/cachebehaviourpane.h"
#include "panes/cachewhatiftab.h"
#include "panes/comparepane.h"
#include "report/reportsections.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"
#include "whatif/capacityspec.h"
#include "whatif/chunksize.h"
#include "whatif/usesequence.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <memory>

using namespace lmct;
using namespace lmct::test;
using Kind = CachePolicy::Kind;

namespace {

const QString kModelA = QStringLiteral("Qwen/Qwen3-8B");
const QString kModelB = QStringLiteral("meta-llama/Llama-3.1-8B");
const std::vector<qint64> kShapeA{2, 8, 16, 64};  // 32 KiB per object
const std::vector<qint64> kShapeB{2, 8, 16, 16};  // 8 KiB per object

QString configWithL1(quint64 bytes) {
    return QStringLiteral(R"({"eviction_config": {"eviction_policy": "LRU"}, )"
                          R"("l1_manager_config": {"memory_config": {"size_in_bytes": %1}}})")
        .arg(bytes);
}

TKey keyOf(int n, const QString &model) {
    TKey k = key(n);
    k.model = model;
    return k;
}

/** Model A: `keysA` keys with layout A, written then prefetched twice; model B: 10 keys with
 *  layout B, written only when `prefetchB` is false. */
QByteArray twoModels(const QString &config, int keysA = 30, bool prefetchB = true) {
    CacheTraceWriter w(2, config);
    double t = 0.01;
    std::vector<TKey> a, b;
    for (int i = 0; i < keysA; ++i) {
        a.push_back(keyOf(i, kModelA));
    }
    for (int i = 0; i < 10; ++i) {
        b.push_back(keyOf(5000 + i, kModelB));
    }
    w.reserveWithLayout(t, a, kShapeA);
    w.call(t += 0.01, QStringLiteral("finish_write"), a);
    w.reserveWithLayout(t += 0.01, b, kShapeB);
    w.call(t += 0.01, QStringLiteral("finish_write"), b);
    for (int round = 0; round < 2; ++round) {
        w.call(t += 0.1, QStringLiteral("submit_prefetch_task"), a, KeysAt::Spec,
               QStringLiteral("a%1").arg(round));
        if (prefetchB) {
            w.call(t += 0.1, QStringLiteral("submit_prefetch_task"), b, KeysAt::Spec,
                   QStringLiteral("b%1").arg(round));
        }
    }
    return w.bytes();
}

struct Pane {
    ViewState state;
    CacheBehaviourPane pane;
    CacheWhatIfTab *tab() { return pane.whatIfTab(); }
};

std::unique_ptr<Pane> analysed(const QByteArray &bytes) {
    auto p = std::make_unique<Pane>();
    QString error;
    p->state.setDocument(TraceLoader::loadBytes(bytes, QStringLiteral("whatif.lct"), &error));
    if (!p->state.document()) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    p->pane.resize(1200, 760);
    p->pane.show();
    p->pane.tabs()->setCurrentIndex(CacheBehaviourPane::WhatIfTab);
    QSignalSpy done(&p->pane, &CacheBehaviourPane::analysisFinished);
    p->pane.setViewState(&p->state);
    return done.wait(60000) ? std::move(p) : nullptr;
}

bool idle(CacheWhatIfTab *tab) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        if (!tab->isRunning() && tab->uses()) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

/** The labels `ticker` gives the ticks of [lower, upper]. */
QVector<QString> labelsOf(CapacityTicker &ticker, double lower, double upper,
                          QVector<double> *ticks = nullptr) {
    QVector<double> t, sub;
    QVector<QString> labels;
    ticker.generate(QCPRange(lower, upper), QLocale::c(), QLatin1Char('g'), 6, t, &sub, &labels);
    if (ticks) {
        *ticks = t;
    }
    return labels;
}

/** The value a chunk tick label stands for ("2.5k" is 2500). */
double valueOf(const QString &label) {
    static const QString kSuffix = QStringLiteral("kMGTPE");
    QString n = label;
    double scale = 1;
    if (!n.isEmpty() && kSuffix.contains(n.back())) {
        scale = std::pow(1000.0, double(kSuffix.indexOf(n.back()) + 1));
        n.chop(1);
    }
    bool ok = false;
    const double v = n.toDouble(&ok);
    return ok ? v * scale : std::nan("");
}

}  // namespace

class TestWhatIfTabSays : public QObject {
    Q_OBJECT
private slots:
    void regression_configuredTagPointsAtItsLine() {
        // The tag of a configured capacity in the right half stood left of its line, reaching
        // the capacity line, and read as that line's: it is framed and points at its own line.
        WhatIfCurvePlot plot(WhatIfCurvePlot::Legend::Inside);
        plot.resize(700, 300);
        plot.xAxis->setRange(1, 10000);
        plot.yAxis->setRange(0, 100);
        for (const double c : {2000.0, 3.0}) {
            plot.showConfigured(c, QStringLiteral("configured L1 48 GiB · LRU"));
            plot.replot(QCustomPlot::rpImmediateRefresh);
            QCPItemText *tag = plot.configuredTag();
            const double line = plot.xAxis->coordToPixel(c);
            const QRectF box =
                QRectF(tag->topLeft->pixelPosition(), tag->bottomRight->pixelPosition())
                    .normalized();
            if (c > 100) {  // right half: left of the line, pointing right at it
                QVERIFY2(tag->text().endsWith(QStringLiteral(" ▸")), qPrintable(tag->text()));
                QVERIFY2(std::abs(box.right() - line) < 2.0,
                         qPrintable(QStringLiteral("%1 vs %2").arg(box.right()).arg(line)));
            } else {
                QVERIFY2(tag->text().startsWith(QStringLiteral("◂ ")), qPrintable(tag->text()));
                QVERIFY2(std::abs(box.left() - line) < 2.0,
                         qPrintable(QStringLiteral("%1 vs %2").arg(box.left()).arg(line)));
            }
            QVERIFY(tag->pen().style() != Qt::NoPen);  // framed
        }
    }

    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void traceWithoutKeyCallsSaysWhy() {
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("cancel_prefetch_task"), {}, KeysAt::None);
        w.call(0.2, QStringLiteral("cancel_prefetch_task"), {}, KeysAt::None);
        auto p = analysed(w.bytes());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(idle(tab));
        const QString why = tab->emptyReason();
        QVERIFY2(why.startsWith(QStringLiteral("Nothing to plot: the trace has no key calls.\n")),
                 qPrintable(why));
        // in the curves' place, and in the reading at C; no curve, no slider to move
        QCOMPARE(tab->hitPlot()->message(), why);
        QVERIFY(tab->hitPlot()->messageItem()->visible());
        QVERIFY(tab->hitPlot()->messageItem()->text().contains(QStringLiteral("no key calls")));
        QCOMPARE(tab->capacityText(),
                 QStringLiteral("Nothing to plot: the trace has no key calls."));
        QVERIFY(!tab->capacitySlider()->isEnabled());
        for (Kind k : CachePolicy::all()) {
            QVERIFY(!tab->curveGraph(k));
        }
        QVERIFY(!tab->capacityMarker()->visible());
        // the capacity axis is labelled right: every tick its own value ("1 2 5 10")
        tab->hitPlot()->replot();
        QCPAxis *x = tab->hitPlot()->xAxis;
        const QVector<double> ticks = x->tickVector();
        const QVector<QString> labels = x->tickVectorLabels();
        QVERIFY(labels.size() >= 3);
        for (int i = 0; i < ticks.size(); ++i) {
            QCOMPARE(valueOf(labels[i]), ticks[i]);
        }
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
    }

    void scopeWithoutPrefetchesSaysWhy() {
        // model B's keys are written, never prefetched
        auto p = analysed(twoModels(QString(), 30, false));
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(idle(tab));
        QCOMPARE(tab->emptyReason(), QString());  // all models: model A's prefetches
        QVERIFY(!tab->hitPlot()->messageItem()->visible());
        QComboBox *models = tab->reuseModelSelector();
        models->setCurrentIndex(models->findText(kModelB));
        QVERIFY(idle(tab));
        QVERIFY2(tab->emptyReason().startsWith(
                     QStringLiteral("Nothing to plot: the keys of %1 are never prefetched.")
                         .arg(kModelB)),
                 qPrintable(tab->emptyReason()));
        QVERIFY(tab->hitPlot()->messageItem()->visible());
        for (Kind k : CachePolicy::all()) {
            QVERIFY(!tab->curveGraph(k));
        }
        QVERIFY(!p->state.hitOverTime());  // nothing to draw under the lanes either
        // back to model A: curves again, no message
        models->setCurrentIndex(models->findText(kModelA));
        QVERIFY(idle(tab));
        QTRY_VERIFY_WITH_TIMEOUT(tab->curveGraph(Kind::Fifo), 30000);
        QVERIFY(!tab->hitPlot()->messageItem()->visible());
        QVERIFY(tab->capacitySlider()->isEnabled());
    }

    void capacityTicksForAnyRange_data() {
        QTest::addColumn<double>("lower");
        QTest::addColumn<double>("upper");
        QTest::newRow("one key") << 0.7 << 10.0;
        QTest::newRow("a few") << 0.7 << 15.0;
        QTest::newRow("under two decades") << 3.0 << 200.0;
        QTest::newRow("within a decade") << 120.0 << 900.0;
        QTest::newRow("thousands") << 1500.0 << 9000.0;
        QTest::newRow("many decades") << 0.7 << 1.5e6;
        QTest::newRow("millions") << 2e6 << 9e9;
        QTest::newRow("one octave") << 1000.0 << 2000.0;
    }

    void capacityTicksForAnyRange() {
        QFETCH(double, lower);
        QFETCH(double, upper);
        CapacityTicker chunks(WhatIfAnalysis::Unit::Chunks);
        QVector<double> ticks;
        const QVector<QString> labels = labelsOf(chunks, lower, upper, &ticks);
        QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
        for (int i = 0; i < ticks.size(); ++i) {
            QVERIFY2(qAbs(valueOf(labels[i]) - ticks[i]) <= 0.005 * ticks[i],
                     qPrintable(QStringLiteral("%1 labelled %2").arg(ticks[i]).arg(labels[i])));
        }
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        // in bytes: each tick its own size
        CapacityTicker bytes(WhatIfAnalysis::Unit::Bytes);
        const double k = 32768;
        const QVector<QString> sizes = labelsOf(bytes, lower * k, upper * k, &ticks);
        QVERIFY(ticks.size() >= 2);
        for (int i = 0; i < ticks.size(); ++i) {
            QCOMPARE(sizes[i], ConfiguredRun::bytesText(ticks[i]));
        }
        QCOMPARE(QSet<QString>(sizes.begin(), sizes.end()).size(), sizes.size());
    }

    void configuredChunksAsLmctCountsThem() {
        // Two models of 32 KiB and 8 KiB per object: the configured L1 in chunks by the mean
        // size, in the tab as in `lmct whatif --json`.
        const QByteArray bytes = twoModels(configWithL1(quint64(64) << 20));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = writeFile(dir, QStringLiteral("two.lct"), bytes);
        const ProcessRun r = runLmct({QStringLiteral("whatif"), QStringLiteral("--json"),
                                      QStringLiteral("--policy"), QStringLiteral("lru"), file});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const qint64 cliChunks =
            o[QStringLiteral("configured")][QStringLiteral("chunks")].toInteger(-1);
        const ChunkSize size(40, 30 * 32768 + 10 * 8192, 8192, 32768);
        QCOMPARE(cliChunks, qint64(*size.chunksFor(quint64(64) << 20)));  // 64 MiB / 26 KiB: 2520

        auto p = analysed(bytes);
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(idle(tab));
        QVERIFY2(tab->configuredText().startsWith(
                     QStringLiteral("You ran LRU at 64 MiB ≈ %1 chunks").arg(cliChunks)),
                 qPrintable(tab->configuredText()));
        QCOMPARE(tab->configuredLine()->point1->coords().x(), double(cliChunks));
    }

    void sizesAreWrittenAsLmctReadsThem() {
        // In a German locale too, sizes and chunk counts the tab writes parse as capacities.
        const QLocale previous;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        // 2000 keys of 32 KiB, an L1 of 64 MiB: 2048 chunks (not "2.048")
        const QByteArray bytes = twoModels(configWithL1(quint64(64) << 20), 2000, false);
        auto p = analysed(bytes);
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(idle(tab));
        QComboBox *models = tab->reuseModelSelector();
        models->setCurrentIndex(models->findText(kModelA));
        QVERIFY(idle(tab));
        QVERIFY2(
            tab->configuredText().startsWith(QStringLiteral("You ran LRU at 64 MiB ≈ 2048 chunks")),
            qPrintable(tab->configuredText()));
        tab->bytesButton()->click();
        QVERIFY(idle(tab));
        // a size such as 1.84 GiB: what the label says is a capacity lmct takes
        QRegularExpressionMatch m;
        for (int v = 700; v < 800 && !m.captured(1).contains(QLatin1Char('.')); ++v) {
            tab->capacitySlider()->setValue(v);
            m = QRegularExpression(
                    QStringLiteral("^C = ([0-9.]+ [KMGT]?i?B) \\(≈ ([0-9]+) chunks?\\)"))
                    .match(tab->capacityText());
            QVERIFY2(m.hasMatch(), qPrintable(tab->capacityText()));
        }
        QVERIFY2(m.captured(1).contains(QLatin1Char('.')), qPrintable(tab->capacityText()));
        QString error;
        const auto spec = CapacitySpec::parse(m.captured(1), &error);
        QVERIFY2(spec && spec->bytes, qPrintable(error));
        // it stands for the slider's capacity to the three digits shown
        QVERIFY(qAbs(double(spec->value) - double(tab->capacity())) <=
                0.005 * double(tab->capacity()));
        const auto chunks = CapacitySpec::parse(m.captured(2), &error);
        QVERIFY2(chunks && !chunks->bytes, qPrintable(error));
        QCOMPARE(chunks->value, *ChunkSize::of(*tab->uses()).chunksFor(quint64(tab->capacity())));
        QLocale::setDefault(previous);
    }

    void damagedTraceIsWarnedOf() {
        const QByteArray whole = twoModels(QString());
        auto ok = analysed(whole);
        QVERIFY(ok);
        QCOMPARE(ok->tab()->damageText(), QString());
        // cut inside its last frame: the tab says so, as the Compare pane words it
        auto cut = analysed(whole.left(whole.size() - 7));
        QVERIFY(cut);
        QVERIFY(idle(cut->tab()));
        const QString warning = cut->tab()->damageText();
        QVERIFY2(warning.startsWith(QStringLiteral("⚠ whatif.lct is damaged: its last record cut "
                                                   "short")),
                 qPrintable(warning));
        QVERIFY2(warning.contains(QStringLiteral("its figures cover the ")), qPrintable(warning));
    }

    void curvesAndLabelsAreShared() {
        // one curve plot for the tab and the Compare pane
        CacheBehaviourPane pane;
        QVERIFY(qobject_cast<WhatIfCurvePlot *>(pane.whatIfTab()->hitPlot()));
        ComparePane compare;
        auto *curves = qobject_cast<WhatIfCurvePlot *>(compare.whatIfPlot());
        QVERIFY(curves);
        QVERIFY(dynamic_cast<CapacityTicker *>(curves->xAxis->ticker().data()));
        QCOMPARE(curves->title(),
                 QStringLiteral("What-if: prefetch hit ratio (A solid, B dashed)"));
        // one bucket label for the tab's histograms and the reports
        for (const quint64 us : {quint64(0), quint64(1), quint64(512), quint64(1024),
                                 quint64(1) << 20, quint64(1) << 26, quint64(1) << 33}) {
            QCOMPARE(ReportSections::bucketLabel(us, true), BucketLabel::micros(us));
            QCOMPARE(ReportSections::bucketLabel(us, false), BucketLabel::count(us));
        }
        QCOMPARE(BucketLabel::micros(quint64(1) << 26), QStringLiteral("1.1min"));
        QCOMPARE(BucketLabel::micros(99600), QStringLiteral("100ms"));  // no "1e+02ms"
        QCOMPARE(BucketLabel::count(quint64(1) << 30), QStringLiteral("1G"));
        auto p = analysed(twoModels(QString()));
        QVERIFY(p);
        QCustomPlot *time = p->tab()->histogramPlot(CacheBehaviourPane::DistanceTimeHistogram);
        auto *ticker = dynamic_cast<QCPAxisTickerText *>(time->xAxis->ticker().data());
        QVERIFY(ticker && !ticker->ticks().isEmpty());
        for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
            QCOMPARE(it.value(), BucketLabel::micros(ReuseAnalysis::bucketFloor(int(it.key()))));
        }
    }
};

QTEST_MAIN(TestWhatIfTabSays)
#include "tst_gui_whatiftab.moc"
