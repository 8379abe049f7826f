// Live follow and progressive loading: TraceLoader::open/scan/refresh on a file that grows.

#include "followtrace.h"
#include "itemmodels/diagnosticsmodel.h"
#include "itemmodels/recordtablemodel.h"
#include "testutil.h"
#include "trace/traceloader.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QtEndian>

using namespace lmct;

namespace {

using test::frameEnds;

/** The bytes of `path`; a fatal error when it cannot be read. */
QByteArray readFile(const QString &path) {
    const QByteArray bytes = test::readAll(path);
    if (bytes.isEmpty()) {
        qFatal("cannot read %s", qPrintable(path));
    }
    return bytes;
}

int errorsAndWarnings(const TraceDocument &doc) {
    return doc.errorCount() + doc.warningCount();
}

}  // namespace

class TestFollow : public QObject {
    Q_OBJECT

private slots:
    void growsInPiecesSplittingFrames();
    void damagedPrefixArrivingInPieces();
    void timeNotesWhileFollowing();
    void headerWrittenLate();
    void notATraceIsRefusedWhenFollowed();
    void writerThread();
    void stopFollowingThenTruncatedTail();
    void tableModelShowsNewRows();
    void tableModelInsertsManyRowsInSteps();
};

// A trace appended 37 bytes at a time (so most writes end inside a frame): after each refresh the
// document holds exactly the records whose frames are complete, and a partial frame is never
// reported as damage.
// Regression: a followed trace never showed the notes about times that are not times and
// t_mono stepping back (given only when a load ends, which a follow never does); then showed the
// counts of the first scan that saw them. One note each, kept current in place, saying up to
// which record it counted; a step back of over an hour turns the order note into the warning.
void TestFollow::timeNotesWhileFollowing() {
    using test::frame;
    using test::recordBody;
    const QString q = test::storageQualname("reserve_write");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(frame(test::headerBody()) +
              frame(recordBody(1.0, 1760000001.0, q, test::keysArgs(1))));
    out.flush();
    TraceLoadOptions opt;
    auto doc = test::openFollowed(path, &opt);
    QVERIFY(doc);
    QString error;
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 1);
    auto notes = [&doc](Diagnostic::Kind kind) {
        QStringList out;
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == kind) {
                out << d.message;
            }
        }
        return out;
    };
    QVERIFY(notes(Diagnostic::Kind::Time).isEmpty());
    QVERIFY(notes(Diagnostic::Kind::Order).isEmpty());
    // a NaN t_mono and a step back
    out.write(frame(recordBody(qQNaN(), 1760000002.0, q, test::keysArgs(1))) +
              frame(recordBody(0.5, 1760000002.5, q, test::keysArgs(1))));
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 2);
    QStringList time = notes(Diagnostic::Kind::Time), order = notes(Diagnostic::Kind::Order);
    QCOMPARE(time.size(), 1);
    QVERIFY2(time[0].startsWith(QLatin1String("1 record(s)")) &&
                 time[0].contains(QLatin1String("followed, up to record 2")),
             qPrintable(time[0]));
    QCOMPARE(order.size(), 1);
    QVERIFY2(order[0].startsWith(QLatin1String("t_mono steps back 1 time(s)")),
             qPrintable(order[0]));
    QCOMPARE(doc->warningCount(), 1);
    // more of both: the same two notes, counting them
    out.write(frame(recordBody(qQNaN(), 1760000003.0, q, test::keysArgs(1))) +
              frame(recordBody(2.0, 1760000003.5, q, test::keysArgs(1))) +
              frame(recordBody(1.5, 1760000004.0, q, test::keysArgs(1))));
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 3);
    time = notes(Diagnostic::Kind::Time);
    order = notes(Diagnostic::Kind::Order);
    QCOMPARE(time.size(), 1);
    QVERIFY2(time[0].startsWith(QLatin1String("2 record(s)")) &&
                 time[0].contains(QLatin1String("up to record 5")),
             qPrintable(time[0]));
    QCOMPARE(order.size(), 1);
    QVERIFY2(order[0].startsWith(QLatin1String("t_mono steps back 2 time(s)")),
             qPrintable(order[0]));
    // a step back of over an hour: the order note becomes the warning (not a second note)
    out.write(frame(recordBody(1e6, 1760000005.0, q, test::keysArgs(1))) +
              frame(recordBody(3.0, 1760000006.0, q, test::keysArgs(1))));
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 2);
    order = notes(Diagnostic::Kind::Order);
    QCOMPARE(order.size(), 1);
    QVERIFY2(order[0].startsWith(QLatin1String("t_mono steps back by 999997 s")),
             qPrintable(order[0]));
    QCOMPARE(doc->warningCount(), 2);
    // the Diagnostics pane's model shows the notes as they are now
    DiagnosticsModel model;
    model.setDocument(doc);
    out.write(frame(recordBody(qQNaN(), 1760000007.0, q, test::keysArgs(1))));
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 1);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.refresh();
    QCOMPARE(changed.count(), 1);
    bool shown = false;
    for (int r = 0; r < model.rowCount(); ++r) {
        shown = shown || model.index(r, DiagnosticsModel::MessageColumn)
                             .data()
                             .toString()
                             .startsWith(QLatin1String("3 record(s)"));
    }
    QVERIFY(shown);
    TraceLoader::stopFollowing(doc.get());
}

void TestFollow::growsInPiecesSplittingFrames() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/hdr-schema2.lct"));
    const QList<qint64> ends = frameEnds(all);
    QVERIFY(ends.size() > 10);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(ends[0] + 10));  // header and a bit of the first record
    out.flush();
    QString error;
    TraceLoadOptions opt;
    opt.follow = true;
    auto doc = TraceLoader::open(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QVERIFY(doc->isLoading());
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 0);
    qint64 written = ends[0] + 10;
    while (written < all.size()) {
        const qint64 n = qMin<qint64>(37, all.size() - written);
        out.write(all.constData() + written, n);
        out.flush();
        written += n;
        QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) >= 0);
        const int complete = int(
            std::count_if(ends.begin() + 1, ends.end(), [&](qint64 e) { return e <= written; }));
        QCOMPARE(doc->records().size(), complete);
        QCOMPARE(errorsAndWarnings(*doc), 0);
    }
    QCOMPARE(doc->records().size(), ends.size() - 1);
    QVERIFY(doc->isLoading());
    TraceLoader::stopFollowing(doc.get());
    QVERIFY(!doc->isLoading());
}

// Regression: a trace whose second record's length prefix is damaged, arriving split at certain
// points, showed 4 of 8 records and then waited forever on 4 bytes read in the middle of a record
// as a length (a prefix too long was taken as right while the bytes after it were not yet
// written). Split at every offset, the followed trace shows what a load of the whole file shows.
void TestFollow::damagedPrefixArrivingInPieces() {
    const test::SmallTrace t = test::smallTrace(8);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("damaged.lct"));
    const qint64 at = t.frameStarts[1];
    const quint32 len = qFromBigEndian<quint32>(t.bytes.constData() + at);
    for (const quint32 damaged : {len + 10, len + 1000, len - 10, 0xfffffff0u}) {
        QByteArray bytes = t.bytes;
        bytes.replace(at, 4, test::be32(damaged));
        QString error;
        const auto whole = TraceLoader::loadBytes(bytes, QStringLiteral("whole.lct"), &error);
        QVERIFY2(whole, qPrintable(error));
        QCOMPARE(whole->records().size(), 8);
        // (every split from the damaged frame to two records past its claimed end)
        const qint64 last = qMin<qint64>(bytes.size(), t.frameEnds[1] + 1000 + 2 * 400);
        for (qint64 split = at; split < last; ++split) {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(bytes.left(split));
            out.flush();
            TraceLoadOptions opt;
            auto doc = test::openFollowed(path, &opt);
            QVERIFY(doc);
            QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) >= 0);
            out.write(bytes.mid(split));
            out.flush();
            QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) >= 0);
            const QByteArray where = QByteArray("length prefix ") + QByteArray::number(damaged) +
                                     ", split at " + QByteArray::number(split);
            QVERIFY2(doc->records().size() == 8, where.constData());
            QVERIFY2(doc->scannedBytes() == bytes.size(), where.constData());
            for (int i = 0; i < 8; ++i) {
                QVERIFY2(doc->records().frameOffset(i) == whole->records().frameOffset(i),
                         where.constData());
            }
            TraceLoader::stopFollowing(doc.get());
        }
    }
}

// LMCache writes the header with the first record or at attach time: following an empty file
// waits for it instead of refusing.
void TestFollow::headerWrittenLate() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/hdr-schema1.lct"));
    const QList<qint64> ends = frameEnds(all);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("late.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.flush();
    TraceLoadOptions opt;
    auto doc = test::openFollowed(path, &opt);
    QVERIFY(doc);
    QString error;
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 0);
    QVERIFY(doc->header().magic().isEmpty());
    out.write(all.left(ends[0] - 3));  // most of the header
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 0);
    out.write(all.mid(ends[0] - 3));
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), int(ends.size() - 1));
    QCOMPARE(doc->header().magic(), QStringLiteral("LMCT"));
    QCOMPARE(doc->header().traceSchemaVersion().value_or(-1), 1);

    // Not following, the same empty file is refused.
    QTemporaryDir dir2;
    QFile empty(dir2.filePath(QStringLiteral("empty.lct")));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QVERIFY(!TraceLoader::open(empty.fileName(), &error));
    QVERIFY(error.contains(QStringLiteral("empty file")));
}

// Regression: `lmct-viewer --follow` on a text file waited for its "header" forever (its first
// 4 bytes read as a length of 1.8 GB), where a plain open refuses it. Followed, a file that
// cannot begin a header is refused as a plain open refuses it; one that can is waited for.
void TestFollow::notATraceIsRefusedWhenFollowed() {
    QTemporaryDir dir;
    auto followError = [&](const QByteArray &bytes) {
        const QString path = test::writeFile(dir, QStringLiteral("f.lct"), bytes);
        TraceLoadOptions opt;
        opt.follow = true;
        QString error;
        auto doc = TraceLoader::open(path, &error, opt);
        return doc ? QStringLiteral("(waits)") : error;
    };
    const QByteArray text = QByteArray("some text, not a trace\n").repeated(400);
    QString error = followError(text);
    QVERIFY2(error.contains(QStringLiteral("offset 4: expected a msgpack map")), qPrintable(error));
    // a map marker at byte 4 but a length no header has
    QByteArray huge = test::be32(0x40000000u) + QByteArray(1, char(0x85)) + QByteArray(100, 'x');
    error = followError(huge);
    QVERIFY2(error.contains(QStringLiteral("offset 0: a length prefix of 1073741824 bytes")),
             qPrintable(error));
    // the beginnings of a real header are waited for, whatever their length
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/hdr-schema1.lct"));
    for (const int n : {0, 1, 3, 4, 5, 40, int(frameEnds(all)[0]) - 1}) {
        QCOMPARE(followError(all.left(n)), QStringLiteral("(waits)"));
    }
}

// Another thread writes while this one follows: the count converges on the right total.
void TestFollow::writerThread() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/sample.lct"));
    const QList<qint64> ends = frameEnds(all);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("threaded.lct"));
    {
        QFile create(path);
        QVERIFY(create.open(QIODevice::WriteOnly));
    }
    QThread *writer = QThread::create([&] {
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Append)) {
            return;
        }
        for (qint64 w = 0; w < all.size(); w += 4099) {
            out.write(all.constData() + w, qMin<qint64>(4099, all.size() - w));
            out.flush();
            QThread::usleep(200);
        }
    });
    QString error;
    TraceLoadOptions opt;
    opt.follow = true;
    auto doc = TraceLoader::open(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    writer->start();
    int previous = 0;
    QElapsedTimer guard;
    guard.start();
    while ((!writer->isFinished() || doc->records().size() < ends.size() - 1) &&
           guard.elapsed() < 20000) {
        QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) >= 0);
        QVERIFY(doc->records().size() >= previous);  // never shrinks
        previous = doc->records().size();
        QThread::usleep(300);
    }
    writer->wait();
    delete writer;
    TraceLoader::refresh(doc.get(), &error, opt);
    QCOMPARE(doc->records().size(), ends.size() - 1);
    QCOMPARE(errorsAndWarnings(*doc), 0);
}

// A frame cut short is waited for while following, but is a truncation in a normal load.
void TestFollow::stopFollowingThenTruncatedTail() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/hdr-schema2.lct"));
    const QList<qint64> ends = frameEnds(all);
    const QByteArray cut = all.left(ends[5] + 20);
    QString error;
    auto doc = TraceLoader::loadBytes(cut, QStringLiteral("cut.lct"), &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 5);
    QVERIFY(!doc->isLoading());
    const DiagnosticList d = doc->diagnostics();
    QVERIFY(std::any_of(d.begin(), d.end(),
                        [](const Diagnostic &x) { return x.kind == Diagnostic::Kind::Truncated; }));
}

// The record table grows with the document (rows inserted, model tester happy), sorted or not.
void TestFollow::tableModelShowsNewRows() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/hdr-schema2.lct"));
    const QList<qint64> ends = frameEnds(all);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("table.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(ends[3]));
    out.flush();
    QString error;
    TraceLoadOptions opt;
    opt.follow = true;
    auto doc = TraceLoader::open(path, &error, opt);
    QVERIFY(doc);
    TraceLoader::refresh(doc.get(), &error, opt);
    RecordTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDocument(doc);
    QCOMPARE(model.rowCount(), 3);
    out.write(all.mid(ends[3], ends[8] - ends[3]));
    out.flush();
    TraceLoader::refresh(doc.get(), &error, opt);
    QCOMPARE(model.rowCount(), 3);  // not until refresh()
    model.refresh();
    QCOMPARE(model.rowCount(), 8);
    QCOMPARE(model.recordAt(7), 7);
    model.sort(RecordTableModel::TMonoColumn, Qt::DescendingOrder);
    out.write(all.mid(ends[8]));
    out.flush();
    TraceLoader::refresh(doc.get(), &error, opt);
    model.refresh();
    QCOMPARE(model.rowCount(), ends.size() - 1);
    QCOMPARE(model.data(model.index(0, RecordTableModel::TMonoColumn), RecordTableModel::TMonoRole)
                 .toDouble(),
             doc->records().maxTMono());
}

// Regression: 5 M rows inserted at once blocked the GUI thread 76 ms (a view's header spends
// about 13 ns per inserted row) while a 10 M record trace loaded. refresh() inserts at most
// maxRowsPerRefresh() rows and queues the rest.
void TestFollow::tableModelInsertsManyRowsInSteps() {
    const QString path = QStringLiteral(LMCT_FIXTURES "/hdr-schema2.lct");
    QString error;
    TraceLoadOptions opt;
    auto doc = TraceLoader::open(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    RecordTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDocument(doc);  // header read, no records yet
    QCOMPARE(model.rowCount(), 0);
    TraceLoader::scan(doc.get(), opt);
    const int records = doc->records().size();
    QVERIFY(records > 9);
    QCOMPARE(model.maxRowsPerRefresh(), RecordTableModel::kMaxRowsPerRefresh);
    model.setMaxRowsPerRefresh(4);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.refresh();
    QCOMPARE(model.rowCount(), 4);
    QVERIFY(model.isCatchingUp());
    model.refresh();  // a refresh of its own meanwhile (documentGrew) inserts the next rows
    QCOMPARE(model.rowCount(), 8);
    QVERIFY(QTest::qWaitFor([&] { return !model.isCatchingUp(); }, 5000));
    QCOMPARE(model.rowCount(), records);
    for (const QList<QVariant> &args : std::as_const(inserted)) {
        QVERIFY(args.at(2).toInt() - args.at(1).toInt() + 1 <= 4);
    }
    QCOMPARE(model.recordAt(records - 1), records - 1);
}

QTEST_GUILESS_MAIN(TestFollow)
#include "tst_follow.moc"
