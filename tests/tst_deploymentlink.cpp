// DeploymentLink: the ViewStates of a deployment's traces on one t_wall axis. Known starts and
// offsets give known bases; a time range, a selection and a window set in one trace arrive
// mapped (or cleared) in the others, and an edited offset maps them again.

#include "combinefixture.h"
#include "deploymentlink.h"
#include "timeline/timelineviewport.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QSignalSpy>
#include <QtTest>
#include <memory>

using namespace lmct;
using namespace lmct::test;

namespace {

/** Three traces starting at 1000, 1000.25 and 999.5 (Unix seconds), three states. */
struct Fleet {
    TraceSet set;
    ViewState a, b, c;
    QList<ViewState *> states{&a, &b, &c};
    Fleet() {
        set.add(loadTrace(combineTrace(1000.0, {1000.1, 1000.2}), QStringLiteral("a.lct")));
        set.add(loadTrace(combineTrace(1000.25, {1000.3, 1000.4}), QStringLiteral("b.lct")));
        set.add(loadTrace(combineTrace(999.5, {999.6, 999.7}), QStringLiteral("c.lct")));
        for (int t = 0; t < 3; ++t) {
            states[t]->setDocument(set.documentPtr(t));
        }
    }
};

}  // namespace

class TestDeploymentLink : public QObject {
    Q_OBJECT

private slots:
    void basesFromStartsAndOffsets() {
        Fleet f;
        DeploymentLink link;
        link.setTraces(f.set, f.states);
        QCOMPARE(link.count(), 3);
        QCOMPARE(link.origin(), 999.5);  // c starts first
        QCOMPARE(link.base(0), 0.5);
        QCOMPARE(link.base(1), 0.75);
        QCOMPARE(link.base(2), 0.0);
        QCOMPARE(link.map(0, 1, 1.0), 0.75);  // a's t_mono 1 is b's 0.75
        QCOMPARE(link.traceOf(&f.b), 1);
        QCOMPARE(link.state(2), &f.c);
        QCOMPARE(link.currentTrace(), 0);

        // c's clock 1 s ahead: c moves later by 1 s, a becomes the first start.
        QSignalSpy mapped(&link, &DeploymentLink::mappingChanged);
        f.set.setOffset(2, 1.0);
        link.setSet(f.set);
        QCOMPARE(mapped.count(), 1);
        QCOMPARE(link.origin(), 1000.0);
        QCOMPARE(link.base(0), 0.0);
        QCOMPARE(link.base(2), 0.5);
        QCOMPARE(link.toCommon(2, 0.25), 0.75);
        QCOMPARE(link.fromCommon(2, 0.75), 0.25);
    }

    void rangeMappedAndCleared() {
        Fleet f;
        DeploymentLink link;
        link.setTraces(f.set, f.states);
        f.a.setTimeRange(ViewState::TimeRange{0.1, 0.2});
        QVERIFY(f.b.timeRange() && f.c.timeRange());
        QCOMPARE(f.b.timeRange()->from, 0.1 + 0.5 - 0.75);
        QCOMPARE(f.c.timeRange()->to, 0.2 + 0.5);
        f.c.setTimeRange(std::nullopt);
        QVERIFY(!f.a.timeRange() && !f.b.timeRange());
    }

    void oneSelectionAtATime() {
        Fleet f;
        DeploymentLink link;
        link.setTraces(f.set, f.states);
        QSignalSpy current(&link, &DeploymentLink::currentTraceChanged);
        f.a.setSelectedRecord(1);
        QCOMPARE(current.count(), 0);  // trace 0 was current already
        f.b.setSelectedRecord(0);
        QCOMPARE(current.count(), 1);
        QCOMPARE(current.last().at(0).toInt(), 1);
        QCOMPARE(link.currentTrace(), 1);
        QCOMPARE(f.a.selectedRecord(), -1);
        QCOMPARE(f.b.selectedRecord(), 0);
        QCOMPARE(f.c.selectedRecord(), -1);
        f.b.setSelectedRecord(-1);  // clearing one changes nothing else
        QCOMPARE(link.currentTrace(), 1);
        link.setCurrentTrace(2);  // a chooser: no record selected
        QCOMPARE(current.count(), 2);
        QCOMPARE(link.currentTrace(), 2);
        link.setCurrentTrace(7);  // no such trace
        QCOMPARE(link.currentTrace(), 2);
    }

    void windowsFollowEachOther() {
        Fleet f;
        DeploymentLink link;
        link.setTraces(f.set, f.states);
        TimelineViewport va, vb, vc;
        link.linkViewport(0, &va);
        link.linkViewport(1, &vb);
        link.linkViewport(2, &vc);
        vb.showWindow(0.0, 0.5);
        QCOMPARE(va.window().lower, 0.25);
        QCOMPARE(va.window().upper, 0.75);
        QCOMPARE(vc.window().lower, 0.75);
        QCOMPARE(vc.window().upper, 1.25);
        // An offset moves the others' windows against the current trace's (trace 0).
        f.set.setOffset(1, 0.25);
        link.setSet(f.set);
        // (b's base is now 1.0: a's window [0.25, 0.75] is b's [-0.25, 0.25])
        QCOMPARE(vb.window().lower, -0.25);
        QCOMPARE(vb.window().upper, 0.25);
        QCOMPARE(vc.window().lower, 0.75);
    }
};

QTEST_GUILESS_MAIN(TestDeploymentLink)
#include "tst_deploymentlink.moc"
