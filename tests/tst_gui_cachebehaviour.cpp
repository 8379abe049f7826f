// Widget tests of the Cache Behaviour pane: the analysis runs off the GUI thread and fills the
// four tabs; rows select their records in the ViewState; the capacity slider reads the hit curve;
// rebinding and hidden panes; the dock in the main window.

#include "anomaliesfixture.h"
#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "cachetracewriter.h"
#include "codec/objectkey.h"
#include "itemmodels/anomalytablemodel.h"
#include "itemmodels/keytablemodel.h"
#include "itemmodels/requesttablemodel.h"
#include "panes/cachebehaviourpane.h"
#include "panes/reusehistograms.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kSchema2 =
    QFileInfo(QStringLiteral(LMCT_TRACES)).absoluteFilePath() + "/schema2-prefetch-spec-tp2.lct";

std::shared_ptr<const TraceDocument> load(const QString &path) {
    QString error;
    return TraceLoader::load(path, &error);
}

/** The distinct keys of kSchema2, as KeyAnalysis counts them (once). */
int schema2Keys() {
    static const int n = [] {
        const auto doc = load(kSchema2);
        const auto ka = doc ? KeyAnalysis::build(*doc) : nullptr;
        return ka ? ka->keyCount() : -1;
    }();
    return n;
}

QPushButton *againButton(const QWidget &pane) {
    for (QPushButton *b : pane.findChildren<QPushButton *>()) {
        if (b->text() == QStringLiteral("Analyse again")) {
            return b;
        }
    }
    return nullptr;
}

void click(QTableView *view, int row, int column) {
    const QModelIndex i = view->model()->index(row, column);
    view->scrollTo(i);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(i).center());
}

/** Shows `pane` on `state` and waits until its analysis has finished; false after a minute. */
bool analyseShown(CacheBehaviourPane &pane, ViewState &state) {
    pane.show();
    QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
    pane.setViewState(&state);
    return done.wait(60000);
}

}  // namespace

class TestCacheBehaviourPane : public QObject {
    Q_OBJECT

    /** A pane of the pane's size hint on the reference trace, analysed. */
    struct Analysed {
        ViewState state;
        CacheBehaviourPane pane;
    };
    std::unique_ptr<Analysed> analysedPane() {
        auto a = std::make_unique<Analysed>();
        a->state.setDocument(load(kSchema2));
        a->pane.resize(a->pane.sizeHint());  // what the dock starts with
        a->pane.show();
        if (!QTest::qWaitForWindowExposed(&a->pane)) {
            return nullptr;
        }
        QSignalSpy done(&a->pane, &CacheBehaviourPane::analysisFinished);
        a->pane.setViewState(&a->state);
        return done.wait(60000) ? std::move(a) : nullptr;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<TraceTab *>();
    }

    void analysesAndFillsTabs() {
        ViewState state;
        state.setDocument(load(kSchema2));
        CacheBehaviourPane pane;
        pane.resize(1200, 700);
        pane.show();
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&state);
        QVERIFY(pane.isAnalysing());
        QVERIFY(done.wait(60000));
        QVERIFY(!pane.isAnalysing());
        const auto a = pane.analysis();
        QVERIFY(a && a->keys && a->anomalies && a->reuse && a->requests);
        // Every key of the analysis, one request per submit of the truth file.
        const int keys = a->keys->keyCount();
        const int requests = truthCount(traceTruth(QStringLiteral("schema2-prefetch-spec-tp2.lct")),
                                        QStringLiteral("submit_prefetch_task"));
        QVERIFY(keys > 1000 && requests > 100);
        QCOMPARE(pane.keyModel()->rowCount(), keys);
        QCOMPARE(pane.requestModel()->rowCount(), requests);
        QCOMPARE(pane.anomalyModel()->rowCount(), int(a->anomalies->items().size()));
        QVERIFY2(pane.summaryText().contains(QLocale().toString(keys) + QStringLiteral(" keys")),
                 qPrintable(pane.summaryText()));
        QVERIFY2(
            pane.summaryText().contains(QLocale().toString(requests) + QStringLiteral(" requests")),
            qPrintable(pane.summaryText()));
        // Unsorted at first: keys in order of first appearance, requests in file order.
        QCOMPARE(pane.keyModel()->keyAt(0), 0);
        QCOMPARE(pane.keyModel()->keyAt(keys - 1), keys - 1);
        QCOMPARE(pane.requestModel()->requestAt(requests - 1), requests - 1);

        // Keys: a click selects the key's first record and shows its lifecycle.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::KeysTab);
        click(pane.keyView(), 3, KeyTableModel::StateColumn);
        const int key = pane.keyModel()->keyAt(3);
        QCOMPARE(state.selectedRecord(), a->keys->key(key).firstRecord);
        const KeyAnalysis::Key &k = a->keys->key(key);
        // ... and makes it the followed key, so the timeline draws its lifecycle.
        QCOMPARE(state.followedKey(), a->keys->followExpression(key));
        QVERIFY(state.followedKey().contains(a->keys->hashHex(key)));
        // Moving with the keyboard follows the next key.
        QTest::keyClick(pane.keyView(), Qt::Key_Down);
        QCOMPARE(state.followedKey(), a->keys->followExpression(pane.keyModel()->keyAt(4)));
        click(pane.keyView(), 3, KeyTableModel::StateColumn);
        QCOMPARE(pane.lifecycleView()->rowCount(),
                 int(k.reserves + k.finishes + k.aborts + k.prefetches + k.reads()));
        // A lifecycle row selects its record.
        const int last = pane.lifecycleView()->rowCount() - 1;
        const QRect cell =
            pane.lifecycleView()->visualItemRect(pane.lifecycleView()->item(last, 1));
        QTest::mouseClick(pane.lifecycleView()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(state.selectedRecord(), k.lastRecord);

        // Requests: the read column goes to the read, the id column to the submit.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::RequestsTab);
        click(pane.requestView(), 0, RequestTableModel::TimeToReadColumn);
        const RequestAnalysis::Request &q = a->requests->at(pane.requestModel()->requestAt(0));
        if (q.readRecord >= 0) {
            QCOMPARE(state.selectedRecord(), q.readRecord);
        }
        click(pane.requestView(), 0, RequestTableModel::RequestIdColumn);
        QCOMPARE(state.selectedRecord(), q.submitRecord);

        // Anomalies: filter by kind, click selects the item's record.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::AnomaliesTab);
        pane.anomalyModel()->setKindFilter(int(AnomalyReport::Kind::Gap));
        QCOMPARE(pane.anomalyModel()->rowCount(),
                 int(a->anomalies->count(AnomalyReport::Kind::Gap)));
        click(pane.anomalyView(), 1, AnomalyTableModel::MessageColumn);
        QCOMPARE(state.selectedRecord(), pane.anomalyModel()->itemAt(1)->record);

        // Reuse: the slider reads the curve.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::ReuseTab);
        QVERIFY(pane.hitPlot()->graph(0)->dataCount() > 2);
        for (int v : {0, 300, 700, 1000}) {
            pane.capacitySlider()->setValue(v);
            const qint64 c = pane.capacity();
            QVERIFY(c >= 1);
            QVERIFY2(pane.capacityText().contains(
                         QLocale().toString(100.0 * a->reuse->hitRatio(c), 'f', 1) + '%'),
                     qPrintable(pane.capacityText()));
        }
        pane.capacitySlider()->setValue(1000);
        QCOMPARE(pane.capacity(), qint64(a->keys->keyCount()));
        QCOMPARE(a->reuse->hitRatio(pane.capacity()),
                 a->reuse->hitRatio(a->reuse->saturationCapacity()));
    }

    void narrowPaneWrapsTheSummary() {
        // Regression: the summary line was cut where the pane was narrower than it (at
        // 1600 px with the anomaly counts). It wraps now, and still does not widen the pane.
        ViewState state;
        state.setDocument(load(kSchema2));
        CacheBehaviourPane pane;
        pane.resize(520, 700);
        pane.show();
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&state);
        QVERIFY(done.wait(60000));
        QCoreApplication::processEvents();
        QLabel *summary = nullptr;
        for (QLabel *l : pane.findChildren<QLabel *>()) {
            if (l->text() == pane.summaryText()) {
                summary = l;
            }
        }
        QVERIFY(summary);
        const QFontMetrics fm(summary->font());
        QVERIFY2(fm.horizontalAdvance(summary->text()) > summary->width(),
                 qPrintable(summary->text()));  // longer than one line here
        const int needed = fm.boundingRect(QRect(0, 0, summary->contentsRect().width(), 100000),
                                           Qt::TextWordWrap, summary->text())
                               .height();
        QVERIFY2(summary->contentsRect().height() >= needed,
                 qPrintable(QStringLiteral("%1 px shown of %2")
                                .arg(summary->contentsRect().height())
                                .arg(needed)));
        QVERIFY(pane.minimumSizeHint().width() < 520);
    }

    void lifecycleTableShowsSeveralEvents() {
        auto a = analysedPane();
        QVERIFY(a);
        CacheBehaviourPane &pane = a->pane;
        // Keys: the lifecycle table under the keys shows about eight events at the pane's
        // size hint (it showed two), and at least six in a short pane, the keys staying too.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::KeysTab);
        QTableWidget *life = pane.lifecycleView();
        const int rowPx = life->verticalHeader()->defaultSectionSize();
        for (const int height : {pane.sizeHint().height(), 300}) {
            pane.resize(pane.sizeHint().width(), height);
            QCoreApplication::processEvents();
            const int rows = life->viewport()->height() / rowPx;
            QVERIFY2(
                rows >= (height == 300 ? 6 : 8),
                qPrintable(QStringLiteral("%1 rows in a pane %2 px tall").arg(rows).arg(height)));
            QVERIFY(pane.keyView()->viewport()->height() >= 2 * rowPx);
        }
        // (the Reuse tab's plots set the pane's minimum height, not the lifecycle)
        QVERIFY(pane.tabs()->widget(CacheBehaviourPane::KeysTab)->minimumSizeHint().height() <=
                pane.tabs()->widget(CacheBehaviourPane::ReuseTab)->minimumSizeHint().height());
    }

    void reuseCountAxisIsLogarithmic() {
        auto a = analysedPane();
        QVERIFY(a);
        CacheBehaviourPane &pane = a->pane;
        // Reuse: the reuse count histogram has a log count axis; every bar is visible.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::ReuseTab);
        QCoreApplication::processEvents();
        QCustomPlot *counts = pane.histogramPlot(CacheBehaviourPane::ReuseCountHistogram);
        counts->replot();
        QCPAxis *y = counts->yAxis;
        QCOMPARE(y->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(y->range().lower > 0 && y->range().lower < 1);
        auto *bars = qobject_cast<QCPBars *>(counts->plottable(0));
        double most = 0, least = 1e300;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            most = std::max(most, it->value);
            least = std::min(least, it->value);
            const double h = y->coordToPixel(y->range().lower) - y->coordToPixel(it->value);
            QVERIFY2(
                h >= 3,
                qPrintable(QStringLiteral("a bar of %1 keys is %2 px tall").arg(it->value).arg(h)));
        }
        QVERIFY2(least * 100 < most, "the counts span orders of magnitude");
        QVERIFY(most < y->range().upper);
        // ticks at powers of ten, readable: distinct short labels, apart by more than a line
        const QVector<QString> labels = y->tickVectorLabels();
        const QVector<double> ticks = y->tickVector();
        QVERIFY(labels.size() >= 2);
        const QStringList decades{"1", "10", "100", "1k", "10k", "100k", "1M", "10M"};
        const int labelPx = QFontMetrics(y->tickLabelFont()).height();
        for (int i = 0; i < labels.size(); ++i) {
            QVERIFY2(decades.contains(labels[i]), qPrintable(labels[i]));
            if (i > 0) {
                QVERIFY(std::abs(y->coordToPixel(ticks[i]) - y->coordToPixel(ticks[i - 1])) >=
                        1.2 * labelPx);
            }
        }
    }

    void narrowPaneFitsTheHistogramTitles() {
        // Regression: in a narrow dock the centred title lines were cut at both ends ("lian
        // 239.79 ms" for "median 239.79 ms · ..."). They wrap at their separators now, a part
        // still too wide elided at its end, the whole title in the plot's tool tip.
        auto a = analysedPane();
        QVERIFY(a);
        CacheBehaviourPane &pane = a->pane;
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::ReuseTab);
        for (const int width : {1200, 520, 420}) {
            pane.resize(width, 700);
            QCoreApplication::processEvents();
            for (int h = 0; h < CacheBehaviourPane::kHistogramCount; ++h) {
                const auto which = CacheBehaviourPane::Histogram(h);
                QCustomPlot *p = pane.histogramPlot(which);
                p->replot(QCustomPlot::rpImmediateRefresh);
                p->replot(QCustomPlot::rpImmediateRefresh);  // (the title fitted: once more)
                auto *title = qobject_cast<QCPTextElement *>(p->plotLayout()->element(0, 0));
                QVERIFY(title);
                const QString full = pane.histogramTitle(which);
                QVERIFY2(full.contains(QStringLiteral("median ")), qPrintable(full));
                const QFontMetrics fm(title->font());
                const QStringList lines = title->text().split(QLatin1Char('\n'));
                for (const QString &line : lines) {
                    QVERIFY2(fm.horizontalAdvance(line) <= p->width(),
                             qPrintable(QStringLiteral("%1 px: '%2' is %3 px in %4")
                                            .arg(width)
                                            .arg(line)
                                            .arg(fm.horizontalAdvance(line))
                                            .arg(p->width())));
                }
                // what is shown starts as the title starts, line by line: nothing cut in front
                QVERIFY2(lines.size() >= 2 && lines[1].startsWith(QStringLiteral("median ")),
                         qPrintable(title->text()));
                const bool elided = title->text().contains(QChar(0x2026));
                QCOMPARE(p->toolTip(), elided ? full : QString());
                if (!elided) {  // all of it, wrapped
                    const auto words = [](QString t) {
                        return t.remove(QLatin1Char('\n')).remove(QStringLiteral(" · "));
                    };
                    QCOMPARE(words(title->text()), words(full));
                }
            }
        }
    }

    void fitTitleWrapsAtSeparatorsThenElides() {
        QFont font;
        font.setPixelSize(12);
        const QFontMetrics fm(font);
        const QString title = QStringLiteral(
            "Reuse distance (time)\nmedian 239.79 ms · p95 "
            "1.204 s · 1,234 reuses");
        bool elided = true;
        QCOMPARE(ReuseHistograms::fitTitle(title, fm, 10000, &elided), title);
        QVERIFY(!elided);
        const int medianWidth =
            fm.horizontalAdvance(QStringLiteral("median 239.79 ms · p95 1.204 s"));
        const QString two = ReuseHistograms::fitTitle(title, fm, medianWidth, &elided);
        QCOMPARE(two, QStringLiteral("Reuse distance (time)\nmedian 239.79 ms · p95 1.204 s\n"
                                     "1,234 reuses"));
        QVERIFY(!elided);
        const int narrow = fm.horizontalAdvance(QStringLiteral("median 239"));
        const QStringList lines =
            ReuseHistograms::fitTitle(title, fm, narrow, &elided).split(QLatin1Char('\n'));
        QVERIFY(elided);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines[1].startsWith(QStringLiteral("median")) && lines[1].endsWith(QChar(0x2026)),
                 qPrintable(lines[1]));
        for (const QString &line : lines) {
            QVERIFY(fm.horizontalAdvance(line) <= narrow);
        }
    }

    void capacityMarkerAtEveryCapacity() {
        auto a = analysedPane();
        QVERIFY(a);
        CacheBehaviourPane &pane = a->pane;
        // The point read at C is drawn at every capacity, the ends of the slider included.
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::ReuseTab);
        QCoreApplication::processEvents();
        QCustomPlot *hit = pane.hitPlot();
        QCPItemTracer *marker = pane.capacityMarker();
        QVERIFY(marker);
        for (int v : {0, 1, 250, 500, 999, 1000}) {
            pane.capacitySlider()->setValue(v);
            hit->replot();
            QVERIFY(marker->visible());
            const QPointF at = marker->position->pixelPosition();
            const QRect area = hit->axisRect()->rect();
            const double r = marker->size() / 2;
            // inside the plot, or at least drawn whole over its edge
            QVERIFY2(marker->clipToAxisRect() ? QRectF(area).adjusted(r, r, -r, -r).contains(at)
                                              : QRectF(area).adjusted(-1, -1, 1, 1).contains(at),
                     qPrintable(QStringLiteral("C = %1 at %2,%3")
                                    .arg(pane.capacity())
                                    .arg(at.x())
                                    .arg(at.y())));
            // the line at C is inside the plot, not on its left or right edge
            const double x = hit->xAxis->coordToPixel(double(pane.capacity()));
            QVERIFY2(x > area.left() + 2 && x < area.right() - 2,
                     qPrintable(QStringLiteral("C = %1 at x %2").arg(pane.capacity()).arg(x)));
            QCOMPARE(marker->position->coords().x(), double(pane.capacity()));
            // and it is painted
            const QImage img = hit->toPixmap().toImage();
            int red = 0;
            for (int py = int(at.y()) - 5; py <= int(at.y()) + 5; ++py) {
                for (int px = int(at.x()) - 5; px <= int(at.x()) + 5; ++px) {
                    const QColor c = img.pixelColor(std::clamp(px, 0, img.width() - 1),
                                                    std::clamp(py, 0, img.height() - 1));
                    red += c.red() > 150 && c.green() < 110 && c.blue() < 110;
                }
            }
            QVERIFY2(
                red >= 6,
                qPrintable(QStringLiteral("C = %1: %2 red pixels").arg(pane.capacity()).arg(red)));
        }
    }

    void reuseDistributionsPerModel() {
        // Two models: model A's keys are reused after 0 and 1 other keys, model B's once.
        CacheTraceWriter w;
        TKey a1 = key(1), a2 = key(2), b1 = key(3);
        b1.model = QStringLiteral("meta-llama/Llama-3.1-8B");
        w.call(0.1, QStringLiteral("finish_write"), {a1, a2, b1});
        w.call(0.2, QStringLiteral("submit_prefetch_task"), {a1}, KeysAt::Spec, "r1");
        w.call(0.5, QStringLiteral("submit_prefetch_task"), {b1}, KeysAt::Spec, "r2");
        w.call(1.5, QStringLiteral("read_prefetched_results.__enter__"), {a1, a2});
        QString error;
        ViewState state;
        state.setDocument(TraceLoader::loadBytes(w.bytes(), "models.lct", &error));
        CacheBehaviourPane pane;
        pane.resize(1200, 700);
        pane.show();
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&state);
        QVERIFY(done.wait(60000));
        const ReuseAnalysis &r = *pane.analysis()->reuse;
        QCOMPARE(r.models().size(), size_t(2));
        QComboBox *models = pane.reuseModelSelector();
        QCOMPARE(models->count(), 3);
        QCOMPARE(models->itemText(0), QStringLiteral("All models"));
        auto barsOf = [&](CacheBehaviourPane::Histogram h) {
            std::vector<qint64> out(ReuseAnalysis::kBuckets, 0);
            auto *bars = qobject_cast<QCPBars *>(pane.histogramPlot(h)->plottable(0));
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
                out[size_t(it->key)] = qint64(it->value);
            }
            return out;
        };
        for (int i = 0; i < models->count(); ++i) {
            models->setCurrentIndex(i);
            const int m = models->currentData().toInt();
            const ReuseAnalysis::Stats &st = m < 0 ? r.total() : r.models()[size_t(m)];
            QCOMPARE(barsOf(CacheBehaviourPane::DistanceKeysHistogram), st.distanceKeys);
            QCOMPARE(barsOf(CacheBehaviourPane::DistanceTimeHistogram), st.distanceTime);
            QCOMPARE(barsOf(CacheBehaviourPane::ReuseCountHistogram), st.reuseCount);
            const QString title = pane.histogramTitle(CacheBehaviourPane::DistanceTimeHistogram);
            QVERIFY2(
                title.contains(QStringLiteral("median ")) && title.contains(QStringLiteral("p95 ")),
                qPrintable(title));
        }
        // Uses: a1 a2 b1 | a1 | b1 | a1 a2. Model A (Qwen): reuses after 2 keys (a1: a2, b1),
        // 1 key (a1: b1) and 2 keys (a2: b1, a1); nearest rank of {1, 2, 2}: median 2, p95 2.
        // Reuse counts per key: a1 2, a2 1. Model B: one reuse after 1 key (a1).
        models->setCurrentIndex(models->findText(QStringLiteral("Qwen/Qwen3-8B")));
        const QString keys = pane.histogramTitle(CacheBehaviourPane::DistanceKeysHistogram);
        QVERIFY2(keys.contains(QStringLiteral("median 2 · p95 2 · 3 reuses")), qPrintable(keys));
        const QString counts = pane.histogramTitle(CacheBehaviourPane::ReuseCountHistogram);
        QVERIFY2(counts.contains(QStringLiteral("median 1 · p95 2 · 2 keys")), qPrintable(counts));
        models->setCurrentIndex(models->findText(QStringLiteral("meta-llama/Llama-3.1-8B")));
        const QString b = pane.histogramTitle(CacheBehaviourPane::DistanceKeysHistogram);
        QVERIFY2(b.endsWith(QStringLiteral("median 1 · p95 1 · 1 reuse")), qPrintable(b));
        // A new analysis keeps the model chosen.
        pane.analyse();
        QVERIFY(done.wait(60000));
        QCOMPARE(models->currentText(), QStringLiteral("meta-llama/Llama-3.1-8B"));
    }

    void waitsForTheLoadToFinish() {
        // Regression: the pane analysed a big trace while it was still being read and showed
        // a few percent of its keys ("950 569 new records since analysis") until asked again.
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("reserve_write"), {key(1)});
        w.call(0.2, QStringLiteral("finish_write"), {key(1)});
        w.call(0.3, QStringLiteral("reserve_write"), {key(2)});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.lct"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(w.bytes());
        out.close();
        QString error;
        auto doc = TraceLoader::open(path, &error);  // header read, records not yet
        QVERIFY2(doc, qPrintable(error));
        QVERIFY(doc->isLoading());
        ViewState state;
        state.setDocument(doc);
        CacheBehaviourPane pane;
        pane.show();
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&state);
        QVERIFY(pane.isWaitingForLoad());
        QVERIFY(!pane.isAnalysing());
        state.notifyDocumentGrew();  // still loading: still waiting
        QVERIFY(pane.isWaitingForLoad());
        TraceLoader::scan(doc.get());
        state.notifyDocumentGrew();  // (TraceTab's last notification when loading ends)
        QVERIFY(!pane.isWaitingForLoad());
        QVERIFY(done.wait(60000));
        QCOMPARE(pane.keyModel()->rowCount(), 2);
        QCOMPARE(pane.staleText(), QString());
    }

    void analyseAgainOnlyWhenTheTraceGrew() {
        // A static trace: analysing it again would give the same result; the button is
        // disabled and says why.
        auto a = analysedPane();
        QVERIFY(a);
        QPushButton *again = againButton(a->pane);
        QVERIFY(again && again->isVisible());
        QVERIFY(!again->isEnabled());
        QVERIFY2(again->toolTip().contains(QStringLiteral("would give the same result")),
                 qPrintable(again->toolTip()));
        // without a trace there is nothing to analyse
        a->pane.setViewState(nullptr);
        QVERIFY(!again->isEnabled());
    }

    void countsOfOneAreSingular() {
        // A trace of one key, one request and one anomaly (a second finish_write without a
        // reservation): "1 key", not "1 keys", everywhere in the pane's figures.
        CacheTraceWriter w;
        w.call(0.1, QStringLiteral("reserve_write"), {key(1)});
        w.call(0.2, QStringLiteral("finish_write"), {key(1)});
        w.call(0.3, QStringLiteral("submit_prefetch_task"), {key(1)}, KeysAt::Spec, "r");
        w.call(0.4, QStringLiteral("finish_write"), {key(1)});
        QString error;
        ViewState state;
        state.setDocument(TraceLoader::loadBytes(w.bytes(), "one.lct", &error));
        QVERIFY2(state.document(), qPrintable(error));
        CacheBehaviourPane pane;
        QVERIFY(analyseShown(pane, state));
        const auto a = pane.analysis();
        QCOMPARE(a->keys->keyCount(), 1);
        QCOMPARE(a->requests->count(), 1);
        QCOMPARE(a->anomalies->totalCount(), qint64(1));
        const QString summary = pane.summaryText();
        QVERIFY2(summary.startsWith(QStringLiteral("1 key (")), qPrintable(summary));
        QVERIFY2(summary.endsWith(QStringLiteral(" · 1 request · 1 anomaly")), qPrintable(summary));
        QCOMPARE(pane.capacity(), qint64(1));
        const QString capacity = pane.capacityText();
        QVERIFY2(capacity.startsWith(QStringLiteral("C = 1 chunk: ")), qPrintable(capacity));
        QVERIFY2(capacity.contains(QStringLiteral(" of 1 prefetched key hit")),
                 qPrintable(capacity));
    }

    void late2026RequestsAndTenants() {
        // Requests with LMCache's account of their hit: counted in the summary, marked in the
        // Requests tab; a release's finish_read_prefetched says what it belongs to.
        QString error;
        ViewState state;
        state.setDocument(TraceLoader::loadBytes(handleHitsTrace(), "hits.lct", &error));
        QVERIFY2(state.document(), qPrintable(error));
        CacheBehaviourPane pane;
        QVERIFY(analyseShown(pane, state));
        const QString summary = pane.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("requests: 3 cancelled, 2 released, LMCache's L1 "
                                                 "hit agrees on 2, disagrees on 3")),
                 qPrintable(summary));
        QVERIFY(!summary.contains(KeyAnalysis::saltMissingNote()));  // salt "" is a salt
        QAbstractItemModel *requests = pane.requestView()->model();
        QCOMPARE(requests->index(2, RequestTableModel::EndedColumn).data().toString(),
                 QStringLiteral("cancelled"));
        QCOMPARE(requests->index(1, RequestTableModel::HitCheckColumn).data().toString(),
                 QStringLiteral("disagrees"));
        const KeyAnalysis &ka = *pane.analysis()->keys;
        ObjectKey k9;
        k9.chunkHash = key(9).hash;
        k9.modelName = key(9).model;
        k9.kvRank = key(9).kvRank;
        k9.objectGroupId = 0;
        k9.cacheSalt = QString();
        const int id = ka.find(k9);
        QVERIFY(id >= 0);
        pane.tabs()->setCurrentIndex(CacheBehaviourPane::KeysTab);
        click(pane.keyView(), id, 0);
        QTableWidget *life = pane.lifecycleView();
        // submit and the release's finish_read_prefetched: the nil release itself gives back
        // the keys its handle found (1, 2, 3), not key 9
        QCOMPARE(life->rowCount(), 2);
        QCOMPARE(life->item(1, 1)->text(),
                 QStringLiteral("finish_read_prefetched (of the release #5)"));

        // Schema 2 keys without cache_salt: said, not shown as one tenant silently.
        CacheTraceWriter w;
        TKey bare = key(1);
        bare.salt.reset();
        w.call(0.1, QStringLiteral("reserve_write"), {bare});
        w.call(0.2, QStringLiteral("finish_write"), {bare});
        ViewState saltless;
        saltless.setDocument(TraceLoader::loadBytes(w.bytes(), "bare.lct", &error));
        CacheBehaviourPane other;
        QVERIFY(analyseShown(other, saltless));
        QVERIFY2(other.summaryText().contains(KeyAnalysis::saltMissingNote()),
                 qPrintable(other.summaryText()));
    }

    void summarySaysWhatTheFiguresLack() {
        // Regression: after the file was cut short (another process truncated it after it
        // loaded), the figures looked whole, and the records past the cut still counted (as
        // requests without an id or keys, anomalies). They are now left out, and the summary
        // says so: the figures are those of the part still there.
        CacheTraceWriter w;
        for (int i = 0; i < 1000; ++i) {
            w.call(0.002 * i, QStringLiteral("reserve_write"), {key(i)});
            w.call(0.002 * i + 0.001, QStringLiteral("submit_prefetch_task"), {key(i)},
                   KeysAt::Spec, QByteArray("r") + QByteArray::number(i));
        }
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("cut.lct"), w.bytes());
        QString error;
        ViewState state;
        state.setDocument(TraceLoader::load(path, &error));
        QVERIFY2(state.document(), qPrintable(error));
        QCOMPARE(state.document()->records().size(), 2000);
        const qint64 newSize = w.bytes().size() / 2;
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.resize(newSize));
        }
        QCOMPARE(state.document()->checkShrunk(), newSize);
        CacheBehaviourPane pane;
        QVERIFY(analyseShown(pane, state));
        const auto a = pane.analysis();
        // the same figures as the file as it is now, opened afresh
        const auto cut = TraceLoader::load(path, &error);
        QVERIFY2(cut, qPrintable(error));
        const int kept = cut->records().size();
        QVERIFY(kept > 900 && kept < 1100);
        QCOMPARE(a->keys->readableRecordCount(), kept);
        QCOMPARE(a->keys->lostRecords(), 2000 - kept);
        QCOMPARE(a->keys->damagedRecords(), qint64(0));
        const auto fresh = KeyAnalysis::build(*cut);
        QCOMPARE(a->keys->keyCount(), fresh->keyCount());
        QCOMPARE(a->requests->count(), RequestAnalysis::build(*fresh)->count());
        const QString summary = pane.summaryText();
        QVERIFY2(summary.contains(
                     QStringLiteral("the file shrank to %1 bytes while open: %2 "
                                    "records after that offset are no longer readable")
                         .arg(QLocale().toString(newSize), QLocale().toString(2000 - kept))),
                 qPrintable(summary));
    }

    void staleHintWhenTheTraceGrows() {
        // A followed trace grows after the analysis: the pane says how many records are new,
        // and "Analyse again" analyses them.
        CacheTraceWriter first;
        first.call(0.1, QStringLiteral("reserve_write"), {key(1)});
        first.call(0.2, QStringLiteral("finish_write"), {key(1)});
        CacheTraceWriter all = first;
        all.call(0.3, QStringLiteral("reserve_write"), {key(2)});
        all.call(0.4, QStringLiteral("finish_write"), {key(2)});
        all.call(0.5, QStringLiteral("submit_prefetch_task"), {key(1), key(2)}, KeysAt::Spec, "r");
        QVERIFY(all.bytes().startsWith(first.bytes()));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live.lct"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(first.bytes());
        out.flush();
        TraceLoader::Options opt;
        opt.follow = true;
        QString error;
        auto doc = TraceLoader::open(path, &error, opt);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 2);
        ViewState state;
        state.setDocument(doc);
        CacheBehaviourPane pane;
        QVERIFY(analyseShown(pane, state));
        QCOMPARE(pane.keyModel()->rowCount(), 1);
        QCOMPARE(pane.staleText(), QString());
        QPushButton *again = againButton(pane);
        QVERIFY(again && again->isVisible());
        // nothing new yet: analysing again would give the same result
        QVERIFY(!again->isEnabled());
        QVERIFY2(again->toolTip().contains(QStringLiteral("until the followed trace grows")),
                 qPrintable(again->toolTip()));
        out.write(all.bytes().mid(first.bytes().size()));
        out.flush();
        QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 3);
        state.notifyDocumentGrew();
        QCOMPARE(pane.staleText(), QStringLiteral("3 new records since analysis — Analyse again"));
        QVERIFY(again->isVisible() && again->isEnabled());
        QVERIFY2(again->toolTip().contains(QStringLiteral("3 new records")),
                 qPrintable(again->toolTip()));
        QTest::mouseClick(again, Qt::LeftButton);
        QVERIFY(pane.isAnalysing());
        QCOMPARE(pane.staleText(), QString());
        QVERIFY(QSignalSpy(&pane, &CacheBehaviourPane::analysisFinished).wait(60000));
        QCOMPARE(pane.keyModel()->rowCount(), 2);
        QCOMPARE(pane.staleText(), QString());
        QVERIFY(!again->isEnabled());
        TraceLoader::stopFollowing(doc.get());
    }

    void timeRangeHidingTheRecordIsCleared() {
        ViewState state;
        state.setDocument(load(kSchema2));
        CacheBehaviourPane pane;
        QVERIFY(analyseShown(pane, state));
        state.setTimeRange(ViewState::TimeRange{100.0, 200.0});  // past the trace's end
        QVERIFY(pane.selectRecord(5));
        QVERIFY(!state.timeRange());
        QCOMPARE(state.selectedRecord(), 5);
        QVERIFY(!pane.selectRecord(-1));
    }

    void rebindAndNoTrace() {
        CacheBehaviourPane pane;
        pane.show();
        QCOMPARE(pane.summaryText(), QStringLiteral("No trace"));
        ViewState a, b;
        QString error;
        a.setDocument(TraceLoader::loadBytes(lmct::test::anomaliesTrace(), "a.lct", &error));
        b.setDocument(load(kSchema2));
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.setViewState(&b);
        pane.setViewState(&a);  // cancels b's analysis: only a's result is shown
        QVERIFY(done.wait(60000));
        QTest::qWait(50);
        QCOMPARE(done.count(), 1);
        QCOMPARE(pane.anomalyModel()->rowCount(), 9);
        QCOMPARE(pane.analysis()->anomalies->count(AnomalyReport::Kind::Gap), 1);
        pane.setViewState(nullptr);
        QVERIFY(!pane.analysis());
        QCOMPARE(pane.keyModel()->rowCount(), 0);
        QCOMPARE(pane.summaryText(), QStringLiteral("No trace"));
    }

    void hiddenPaneWaitsUntilShown() {
        ViewState state;
        state.setDocument(load(kSchema2));
        CacheBehaviourPane pane;
        pane.setViewState(&state);
        QVERIFY(!pane.isAnalysing());
        QVERIFY(!pane.analysis());
        QSignalSpy done(&pane, &CacheBehaviourPane::analysisFinished);
        pane.show();
        QVERIFY(pane.isAnalysing());
        QVERIFY(done.wait(60000));
        QCOMPARE(pane.keyModel()->rowCount(), schema2Keys());
    }

    void dockTabbedBehindWaitsUntilRaised() {
        // Regression: behind the Timeline's tab (the default layout) the pane is still
        // "visible" to Qt (moved out of the window), and analysed every trace opened: 400 MB and
        // seconds of CPU for a 10 M record trace nobody asked to analyse.
        MainWindow w;
        w.setShowDialogs(false);
        CacheBehaviourPane *pane = w.findChild<CacheBehaviourPane *>();
        QVERIFY(pane);
        w.resize(1400, 900);
        w.show();
        QSignalSpy done(pane, &CacheBehaviourPane::analysisFinished);
        TraceTab *tab = test::openAndWait(w, kSchema2);
        QVERIFY(tab);
        QTest::qWait(50);
        QVERIFY(!pane->isAnalysing());
        QVERIFY(!pane->analysis());
        QWidget *up = pane->parentWidget();
        while (up && !qobject_cast<QDockWidget *>(up)) {
            up = up->parentWidget();
        }
        QVERIFY(up);
        up->raise();
        QVERIFY(done.count() > 0 || done.wait(60000));
        QCOMPARE(pane->keyModel()->rowCount(), schema2Keys());
    }

    void dockInMainWindow() {
        MainWindow w;
        w.setShowDialogs(false);
        CacheBehaviourPane *pane = w.findChild<CacheBehaviourPane *>();
        QVERIFY(pane);
        QWidget *up = pane->parentWidget();  // the dock holds it in a scroll area
        while (up && !qobject_cast<QDockWidget *>(up)) {
            up = up->parentWidget();
        }
        auto *dock = qobject_cast<QDockWidget *>(up);
        QVERIFY(dock && MainWindow::dockView(dock) == pane);
        QVERIFY(dock);
        QCOMPARE(dock->windowTitle(), QStringLiteral("Cache Behaviour"));
        w.resize(1400, 900);
        w.show();
        QSignalSpy loaded(&w, &MainWindow::traceLoaded);
        QSignalSpy done(pane, &CacheBehaviourPane::analysisFinished);
        w.openFile(kSchema2);
        QVERIFY(loaded.count() > 0 || loaded.wait(60000));
        dock->raise();  // the docks come with the first trace; the welcome page has none
        QVERIFY(done.count() > 0 || done.wait(60000));
        QCOMPARE(pane->keyModel()->rowCount(), schema2Keys());
        click(pane->keyView(), 0, KeyTableModel::ModelColumn);
        QCOMPARE(w.currentTab()->viewState()->selectedRecord(),
                 pane->analysis()->keys->key(pane->keyModel()->keyAt(0)).firstRecord);
    }
};

QTEST_MAIN(TestCacheBehaviourPane)
#include "tst_gui_cachebehaviour.moc"
