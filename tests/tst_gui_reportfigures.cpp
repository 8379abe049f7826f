// The legends of the report's figures (FigurePlot, LegendPlacement): a few entries go to a
// corner of the plot where they hide no point or line of the data, or under the plot when every
// corner has some; the report's "Prefetched keys hit over time" keeps its curves in sight.

#include "common/figureplot.h"
#include "common/legendplacement.h"
#include "report/reportcontent.h"
#include "report/tracereport.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QLocale>
#include <QTest>
#include <memory>

using namespace lmct;
using namespace lmct::test;

namespace {

/** A line figure of two series; `a` and `b` their y at x = 0, 1, ..., 10. */
ReportContent::Figure lines(const std::vector<double> &a, const std::vector<double> &b) {
    ReportContent::Figure f;
    f.id = QStringLiteral("f");
    f.title = QStringLiteral("two lines");
    f.yMin = 0;
    f.yMax = 105;
    for (const auto *ys : {&a, &b}) {
        ReportContent::Series s;
        s.name = ys == &a ? QStringLiteral("first") : QStringLiteral("second");
        s.color = ReportContent::Color::Policy;
        s.colorIndex = ys == &a ? 0 : 5;
        for (size_t i = 0; i < ys->size(); ++i) {
            s.x.push_back(double(i));
            s.y.push_back((*ys)[i]);
        }
        f.series.push_back(std::move(s));
    }
    return f;
}

/**
 * Where `rect` hides `plot`'s graphs, found on its own: each line sampled every pixel between
 * its points; empty when nowhere, else the first point found ("first at 312,40").
 */
QString hidden(QCustomPlot *plot, const QRect &rect) {
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        QPointF last;
        bool have = false;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (!std::isfinite(it->value)) {
                have = false;
                continue;
            }
            const QPointF pt(g->keyAxis()->coordToPixel(it->key),
                             g->valueAxis()->coordToPixel(it->value));
            const int steps = have ? std::max(1, int(QLineF(last, pt).length())) : 0;
            for (int s = 0; s <= steps; ++s) {
                const QPointF q = have ? last + (pt - last) * (double(s) / steps) : pt;
                if (rect.contains(q.toPoint())) {
                    return QStringLiteral("%1 at %2,%3").arg(g->name()).arg(q.x()).arg(q.y());
                }
            }
            last = pt;
            have = true;
        }
    }
    return QString();
}

bool insideAxisRect(QCustomPlot *plot) {
    QCPLayoutInset *inset = plot->axisRect()->insetLayout();
    return inset->elementCount() > 0 && inset->elementAt(0) == plot->legend;
}

}  // namespace

class TestReportFigures : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void freeCornerTakesTheLegend() {
        // both lines near 100 %: the top corners are taken, a bottom one is free
        std::unique_ptr<QCustomPlot> p(
            FigurePlot::create(lines({100, 98, 99, 100, 97, 100, 99, 100, 98, 100, 100},
                                     {95, 96, 94, 97, 95, 96, 97, 95, 96, 94, 95})));
        QVERIFY(p->legend->visible());
        QVERIFY(insideAxisRect(p.get()));
        const QRect legend = p->legend->outerRect();
        QVERIFY2(hidden(p.get(), legend).isEmpty(), qPrintable(hidden(p.get(), legend)));
        QVERIFY(!LegendPlacement::coversData(p.get(), legend));
        QVERIFY(legend.top() > p->axisRect()->center().y());  // a bottom corner
        QVERIFY(p->axisRect()->rect().contains(legend));
    }

    void noFreeCornerPutsItUnder() {
        // a line from 0 to 100 % and back at every step: every corner has data
        std::unique_ptr<QCustomPlot> p(FigurePlot::create(
            lines({0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0}, std::vector<double>(11, 50))));
        QVERIFY(p->legend->visible());
        QVERIFY(!insideAxisRect(p.get()));
        const QRect legend = p->legend->outerRect();
        QVERIFY(legend.top() >= p->axisRect()->outerRect().bottom());
        QVERIFY(p->rect().contains(legend));
        QVERIFY2(hidden(p.get(), legend).isEmpty(), qPrintable(hidden(p.get(), legend)));
        QCOMPARE(p->legend->itemCount(), 2);
    }

    void regression_legendUnderThePlotIsAsWideAsItsEntries() {
        // The report's "p50, p95 and max" legend under its plot spread its three entries over
        // the page's width: it is as wide as its entries, centred under the plot.
        ReportContent::Figure f =
            lines({0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0}, std::vector<double>(11, 50));
        for (const char *name : {"third", "fourth"}) {
            ReportContent::Series s = f.series.front();
            s.name = QString::fromLatin1(name);
            f.series.push_back(s);
        }
        std::unique_ptr<QCustomPlot> p(FigurePlot::create(f));
        QVERIFY(p->legend->visible());
        QVERIFY(!insideAxisRect(p.get()));
        const QRect legend = p->legend->outerRect();
        int entries = 0;
        for (int i = 0; i < p->legend->itemCount(); ++i) {
            entries += p->legend->item(i)->minimumOuterSizeHint().width();
        }
        QCOMPARE(p->legend->itemCount(), 4);
        const QMargins m = p->legend->margins();
        QVERIFY2(
            legend.width() <= entries + 3 * p->legend->columnSpacing() + m.left() + m.right() + 2,
            qPrintable(
                QStringLiteral("%1 px for %2 px of entries").arg(legend.width()).arg(entries)));
        QVERIFY2(std::abs(legend.center().x() - p->viewport().center().x()) <= 2,
                 qPrintable(QStringLiteral("centre %1 of %2")
                                .arg(legend.center().x())
                                .arg(p->viewport().center().x())));
        QVERIFY(legend.top() >= p->axisRect()->outerRect().bottom());
        QVERIFY(p->viewport().contains(legend));
    }

    void regression_hitOverTimeLegendHidesNoCurve() {
        // The report of LMCache's late2026-tp1-cancel.lct: the top-right legend of "Prefetched keys
        // hit over time" lay over the LRU and OPT lines at 100 % (and LMCache's).
        const QString path =
            qEnvironmentVariable("LMCT_REFERENCE_TRACES", QStringLiteral(LMCT_REFERENCE_TRACES)) +
            QStringLiteral("/late2026-tp1-cancel.lct");
        if (!QFileInfo::exists(path)) {
            QSKIP(qPrintable(QStringLiteral("no reference trace %1: configure with "
                                            "-DLMCT_REFERENCE_TRACES_DIR=DIR to check it")
                                 .arg(path)));
        }
        QString error;
        const auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        const auto content = TraceReport::build(doc, {});
        QVERIFY(content);
        const ReportContent::Figure *hot = nullptr;
        for (const ReportContent::Section &s : content->sections) {
            for (const ReportContent::Block &b : s.blocks) {
                if (b.kind == ReportContent::Block::Kind::Figure &&
                    b.figure.id == QStringLiteral("hit-over-time")) {
                    hot = &b.figure;
                }
            }
        }
        QVERIFY(hot);
        QVERIFY(hot->series.size() >= 2);
        std::unique_ptr<QCustomPlot> p(FigurePlot::create(*hot));
        QVERIFY(p->legend->visible());
        const QRect legend = p->legend->outerRect();
        QVERIFY(legend.isValid());
        QVERIFY2(hidden(p.get(), legend).isEmpty(), qPrintable(hidden(p.get(), legend)));
        QVERIFY(p->rect().contains(legend));
    }
};

QTEST_MAIN(TestReportFigures)
#include "tst_gui_reportfigures.moc"
