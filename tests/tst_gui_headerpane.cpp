// The header pane's config summary line and digest tool tip, on traces written here.

#include "common/statuscolors.h"
#include "configsamples.h"
#include "itemmodels/inspectortreemodel.h"
#include "panes/headerpane.h"
#include "panes/inspectorpane.h"
#include "panes/inspectortreeview.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QCryptographicHash>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QtTest>

using namespace lmct;
using namespace lmct::test;

namespace {

QLabel *configLabel(HeaderPane &pane) {
    return pane.findChild<QLabel *>(QStringLiteral("configSummary"));
}

}  // namespace

class TestGuiHeaderPane : public QObject {
    Q_OBJECT
private slots:
    void summaryAboveTheTree() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        QLabel *label = configLabel(pane);
        QVERIFY(label);
        QVERIFY(pane.configText().isEmpty());  // no document yet
        state.setDocument(loadWithConfig(QString::fromUtf8(kLmcacheConfig)));
        QCOMPARE(pane.configText(),
                 QStringLiteral("Config: L1 48 GiB (init 20 GiB, lazy) · LRU eviction at 80 % "
                                "watermark, ratio 0.2 · write TTL 600 s, read TTL 300 s · no L2 "
                                "adapters · prefetch: 8 in flight, policy default · store policy "
                                "default · notifier every 5 ms"));
        // one part a line in its tool tip
        QVERIFY(label->toolTip().startsWith(
            u"StorageManagerConfig (sm_config_json):\nL1 48 GiB (init 20 GiB, lazy)\nLRU "
            u"eviction at 80 % watermark, ratio 0.2\n"));
        // between the digest line and the tree, drawn in the pane's normal text colour
        const int at = pane.layout()->indexOf(label);
        QVERIFY(at > 0);
        QCOMPARE(pane.layout()->indexOf(pane.treeView()), at + 1);
        QCOMPARE(label->palette().color(QPalette::WindowText),
                 pane.palette().color(QPalette::WindowText));
        QAbstractItemModelTester tester(pane.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void digestToolTipExplainsShmName() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(loadWithConfig(QString::fromUtf8(kLmcacheConfig)));
        QVERIFY(pane.digestText().contains(u"match"));
        const QString tip = pane.digestToolTip();
        QVERIFY2(tip.contains(u"shm_name \"lmcache_l1_pool_9101\" embeds the server's PID (9101)"),
                 qPrintable(tip));
        QVERIFY(tip.contains(u"sm_config_digest changes with every server process"));
        // the digest check row says it too
        const QModelIndexList checks = pane.model()->findByName(QStringLiteral("digest check"));
        QCOMPARE(checks.size(), 1);
        QVERIFY(checks.first().data(Qt::ToolTipRole).toString().contains(u"PID (9101)"));

        // an older config without shm_name: no such note
        state.setDocument(loadWithConfig(QString::fromUtf8(kOlderConfig)));
        QVERIFY(pane.digestText().contains(u"match"));
        QVERIFY(!pane.digestToolTip().contains(u"shm_name"));
        QCOMPARE(pane.configText(), QStringLiteral("Config: L1 64 GiB (lazy) · LRU eviction at "
                                                   "80 % watermark · write TTL 600 s · L2: fs "
                                                   "/mnt/kvcache"));
    }

    void noConfigOrNotAConfig() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(loadWithConfig(QString()));
        QCOMPARE(pane.configText(), QStringLiteral("Config: no StorageManager config attached"));
        QCOMPARE(configLabel(pane)->palette().color(QPalette::WindowText),
                 StatusColors::muted(pane.palette()));

        state.setDocument(loadWithConfig(QStringLiteral("{not json")));
        QVERIFY2(pane.configText().startsWith(u"Config: sm_config_json is not valid JSON ("),
                 qPrintable(pane.configText()));
        QCOMPARE(configLabel(pane)->palette().color(QPalette::WindowText),
                 StatusColors::warning(pane.palette()));

        state.setDocument(nullptr);
        QVERIFY(pane.configText().isEmpty());
        QVERIFY(configLabel(pane)->isHidden());
    }

    // A field of another type or out of range: named in the summary, the label in the warning
    // colour, the field's row a problem row.
    void configFieldProblemsAreWarned() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(loadWithConfig(QStringLiteral(
            "{\"eviction_config\": {\"eviction_policy\": \"LRU\", \"trigger_watermark\": -3}}")));
        QCOMPARE(pane.configText(),
                 QStringLiteral("Config: LRU eviction · ⚠ eviction_config.trigger_watermark: "
                                "expected a fraction from 0 to 1, found -3"));
        QCOMPARE(configLabel(pane)->palette().color(QPalette::WindowText),
                 StatusColors::warning(pane.palette()));
        const QModelIndexList rows = pane.model()->findByName(QStringLiteral("trigger_watermark"));
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("-3  ⚠ expected a fraction from 0 to 1"));
        QAbstractItemModelTester tester(pane.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    // The diagnostics row counts notes too: one note is not "0 errors, 0 warnings".
    void diagnosticsCountNotes() {
        Mp args;
        args.map(0);
        const QString q = storageQualname("finish_write");
        // t_mono steps back 1 ms: a note (records are published from several threads)
        auto doc = TraceLoader::loadBytes(frame(headerBody()) +
                                              frame(recordBody(1.0, 2.0, q, args.bytes)) +
                                              frame(recordBody(0.999, 2.1, q, args.bytes)),
                                          QStringLiteral("n.lct"), nullptr);
        QVERIFY(doc);
        QCOMPARE(doc->diagnosticCount(), 1);
        QCOMPARE(doc->diagnostics().first().severity, Diagnostic::Severity::Info);
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(doc);
        const QModelIndexList rows = pane.model()->findByName(QStringLiteral("diagnostics"));
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("1 (0 errors, 0 warnings, 1 note)"));
    }

    void damageCountsTakeTheirNounsNumber() {
        // Regression: one skipped frame read "1 frames skipped".
        QString error;
        const auto doc =
            TraceLoader::load(tracePath(QStringLiteral("malformed-record.lmct")), &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->skippedFrames(), 1);
        QCOMPARE(doc->recoveredFrames(), 0);
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(doc);
        const QModelIndexList rows = pane.model()->findByName(QStringLiteral("damage"));
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().siblingAtColumn(InspectorTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("%1 bytes skipped, 1 frame skipped, 0 records after a resync")
                     .arg(QLocale().toString(doc->skippedBytes())));
    }

    void valuesReadWholeAtTheDefaultDockWidth() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        // the dock's default width in a 1600x1000 window: a full line of the Frame tab's hex dump
        const int width = std::max(480, InspectorPane().frameDumpWidth());
        pane.resize(width, 600);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        state.setDocument(loadWithConfig(QString::fromUtf8(kLmcacheConfig)));
        InspectorTreeView *tree = pane.treeView();
        QHeaderView *header = tree->header();
        // Name | Type | Value, the value stretching to the right edge
        QVERIFY(tree->valueLast());
        QCOMPARE(header->logicalIndex(InspectorTreeModel::ColumnCount - 1),
                 int(InspectorTreeModel::ValueColumn));
        QVERIFY(header->stretchLastSection());
        for (const QString &name :
             {QStringLiteral("diagnostics"), QStringLiteral("duration"), QStringLiteral("size")}) {
            const QModelIndexList rows = pane.model()->findByName(name);
            QVERIFY2(!rows.isEmpty(), qPrintable(name));
            const QModelIndex value = rows.first().siblingAtColumn(InspectorTreeModel::ValueColumn);
            QVERIFY2(tree->visualRect(value).width() >= tree->sizeHintForIndex(value).width(),
                     qPrintable(QStringLiteral("%1: %2 px for %3 px of \"%4\"")
                                    .arg(name)
                                    .arg(tree->visualRect(value).width())
                                    .arg(tree->sizeHintForIndex(value).width())
                                    .arg(value.data().toString())));
        }
        // the name column is as wide as the names, not a share of the width
        QVERIFY(header->sectionSize(InspectorTreeModel::NameColumn) < width * 35 / 100);
    }

    void tracesStringsAreEscaped() {
        ViewState state;
        HeaderPane pane;
        pane.setViewState(&state);
        state.setDocument(loadWithConfig(
            QString::fromUtf8("{\"eviction_config\": {\"eviction_policy\": \"LRU\\u202e\"}}")));
        QCOMPARE(pane.configText(), QStringLiteral("Config: LRU\\u{202e} eviction"));

        // markup in the trace's text is shown as text, not rendered
        state.setDocument(loadWithConfig(QStringLiteral("{\"<b>bold</b>\": 1}")));
        QCOMPARE(pane.configText(),
                 QStringLiteral("Config: none of the known config fields (keys: <b>bold</b>)"));
        QCOMPARE(configLabel(pane)->textFormat(), Qt::PlainText);
        QVERIFY(!Qt::mightBeRichText(configLabel(pane)->toolTip()));
        const QString digest = QStringLiteral("<b>") + QString(61, QLatin1Char('0'));
        HeaderSpec h;
        h.configJson = QStringLiteral("{}");
        h.configDigest = digest;
        const SmallTrace t = smallTrace(1);
        QString error;
        state.setDocument(TraceLoader::loadBytes(frame(headerBody(h)) + t.bytes.mid(t.headerEnd),
                                                 QStringLiteral("m.lct"), &error));
        QVERIFY(pane.digestText().contains(u"mismatch"));
        QVERIFY(pane.digestToolTip().contains(digest));
        QVERIFY(!Qt::mightBeRichText(pane.digestToolTip()));
    }
};

QTEST_MAIN(TestGuiHeaderPane)
#include "tst_gui_headerpane.moc"
