// Widget tests of the What-if tab of the Cache Behaviour pane: one curve per checked policy,
// worked out off the GUI thread; chunks or bytes; the configured L1 capacity marked and read;
// model and tenant scopes; the hit ratio over time handed to the ViewState and drawn by the
// timeline under its lanes.

#include "cachetracewriter.h"
#include "common/policycolors.h"
#include "panes/cachebehaviourpane.h"
#include "panes/cachewhatiftab.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "viewstate.h"
#include "whatif/configuredrun.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <qcustomplot.h>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <memory>

using namespace lmct;
using namespace lmct::test;
using Kind = CachePolicy::Kind;

namespace {

const QString kModelA = QStringLiteral("Qwen/Qwen3-8B");
const QString kModelB = QStringLiteral("meta-llama/Llama-3.1-8B");
// bf16 [2, 8, 16, 64]: 32 KiB per object
const std::vector<qint64> kShape{2, 8, 16, 64};
constexpr quint64 kKeyBytes = 2 * 8 * 16 * 64 * 2;
// an L1 of 512 KiB: 16 keys of model A
const QString kConfig = QStringLiteral(
    R"({"eviction_config": {"eviction_policy": "LRU"}, "l1_manager_config": {"memory_config": )"
    R"({"size_in_bytes": 524288}}})");

TKey keyOf(int n, const QString &model, const std::optional<QString> &salt) {
    TKey k = key(n);
    k.model = model;
    k.salt = salt;
    return k;
}

/**
 * Model A: 40 keys with a layout, tenants "tenant-a" (keys 0..19) and "tenant-b" (20..39);
 * model B: 10 keys without layout or cache_salt. All written, then prefetched in rounds that
 * scan the keys with a stride (the policies part ways), each request released with LMCache's
 * own account of its L1 prefix hits.
 */
QByteArray whatIfTrace(const QString &config = kConfig) {
    CacheTraceWriter w(2, config);
    double t = 0.01;
    std::vector<TKey> a, b;
    for (int i = 0; i < 40; ++i) {
        a.push_back(
            keyOf(i, kModelA, i < 20 ? QStringLiteral("tenant-a") : QStringLiteral("tenant-b")));
    }
    for (int i = 0; i < 10; ++i) {
        b.push_back(keyOf(100 + i, kModelB, std::nullopt));
    }
    w.reserveWithLayout(t, a, kShape);
    w.call(t += 0.01, QStringLiteral("finish_write"), a);
    w.call(t += 0.01, QStringLiteral("reserve_write"), b);
    w.call(t += 0.01, QStringLiteral("finish_write"), b);
    int request = 0;
    for (int round = 0; round < 12; ++round) {
        std::vector<TKey> ask;
        for (int i = 0; i < 10; ++i) {
            ask.push_back(a[size_t((i * 7 + round * 3) % 40)]);
        }
        for (int i = 0; i < 3; ++i) {
            ask.push_back(b[size_t((i + round) % 10)]);
        }
        const QString id = QStringLiteral("req-%1").arg(request++);
        w.call(t += 0.5, QStringLiteral("submit_prefetch_task"), ask, KeysAt::Spec, id);
        w.call(t += 0.01, QStringLiteral("read_prefetched_results.__enter__"), ask);
        THandle h;
        h.prefetchRequestId = request;
        h.externalRequestId = id;
        h.l1PrefixHitCount = round % 4;
        h.totalRequestedKeys = qint64(ask.size());
        h.submitTime = CacheTraceWriter::kTMonoStart + t;
        w.release(t += 0.01, h, std::nullopt);
    }
    return w.bytes();
}

struct Pane {
    ViewState state;
    CacheBehaviourPane pane;
    CacheWhatIfTab *tab() { return pane.whatIfTab(); }
};

/** A pane on `bytes`, analysed, its What-if tab current; null after a minute. */
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

/** Waits until the tab's run has ended with a curve for each checked policy. */
bool curvesDone(CacheWhatIfTab *tab) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        bool all = !tab->isRunning();
        for (Kind k : tab->checkedPolicies()) {
            all = all && tab->curveGraph(k) && tab->curveGraph(k)->dataCount() > 1;
        }
        if (all) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

int graphsWithData(QCustomPlot *plot) {
    int n = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
        n += plot->graph(i)->dataCount() > 0;
    }
    return n;
}

/** The What-if analysis of `tab`'s scope and unit, computed here for comparison. */
std::shared_ptr<const WhatIfAnalysis> expected(Pane &p, WhatIfAnalysis::Unit unit) {
    const auto uses =
        UseSequence::build(*p.state.document(), p.pane.analysis()->keys, p.tab()->scope());
    WhatIfAnalysis::Options o;
    o.unit = unit;
    return WhatIfAnalysis::run(uses, o);
}

}  // namespace

class TestWhatIfTab : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void tabIsNamedWhatIf() {
        CacheBehaviourPane pane;
        QCOMPARE(pane.tabs()->tabText(CacheBehaviourPane::WhatIfTab), QStringLiteral("What-if"));
        QCOMPARE(pane.tabs()->widget(CacheBehaviourPane::WhatIfTab), pane.whatIfTab());
        // every policy is checked at first
        for (Kind k : CachePolicy::all()) {
            QVERIFY(pane.whatIfTab()->policyBox(k)->isChecked());
            QCOMPARE(pane.whatIfTab()->policyBox(k)->text(), CachePolicy::label(k));
        }
    }

    void curvesAppearPolicyByPolicy() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        // the run goes off the GUI thread, with its progress bar and a Cancel button
        QVERIFY(tab->isRunning());
        QVERIFY(!tab->progressBar()->isHidden());
        QCOMPARE(tab->runButton()->text(), QStringLiteral("Cancel"));
        QVERIFY(curvesDone(tab));
        QVERIFY(tab->progressBar()->isHidden());
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount);
        QCOMPARE(tab->hitPlot()->legend->itemCount(), CachePolicy::kKindCount);
        // in the WhatIfAnalysis' figures, each in its own colour
        const auto want = expected(*p, WhatIfAnalysis::Unit::Chunks);
        QSet<QRgb> colours;
        for (Kind k : CachePolicy::all()) {
            QCPGraph *g = tab->curveGraph(k);
            QCOMPARE(g->name(), CachePolicy::label(k));
            colours.insert(g->pen().color().rgb());
            const WhatIfAnalysis::Curve *c = want->curve(k);
            QVERIFY(c);
            for (size_t i = 0; i < c->capacities.size(); ++i) {
                const double x = double(c->capacities[i]);
                const auto it = g->data()->findBegin(x, false);
                QVERIFY(it != g->data()->constEnd());
                if (k != Kind::Lru) {  // (LRU is drawn exact between the samples)
                    QCOMPARE(it->key, x);
                }
                QVERIFY2(qAbs(it->value - 100.0 * c->prefetchHitRatio[i]) < 1e-9,
                         qPrintable(QStringLiteral("%1 at %2: %3, not %4")
                                        .arg(CachePolicy::label(k))
                                        .arg(x)
                                        .arg(it->value)
                                        .arg(100.0 * c->prefetchHitRatio[i])));
            }
        }
        QCOMPARE(colours.size(), CachePolicy::kKindCount);
        // the slider reads every policy at C
        const QString text = tab->capacityText();
        for (Kind k : CachePolicy::all()) {
            QVERIFY2(text.contains(QLatin1Char(' ') + CachePolicy::label(k) + QLatin1Char(' ')),
                     qPrintable(text));
        }
        // the ViewState has the choice and, soon, its hit ratio over time
        QCOMPARE(p->state.whatIfChoice().capacity, quint64(tab->capacity()));
        QCOMPARE(p->state.whatIfChoice().policies.size(), size_t(CachePolicy::kKindCount));
        QTRY_VERIFY_WITH_TIMEOUT(p->state.hitOverTime(), 30000);
        QCOMPARE(p->state.hitOverTime()->capacity(), quint64(tab->capacity()));
        QCOMPARE(p->state.hitOverTime()->series().size(), size_t(CachePolicy::kKindCount));
        // with it, the readings at C are exact (no "≈")
        QTRY_VERIFY2(!tab->capacityText().contains(QStringLiteral("≈")),
                     qPrintable(tab->capacityText()));
    }

    void hiddenTabWaitsUntilShown() {
        // The curves are worked out for a tab on screen only.
        ViewState state;
        QString error;
        state.setDocument(TraceLoader::loadBytes(whatIfTrace(), QStringLiteral("w.lct"), &error));
        CacheBehaviourPane pane;
        pane.resize(1200, 760);
        pane.show();
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::KeysTab);
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&state);
        QVERIFY(done.wait(60000));
        CacheWhatIfTab *tab = pane.whatIfTab();
        QVERIFY(!tab->isRunning());
        QTest::qWait(50);
        QVERIFY(!tab->curveGraph(Kind::Fifo));
        QVERIFY(!state.hitOverTime());
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::WhatIfTab);
        QVERIFY(tab->isRunning());
        QVERIFY(curvesDone(tab));
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount);
    }

    void uncheckingAPolicyRemovesItsCurve() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(curvesDone(tab));
        tab->policyBox(Kind::Fifo)->setChecked(false);
        QVERIFY(!tab->curveGraph(Kind::Fifo));
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount - 1);
        QCOMPARE(tab->hitPlot()->legend->itemCount(), CachePolicy::kKindCount - 1);
        QVERIFY2(!tab->capacityText().contains(QStringLiteral(" FIFO ")),  // (S3-FIFO stays)
                 qPrintable(tab->capacityText()));
        QVERIFY(tab->capacityText().contains(QStringLiteral(" S3-FIFO ")));
        tab->policyBox(Kind::Opt)->setChecked(false);
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount - 2);
        QCOMPARE(p->state.whatIfChoice().policies,
                 (std::vector<Kind>{Kind::Lru, Kind::Clock, Kind::S3Fifo, Kind::Arc}));
        // checked again: back at once, from the curve kept (no new run)
        tab->policyBox(Kind::Fifo)->setChecked(true);
        QVERIFY(!tab->isRunning());
        QVERIFY(tab->curveGraph(Kind::Fifo));
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount - 1);
        // the hit ratio over time follows the policies checked
        QTRY_VERIFY_WITH_TIMEOUT(
            p->state.hitOverTime() && p->state.hitOverTime()->series().size() == 5, 30000);
    }

    void cancelKeepsWhatIsDoneAndRunsAgain() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(tab->isRunning());
        QTest::mouseClick(tab->runButton(), Qt::LeftButton);
        QVERIFY(!tab->isRunning());
        QVERIFY(tab->progressBar()->isHidden());
        QTest::qWait(200);  // (curves finished before the cancel may still come in)
        QVERIFY(!tab->isRunning());
        if (!tab->runButton()->isHidden()) {
            QCOMPARE(tab->runButton()->text(), QStringLiteral("Run"));
            QTest::mouseClick(tab->runButton(), Qt::LeftButton);
        }
        QVERIFY(curvesDone(tab));
        QCOMPARE(graphsWithData(tab->hitPlot()), CachePolicy::kKindCount);
    }

    void bytesSwitch() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(curvesDone(tab));
        // All models: model B has no layout, so bytes are unknown and the switch says why
        QVERIFY(!tab->bytesButton()->isEnabled());
        QVERIFY2(tab->bytesButton()->toolTip().contains(QStringLiteral("no memory layout")),
                 qPrintable(tab->bytesButton()->toolTip()));
        QCOMPARE(tab->hitPlot()->xAxis->label(), QStringLiteral("capacity C (chunks)"));
        // model A has one
        QComboBox *models = tab->reuseModelSelector();
        models->setCurrentIndex(models->findText(kModelA));
        QVERIFY(curvesDone(tab));
        QVERIFY(tab->bytesButton()->isEnabled());
        const auto chunks = expected(*p, WhatIfAnalysis::Unit::Chunks);
        tab->bytesButton()->click();
        QCOMPARE(tab->unit(), WhatIfAnalysis::Unit::Bytes);
        QCOMPARE(tab->hitPlot()->xAxis->label(), QStringLiteral("capacity C (bytes)"));
        QVERIFY(curvesDone(tab));
        // the capacities are bytes now: the chunk counts × 32 KiB, with the same ratios
        const auto bytes = expected(*p, WhatIfAnalysis::Unit::Bytes);
        const WhatIfAnalysis::Curve *fifo = bytes->curve(Kind::Fifo);
        QVERIFY(fifo && !fifo->capacities.empty());
        QCPGraph *g = tab->curveGraph(Kind::Fifo);
        for (size_t i = 0; i < fifo->capacities.size(); ++i) {
            QCOMPARE(fifo->capacities[i] % kKeyBytes, quint64(0));
            const auto it = g->data()->findBegin(double(fifo->capacities[i]), false);
            QCOMPARE(it->key, double(fifo->capacities[i]));
            QCOMPARE(it->value, 100.0 * fifo->prefetchHitRatio[i]);
            const WhatIfAnalysis::Curve *inChunks = chunks->curve(Kind::Fifo);
            const quint64 n = fifo->capacities[i] / kKeyBytes;
            for (size_t j = 0; j < inChunks->capacities.size(); ++j) {
                if (inChunks->capacities[j] == n) {
                    QCOMPARE(fifo->prefetchHitRatio[i], inChunks->prefetchHitRatio[j]);
                }
            }
        }
        QVERIFY(tab->hitPlot()->xAxis->range().upper > 40.0 * kKeyBytes);
        // the slider's capacity is in bytes, read as bytes and chunks
        tab->capacitySlider()->setValue(tab->capacitySlider()->maximum());
        QCOMPARE(quint64(tab->capacity()), 40 * kKeyBytes);
        QVERIFY2(tab->capacityText().startsWith(QStringLiteral("C = 1.25 MiB (≈ 40 chunks): ")),
                 qPrintable(tab->capacityText()));
        QTRY_VERIFY_WITH_TIMEOUT(p->state.hitOverTime() && p->state.hitOverTime()->inBytes() &&
                                     p->state.hitOverTime()->capacity() == 40 * kKeyBytes,
                                 30000);
        // back to all models: no sizes, back to chunks
        models->setCurrentIndex(0);
        QTRY_COMPARE_WITH_TIMEOUT(tab->unit(), WhatIfAnalysis::Unit::Chunks, 30000);
        QVERIFY(tab->chunksButton()->isChecked());
        QCOMPARE(tab->hitPlot()->xAxis->label(), QStringLiteral("capacity C (chunks)"));
    }

    void configuredCapacityIsMarked() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QComboBox *models = tab->reuseModelSelector();
        models->setCurrentIndex(models->findText(kModelA));
        QVERIFY(curvesDone(tab));
        // 512 KiB of 32 KiB keys: 16 chunks, marked by a line there
        QVERIFY(tab->configuredLine()->visible());
        QCOMPARE(tab->configuredLine()->point1->coords().x(), 16.0);
        const auto want = expected(*p, WhatIfAnalysis::Unit::Chunks);
        // (16 is a default capacity: every figure there is exact)
        auto at16 = [&](Kind k) {
            const WhatIfAnalysis::Curve *c = want->curve(k);
            for (size_t i = 0; i < c->capacities.size(); ++i) {
                if (c->capacities[i] == 16) {
                    return ConfiguredRun::percentText(c->prefetchHitRatio[i]);
                }
            }
            return QString();
        };
        const QString text = tab->configuredText();
        QVERIFY2(text.startsWith(QStringLiteral("You ran LRU at 512 KiB ≈ 16 chunks: %1 of "
                                                "prefetched keys hit; OPT there: %2")
                                     .arg(at16(Kind::Lru), at16(Kind::Opt))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("; LRU reaches")), qPrintable(text));
        // in bytes: at 512 KiB
        tab->bytesButton()->click();
        QVERIFY(curvesDone(tab));
        QCOMPARE(tab->configuredLine()->point1->coords().x(), 524288.0);
        QVERIFY2(tab->configuredText().startsWith(
                     QStringLiteral("You ran LRU at 512 KiB ≈ 16 chunks: %1").arg(at16(Kind::Lru))),
                 qPrintable(tab->configuredText()));
        // the line is in view
        const QCPRange x = tab->hitPlot()->xAxis->range();
        QVERIFY(x.contains(524288.0));

        // No config in the header: no line, no sentence.
        auto q = analysed(whatIfTrace(QString()));
        QVERIFY(q);
        QVERIFY(curvesDone(q->tab()));
        QVERIFY(!q->tab()->configuredLine()->visible());
        QCOMPARE(q->tab()->configuredText(), QString());
    }

    void modelAndTenantChooseTheScope() {
        auto p = analysed(whatIfTrace());
        QVERIFY(p);
        CacheWhatIfTab *tab = p->tab();
        QVERIFY(curvesDone(tab));
        QCOMPARE(tab->uses()->scope().model, UseSequence::kAll);
        // 12 rounds of 13 prefetched keys
        QVERIFY2(tab->capacityText().contains(QStringLiteral(" of 156 prefetched keys hit")),
                 qPrintable(tab->capacityText()));
        // tenants: shown, since the keys carry cache_salt
        QComboBox *tenants = tab->tenantSelector();
        QVERIFY(!tenants->isHidden());
        QCOMPARE(tenants->itemText(0), QStringLiteral("All tenants"));
        QCOMPARE(tenants->itemData(1).toInt(), UseSequence::kNoSalt);  // model B's keys
        QVERIFY(tenants->findText(QStringLiteral("tenant-a")) > 1);
        // one model: its keys only
        QComboBox *models = tab->reuseModelSelector();
        models->setCurrentIndex(models->findText(kModelB));
        QVERIFY(curvesDone(tab));
        const int b = p->pane.analysis()->keys->models().indexOf(kModelB);
        QCOMPARE(tab->scope().model, b);
        QCOMPARE(tab->uses()->scope().model, b);
        QVERIFY2(tab->capacityText().contains(QStringLiteral(" of 36 prefetched keys hit")),
                 qPrintable(tab->capacityText()));
        QCOMPARE(tab->capacitySlider()->maximum(), 1000);
        tab->capacitySlider()->setValue(1000);
        QCOMPARE(tab->capacity(), qint64(10));
        QVERIFY2(tab->hitPlot()->plotLayout()->elementCount() > 0, "a title");
        // one tenant of all models
        models->setCurrentIndex(0);
        tenants->setCurrentIndex(tenants->findText(QStringLiteral("tenant-a")));
        QVERIFY(curvesDone(tab));
        const int a = p->pane.analysis()->keys->salts().indexOf(QStringLiteral("tenant-a"));
        QCOMPARE(tab->scope().salt, a);
        QCOMPARE(tab->uses()->scope().salt, a);
        tab->capacitySlider()->setValue(1000);
        QCOMPARE(tab->capacity(), qint64(20));
        // the curves are the tenant's
        UseSequence::Scope s;
        s.salt = a;
        const auto uses = UseSequence::build(*p->state.document(), p->pane.analysis()->keys, s);
        QVERIFY2(tab->capacityText().contains(
                     QStringLiteral(" of %1 prefetched keys hit").arg(uses->prefetchOccurrences())),
                 qPrintable(tab->capacityText()));
        QTRY_VERIFY_WITH_TIMEOUT(
            p->state.hitOverTime() && p->state.hitOverTime()->prefetchTimes().size() ==
                                          size_t(uses->prefetchOccurrences()),
            30000);
        // a trace whose keys carry no salt: no tenant chooser
        CacheTraceWriter w;
        TKey k = key(1);
        k.salt = std::nullopt;
        w.call(0.1, QStringLiteral("finish_write"), {k});
        w.call(0.2, QStringLiteral("submit_prefetch_task"), {k}, KeysAt::Spec, "r");
        auto q = analysed(w.bytes());
        QVERIFY(q);
        QVERIFY(q->tab()->tenantSelector()->isHidden());
        QCOMPARE(q->tab()->scope().salt, UseSequence::kAll);
    }

    void hitPlotUnderTheTimeline() {
        // The What-if tab's hit ratio over time, through the ViewState, drawn by the timeline.
        ViewState state;
        TimelineWidget timeline;
        timeline.resize(1100, 700);
        timeline.setViewState(&state);
        CacheBehaviourPane pane;
        pane.resize(1200, 760);
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::WhatIfTab);
        pane.setViewState(&state);
        QString error;
        state.setDocument(TraceLoader::loadBytes(whatIfTrace(), QStringLiteral("w.lct"), &error));
        QVERIFY2(state.document(), qPrintable(error));
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        TimelineHitPlot *hit = timeline.hitPlot();
        QVERIFY(!hit->isPlaced());  // no result yet
        QVERIFY(!timeline.hitRatioAction()->isEnabled());
        pane.show();
        QTRY_VERIFY_WITH_TIMEOUT(state.hitOverTime(), 60000);
        QTRY_VERIFY(hit->isPlaced());
        QVERIFY(timeline.hitRatioAction()->isEnabled());
        QVERIFY(timeline.hitRatioAction()->isChecked());
        timeline.plot()->replot();
        // under the lanes, above the rate plot
        QCPAxisRect *lanes = timeline.timeAxis()->axisRect();
        QVERIFY(hit->rect()->visible());
        QVERIFY2(hit->rect()->outerRect().top() >= lanes->outerRect().bottom(),
                 qPrintable(QStringLiteral("hit plot at %1, lanes end at %2")
                                .arg(hit->rect()->outerRect().top())
                                .arg(lanes->outerRect().bottom())));
        QVERIFY(hit->rect()->height() >= TimelineHitPlot::kLeastPlotPx);
        QCOMPARE(hit->rect()->left(), lanes->left());  // one time axis
        QCOMPARE(hit->rect()->width(), lanes->width());
        // a line per policy in the tab's colours, LMCache's own dashed, the occupancy
        const auto result = state.hitOverTime();
        QCOMPARE(hit->graphs().size(), qsizetype(result->series().size()));
        for (int s = 0; s < hit->graphs().size(); ++s) {
            QCOMPARE(hit->graphs()[s]->pen().color(),
                     PolicyColors::color(result->series()[size_t(s)].policy));
        }
        QVERIFY(result->hasLmcacheAccount());
        QVERIFY(hit->lmcacheGraph());
        QCOMPARE(hit->lmcacheGraph()->pen().style(), Qt::DashLine);
        QVERIFY(hit->occupancyGraph() && hit->occupancyGraph()->dataCount() > 0);
        QCOMPARE(hit->occupancyGraph()->valueAxis(), hit->rect()->axis(QCPAxis::atRight));
        QCOMPARE(hit->legend()->itemCount(), hit->graphs().size() + 2);
        // the timeline's range, in windows of a few pixels
        auto checkWindows = [&] {
            const QCPRange range = timeline.visibleRange();
            QCOMPARE(hit->rect()->axis(QCPAxis::atBottom)->range(), range);
            const int columns = hit->windowCount();
            QVERIFY(columns >= hit->rect()->width() / TimelineHitPlot::kWindowPx - 1);
            const std::vector<double> want = result->windowed(0, range.lower, range.upper, columns);
            QCPGraph *g = hit->graphs()[0];
            QCOMPARE(g->dataCount(), columns + 1);
            QCOMPARE(g->data()->at(0)->key, range.lower);
            for (int c = 0; c < columns; ++c) {
                const double v = g->data()->at(c)->value;
                QVERIFY(std::isnan(want[size_t(c)]) ? std::isnan(v)
                                                    : qAbs(v - 100.0 * want[size_t(c)]) < 1e-9);
            }
        };
        checkWindows();
        const QCPRange all = timeline.visibleRange();
        timeline.setVisibleRange(all.lower + all.size() * 0.25, all.lower + all.size() * 0.5);
        timeline.plot()->replot();
        checkWindows();
        // hidden with its action (in the Lanes menu), shown again
        QMenu *lanesMenu = nullptr;
        for (QToolButton *b : timeline.findChildren<QToolButton *>()) {
            lanesMenu = b->text() == QStringLiteral("Lanes") ? b->menu() : lanesMenu;
        }
        QVERIFY(lanesMenu);
        emit lanesMenu->aboutToShow();
        QVERIFY(lanesMenu->actions().contains(timeline.hitRatioAction()));
        timeline.hitRatioAction()->setChecked(false);
        QVERIFY(!hit->isPlaced());
        QVERIFY(!hit->rect()->visible());
        bool inLayout = false;
        for (int i = 0; i < timeline.plot()->plotLayout()->elementCount(); ++i) {
            inLayout = inLayout || timeline.plot()->plotLayout()->elementAt(i) == hit->rect();
        }
        QVERIFY(!inLayout);
        timeline.hitRatioAction()->setChecked(true);
        QVERIFY(hit->isPlaced());
        // a timeline bound to a state that has a result shows it at once
        TimelineWidget other;
        other.resize(800, 500);
        other.setViewState(&state);
        QVERIFY(other.hitPlot()->isPlaced());
        QCOMPARE(other.hitPlot()->result(), state.hitOverTime());
        // no result: no plot, the action disabled
        state.setHitOverTime(nullptr);
        QVERIFY(!other.hitPlot()->isPlaced());
        QVERIFY(!hit->isPlaced());
        QVERIFY(!timeline.hitRatioAction()->isEnabled());
    }
};

QTEST_MAIN(TestWhatIfTab)
#include "tst_gui_whatif.moc"
