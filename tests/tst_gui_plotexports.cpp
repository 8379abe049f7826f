// Every plot of the viewer exports: a main window with a trace (its timeline, the What-if tab's
// curves and reuse histograms, the Statistics pane's charts) and a comparison (its two
// timelines and the Compare pane's plots) is walked for every QCustomPlot; each has Export as
// PNG/SVG/PDF and Copy Image in its context menu, with its caption, and writes a PNG of the
// asked size that is not blank, an SVG that parses, a PDF that pdftoppm renders, an image on
// the clipboard, nothing at a bad path and never over an open trace. Exports are light even in
// a dark theme; the text of a PDF has no ligatures.

#include "common/captionedexport.h"
#include "common/plotcontextmenu.h"
#include "common/plotexportactions.h"
#include "comparefixture.h"
#include "exportcheck.h"
#include "panes/cachebehaviourpane.h"
#include "panes/cachewhatiftab.h"
#include "panes/comparepane.h"
#include "panes/statisticscharts.h"
#include "panes/statisticspane.h"
#include "pdfcheck.h"
#include "plotexportcheck.h"
#include "shell/comparetab.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "timeline/timelineexportactions.h"
#include "timeline/timelinewidget.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

using namespace lmct;
using namespace lmct::test;

namespace {

/** The timeline a plot belongs to, or nullptr. */
TimelineWidget *timelineOf(QCustomPlot *plot) {
    for (QObject *o = plot->parent(); o; o = o->parent()) {
        if (auto *t = qobject_cast<TimelineWidget *>(o)) {
            return t;
        }
    }
    return nullptr;
}

/** The export actions of `plot`: the timeline's, or those PlotContextMenu installed. */
PlotExportActions *actionsOf(QCustomPlot *plot) {
    if (TimelineWidget *t = timelineOf(plot); t && t->plot() == plot) {
        return t->exportActions();
    }
    return PlotContextMenu::actionsOf(plot);
}

/** The class of the view that holds `plot` (TimelineWidget, CacheWhatIfTab, ComparePane,
 *  StatisticsPane). */
QString ownerClass(QCustomPlot *plot) {
    for (QObject *o = plot->parent(); o; o = o->parent()) {
        for (const char *name : {"lmct::TimelineWidget", "lmct::CacheWhatIfTab",
                                 "lmct::ComparePane", "lmct::StatisticsPane"}) {
            if (o->inherits(name)) {
                return QString::fromLatin1(name);
            }
        }
    }
    return QString();
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe0, 0xe0, 0xe0);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    return p;
}

/** The mean lightness of `img`'s pixels (0..255). */
double meanLightness(const QImage &img) {
    double sum = 0;
    for (int y = 0; y < img.height(); y += 2) {
        for (int x = 0; x < img.width(); x += 2) {
            sum += img.pixelColor(x, y).lightness();
        }
    }
    return sum / (double((img.width() + 1) / 2) * ((img.height() + 1) / 2));
}

}  // namespace

class TestGuiPlotExports : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_b;
    std::unique_ptr<MainWindow> m_w;
    CompareTab *m_compare = nullptr;

    /** Opens the plot's context menu, calls `inMenu` while it is open; false when none showed. */
    bool withContextMenu(QCustomPlot *plot, const std::function<void(QMenu *)> &inMenu) {
        bool seen = false;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, this, [&] {
            if (auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) {
                poll.stop();
                seen = true;
                inMenu(menu);
                menu->close();
            }
        });
        poll.start();
        QTimer::singleShot(5000, &poll, &QTimer::stop);
        emit plot->customContextMenuRequested(plot->rect().center());
        return seen;
    }

    /** Shows and raises the dock holding `view`. */
    void raiseDockOf(QWidget *view) {
        for (QDockWidget *d : m_w->findChildren<QDockWidget *>()) {
            if (d->widget() && d->isAncestorOf(view)) {
                d->show();
                d->raise();
            }
        }
        QCoreApplication::processEvents();
    }

    /** Every plot of the window but the timelines' overview strips. */
    QList<QCustomPlot *> plots() const {
        QList<QCustomPlot *> out;
        for (QCustomPlot *p : m_w->findChildren<QCustomPlot *>()) {
            TimelineWidget *t = timelineOf(p);
            if (t && t->overview() == p) {
                continue;  // the navigator of the timeline above it, no picture of its own
            }
            out << p;
        }
        return out;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_plotexports"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        WorkloadSpec sa, sb;
        sb.rounds = 12;
        sb.l1Bytes /= 2;
        sb.policy = QStringLiteral("FIFO");
        m_a = writeFile(m_dir, QStringLiteral("a.lct"), makeWorkload(sa).bytes);
        m_b = writeFile(m_dir, QStringLiteral("b.lct"), makeWorkload(sb).bytes);

        m_w = std::make_unique<MainWindow>();
        m_w->setShowDialogs(false);
        m_w->resize(1500, 950);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
        TraceTab *tab = openAndWait(*m_w, m_a);
        QVERIFY(tab);
        // the Cache Behaviour dock in front, on its What-if tab: the curves are worked out
        auto *pane = m_w->findChild<CacheBehaviourPane *>();
        QVERIFY(pane);
        raiseDockOf(pane);
        pane->tabs()->setCurrentIndex(CacheBehaviourPane::WhatIfTab);
        QTRY_VERIFY_WITH_TIMEOUT(pane->analysis() && !pane->whatIfTab()->isRunning() &&
                                     pane->whatIfTab()->curveGraph(CachePolicy::Kind::Lru),
                                 60000);
        m_compare = m_w->compareFiles(m_a, m_b);
        QVERIFY(m_compare);
        QSignalSpy compared(m_compare, &CompareTab::compared);
        QVERIFY(compared.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(
            !m_compare->timelineA()->isIndexing() && !m_compare->timelineB()->isIndexing(), 20000);
        // back to the trace's tab: the docks (its timeline, the Cache Behaviour pane) show it
        // again (a comparison's tab has the docks step aside), the comparison's plots stay
        m_w->tabWidget()->setCurrentWidget(tab);
        raiseDockOf(pane);
        QTRY_VERIFY_WITH_TIMEOUT(pane->analysis() && !pane->whatIfTab()->isRunning() &&
                                     pane->whatIfTab()->curveGraph(CachePolicy::Kind::Lru),
                                 60000);
        auto *docked = m_w->findChild<TimelineWidget *>();
        QTRY_VERIFY_WITH_TIMEOUT(docked && docked->viewState() && docked->viewState()->document() &&
                                     !docked->isIndexing(),
                                 20000);
        // the Statistics pane in front: its charts are drawn
        StatisticsPane *stats = m_w->statisticsPane();
        raiseDockOf(stats);
        QTRY_VERIFY_WITH_TIMEOUT(!stats->isBusy() && stats->charts()->charts().size() == 2, 30000);
    }

    void cleanupTestCase() { m_w.reset(); }

    void everyPlotHasItsExportMenu() {
        const QList<QCustomPlot *> all = plots();
        QSet<QString> classes;
        for (QCustomPlot *p : all) {
            PlotExportActions *a = actionsOf(p);
            QVERIFY2(a,
                     qPrintable(
                         QStringLiteral("a plot of %1 has no export actions").arg(ownerClass(p))));
            classes.insert(ownerClass(p));
            QVERIFY(!a->spec().title.isEmpty());
            QVERIFY(a->spec().caption && !a->spec().caption().isEmpty());
        }
        // the timeline (a trace's and a comparison's two), the What-if tab's curves and three
        // histograms, the Compare pane's three plots, the Statistics pane's two charts
        QCOMPARE(classes,
                 (QSet<QString>{
                     QStringLiteral("lmct::TimelineWidget"), QStringLiteral("lmct::CacheWhatIfTab"),
                     QStringLiteral("lmct::ComparePane"), QStringLiteral("lmct::StatisticsPane")}));
        QVERIFY2(all.size() >= 1 + 4 + 3 + 2 + 2, qPrintable(QString::number(all.size())));
    }

    void contextMenusOfferTheExports() {
        auto *pane = m_w->findChild<CacheBehaviourPane *>();
        for (QCustomPlot *p : {pane->hitPlot(), m_compare->pane()->whatIfPlot()}) {
            PlotExportActions *a = actionsOf(p);
            QStringList texts;
            QVERIFY(withContextMenu(p, [&](QMenu *menu) {
                for (QAction *x : menu->actions()) {
                    texts << x->text();
                    if (x->menu()) {
                        QCOMPARE(x->menu(), a->sizeMenu());
                    }
                }
                for (QAction *x : a->actions()) {
                    QVERIFY2(menu->actions().contains(x), qPrintable(x->text()));
                    QVERIFY2(x->isEnabled(), qPrintable(x->text()));
                }
            }));
            QVERIFY2(texts.contains(QStringLiteral("Export What-if Curves as &PNG…")),
                     qPrintable(texts.join(QStringLiteral(" | "))));
            QVERIFY(texts.contains(QStringLiteral("&Copy Image")));
        }
    }

    void everyPlotExportsPngSvgPdfAndCopies() {
        const QSize asked(640, 400);
        static const QRegularExpression file(QStringLiteral("\\b[ab]\\.lct\\b"));
        int n = 0;
        for (QCustomPlot *p : plots()) {
            PlotExportActions *a = actionsOf(p);
            QVERIFY(a->setPngSize(asked));
            const QString what =
                QStringLiteral("%1 #%2 (%3)").arg(ownerClass(p)).arg(n).arg(a->spec().title);
            const QString base = m_dir.filePath(QStringLiteral("plot%1").arg(n++));
            // PNG, SVG (with the caption's file name), PDF and the copy
            const QString exports = checkPlotExports(a, base, asked, file, what);
            QVERIFY2(exports.isEmpty(), qPrintable(exports));
            // a bad path, the trace shown and the other open one (both traces are open: the
            // comparison's): refused, nothing written
            QVERIFY(!a->spec().inputPath().isEmpty());
            const QString refused = checkRefusedTargets(
                a, m_dir.filePath(QStringLiteral("no-such-dir/x%1.png").arg(n)), {m_a, m_b}, what);
            QVERIFY2(refused.isEmpty(), qPrintable(refused));
        }
        QVERIFY(n >= 12);
    }

    void svgTitleIsWhatThePlotShows() {
        // An SVG's <title> was its file name ("plot3.svg"): it is the caption's subject and the
        // plot ("a.lct — timeline"), a comparison's both traces.
        QMap<QString, QString> titles;
        for (QCustomPlot *p : plots()) {
            PlotExportActions *a = actionsOf(p);
            const QString path = m_dir.filePath(QStringLiteral("titled.svg"));
            QString error;
            QVERIFY2(a->exportTo(PlotExport::Format::Svg, path, &error), qPrintable(error));
            titles.insert(svgTitle(path), ownerClass(p));
        }
        for (const QString &want :
             {QStringLiteral("a.lct — timeline"), QStringLiteral("a.lct — what-if curves"),
              QStringLiteral("a.lct — reuse distance histogram"),
              QStringLiteral("a.lct ⇄ b.lct — latency plot"),
              QStringLiteral("a.lct ⇄ b.lct — what-if curves")}) {
            QVERIFY2(titles.contains(want), qPrintable(titles.keys().join(QStringLiteral(" | "))));
        }
    }

    void regression_fullDiskLeavesNoFile() {
        // The SVG export onto a full disk said it was written and left a truncated file: every
        // plot's every format fails saying the disk is full and leaves nothing.
        const SmallDisk disk;
        if (!disk.isMounted()) {
            QSKIP("cannot mount a small tmpfs here (needs root)");
        }
        int n = 0;
        for (QCustomPlot *p : plots()) {
            PlotExportActions *a = actionsOf(p);
            const QString what =
                QStringLiteral("%1 #%2 (%3)").arg(ownerClass(p)).arg(n++).arg(a->spec().title);
            const QString full = checkFullDisk(a, disk, what);
            QVERIFY2(full.isEmpty(), qPrintable(full));
        }
        QVERIFY(n >= 12);
    }

    void pdfTextHasNoLigatures() {
        // Issue #21: the PDF's axis texts had ligatures ("ﬁnish_write"): a copy or a search for
        // "finish" found nothing. Every text of a plot, axes, titles and legend too, keeps its
        // letters.
        if (!havePoppler()) {
            QSKIP("pdftotext (poppler-utils) is not installed");
        }
        QCustomPlot plot;
        plot.resize(600, 360);
        plot.xAxis->setLabel(QStringLiteral("offline fluffy filter"));
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        ticker->addTick(1, QStringLiteral("finish_write"));
        ticker->addTick(2, QStringLiteral("affinity"));
        plot.yAxis->setTicker(ticker);
        plot.yAxis->setRange(0, 3);
        plot.plotLayout()->insertRow(0);
        plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QStringLiteral("first fit")));
        QCPGraph *g = plot.addGraph();
        g->setName(QStringLiteral("efficient"));
        g->addData(0, 1);
        g->addData(1, 2);
        plot.legend->setVisible(true);
        auto *text = new QCPItemText(&plot);
        text->position->setCoords(0.5, 1.5);
        text->setText(QStringLiteral("configured flow"));
        PlotExportSpec spec;
        spec.plot = &plot;
        spec.caption = [] { return QStringLiteral("file.lct  —  no filter"); };
        const QString pdf = m_dir.filePath(QStringLiteral("ligatures.pdf"));
        QString error;
        QVERIFY2(
            CaptionedExport::save(spec, pdf, PlotExport::Format::Pdf, QSize(600, 360), 1.0, &error),
            qPrintable(error));
        const QString raw = pdfRawText(pdf);
        QVERIFY2(ligaturesIn(raw).isEmpty(), qPrintable(raw));
        for (const char *word : {"offline fluffy filter", "finish_write", "affinity", "first fit",
                                 "efficient", "configured flow", "file.lct"}) {
            QVERIFY2(raw.contains(QLatin1String(word)), qPrintable(word + (": " + raw)));
        }
        const QList<QImage> pages = pdfPages(pdf, 72);
        QCOMPARE(pages.size(), 1);
        QVERIFY(grayVariance(pages.first()) > 10);
        // the plot on screen keeps its fonts (shaped as usual)
        QVERIFY(!(plot.xAxis->labelFont().styleStrategy() & QFont::PreferNoShaping));
        QVERIFY(!(plot.yAxis->tickLabelFont().styleStrategy() & QFont::PreferNoShaping));
        // and the viewer's own plots that name finish_write: the Statistics pane's calls chart
        // and the timeline's lanes (which set their fonts again as they are laid out)
        for (QCustomPlot *p : {m_w->statisticsPane()->charts()->charts().first(),
                               m_w->findChild<TimelineWidget *>()->plot()}) {
            const QString out = m_dir.filePath(QStringLiteral("own-ligatures.pdf"));
            QVERIFY2(actionsOf(p)->exportTo(PlotExport::Format::Pdf, out, &error),
                     qPrintable(error));
            const QString own = pdfRawText(out);
            QVERIFY2(own.contains(QStringLiteral("finish_write")) && ligaturesIn(own).isEmpty(),
                     qPrintable(actionsOf(p)->spec().title + QStringLiteral(": ") + own));
        }
    }

    void captionsSayWhatIsPlotted() {
        auto *pane = m_w->findChild<CacheBehaviourPane *>();
        const QString curves = actionsOf(pane->hitPlot())->spec().caption();
        QVERIFY2(curves.startsWith(QStringLiteral("a.lct  —  whole trace (")), qPrintable(curves));
        QVERIFY2(curves.contains(QStringLiteral("keys of all models")), qPrintable(curves));
        QVERIFY2(curves.contains(QStringLiteral(" at C = ")), qPrintable(curves));
        QVERIFY2(curves.contains(QStringLiteral("configured L1 1 KiB · LRU")), qPrintable(curves));
        const QString hist =
            actionsOf(pane->histogramPlot(CacheBehaviourPane::DistanceKeysHistogram))
                ->spec()
                .caption();
        QVERIFY2(hist.contains(QStringLiteral("keys of all models")), qPrintable(hist));
        const QString cmp = actionsOf(m_compare->pane()->whatIfPlot())->spec().caption();
        QVERIFY2(cmp.startsWith(QStringLiteral("A: a.lct  —  B: b.lct")), qPrintable(cmp));
        QVERIFY2(cmp.contains(QStringLiteral("B configured L1 512 B · FIFO")), qPrintable(cmp));
        const QString lat = actionsOf(m_compare->pane()->latencyPlot())->spec().caption();
        QVERIFY2(lat.contains(QStringLiteral("distribution of ")), qPrintable(lat));
    }

    void chartsFollowADarkTheme() {
        // Issue #21: every chart but the timeline stayed white in a dark theme. Each follows
        // its palette on screen (background, axes, legend, title) and still exports light.
        // the window's palette, and the comparison's tab's (as exportsAreLightInADarkTheme)
        const QList<QWidget *> tops{m_w.get(), m_compare};
        for (QWidget *top : tops) {
            top->setPalette(darkPalette());
        }
        int n = 0;
        for (QCustomPlot *p : plots()) {
            if (timelineOf(p)) {
                continue;  // styled by the timeline itself (exportsAreLightInADarkTheme)
            }
            const QString what = ownerClass(p) + QStringLiteral(" #") + QString::number(n++);
            QVERIFY2(p->palette().color(QPalette::Base).lightness() < 100, qPrintable(what));
            const QImage screen = p->toPixmap(320, 200).toImage();
            QVERIFY2(meanLightness(screen) < 110,
                     qPrintable(QStringLiteral("%1 on screen: mean lightness %2")
                                    .arg(what)
                                    .arg(meanLightness(screen))));
            QCOMPARE(p->xAxis->tickLabelColor(), darkPalette().color(QPalette::Text));
            PlotExportActions *a = actionsOf(p);
            QVERIFY(a->setPngSize(QSize(480, 300)));
            const QImage img = a->image();
            QVERIFY2(
                meanLightness(img) > 180,
                qPrintable(QStringLiteral("%1 exported: %2").arg(what).arg(meanLightness(img))));
            // and dark again after the export, with the palette it inherits
            QVERIFY(!p->testAttribute(Qt::WA_SetPalette));
            QVERIFY(meanLightness(p->toPixmap(320, 200).toImage()) < 110);
        }
        QVERIFY2(n >= 9, qPrintable(QString::number(n)));
        for (QWidget *top : tops) {
            top->setPalette(QPalette());
        }
        for (QCustomPlot *p : plots()) {
            if (!timelineOf(p)) {
                QVERIFY(meanLightness(p->toPixmap(320, 200).toImage()) > 150);
                QVERIFY(p->xAxis->tickLabelColor().lightness() < 100);
            }
        }
    }

    void regression_openComparisonFollowsAPaletteSetLater() {
        // Issue #20: a palette set on the window, or on the application, while a comparison's
        // tab was open did not reach that tab's charts (a theme set at start did).
        QVERIFY(m_w->tabWidget()->indexOf(m_compare) >= 0);
        const auto comparisonPlots = [this] {
            QList<QCustomPlot *> out;
            for (QCustomPlot *p : m_compare->findChildren<QCustomPlot *>()) {
                TimelineWidget *t = timelineOf(p);
                if (!t || t->plot() == p) {
                    out << p;  // (not the timelines' overview strips)
                }
            }
            return out;
        };
        QVERIFY(comparisonPlots().size() >= 2 + 3);  // two timelines, the Compare pane's plots
        const auto check = [&](bool dark, const QString &how) {
            for (QCustomPlot *p : comparisonPlots()) {
                const QString what = ownerClass(p) + QStringLiteral(" after ") + how;
                QWidget *own = timelineOf(p) ? static_cast<QWidget *>(timelineOf(p)) : p;
                QVERIFY2((own->palette().color(QPalette::Base).lightness() < 100) == dark,
                         qPrintable(what));
                const double lightness = meanLightness(p->toPixmap(320, 200).toImage());
                QVERIFY2(
                    dark ? lightness < 110 : lightness > 150,
                    qPrintable(QStringLiteral("%1: mean lightness %2").arg(what).arg(lightness)));
            }
        };
        const QPalette before = QApplication::palette();
        for (const bool onApplication : {false, true}) {
            const QString how = onApplication ? QStringLiteral("QApplication::setPalette")
                                              : QStringLiteral("the window's setPalette");
            if (onApplication) {
                QApplication::setPalette(darkPalette());
            } else {
                m_w->setPalette(darkPalette());
            }
            QCoreApplication::processEvents();
            check(true, how);
            if (QTest::currentTestFailed()) {
                break;
            }
            if (onApplication) {
                QApplication::setPalette(before);
            } else {
                m_w->setPalette(QPalette());
            }
            QCoreApplication::processEvents();
            check(false, how + QStringLiteral(", light again"));
            if (QTest::currentTestFailed()) {
                break;
            }
        }
        QApplication::setPalette(before);
        m_w->setPalette(QPalette());
    }

    void exportsAreLightInADarkTheme() {
        // The docked timeline inherits the window's dark palette (an application's palette
        // reaches the widgets from its event loop only), the comparison's has its own.
        m_w->setPalette(darkPalette());
        auto *pane = m_w->findChild<CacheBehaviourPane *>();
        TimelineWidget *docked = m_w->findChild<TimelineWidget *>();
        TimelineWidget *own = m_compare->timelineA();
        own->setPalette(darkPalette());
        for (TimelineWidget *t : {docked, own}) {
            QVERIFY(t->palette().color(QPalette::Window).lightness() < 100);
        }
        for (QCustomPlot *p : {docked->plot(), own->plot(), pane->hitPlot()}) {
            PlotExportActions *a = actionsOf(p);
            QVERIFY(a->setPngSize(QSize(640, 400)));
            const QImage img = a->image();
            QVERIFY(!img.isNull());
            QVERIFY2(meanLightness(img) > 180, qPrintable(QStringLiteral("%1: mean lightness %2")
                                                              .arg(a->spec().title)
                                                              .arg(meanLightness(img))));
        }
        // on screen they are dark again, with the palette they had: inherited, or their own
        for (TimelineWidget *t : {docked, own}) {
            QVERIFY(t->palette().color(QPalette::Window).lightness() < 100);
        }
        QVERIFY(!docked->testAttribute(Qt::WA_SetPalette));
        QVERIFY(own->testAttribute(Qt::WA_SetPalette));
        m_w->setPalette(QPalette());
        own->setPalette(QPalette());
        QVERIFY(docked->palette().color(QPalette::Window).lightness() > 150);
    }
};

QTEST_MAIN(TestGuiPlotExports)
#include "tst_gui_plotexports.moc"
