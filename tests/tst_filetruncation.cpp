// A mapped trace truncated by another process while it is read or followed: never SIGBUS
// (MappingGuard), a "shrank" diagnostic, and what lay beyond is not there (not damage).

#include "cache/keyanalysis.h"
#include "cache/keyscanpass.h"
#include "cachetracewriter.h"
#include "cutwhilerunning.h"
#include "export/chrometraceexport.h"
#include "export/exportfile.h"
#include "export/recordexport.h"
#include "filter/filterevaluator.h"
#include "followtrace.h"
#include "stats/tracestatistics.h"
#include "testutil.h"
#include "timeline/contextpairs.h"
#include "trace/damagesummary.h"
#include "trace/mappingguard.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <numeric>

#include <csignal>

using namespace lmct;
using namespace lmct::test;

namespace {

int countKind(const TraceDocument &doc, Diagnostic::Kind kind) {
    int n = 0;
    for (const Diagnostic &d : doc.diagnostics()) {
        n += d.kind == kind;
    }
    return n;
}

QString allDiagnostics(const TraceDocument &doc) {
    QStringList lines;
    for (const Diagnostic &d : doc.diagnostics()) {
        lines << QStringLiteral("%1 %2: %3")
                     .arg(Diagnostic::kindName(d.kind))
                     .arg(d.offset)
                     .arg(d.message);
    }
    return lines.join(QLatin1Char('\n'));
}

/** Truncates `path` through a handle of its own (as another process would). */
bool truncateTo(const QString &path, qint64 size) {
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.resize(size);
}

/** No diagnostic of damage: what lies beyond the new end is not garbage. */
void verifyNoDamage(const TraceDocument &doc) {
    for (auto k : {Diagnostic::Kind::Malformed, Diagnostic::Kind::Truncated,
                   Diagnostic::Kind::Resync, Diagnostic::Kind::BadFields}) {
        QVERIFY2(countKind(doc, k) == 0, qPrintable(allDiagnostics(doc)));
    }
    QCOMPARE(doc.skippedBytes(), 0);
}

}  // namespace

class TestFileTruncation : public QObject {
    Q_OBJECT

private slots:
    void argsAfterTruncation();
    void truncatedWhileLoading();
    void cutInsideAPageAheadOfTheReader_data();
    void cutInsideAPageAheadOfTheReader();
    void regression_oneFaultForTheWholeLostTail();
    void followedFileTruncated();
    void cutAgainIsReportedAgain();
    void cliReportsAFileThatShrankWhileRead();
    void exportOfATraceThatShrankLeavesNoFile();
    void cliExportOfACutTraceSaysItOnce();
    void exportOfATraceCutAndGrownBack();
    void passesStopAtTheNewEnd();
    void keyAnalysisOfATraceCutWhileItScans();
    void statisticsOfATraceCutWhileTheyRead();
};

// Load a trace, truncate it, then decode every record's arguments through the document: the
// records beyond the new end say the file shrank (their pages read as zeros, not SIGBUS).
void TestFileTruncation::argsAfterTruncation() {
    const SmallTrace t = smallTrace(3000);
    QVERIFY(t.bytes.size() > 256 * 1024);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;  // leave every argument page unread
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 3000);
    const qint64 newSize = t.frameEnds[99] + 10;  // inside record 100
    QVERIFY(truncateTo(path, newSize));
    int gone = 0;
    for (int i = 0; i < doc->records().size(); ++i) {
        const auto a = doc->args(i);  // SIGBUS here without MappingGuard
        if (i < 100) {
            QVERIFY2(a->error.isEmpty(), qPrintable(a->error));
            QVERIFY(a->value.find(u"keys"));
        } else if (a->error.contains(QLatin1String("shrank"))) {
            ++gone;
        }
    }
    // Every record past the first page beyond the new end faults; those in the page the file now
    // ends in read zeros without a fault and are caught by the failed decode.
    QCOMPARE(gone, 2900);
    QCOMPARE(doc->shrunkTo(), newSize);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    const Diagnostic d = doc->diagnostics().constLast();
    QCOMPARE(d.offset, newSize);
    QVERIFY2(d.message.contains(path), qPrintable(d.message));
    QVERIFY2(d.message.contains(QStringLiteral("shrank to %1 bytes while being read").arg(newSize)),
             qPrintable(d.message));
    QVERIFY(MappingGuard::installed());
}

// The file is truncated while the loader is between batches (from its progress callback): the
// rest of the scan and the argument check read zeros instead of dying, stop at the new end and
// report it once, without damage diagnostics.
void TestFileTruncation::truncatedWhileLoading() {
    const SmallTrace t = smallTrace(40000);
    QVERIFY(t.bytes.size() > 9 * 1024 * 1024);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    const qint64 newSize = 1024 * 1024 + 7;
    bool truncated = false;
    TraceLoadOptions opt;
    opt.validateArgs = true;
    opt.progress = [&](qint64 done, qint64, qint64) {
        if (!truncated && done > newSize) {
            truncated = truncateTo(path, newSize);
        }
    };
    QString error;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QVERIFY(truncated);
    QCOMPARE(doc->shrunkTo(), newSize);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    verifyNoDamage(*doc);
    // The records read before the truncation stay; none was indexed from the zeros.
    const int n = doc->records().size();
    QVERIFY(n > 0 && n < 40000);
    for (int i = 0; i < n; ++i) {
        QCOMPARE(doc->records().frameOffset(i), t.frameStarts[i]);
        QCOMPARE(doc->records().tMono(i), t.tMono[i]);
    }
    for (int i = 0; i < n; ++i) {
        doc->args(i);  // no SIGBUS
    }
}

// Regression: a file cut inside a page, ahead of the loader, reads zeros after the cut in
// that page without a fault. The frame crossing the cut was reported as a damaged frame and
// what followed as 300 MB of skipped bytes (cut inside a frame), or as zero-length frames (cut
// at a frame boundary), with no `shrank` error. It is now a shrink, and nothing is damage.
void TestFileTruncation::cutInsideAPageAheadOfTheReader_data() {
    QTest::addColumn<int>("into");  // bytes into the frame where the file is cut
    QTest::newRow("inside a frame") << 50;
    QTest::newRow("at a frame boundary") << 0;
    QTest::newRow("inside a length prefix") << 2;
}

void TestFileTruncation::cutInsideAPageAheadOfTheReader() {
    QFETCH(int, into);
    const SmallTrace t = smallTrace(120000);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    qint64 newSize = -1;
    int kept = -1;
    TraceLoadOptions opt;
    opt.progress = [&](qint64 done, qint64, qint64) {
        if (newSize >= 0 || done < (4 << 20)) {
            return;
        }
        // the first frame 12 MiB ahead (past the batch hopped ahead) not starting on a page
        int i = 0;
        while (t.frameStarts[i] < done + (12 << 20) || t.frameStarts[i] % 4096 > 3000) {
            ++i;
        }
        newSize = t.frameStarts[i] + into;
        kept = i;
        QVERIFY(truncateTo(path, newSize));
    };
    QString error;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QVERIFY(newSize > 0);
    QCOMPARE(doc->shrunkTo(), newSize);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    verifyNoDamage(*doc);
    QCOMPARE(doc->skippedBytes(), qint64(0));
    QCOMPARE(doc->records().size(), kept);
}

// Regression (crash): each page read past the new end faulted once and was patched with a
// mapping of its own; reading the arguments of a big trace cut short while it loaded split the
// file mapping tens of thousands of times, hit vm.max_map_count and the next fault killed the
// viewer (SIGBUS). One fault now patches everything after it.
void TestFileTruncation::regression_oneFaultForTheWholeLostTail() {
    const SmallTrace t = smallTrace(40000);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    QString error;
    auto doc = TraceLoader::load(path, &error);
    QVERIFY2(doc, qPrintable(error));
    const int n = doc->records().size();
    QCOMPARE(n, 40000);
    QVERIFY(truncateTo(path, 1024 * 1024));
    const quint64 before = MappingGuard::faultCount();
    int zeros = 0;
    for (int i = 0; i < n; ++i) {  // reads every page of the file as mapped
        const QByteArray frame = doc->frameBytes(i);
        zeros += std::count(frame.begin(), frame.end(), '\0') == frame.size();
    }
    QVERIFY(zeros > 30000);  // the frames past the new end read as zeros
    QCOMPARE(MappingGuard::faultCount() - before, quint64(1));
}

// Live follow: records are followed, the file is truncated (and later appended to), refresh()
// reports the shrink and reading the records' arguments does not crash.
void TestFileTruncation::followedFileTruncated() {
    const SmallTrace t = smallTrace(2000);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(t.bytes.left(t.frameEnds[999]));
    out.flush();
    TraceLoadOptions opt;
    auto doc = test::openFollowed(path, &opt);
    QVERIFY(doc);
    QString error;
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 1000);
    out.write(t.bytes.mid(t.frameEnds[999]));  // grows: mapped again
    out.flush();
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 1000);
    const qint64 newSize = t.frameStarts[10] + 3;
    QVERIFY(truncateTo(path, newSize));
    QCOMPARE(TraceLoader::refresh(doc.get(), &error, opt), 0);  // no SIGBUS, nothing new
    QCOMPARE(doc->shrunkTo(), newSize);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    for (int i = 0; i < doc->records().size(); ++i) {
        const auto a = doc->args(i);
        QCOMPARE(a->error.isEmpty(), i < 10);
    }
    // Written again after the truncation: not followed any further, nothing reported as damage.
    out.write(QByteArray(200000, 'x'));
    out.flush();
    QVERIFY(TraceLoader::refresh(doc.get(), &error, opt) == 0);
    verifyNoDamage(*doc);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    TraceLoader::stopFollowing(doc.get());
}

// Regression: a file cut short twice while open kept the Diagnostics pane naming only the
// first cut. Each smaller size gets its own diagnostic; a check at the same size adds none.
void TestFileTruncation::cutAgainIsReportedAgain() {
    const SmallTrace t = smallTrace(2000);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("twice.lct"), t.bytes);
    QString error;
    auto doc = TraceLoader::load(path, &error);
    QVERIFY2(doc, qPrintable(error));
    const qint64 first = t.frameEnds[1499], second = t.frameEnds[499];
    QVERIFY(truncateTo(path, first));
    QCOMPARE(doc->checkShrunk(), first);
    QCOMPARE(doc->checkShrunk(), first);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
    QVERIFY(truncateTo(path, second));
    QCOMPARE(doc->checkShrunk(), second);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 2);
    const Diagnostic d = doc->diagnostics().constLast();
    QCOMPARE(d.kind, Diagnostic::Kind::Shrank);
    QCOMPARE(d.offset, second);
    QVERIFY2(d.message.contains(QStringLiteral("records 500 to 1999")), qPrintable(d.message));
    QCOMPARE(doc->readableRecordCount(), 500);
    // `lmct info` gives the size as mapped and the size now (only the first)
    const QString info = TraceInfo::toText(path, *doc);
    QVERIFY2(info.contains(QStringLiteral("%1 bytes (shrank to %2 bytes while it was read)")
                               .arg(t.bytes.size())
                               .arg(second)),
             qPrintable(info));
    QVERIFY(truncateTo(path, first));  // grown back: the records past the cut stay lost
    QCOMPARE(doc->checkShrunk(), second);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 2);
}

// Regression: `lmct dump` of a trace truncated while it printed exited 0 with no message,
// printing zeros read past the new end as records with damaged arguments. It must say so and
// exit 2. Standard output is a pipe the test leaves unread, so lmct is stopped early in its
// output while the file is cut.
void TestFileTruncation::cliReportsAFileThatShrankWhileRead() {
    QTemporaryDir dir;
    // (a name with an escape sequence: the message prints it escaped, like every other one)
    const QString path = dir.filePath(QStringLiteral("t\x1b[31m.lct"));
    QVERIFY(QFile::copy(QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct"), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    QProcess p;
    p.start(lmctPath(), {QStringLiteral("dump"), QStringLiteral("--jsonl"), path});
    QVERIFY(p.waitForStarted(20000));
    QVERIFY(p.waitForReadyRead(20000));  // it is printing; the pipe then fills and blocks it
    QVERIFY(QFile::resize(path, 100000));
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains(QStringLiteral("shrank to 100000 bytes while being read")),
             qPrintable(err));
    QVERIFY2(!err.contains(QChar(0x1b)) && err.contains(QStringLiteral("t\\x1b[31m.lct")),
             qPrintable(err));
}

// Regression: a trace cut while `lmct export` read it left a 603 MB export whose records past
// the cut had the zeros in their place decoded as arguments ("one value of 1 bytes, then 948
// bytes more"). The exports read arguments as args() does (a record past the cut is "no longer
// there") and an export of a trace that shrank is abandoned: no file.
void TestFileTruncation::exportOfATraceThatShrankLeavesNoFile() {
    const SmallTrace t = smallTrace(3000);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    const qint64 newSize = t.frameEnds[99] + 10;  // inside record 100
    QVERIFY(truncateTo(path, newSize));
    // record 100 lies in the page the file now ends in: read as zeros, without a fault
    const QByteArray line = RecordExport::formatRecord(*doc, 100, RecordExport::Format::Jsonl);
    QVERIFY2(line.contains("no longer there"), line.constData());
    QVERIFY2(!line.contains("then"), line.constData());
    // CSV (and lmct dump's text) say it in the summary (an empty summary, `,{}`)
    const QByteArray row = RecordExport::formatRecord(*doc, 100, RecordExport::Format::Csv);
    QVERIFY2(row.contains("(arguments: the file shrank to"), row.constData());
    std::vector<int> rows(3000);
    std::iota(rows.begin(), rows.end(), 0);
    for (int format = 0; format < 3; ++format) {
        const QString out = dir.filePath(QStringLiteral("out%1").arg(format));
        const bool ok = ExportFile::write(
            out,
            [&](QIODevice *dev, QString *e) {
                return format == 2 ? ChromeTraceExport::write(dev, *doc, rows, nullptr, e)
                                   : RecordExport::write(dev, *doc, rows,
                                                         format == 0 ? RecordExport::Format::Jsonl
                                                                     : RecordExport::Format::Csv,
                                                         e);
            },
            &error, path);
        QVERIFY(!ok);
        QVERIFY2(!QFileInfo::exists(out), qPrintable(out));
        QVERIFY2(error.contains(QStringLiteral("shrank to %1 bytes").arg(newSize)) &&
                     error.contains(QStringLiteral("nothing was written")),
                 qPrintable(error));
    }
}

// Regression: a trace cut and then written again past its old size passed the export's check of
// the size alone, and the export wrote the new bytes as the records read. The file's identity and
// change times tell it changed; the bytes read (header, every record's index fields) tell how.
// A trace only appended to meanwhile exports as before.
void TestFileTruncation::exportOfATraceCutAndGrownBack() {
    const SmallTrace t = smallTrace(3000);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("t.lct"), t.bytes);
    std::vector<int> rows(3000);
    std::iota(rows.begin(), rows.end(), 0);
    auto exportTo = [&](const TraceDocument &doc, const QString &out, QString *error) {
        return ExportFile::write(
            out,
            [&](QIODevice *dev, QString *e) {
                return RecordExport::write(dev, doc, rows, RecordExport::Format::Jsonl, e);
            },
            error, path);
    };
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    // appended to: the bytes read are still there
    auto grown = TraceLoader::load(path, &error, opt);
    QVERIFY2(grown, qPrintable(error));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write(t.bytes.mid(t.frameStarts[0], 4000));
    }
    QVERIFY2(exportTo(*grown, dir.filePath(QStringLiteral("grown.jsonl")), &error),
             qPrintable(error));
    QCOMPARE(grown->shrunkTo(), -1);
    // cut inside record 100, then written again past the old size
    QVERIFY(writeFile(dir, QStringLiteral("t.lct"), t.bytes) == path);
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    const qint64 cut = t.frameEnds[99] + 10;
    QVERIFY(truncateTo(path, cut));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write(t.bytes.mid(t.frameStarts[50]));
    }
    QVERIFY(QFileInfo(path).size() > t.bytes.size());
    const QString out = dir.filePath(QStringLiteral("rewritten.jsonl"));
    QVERIFY(!exportTo(*doc, out, &error));
    QVERIFY2(!QFileInfo::exists(out), qPrintable(out));
    // the first record whose bytes changed is the one the cut fell in
    const qint64 changed = t.frameStarts[100];
    QVERIFY2(error.contains(QStringLiteral("cut and written again")) &&
                 error.contains(QStringLiteral("from offset %1").arg(changed)) &&
                 error.contains(QStringLiteral("nothing was written")),
             qPrintable(error));
    QCOMPARE(doc->shrunkTo(), changed);
    QCOMPARE(doc->readableRecordCount(), 100);
    QCOMPARE(countKind(*doc, Diagnostic::Kind::Shrank), 1);
}

// Regression: ContextPairs, TraceStatistics and FilterEvaluator read the zeros past a cut as
// records (empty key lists paired, arguments that do not decode), where KeyAnalysis stops at the
// file's new end. They all leave out the records past it.
void TestFileTruncation::passesStopAtTheNewEnd() {
    CacheTraceWriter w;
    const QString enter = QStringLiteral("read_prefetched_results.__enter__");
    const QString exit = QStringLiteral("read_prefetched_results.__exit__");
    for (int i = 0; i < 2000; ++i) {
        w.call(0.01 * i, enter, {key(i)});
        w.call(0.01 * i + 0.005, exit, {key(i)});
    }
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("pairs.lct"), w.bytes());
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), 4000);
    const qint64 cut = doc->records().frameOffset(600) + 10;  // inside record 600
    QVERIFY(truncateTo(path, cut));
    QCOMPARE(doc->readableRecordCount(), 600);

    const auto pairs = ContextPairs::build(
        *doc, Qualname::storagePrefix() + QStringLiteral("read_prefetched_results"));
    QVERIFY(pairs);
    QCOMPARE(int(pairs->spans().size()), 300);
    QVERIFY(pairs->unmatchedEnters().empty());
    QVERIFY(pairs->unmatchedExits().empty());

    const TraceStatistics st = TraceStatistics::compute(*doc);
    QCOMPARE(st.records, 600);
    QCOMPARE(st.decodeErrors, 0);
    QCOMPARE(st.distinctKeys, 300);

    // (a record whose arguments do not decode holds a negated argument condition)
    const FilterEvaluator ev(doc, FilterExpression::parse(QStringLiteral("!(keys.count > 0)")));
    const FilterEvaluator::Result r = ev.run();
    QCOMPARE(r.records.size(), size_t(0));
    QCOMPARE(r.decodeErrors, 0);
    QCOMPARE(r.examined, 600);
}

// Regression: `lmct export` of a trace cut while it ran said the shrink twice (the export's
// error, then the check every command ends with). lmct is stopped once it has mapped the trace
// (SIGSTOP; its mapping in /proc/PID/maps), the trace is cut, and lmct goes on.
void TestFileTruncation::cliExportOfACutTraceSaysItOnce() {
#ifndef Q_OS_LINUX
    QSKIP("needs /proc and SIGSTOP");
#else
    const SmallTrace t = smallTrace(40000);
    QTemporaryDir dir;
    const qint64 newSize = t.frameEnds[999] + 10;
    const QString out = dir.filePath(QStringLiteral("out.jsonl"));
    // Stopped too late (the export done), the run is tried again.
    for (int attempt = 0; attempt < 5; ++attempt) {
        const QString path = writeFile(dir, QStringLiteral("cut.lct"), t.bytes);
        const CutRun run = cutWhileRunning(
            {QStringLiteral("export"), QStringLiteral("--jsonl"), out, path}, path, newSize);
        QVERIFY(run.started && run.finished);
        const bool cut = run.cut;
        if (!cut || QFileInfo::exists(out)) {
            QFile::remove(out);
            continue;
        }
        const QString err = QString::fromLocal8Bit(run.result.err);
        QCOMPARE(run.result.exitCode, 2);
        QVERIFY2(err.count(QStringLiteral("shrank to %1 bytes").arg(newSize)) == 1,
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("nothing was written")), qPrintable(err));
        return;
    }
    QSKIP("lmct was never stopped while it exported");
#endif
}

// Regression: a trace cut while the key scan read it gave `lmct whatif` twice the distinct keys of
// the whole file: the keys of a batch scanned before the cut and merged after it compared as the
// zeros MappingGuard maps past the new end (new keys), and the records after it were scanned as
// zeros (damaged records), while the records counted were those of the whole file. The file is
// cut when the first batch is merged (KeyAnalysis's progress); the figures must be those of a
// trace holding only the records still complete, and the damage warning must count those.
void TestFileTruncation::keyAnalysisOfATraceCutWhileItScans() {
    const QString calls[] = {QStringLiteral("reserve_write"), QStringLiteral("finish_write"),
                             QStringLiteral("submit_prefetch_task"),
                             QStringLiteral("read_prefetched_results.__enter__")};
    CacheTraceWriter w;
    const int n = 60000;  // key records: several KeyScanPass batches
    static_assert(n > 3 * KeyScanPass::kBatchRecords);
    for (int i = 0; i < n; ++i) {
        w.call(0.001 * i, calls[i % 4], {key((i / 4 * 7919) % 500)});  // every key in each batch
    }
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("cut.lct"), w.bytes());
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->records().size(), n);
    const int whole = KeyAnalysis::build(*doc)->keyCount();
    QCOMPARE(whole, 500);

    // cut inside record 20000: in the second batch, which is scanned while the first merges
    const int kept = 20000;
    const qint64 cut = doc->records().frameOffset(kept) + 10;
    bool truncated = false;
    const auto ka = KeyAnalysis::build(*doc, [&](int) {
        if (!truncated) {
            truncated = truncateTo(path, cut);
        }
    });
    QVERIFY(truncated);
    QVERIFY(ka);

    // the same records, written whole
    const QString refPath =
        writeFile(dir, QStringLiteral("ref.lct"), w.bytes().left(doc->records().frameOffset(kept)));
    auto refDoc = TraceLoader::load(refPath, &error, opt);
    QVERIFY2(refDoc, qPrintable(error));
    QCOMPARE(refDoc->records().size(), kept);
    const auto ref = KeyAnalysis::build(*refDoc);

    QVERIFY2(ka->keyCount() <= whole, qPrintable(QString::number(ka->keyCount())));
    QCOMPARE(ka->keyCount(), ref->keyCount());
    QCOMPARE(ka->models(), ref->models());
    QCOMPARE(ka->readableRecordCount(), kept);
    QCOMPARE(ka->lostRecords(), n - kept);
    QCOMPARE(ka->keyRecordCount(), ref->keyRecordCount());
    QCOMPARE(ka->occurrenceCount(), ref->occurrenceCount());
    QCOMPARE(ka->damagedRecords(), qint64(0));
    QCOMPARE(ka->stateCounts(), ref->stateCounts());
    for (int id = 0; id < ref->keyCount(); ++id) {
        QCOMPARE(ka->chunkHash(id), ref->chunkHash(id));
        QCOMPARE(ka->key(id).prefetches, ref->key(id).prefetches);
        QCOMPARE(ka->key(id).lastRecord, ref->key(id).lastRecord);
    }

    // every what-if figure follows
    const auto uses = UseSequence::build(*doc, ka);
    const auto refUses = UseSequence::build(*refDoc, ref);
    QCOMPARE(uses->size(), refUses->size());
    QCOMPARE(uses->keyCount(), refUses->keyCount());
    QCOMPARE(uses->prefetchOccurrences(), refUses->prefetchOccurrences());
    const auto wi = WhatIfAnalysis::run(uses, {});
    const auto refWi = WhatIfAnalysis::run(refUses, {});
    QCOMPARE(wi->curves().size(), refWi->curves().size());
    for (size_t c = 0; c < wi->curves().size(); ++c) {
        QCOMPARE(wi->curves()[c].capacities, refWi->curves()[c].capacities);
        QCOMPARE(wi->curves()[c].prefetchHits, refWi->curves()[c].prefetchHits);
        QCOMPARE(wi->curves()[c].misses, refWi->curves()[c].misses);
    }

    // the warning counts the records the figures cover, and says the file shrank
    QCOMPARE(doc->shrunkTo(), cut);
    for (const DamageSummary &d :
         {DamageSummary::of(*doc), DamageSummary::of(*doc, ka->readableRecordCount())}) {
        QCOMPARE(d.records, qint64(kept));
        QCOMPARE(d.lostRecords, qint64(n - kept));
        const QString sentence = d.sentence(QStringLiteral("cut.lct"));
        QVERIFY2(sentence.contains(QStringLiteral("the file shrank to %1 bytes while it was read "
                                                  "(the last 40000 records read are gone)")
                                       .arg(cut)) &&
                     sentence.endsWith(QStringLiteral("its figures cover the 20000 records read")),
                 qPrintable(sentence));
    }
}

// The file is cut while the statistics read the arguments (from their progress callback): the
// records past the new end read as zeros were counted as records and decode errors. The pass
// now reads again over the records still there: the figures of a trace of those records.
void TestFileTruncation::statisticsOfATraceCutWhileTheyRead() {
    const QString calls[] = {QStringLiteral("reserve_write"), QStringLiteral("finish_write"),
                             QStringLiteral("submit_prefetch_task"),
                             QStringLiteral("read_prefetched_results.__enter__")};
    CacheTraceWriter w;
    const int n = 60000;
    for (int i = 0; i < n; ++i) {
        w.call(0.001 * i, calls[i % 4], {key((i / 4 * 7919) % 500)});
    }
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("cut.lct"), w.bytes());
    QString error;
    TraceLoadOptions opt;
    opt.validateArgs = false;
    auto doc = TraceLoader::load(path, &error, opt);
    QVERIFY2(doc, qPrintable(error));
    const int kept = 20000;
    const qint64 cut = doc->records().frameOffset(kept) + 10;
    bool truncated = false;
    TraceStatistics::Options o;
    o.progress = [&](qint64 done, qint64 total) {
        if (!truncated && done > 0 && done < total) {
            truncated = truncateTo(path, cut);
        }
    };
    const TraceStatistics st = TraceStatistics::compute(*doc, o);
    QVERIFY(truncated);

    const QString refPath =
        writeFile(dir, QStringLiteral("ref.lct"), w.bytes().left(doc->records().frameOffset(kept)));
    auto refDoc = TraceLoader::load(refPath, &error, opt);
    QVERIFY2(refDoc, qPrintable(error));
    const TraceStatistics ref = TraceStatistics::compute(*refDoc);
    QCOMPARE(st.records, qint64(kept));
    QCOMPARE(st.decodeErrors, qint64(0));
    QCOMPARE(st.distinctKeys, ref.distinctKeys);
    QCOMPARE(st.calls.size(), ref.calls.size());
    for (qsizetype c = 0; c < ref.calls.size(); ++c) {
        QCOMPARE(st.calls[c].count, ref.calls[c].count);
        QCOMPARE(st.calls[c].keysMax, ref.calls[c].keysMax);
    }
}

QTEST_GUILESS_MAIN(TestFileTruncation)
#include "tst_filetruncation.moc"
