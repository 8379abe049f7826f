// The prefetch-lease calls of late 2026 builds in the viewer (offscreen): their colours, their
// lanes and rate legend entries in call-flow order, and the inspector on a release and a cancel
// record. Traces are written by late2026records.h.

#include "codec/qualname.h"
#include "common/callcolors.h"
#include "itemmodels/inspectortreemodel.h"
#include "late2026records.h"
#include "panes/inspectorpane.h"
#include "panes/inspectortreeview.h"
#include "testutil.h"
#include "timeline/timelinewidget.h"
#include "timelinefixture.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <cmath>
#include <numbers>

using namespace lmct;
using namespace lmct::test;
namespace l26 = lmct::test::late2026;

namespace {

/** CIELAB of an sRGB colour (D65). */
std::array<double, 3> labOf(const QColor &c) {
    auto lin = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

/** CIELAB ΔE (CIE76) between two sRGB colours. */
double deltaE(const QColor &a, const QColor &b) {
    const auto p = labOf(a), q = labOf(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/**
 * CIEDE2000 ΔE between two sRGB colours: unlike CIE76 it does not overrate differences among
 * blues (slate blue and submit_prefetch_task's blue are 47 apart in CIE76, 14 here, and look
 * alike).
 */
double deltaE2000(const QColor &a, const QColor &b) {
    const auto [l1, a1, b1] = labOf(a);
    const auto [l2, a2, b2] = labOf(b);
    const double deg = std::numbers::pi / 180.0;
    const double cBar = (std::hypot(a1, b1) + std::hypot(a2, b2)) / 2.0;
    const double g =
        0.5 * (1.0 - std::sqrt(std::pow(cBar, 7) / (std::pow(cBar, 7) + std::pow(25.0, 7))));
    const double a1p = (1.0 + g) * a1, a2p = (1.0 + g) * a2;
    const double c1p = std::hypot(a1p, b1), c2p = std::hypot(a2p, b2);
    auto hue = [](double y, double x) {
        const double h = std::atan2(y, x) * 180.0 / std::numbers::pi;
        return h < 0 ? h + 360.0 : h;
    };
    const double h1p = hue(b1, a1p), h2p = hue(b2, a2p);
    double dhp = 0.0;
    if (c1p * c2p != 0.0) {
        dhp = h2p - h1p;
        dhp += dhp > 180.0 ? -360.0 : dhp < -180.0 ? 360.0 : 0.0;
    }
    const double dLp = l2 - l1, dCp = c2p - c1p;
    const double dHp = 2.0 * std::sqrt(c1p * c2p) * std::sin(dhp / 2.0 * deg);
    const double lBar = (l1 + l2) / 2.0, cBarP = (c1p + c2p) / 2.0;
    double hBar = h1p + h2p;
    if (c1p * c2p != 0.0) {
        hBar = std::abs(h1p - h2p) <= 180.0 ? hBar / 2.0
               : hBar < 360.0               ? (hBar + 360.0) / 2.0
                                            : (hBar - 360.0) / 2.0;
    }
    const double t = 1.0 - 0.17 * std::cos((hBar - 30.0) * deg) +
                     0.24 * std::cos(2.0 * hBar * deg) + 0.32 * std::cos((3.0 * hBar + 6.0) * deg) -
                     0.20 * std::cos((4.0 * hBar - 63.0) * deg);
    const double dTheta = 30.0 * std::exp(-std::pow((hBar - 275.0) / 25.0, 2));
    const double rc =
        2.0 * std::sqrt(std::pow(cBarP, 7) / (std::pow(cBarP, 7) + std::pow(25.0, 7)));
    const double sl =
        1.0 + 0.015 * std::pow(lBar - 50.0, 2) / std::sqrt(20.0 + std::pow(lBar - 50.0, 2));
    const double sc = 1.0 + 0.045 * cBarP, sh = 1.0 + 0.015 * cBarP * t;
    const double rt = -std::sin(2.0 * dTheta * deg) * rc;
    return std::sqrt(std::pow(dLp / sl, 2) + std::pow(dCp / sc, 2) + std::pow(dHp / sh, 2) +
                     rt * (dCp / sc) * (dHp / sh));
}

/** Every call of the flow once, with a release (and its nested read) and two cancels. */
QByteArray traceBytes() {
    l26::Trace t;
    Mp keys;
    keys.map(1).str("keys").raw(l26::keyList(4));
    Mp submit;
    submit.map(1).str("external_request_id").str(l26::Handle().externalRequestId);
    t.record(20.0, "submit_prefetch_task", submit.bytes);
    t.record(20.5, "read_prefetched_results.__enter__", keys.bytes);
    t.record(20.6, "read_prefetched_results.__exit__", keys.bytes);
    t.release(21.5, l26::Handle(), 4);  // records 3 and 4
    t.cancel(22.5, l26::Handle());      // record 5
    t.record(23.0, "reserve_write", keys.bytes);
    t.record(23.5, "finish_write", keys.bytes);
    t.cancel(24.0, l26::Handle());  // record 8
    return t.bytes();
}

}  // namespace

class TestGuiPrefetchCalls : public QObject, public TimelineFixture {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = writeFile(m_dir, QStringLiteral("lease.lct"), traceBytes());
        QVERIFY(!m_path.isEmpty());
    }

    void leaseCallsHaveTheirOwnColours() {
        const QColor release = CallColors::color(QStringLiteral("release_prefetch_task"));
        const QColor cancel = CallColors::color(QStringLiteral("cancel_prefetch_task"));
        QCOMPARE(CallColors::forQualname(Qualname::storagePrefix() +
                                         QStringLiteral("release_prefetch_task")),
                 release);
        // not one of the colours unknown calls share by hash
        QSet<QRgb> hashed;
        for (int i = 0; i < 500; ++i) {
            hashed.insert(CallColors::color(QStringLiteral("unknown_call_%1").arg(i)).rgb());
        }
        QVERIFY(!hashed.contains(release.rgb()));
        QVERIFY(!hashed.contains(cancel.rgb()));
        // mid-tone, and well apart from every other call of the flow and from each other
        for (const QColor &c : {release, cancel}) {
            QVERIFY(c.lightness() > 60 && c.lightness() < 200);
            for (const QString &other : Qualname::callFlow()) {
                const QColor o = CallColors::color(other);
                if (o != c) {
                    QVERIFY2(
                        deltaE(c, o) >= 24.0,
                        qPrintable(
                            QStringLiteral("%1 vs %2: %3").arg(c.name(), other).arg(deltaE(c, o))));
                }
            }
        }
        QVERIFY(deltaE(release, cancel) >= 24.0);
        // a release is no shade of submit_prefetch_task's blue: apart from every flow colour
        // as the eye sees it (CIEDE2000; the CIE76 check above passed a slate blue)
        QVERIFY(std::abs(deltaE2000(QColor(0x6a5acd), QColor(0x4e79a7)) - 14.1) < 0.1);
        for (const QString &other : Qualname::callFlow()) {
            const QColor o = CallColors::color(other);
            if (o != release) {
                QVERIFY2(deltaE2000(release, o) >= 20.0,
                         qPrintable(QStringLiteral("%1 vs %2: %3")
                                        .arg(release.name(), other)
                                        .arg(deltaE2000(release, o))));
            }
        }
    }

    void lanesAndLegendFollowTheCallFlow() {
        QVERIFY(openTimeline(m_path, QSize(1200, 700)));
        const auto guard = qScopeGuard([this] { closeTimeline(); });
        const QString p = Qualname::storagePrefix();
        QStringList keys = m_w->laneKeys();
        QCOMPARE(keys.size(), 9);
        keys.removeIf([](const QString &k) { return k.startsWith(QLatin1String("spans:")); });
        QCOMPARE(keys, (QStringList{p + QStringLiteral("submit_prefetch_task"),
                                    p + QStringLiteral("read_prefetched_results.__enter__"),
                                    p + QStringLiteral("finish_read_prefetched"),
                                    p + QStringLiteral("release_prefetch_task"),
                                    p + QStringLiteral("cancel_prefetch_task"),
                                    p + QStringLiteral("read_prefetched_results.__exit__"),
                                    p + QStringLiteral("reserve_write"),
                                    p + QStringLiteral("finish_write")}));
        // each lane and its rate graph in the call's colour
        int seen = 0;
        for (const TimelineLanes::Row &row : m_w->lanes()->rows()) {
            if (row.kind != TimelineLanes::Row::Kind::Calls ||
                !row.key.endsWith(QLatin1String("_prefetch_task"))) {
                continue;
            }
            QCOMPARE(row.color, CallColors::forQualname(row.key));
            QCPGraph *g = m_w->rateGraphs().value(row.lane);
            QVERIFY(g);
            QCOMPARE(g->pen().color().rgb(), row.color.rgb());
            ++seen;
        }
        QCOMPARE(seen, 3);  // submit, release, cancel
        QCPLegend *legend = m_w->rateLegend();
        QStringList names;
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i))) {
                names.append(item->plottable()->name());
            }
        }
        const qsizetype release = names.indexOf(QStringLiteral("release_prefetch_task"));
        QVERIFY2(release > 0, qPrintable(names.join(QLatin1Char(','))));
        QCOMPARE(names.value(release - 1), QStringLiteral("finish_read_prefetched"));
        QCOMPARE(names.value(release + 1), QStringLiteral("cancel_prefetch_task"));
    }

    void inspectorShowsTheHandleOfACancel() {
        QString error;
        auto doc = TraceLoader::load(m_path, &error);
        QVERIFY2(doc, qPrintable(error));
        ViewState state;
        InspectorPane pane;
        pane.resize(900, 600);
        pane.setViewState(&state);
        state.setDocument(doc);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        state.setSelectedRecord(5);
        QCOMPARE(pane.record(), 5);
        QVERIFY(pane.titleText().contains(QLatin1String("cancel_prefetch_task")));
        InspectorTreeModel *m = pane.model();
        const QModelIndex handle = m->index(0, 0);
        QCOMPARE(handle.data().toString(), QStringLiteral("handle"));
        QVERIFY(pane.treeView()->isExpanded(handle));
        QCOMPARE(m->rowCount(handle), 9);
        QHash<QString, QString> values;
        for (int r = 0; r < m->rowCount(handle); ++r) {
            values.insert(m->index(r, 0, handle).data().toString(),
                          m->index(r, InspectorTreeModel::ValueColumn, handle).data().toString());
        }
        QCOMPARE(values.value(QStringLiteral("l1_prefix_hit_count")),
                 QStringLiteral("4 of 7 keys hit in L1"));
        QCOMPARE(values.value(QStringLiteral("l1_found_indices")), QStringLiteral("0–3"));
        // t_mono_start comes from the header: 21.229481 s on the trace's time axis, 1.271 s
        // before the cancel at t_mono 22.5; the derived rows are open
        const QModelIndex submit = m->index(6, 0, handle);
        QCOMPARE(submit.data().toString(), QStringLiteral("submit_time"));
        QVERIFY(pane.treeView()->isExpanded(submit));
        QCOMPARE(m->rowCount(submit), 2);
        QCOMPARE(m->index(0, InspectorTreeModel::ValueColumn, submit).data().toString(),
                 QStringLiteral("21.229481 s"));
        QCOMPARE(m->index(1, InspectorTreeModel::ValueColumn, submit).data().toString(),
                 QStringLiteral("1.271 s"));
        // Filter to This on the handle's request id filters by request
        const QModelIndex rid = m->index(1, 0, handle);
        QCOMPARE(rid.data().toString(), QStringLiteral("external_request_id"));
        QCOMPARE(pane.conditionAt(rid, false),
                 QStringLiteral("request == \"%1\"").arg(l26::Handle().externalRequestId));
        // the found indices' runs say it all: the list stays closed
        QVERIFY(!pane.treeView()->isExpanded(m->index(3, 0, handle)));
    }

    void inspectorShowsAReleaseAndItsKeys() {
        QString error;
        auto doc = TraceLoader::load(m_path, &error);
        QVERIFY2(doc, qPrintable(error));
        ViewState state;
        InspectorPane pane;
        pane.setViewState(&state);
        state.setDocument(doc);
        state.setSelectedRecord(3);
        QCOMPARE(pane.record(), 3);
        InspectorTreeModel *m = pane.model();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->index(0, 0).data().toString(), QStringLiteral("handle"));
        const QModelIndex keys = m->index(1, 0);
        QCOMPARE(keys.data().toString(), QStringLiteral("keys"));
        QCOMPARE(m->rowCount(keys), 4);
        QVERIFY(pane.treeView()->isExpanded(keys));  // short key lists open with their first key
        QVERIFY(pane.treeView()->isExpanded(m->index(0, 0, keys)));
    }
};

QTEST_MAIN(TestGuiPrefetchCalls)
#include "tst_gui_prefetchcalls.moc"
