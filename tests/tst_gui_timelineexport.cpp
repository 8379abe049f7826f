// Timeline exports from the app's TimelineWidget (offscreen): the plot's context menu offers
// Export Timeline as PNG/SVG/PDF and Copy Image (the very actions of File > Export), the
// exports have the caption (file, range, filter), PNGs have plot size × scale pixels, and the
// menu leaves the other right-click entries and the drag interactions working.

#include "cache/keyanalysis.h"
#include "common/captionedexport.h"
#include "common/exportsizedialog.h"
#include "common/plotexport.h"
#include "exportcheck.h"
#include "plotexportcheck.h"
#include "shell/headlessexport.h"
#include "shell/mainwindow.h"
#include "testutil.h"
#include "timeline/timelineexport.h"
#include "timeline/timelineexportactions.h"
#include "timeline/timelinehitplot.h"
#include "timeline/timelineplotlayout.h"
#include "timeline/timelinewidget.h"
#include "timelinefixture.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"
#include "viewstate.h"
#include "whatif/hitovertime.h"
#include "whatif/usesequence.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <functional>

using namespace lmct;
using lmct::test::checkPlotExports;
using lmct::test::firstTextBand;
using lmct::test::grayVariance;
using lmct::test::laneRows;
using lmct::test::svgText;
using lmct::test::textBands;

namespace {

const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");
// nine rows: eight calls and the read_prefetched_results spans
const QString kNineLanes = QStringLiteral(LMCT_TRACES "/newest-unknown-spec-tp4.lct");

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

    /** The entry of the Export Size submenu whose text is `text`, or nullptr. */
    static QAction *sizeEntry(TimelineExportActions *ex, const QString &text) {
        for (QAction *a : ex->sizeMenu()->actions()) {
            if (a->text() == text) {
                return a;
            }
        }
        return nullptr;
    }

    /** The texts of the checked entries of the Export Size submenu. */
    static QStringList checkedEntries(TimelineExportActions *ex) {
        QStringList on;
        for (QAction *a : ex->sizeMenu()->actions()) {
            if (a->isChecked()) {
                on << a->text();
            }
        }
        return on;
    }

    /** Runs `action`, closing the message box it opens; returns the box's text ("": none). */
    static QString closingMessageBox(const std::function<void()> &action) {
        QString text;
        QTimer poll;
        poll.setInterval(10);
        QObject::connect(&poll, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                text = box->text();
                box->close();
            }
        });
        poll.start();
        action();
        return text;
    }

    /**
     * What is wrong with the picture of the open timeline at `size` as laid out for it (while
     * the export's layout is in place, after it is drawn): lane labels over each other or out
     * of the lanes, a lane drawn nowhere, the rate plot's value labels over each other or its
     * axis label longer than the plot, a legend or plot not wholly in the picture, a blank or
     * mis-sized image. Empty when nothing. `parts` gets what was laid out: "legend", "rate",
     * "hit", "merged" when there.
     */
    QString smallLayoutProblems(QSize size, QStringList *parts, QString *caption) {
        QStringList problems;
        const QRect picture(QPoint(0, 0), size);
        QImage img;
        {
            const CaptionedExport scope(TimelineExport::spec(m_w), size);
            img = PlotExport::toImage(m_w->plot(), size.width(), size.height(), 1.0);
            *caption = TimelineExport::caption(*m_w);
            const TimelineLanes *lanes = m_w->lanes();
            QCPAxis *left = lanes->valueAxis();
            const QRect lanesRect = left->axisRect()->rect();
            if (!picture.contains(lanesRect)) {
                problems << QStringLiteral("lanes %1,%2 %3x%4 out of the picture")
                                .arg(lanesRect.x())
                                .arg(lanesRect.y())
                                .arg(lanesRect.width())
                                .arg(lanesRect.height());
            }
            // one label per row, each within the lanes and apart from the next
            const QFont labelFont = left->tickLabelFont();
            const double labelPx = QFontMetricsF(labelFont).height();
            if (labelFont.pointSizeF() < TimelinePlotLayout::kLeastLaneLabelPt) {
                problems << QStringLiteral("labels at %1 pt").arg(labelFont.pointSizeF());
            }
            if (left->tickVector().size() != lanes->rows().size()) {
                problems << QStringLiteral("%1 labels for %2 rows")
                                .arg(left->tickVector().size())
                                .arg(lanes->rows().size());
            }
            double previous = -1e9;
            for (int r = 0; r < lanes->rows().size(); ++r) {
                const double y = left->coordToPixel(lanes->rowCenter(r));
                if (y - labelPx / 2 < lanesRect.top() - 1 ||
                    y + labelPx / 2 > lanesRect.bottom() + 2) {
                    problems << QStringLiteral("label %1 at %2 out of the lanes").arg(r).arg(y);
                }
                if (y - previous < labelPx) {
                    problems << QStringLiteral("labels %1 and %2 %3 px apart, %4 px tall")
                                    .arg(r - 1)
                                    .arg(r)
                                    .arg(y - previous)
                                    .arg(labelPx);
                }
                previous = y;
            }
            // every lane drawn, in a row of its own or in a merged one
            for (const TimelineLanes::Row &row : lanes->baseRows()) {
                if (row.kind == TimelineLanes::Row::Kind::Calls && lanes->rowOfLane(row.lane) < 0) {
                    problems << QStringLiteral("%1 drawn nowhere").arg(row.label);
                }
            }
            if (lanes->isMerged()) {
                *parts << QStringLiteral("merged");
            }
            // the rate plot: left out, or its labels apart and inside it
            QCPAxisRect *rate = m_w->rateGraphs().isEmpty()
                                    ? nullptr
                                    : m_w->rateGraphs().front()->keyAxis()->axisRect();
            if (rate && rate->visible() && rate->layout()) {
                *parts << QStringLiteral("rate");
                if (!picture.contains(rate->outerRect())) {
                    problems << QStringLiteral("rate plot out of the picture");
                }
                QCPAxis *value = rate->axis(QCPAxis::atLeft);
                const double tickPx = QFontMetricsF(value->tickLabelFont()).height();
                const QVector<double> ticks = value->tickVector();
                for (int i = 1; i < ticks.size(); ++i) {
                    const double gap =
                        std::abs(value->coordToPixel(ticks[i]) - value->coordToPixel(ticks[i - 1]));
                    if (gap < tickPx) {
                        problems << QStringLiteral("rate labels %1 px apart").arg(gap);
                    }
                }
                const double labelLength =
                    QFontMetricsF(value->labelFont()).horizontalAdvance(value->label());
                if (labelLength > rate->outerRect().height()) {
                    problems << QStringLiteral("'%1' %2 px along a %3 px plot")
                                    .arg(value->label())
                                    .arg(labelLength)
                                    .arg(rate->outerRect().height());
                }
            }
            // the legends: whole in the picture, or left out
            for (QCPLegend *legend : {m_w->rateLegend(), m_w->hitPlot()->legend()}) {
                if (legend->visible() && legend->layout()) {
                    *parts << QStringLiteral("legend");
                    if (!picture.contains(legend->outerRect())) {
                        problems << QStringLiteral("legend %1,%2 %3x%4 cut")
                                        .arg(legend->outerRect().x())
                                        .arg(legend->outerRect().y())
                                        .arg(legend->outerRect().width())
                                        .arg(legend->outerRect().height());
                    }
                }
            }
            QCPAxisRect *hit = m_w->hitPlot()->rect();
            if (hit->visible() && hit->layout()) {
                *parts << QStringLiteral("hit");
                if (!picture.contains(hit->outerRect())) {
                    problems << QStringLiteral("hit-ratio plot out of the picture");
                }
            }
        }
        if (img.size() != size || grayVariance(img) <= 10) {
            problems << QStringLiteral("image %1x%2, variance %3")
                            .arg(img.width())
                            .arg(img.height())
                            .arg(grayVariance(img));
        }
        parts->removeDuplicates();
        return problems.join(QStringLiteral("; "));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_timelineexport"));
        QSettings().clear();
    }

    void init() {
        QSettings().remove(QStringLiteral("timeline/exportSize"));  // each test starts at Screen
        QVERIFY(openTimeline(kSchema2, QSize(1000, 560)));
    }

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
        QVERIFY(texts.contains(QStringLiteral("Export &Size")));
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

    void captionLinesBreakAtSeparators() {
        const QFontMetricsF fm(m_w->font());
        const QString sep = TimelineExport::captionSeparator();
        const QString file = QStringLiteral("schema2-prefetch-spec-tp2.lct");
        const QString range = QStringLiteral("t_mono 0.000000 … 14.789770 s (14.790 s)");
        const QString filter = QStringLiteral("filter: call == read_prefetched_results.__enter__");
        const QString caption = file + sep + range + sep + filter;
        // wide enough: one line, unchanged
        QCOMPARE(TimelineExport::captionLines(caption, fm, int(fm.horizontalAdvance(caption)) + 1),
                 caption);
        // narrower: lines no wider than asked, every part whole and in order
        const int width = int(fm.horizontalAdvance(file + sep + range)) + 2;
        const QStringList lines = TimelineExport::captionLines(caption, fm, width).split('\n');
        QCOMPARE(lines, (QStringList{file + sep + range, filter}));
        // a part wider than a line: elided in its middle, the line within the width
        const QStringList tiny =
            TimelineExport::captionLines(caption, fm, int(fm.horizontalAdvance(file)) - 10)
                .split('\n');
        QCOMPARE(tiny.size(), 3);
        for (const QString &l : tiny) {
            QVERIFY2(fm.horizontalAdvance(l) <= fm.horizontalAdvance(file) - 10, qPrintable(l));
            QVERIFY2(l.contains(QChar(0x2026)), qPrintable(l));
        }
    }

    void regression_narrowExportBreaksTheCaption() {
        // Regression: an export narrower than its caption line drew one centred line with
        // both ends cut off (the file name and the filter). It now has one line per part that
        // fits: two bands of text above the plot.
        const QString f = QStringLiteral("call == read_prefetched_results.__enter__ && t_mono < 7");
        m_state->setFilterText(f);
        m_state->setFilterResult(f, std::make_shared<const std::vector<int>>());
        const QImage img = TimelineExport::toImage(m_w, QSize(420, 400), 1.0);
        m_state->setFilterText(QString());
        QCOMPARE(img.size(), QSize(420, 400));
        const int window = m_w->palette().color(QPalette::Window).lightness();
        auto inkRow = [&](int y) {
            for (int x = 0; x < img.width(); ++x) {
                if (std::abs(img.pixelColor(x, y).lightness() - window) > 50) {
                    return true;
                }
            }
            return false;
        };
        // Bands of text rows from the top: the caption's lines are a line spacing apart; below
        // one line the next text (the axis title) comes after the layout's larger gap.
        std::vector<std::pair<int, int>> bands;  // [first, last] rows
        for (int y = 0; y < 80; ++y) {
            if (!inkRow(y)) {
                continue;
            }
            if (!bands.empty() && bands.back().second == y - 1) {
                bands.back().second = y;
            } else {
                bands.emplace_back(y, y);
            }
        }
        QVERIFY(bands.size() >= 2);
        const int gap = bands[1].first - bands[0].second - 1;
        QVERIFY2(gap <= 5,
                 qPrintable(QStringLiteral("%1 blank rows after the first line").arg(gap)));
    }

    void regression_lastCaptionLineKeepsItsUnderscores() {
        // Regression: QPainter clipped the caption's text to the rect QCPTextElement
        // computed, a pixel short for several lines, so the last line lost its underscores
        // ("finish write"). Underscores are the only ink below these lines' baselines: each
        // shows as a thin band of rows under its line, so three here (the range's "t_mono",
        // the filter's "finish_write", the axis title's "t_mono").
        const QString f = QStringLiteral("call == finish_write");
        m_state->setFilterText(f);
        m_state->setFilterResult(f, std::make_shared<const std::vector<int>>());
        m_w->setTimeMode(TimelineWidget::TimeMode::Relative);
        const QImage img = TimelineExport::toImage(m_w, QSize(400, 300), 3.0);
        m_state->setFilterText(QString());
        const int window = m_w->palette().color(QPalette::Window).lightness();
        std::vector<std::pair<int, int>> bands;  // [first, last] rows with ink
        for (int y = 0; y < 200; ++y) {
            bool ink = false;
            for (int x = 0; x < img.width() && !ink; ++x) {
                ink = std::abs(img.pixelColor(x, y).lightness() - window) > 80;
            }
            if (!ink) {
                continue;
            }
            if (!bands.empty() && bands.back().second == y - 1) {
                bands.back().second = y;
            } else {
                bands.emplace_back(y, y);
            }
        }
        int thin = 0;
        for (const auto &[a, b] : bands) {
            thin += b - a + 1 <= 6;
        }
        QCOMPARE(thin, 3);
    }

    void regression_captionRangeIsTheAxisRange() {
        // Zoomed out past the first record, the caption said "t_mono 0.000000 …" while the axis
        // started below 0: it now states the axis's range as drawn.
        m_w->setTimeMode(TimelineWidget::TimeMode::Relative);
        const RecordStore &rs = m_state->document()->records();
        const double size = rs.maxTMono() - rs.minTMono();
        m_w->setVisibleRange(rs.minTMono() - 0.2 * size, rs.maxTMono());
        const QCPRange r = m_w->visibleRange();
        QVERIFY2(r.lower < 0, qPrintable(QString::number(r.lower)));
        const QString c = TimelineExport::caption(*m_w);
        QVERIFY2(c.contains(QStringLiteral("t_mono %1 … %2 s")
                                .arg(TimeFormat::mono(r.lower), TimeFormat::mono(r.upper))),
                 qPrintable(c));
    }

    void regression_rangeReachingPastTheTraceKeepsItsInsidePart() {
        // setVisibleRange(0, 1000) on a trace of a few seconds re-centred the window on the
        // trace's end (showing 1.7 … 12 s of a 0 … 7 s trace): the part of the request inside
        // the zoom-out limit (1.5 times the trace) is kept.
        const RecordStore &rs = m_state->document()->records();
        const QCPRange d(rs.minTMono(), rs.maxTMono());
        m_w->setVisibleRange(d.lower, d.lower + 1000);
        QCOMPARE(m_w->visibleRange().lower, d.lower);
        QVERIFY(m_w->visibleRange().upper <= d.upper + 0.26 * d.size());
        QVERIFY(m_w->visibleRange().upper > d.upper);
        m_w->setVisibleRange(d.lower - 1000, d.lower + 1.0);
        QCOMPARE(m_w->visibleRange().upper, d.lower + 1.0);
        QVERIFY(m_w->visibleRange().lower >= d.lower - 0.26 * d.size());
        // wholly outside: a window of the requested width at the nearest edge
        m_w->setVisibleRange(d.upper + 1000, d.upper + 1001);
        QVERIFY(m_w->visibleRange().upper <= d.upper + 0.26 * d.size());
        QVERIFY(qAbs(m_w->visibleRange().size() - 1.0) < 1e-9);
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
        m_state->setDocument(TraceLoader::load(copy, &error));
        QVERIFY2(m_state->document(), qPrintable(error));
        const QString refused = lmct::test::checkRefusedTargets(
            m_w->exportActions(), dir.filePath(QStringLiteral("missing/t.png")), {copy},
            "timeline");
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
    }

    void regression_fullDiskLeavesNoFile() {
        // The SVG export onto a full disk said it was written and left a truncated file
        // (QSvgGenerator drops its device's write errors); the PNG printed libpng's own line.
        // Every format fails saying the disk is full and leaves nothing.
        const lmct::test::SmallDisk disk;
        if (!disk.isMounted()) {
            QSKIP("cannot mount a small tmpfs here (needs root)");
        }
        const QString full = lmct::test::checkFullDisk(m_w->exportActions(), disk, "timeline");
        QVERIFY2(full.isEmpty(), qPrintable(full));
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

    void chosenSizeGivesAnExactPng() {
        TimelineExportActions *ex = m_w->exportActions();
        QCOMPARE(checkedEntries(ex), QStringList{QStringLiteral("Screen")});
        QAction *fullHd = sizeEntry(ex, QStringLiteral("1920 × 1080"));
        QVERIFY(fullHd);
        QVERIFY(sizeEntry(ex, QStringLiteral("1280 × 720")));
        QVERIFY(sizeEntry(ex, QStringLiteral("3840 × 2160")));
        fullHd->trigger();  // as a click in the menu
        QCOMPARE(ex->pngSize(), QSize(1920, 1080));
        QCOMPARE(ex->effectiveScale(), 1.0);
        QCOMPARE(checkedEntries(ex), QStringList{QStringLiteral("1920 × 1080")});
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("hd.png"));
        ex->setPathProvider([&](const QString &, const QString &, const QString &) { return out; });
        const QSize onScreen = m_w->plot()->size();
        ex->pngAction()->trigger();
        const QImage img(out);
        QCOMPARE(img.size(), QSize(1920, 1080));
        QVERIFY(grayVariance(img) > 100);
        QCOMPARE(m_w->plot()->size(), onScreen);  // the widget is unchanged
        QCOMPARE(m_w->plot()->viewport().size(), onScreen);
        // SVG and PDF are laid out at the chosen size too (as `--size` does headless): a viewBox
        // of 1920 x 1080, a page of 1920 x 1080 points; Copy Image has that size as well
        const QString checked =
            checkPlotExports(ex, dir.filePath(QStringLiteral("hd")), QSize(1920, 1080),
                             QRegularExpression(QStringLiteral("schema2-prefetch-spec-tp2\\.lct")),
                             "1920 x 1080", 100);
        QVERIFY2(checked.isEmpty(), qPrintable(checked));
        // 1920 px at 96 per inch (CSS pixels): 508 mm wide (at 72 per inch it showed 4/3 larger)
        const QByteArray svg = readAll(dir.filePath(QStringLiteral("hd.svg")));
        QVERIFY2(svg.contains("width=\"508mm\""), svg.left(400).constData());
        // a scale entry takes over again: the plot's size times the scale
        sizeEntry(ex, QStringLiteral("2×"))->trigger();
        QVERIFY(!ex->pngSize().isValid());
        QCOMPARE(checkedEntries(ex), QStringList{QStringLiteral("2×")});
        ex->pngAction()->trigger();
        QCOMPARE(QImage(out).size(), onScreen * 2);
    }

    void headlessExportSaysTheFileShrank() {
        // Regression: a trace cut short by another process while the headless export read
        // it gave exit 0 and said nothing (lmct exits 2 and says so). The picture is written,
        // the shrink said, exit 2.
        const test::SmallTrace t = test::smallTrace(3000);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("cut.lct"), t.bytes);
        HeadlessExport::Request request;
        request.input = path;
        request.output = dir.filePath(QStringLiteral("cut.png"));
        const qint64 newSize = t.frameEnds[999];
        // runs inside the export's wait for the timeline (after the load)
        QTimer::singleShot(0, [&] {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite) && f.resize(newSize));
        });
        QCOMPARE(HeadlessExport::run(request), HeadlessExport::kExitIo);
        QVERIFY(QFileInfo::exists(request.output));
        QCOMPARE(QFileInfo(path).size(), newSize);
    }

    void shortExportKeepsLaneLabelsApart() {
        // Regression: in an 800x260 export the lane labels touched. The rows were at their
        // least for the widget's font (font + 1 px), more than the picture had room for with
        // the export's caption; the layout squeezed them under labels that no longer fitted.
        // Now the caption is left out of the room, and rows shorter than the font get a
        // smaller label font: one separate band of label text per row.
        for (const QSize size : {QSize(800, 260), QSize(700, 240), QSize(1000, 300)}) {
            QTemporaryDir dir;
            HeadlessExport::Request request;
            request.input = kSchema2;
            request.output = dir.filePath(QStringLiteral("short.png"));
            request.size = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QCOMPARE(HeadlessExport::run(request), HeadlessExport::kExitOk);
            const QImage img(request.output);
            QCOMPARE(img.size(), size);
            const test::LaneRows rows = laneRows(img);
            QVERIFY(rows.heights.size() >= 2);
            // the label column, left of the lanes' colour stripes, from the first row to the last
            const QList<QPair<int, int>> bands = textBands(
                img,
                QRect(0, rows.tops.first() - 2, rows.x - 2, rows.bottom() - rows.tops.first() + 4));
            const qsizetype lanes = m_w->lanes()->rows().size();  // the same trace's rows
            // (an underscore below a label's baseline can make a band of its own: 1-2 px)
            const auto lines = std::count_if(bands.cbegin(), bands.cend(),
                                             [](const QPair<int, int> &b) { return b.second > 2; });
            QVERIFY2(lines == lanes,
                     qPrintable(QStringLiteral("%1x%2: %3 bands of label text for %4 rows")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(lines)
                                    .arg(lanes)));
        }
    }

    void smallExportLeavesOutWhatDoesNotFit() {
        // Issue #22: a trace of nine lanes exported at 640x200 and 400x150 was unreadable: lane
        // labels over each other, the rate plot's value labels over each other, the legend cut
        // at the bottom. What does not fit goes now, in this order: the legend, the rate plot,
        // then the labels shrink, then lanes merge (a stage of the call flow per row, said in
        // the caption); a large picture keeps everything.
        closeTimeline();
        QVERIFY(openTimeline(kNineLanes, QSize(1000, 560)));
        QCOMPARE(m_w->lanes()->rows().size(), 9);
        struct Want {
            QSize size;
            QStringList parts;
        };
        const Want wants[] = {
            {QSize(640, 200), {}},
            {QSize(400, 150), {QStringLiteral("merged")}},
            {QSize(1600, 900), {QStringLiteral("rate"), QStringLiteral("legend")}},
            {QSize(800, 300), {QStringLiteral("rate")}},  // room for the rate plot, not its legend
        };
        for (const Want &want : wants) {
            const QString at =
                QStringLiteral("%1x%2: ").arg(want.size.width()).arg(want.size.height());
            QStringList parts;
            QString caption;
            const QString problems = smallLayoutProblems(want.size, &parts, &caption);
            QVERIFY2(problems.isEmpty(), qPrintable(at + problems));
            parts.sort();
            QStringList wanted = want.parts;
            wanted.sort();
            QVERIFY2(parts == wanted, qPrintable(at + parts.join(QLatin1Char(','))));
            const bool merged = parts.contains(QStringLiteral("merged"));
            QVERIFY2(caption.contains(QStringLiteral("9 lanes merged into")) == merged,
                     qPrintable(at + caption));
        }
        // afterwards the widget is as it was: nine rows, the rate plot and its legend
        QCOMPARE(m_w->lanes()->rows().size(), 9);
        QVERIFY(!m_w->lanes()->isMerged());
        QVERIFY(m_w->rateLegend()->visible() && m_w->rateLegend()->layout());
        QVERIFY(m_w->rateGraphs().front()->keyAxis()->axisRect()->visible());
        QCOMPARE(m_w->laneLabelFont(), m_w->font());
    }

    void mergedLanesAreOneRowPerStage() {
        // At 400x150 the prefetch stage's five rows are one row labelled so (a collapsed track
        // group, as in Perfetto), counting all their records; the write lanes keep theirs. The
        // SVG draws the same rows and says them as text.
        closeTimeline();
        QVERIFY(openTimeline(kNineLanes, QSize(1000, 560)));
        {
            const CaptionedExport scope(TimelineExport::spec(m_w), QSize(400, 150));
            const QVector<TimelineLanes::Row> &rows = m_w->lanes()->rows();
            QVERIFY2(rows.size() >= 2 && rows.size() < 9, qPrintable(QString::number(rows.size())));
            QCOMPARE(rows.first().label, QStringLiteral("prefetch (5 lanes)"));
            QCOMPARE(rows.first().more.size() + 1, 4);  // submit, __enter__, finish_read, __exit__
            QVERIFY(TimelineExport::caption(*m_w).endsWith(
                QStringLiteral("9 lanes merged into %1 rows to fit").arg(rows.size())));
        }
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("small.svg"));
        QString error;
        QVERIFY2(
            TimelineExport::save(m_w, svg, PlotExport::Format::Svg, QSize(400, 150), 1.0, &error),
            qPrintable(error));
        bool ok = false;
        const QString text = svgText(svg, &ok);
        QVERIFY(ok);
        QVERIFY2(text.contains(QStringLiteral("prefetch (5 lanes)")), qPrintable(text));
        // headless, the same: the asked size, not blank
        for (const QSize size : {QSize(640, 200), QSize(400, 150)}) {
            HeadlessExport::Request request;
            request.input = kNineLanes;
            request.output = dir.filePath(QStringLiteral("small.png"));
            request.size = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            QCOMPARE(HeadlessExport::run(request), HeadlessExport::kExitOk);
            const QImage img(request.output);
            QCOMPARE(img.size(), size);
            QVERIFY(grayVariance(img) > 10);
        }
    }

    void smallExportLeavesOutTheHitRatioPlot() {
        // The what-if's hit-ratio plot under the lanes goes with the rate plot, and the caption
        // then says nothing of it; a large picture has both.
        ViewState::WhatIfChoice choice;
        choice.capacity = 8;
        choice.policies = {CachePolicy::Kind::Lru, CachePolicy::Kind::Opt};
        m_state->setWhatIfChoice(choice);
        const auto ka = KeyAnalysis::build(*m_doc);
        m_state->setHitOverTime(
            HitOverTime::build(UseSequence::build(*m_doc, ka), choice.policies, 8, false));
        QVERIFY(m_w->hitPlot()->isPlaced());
        struct Want {
            QSize size;
            bool plots;
        };
        for (const Want &want : {Want{QSize(640, 200), false}, Want{QSize(1600, 900), true}}) {
            const QString at =
                QStringLiteral("%1x%2: ").arg(want.size.width()).arg(want.size.height());
            QStringList parts;
            QString caption;
            const QString problems = smallLayoutProblems(want.size, &parts, &caption);
            QVERIFY2(problems.isEmpty(), qPrintable(at + problems));
            QVERIFY2(parts.contains(QStringLiteral("hit")) == want.plots,
                     qPrintable(at + parts.join(QLatin1Char(','))));
            QVERIFY2(parts.contains(QStringLiteral("rate")) == want.plots,
                     qPrintable(at + parts.join(QLatin1Char(','))));
            QVERIFY2(caption.contains(QStringLiteral("hit ratio at C = 8 chunks")) == want.plots,
                     qPrintable(at + caption));
        }
        QVERIFY(m_w->hitPlot()->isPlaced());  // on screen again
    }

    void chosenSizeIsLaidOutLikeHeadless() {
        // Issue #5: at a chosen size the GUI's export kept the on-screen lane heights (rows of
        // about 12 px, the rate plot taking most of a 1920x1080 picture) where the headless
        // export of that size has roomy rows. Both lay out at the size now: the same rows and
        // the same caption (file, the view's range, filter).
        m_w->resize(1000, 330);  // a short dock: rows at their least on screen
        m_w->setVisibleRange(2.0, 9.0);
        QTest::qWait(50);
        const double screenRow = m_w->lanes()->rowRect(0).height();
        TimelineExportActions *ex = m_w->exportActions();
        QVERIFY(ex->setPngSize(QSize(1920, 1080)));
        QTemporaryDir dir;
        const QString gui = dir.filePath(QStringLiteral("gui.png"));
        QString error;
        QVERIFY2(ex->exportTo(PlotExport::Format::Png, gui, &error), qPrintable(error));
        HeadlessExport::Request request;
        request.input = kSchema2;
        request.output = dir.filePath(QStringLiteral("headless.png"));
        request.range = QStringLiteral("2:9");
        request.size = QStringLiteral("1920x1080");
        QCOMPARE(HeadlessExport::run(request), HeadlessExport::kExitOk);
        const QImage a(gui), b(request.output);
        QCOMPARE(a.size(), QSize(1920, 1080));
        QCOMPARE(b.size(), QSize(1920, 1080));
        const test::LaneRows ra = laneRows(a), rb = laneRows(b);
        QVERIFY2(rb.heights.size() >= 5, qPrintable(QString::number(rb.heights.size())));
        QCOMPARE(ra.heights.size(), rb.heights.size());
        for (int i = 0; i < rb.heights.size(); ++i) {
            QVERIFY2(std::abs(ra.heights[i] - rb.heights[i]) <= 2,
                     qPrintable(QStringLiteral("row %1: GUI %2 px, headless %3 px")
                                    .arg(i)
                                    .arg(ra.heights[i])
                                    .arg(rb.heights[i])));
        }
        QVERIFY2(ra.heights[0] > screenRow * 1.5,  // roomier than on screen
                 qPrintable(QStringLiteral("%1 vs %2").arg(ra.heights[0]).arg(screenRow)));
        QVERIFY(std::abs(ra.bottom() - rb.bottom()) <= 4);  // the rate plot's share too
        // the same caption line, pixel for pixel
        const QPair<int, int> band = firstTextBand(b);
        QVERIFY(band.second > 5);
        QCOMPARE(firstTextBand(a), band);
        QVERIFY(a.copy(0, band.first, a.width(), band.second) ==
                b.copy(0, band.first, b.width(), band.second));
        // and the widget on screen is as it was
        QCOMPARE(m_w->lanes()->rowRect(0).height(), screenRow);
    }

    void pixelScaleIsAWholeFraction() {
        // up to 1920x1080 logical pixels, exactly the pixels asked for
        QCOMPARE(PlotExport::pixelScale(QSize(1280, 720)), 1);
        QCOMPARE(PlotExport::pixelScale(QSize(1920, 1080)), 1);
        QCOMPARE(PlotExport::pixelScale(QSize(2560, 1440)), 1);
        QCOMPARE(PlotExport::pixelScale(QSize(3840, 2160)), 2);
        QCOMPARE(PlotExport::pixelScale(QSize(5760, 3240)), 3);
        QCOMPARE(PlotExport::pixelScale(QSize(7680, 4320)), 4);
        QCOMPARE(PlotExport::pixelScale(QSize(7680, 1080)), 1);  // the smaller ratio counts
        QCOMPARE(PlotExport::pixelScale(QSize(3841, 2160)), 1);  // the exact size first
        QCOMPARE(PlotExport::pixelScale(QSize(7682, 4320)), 2);  // a divisor of both sides
    }

    void largePixelSizeScalesTexts() {
        // Issue #5: a 3840x2160 export had the texts of a 1920x1080 one (tiny in a 4K picture).
        // It is laid out at 1920x1080 and rendered at 2x: texts and rows twice as large.
        TimelineExportActions *ex = m_w->exportActions();
        QTemporaryDir dir;
        QString error;
        QVERIFY(ex->setPngSize(QSize(1920, 1080)));
        const QString hd = dir.filePath(QStringLiteral("hd.png"));
        QVERIFY2(ex->exportTo(PlotExport::Format::Png, hd, &error), qPrintable(error));
        QVERIFY(ex->setPngSize(QSize(3840, 2160)));
        const QString uhd = dir.filePath(QStringLiteral("uhd.png"));
        QVERIFY2(ex->exportTo(PlotExport::Format::Png, uhd, &error), qPrintable(error));
        const QImage a(hd), b(uhd);
        QCOMPARE(a.size(), QSize(1920, 1080));
        QCOMPARE(b.size(), QSize(3840, 2160));
        const int textA = firstTextBand(a).second, textB = firstTextBand(b).second;
        QVERIFY2(textA > 5 && textB >= textA * 1.8,
                 qPrintable(QStringLiteral("caption %1 px at 1920x1080, %2 px at 3840x2160")
                                .arg(textA)
                                .arg(textB)));
        const test::LaneRows ra = laneRows(a), rb = laneRows(b);
        QVERIFY(ra.heights.size() >= 5);
        QCOMPARE(rb.heights.size(), ra.heights.size());
        for (int i = 0; i < ra.heights.size(); ++i) {
            QVERIFY2(std::abs(rb.heights[i] - 2 * ra.heights[i]) <= 3,
                     qPrintable(QStringLiteral("row %1: %2 px, %3 px")
                                    .arg(i)
                                    .arg(ra.heights[i])
                                    .arg(rb.heights[i])));
        }
        QCOMPARE(ex->layoutSize(), QSize(1920, 1080));
        QCOMPARE(ex->effectiveScale(), 2.0);
        // vectors: 3840x2160 CSS pixels / points, the 1920x1080 layout scaled (texts stay text)
        const QString checked =
            checkPlotExports(ex, dir.filePath(QStringLiteral("uhd")), QSize(3840, 2160),
                             QRegularExpression(QStringLiteral("schema2-prefetch-spec-tp2\\.lct")),
                             "3840 x 2160", 100);
        QVERIFY2(checked.isEmpty(), qPrintable(checked));
        const QByteArray svgData = readAll(dir.filePath(QStringLiteral("uhd.svg")));
        QVERIFY2(svgData.contains("width=\"1016mm\""), svgData.left(400).constData());
    }

    void customSizeDialogRefusesTooLargeImages() {
        ExportSizeDialog dialog(QSize(1920, 1080));
        auto *width = dialog.findChild<QSpinBox *>(QStringLiteral("exportWidth"));
        auto *height = dialog.findChild<QSpinBox *>(QStringLiteral("exportHeight"));
        auto *message = dialog.findChild<QLabel *>(QStringLiteral("exportSizeMessage"));
        QPushButton *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(width && height && message && ok);
        QVERIFY(dialog.problem().isEmpty());
        QVERIFY(ok->isEnabled());
        // too wide for QPainter
        width->setValue(40000);
        height->setValue(10);
        QCOMPARE(dialog.chosenSize(), QSize(40000, 10));  // typed, not clamped
        QVERIFY(!ok->isEnabled());
        QVERIFY2(message->text().contains(QStringLiteral("at most 32767 pixels a side")),
                 qPrintable(message->text()));
        dialog.accept();
        QVERIFY(dialog.result() != QDialog::Accepted);
        // too many pixels; shown, the dialog grows to hold the message (it was clipped)
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.setChosenSize(QSize(20000, 20000));
        QVERIFY(!ok->isEnabled());
        QTRY_VERIFY(message->isVisible());
        // At its smallest, the explanation above it stays whole too (cut after its
        // fourth line).
        auto *note = dialog.findChild<QLabel *>(QStringLiteral("exportSizeNote"));
        QVERIFY(note);
        dialog.resize(1, 1);  // bounded by its minimum size
        QTRY_VERIFY2(note->height() >= note->heightForWidth(note->width()),
                     qPrintable(QStringLiteral("note %1 px high, needs %2")
                                    .arg(note->height())
                                    .arg(note->heightForWidth(note->width()))));
        QTRY_VERIFY2(message->height() >= message->heightForWidth(message->width()) &&
                         width->height() >= width->minimumSizeHint().height(),
                     qPrintable(QStringLiteral("message %1 px high, needs %2")
                                    .arg(message->height())
                                    .arg(message->heightForWidth(message->width()))));
        QVERIFY2(message->text().contains(QStringLiteral("400 million pixels")) &&
                     message->text().contains(QStringLiteral("at most 268 million")),
                 qPrintable(message->text()));
        dialog.accept();
        QVERIFY(dialog.result() != QDialog::Accepted);
        dialog.setChosenSize(QSize(2000, 1000));
        QVERIFY(ok->isEnabled());
        QVERIFY(message->text().isEmpty());
    }

    void refusedCustomSizeChangesNothing() {
        TimelineExportActions *ex = m_w->exportActions();
        QAction *custom = sizeEntry(ex, QStringLiteral("Custom Size…"));
        QVERIFY(custom);
        // a custom size through the dialog (replaced here)
        ex->setSizeProvider([](QSize) { return QSize(1000, 500); });
        custom->trigger();
        QCOMPARE(ex->pngSize(), QSize(1000, 500));
        QCOMPARE(checkedEntries(ex), QStringList{QStringLiteral("Custom Size (1000 × 500)…")});
        const QVariant stored = QSettings().value(QStringLiteral("timeline/exportSize"));
        QCOMPARE(stored.toString(), QStringLiteral("1000x500"));
        // refused sizes: a message, the previous choice stays, nothing is remembered or written
        for (const QSize &bad : {QSize(40000, 10), QSize(20000, 20000)}) {
            ex->setSizeProvider([bad](QSize) { return bad; });
            const QString text = closingMessageBox([&] { custom->trigger(); });
            QVERIFY2(text.contains(QStringLiteral("at most")), qPrintable(text));
            QCOMPARE(ex->pngSize(), QSize(1000, 500));
            QCOMPARE(QSettings().value(QStringLiteral("timeline/exportSize")), stored);
            QString error;
            QVERIFY(!ex->setPngSize(bad, &error));
            QVERIFY2(error.contains(QStringLiteral("at most")), qPrintable(error));
            QCOMPARE(checkedEntries(ex), QStringList{QStringLiteral("Custom Size (1000 × 500)…")});
        }
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("c.png"));
        QString error;
        QVERIFY2(ex->exportTo(PlotExport::Format::Png, out, &error), qPrintable(error));
        QCOMPARE(QImage(out).size(), QSize(1000, 500));
        // a cancelled dialog keeps the choice checked
        ex->setSizeProvider([](QSize) { return QSize(); });
        custom->trigger();
        QCOMPARE(ex->pngSize(), QSize(1000, 500));
        QVERIFY(custom->isChecked());
        // a plot too large for an image at 4x is refused before rendering, and writes nothing
        ex->setPngScale(4);
        m_w->resize(9000, 600);
        QCoreApplication::processEvents();
        QVERIFY(m_w->plot()->width() * 4 > PlotExport::kMaxImageSide);
        const QString huge = dir.filePath(QStringLiteral("huge.png"));
        QVERIFY(!ex->exportTo(PlotExport::Format::Png, huge, &error));
        QVERIFY2(error.contains(QStringLiteral("at most 32767 pixels a side")), qPrintable(error));
        QVERIFY(!QFile::exists(huge));
    }

    void sizeChoicePersists() {
        TimelineExportActions *ex = m_w->exportActions();
        sizeEntry(ex, QStringLiteral("1920 × 1080"))->trigger();
        {
            TimelineWidget other;  // a new timeline, so new TimelineExportActions
            QCOMPARE(other.exportActions()->pngSize(), QSize(1920, 1080));
            QCOMPARE(checkedEntries(other.exportActions()),
                     QStringList{QStringLiteral("1920 × 1080")});
        }
        {
            MainWindow window;
            auto *timeline = window.findChild<TimelineWidget *>();
            QVERIFY(timeline);
            QCOMPARE(timeline->exportActions()->pngSize(), QSize(1920, 1080));
        }
        ex->setSizeProvider([](QSize current) {
            return current == QSize(1920, 1080) ? QSize(2500, 1200) : QSize();
        });
        sizeEntry(ex, QStringLiteral("Custom Size…"))->trigger();
        {
            TimelineWidget other;
            QCOMPARE(other.exportActions()->pngSize(), QSize(2500, 1200));
            QCOMPARE(checkedEntries(other.exportActions()),
                     QStringList{QStringLiteral("Custom Size (2500 × 1200)…")});
        }
        sizeEntry(ex, QStringLiteral("3×"))->trigger();
        {
            TimelineWidget other;
            QVERIFY(!other.exportActions()->pngSize().isValid());
            QCOMPARE(other.exportActions()->pngScale(), 3.0);
            QCOMPARE(checkedEntries(other.exportActions()), QStringList{QStringLiteral("3×")});
        }
        // a damaged or refused setting falls back to the screen's ratio
        QSettings().setValue(QStringLiteral("timeline/exportSize"), QStringLiteral("40000x10"));
        {
            TimelineWidget other;
            QVERIFY(!other.exportActions()->pngSize().isValid());
            QCOMPARE(other.exportActions()->pngScale(), 0.0);
        }
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
        // and the same Export Size submenu
        QVERIFY(
            exportMenu->actions().contains(timeline->exportActions()->sizeMenu()->menuAction()));
        // no trace: disabled
        emit exportMenu->aboutToShow();
        QVERIFY(!timeline->exportActions()->pngAction()->isEnabled());
    }
};

QTEST_MAIN(TstGuiTimelineExport)
#include "tst_gui_timelineexport.moc"
