// TimelineWidget (offscreen): selection both ways through ViewState, time range, navigation,
// lanes, rate legend, overview, and the time axis labels in both modes.

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "itemmodels/recordtablemodel.h"
#include "testutil.h"
#include "timeline/timeaxisticker.h"
#include "timeline/timelineoverlay.h"
#include "timeline/timelinewidget.h"
#include "timelinefixture.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QThreadPool>
#include <QToolTip>
#include <cmath>
#include <ctime>

using namespace lmct;

namespace {

const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");
// Its record count (truth file) and matched __enter__/__exit__ pairs (the traces' manifest).
const int kSchema2Records =
    lmct::test::traceTruth(QStringLiteral("schema2-prefetch-spec-tp2.lct"))["records"].toInt();
const int kSchema2Pairs =
    lmct::test::traceManifest()[QStringLiteral("schema2-prefetch-spec-tp2.lct")]
        .toObject()["context_pairs"]
        .toObject()["matched"]
        .toInt();

std::shared_ptr<TraceDocument> load(const QString &path) {
    QString error;
    auto doc = TraceLoader::load(path, &error);
    if (!doc) {
        qWarning() << error;
    }
    return doc;
}

/** Pixels of `img` within `r` close to `c` (each channel within 40). */
int pixelsNear(const QImage &img, const QRect &r, const QColor &c) {
    int n = 0;
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y) {
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) < 40 && std::abs(p.green() - c.green()) < 40 &&
                 std::abs(p.blue() - c.blue()) < 40;
        }
    }
    return n;
}

/** Labels as QCustomPlot would get them from the ticker for `range`. */
QVector<QString> labels(TimeAxisTicker &t, const QCPRange &range, QVector<double> *ticks) {
    QVector<QString> out;
    t.generate(range, QLocale::c(), QLatin1Char('g'), 6, *ticks, nullptr, &out);
    return out;
}

/** Every label distinct, ticks increasing, inside the range, a sensible count. */
bool saneTicks(const QVector<double> &ticks, const QVector<QString> &labels,
               const QCPRange &range) {
    if (ticks.size() < 2 || ticks.size() > 20 || ticks.size() != labels.size()) {
        return false;
    }
    for (int i = 0; i < ticks.size(); ++i) {
        if (ticks[i] < range.lower - 1e-9 * std::abs(range.lower) ||
            ticks[i] > range.upper + 1e-9 * std::abs(range.upper) || labels[i].isEmpty()) {
            return false;
        }
        if (i > 0 && (ticks[i] <= ticks[i - 1] || labels[i] == labels[i - 1])) {
            return false;
        }
    }
    return true;
}

/**
 * Whether `number` (as the locale writes it) is in the rich text `html` and stays on one line
 * when the text is laid out at any width from 20 to 600 px.
 */
bool numberUnbroken(const QString &html, const QString &number, QString *why) {
    // digits with any kind of space between the groups
    QString pattern;
    for (const QChar c : number) {
        pattern += c.isSpace() ? QStringLiteral("\\s") : QRegularExpression::escape(QString(c));
    }
    const QRegularExpression re(pattern, QRegularExpression::UseUnicodePropertiesOption);
    // at every width a tooltip could get
    for (int width = 20; width <= 600; width += 3) {
        QTextDocument doc;
        doc.setHtml(html);
        doc.setTextWidth(width);
        doc.documentLayout()->documentSize();  // lays everything out
        const QString raw = doc.toRawText();
        const QRegularExpressionMatch m = re.match(raw);
        if (!m.hasMatch()) {
            *why = QStringLiteral("not found in ") + raw;
            return false;
        }
        const QTextBlock block = doc.findBlock(m.capturedStart());
        const QTextLayout *layout = block.layout();
        const int first =
            layout->lineForTextPosition(m.capturedStart() - block.position()).lineNumber();
        const int last =
            layout->lineForTextPosition(m.capturedEnd() - 1 - block.position()).lineNumber();
        if (first != last) {
            *why = QStringLiteral("broken over lines %1 to %2 at %3 px")
                       .arg(first)
                       .arg(last)
                       .arg(width);
            return false;
        }
    }
    return true;
}

/** The timeline's record count label (the toolbar's right end). */
QLabel *infoLabel(TimelineWidget *w) {
    return w->findChild<QLabel *>(QStringLiteral("timelineInfo"));
}

}  // namespace

class TstGuiTimeline : public QObject, public lmct::test::TimelineFixture {
    Q_OBJECT

    /** A record of `call` (short name suffix) near the middle of the trace. */
    int recordOf(const QString &call) const {
        const RecordStore &rs = m_doc->records();
        for (int i = rs.size() / 2; i < rs.size(); ++i) {
            if (rs.qualname(i).endsWith(call)) {
                return i;
            }
        }
        return -1;
    }

    /** Zooms so that `record` is in the middle of a window of `width` seconds. */
    void zoomAround(int record, double width) {
        const double t = m_doc->records().tMono(record);
        m_w->setVisibleRange(t - width / 2, t + width / 2);
        m_w->plot()->replot();
    }

private slots:
    void init() { QVERIFY(openTimeline(kSchema2, QSize(1200, 640))); }

    void cleanup() { closeTimeline(); }

    void regression_untimedRecordsDoNotKeepItBusy() {
        // Regression: a record whose t_mono is NaN (or infinite) is indexed but never drawn,
        // and the toolbar said "Indexing…" for good (drawn < read).
        closeTimeline();
        QTemporaryDir dir;
        test::Mp noArgs;
        noArgs.map(0);
        QByteArray b = test::frame(test::headerBody());
        for (int i = 0; i < 20; ++i) {
            const double t = i == 7 ? std::numeric_limits<double>::quiet_NaN() : 0.1 * i;
            b += test::frame(test::recordBody(t, 1.76e9 + i, test::storageQualname("reserve_write"),
                                              noArgs.bytes));
        }
        QVERIFY(openTimeline(test::writeFile(dir, QStringLiteral("nan.lct"), b), QSize(900, 500)));
        QCOMPARE(m_w->lanes()->index()->untimedCount(), qint64(1));
        auto *busy = m_w->findChild<QLabel *>(QStringLiteral("timelineBusy"));
        QVERIFY(busy);
        QTRY_VERIFY2(!busy->isVisible(), qPrintable(busy->text()));
    }

    void regression_panningStopsAtTheEdge() {
        // Regression: once windows reaching past the trace were cut to their inside part,
        // each pan at the trace's end narrowed the window (4 s -> 0.05 s after 31 presses).
        // Panning keeps the width and stops with the window's centre on the last record.
        const double end = m_doc->records().maxTMono(), start = m_doc->records().minTMono();
        m_w->setVisibleRange(end - 1.0, end);
        m_w->plot()->setFocus();
        for (int i = 0; i < 30; ++i) {
            QTest::keyClick(m_w->plot(), Qt::Key_Right);
        }
        QVERIFY2(std::abs(m_w->visibleRange().size() - 1.0) < 1e-9,
                 qPrintable(QString::number(m_w->visibleRange().size())));
        QVERIFY(std::abs(m_w->visibleRange().center() - end) < 1e-9);
        for (int i = 0; i < 400; ++i) {  // the whole trace and past its start
            QTest::keyClick(m_w->plot(), Qt::Key_Left);
        }
        QVERIFY(std::abs(m_w->visibleRange().size() - 1.0) < 1e-9);
        QVERIFY(std::abs(m_w->visibleRange().center() - start) < 1e-9);
    }

    void spansWaitUntilTheFileIsRead() {
        // While a file is first read, each growth of the timeline paired every span again and
        // kept the last pairing beside the next (10 M records: 85 MB more at the peak). The span
        // rows are there at once, empty; their spans come once the file has been read.
        closeTimeline();
        QString error;
        m_doc = TraceLoader::open(kSchema2, &error);
        QVERIFY2(m_doc, qPrintable(error));
        QSemaphore paused, resume;
        TraceLoader::Options o;
        bool once = false;
        o.progress = [&](qint64, qint64, qint64 records) {
            if (!once && records > 0) {  // part way (the first report comes after 4 MiB)
                once = true;
                paused.release();
                resume.acquire();
            }
        };
        auto doc = m_doc;
        QThreadPool pool;
        pool.start([doc, o] { TraceLoader::scan(doc.get(), o); });
        auto finishLoading = qScopeGuard([&] {
            resume.release();
            pool.waitForDone();
        });
        QVERIFY(paused.tryAcquire(1, 20000));
        QVERIFY(m_doc->isLoading() && !m_doc->isReadToEnd());
        const int partial = m_doc->records().size();
        QVERIFY(partial > 0 && partial < kSchema2Records);
        m_state = new ViewState;
        m_w = new TimelineWidget;
        m_w->resize(1200, 640);
        m_w->setViewState(m_state);
        m_state->setDocument(m_doc);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w));
        QVERIFY(waitIndexed());
        QCOMPARE(m_w->lanes()->index()->recordCount(), qint64(partial));
        const auto spanRows = [this] {
            int n = 0;
            for (const TimelineLanes::Row &r : m_w->lanes()->rows()) {
                n += r.kind == TimelineLanes::Row::Kind::Spans;
            }
            return n;
        };
        const auto spans = [this] {
            int n = 0;
            for (const auto &cp : m_w->lanes()->pairs()) {
                n += cp->matchedCount();
            }
            return n;
        };
        QVERIFY(!m_w->lanes()->pairs().empty());
        QCOMPARE(spanRows(), 1);
        QCOMPARE(spans(), 0);
        // the empty row says why (it looked like a row without spans)
        QVERIFY(m_w->lanes()->spansPending());
        int spanRow = -1;
        for (int r = 0; r < m_w->lanes()->rows().size(); ++r) {
            spanRow = m_w->lanes()->rows()[r].kind == TimelineLanes::Row::Kind::Spans ? r : spanRow;
        }
        m_w->plot()->replot();
        const QImage img =
            m_w->plot()->toPixmap(m_w->plot()->width(), m_w->plot()->height(), 1.0).toImage();
        const QRect row = m_w->lanes()->rowRect(spanRow).toAlignedRect().adjusted(8, 2, -2, -2);
        int ink = 0;
        const int base = m_w->palette().color(QPalette::Base).lightness();
        for (int y = row.top(); y <= row.bottom(); ++y) {
            for (int x = row.left(); x <= row.right(); ++x) {
                ink += std::abs(img.pixelColor(x, y).lightness() - base) > 60;
            }
        }
        QVERIFY2(ink > 50, qPrintable(QString::number(ink)));
        finishLoading.dismiss();
        resume.release();
        pool.waitForDone();
        QVERIFY(m_doc->isReadToEnd());
        m_state->notifyDocumentGrew();  // as the tab does when the load ends
        QTRY_COMPARE_WITH_TIMEOUT(spans(), kSchema2Pairs, 20000);
        QVERIFY(!m_w->lanes()->spansPending());
        QCOMPARE(spanRows(), 1);
        QCOMPARE(m_w->lanes()->index()->recordCount(), qint64(kSchema2Records));
    }

    void indexesAndFitsEverything() {
        QVERIFY(m_w->lanes()->index());
        QCOMPARE(m_w->lanes()->index()->recordCount(), qint64(kSchema2Records));
        const QCPRange r = m_w->visibleRange();
        QVERIFY(r.lower <= m_doc->records().minTMono());
        QVERIFY(r.upper >= m_doc->records().maxTMono());
        // lanes in call-flow order, the span row right before __enter__
        const QStringList keys = m_w->laneKeys();
        QCOMPARE(keys.size(), 7);
        QVERIFY(keys[0].endsWith(QLatin1String(".submit_prefetch_task")));
        QVERIFY(keys[1].startsWith(QLatin1String("spans:")));
        QVERIFY(keys[2].endsWith(QLatin1String("read_prefetched_results.__enter__")));
        QVERIFY(keys[6].endsWith(QLatin1String(".finish_write")));
        QCOMPARE(m_w->lanes()->pairs().size(), size_t(1));
        QCOMPARE(m_w->lanes()->pairs()[0]->matchedCount(), kSchema2Pairs);
    }

    void viewStateSelectionIsCentredAndMarked() {
        const int rec = recordOf(QStringLiteral(".finish_write"));
        QVERIFY(rec >= 0);
        // zoomed in somewhere else: the selection must come into view
        m_w->setVisibleRange(0.5, 0.6);
        m_w->plot()->replot();
        const QColor hl = m_w->palette().color(QPalette::Highlight);
        m_state->setSelectedRecord(rec);
        QCOMPARE(m_w->lanes()->selectedRecord(), rec);
        const double t = m_doc->records().tMono(rec);
        const QCPRange r = m_w->visibleRange();
        QVERIFY2(std::abs((r.lower + r.upper) / 2 - t) < r.size() * 0.01, "centred");
        QVERIFY(std::abs(r.size() - 0.1) < 1e-9);  // zoom kept
        m_w->plot()->replot();
        const QPointF at = m_w->tickPosition(rec);
        QVERIFY(!at.isNull());
        const QImage img = m_w->plot()->grab().toImage();
        const QRect ring(int(at.x()) - 7, int(at.y()) - 14, 15, 29);
        QVERIFY2(pixelsNear(img, ring, hl) > 20, "the selected tick is ringed");
        // and the line across all rows
        QVERIFY(pixelsNear(img, QRect(int(at.x()) - 1, int(m_w->lanes()->rowRect(0).top()), 3, 10),
                           hl) > 3);
        // a record already in view does not move it; near the trace's start the view stops at
        // the trace's start instead of centring on empty time
        m_w->fitAll();
        const QCPRange all = m_w->visibleRange();
        m_state->setSelectedRecord(m_doc->records().size() / 2);
        QCOMPARE(m_w->visibleRange(), all);
        m_w->setVisibleRange(8.0, 10.0);
        m_state->setSelectedRecord(7);  // t_mono 0.037 s
        QVERIFY(m_w->visibleRange().lower >= m_doc->records().minTMono() - 0.2);
        QVERIFY(m_w->visibleRange().contains(m_doc->records().tMono(7)));
        QVERIFY(std::abs(m_w->visibleRange().size() - 2.0) < 1e-9);
        m_state->setSelectedRecord(rec);
        m_w->plot()->replot();
        // clearing the selection removes the ring
        m_state->setSelectedRecord(-1);
        m_w->plot()->replot();
        const QImage none = m_w->plot()->grab().toImage();
        QVERIFY(pixelsNear(none, ring, hl) < 4);
    }

    void clickOnTickSelectsRecord() {
        const int rec = recordOf(QStringLiteral(".reserve_write"));
        QVERIFY(rec >= 0);
        zoomAround(rec, 2e-5);
        const QPointF at = m_w->tickPosition(rec);
        QVERIFY(!at.isNull());
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {}, at.toPoint());
        QCOMPARE(m_state->selectedRecord(), rec);
        // a click on an empty stretch of the lane clears it
        const QRectF row =
            m_w->lanes()->rowRect(m_w->lanes()->rowOfLane(int(m_doc->records().qualnameId(rec))));
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {},
                          QPoint(int(row.left()) + 30, int(row.center().y())));
        QCOMPARE(m_state->selectedRecord(), -1);
    }

    void clickOnSpanSelectsItsEnter() {
        const auto &spans = m_w->lanes()->pairs()[0]->spans();
        const auto &s = spans[spans.size() / 2];
        m_w->setVisibleRange(s.start - s.duration(), s.end + s.duration());
        m_w->plot()->replot();
        const int row = 1;  // the span row
        const QRectF rr = m_w->lanes()->rowRect(row);
        const double x = m_w->timeAxis()->coordToPixel((s.start + s.end) / 2);
        // a span is drawn in the sub-row of its depth
        const int sub =
            std::min(s.depth, std::clamp(m_w->lanes()->pairs()[0]->depthCount(), 1, 4) - 1);
        const double subH =
            (rr.height() - 6) / std::clamp(m_w->lanes()->pairs()[0]->depthCount(), 1, 4);
        const QPoint p(int(x), int(rr.top() + 3 + subH * (sub + 0.5)));
        const TimelineLanes::Hit hit = m_w->lanes()->hitTest(p, 5);
        QVERIFY(hit.span >= 0);
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {}, p);
        QCOMPARE(m_state->selectedRecord(),
                 m_w->lanes()->pairs()[0]->spans()[size_t(hit.span)].enter);
    }

    void shiftDragSetsTimeRangeAndEscClearsIt() {
        QSignalSpy spy(m_state, &ViewState::timeRangeChanged);
        const QRectF row = m_w->lanes()->rowRect(0);
        const int y = int(row.center().y());
        const int x0 = int(row.left()) + 200, x1 = int(row.left()) + 500;
        const double t0 = m_w->timeAxis()->pixelToCoord(x0), t1 = m_w->timeAxis()->pixelToCoord(x1);
        const QCPRange before = m_w->visibleRange();
        QTest::mousePress(m_w->plot(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
        QTest::mouseMove(m_w->plot(), QPoint(x0 + 100, y));
        QTest::mouseMove(m_w->plot(), QPoint(x1, y));
        QTest::mouseRelease(m_w->plot(), Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QVERIFY(m_state->timeRange().has_value());
        QVERIFY(std::abs(m_state->timeRange()->from - t0) < 1e-9);
        QVERIFY(std::abs(m_state->timeRange()->to - t1) < 1e-9);
        QCOMPARE(m_w->visibleRange(), before);  // a range selection does not pan
        QCOMPARE(spy.count(), 1);
        // the band is drawn
        m_w->plot()->replot();
        const QImage img = m_w->plot()->grab().toImage();
        const QColor hl = m_w->palette().color(QPalette::Highlight);
        QVERIFY(pixelsNear(img, QRect(x0, int(row.top()), 1, int(row.height())), hl) > 5);
        // F fits the range, Esc clears it
        m_w->plot()->setFocus();
        QTest::keyClick(m_w->plot(), Qt::Key_F);
        QVERIFY(std::abs(m_w->visibleRange().lower - t0) < (t1 - t0) * 0.1);
        QVERIFY(std::abs(m_w->visibleRange().upper - t1) < (t1 - t0) * 0.1);
        QTest::keyClick(m_w->plot(), Qt::Key_Escape);
        QVERIFY(!m_state->timeRange().has_value());
        // an external range shows as a band too
        m_state->setTimeRange(ViewState::TimeRange{5.0, 6.0});
        QVERIFY(m_state->timeRange().has_value());
    }

    void rubberBandZoomAndHistory() {
        const QRectF row = m_w->lanes()->rowRect(2);
        const int y = int(row.center().y());
        const int x0 = int(row.left()) + 100, x1 = int(row.left()) + 300;
        const double t0 = m_w->timeAxis()->pixelToCoord(x0), t1 = m_w->timeAxis()->pixelToCoord(x1);
        const QCPRange full = m_w->visibleRange();
        QTest::mousePress(m_w->plot(), Qt::LeftButton, Qt::ControlModifier, QPoint(x0, y));
        QTest::mouseMove(m_w->plot(), QPoint(x1, y));
        QTest::mouseRelease(m_w->plot(), Qt::LeftButton, Qt::ControlModifier, QPoint(x1, y));
        QVERIFY(std::abs(m_w->visibleRange().lower - t0) < 1e-9);
        QVERIFY(std::abs(m_w->visibleRange().upper - t1) < 1e-9);
        // keys: W zooms in, S out, D pans right, A left
        m_w->plot()->setFocus();
        QCPRange r = m_w->visibleRange();
        QTest::keyClick(m_w->plot(), Qt::Key_W);
        QVERIFY(m_w->visibleRange().size() < r.size() * 0.9);
        r = m_w->visibleRange();
        QTest::keyClick(m_w->plot(), Qt::Key_S);
        QVERIFY(m_w->visibleRange().size() > r.size() * 1.1);
        r = m_w->visibleRange();
        QTest::keyClick(m_w->plot(), Qt::Key_D);
        QVERIFY(m_w->visibleRange().lower > r.lower);
        QVERIFY(std::abs(m_w->visibleRange().size() - r.size()) < 1e-9);
        QTest::keyClick(m_w->plot(), Qt::Key_A);
        QVERIFY(std::abs(m_w->visibleRange().lower - r.lower) < 1e-9);
        // Backspace goes back (keys in a row count as one step) to before the rubber band
        for (int i = 0; i < 5 && m_w->visibleRange() != full; ++i) {
            QTest::keyClick(m_w->plot(), Qt::Key_Backspace);
        }
        QCOMPARE(m_w->visibleRange(), full);
        // wheel zooms around the cursor: the time under it stays put
        const QPoint at(int(row.left()) + 400, y);
        const double before = m_w->timeAxis()->pixelToCoord(at.x());
        QWheelEvent wheel(at, m_w->plot()->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(m_w->plot(), &wheel);
        QVERIFY(m_w->visibleRange().size() < full.size() * 0.7);
        QVERIFY(std::abs(m_w->timeAxis()->pixelToCoord(at.x()) - before) <
                m_w->visibleRange().size() * 1e-6);
        // Home fits everything again
        QTest::keyClick(m_w->plot(), Qt::Key_Home);
        QCOMPARE(m_w->visibleRange(), full);
    }

    void dragPans() {
        m_w->setVisibleRange(5.0, 6.0);
        m_w->plot()->replot();
        const QRectF row = m_w->lanes()->rowRect(3);
        const int y = int(row.center().y());
        const int x0 = int(row.center().x());
        const double secPerPx = 1.0 / m_w->lanes()->keyAxis()->axisRect()->width();
        QTest::mousePress(m_w->plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(m_w->plot(), QPoint(x0 - 50, y));
        QTest::mouseMove(m_w->plot(), QPoint(x0 - 100, y));
        QTest::mouseRelease(m_w->plot(), Qt::LeftButton, {}, QPoint(x0 - 100, y));
        QVERIFY(std::abs(m_w->visibleRange().lower - (5.0 + 100 * secPerPx)) < 1e-9);
        QCOMPARE(m_state->selectedRecord(), -1);  // a drag is not a click
    }

    void overviewWindowDrags() {
        m_w->setVisibleRange(2.0, 3.0);
        m_w->overview()->replot();
        QCPAxis *ok = m_w->overview()->axisRect()->axis(QCPAxis::atBottom);
        const int y = m_w->overview()->height() / 2;
        const int x = int(ok->coordToPixel(2.5));
        const int dx = int(ok->coordToPixel(7.5)) - x;
        QTest::mousePress(m_w->overview(), Qt::LeftButton, {}, QPoint(x, y));
        QTest::mouseMove(m_w->overview(), QPoint(x + dx / 2, y));
        QTest::mouseMove(m_w->overview(), QPoint(x + dx, y));
        QTest::mouseRelease(m_w->overview(), Qt::LeftButton, {}, QPoint(x + dx, y));
        const QCPRange r = m_w->visibleRange();
        QVERIFY(std::abs(r.size() - 1.0) < 1e-9);
        QVERIFY2(std::abs(r.center() - 7.5) < 0.05, qPrintable(QString::number(r.center())));
        // a click outside the window centres the view there
        const int xc = int(ok->coordToPixel(12.0));
        QTest::mouseClick(m_w->overview(), Qt::LeftButton, {}, QPoint(xc, y));
        QVERIFY(std::abs(m_w->visibleRange().center() - 12.0) < 0.05);
    }

    void lanesHideMoveReset() {
        const QStringList keys = m_w->laneKeys();
        m_w->setLaneHidden(keys[0], true);
        QCOMPARE(m_w->laneKeys(), keys.mid(1));
        QCOMPARE(m_w->lanes()->rowOfLane(m_doc->records().qualnameIdOf(keys[0])), -1);
        m_w->moveLane(keys[6], -1);
        QStringList expect = keys.mid(1);
        expect.swapItemsAt(4, 5);
        QCOMPARE(m_w->laneKeys(), expect);
        // hidden calls leave the rate plot too
        int graphs = 0;
        for (QCPGraph *g : m_w->rateGraphs()) {
            graphs += g != nullptr;
        }
        QCOMPARE(graphs, 5);
        m_w->resetLanes();
        QCOMPARE(m_w->laneKeys(), keys);
    }

    void rateHasNoValueOutsideTheTrace() {
        // Regression: zoomed out past the end of the trace, every rate dropped to 0 there
        // (buckets the trace does not cover are not 0 calls per second).
        const double first = m_doc->records().minTMono(), last = m_doc->records().maxTMono();
        const double span = last - first;
        m_w->setVisibleRange(first - span, last + span);
        QCoreApplication::processEvents();
        m_w->plot()->replot();
        int outside = 0, inside = 0;
        for (QCPGraph *g : m_w->rateGraphs()) {
            if (!g) {
                continue;
            }
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                if (it->key > last || it->key < first - span / 2) {
                    QVERIFY2(std::isnan(it->value), qPrintable(QString::number(it->key)));
                    ++outside;
                } else if (!std::isnan(it->value)) {
                    ++inside;
                }
            }
        }
        QVERIFY(outside > 0 && inside > 0);
    }

    void longQualnamesLeaveThePlotItsRoom() {
        // Regression: a 1 MB qualname crashed the headless export after 14.7 GB and a 50 MB
        // one hung the viewer (every paint shaped it); a 200-character one left the plot 50 px.
        // Names are shown capped (Qualname::displayName) and lane labels elided to 320 px.
        QTemporaryDir dir;
        const QString longName = QStringLiteral("lmcache.") + QString(20000, QLatin1Char('Z'));
        QByteArray b = lmct::test::frame(lmct::test::headerBody());
        b += lmct::test::frame(lmct::test::recordBody(
            0.1, 1.7e9, lmct::test::storageQualname("reserve_write"), lmct::test::keysArgs(1)));
        b += lmct::test::frame(
            lmct::test::recordBody(0.2, 1.7e9, longName, lmct::test::keysArgs(1)));
        const QString path = lmct::test::writeFile(dir, QStringLiteral("long.lct"), b);
        closeTimeline();
        QVERIFY(openTimeline(path, QSize(1200, 640)));
        QVERIFY2(m_w->timeAxis()->axisRect()->width() > 700,
                 qPrintable(QString::number(m_w->timeAxis()->axisRect()->width())));
        const QString shown = Qualname::displayName(longName);
        QVERIFY2(shown.size() <= Qualname::kMaxDisplayChars + 24, qPrintable(shown));
        QVERIFY2(shown.endsWith(QStringLiteral(" characters)")), qPrintable(shown));
        QVERIFY(Qualname::displayFull(longName).size() <= Qualname::kMaxDisplayChars + 24);
        RecordTableModel table;
        table.setDocument(m_doc);
        QVERIFY(table.index(1, RecordTableModel::CallColumn).data().toString().size() <=
                Qualname::kMaxDisplayChars + 24);
        QVERIFY(
            table.index(1, RecordTableModel::CallColumn).data(Qt::ToolTipRole).toString().size() <=
            Qualname::kMaxDisplayChars + 24);
        // the rate plot's legend elides it like the lane labels (it ran off the edge)
        int legendNames = 0;
        for (int i = 0; i < m_w->plot()->graphCount(); ++i) {
            const QCPGraph *g = m_w->plot()->graph(i);
            if (g->name().isEmpty()) {
                continue;
            }
            ++legendNames;
            QVERIFY2(g->name().size() < 120, qPrintable(g->name()));
            if (g->name().startsWith(QStringLiteral("lmcache.ZZ"))) {
                // one ellipsis, and the count kept (not "ZZZ…ZZZ… (20008 c…")
                QVERIFY2(g->name().count(QChar(0x2026)) == 1, qPrintable(g->name()));
                QVERIFY2(g->name().endsWith(QStringLiteral("(20008 characters)")),
                         qPrintable(g->name()));
            }
        }
        QVERIFY(legendNames >= 2);
        // the lane label likewise
        auto *ticker = static_cast<QCPAxisTickerText *>(m_w->lanes()->valueAxis()->ticker().data());
        bool sawLong = false;
        for (const QString &label : ticker->ticks()) {
            if (label.startsWith(QStringLiteral("lmcache.ZZ"))) {
                sawLong = true;
                QVERIFY2(label.count(QChar(0x2026)) == 1, qPrintable(label));
                QVERIFY2(label.endsWith(QStringLiteral("(20008 characters)")), qPrintable(label));
            }
        }
        QVERIFY(sawLong);
    }

    void emptyTraceAndNoLanes() {
        // every lane hidden: a message, and the plot keeps its width (an empty rate legend
        // used to cap the layout column at a few pixels)
        for (const QString &k : m_w->laneKeys()) {
            m_w->setLaneHidden(k, true);
        }
        m_w->plot()->replot();
        QVERIFY(m_w->laneKeys().isEmpty());
        QVERIFY(m_w->timeAxis()->axisRect()->width() > m_w->plot()->width() / 2);
        auto *msg = m_w->plot()->findChild<QLabel *>();
        QVERIFY(msg && msg->isVisible() && msg->text().contains(QLatin1String("hidden")));
        m_w->resetLanes();
        QVERIFY(!msg->isVisible());
        // a trace without records
        auto empty = load(QStringLiteral(LMCT_TRACES "/header-only.lmct"));
        QVERIFY(empty);
        m_doc = empty;
        m_state->setDocument(empty);
        QVERIFY(waitIndexed());
        m_w->plot()->replot();
        QVERIFY(msg->isVisible());
        QVERIFY(m_w->timeAxis()->axisRect()->width() > m_w->plot()->width() / 2);
        QTest::keyClick(m_w->plot(), Qt::Key_W);  // navigation on nothing is harmless
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {}, m_w->plot()->rect().center());
        QCOMPARE(m_state->selectedRecord(), -1);
        // no document at all
        m_state->setDocument(nullptr);
        QVERIFY(msg->isVisible());
        QVERIFY(!m_w->isIndexing());
    }

    void tooltipNumbersDoNotBreak() {
        // Regression: a number of the tooltip wrapped between its digit groups ("1 234"
        // over two lines): text after a rule (<hr>) was no longer kept from wrapping.
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::French, QLocale::France));  // "2 105"
        // a span's tooltip: its __enter__ record is described after a rule
        const auto &cp = *m_w->lanes()->pairs().front();
        int span = -1;
        for (int i = 0; i < int(cp.spans().size()) && span < 0; ++i) {
            if (cp.spans()[size_t(i)].enter >= 1000 && cp.spans()[size_t(i)].duration() > 0) {
                span = i;
            }
        }
        QVERIFY(span >= 0);
        const ContextPairs::Span &sp = cp.spans()[size_t(span)];
        int spanRow = -1;
        for (int r = 0; r < m_w->lanes()->rows().size(); ++r) {
            if (m_w->lanes()->rows()[r].kind == TimelineLanes::Row::Kind::Spans) {
                spanRow = r;
            }
        }
        QVERIFY(spanRow >= 0);
        m_w->setVisibleRange(sp.start - sp.duration(), sp.end + sp.duration());
        m_w->plot()->replot();
        // (the span's sub-row within the row: try its height)
        const int x = int(m_w->timeAxis()->coordToPixel((sp.start + sp.end) / 2));
        const QRectF rr = m_w->lanes()->rowRect(spanRow);
        for (int y = int(rr.top()) + 1; y < int(rr.bottom()); y += 2) {
            QTest::mouseMove(m_w->plot(), QPoint(x, y));
            if (QToolTip::isVisible() && QToolTip::text().contains(QLatin1String("__enter__"))) {
                break;
            }
        }
        QVERIFY(QToolTip::isVisible());
        const QString tip = QToolTip::text();
        QLocale::setDefault(before);
        QVERIFY2(tip.contains(QLatin1String("__enter__")) && tip.contains(QLatin1String("<hr>")),
                 qPrintable(tip));
        // every number with digit groups stays on one line, at any width
        const QRegularExpression grouped(QStringLiteral("\\d{1,3}(?:\\s\\d{3})+"),
                                         QRegularExpression::UseUnicodePropertiesOption);
        QTextDocument plain;
        plain.setHtml(tip);
        int numbers = 0;
        for (auto it = grouped.globalMatch(plain.toRawText()); it.hasNext();) {
            const QString number = it.next().captured();
            QString why;
            QVERIFY2(numberUnbroken(tip, number, &why),
                     qPrintable(number + QLatin1String(": ") + why));
            ++numbers;
        }
        QVERIFY(numbers >= 3);  // __enter__ #, __exit__ #, record #
        // and no line of it wraps at all, whatever the separator: every block with text is
        // kept from wrapping (the text after a rule used to wrap again)
        for (QTextBlock b = plain.begin(); b.isValid(); b = b.next()) {
            QVERIFY2(b.text().trimmed().isEmpty() || b.blockFormat().nonBreakableLines(),
                     qPrintable(QStringLiteral("wraps: ") + b.text()));
        }
        QToolTip::hideText();
    }

    void hoverTagFollowsTheAxisAndSparesItsLabels() {
        // An hour-long trace: the axis shows h:mm:ss, and so does the hover line's tag (it said
        // "125.300 s"); the tag sits above the axis' tick labels (it hid the one under it).
        QByteArray b = test::frame(test::headerBody());
        for (double t : {0.5, 900.0, 1800.0, 2700.0, 3600.0}) {
            b += test::frame(test::recordBody(
                t, 1760000000.25 + t, test::storageQualname("reserve_write"), test::keysArgs(1)));
        }
        QString error;
        m_doc = TraceLoader::loadBytes(b, QStringLiteral("hour.lct"), &error);
        QVERIFY2(m_doc, qPrintable(error));
        m_state->setDocument(m_doc);
        QVERIFY(waitIndexed());
        m_w->plot()->replot();
        QCPAxis *axis = m_w->timeAxis();
        const QCPRange r = m_w->visibleRange();
        QVERIFY2(r.size() > 3000, qPrintable(QString::number(r.size())));
        QVERIFY2(axis->tickVectorLabels().first().contains(QLatin1Char(':')),
                 qPrintable(axis->tickVectorLabels().first()));
        auto *overlay = m_w->findChild<TimelineOverlay *>();
        QVERIFY(overlay);
        const QRectF lanes = m_w->lanes()->rowRect(0);
        const int y = int(lanes.center().y());
        // where the tick labels are: between the axis title's row and the ticks
        const int labelsBottom = int(axis->axisRect()->top()) - axis->tickLengthOut();
        const int labelsTop =
            labelsBottom - axis->tickLabelPadding() - QFontMetrics(axis->tickLabelFont()).height();
        for (const double t : {125.3, 1800.0, 3500.0}) {
            const int x = int(std::lround(axis->coordToPixel(t)));
            QTest::mouseMove(m_w->plot(), QPoint(x, y));
            const QString tag = overlay->hoverTag();
            static const QRegularExpression clock(QStringLiteral("^\\d+:\\d\\d(:\\d\\d)?$"));
            QVERIFY2(clock.match(tag).hasMatch(), qPrintable(tag));
            QCOMPARE(tag, m_w->ticker()->cursorLabel(axis->pixelToCoord(x), r, 0));
            const QRect rect = overlay->hoverTagRect();
            QVERIFY2(rect.bottom() < labelsTop && rect.top() >= 0,
                     qPrintable(QStringLiteral("tag %1..%2, tick labels %3..%4")
                                    .arg(rect.top())
                                    .arg(rect.bottom())
                                    .arg(labelsTop)
                                    .arg(labelsBottom)));
        }
        QCOMPARE(m_w->ticker()->cursorLabel(125.3, QCPRange(0, 3600), 1), QStringLiteral("2:05.3"));
        QCOMPARE(m_w->ticker()->cursorLabel(3725.25, QCPRange(0, 18000), 2),
                 QStringLiteral("1:02:05.25"));
        QCOMPARE(m_w->ticker()->cursorLabel(125.3, QCPRange(120, 130), 3),
                 QStringLiteral("125.300 s"));
    }

    void tooltipFollowsKeyboardNavigation() {
        // a pixel of the densest lane holding several calls (the tooltip counts them)
        const RecordStore &rs = m_doc->records();
        QPoint at;
        QString first;
        for (int i = rs.size() / 3; i < rs.size() && first.isEmpty(); i += 7) {
            if (!rs.qualname(i).endsWith(QLatin1String(".reserve_write"))) {
                continue;
            }
            at = m_w->tickPosition(i).toPoint();
            QTest::mouseMove(m_w->plot(), at);
            if (QToolTip::isVisible() &&
                QToolTip::text().contains(QLatin1String("in this pixel"))) {
                first = QToolTip::text();
            }
        }
        QVERIFY2(!first.isEmpty(), "no pixel with several calls");
        QCursor::setPos(m_w->plot()->mapToGlobal(at));  // (zooming anchors at the cursor)
        m_w->plot()->setFocus();
        // after each key the tooltip says what is under the still mouse now
        for (const Qt::Key key :
             {Qt::Key_W, Qt::Key_W, Qt::Key_Plus, Qt::Key_S, Qt::Key_D, Qt::Key_A, Qt::Key_Minus}) {
            QTest::keyClick(m_w->plot(), key);
            m_w->plot()->replot();
            const bool shown = QToolTip::isVisible();
            const QString after = shown ? QToolTip::text() : QString();
            // what a fresh hover at the same place shows
            QTest::mouseMove(m_w->plot(), QPoint(2, 2));  // off the data: hides the tooltip
            QTRY_VERIFY(!QToolTip::isVisible());
            QTest::mouseMove(m_w->plot(), at);
            const QString fresh = QToolTip::isVisible() ? QToolTip::text() : QString();
            QCOMPARE(after, fresh);
        }
        QToolTip::hideText();
    }

    void rateAxisTicksFitItsHeight() {
        QVERIFY(!m_w->rateGraphs().isEmpty());
        QCPAxis *value = nullptr;
        for (QCPGraph *g : m_w->rateGraphs()) {
            if (g) {
                value = g->valueAxis();
            }
        }
        QVERIFY(value);
        const int labelPx = QFontMetrics(value->tickLabelFont()).height();
        // (at the default dock height, and after zooming in with W, only "0" was left)
        for (const int height : {230, 280, 330, 420, 560, 760, 1000, -280, -330}) {
            m_w->resize(1200, std::abs(height));
            if (height < 0) {  // zoomed in: other rates, other ticks
                m_w->plot()->setFocus();
                QTest::keyClick(m_w->plot(), Qt::Key_W);
                QTest::keyClick(m_w->plot(), Qt::Key_W);
            }
            QCoreApplication::processEvents();
            m_w->plot()->replot();
            m_w->plot()->replot();  // (the tick count follows the laid-out height)
            QVector<double> ticks;
            for (double t : value->tickVector()) {
                if (value->range().contains(t)) {
                    ticks.append(t);
                }
            }
            const int rectPx = value->axisRect()->height();
            QVERIFY2(ticks.size() >= 2,
                     qPrintable(QStringLiteral("%1 ticks at %2 px").arg(ticks.size()).arg(rectPx)));
            for (int i = 1; i < ticks.size(); ++i) {
                const double gap =
                    std::abs(value->coordToPixel(ticks[i]) - value->coordToPixel(ticks[i - 1]));
                QVERIFY2(gap >= 1.4 * labelPx,
                         qPrintable(QStringLiteral("labels %1 px apart (%2 ticks on %3 px)")
                                        .arg(gap)
                                        .arg(ticks.size())
                                        .arg(rectPx)));
            }
        }
    }

    void emptyTraceHasNoPlaceholderText() {
        // A trace with a header and no records: the message over the plot, and no text item
        // (QCPItemText's default text is the word "text"; a bucket width of nothing is noise).
        auto shownTexts = [](TimelineWidget *w) {
            w->plot()->replot();
            QStringList out;
            for (int i = 0; i < w->plot()->itemCount(); ++i) {
                auto *text = qobject_cast<QCPItemText *>(w->plot()->item(i));
                if (text && text->realVisibility() && !text->text().isEmpty()) {
                    out << text->text();
                }
            }
            return out;
        };
        auto empty = load(QStringLiteral(LMCT_TRACES "/header-only.lmct"));
        QVERIFY(empty);
        // a widget that never had a document
        TimelineWidget fresh;
        fresh.resize(800, 400);
        ViewState state;
        fresh.setViewState(&state);
        fresh.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        QCOMPARE(shownTexts(&fresh), QStringList());
        state.setDocument(empty);
        QTRY_VERIFY(!fresh.isIndexing());
        QCOMPARE(shownTexts(&fresh), QStringList());
        auto *msg = fresh.plot()->findChild<QLabel *>();
        QVERIFY(msg && msg->isVisible() && msg->text().contains(QLatin1String("no records")));
        // one that showed records before
        m_doc = empty;
        m_state->setDocument(empty);
        QVERIFY(waitIndexed());
        QCOMPARE(shownTexts(m_w), QStringList());
        m_state->setDocument(nullptr);
        QCOMPARE(shownTexts(m_w), QStringList());
    }

    void infoLabelSaysWhatIsDrawnWhileLoading() {
        QVERIFY(openGrowing(kSchema2, QStringLiteral("loading.lct")));
        const auto doc = m_doc;
        const int first = doc->records().size();
        QLabel *info = infoLabel(m_w);
        auto *busy = m_w->findChild<QLabel *>(QStringLiteral("timelineBusy"));
        QVERIFY(info && busy);
        QTRY_VERIFY(!busy->isVisible());
        QVERIFY(info->text().contains(QLocale().toString(first) + QLatin1String(" calls")));
        // more records are read: until the index catches up the toolbar says that it is
        // loading and how many of the records read are drawn (and counted beside it)
        QVERIFY(growRest());
        const int total = doc->records().size();
        QCoreApplication::processEvents();
        QVERIFY(busy->isVisible());
        QCOMPARE(busy->text(), QStringLiteral("Loading…"));
        const QString counts = QStringLiteral("%1 records read, %2 drawn")
                                   .arg(QLocale().toString(total), QLocale().toString(first));
        QVERIFY2(busy->toolTip().contains(counts), qPrintable(busy->toolTip()));
        QVERIFY2(info->toolTip().contains(counts), qPrintable(info->toolTip()));
        QVERIFY2(info->text().contains(QLocale().toString(first) + QLatin1String(" calls")),
                 qPrintable(info->text()));
        // then the index has them all
        QTRY_VERIFY_WITH_TIMEOUT(
            info->text().contains(QLocale().toString(total) + QLatin1String(" calls")), 15000);
        QTRY_VERIFY(!busy->isVisible());
        QCOMPARE(info->toolTip(), QString());
        // its width reserve leaves it in the toolbar of a timeline as wide as the default
        // window's (not in the overflow menu)
        m_w->resize(860, 640);
        QTRY_VERIFY(info->isVisible());
        TraceLoader::stopFollowing(doc.get());
    }

    // Regression: while a 10 M record trace loaded, the toolbar's "visible" label,
    // the axis and the lanes were repainted seconds apart and disagreed until loading ended. Qt
    // 6.4 paints large fills with tasks on its global thread pool and waits for them on the GUI
    // thread; the timeline's index builds (and the statistics, filters...) held that pool's
    // threads for seconds. They run on JobPool now: with Qt's global pool taken (here by a
    // task of the test), the timeline still takes in what was read, and its label, axis and
    // lanes agree. The plot is kept under 64 pixel rows, so that its own painting never needs
    // the global pool.
    void followsGrowthWhileQtsGlobalPoolIsBusy() {
        QVERIFY(openGrowing(kSchema2, QStringLiteral("busy.lct")));
        const auto doc = m_doc;
        const int first = doc->records().size();
        m_w->resize(600, 60);
        QTRY_VERIFY(!m_w->isIndexing());
        QThreadPool *global = QThreadPool::globalInstance();
        const int threads = global->maxThreadCount();
        global->setMaxThreadCount(1);
        QSemaphore release;
        QSemaphore started;
        global->start([&] {
            started.release();
            release.tryAcquire(1, 30000);
        });
        QVERIFY(started.tryAcquire(1, 5000));
        auto freeGlobalPool = qScopeGuard([&] {
            release.release();
            global->waitForDone(30000);
            global->setMaxThreadCount(threads);
        });
        QVERIFY(growRest());
        const int total = doc->records().size();
        QVERIFY(total > first);
        QLabel *info = infoLabel(m_w);
        QVERIFY(info);
        // the lanes and the label take in every record, while the global pool stays taken
        QTRY_VERIFY_WITH_TIMEOUT(
            m_w->lanes()->index() && m_w->lanes()->index()->recordCount() == qint64(total) &&
                info->text().contains(QLocale().toString(total) + QLatin1String(" calls")),
            10000);
        QVERIFY(global->activeThreadCount() == 1);  // (still the test's task)
        // the view shows everything, so it follows the end; the label says what the axis shows
        QVERIFY(m_w->visibleRange().upper >= doc->records().maxTMono());
        QVERIFY2(info->text().startsWith(TimeFormat::duration(m_w->visibleRange().size()) +
                                         QLatin1String(" visible")),
                 qPrintable(info->text()));
        TraceLoader::stopFollowing(doc.get());
    }

    void growingDocumentIsFollowed() {
        // the reference trace written in two halves, followed live
        QVERIFY(openGrowing(kSchema2));
        QVERIFY(m_growing.ends.size() > 100);
        const auto doc = m_doc;
        const int first = doc->records().size();
        QCOMPARE(m_w->lanes()->index()->recordCount(), qint64(first));
        const double firstEnd = m_w->visibleRange().upper;
        // the rest arrives
        QVERIFY(growRest());
        QTRY_COMPARE_WITH_TIMEOUT(m_w->lanes()->index()->recordCount(), qint64(kSchema2Records),
                                  15000);
        QTRY_COMPARE_WITH_TIMEOUT(m_w->lanes()->pairs().front()->matchedCount(), kSchema2Pairs,
                                  15000);
        // the view showed everything, so it follows the end
        QVERIFY(m_w->visibleRange().upper > firstEnd);
        QVERIFY(m_w->visibleRange().upper >= doc->records().maxTMono());
        TraceLoader::stopFollowing(doc.get());
    }

    void rateLegendToggles() {
        QCPLegend *legend = m_w->rateLegend();
        QVERIFY(legend->itemCount() >= 6);
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(0));
        QVERIFY(item);
        QCPAbstractPlottable *g = item->plottable();
        QVERIFY(g->visible());
        const QRect r = item->rect();
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {}, r.center());
        QVERIFY(!g->visible());
        QTest::mouseClick(m_w->plot(), Qt::LeftButton, {}, r.center());
        QVERIFY(g->visible());
        // rates: over the whole trace, bucket counts add up to the lane's records
        auto *graph = static_cast<QCPGraph *>(g);
        QVERIFY(graph->dataCount() > 10);
        m_w->setRatePlotVisible(false);
        QVERIFY(!m_w->isRatePlotVisible());
        m_w->setRatePlotVisible(true);
        QVERIFY(m_w->rateGraphs().size() > 0);
    }

    void rateLegendRewrapsToItsWidth() {
        // Issue #5: the legend kept the columns of the width it was filled at (QCPLayoutGrid's
        // setWrap() does not move entries): a timeline indexed narrow and then widened kept a
        // second legend row, which a default dock then cut off.
        closeTimeline();
        QVERIFY(openTimeline(kSchema2, QSize(700, 640)));
        QCPLegend *legend = m_w->rateLegend();
        QVERIFY(legend->rowCount() >= 2);
        auto allInPlot = [this, legend] {
            m_w->plot()->replot();
            int entries = 0;
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (const QCPAbstractLegendItem *item = legend->item(i)) {
                    ++entries;
                    if (!m_w->plot()->rect().contains(item->outerRect())) {
                        return false;
                    }
                }
            }
            return entries >= 6;
        };
        QVERIFY(allInPlot());
        m_w->resize(1800, 640);  // room for every entry side by side
        QTRY_COMPARE(legend->rowCount(), 1);
        QVERIFY(allInPlot());
        m_w->resize(700, 640);  // and back into rows that fit
        QTRY_VERIFY(legend->rowCount() >= 2);
        QVERIFY(allInPlot());
    }

    void wallClockModeAndUtc() {
        m_w->setTimeMode(TimelineWidget::TimeMode::Wall);
        QCOMPARE(m_w->ticker()->mode(), TimeAxisTicker::Mode::Wall);
        m_state->setWallUtc(true);
        QVERIFY(m_w->ticker()->utc());
        m_w->setVisibleRange(5.10, 5.13);
        m_w->plot()->replot();
        QVERIFY(m_w->timeAxis()->label().contains(QLatin1String("2025-10-09")));
        QVERIFY(m_w->timeAxis()->label().contains(QLatin1String("UTC")));
        m_w->setTimeMode(TimelineWidget::TimeMode::Relative);
        QVERIFY(m_w->timeAxis()->label().startsWith(QLatin1String("t_mono")));
    }

    void unmatchedPairsAreMarked() {
        auto doc = load(QStringLiteral(LMCT_FIXTURES "/calls-generations.lct"));
        QVERIFY(doc);
        m_doc = doc;
        m_state->setDocument(doc);
        QVERIFY(waitIndexed());
        m_w->plot()->replot();
        const auto &pairs = m_w->lanes()->pairs();
        QCOMPARE(pairs.size(), size_t(1));
        QCOMPARE(pairs[0]->matchedCount(), 3);
        QCOMPARE(pairs[0]->unmatchedEnters().size(), size_t(1));
        QCOMPARE(pairs[0]->unmatchedExits().size(), size_t(1));
        int spanRow = -1;
        for (int r = 0; r < m_w->lanes()->rows().size(); ++r) {
            if (m_w->lanes()->rows()[r].kind == TimelineLanes::Row::Kind::Spans) {
                spanRow = r;
            }
        }
        QVERIFY(spanRow >= 0);
        const QRectF rr = m_w->lanes()->rowRect(spanRow);
        const int enter = pairs[0]->unmatchedEnters()[0];
        const double x = m_w->timeAxis()->coordToPixel(doc->records().tMono(enter));
        const TimelineLanes::Hit hit = m_w->lanes()->hitTest(QPointF(x, rr.center().y()), 3);
        QVERIFY(hit.unmatched);
        QCOMPARE(hit.record, enter);
        // a red cap is drawn there
        const QImage img = m_w->plot()->grab().toImage();
        QVERIFY(pixelsNear(img, QRect(int(x) - 2, int(rr.top()) + 4, 5, int(rr.height()) - 8),
                           QColor(205, 30, 40)) > 5);
        // unknown qualnames get lanes after the call flow
        QVERIFY(m_w->laneKeys().last().contains(QLatin1String("codec_probe")) ||
                m_w->laneKeys().last().contains(QLatin1String("query_prefetch_status")));
    }

    void ticksAreDrawnWhereRecordsAre() {
        // (tst_gui_timelinehidpi checks the same on a devicePixelRatio 2 screen)
        const int rec = recordOf(QStringLiteral(".submit_prefetch_task"));
        zoomAround(rec, 0.02);
        const QPointF at = m_w->tickPosition(rec);
        QVERIFY(!at.isNull());
        const QImage img = m_w->plot()->grab().toImage();
        const QColor lane = CallColors::forQualname(m_doc->records().qualname(rec));
        const QRect tick(int(std::floor(at.x())) - 1, int(at.y()) - 2, 3, 5);
        QVERIFY2(pixelsNear(img, tick, lane) >= 3, "tick drawn at the record's time");
        const QRect beside(int(at.x()) + 40, int(at.y()) - 2, 3, 5);
        QCOMPARE(pixelsNear(img, beside, lane), 0);
    }

    void regression_lastRowIsPainted() {
        // QCustomPlot clips what it draws one pixel up, so the backdrop of the (opaque) plot
        // missed its last row: under Xvfb a stale strip of the record table showed there, at
        // the bottom of a timeline that fits its dock. Painted over red, no red stays.
        for (const int height : {640, 481}) {
            m_w->resize(1200, height);
            QTest::qWait(50);
            QCustomPlot *plot = m_w->plot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            QImage img(plot->size(), QImage::Format_RGB32);
            img.fill(Qt::red);
            plot->render(&img);
            for (const int y : {0, img.height() / 2, img.height() - 1}) {
                int red = 0;
                for (int x = 0; x < img.width(); ++x) {
                    red += img.pixelColor(x, y) == QColor(Qt::red);
                }
                QVERIFY2(red == 0, qPrintable(QStringLiteral("%1 unpainted pixels in row %2 of %3")
                                                  .arg(red)
                                                  .arg(y)
                                                  .arg(img.height())));
            }
        }
    }

    void darkPaletteAndHiDpi() {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(30, 30, 30));
        dark.setColor(QPalette::Base, QColor(20, 20, 24));
        dark.setColor(QPalette::AlternateBase, QColor(34, 34, 40));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Highlight, QColor(60, 140, 230));
        m_w->setPalette(dark);
        m_w->plot()->setBufferDevicePixelRatio(2.0);
        m_w->setVisibleRange(5.0, 5.001);  // sparse: mostly empty rows
        m_w->plot()->replot();
        const QImage img = m_w->plot()->grab().toImage();
        const QRectF row0 = m_w->lanes()->rowRect(0);
        // the background of an empty stretch of the first row is the dark base colour
        QVERIFY(pixelsNear(img, QRect(int(row0.right()) - 20, int(row0.center().y()), 10, 1),
                           QColor(20, 20, 24)) >= 8);
        // tick labels use the palette's text colour
        QCOMPARE(m_w->timeAxis()->tickLabelColor(), QColor(230, 230, 230));
    }

    void timeAxisLabelsRelative() {
        TimeAxisTicker t;
        t.setTickCount(8);
        QVector<double> ticks;
        struct Case {
            QCPRange range;
            const char *expectIn;  // a substring some label must have
        };
        const Case cases[] = {
            {QCPRange(0, 15), " s"},                        // seconds
            {QCPRange(5.10, 5.13), " s"},                   // 5.105 s ...
            {QCPRange(0.0, 0.002), " ms"},                  // 0.25 ms ...
            {QCPRange(12.3456, 12.34562), " µs"},           // offsets from a base
            {QCPRange(50000.000001, 50000.000002), " µs"},  // 0.1 µs steps
            {QCPRange(50000.0000010, 50000.0000010 + 5e-8), " ns"},
            {QCPRange(0, 3600 * 5), ":"},  // clock: 1:00:00
            {QCPRange(-0.5, 0.5), " s"},
            {QCPRange(-0.0005, 0.0005), " µs"},
        };
        for (const Case &c : cases) {
            const QVector<QString> l = labels(t, c.range, &ticks);
            QVERIFY2(saneTicks(ticks, l, c.range),
                     qPrintable(QStringList(l.begin(), l.end()).join('|')));
            bool found = false;
            for (const QString &s : l) {
                found |= s.contains(QString::fromUtf8(c.expectIn));
                QVERIFY2(s.size() <= 12, qPrintable(s));  // short enough to read
            }
            QVERIFY2(found, qPrintable(QStringList(l.begin(), l.end()).join('|')));
        }
        QCOMPARE(t.labelFor(2.0, QCPRange(0, 15)), QStringLiteral("2 s"));
        QCOMPARE(t.labelFor(5.11, QCPRange(5.10, 5.13)), QStringLiteral("5.110 s"));
        // deep zoom far from 0: short offsets, the base in the caption
        const QCPRange deep(12.3456, 12.34562);
        QCOMPARE(t.caption(deep), QStringLiteral("12.3456 s +"));
        QCOMPARE(t.labelFor(12.34561, deep), QStringLiteral("10 µs"));
        QCOMPARE(t.caption(QCPRange(0, 15)), QString());
        QCOMPARE(t.labelFor(3723, QCPRange(0, 3600 * 5)), QStringLiteral("1:02:03"));
    }

    void timeAxisLabelsWall() {
        TimeAxisTicker t;
        t.setTickCount(8);
        t.setMode(TimeAxisTicker::Mode::Wall);
        t.setWallOffset(1760000000.25);  // 2025-10-09 08:53:20.25 UTC at t_mono 0
        t.setUtc(true);
        QVector<double> ticks;
        // 30 ms: ms labels on whole milliseconds of the wall clock
        QCPRange r(5.10, 5.13);
        QVector<QString> l = labels(t, r, &ticks);
        QVERIFY(saneTicks(ticks, l, r));
        QVERIFY2(l[0].startsWith(QLatin1String("08:53:25.")), qPrintable(l[0]));
        for (double tick : ticks) {
            const double wallMs = (1760000000.25 + tick) * 1000.0;
            QVERIFY(std::abs(wallMs - std::round(wallMs)) < 1e-3);
        }
        QCOMPARE(t.caption(r), QStringLiteral("2025-10-09 · UTC"));
        // two days: dates in the labels
        r = QCPRange(0, 2.5 * 86400);
        l = labels(t, r, &ticks);
        QVERIFY(saneTicks(ticks, l, r));
        QVERIFY2(l.last().contains(QLatin1String("10-1")), qPrintable(l.last()));
        // sub-millisecond: offsets from a round wall time in the caption
        r = QCPRange(5.1, 5.10002);
        l = labels(t, r, &ticks);
        QVERIFY(saneTicks(ticks, l, r));
        QVERIFY(l[0].startsWith(QLatin1Char('+')) && l[0].endsWith(QStringLiteral("µs")));
        QVERIFY2(t.caption(r).startsWith(QLatin1String("2025-10-09 08:53:25.35")),
                 qPrintable(t.caption(r)));
        // local time (TZ=Asia/Kolkata, +05:30): hours fall on local whole hours
        t.setUtc(false);
        r = QCPRange(0, 6 * 3600);
        l = labels(t, r, &ticks);
        QVERIFY(saneTicks(ticks, l, r));
        for (int i = 0; i < l.size(); ++i) {
            QVERIFY2(l[i].endsWith(QLatin1String(":00")), qPrintable(l[i]));
        }
        QVERIFY2(t.caption(r).contains(QLatin1String("UTC+05:30")), qPrintable(t.caption(r)));
        QVERIFY(labels(t, QCPRange(0, 60), &ticks)[0].startsWith(QLatin1String("14:23")));
    }
};

int main(int argc, char *argv[]) {
    // local-time tests need a zone with a half-hour offset
    qputenv("TZ", "Asia/Kolkata");
    tzset();
    QApplication app(argc, argv);
    TstGuiTimeline t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_gui_timeline.moc"
