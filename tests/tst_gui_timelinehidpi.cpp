// TimelineWidget on a devicePixelRatio 2 screen (QT_SCALE_FACTOR=2, offscreen): the lanes are
// rendered at device resolution and land where they belong.

#include "common/callcolors.h"
#include "timeline/timelinewidget.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace lmct;

namespace {

/** Pixels of `img` (device pixels) in `r` (device pixels) within 40 per channel of `c`. */
int pixelsNear(const QImage &img, const QRect &r, const QColor &c, int tolerance = 40) {
    int n = 0;
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y) {
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) < tolerance &&
                 std::abs(p.green() - c.green()) < tolerance &&
                 std::abs(p.blue() - c.blue()) < tolerance;
        }
    }
    return n;
}

}  // namespace

class TstGuiTimelineHiDpi : public QObject {
    Q_OBJECT
private slots:
    void ticksRingAndBandAtDeviceResolution() {
        QString error;
        auto doc =
            TraceLoader::load(QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        ViewState state;
        TimelineWidget w;
        w.resize(900, 520);
        w.setViewState(&state);
        state.setDocument(doc);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &TimelineWidget::indexReady);
        QVERIFY(!w.isIndexing() || ready.wait(20000));
        QCOMPARE(w.devicePixelRatioF(), 2.0);
        QCOMPARE(w.plot()->bufferDevicePixelRatio(), 2.0);

        // a submit_prefetch_task call in the second half with another one 1..9 ms away
        const RecordStore &rs = doc->records();
        const auto isSubmit = [&](int i) {
            return rs.qualname(i).endsWith(QLatin1String(".submit_prefetch_task"));
        };
        const auto neighbour = [&](int rec) {
            for (int i = 0; i < rs.size(); ++i) {
                const double d = std::abs(rs.tMono(i) - rs.tMono(rec));
                if (i != rec && d > 0.001 && d < 0.009 && isSubmit(i)) {
                    return i;
                }
            }
            return -1;
        };
        int rec = -1;
        for (int i = rs.size() / 2; i < rs.size() && rec < 0; ++i) {
            if (isSubmit(i) && neighbour(i) >= 0) {
                rec = i;
            }
        }
        QVERIFY(rec >= 0);
        const double t = doc->records().tMono(rec);
        w.setVisibleRange(t - 0.01, t + 0.01);
        state.setSelectedRecord(rec);
        state.setTimeRange(ViewState::TimeRange{t + 0.002, t + 0.004});
        w.plot()->replot();
        const QImage img = w.plot()->grab().toImage();
        QCOMPARE(img.devicePixelRatio(), 2.0);
        QCOMPARE(img.width(), w.plot()->width() * 2);

        // another submit_prefetch_task call in view, away from the selection line
        const int other = neighbour(rec);
        QVERIFY(other >= 0);
        const QPointF o = w.tickPosition(other);
        QVERIFY(!o.isNull());
        const QColor lane = CallColors::forQualname(doc->records().qualname(other));
        const int ox = int(std::floor(o.x() * 2)), oy = int(o.y() * 2);
        // the tick, one device pixel wide, at the record's time, in its row
        QVERIFY2(pixelsNear(img, QRect(ox - 1, oy - 4, 3, 9), lane, 12) >= 6, "tick at its time");
        QCOMPARE(pixelsNear(img, QRect(ox + 6, oy - 4, 3, 9), lane, 12), 0);
        const QPointF at = w.tickPosition(rec);
        const int dx = int(std::floor(at.x() * 2)), dy = int(at.y() * 2);
        // the ring around it, 2 logical = 4 device pixels wide
        const QColor hl = w.palette().color(QPalette::Highlight);
        QVERIFY(pixelsNear(img, QRect(dx - 14, dy - 30, 29, 61), hl) > 60);
        // the time range band's edge
        const int bx = int(std::lround(w.timeAxis()->coordToPixel(t + 0.002) * 2));
        const QRectF row = w.lanes()->rowRect(w.lanes()->rows().size() - 1);
        QVERIFY(pixelsNear(img, QRect(bx - 2, int(row.top() * 2) + 4, 5, int(row.height() * 2) - 8),
                           hl) > 10);
        // rows are drawn across the whole lanes area: no unpainted (window-coloured) stripes
        const QColor window = w.palette().color(QPalette::Window);
        const QColor base = w.palette().color(QPalette::Base);
        if (window != base) {
            const QRectF r0 = w.lanes()->rowRect(0);
            const QRect tail(int(r0.right() * 2) - 40, int(r0.center().y() * 2), 30, 1);
            QCOMPARE(pixelsNear(img, tail, window, 6), 0);
            QVERIFY(pixelsNear(img, tail, base, 6) >= 20);
        }
    }
};

int main(int argc, char *argv[]) {
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    TstGuiTimelineHiDpi t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_gui_timelinehidpi.moc"
