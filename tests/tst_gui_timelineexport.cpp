// Timeline exports from the app's TimelineWidget (offscreen): the plot's context menu offers
// Export Timeline as PNG/SVG/PDF and Copy Image (the very actions of File > Export), the
// exports have the caption (file, range, filter), PNGs have plot size × scale pixels, and the
// menu leaves the other right-click entries and the drag interactions working.

#include "exportcheck.h"
#include "mainwindow.h"
#include "plotexport.h"
#include "timelineexport.h"
#include "timelineexportactions.h"
#include "timelinefixture.h"
#include "timelinewidget.h"
#include "traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <functional>

using namespace lmct;
using lmct::test::grayVariance;
using lmct::test::svgText;

namespace {

const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TstGuiTimelineExport : public QObject, public lmct::test::TimelineFixture {
    Q_OBJECT

    /**
     * Opens the plot's context menu at `pos`, calls `inMenu` with it while it is open, then
     * closes it. Returns false when no menu showed.
     */
    bool withContextMenu(const QPoint &pos, const std::function<void(QMenu *)> &inMenu) {
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
        emit m_w->plot()->customContextMenuRequested(pos);  // exec() returns when closed
        return seen;
    }

    QPoint laneCenter(int row) const { return m_w->lanes()->rowRect(row).center().toPoint(); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_timelineexport"));
        QSettings().clear();
    }

    void init() { QVERIFY(openTimeline(kSchema2, QSize(1000, 560))); }

    void cleanup() { closeTimeline(); }

    void contextMenuOffersExportsAndKeepsLaneEntries() {
        TimelineExportActions *ex = m_w->exportActions();
        QVERIFY(ex);
        QList<QAction *> shown;
        QStringList texts;
        QVERIFY(withContextMenu(laneCenter(1), [&](QMenu *menu) {
            shown = menu->actions();
            for (QAction *a : shown) {
                texts << a->text();
            }
        }));
        for (QAction *a : ex->actions()) {
            QVERIFY2(shown.contains(a), qPrintable(a->text()));
            QVERIFY2(a->isEnabled(), qPrintable(a->text()));
        }
        QVERIFY(texts.contains(QStringLiteral("Export Timeline as &PNG…")));
        QVERIFY(texts.contains(QStringLiteral("&Copy Image")));
        QVERIFY(texts.contains(QStringLiteral("PNG &Scale")));
        // the lane entries of the menu are still there
        QVERIFY(std::any_of(texts.begin(), texts.end(),
                            [](const QString &t) { return t.startsWith(QStringLiteral("Hide")); }));
        QVERIFY(texts.contains(QStringLiteral("Lanes")));
    }

    void contextMenuPngExportWritesPlotSizeTimesScale() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("menu.png"));
        TimelineExportActions *ex = m_w->exportActions();
        QString askedSuggestion;
        ex->setPathProvider([&](const QString &, const QString &suggested, const QString &) {
            askedSuggestion = suggested;
            return out;
        });
        ex->setPngScale(2);
        QSignalSpy exported(ex, &TimelineExportActions::exported);
        QVERIFY(withContextMenu(laneCenter(0),
                                [&](QMenu *) { ex->pngAction()->activate(QAction::Trigger); }));
        QCOMPARE(exported.count(), 1);
        QVERIFY2(askedSuggestion.endsWith(QStringLiteral("schema2-prefetch-spec-tp2-timeline.png")),
                 qPrintable(askedSuggestion));
        const QImage img(out);
        QCOMPARE(img.size(), m_w->plot()->size() * 2);
        QVERIFY(grayVariance(img) > 100);
        // at the screen's ratio (offscreen: 1)
        ex->setPngScale(0);
        QCOMPARE(ex->effectiveScale(), std::max(1.0, m_w->devicePixelRatioF()));
        ex->pngAction()->trigger();
        QCOMPARE(QImage(out).size(), m_w->plot()->size() * ex->effectiveScale());
        // a cancelled dialog writes nothing
        QFile::remove(out);
        ex->setPathProvider(
            [](const QString &, const QString &, const QString &) { return QString(); });
        ex->pngAction()->trigger();
        QVERIFY(!QFile::exists(out));
    }

    void svgAndPdfActionsWriteVectors() {
        QTemporaryDir dir;
        TimelineExportActions *ex = m_w->exportActions();
        QString out = dir.filePath(QStringLiteral("t.svg"));
        ex->setPathProvider([&](const QString &, const QString &, const QString &) { return out; });
        ex->svgAction()->trigger();
        bool ok = false;
        const QString text = svgText(out, &ok);
        QVERIFY(ok);
        QVERIFY(m_w->lanes()->rows().size() >= 5);
        for (const TimelineLanes::Row &row : m_w->lanes()->rows()) {
            QVERIFY2(text.contains(row.label), qPrintable(row.label));  // the lane labels
        }
        QVERIFY(text.contains(QStringLiteral("schema2-prefetch-spec-tp2.lct")));  // caption
        QVERIFY(text.contains(QStringLiteral("calls/s")));                        // rate plot
        out = dir.filePath(QStringLiteral("t.pdf"));
        ex->pdfAction()->trigger();
        const QByteArray pdf = readAll(out);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.size() > 1000);
    }

    void captionNamesFileRangeAndFilter() {
        m_w->setVisibleRange(1.0, 2.0);
        QString c = TimelineExport::caption(*m_w);
        QVERIFY2(c.contains(QStringLiteral("schema2-prefetch-spec-tp2.lct")), qPrintable(c));
        QVERIFY2(c.contains(QStringLiteral("t_mono 1.000000 … 2.000000 s")), qPrintable(c));
        QVERIFY2(c.contains(QStringLiteral("no filter")), qPrintable(c));
        const QString f = QStringLiteral("call == reserve_write");
        m_state->setFilterText(f);
        m_state->setFilterResult(f, std::make_shared<const std::vector<int>>());
        c = TimelineExport::caption(*m_w);
        QVERIFY2(c.contains(QStringLiteral("filter: call == reserve_write")), qPrintable(c));
        m_w->setTimeMode(TimelineWidget::TimeMode::Wall);
        c = TimelineExport::caption(*m_w);
        QVERIFY2(c.contains(QStringLiteral("t_wall ")), qPrintable(c));
        // the caption is in the export, and gone from the widget afterwards
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("c.svg"));
        const int elements = m_w->plot()->plotLayout()->elementCount();
        QString error;
        QVERIFY2(TimelineExport::save(m_w, out, PlotExport::Format::Svg, QSize(), 1, &error),
                 qPrintable(error));
        bool ok = false;
        QVERIFY(svgText(out, &ok).contains(QStringLiteral("filter: call == reserve_write")));
        QCOMPARE(m_w->plot()->plotLayout()->elementCount(), elements);
    }

    void exportRestoresThePlot() {
        const double dpr = m_w->plot()->bufferDevicePixelRatio();
        const QCPRange r = m_w->visibleRange();
        const QImage img = TimelineExport::toImage(m_w, QSize(400, 300), 3);
        QCOMPARE(img.size(), QSize(1200, 900));
        QVERIFY(grayVariance(img) > 100);
        QCOMPARE(m_w->plot()->bufferDevicePixelRatio(), dpr);
        QCOMPARE(m_w->visibleRange(), r);
        QCOMPARE(m_w->plot()->viewport().size(), m_w->plot()->size());
    }

    void copyImagePutsTheTimelineOnTheClipboard() {
        QApplication::clipboard()->clear();
        TimelineExportActions *ex = m_w->exportActions();
        ex->setPngScale(3);
        ex->copyAction()->trigger();
        const QImage img = QApplication::clipboard()->image();
        QCOMPARE(img.size(), m_w->plot()->size() * 3);
        QVERIFY(grayVariance(img) > 100);
    }

    void exportRefusesTheInputTrace() {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("copy.lct"));
        QVERIFY(QFile::copy(kSchema2, copy));
        QString error;
        auto doc = TraceLoader::load(copy, &error);
        QVERIFY(doc);
        m_state->setDocument(doc);
        const QByteArray before = readAll(copy);
        QVERIFY(!m_w->exportActions()->exportTo(PlotExport::Format::Png, copy, &error));
        QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
        QCOMPARE(readAll(copy), before);
    }

    void dragsStillWorkAfterTheMenu() {
        QVERIFY(withContextMenu(laneCenter(2), [](QMenu *) {}));
        // a right-button drag neither pans nor zooms
        const QCPRange full = m_w->visibleRange();
        const QRectF row = m_w->lanes()->rowRect(2);
        const int y = int(row.center().y());
        const int x0 = int(row.left()) + 100, x1 = int(row.left()) + 300;
        QTest::mousePress(m_w->plot(), Qt::RightButton, {}, QPoint(x0, y));
        QTest::mouseMove(m_w->plot(), QPoint(x1, y));
        QTest::mouseRelease(m_w->plot(), Qt::RightButton, {}, QPoint(x1, y));
        QCOMPARE(m_w->visibleRange(), full);
        // Ctrl+drag still zooms to the rubber band
        const double t0 = m_w->timeAxis()->pixelToCoord(x0);
        const double t1 = m_w->timeAxis()->pixelToCoord(x1);
        QTest::mousePress(m_w->plot(), Qt::LeftButton, Qt::ControlModifier, QPoint(x0, y));
        QTest::mouseMove(m_w->plot(), QPoint(x1, y));
        QTest::mouseRelease(m_w->plot(), Qt::LeftButton, Qt::ControlModifier, QPoint(x1, y));
        QVERIFY(std::abs(m_w->visibleRange().lower - t0) < 1e-9);
        QVERIFY(std::abs(m_w->visibleRange().upper - t1) < 1e-9);
        // and a plain drag pans
        const QCPRange zoomed = m_w->visibleRange();
        QTest::mousePress(m_w->plot(), Qt::LeftButton, {}, QPoint(x1, y));
        QTest::mouseMove(m_w->plot(), QPoint(x0, y));
        QTest::mouseRelease(m_w->plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QVERIFY(m_w->visibleRange().lower > zoomed.lower);
    }

    void fileExportMenuSharesTheActions() {
        MainWindow window;
        auto *timeline = window.findChild<TimelineWidget *>();
        QVERIFY(timeline);
        QMenu *exportMenu = nullptr;
        for (QAction *top : window.menuBar()->actions()) {
            if (!top->menu()) {
                continue;
            }
            for (QAction *a : top->menu()->actions()) {
                if (a->menu() && a->text() == QStringLiteral("&Export")) {
                    exportMenu = a->menu();
                }
            }
        }
        QVERIFY(exportMenu);
        for (QAction *a : timeline->exportActions()->actions()) {
            QVERIFY2(exportMenu->actions().contains(a), qPrintable(a->text()));
        }
        // no trace: disabled
        emit exportMenu->aboutToShow();
        QVERIFY(!timeline->exportActions()->pngAction()->isEnabled());
    }
};

QTEST_MAIN(TstGuiTimelineExport)
#include "tst_gui_timelineexport.moc"
