// The Statistics pane's Charts tab: the calls (a bar per call, its count and rate beside it) and
// the time between successive calls (p50, p95, max), of the records the ViewState selects,
// drawn again when the filter changes; each chart has the context menu of every plot (Export as
// PNG/SVG/PDF, Copy Image, Export Size) and the export caption (file, range, filter, records).

#include "common/plotcontextmenu.h"
#include "common/plotexportactions.h"
#include "comparefixture.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "panes/statisticscharts.h"
#include "panes/statisticspane.h"
#include "plotexportcheck.h"
#include "report/statisticsfigures.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QLocale>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>

using namespace lmct;
using namespace lmct::test;

namespace {

/** The bars of `plot`, in the order of its rows. */
QList<QCPBars *> barsOf(QCustomPlot *plot) {
    QList<QCPBars *> out;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto *b = qobject_cast<QCPBars *>(plot->plottable(i))) {
            out << b;
        }
    }
    return out;
}

/** The texts of the tick labels of `axis` (a QCPAxisTickerText), top to bottom. */
QStringList tickTexts(QCPAxis *axis) {
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

/** The texts of `plot`'s text items. */
QStringList itemTexts(QCustomPlot *plot) {
    QStringList out;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *t = qobject_cast<QCPItemText *>(plot->item(i))) {
            out << t->text();
        }
    }
    return out;
}

}  // namespace

class TestGuiStatisticsCharts : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::shared_ptr<TraceDocument> m_doc;

    /** Waits until `pane` shows new statistics. */
    static bool waitShown(StatisticsPane &pane) {
        return QTest::qWaitFor([&] { return !pane.isBusy() && pane.statistics(); }, 30000);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_statisticscharts"));
        QSettings().clear();
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(m_dir.isValid());
        m_path = writeFile(m_dir, QStringLiteral("w.lct"), makeWorkload(WorkloadSpec()).bytes);
        QString error;
        m_doc = TraceLoader::load(m_path, &error);
        QVERIFY2(m_doc, qPrintable(error));
    }

    void chartsShowTheCallsOfTheSelection() {
        ViewState state;
        state.setDocument(m_doc);
        StatisticsPane pane;
        pane.resize(700, 900);
        pane.show();
        pane.setViewState(&state);
        QVERIFY(waitShown(pane));
        QCOMPARE(pane.tabs()->tabText(pane.tabs()->indexOf(pane.charts())),
                 QStringLiteral("Charts"));
        const QList<QCustomPlot *> charts = pane.charts()->charts();
        QCOMPARE(charts.size(), 2);
        QCOMPARE(charts[0]->objectName(), QStringLiteral("statisticsChart-calls-chart"));
        QCOMPARE(charts[1]->objectName(), QStringLiteral("statisticsChart-interarrival-chart"));
        // a bar per call, its count, named on the left, "count · rate" beside it
        const TraceStatistics &stats = *pane.statistics();
        const QList<QCPBars *> bars = barsOf(charts[0]);
        QCOMPARE(bars.size(), stats.calls.size());
        QStringList calls;
        for (int i = 0; i < stats.calls.size(); ++i) {
            calls << stats.calls[i].call;
            QCOMPARE(bars[i]->data()->size(), 1);
            QCOMPARE(bars[i]->data()->at(0)->value, double(stats.calls[i].count));
            QCOMPARE(bars[i]->keyAxis(), charts[0]->yAxis);  // across: rows top to bottom
            QVERIFY2(itemTexts(charts[0]).contains(
                         QStringLiteral("%1 · ").arg(QLocale().toString(stats.calls[i].count)) +
                         StatisticsFigures::rateText(stats.calls[i].rate)),
                     qPrintable(itemTexts(charts[0]).join(QStringLiteral(" | "))));
        }
        QCOMPARE(tickTexts(charts[0]->yAxis), calls);
        QVERIFY(charts[0]->yAxis->rangeReversed());
        // the intervals: a row per call with gaps, on a log axis
        QCOMPARE(charts[1]->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!tickTexts(charts[1]->yAxis).isEmpty());
        QVERIFY(charts[1]->legend->visible());

        // a filter: drawn again, of the filtered records only, the caption says so
        const QString f = QStringLiteral("call == finish_write");
        auto records = std::make_shared<const std::vector<int>>(
            FilterEvaluator(m_doc, FilterExpression::parse(f)).run().records);
        QVERIFY(!records->empty());
        state.setFilterText(f);
        state.setFilterResult(f, records);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !pane.isBusy() && pane.statistics() &&
                       pane.statistics()->records == qint64(records->size());
            },
            30000));
        QCustomPlot *filtered = pane.charts()->charts().first();
        QCOMPARE(barsOf(filtered).size(), 1);
        QCOMPARE(tickTexts(filtered->yAxis), QStringList{QStringLiteral("finish_write")});
        const QString caption = PlotContextMenu::actionsOf(filtered)->spec().caption();
        QCOMPARE(caption, QStringLiteral("w.lct  —  whole trace  —  filter: call == finish_write  "
                                         "—  %1 records")
                              .arg(QLocale().toString(qint64(records->size()))));
        // no document: no charts, a line says so
        state.setDocument(nullptr);
        QVERIFY(pane.charts()->charts().isEmpty());
    }

    void chartsHaveTheExportMenu() {
        ViewState state;
        state.setDocument(m_doc);
        StatisticsPane pane;
        pane.resize(700, 900);
        pane.show();
        pane.setViewState(&state);
        QVERIFY(waitShown(pane));
        pane.tabs()->setCurrentWidget(pane.charts());
        const QStringList titles{QStringLiteral("Calls Chart"),
                                 QStringLiteral("Call Intervals Chart")};
        int n = 0;
        for (QCustomPlot *chart : pane.charts()->charts()) {
            PlotExportActions *a = PlotContextMenu::actionsOf(chart);
            QVERIFY(a);
            QCOMPARE(a->spec().title, titles[n]);
            QCOMPARE(a->spec().inputPath(), m_path);
            QVERIFY2(a->spec().caption().startsWith(
                         QStringLiteral("w.lct  —  whole trace  —  no filter  —  ")),
                     qPrintable(a->spec().caption()));
            // the menu a right-click opens
            QStringList texts;
            bool seen = false;
            QTimer poll;
            poll.setInterval(10);
            connect(&poll, &QTimer::timeout, this, [&] {
                if (auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) {
                    poll.stop();
                    seen = true;
                    for (QAction *x : menu->actions()) {
                        texts << x->text();
                    }
                    menu->close();
                }
            });
            poll.start();
            emit chart->customContextMenuRequested(chart->rect().center());
            QVERIFY(seen);
            for (const QString &format :
                 {QStringLiteral("&PNG"), QStringLiteral("&SVG"), QStringLiteral("P&DF")}) {
                QVERIFY2(texts.contains(QStringLiteral("Export %1 as %2…").arg(titles[n], format)),
                         qPrintable(texts.join(QStringLiteral(" | "))));
            }
            QVERIFY(texts.contains(QStringLiteral("&Copy Image")));
            // the exports: of the chosen size, with the caption; never over the trace
            QVERIFY(a->setPngSize(QSize(800, 500)));
            const QString checked = checkPlotExports(
                a, m_dir.filePath(QStringLiteral("chart%1").arg(n)), QSize(800, 500),
                QRegularExpression(QStringLiteral("w\\.lct  —  whole trace")), titles[n]);
            QVERIFY2(checked.isEmpty(), qPrintable(checked));
            const QString refused = checkRefusedTargets(
                a, m_dir.filePath(QStringLiteral("missing/x.png")), {m_path}, titles[n]);
            QVERIFY2(refused.isEmpty(), qPrintable(refused));
            ++n;
        }
        QCOMPARE(n, 2);
    }
};

QTEST_MAIN(TestGuiStatisticsCharts)
#include "tst_gui_statisticscharts.moc"
