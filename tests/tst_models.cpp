// Qt item models (RecordTableModel, InspectorTreeModel, DiagnosticsModel) under
// QAbstractItemModelTester, and ViewState's signals.

#include "codec/qualname.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/diagnosticsmodel.h"
#include "itemmodels/headertree.h"
#include "itemmodels/inspectortreemodel.h"
#include "itemmodels/recordtablemodel.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTest>

using namespace lmct;
using namespace lmct::test;
using Tester = QAbstractItemModelTester;

namespace {

std::shared_ptr<TraceDocument> load(const QString &path) {
    QString error;
    auto doc = TraceLoader::load(path, &error);
    if (!doc) {
        qFatal("cannot load %s: %s", qPrintable(path), qPrintable(error));
    }
    return doc;
}

/** Checks rowOf() and recordAt() are inverse over the rows shown and the records. */
void checkInverse(const RecordTableModel &m, int records) {
    QSet<int> shown;
    for (int r = 0; r < m.rowCount(); ++r) {
        const int rec = m.recordAt(r);
        QVERIFY(rec >= 0 && rec < records);
        QVERIFY2(!shown.contains(rec), "a record shown twice");
        shown.insert(rec);
        QCOMPARE(m.rowOf(rec), r);
        QCOMPARE(m.data(m.index(r, 0), RecordTableModel::RecordRole).toInt(), rec);
    }
    for (int rec = 0; rec < records; ++rec) {
        if (!shown.contains(rec)) {
            QCOMPARE(m.rowOf(rec), -1);
        }
    }
    QCOMPARE(m.recordAt(-1), -1);
    QCOMPARE(m.recordAt(m.rowCount()), -1);
    QCOMPARE(m.rowOf(-1), -1);
    QCOMPARE(m.rowOf(records), -1);
}

/** The value a column sorts by, for record `rec`. */
QVariant sortKey(const TraceDocument &doc, int column, int rec) {
    const RecordStore &rs = doc.records();
    switch (column) {
        case RecordTableModel::TMonoColumn:
            return rs.tMono(rec);
        case RecordTableModel::DeltaColumn:
            return rec == 0 ? 0.0 : rs.tMono(rec) - rs.tMono(rec - 1);
        case RecordTableModel::TWallColumn:
            return rs.tWall(rec);
        case RecordTableModel::CallColumn:
            return Qualname::shortName(rs.qualname(rec));
        default:
            return rec;
    }
}

bool lessThan(const QVariant &a, const QVariant &b) {
    if (a.typeId() == QMetaType::QString) {
        return a.toString() < b.toString();
    }
    return a.toDouble() < b.toDouble();
}

}  // namespace

class TestModels : public QObject {
    Q_OBJECT

private slots:
    // --- RecordTableModel ---------------------------------------------------------------------

    void recordTableEmpty() {
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.columnCount(), int(RecordTableModel::ColumnCount));
        QCOMPARE(m.recordAt(0), -1);
        QCOMPARE(m.rowOf(0), -1);
        m.sort(RecordTableModel::TMonoColumn, Qt::DescendingOrder);
        QCOMPARE(m.rowCount(), 0);
    }

    void recordTableEscapesControlsInCalls() {
        // Regression: a qualname with U+202E (right-to-left override) showed reversed in the
        // call column, lanes and legend ("lmcache.derm13..live"); controls print escaped.
        QByteArray b = frame(headerBody());
        b += frame(
            recordBody(0.5, 1.7e9, QStringLiteral("lmcache.\u202eevil\x1b[31mred"), keysArgs(1)));
        QString error;
        auto doc = TraceLoader::loadBytes(b, QStringLiteral("ctrl.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        QCOMPARE(m.rowCount(), 1);
        const QString call =
            m.data(m.index(0, RecordTableModel::CallColumn), Qt::DisplayRole).toString();
        QCOMPARE(call, QStringLiteral("lmcache.\\u{202e}evil\\x1b[31mred"));
        QCOMPARE(Qualname::displayName(QStringLiteral("StorageManager.reserve_write")),
                 QStringLiteral("reserve_write"));
    }

    void recordTableData() {
        auto doc = load(fixturePath(QStringLiteral("calls-generations.lct")));
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        m.setDocument(doc);
        QCOMPARE(reset.count(), 1);
        const RecordStore &rs = doc->records();
        QCOMPARE(m.rowCount(), rs.size());
        for (int r = 0; r < m.rowCount(); ++r) {
            QCOMPARE(m.data(m.index(r, RecordTableModel::IndexColumn)).toInt(), r);
            QCOMPARE(m.data(m.index(r, RecordTableModel::CallColumn)).toString(),
                     Qualname::shortName(rs.qualname(r)));
            QCOMPARE(m.data(m.index(r, RecordTableModel::CallColumn), Qt::ToolTipRole).toString(),
                     rs.qualname(r));
            QCOMPARE(m.data(m.index(r, 0), RecordTableModel::TMonoRole).toDouble(), rs.tMono(r));
            QCOMPARE(m.data(m.index(r, 0), RecordTableModel::QualnameIdRole).toUInt(),
                     rs.qualnameId(r));
            QCOMPARE(m.data(m.index(r, RecordTableModel::TMonoColumn)).toString(),
                     QString::number(rs.tMono(r), 'f', 6));
            const QString summary = m.data(m.index(r, RecordTableModel::SummaryColumn)).toString();
            QVERIFY(!summary.startsWith(QStringLiteral("⚠")));
        }
        QVERIFY(m.data(m.index(0, RecordTableModel::DeltaColumn)).toString().isEmpty());
        QVERIFY(m.data(m.index(1, RecordTableModel::DeltaColumn)).toString().startsWith(u'+'));
        QVERIFY(m.data(m.index(0, RecordTableModel::SummaryColumn))
                    .toString()
                    .contains(QLatin1String("keys")));

        // UTC switch: the t_wall column changes, and says so.
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.setWallUtc(true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).value<QModelIndex>().column(),
                 int(RecordTableModel::TWallColumn));
        QVERIFY(m.data(m.index(0, RecordTableModel::TWallColumn)).toString().endsWith(u'Z'));
        QCOMPARE(m.headerData(RecordTableModel::TWallColumn, Qt::Horizontal).toString(),
                 QStringLiteral("t_wall (UTC)"));
        m.setWallUtc(true);
        QCOMPARE(changed.count(), 1);
        for (int c = 0; c < m.columnCount(); ++c) {
            QVERIFY(!m.headerData(c, Qt::Horizontal).toString().isEmpty());
            QVERIFY(!m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        }
    }

    void recordTableResyncTooltip() {
        auto doc = load(fixturePath(QStringLiteral("corrupt-length.lct")));
        RecordTableModel m;
        m.setDocument(doc);
        QVERIFY(m.data(m.index(5, RecordTableModel::IndexColumn), Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("resynchronised")));
        QVERIFY(m.data(m.index(4, RecordTableModel::IndexColumn), Qt::ToolTipRole).isNull());
    }

    void recordTableDamagedArgs() {
        // A record kept for its intact index fields but with damaged arguments says so.
        auto doc = load(fixturePath(QStringLiteral("huge-array-claim.lct")));
        int bad = -1;
        for (int i = 0; i < doc->records().size(); ++i) {
            if (doc->records().flags(i) & RecordStore::BadArgs) {
                QCOMPARE(bad, -1);
                bad = i;
            }
        }
        QVERIFY(bad >= 0);
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        const QModelIndex s = m.index(m.rowOf(bad), RecordTableModel::SummaryColumn);
        QVERIFY2(m.data(s).toString().startsWith(QStringLiteral("⚠")),
                 qPrintable(m.data(s).toString()));
        QVERIFY(m.data(s, Qt::ToolTipRole).toString().contains(QLatin1String("claims")));
        const QModelIndex ok = m.index(m.rowOf(bad == 0 ? 1 : 0), RecordTableModel::SummaryColumn);
        QVERIFY(!m.data(ok).toString().startsWith(QStringLiteral("⚠")));
    }

    void recordTableSort_data() {
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("order");
        for (int c = 0; c < RecordTableModel::ColumnCount; ++c) {
            for (int o : {int(Qt::AscendingOrder), int(Qt::DescendingOrder)}) {
                QTest::addRow("column %d %s", c, o == Qt::AscendingOrder ? "asc" : "desc")
                    << c << o;
            }
        }
    }
    void recordTableSort() {
        QFETCH(int, column);
        QFETCH(int, order);
        auto doc = load(fixturePath(QStringLiteral("sample.lct")));
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        QSignalSpy layout(&m, &QAbstractItemModel::layoutChanged);
        m.sort(column, Qt::SortOrder(order));
        QCOMPARE(layout.count(), 1);
        QCOMPARE(m.rowCount(), doc->records().size());
        checkInverse(m, doc->records().size());
        const bool asc = order == Qt::AscendingOrder;
        for (int r = 1; r < m.rowCount(); ++r) {
            const int a = m.recordAt(r - 1), b = m.recordAt(r);
            if (column == RecordTableModel::IndexColumn ||
                column == RecordTableModel::SummaryColumn) {
                // Summary sorts by record index.
                QCOMPARE(b, asc ? a + 1 : a - 1);
                continue;
            }
            const QVariant ka = sortKey(*doc, column, a), kb = sortKey(*doc, column, b);
            QVERIFY2(asc ? !lessThan(kb, ka) : !lessThan(ka, kb),
                     qPrintable(QStringLiteral("rows %1,%2").arg(r - 1).arg(r)));
            if (asc && !lessThan(ka, kb)) {
                QVERIFY2(a < b, "equal keys keep file order");
            }
        }
        // Sorting back restores file order.
        m.sort(RecordTableModel::IndexColumn, Qt::AscendingOrder);
        for (int r = 0; r < m.rowCount(); ++r) {
            QCOMPARE(m.recordAt(r), r);
        }
    }

    void regression_sortKeepsPersistentIndexesOnTheirRecords() {
        // sort() rebuilt the row order between layoutAboutToBeChanged() and layoutChanged()
        // without moving persistent indexes: a view's selection and current index stayed on
        // their row numbers and so jumped to other records whenever the table was sorted.
        auto doc = load(fixturePath(QStringLiteral("sample.lct")));
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        QList<QPersistentModelIndex> kept;
        QList<int> records;
        for (int row : {0, 1, 17, 200, m.rowCount() - 1}) {
            kept.append(QPersistentModelIndex(m.index(row, RecordTableModel::CallColumn)));
            records.append(m.recordAt(row));
        }
        for (int column :
             {int(RecordTableModel::TMonoColumn), int(RecordTableModel::CallColumn),
              int(RecordTableModel::DeltaColumn), int(RecordTableModel::IndexColumn)}) {
            for (Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
                m.sort(column, order);
                for (int k = 0; k < kept.size(); ++k) {
                    QVERIFY(kept[k].isValid());
                    QCOMPARE(kept[k].column(), int(RecordTableModel::CallColumn));
                    QCOMPARE(m.recordAt(kept[k].row()), records[k]);
                    QCOMPARE(kept[k].data(RecordTableModel::RecordRole).toInt(), records[k]);
                }
            }
        }
    }

    void recordTableSubset() {
        auto doc = load(fixturePath(QStringLiteral("sample.lct")));
        RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        auto subset = std::make_shared<std::vector<int>>();
        for (int i = 0; i < doc->records().size(); i += 3) {
            subset->push_back(i);
        }
        m.setSubset(subset);
        QVERIFY(m.hasSubset());
        QCOMPARE(m.rowCount(), int(subset->size()));
        checkInverse(m, doc->records().size());
        QCOMPARE(m.rowOf(3), 1);
        QCOMPARE(m.rowOf(4), -1);
        // Sorting keeps the subset; a new subset keeps the sort.
        m.sort(RecordTableModel::TMonoColumn, Qt::DescendingOrder);
        QCOMPARE(m.rowCount(), int(subset->size()));
        checkInverse(m, doc->records().size());
        for (int r = 1; r < m.rowCount(); ++r) {
            QVERIFY(doc->records().tMono(m.recordAt(r - 1)) >= doc->records().tMono(m.recordAt(r)));
        }
        auto evens = std::make_shared<std::vector<int>>();
        for (int i = 0; i < doc->records().size(); i += 2) {
            evens->push_back(i);
        }
        m.setSubset(evens);
        QCOMPARE(m.rowCount(), int(evens->size()));
        checkInverse(m, doc->records().size());
        QVERIFY(doc->records().tMono(m.recordAt(0)) >= doc->records().tMono(m.recordAt(1)));
        m.setSubset(std::make_shared<std::vector<int>>());
        QCOMPARE(m.rowCount(), 0);
        m.setSubset(nullptr);
        QVERIFY(!m.hasSubset());
        QCOMPARE(m.rowCount(), doc->records().size());
        checkInverse(m, doc->records().size());
        // A new document drops the subset.
        m.setSubset(subset);
        m.setDocument(load(fixturePath(QStringLiteral("digest-match.lct"))));
        QVERIFY(!m.hasSubset());
        QCOMPARE(m.rowCount(), 6);
    }

    // --- InspectorTreeModel -----------------------------------------------------------------

    void inspectorArgs() {
        auto doc = load(tracePath(QStringLiteral("schema2-prefetch-spec-tp2.lct")));
        auto args = doc->args(0);
        InspectorTreeModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        auto tree = ArgumentTree::build(args->value);
        const int topRows = int(tree->children.size());
        m.setTree(std::move(tree), args);
        args.reset();  // the model keeps the values alive
        QCOMPARE(m.rowCount(), topRows);
        QCOMPARE(m.columnCount(), int(InspectorTreeModel::ColumnCount));

        const QModelIndexList hashes = m.findByName(QStringLiteral("chunk_hash"));
        QVERIFY(hashes.size() > 1);
        for (const QModelIndex &h : hashes) {
            const QString hex =
                m.data(h.siblingAtColumn(InspectorTreeModel::ValueColumn)).toString();
            QCOMPARE(hex.size(), 64);
            QCOMPARE(m.data(h, InspectorTreeModel::CopyTextRole).toString(), hex);
            QCOMPARE(m.data(h.siblingAtColumn(InspectorTreeModel::TypeColumn)).toString(),
                     QStringLiteral("bytes[32]"));
            QVERIFY(m.data(h, InspectorTreeModel::PathRole)
                        .toString()
                        .endsWith(QLatin1String(".chunk_hash")));
            // parent() and index() agree.
            const QModelIndex key = m.parent(h);
            QCOMPARE(m.index(h.row(), 0, key), h);
            QCOMPARE(m.data(key.siblingAtColumn(InspectorTreeModel::TypeColumn)).toString(),
                     QStringLiteral("ObjectKey"));
        }
        // Derived rows are flagged; rank rows sit under kv_rank.
        const QModelIndexList worlds = m.findByName(QStringLiteral("world_size"));
        QVERIFY(!worlds.isEmpty());
        bool derivedSeen = false;
        for (const QModelIndex &w : worlds) {
            if (m.data(w, InspectorTreeModel::DerivedRole).toBool()) {
                derivedSeen = true;
                QCOMPARE(m.data(m.parent(w)).toString(), QStringLiteral("kv_rank"));
                QCOMPARE(m.data(w.siblingAtColumn(InspectorTreeModel::ValueColumn)).toString(),
                         QStringLiteral("2"));
            }
        }
        QVERIFY(derivedSeen);
        // A container copies as compact JSON of its value.
        const QModelIndex spec = m.findByName(QStringLiteral("spec")).value(0);
        QVERIFY(spec.isValid());
        const QString json = m.data(spec, InspectorTreeModel::CopyTextRole).toString();
        const QJsonDocument jd = QJsonDocument::fromJson(json.toUtf8());
        QVERIFY2(jd.isObject(), qPrintable(json.left(200)));
        QCOMPARE(jd.object()[QStringLiteral("__t__")].toString(),
                 QStringLiteral("PrefetchRequestSpec"));
        QCOMPARE(m.headerData(InspectorTreeModel::NameColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Name"));
        QVERIFY(!m.data(spec, Qt::ToolTipRole).toString().isEmpty());

        QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
        m.clear();
        QCOMPARE(reset.count(), 1);
        QCOMPARE(m.rowCount(), 0);
        QVERIFY(m.findByName(QStringLiteral("chunk_hash")).isEmpty());
    }

    void inspectorShowsTraceStringsEscaped() {
        // Regression: a U+202E or ESC in a header value (sm_config_json, level_meta) or an
        // argument reversed or broke the row in the Header and Inspector panes. Shown escaped;
        // copied as recorded.
        auto root = std::make_unique<TreeNode>();
        const QString raw = QStringLiteral("evil\u202e\x1b[31mred");
        root->add(QStringLiteral("key\u202e"), QStringLiteral("str"), raw);
        InspectorTreeModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setTree(std::move(root));
        const QModelIndex name = m.index(0, InspectorTreeModel::NameColumn);
        const QModelIndex value = m.index(0, InspectorTreeModel::ValueColumn);
        QCOMPARE(name.data().toString(), QStringLiteral("key\\u{202e}"));
        QCOMPARE(value.data().toString(), QStringLiteral("evil\\u{202e}\\x1b[31mred"));
        QCOMPARE(value.data(InspectorTreeModel::CopyTextRole).toString(), raw);
    }

    void inspectorHeader() {
        auto doc = load(fixturePath(QStringLiteral("digest-mismatch.lct")));
        InspectorTreeModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setTree(HeaderTree::build(doc->header()), doc);
        const QModelIndexList digest = m.findByName(QStringLiteral("digest check"));
        QCOMPARE(digest.size(), 1);
        QVERIFY(m.data(digest[0], InspectorTreeModel::DerivedRole).toBool());
        QVERIFY(m.data(digest[0], InspectorTreeModel::ProblemRole).toBool());
        QCOMPARE(m.data(digest[0], InspectorTreeModel::CopyTextRole).toString(),
                 doc->header().computedDigest());
        const QModelIndexList cfg = m.findByName(QStringLiteral("sm_config_json"));
        QCOMPARE(cfg.size(), 1);
        QVERIFY(m.rowCount(cfg[0]) > 0);
        QCOMPARE(m.data(cfg[0], InspectorTreeModel::CopyTextRole).toString(),
                 doc->header().smConfigJson());
        const QModelIndexList magic = m.findByName(QStringLiteral("magic"));
        QCOMPARE(m.data(magic[0], InspectorTreeModel::CopyTextRole).toString(),
                 QStringLiteral("LMCT"));
        QVERIFY(!m.data(magic[0], InspectorTreeModel::ProblemRole).toBool());
    }

    // --- DiagnosticsModel -------------------------------------------------------------------

    void diagnostics() {
        auto doc = load(fixturePath(QStringLiteral("bad-fields.lct")));
        DiagnosticsModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        QCOMPARE(m.rowCount(), 0);
        m.setDocument(doc);
        QCOMPARE(m.rowCount(), int(doc->diagnostics().size()));
        QVERIFY(m.rowCount() >= 6);
        QCOMPARE(m.columnCount(), int(DiagnosticsModel::ColumnCount));
        for (int r = 0; r < m.rowCount(); ++r) {
            const Diagnostic d = doc->diagnostics().at(r);
            QCOMPARE(m.data(m.index(r, DiagnosticsModel::SeverityColumn)).toString(),
                     Diagnostic::severityName(d.severity));
            QCOMPARE(m.data(m.index(r, DiagnosticsModel::KindColumn)).toString(),
                     Diagnostic::kindName(d.kind));
            QCOMPARE(m.data(m.index(r, DiagnosticsModel::MessageColumn)).toString(), d.message);
            if (d.offset < 0) {  // a whole-file finding (the damage summary): no offset, no record
                QCOMPARE(m.data(m.index(r, DiagnosticsModel::OffsetColumn)).toString(),
                         QStringLiteral("—"));
                QCOMPARE(m.data(m.index(r, 0), DiagnosticsModel::RecordRole).toInt(), -1);
            } else {
                QCOMPARE(m.data(m.index(r, DiagnosticsModel::OffsetColumn)).toLongLong(), d.offset);
                QCOMPARE(m.data(m.index(r, 0), DiagnosticsModel::RecordRole).toInt(),
                         doc->recordNearOffset(d.offset));
            }
            QCOMPARE(m.data(m.index(r, 0), DiagnosticsModel::SeverityRole).toInt(),
                     int(d.severity));
            // every cell's tooltip: the whole message (the table elides it), its severity, kind
            // and offset, as rich text (which a tooltip wraps)
            for (int c = 0; c < m.columnCount(); ++c) {
                const QString tip = m.data(m.index(r, c), Qt::ToolTipRole).toString();
                QVERIFY2(tip.startsWith(QStringLiteral("<p>")), qPrintable(tip));
                QVERIFY2(tip.contains(d.message.toHtmlEscaped()), qPrintable(tip));
                QVERIFY2(tip.contains(Diagnostic::severityName(d.severity)), qPrintable(tip));
                QVERIFY2(tip.contains(Diagnostic::kindName(d.kind)), qPrintable(tip));
                QVERIFY2(tip.contains(d.offset < 0 ? QStringLiteral("whole file")
                                                   : QStringLiteral("offset %1").arg(d.offset)),
                         qPrintable(tip));
            }
        }
        QCOMPARE(m.data(m.index(0, DiagnosticsModel::KindColumn)).toString(),
                 QStringLiteral("bad-fields"));
        QCOMPARE(m.headerData(DiagnosticsModel::OffsetColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Offset"));
        m.setDocument(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void diagnosticsGrowWhileLoading() {
        // open() gives an empty, loading document; scan() finds the damage; refresh() shows it
        // as inserted rows.
        QString error;
        auto doc = TraceLoader::open(fixturePath(QStringLiteral("bad-fields.lct")), &error);
        QVERIFY2(doc, qPrintable(error));
        QVERIFY(doc->isLoading());
        DiagnosticsModel m;
        Tester t(&m, Tester::FailureReportingMode::Fatal);
        m.setDocument(doc);
        QCOMPARE(m.rowCount(), 0);
        TraceLoader::scan(doc.get());
        QVERIFY(!doc->isLoading());
        QCOMPARE(m.rowCount(), 0);  // a snapshot until refresh()
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        m.refresh();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(m.rowCount(), int(doc->diagnostics().size()));
        QVERIFY(m.rowCount() >= 6);
        m.refresh();
        QCOMPARE(inserted.count(), 1);
    }

    // --- ViewState ------------------------------------------------------------------------------

    void viewStateDocument() {
        ViewState s;
        QSignalSpy doc(&s, &ViewState::documentChanged);
        QSignalSpy sel(&s, &ViewState::selectedRecordChanged);
        QSignalSpy range(&s, &ViewState::timeRangeChanged);
        s.setSelectedRecord(2);
        s.setTimeRange(ViewState::TimeRange{1.0, 2.0});
        sel.clear();
        range.clear();
        auto d = load(fixturePath(QStringLiteral("digest-match.lct")));
        s.setDocument(d);
        QCOMPARE(doc.count(), 1);
        QCOMPARE(sel.count(), 1);
        QCOMPARE(sel.first().at(0).toInt(), -1);
        QCOMPARE(range.count(), 1);
        QCOMPARE(s.document(), std::shared_ptr<const TraceDocument>(d));
        QCOMPARE(s.selectedRecord(), -1);
        QVERIFY(!s.timeRange());
    }

    void viewStateSelection() {
        ViewState s;
        s.setDocument(load(fixturePath(QStringLiteral("digest-match.lct"))));  // 6 records
        QSignalSpy sel(&s, &ViewState::selectedRecordChanged);
        s.setSelectedRecord(3);
        QCOMPARE(sel.count(), 1);
        QCOMPARE(sel.last().at(0).toInt(), 3);
        s.setSelectedRecord(3);
        QCOMPARE(sel.count(), 1);
        s.setSelectedRecord(6);  // out of range: nothing selected
        QCOMPARE(s.selectedRecord(), -1);
        QCOMPARE(sel.count(), 2);
        QCOMPARE(sel.last().at(0).toInt(), -1);
        s.setSelectedRecord(-7);
        QCOMPARE(sel.count(), 2);
        s.setSelectedRecord(0);
        QCOMPARE(sel.count(), 3);
        QCOMPARE(s.selectedRecord(), 0);
    }

    void viewStateRangeAndUtc() {
        ViewState s;
        QSignalSpy range(&s, &ViewState::timeRangeChanged);
        s.setTimeRange(ViewState::TimeRange{5.0, 2.0});
        QCOMPARE(range.count(), 1);
        QVERIFY(s.timeRange());
        QCOMPARE(s.timeRange()->from, 2.0);
        QCOMPARE(s.timeRange()->to, 5.0);
        s.setTimeRange(ViewState::TimeRange{2.0, 5.0});
        QCOMPARE(range.count(), 1);
        s.setTimeRange(std::nullopt);
        QCOMPARE(range.count(), 2);
        QVERIFY(!s.timeRange());
        s.setTimeRange(std::nullopt);
        QCOMPARE(range.count(), 2);

        QSignalSpy utc(&s, &ViewState::wallUtcChanged);
        s.setWallUtc(true);
        QCOMPARE(utc.count(), 1);
        QCOMPARE(utc.first().at(0).toBool(), true);
        s.setWallUtc(true);
        QCOMPARE(utc.count(), 1);
        s.setWallUtc(false);
        QCOMPARE(utc.count(), 2);
        QVERIFY(!s.wallUtc());
    }
};

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
