// TimelineWidget (offscreen) with the view's filter and followed key: dim vs hide, the rate plot
// following the filter, the filter mode persisted, followed-record markers with their gap labels,
// stepping through them with `.`/`,`, and "keep newest in view" while a trace grows.

#include "common/callcolors.h"
#include "testutil.h"
#include "timeline/timelinefollowlayer.h"
#include "timeline/timelinewidget.h"
#include "timelinefixture.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace lmct;

namespace {

const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

/** Pixels of `img` within `r` whose channels are each within `tol` of `c`. */
int pixelsNear(const QImage &img, const QRect &r, const QColor &c, int tol) {
    int n = 0;
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y) {
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) <= tol && std::abs(p.green() - c.green()) <= tol &&
                 std::abs(p.blue() - c.blue()) <= tol;
        }
    }
    return n;
}

/** `bg` moved towards `lane` by t/255, as TimelineLanes blends. */
QColor blend(const QColor &bg, const QColor &lane, int t) {
    return QColor(bg.red() + (lane.red() - bg.red()) * t / 255,
                  bg.green() + (lane.green() - bg.green()) * t / 255,
                  bg.blue() + (lane.blue() - bg.blue()) * t / 255);
}

}  // namespace

class TstGuiTimelineFilter : public QObject, public lmct::test::TimelineFixture {
    Q_OBJECT

    /** Records whose qualname ends with `call`, ascending. */
    std::vector<int> recordsOf(const QString &call) const {
        std::vector<int> out;
        const RecordStore &rs = m_doc->records();
        for (int i = 0; i < rs.size(); ++i) {
            if (rs.qualname(i).endsWith(call)) {
                out.push_back(i);
            }
        }
        return out;
    }

    /** Applies a filter result as the filter bar would, and waits for the timeline's index. */
    bool applyFilter(const QString &text, std::vector<int> records) {
        m_state->setFilterText(text);
        QSignalSpy spy(m_w, &TimelineWidget::filterIndexReady);
        m_state->setFilterResult(text,
                                 std::make_shared<const std::vector<int>>(std::move(records)));
        return (m_w->filterIndex() && !m_w->isFiltering()) || spy.wait(10000);
    }

    int rowOf(const QString &call) const {
        const auto &rows = m_w->lanes()->rows();
        for (int r = 0; r < rows.size(); ++r) {
            if (rows[r].kind == TimelineLanes::Row::Kind::Calls && rows[r].key.endsWith(call)) {
                return r;
            }
        }
        return -1;
    }

    /** The plot as drawn now, at 1:1. */
    QImage render() {
        m_w->plot()->replot();
        return m_w->plot()->toPixmap(m_w->plot()->width(), m_w->plot()->height(), 1.0).toImage();
    }

    /** A row's data pixels, right of the colour stripe. */
    QRect rowPixels(int row) const {
        return m_w->lanes()->rowRect(row).toAlignedRect().adjusted(8, 2, -2, -2);
    }

    /** The rate plot's caption (bucket width, "matching" under a filter). */
    QString rateCaption() const {
        for (int i = 0; i < m_w->plot()->itemCount(); ++i) {
            if (auto *t = qobject_cast<QCPItemText *>(m_w->plot()->item(i))) {
                if (t->text().contains(QStringLiteral("per "))) {
                    return t->text();
                }
            }
        }
        return QString();
    }

    /** Background of row r (zebra on odd rows). */
    QColor rowBackground(int r) const {
        const QPalette pal = m_w->palette();
        QColor base = pal.color(QPalette::Base), zebra = pal.color(QPalette::AlternateBase);
        if (zebra == base) {
            zebra = base.lightness() > 128 ? base.darker(104) : base.lighter(115);
        }
        return r % 2 == 1 ? zebra : base;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_timelinefilter"));
    }

    void init() {
        QSettings().clear();
        QVERIFY(openTimeline(kSchema2, QSize(1200, 640)));
    }

    void cleanup() { closeTimeline(); }

    void dimDrawsEveryRecordFaintlyHideOnlyMatching() {
        QCOMPARE(m_w->filterMode(), TimelineWidget::FilterMode::Dim);  // the default
        const int reserveRow = rowOf(QStringLiteral(".reserve_write"));
        const int finishRow = rowOf(QStringLiteral(".finish_write"));
        QVERIFY(reserveRow >= 0 && finishRow >= 0);
        const QColor reserveColor = m_w->lanes()->rows()[reserveRow].color;
        const QColor finishColor = m_w->lanes()->rows()[finishRow].color;
        const QColor faint = blend(rowBackground(reserveRow), reserveColor, 64);
        QImage img = render();
        const int before = pixelsNear(img, rowPixels(reserveRow), reserveColor, 12);
        QVERIFY(before > 50);
        QCOMPARE(pixelsNear(img, rowPixels(reserveRow), faint, 6), 0);

        QVERIFY(applyFilter(QStringLiteral("call == finish_write"),
                            recordsOf(QStringLiteral(".finish_write"))));
        QVERIFY(m_w->filterIndex());
        // the same result again (re-evaluated over a grown document, no new match): kept
        const auto index = m_w->filterIndex();
        const auto again = std::make_shared<const std::vector<int>>(*m_state->filterRecords());
        m_state->setFilterResult(m_state->filterText(), again);
        QVERIFY(!m_w->isFiltering());
        QCOMPARE(m_w->filterIndex(), index);
        const int reserveLane = m_w->lanes()->rows()[reserveRow].lane;
        QCOMPARE(m_w->filterIndex()->lane(reserveLane).times.size(), 0);
        // Dim: the reserve_write lane drawn faintly, finish_write at full strength
        img = render();
        QCOMPARE(pixelsNear(img, rowPixels(reserveRow), reserveColor, 12), 0);
        QVERIFY(pixelsNear(img, rowPixels(reserveRow), faint, 6) > 50);
        QVERIFY(pixelsNear(img, rowPixels(finishRow), finishColor, 12) > 50);
        // Hide: nothing in the reserve_write lane
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        img = render();
        QCOMPARE(pixelsNear(img, rowPixels(reserveRow), reserveColor, 12), 0);
        QCOMPARE(pixelsNear(img, rowPixels(reserveRow), faint, 6), 0);
        QVERIFY(pixelsNear(img, rowPixels(finishRow), finishColor, 12) > 50);
        // and a click there finds no record, nor on a span that does not match
        const QPointF p(rowPixels(reserveRow).center());
        QCOMPARE(m_w->lanes()->hitTest(p, 5).record, -1);
        const auto &rows = m_w->lanes()->rows();
        int spanRow = -1;
        for (int r = 0; r < rows.size(); ++r) {
            spanRow = rows[r].kind == TimelineLanes::Row::Kind::Spans ? r : spanRow;
        }
        QVERIFY(spanRow >= 0);
        const auto &spans = m_w->lanes()->pairs()[size_t(rows[spanRow].family)]->spans();
        const auto longest = std::max_element(
            spans.begin(), spans.end(),
            [](const auto &a, const auto &b) { return a.duration() < b.duration(); });
        QVERIFY(longest != spans.end());
        m_w->setVisibleRange(longest->start - longest->duration(),
                             longest->end + longest->duration());
        render();
        const QPointF onSpan(m_w->timeAxis()->coordToPixel((longest->start + longest->end) / 2),
                             m_w->lanes()->rowRect(spanRow).center().y());
        QCOMPARE(m_w->lanes()->hitTest(onSpan, 2).span, -1);
        m_w->setFilterMode(TimelineWidget::FilterMode::Dim);
        QVERIFY(m_w->lanes()->hitTest(onSpan, 2).span >= 0);
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        m_w->fitAll();
        // no filter: everything at full strength again
        m_state->setFilterText(QString());
        QTRY_VERIFY(!m_w->filterIndex());
        img = render();
        QVERIFY(pixelsNear(img, rowPixels(reserveRow), reserveColor, 12) > 50);
    }

    void spanDensityFollowsFilter() {
        // Regression: zoomed out until the spans are drawn as a density (spans open per
        // pixel column), the pair lane ignored the filter. Now it counts the matching spans at
        // full strength, all of them faintly under those (Dim) or nothing else (Hide).
        m_w->resize(460, 640);
        QTest::qWait(50);
        m_w->fitAll();
        const auto &rows = m_w->lanes()->rows();
        int spanRow = -1;
        for (int r = 0; r < rows.size(); ++r) {
            spanRow = rows[r].kind == TimelineLanes::Row::Kind::Spans ? r : spanRow;
        }
        QVERIFY(spanRow >= 0);
        const auto &cp = m_w->lanes()->pairs()[size_t(rows[spanRow].family)];
        QImage img = render();
        // more spans than pixel columns: the density view
        QVERIFY2(double(cp->spans().size()) > m_w->lanes()->rowRect(spanRow).width(),
                 qPrintable(QString::number(m_w->lanes()->rowRect(spanRow).width())));
        const QColor colour = rows[spanRow].color;
        const QColor bg = rowBackground(spanRow);
        const QColor strong = blend(bg, colour, 191), faint = blend(bg, colour, 56);
        const QRect area = rowPixels(spanRow);
        QVERIFY(pixelsNear(img, area, strong, 10) > 30);

        // a filter no span's enter or exit matches
        QVERIFY(applyFilter(QStringLiteral("call == reserve_write"),
                            recordsOf(QStringLiteral(".reserve_write"))));
        img = render();
        QCOMPARE(pixelsNear(img, area, strong, 10), 0);
        QVERIFY(pixelsNear(img, area, faint, 8) > 30);  // Dim: all of them, faintly
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        img = render();
        QCOMPARE(pixelsNear(img, area, strong, 10), 0);
        QCOMPARE(pixelsNear(img, area, faint, 8), 0);

        // a filter matching every span's __enter__: at full strength again
        QVERIFY(applyFilter(QStringLiteral("call == read_prefetched_results.__enter__"),
                            recordsOf(QStringLiteral(".read_prefetched_results.__enter__"))));
        img = render();
        QVERIFY(pixelsNear(img, area, strong, 10) > 30);
    }

    void ratePlotFollowsFilter() {
        const int reserveLane = m_w->lanes()->rows()[rowOf(QStringLiteral(".reserve_write"))].lane;
        const int finishLane = m_w->lanes()->rows()[rowOf(QStringLiteral(".finish_write"))].lane;
        auto total = [this](int lane) {
            double sum = 0;
            QCPGraph *g = m_w->rateGraphs()[lane];
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                sum += std::isnan(it->value) ? 0.0 : it->value;  // (NaN: outside the trace)
            }
            return sum;
        };
        const double reserveBefore = total(reserveLane), finishBefore = total(finishLane);
        QVERIFY(rateCaption().startsWith(QStringLiteral("per ")));
        QVERIFY(reserveBefore > 0 && finishBefore > 0);
        // every other finish_write matches
        std::vector<int> half;
        const std::vector<int> finishes = recordsOf(QStringLiteral(".finish_write"));
        for (size_t i = 0; i < finishes.size(); i += 2) {
            half.push_back(finishes[i]);
        }
        QVERIFY(applyFilter(QStringLiteral("x"), half));
        QCOMPARE(total(reserveLane), 0.0);
        const double finishAfter = total(finishLane);
        QVERIFY(finishAfter > 0.3 * finishBefore && finishAfter < 0.7 * finishBefore);
        QVERIFY(rateCaption().startsWith(QStringLiteral("matching calls per ")));
        // the same in Hide mode
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        QCOMPARE(total(reserveLane), 0.0);
        QCOMPARE(total(finishLane), finishAfter);
    }

    void rateCaptionStaysReadableOverTheLines() {
        // Regression: at small heights the rate plot's caption ("per 50 ms") sat on the
        // lines drawn under it. It now has a background: no call colour inside its box.
        closeTimeline();
        QTemporaryDir dir;
        test::Mp noArgs;
        noArgs.map(0);
        QByteArray b = test::frame(test::headerBody());
        for (int i = 0; i < 600; ++i) {  // a burst at the start: the top of the rate plot
            b += test::frame(test::recordBody(
                0.0001 * i, 1.76e9, test::storageQualname("reserve_write"), noArgs.bytes));
        }
        for (int i = 1; i <= 60; ++i) {
            b += test::frame(test::recordBody(
                0.06 + 0.16 * i, 1.76e9, test::storageQualname("reserve_write"), noArgs.bytes));
        }
        QVERIFY(
            openTimeline(test::writeFile(dir, QStringLiteral("burst.lct"), b), QSize(900, 330)));
        const QImage img = render();
        QCPItemText *caption = nullptr;
        for (int i = 0; i < m_w->plot()->itemCount(); ++i) {
            if (auto *t = qobject_cast<QCPItemText *>(m_w->plot()->item(i));
                t && t->text().contains(QStringLiteral("per "))) {
                caption = t;
            }
        }
        QVERIFY(caption && caption->visible());
        const QRect box =
            QRectF(caption->topLeft->pixelPosition(), caption->bottomRight->pixelPosition())
                .toAlignedRect()
                .adjusted(1, 1, -1, -1);
        QVERIFY(box.width() > 20 && box.height() > 5);
        int coloured = 0;
        for (int y = box.top(); y <= box.bottom(); ++y) {
            for (int x = box.left(); x <= box.right(); ++x) {
                coloured += img.pixelColor(x, y).hsvSaturation() > 60;
            }
        }
        QCOMPARE(coloured, 0);
        // and it hides no step: the highest lies below its box (at small heights the
        // box covered the steps under it)
        double ymax = 0.0;
        QCPAxis *value = nullptr;
        for (int i = 0; i < m_w->plot()->graphCount(); ++i) {
            QCPGraph *g = m_w->plot()->graph(i);
            value = g->valueAxis();
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
                ymax = std::isnan(it->value) ? ymax : std::max(ymax, it->value);
            }
        }
        QVERIFY(value && ymax > 0);
        QVERIFY2(value->coordToPixel(ymax) > box.bottom(),
                 qPrintable(QStringLiteral("top step at y %1, caption box down to %2")
                                .arg(value->coordToPixel(ymax))
                                .arg(box.bottom())));
        // a rate plot too short to keep the caption clear of the steps shows none (in
        // a 400x300 export the box covered most of the lines)
        m_w->resize(900, 200);
        QTest::qWait(50);
        render();
        QVERIFY(!caption->visible());
        m_w->resize(900, 330);
        QTest::qWait(50);
        render();
        QVERIFY(caption->visible());
    }

    void rateLegendListsTheMatchingCalls() {
        // Regression: an export filtered to `call == finish_write` listed all seven calls in
        // its rate legend, six of them with a rate of 0 throughout.
        auto legendNames = [this] {
            QStringList names;
            for (int i = 0; i < m_w->rateLegend()->itemCount(); ++i) {
                if (auto *item =
                        qobject_cast<QCPPlottableLegendItem *>(m_w->rateLegend()->item(i))) {
                    names.append(item->plottable()->name());
                }
            }
            return names;
        };
        const QStringList all = legendNames();
        QVERIFY(all.size() >= 6);
        QVERIFY(applyFilter(QStringLiteral("call == finish_write"),
                            recordsOf(QStringLiteral(".finish_write"))));
        QCOMPARE(legendNames(), QStringList{QStringLiteral("finish_write")});
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        QCOMPARE(legendNames(), QStringList{QStringLiteral("finish_write")});
        m_state->setFilterText(QString());
        QTRY_VERIFY(!m_w->filterIndex());
        QCOMPARE(legendNames(), all);
    }

    void filterModePersisted() {
        QAction *hide = nullptr;
        for (QAction *a : m_w->findChildren<QAction *>()) {
            if (a->text() == QStringLiteral("Hide filtered out")) {
                hide = a;
            }
        }
        QVERIFY(hide);
        QVERIFY(!hide->isChecked());
        hide->trigger();  // the user's toggle
        QCOMPARE(m_w->filterMode(), TimelineWidget::FilterMode::Hide);
        QCOMPARE(QSettings().value(QStringLiteral("timeline/filterMode")).toString(),
                 QStringLiteral("hide"));
        {
            TimelineWidget other;
            QCOMPARE(other.filterMode(), TimelineWidget::FilterMode::Hide);
        }
        // A program's choice (the headless exporter forces Hide) is not the user's preference.
        m_w->setFilterMode(TimelineWidget::FilterMode::Dim);
        QVERIFY(!hide->isChecked());
        QCOMPARE(QSettings().value(QStringLiteral("timeline/filterMode")).toString(),
                 QStringLiteral("hide"));
        m_w->setFilterMode(TimelineWidget::FilterMode::Hide);
        hide->trigger();  // the user's toggle again
        QCOMPARE(m_w->filterMode(), TimelineWidget::FilterMode::Dim);
        QCOMPARE(QSettings().value(QStringLiteral("timeline/filterMode")).toString(),
                 QStringLiteral("dim"));
        TimelineWidget third;
        QCOMPARE(third.filterMode(), TimelineWidget::FilterMode::Dim);
    }

    void followedRecordsAreMarkedJoinedLabelledAndStepped() {
        // a reservation, the finish_write after it, a read after that
        const RecordStore &rs = m_doc->records();
        const int reserve = recordsOf(QStringLiteral(".reserve_write")).at(10);
        int finish = -1, read = -1;
        for (int i = reserve + 1; i < rs.size() && read < 0; ++i) {
            if (finish < 0 && rs.qualname(i).endsWith(QStringLiteral(".finish_write"))) {
                finish = i;
            } else if (finish >= 0 && rs.qualname(i).endsWith(
                                          QStringLiteral("read_prefetched_results.__enter__"))) {
                read = i;
            }
        }
        QVERIFY(finish > reserve && read > finish);
        const QString key = QStringLiteral("chunk_hash == 00");
        QSignalSpy ready(m_w, &TimelineWidget::followedTrailReady);
        m_state->setFollowedKey(key);
        m_state->setFollowedRecords(
            key, std::make_shared<const std::vector<int>>(std::vector<int>{reserve, finish, read}));
        QTRY_VERIFY(m_w->followedTrail() && m_w->followedTrail()->size() == 3);
        const double t0 = rs.tMono(reserve), t1 = rs.tMono(finish), t2 = rs.tMono(read);
        // zoomed so that the reserve → finish gap spans a third of the view
        const double d = t1 - t0;
        QVERIFY(d > 0);
        m_w->setVisibleRange(t0 - d, t1 + d);
        render();
        const auto &drawn = m_w->followLayer()->drawn();
        QVERIFY(drawn.records.contains(reserve));
        QVERIFY(drawn.records.contains(finish));
        QVERIFY(drawn.joined >= 1);
        const QString latency = QStringLiteral("write latency ") + TimeFormat::duration(d);
        QVERIFY2(drawn.labels.contains(latency), qPrintable(drawn.labels.join(QLatin1Char('|'))));
        // a marker sits on its record's tick
        const int k = int(drawn.records.indexOf(finish));
        QVERIFY(std::abs(drawn.markers[k].x() - m_w->tickPosition(finish).x()) < 1.0);
        QVERIFY(std::abs(drawn.markers[k].y() - m_w->tickPosition(finish).y()) < 1.0);
        // the whole trace: the gaps are too narrow for labels, markers stay
        m_w->fitAll();
        render();
        QVERIFY(m_w->followLayer()->drawn().labels.isEmpty());
        QVERIFY(!m_w->followLayer()->drawn().records.isEmpty());
        // the overview marks them
        m_w->overview()->replot();
        QVERIFY(!m_w->overviewFollowLayer()->drawn().records.isEmpty());
        for (int r : m_w->overviewFollowLayer()->drawn().records) {
            QVERIFY(r == reserve || r == finish || r == read);
        }
        // `.` and `,` step through them in time order and centre the view
        m_w->setVisibleRange(t0 - d, t1 + d);
        const double width = m_w->visibleRange().size();
        m_state->setSelectedRecord(-1);
        m_w->plot()->setFocus();
        QTest::keyClick(m_w->plot(), Qt::Key_Period);
        QCOMPARE(m_state->selectedRecord(), reserve);
        QVERIFY(std::abs(m_w->visibleRange().center() - t0) < 1e-3 * width);
        QTest::keyClick(m_w->plot(), Qt::Key_Period);
        QCOMPARE(m_state->selectedRecord(), finish);
        QVERIFY(std::abs(m_w->visibleRange().center() - t1) < 1e-3 * width);
        QTest::keyClick(m_w->plot(), Qt::Key_Period);
        QCOMPARE(m_state->selectedRecord(), read);
        QVERIFY(std::abs(m_w->visibleRange().center() - t2) < 1e-3 * width);
        QVERIFY(std::abs(m_w->visibleRange().size() - width) < 1e-6 * width);
        QTest::keyClick(m_w->plot(), Qt::Key_Period);  // past the last: stays
        QCOMPARE(m_state->selectedRecord(), read);
        QTest::keyClick(m_w->plot(), Qt::Key_Comma);
        QCOMPARE(m_state->selectedRecord(), finish);
        // no key followed: nothing drawn
        m_state->setFollowedKey(QString());
        QTRY_VERIFY(!m_w->followedTrail());
        render();
        QVERIFY(m_w->followLayer()->drawn().records.isEmpty());
    }

    void keepNewestTracksGrowth_data() {
        QTest::addColumn<bool>("selected");
        QTest::newRow("nothing selected") << false;
        // Regression: with a record selected, every index rebuild centred the selection
        // again, which counted as moving by hand and switched Keep newest off at once.
        QTest::newRow("a record selected") << true;
    }
    void keepNewestTracksGrowth() {
        QFETCH(bool, selected);
        // the reference trace written in two halves, followed live
        QVERIFY(openGrowing(kSchema2));
        const auto doc = m_doc;
        // zoomed into the middle (not fitted), then Keep newest (End)
        const double firstMax = doc->records().maxTMono();
        const double w = (firstMax - doc->records().minTMono()) / 20;
        m_w->setVisibleRange(firstMax / 2 - w / 2, firstMax / 2 + w / 2);
        const double width = m_w->visibleRange().size();
        if (selected) {
            m_state->setSelectedRecord(doc->records().size() / 2);
        }
        m_w->plot()->setFocus();
        QTest::keyClick(m_w->plot(), Qt::Key_End);
        QVERIFY(m_w->keepNewest());
        QVERIFY(m_w->visibleRange().upper >= firstMax);
        QVERIFY(std::abs(m_w->visibleRange().size() - width) < 1e-9 * width + 1e-12);
        // the rest arrives
        QVERIFY(growRest());
        QTRY_COMPARE_WITH_TIMEOUT(m_w->lanes()->index()->recordCount(),
                                  qint64(lmct::test::traceTruth(QStringLiteral(
                                      "schema2-prefetch-spec-tp2.lct"))["records"]
                                             .toInt()),
                                  15000);
        QVERIFY(doc->records().maxTMono() > firstMax);
        QVERIFY(m_w->visibleRange().upper >= doc->records().maxTMono());
        QVERIFY(std::abs(m_w->visibleRange().size() - width) < 1e-9 * width + 1e-12);
        QVERIFY(m_w->keepNewest());
        // panning by hand stops it
        QTest::keyClick(m_w->plot(), Qt::Key_Left);
        QVERIFY(!m_w->keepNewest());
        TraceLoader::stopFollowing(doc.get());
    }
};

QTEST_MAIN(TstGuiTimelineFilter)
#include "tst_gui_timelinefilter.moc"
