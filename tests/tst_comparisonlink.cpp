// ComparisonLink: two ViewStates of compared traces kept linked (filter text, time range
// through the alignment and B's offset, selection of the nearest record of the same call, the
// visible windows of two viewports), headless.

#include "comparealignmentoptions.h"
#include "comparisonlink.h"
#include "testutil.h"
#include "timeline/timelineviewport.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

/** A header with `wallStart` as its t_wall_start (NaN: none). */
QByteArray header(double wallStart) {
    Mp m;
    m.map(std::isnan(wallStart) ? 8 : 9).str("type").str("header");
    m.str("magic").bin("LMCT");
    m.str("format_version").sint(1);
    m.str("level").str("storage");
    m.str("trace_schema_version").sint(2);
    m.str("t_mono_start").f64(1000.5);
    if (!std::isnan(wallStart)) {
        m.str("t_wall_start").f64(wallStart);
    }
    m.str("sm_config_json").str("");
    m.str("sm_config_digest").str("");
    return m.bytes;
}

struct Rec {
    double t;
    const char *call;
};

std::shared_ptr<TraceDocument> trace(double wallStart, const std::vector<Rec> &records,
                                     const QString &name) {
    QByteArray bytes = frame(header(wallStart));
    for (const Rec &r : records) {
        const double w = std::isnan(wallStart) ? 1760000000.0 + r.t : wallStart + r.t;
        bytes += frame(recordBody(r.t, w, storageQualname(r.call), keysArgs(1)));
    }
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, name, &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

}  // namespace

class TestComparisonLink : public QObject {
    Q_OBJECT

    std::shared_ptr<TraceDocument> m_a, m_b;

private slots:
    void initTestCase() {
        // A starts at t_wall 1000, B 2.5 s later; B has no submit_prefetch_task.
        m_a = trace(1760000000.0,
                    {{1.0, "reserve_write"},
                     {2.0, "finish_write"},
                     {3.0, "submit_prefetch_task"},
                     {4.0, "finish_write"}},
                    QStringLiteral("a.lct"));
        m_b = trace(1760000002.5,
                    {{0.5, "finish_write"},
                     {1.5, "finish_write"},
                     {2.4, "finish_write"},
                     {3.0, "reserve_write"}},
                    QStringLiteral("b.lct"));
        QVERIFY(m_a && m_b);
    }

    void filterTextGoesBothWays() {
        ViewState a, b;
        ComparisonLink link(&a, &b);
        a.setFilterText(QStringLiteral("call == finish_write"));
        QCOMPARE(b.filterText(), QStringLiteral("call == finish_write"));
        b.setFilterText(QStringLiteral("call == reserve_write"));
        QCOMPARE(a.filterText(), QStringLiteral("call == reserve_write"));
        a.setFilterText(QString());
        QCOMPARE(b.filterText(), QString());
    }

    void rangeIsMappedThroughTheOffset() {
        ViewState a, b;
        a.setDocument(m_a);
        b.setDocument(m_b);
        ComparisonLink link(&a, &b);
        a.setTimeRange(ViewState::TimeRange{1.0, 2.0});
        QCOMPARE(b.timeRange()->from, 1.0);  // start alignment, no offset: the same t_mono
        link.setOffset(0.5);                 // B drawn 0.5 s later: its t_mono 0.5 s earlier
        QVERIFY(b.timeRange());
        QCOMPARE(b.timeRange()->from, 0.5);
        QCOMPARE(b.timeRange()->to, 1.5);
        QCOMPARE(a.timeRange()->from, 1.0);  // A stays
        b.setTimeRange(ViewState::TimeRange{2.0, 3.0});
        QCOMPARE(a.timeRange()->from, 2.5);
        QCOMPARE(a.timeRange()->to, 3.5);
        a.setTimeRange(std::nullopt);
        QVERIFY(!b.timeRange());
    }

    void wallAlignmentShiftsByTheStarts() {
        ViewState a, b;
        a.setDocument(m_a);
        b.setDocument(m_b);
        ComparisonLink link(&a, &b);
        QVERIFY(link.wallReason().isEmpty());
        QSignalSpy mapping(&link, &ComparisonLink::mappingChanged);
        link.setAlignment(ComparisonLink::Alignment::Wall);
        QCOMPARE(mapping.count(), 1);
        QCOMPARE(link.base(), 2.5);
        // A's t_mono 3 is t_wall start + 3; B's t_mono for that wall time is 0.5.
        QCOMPARE(link.toB(3.0), 0.5);
        QCOMPARE(link.toA(0.5), 3.0);
        link.setOffset(-1.0);  // and B drawn 1 s earlier on top
        QCOMPARE(link.toB(3.0), 1.5);
        link.setAlignment(ComparisonLink::Alignment::Start);
        QCOMPARE(link.toB(3.0), 4.0);
    }

    void wallAlignmentWithoutTWallSaysWhy() {
        ViewState a, b;
        a.setDocument(m_a);
        ComparisonLink link(&a, &b);
        QVERIFY(link.wallReason().contains(QLatin1String("B is not loaded")));
        link.setAlignment(ComparisonLink::Alignment::Wall);
        QCOMPARE(link.base(), 0.0);
    }

    // --align and --offset of `lmct-viewer --compare` (its tab and its report read them alike)
    void alignmentOptionsAreReadAsTheCommandLineSaysThem() {
        using Options = CompareAlignmentOptions;
        QString why;
        auto o = Options::parse(QString(), QString(), &why);
        QVERIFY(o);
        QCOMPARE(o->alignment, ComparisonLink::Alignment::Start);
        QCOMPARE(o->offset, 0.0);
        o = Options::parse(QStringLiteral(" Wall "), QStringLiteral("-1.5"), &why);
        QVERIFY(o && o->byWall());
        QCOMPARE(o->offset, -1.5);
        o = Options::parse(QStringLiteral("start"), QStringLiteral("250ms"), &why);
        QVERIFY(o && !o->byWall());
        QCOMPARE(o->offset, 0.25);
        o = Options::parse(QString(), QStringLiteral("2min"), &why);
        QVERIFY(o);
        QCOMPARE(o->offset, 120.0);
        const struct {
            const char *align, *offset, *says;
        } refused[] = {
            {"sideways", "",
             "invalid --align: expected start (from each trace's start) or wall "
             "(by t_wall), found 'sideways'"},
            {"", "soon",
             "invalid --offset: expected B's shift in seconds such as 2.5, -1.5s or "
             "250ms, found 'soon'"},
            {"", "1MiB", "found '1MiB'"},
            {"", "0x10", "found '0x10'"},
            {"", "inf", "found 'inf'"},
            // beyond what the tab's Offset of B spans
            {"", "1e8",
             "invalid --offset: B's shift is at most 10000000 s either way, found "
             "'1e8'"},
        };
        for (const auto &r : refused) {
            why.clear();
            QVERIFY2(!Options::parse(QString::fromUtf8(r.align), QString::fromUtf8(r.offset), &why),
                     r.offset);
            QVERIFY2(why.contains(QString::fromUtf8(r.says)), qPrintable(why));
        }
        QVERIFY(Options::parse(QString(), QStringLiteral("-1e7"), &why));
    }

    void selectionPicksTheNearestRecordOfTheSameCall() {
        ViewState a, b;
        a.setDocument(m_a);
        b.setDocument(m_b);
        ComparisonLink link(&a, &b);
        a.setSelectedRecord(1);  // finish_write at 2.0: B's finish_writes at 0.5, 1.5, 2.4
        QCOMPARE(b.selectedRecord(), 2);
        QCOMPARE(a.selectedRecord(), 1);  // the follower does not drive back
        link.setOffset(1.0);              // 2.0 maps to 1.0: 0.5 and 1.5 tie, the lower wins
        QCOMPARE(b.selectedRecord(), 0);
        a.setSelectedRecord(2);  // submit_prefetch_task: B has none
        QCOMPARE(b.selectedRecord(), -1);
        b.setSelectedRecord(3);  // reserve_write at 3.0 → A's 4.0: A's only reserve_write
        QCOMPARE(a.selectedRecord(), 0);
        a.setSelectedRecord(-1);
        QCOMPARE(b.selectedRecord(), -1);
    }

    void nearestRecordTiesGoToTheLowerIndex() {
        const QString finish = storageQualname("finish_write");
        QCOMPARE(ComparisonLink::nearestRecord(m_b->records(), finish, 1.0), 0);  // 0.5 away each
        QCOMPARE(ComparisonLink::nearestRecord(m_b->records(), finish, 1.01), 1);
        QCOMPARE(ComparisonLink::nearestRecord(m_b->records(), storageQualname("nope"), 1.0), -1);
    }

    void windowsFollowEachOther() {
        ViewState a, b;
        a.setDocument(m_a);
        b.setDocument(m_b);
        ComparisonLink link(&a, &b);
        TimelineViewport va, vb;
        va.setTrace(true, 1.0, 4.0);
        vb.setTrace(true, 0.5, 3.0);
        link.linkViewports(&va, &vb);
        link.setOffset(0.25);
        va.setWindow(1.5, 2.5);
        QCOMPARE(vb.window().lower, 1.25);
        QCOMPARE(vb.window().upper, 2.25);
        vb.setWindow(1.0, 2.0);
        QCOMPARE(va.window().lower, 1.25);
        QCOMPARE(va.window().upper, 2.25);
        link.setOffset(0.0);  // B's window remapped from A's
        QCOMPARE(vb.window().lower, 1.25);
    }
};

QTEST_GUILESS_MAIN(TestComparisonLink)
#include "tst_comparisonlink.moc"
