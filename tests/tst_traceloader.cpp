// TraceLoader: every generated fixture and reference-shaped trace against its manifest (the truth
// files are checked by tst_conformance), framing details, damage at every byte, header recovery,
// cancel and progress, hostile input.

#include "cache/keyanalysis.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/headertree.h"
#include "msgpack/framedump.h"
#include "stats/tracestatistics.h"
#include "testutil.h"
#include "timeline/contextpairs.h"
#include "trace/recordstore.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"
#include "truthcompare.h"
#include "util/parallelchunks.h"
#include "util/workerpriority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace lmct;
using namespace lmct::test;
using Kind = Diagnostic::Kind;
using Severity = Diagnostic::Severity;

namespace {

/**
 * The step of the every-byte loops: 1, or LMCT_EXHAUSTIVE_STRIDE where it is set (the sanitizer
 * test presets set it, since the Release run already covers every byte).
 */
int exhaustiveStride() {
    const int n = qEnvironmentVariableIntValue("LMCT_EXHAUSTIVE_STRIDE");
    return n > 1 ? n : 1;
}

std::shared_ptr<TraceDocument> loadBytes(const QByteArray &b, QString *error = nullptr,
                                         const TraceLoadOptions &opt = TraceLoadOptions()) {
    QString e;
    auto doc = TraceLoader::loadBytes(b, QStringLiteral("mem.lct"), &e, opt);
    if (error) {
        *error = e;
    }
    return doc;
}

QSet<QString> kindsOf(const TraceDocument &doc) {
    QSet<QString> out;
    for (const Diagnostic &d : doc.diagnostics()) {
        out.insert(Diagnostic::kindName(d.kind));
    }
    return out;
}

int countKind(const TraceDocument &doc, Kind k, Severity *sev = nullptr) {
    int n = 0;
    for (const Diagnostic &d : doc.diagnostics()) {
        if (d.kind == k) {
            ++n;
            if (sev) {
                *sev = d.severity;
            }
        }
    }
    return n;
}

int countSeverity(const TraceDocument &doc, Severity s) {
    int n = 0;
    for (const Diagnostic &d : doc.diagnostics()) {
        n += d.severity == s ? 1 : 0;
    }
    return n;
}

QString describe(const TraceDocument &doc) {
    QStringList out;
    for (const Diagnostic &d : doc.diagnostics()) {
        out.append(QStringLiteral("[%1 @%2] %3")
                       .arg(Diagnostic::kindName(d.kind))
                       .arg(d.offset)
                       .arg(d.message));
    }
    return out.join(QLatin1Char('\n'));
}

/**
 * What must hold for every opened document: record frames lie in the file, in ascending order,
 * after the header; each frame's length prefix is its body length; every byte of the file is
 * the header, a record frame, or counted as skipped; the per-qualname counts add up.
 */
void checkInvariants(const TraceDocument &doc, const QString &what) {
    const RecordStore &rs = doc.records();
    const uchar *data = doc.fileData();
    qint64 prevEnd = doc.recordsStart();
    QVERIFY2(prevEnd >= 5 && prevEnd <= doc.fileSize(), qPrintable(what));
    qint64 frameBytes = 0;
    double maxT = 0.0;
    for (int i = 0; i < rs.size(); ++i) {
        const qint64 off = rs.frameOffset(i);
        const qint64 end = off + 4 + rs.bodyLength(i);
        QVERIFY2(off >= prevEnd,
                 qPrintable(QStringLiteral("%1: record %2 overlaps").arg(what).arg(i)));
        QVERIFY2(end <= doc.fileSize(), qPrintable(what));
        // (a record kept under a damaged length prefix has the length its value fills; it
        // was read after a resync)
        if (!(rs.flags(i) & RecordStore::AfterResync)) {
            QCOMPARE(qFromBigEndian<quint32>(data + off), rs.bodyLength(i));
        }
        maxT = i == 0 ? rs.tMono(i) : qMax(maxT, rs.tMono(i));
        frameBytes += end - off;
        prevEnd = end;
    }
    if (!doc.isPartial()) {
        QVERIFY2(doc.recordsStart() + frameBytes + doc.skippedBytes() == doc.fileSize(),
                 qPrintable(QStringLiteral("%1: %2 + %3 + %4 skipped != %5\n%6")
                                .arg(what)
                                .arg(doc.recordsStart())
                                .arg(frameBytes)
                                .arg(doc.skippedBytes())
                                .arg(doc.fileSize())
                                .arg(describe(doc))));
    }
    qint64 counted = 0;
    for (qint64 c : rs.qualnameCounts()) {
        counted += c;
    }
    QCOMPARE(counted, qint64(rs.size()));
    QCOMPARE(doc.duration(), maxT);
    QVERIFY(doc.diagnosticCount() >= doc.diagnostics().size());
    for (const Diagnostic &d : doc.diagnostics()) {
        QVERIFY2(d.offset >= -1 && d.offset <= doc.fileSize(), qPrintable(d.message));
        QVERIFY(!d.message.isEmpty());
    }
}

}  // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT

private slots:
    void resyncKeepsTheScannedPagesOutOfTheRss() {
        // Regression: a frame claiming far more than the file holds, then 3 GB of bytes that
        // are no frame: the resync scan kept every page it read resident (2.9 GB). It now
        // releases them as it goes. Here 64 MiB of them, the RSS of the file's pages measured.
        using test::frame;
        const QString q = test::storageQualname("reserve_write");
        QByteArray bytes = frame(test::headerBody()) +
                           frame(test::recordBody(1.0, 1760000001.0, q, test::keysArgs(1)));
        bytes += QByteArray("\x7f\xff\xff\xf0", 4) + QByteArray(64 << 20, '\x01');
        bytes += frame(test::recordBody(2.0, 1760000002.0, q, test::keysArgs(1)));
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("junk.lct"), bytes);
        auto rssFileKb = [] {
            QFile f(QStringLiteral("/proc/self/status"));
            if (!f.open(QIODevice::ReadOnly)) {
                return qint64(-1);
            }
            for (const QByteArray &line : f.readAll().split('\n')) {
                if (line.startsWith("RssFile:")) {
                    return line.mid(8).trimmed().split(' ').value(0).toLongLong();
                }
            }
            return qint64(-1);
        };
        const qint64 before = rssFileKb();
        QVERIFY(before >= 0);
        QString error;
        TraceLoadOptions opt;
        opt.validateArgs = false;
        const auto doc = TraceLoader::load(path, &error, opt);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), 2);
        QCOMPARE(doc->skippedBytes(), qint64(4 + (64 << 20)));
        const qint64 grown = rssFileKb() - before;
        QVERIFY2(grown < 16 * 1024, qPrintable(QStringLiteral("%1 KiB").arg(grown)));
    }

    void initTestCase() {
        QVERIFY2(!manifest().isEmpty(),
                 "fixtures manifest missing: build the lmct-fixtures target");
        QVERIFY(manifest().size() >= 30);
        QVERIFY(QDir(QStringLiteral(LMCT_TRACES)).exists());
    }

    // --- every fixture against the manifest -------------------------------------------------

    void fixtures_data() {
        QTest::addColumn<QString>("name");
        const QJsonObject m = manifest();
        for (auto it = m.begin(); it != m.end(); ++it) {
            QTest::newRow(qPrintable(it.key())) << it.key();
        }
        // The reference-shaped traces (traces/, their own manifest), with every check below.
        const QJsonObject t = traceManifest();
        for (auto it = t.begin(); it != t.end(); ++it) {
            QTest::newRow(qPrintable(QStringLiteral("traces/") + it.key()))
                << QStringLiteral("traces/") + it.key();
        }
    }
    void fixtures() {
        QFETCH(QString, name);
        const bool trace = name.startsWith(QLatin1String("traces/"));
        const QJsonObject e =
            trace ? traceManifest()[name.mid(7)].toObject() : manifest()[name].toObject();
        QVERIFY(!e.isEmpty());
        const QString path = fixturePath(name);
        QString error;
        auto doc = TraceLoader::load(path, &error);
        QCOMPARE(doc != nullptr, e[QStringLiteral("opens")].toBool());
        if (!doc) {
            // A refusal names the file, an offset, and what was wrong.
            QVERIFY2(error.contains(path), qPrintable(error));
            QVERIFY2(error.contains(QRegularExpression(QStringLiteral("offset \\d+"))),
                     qPrintable(error));
            const QString kind = e[QStringLiteral("error")].toString();
            QStringList words;
            if (kind == QLatin1String("empty")) {
                words = {QStringLiteral("empty")};
            } else if (kind == QLatin1String("not-a-trace")) {
                words = {QStringLiteral("not")};
            } else if (kind == QLatin1String("bad-magic")) {
                words = {QStringLiteral("magic"), QStringLiteral("LMCX"), QStringLiteral("LMCT")};
            } else if (kind == QLatin1String("format-version")) {
                words = {QStringLiteral("format_version"), QStringLiteral("2")};
            } else if (kind == QLatin1String("first-frame-record")) {
                words = {QStringLiteral("record"), QStringLiteral("header")};
            } else {
                QFAIL(qPrintable(QStringLiteral("unknown refusal kind %1").arg(kind)));
            }
            for (const QString &w : words) {
                QVERIFY2(error.contains(w), qPrintable(error));
            }
            return;
        }
        QVERIFY(error.isEmpty());
        QCOMPARE(doc->records().size(), e[QStringLiteral("records")].toInt());
        QVERIFY2(sameJsonNumbers(qualnameCounts(*doc), e[QStringLiteral("qualnames")].toObject()),
                 qPrintable(QJsonDocument(qualnameCounts(*doc)).toJson()));
        QCOMPARE(doc->duration(), e[QStringLiteral("duration_s")].toDouble());

        // Expected diagnostics (or an accepted stand-in), and warnings.
        const QSet<QString> kinds = kindsOf(*doc);
        const QJsonObject alt = e[QStringLiteral("diagnostics_alt")].toObject();
        for (const QJsonValue &k : e[QStringLiteral("diagnostics")].toArray()) {
            QStringList accepted = {k.toString()};
            for (const QJsonValue &a : alt[k.toString()].toArray()) {
                accepted.append(a.toString());
            }
            bool found = false;
            for (const QString &a : accepted) {
                found = found || kinds.contains(a);
            }
            QVERIFY2(found, qPrintable(QStringLiteral("expected %1, got:\n%2")
                                           .arg(accepted.join(QLatin1Char('/')), describe(*doc))));
        }
        for (const QJsonValue &w : e[QStringLiteral("warnings")].toArray()) {
            QVERIFY2(kinds.contains(w.toString()), qPrintable(describe(*doc)));
            bool isWarning = false;
            for (const Diagnostic &d : doc->diagnostics()) {
                isWarning = isWarning || (Diagnostic::kindName(d.kind) == w.toString() &&
                                          d.severity == Severity::Warning);
            }
            QVERIFY(isWarning);
        }
        const bool clean = e[QStringLiteral("diagnostics")].toArray().isEmpty() &&
                           e[QStringLiteral("warnings")].toArray().isEmpty() &&
                           e[QStringLiteral("digest")].toString() != QLatin1String("mismatch");
        if (clean) {
            // A clean file raises no error and no warning (t_mono order notes are info).
            QVERIFY2(countSeverity(*doc, Severity::Error) == 0 &&
                         countSeverity(*doc, Severity::Warning) == 0,
                     qPrintable(describe(*doc)));
            QCOMPARE(doc->skippedBytes(), 0);
        }

        // Header fields as a reader shows them.
        const QJsonObject header = headerJson(*doc);
        QCOMPARE(header, e[QStringLiteral("header")].toObject());
        QCOMPARE(doc->header().magic(), QStringLiteral("LMCT"));
        QCOMPARE(doc->header().formatVersion().value_or(-1), 1);

        // Digest status.
        const QJsonValue digest = e[QStringLiteral("digest")];
        const auto status = doc->header().digestStatus();
        if (digest.isNull()) {
            QCOMPARE(status, TraceHeader::DigestStatus::Lost);
        } else if (digest.toString() == QLatin1String("none")) {
            QCOMPARE(status, TraceHeader::DigestStatus::Absent);
        } else if (digest.toString() == QLatin1String("match")) {
            QCOMPARE(status, TraceHeader::DigestStatus::Match);
        } else {
            QCOMPARE(status, TraceHeader::DigestStatus::Mismatch);
        }

        checkInvariants(*doc, name);
        QVERIFY(!doc->isPartial());
        QCOMPARE(doc->fileSize(), e[QStringLiteral("bytes")].toInteger());
        QCOMPARE(doc->fileName(), QFileInfo(name).fileName());

        // The argument check and the decoder agree: a record decodes completely exactly when it
        // is not flagged BadArgs, and a flagged record has a diagnostic at its frame.
        QSet<qint64> diagnosed;
        for (const Diagnostic &d : doc->diagnostics()) {
            diagnosed.insert(d.offset);
        }
        for (int i = 0; i < doc->records().size(); ++i) {
            const auto args = doc->args(i);
            const bool bad = doc->records().flags(i) & RecordStore::BadArgs;
            QVERIFY2(args->error.isEmpty() != bad,
                     qPrintable(QStringLiteral("record %1: %2").arg(i).arg(args->error)));
            QVERIFY(args->value.isMap());
            if (bad) {
                QVERIFY(diagnosed.contains(doc->records().frameOffset(i)));
            }
        }
    }

    void referenceDamageIsLocated() {
        // truncated-tail: the diagnostic points at the last frame and says how many bytes.
        QString error;
        auto doc = TraceLoader::load(tracePath(QStringLiteral("truncated-tail.lmct")), &error);
        QVERIFY(doc);
        Severity sev;
        QCOMPARE(countKind(*doc, Kind::Truncated, &sev), 1);
        QCOMPARE(sev, Severity::Error);
        const RecordStore &rs = doc->records();
        const qint64 lastEnd = rs.frameOffset(rs.size() - 1) + 4 + rs.bodyLength(rs.size() - 1);
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Truncated) {
                QCOMPARE(d.offset, lastEnd);
                QVERIFY2(d.message.contains(QString::number(doc->fileSize() - lastEnd)),
                         qPrintable(d.message));
            }
        }
        // malformed-record: one frame skipped, where it is, and the records around it kept.
        doc = TraceLoader::load(tracePath(QStringLiteral("malformed-record.lmct")), &error);
        QVERIFY(doc);
        QCOMPARE(countKind(*doc, Kind::Malformed), 1);
        QCOMPARE(doc->skippedFrames(), 1);
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Malformed) {
                const int next = doc->recordNearOffset(d.offset) + 1;
                QVERIFY(next < doc->records().size());
                const qint64 gap = doc->records().frameOffset(next) - d.offset;
                QCOMPARE(doc->skippedBytes(), gap);
                QVERIFY(d.message.contains(QString::number(d.offset)));
            }
        }
    }

    // --- framing --------------------------------------------------------------------------

    void headerOnly() {
        auto doc = loadBytes(frame(headerBody()));
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 0);
        QCOMPARE(doc->duration(), 0.0);
        QVERIFY(doc->diagnostics().isEmpty());
        QCOMPARE(doc->header().digestStatus(), TraceHeader::DigestStatus::Absent);
        QCOMPARE(doc->recordNearOffset(100), -1);
    }

    void zeroLengthFrame() {
        SmallTrace t = smallTrace(5);
        const qint64 at = t.frameEnds[1];
        QByteArray b = t.bytes;
        b.insert(at, be32(0));
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 5);
        QCOMPARE(doc->skippedBytes(), 4);
        QCOMPARE(doc->skippedFrames(), 1);
        QCOMPARE(countKind(*doc, Kind::Malformed), 1);
        QCOMPARE(doc->diagnostics().first().offset, at);
        QCOMPARE(doc->records().frameOffset(2), at + 4);
        checkInvariants(*doc, QStringLiteral("zero-length"));
    }

    void partialFrameMidFile() {
        // LMCache's recorder on a full disk (spec 7.10): one frame written short (its first 61
        // bytes), the next frame lost, then whole frames right after the partial one. Every
        // intact record is kept, and the partial frame is reported at its offset as such.
        SmallTrace t = smallTrace(6);
        const qint64 cut = t.frameStarts[2];
        QVERIFY(t.frameEnds[2] - cut > 61 + 8);
        QByteArray b = t.bytes.left(cut + 61) + t.bytes.mid(t.frameEnds[3]);
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 4);
        for (int i : {0, 1}) {
            QCOMPARE(doc->records().tMono(i), t.tMono[i]);
        }
        for (int i : {2, 3}) {
            QCOMPARE(doc->records().tMono(i), t.tMono[i + 2]);
        }
        QCOMPARE(doc->records().frameOffset(2), cut + 61);
        QCOMPARE(doc->skippedBytes(), 61);
        QCOMPARE(countKind(*doc, Kind::Resync), 1);
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Resync) {
                QCOMPARE(d.offset, cut);
                QVERIFY2(
                    d.message.startsWith(QStringLiteral("partial frame at offset %1").arg(cut)),
                    qPrintable(d.message));
                QVERIFY2(d.message.contains(QStringLiteral("only 61 bytes")),
                         qPrintable(d.message));
                QVERIFY2(
                    d.message.contains(QStringLiteral("record frame at offset %1").arg(cut + 61)),
                    qPrintable(d.message));
            }
        }
        checkInvariants(*doc, QStringLiteral("partial frame"));
        // The generated late-2026 trace with a partial frame: the diagnostic is at the offset
        // the generator cut.
        const QJsonObject m =
            traceManifest()[QStringLiteral("late2026-partial-frame.lct")].toObject();
        const qint64 at =
            m[QStringLiteral("partial_frame")].toObject()[QStringLiteral("offset")].toInteger();
        QVERIFY(at > 0);
        QString error;
        doc = TraceLoader::load(tracePath(QStringLiteral("late2026-partial-frame.lct")), &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), m[QStringLiteral("records")].toInt());
        bool found = false;
        for (const Diagnostic &d : doc->diagnostics()) {
            found = found || (d.kind == Kind::Resync && d.offset == at &&
                              d.message.startsWith(QStringLiteral("partial frame at offset")));
        }
        QVERIFY2(found, qPrintable(describe(*doc)));
    }

    void twoPartialFramesInARow() {
        // Regression: two frames written short one after the other (a disk full twice) were one
        // diagnostic, whose range covered both. Each is its own: its offset, what its length
        // prefix claims, and how many bytes come before the next frame.
        SmallTrace t = smallTrace(6);
        const qint64 first = t.frameStarts[2], second = first + 61;
        QByteArray b = t.bytes.left(first + 61) + t.bytes.mid(t.frameStarts[3], 50) +
                       t.bytes.mid(t.frameStarts[4]);
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 4);
        QCOMPARE(doc->records().frameOffset(2), second + 50);
        QCOMPARE(doc->records().tMono(2), t.tMono[4]);
        QCOMPARE(doc->skippedBytes(), 111);
        QStringList partial;
        QList<qint64> offsets;
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Resync) {
                partial << d.message;
                offsets << d.offset;
            }
        }
        QCOMPARE(offsets, (QList<qint64>{first, second}));
        const quint32 claims2 = qFromBigEndian<quint32>(t.bytes.constData() + first);
        const quint32 claims3 = qFromBigEndian<quint32>(t.bytes.constData() + t.frameStarts[3]);
        QVERIFY2(partial[0].startsWith(QStringLiteral("partial frame at offset %1: its length "
                                                      "prefix claims %2 bytes, but only 61 bytes")
                                           .arg(first)
                                           .arg(claims2)) &&
                     partial[0].contains(QStringLiteral("frame at offset %1").arg(second)),
                 qPrintable(partial[0]));
        QVERIFY2(
            partial[1].startsWith(QStringLiteral("partial frame at offset %1: its length "
                                                 "prefix claims %2 bytes, but only 50 bytes")
                                      .arg(second)
                                      .arg(claims3)) &&
                partial[1].contains(QStringLiteral("record frame at offset %1").arg(second + 50)),
            qPrintable(partial[1]));
        checkInvariants(*doc, QStringLiteral("two partial frames"));
    }

    void lengthBeyondEof() {
        SmallTrace t = smallTrace(4);
        QByteArray b = t.bytes;
        const qint64 last = t.frameStarts.last();
        b.replace(last, 4, be32(1000000));
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 3);
        QCOMPARE(countKind(*doc, Kind::Truncated), 1);
        const Diagnostic d = doc->diagnostics().first();
        QCOMPARE(d.offset, last);
        QVERIFY2(d.message.contains(QStringLiteral("1000000")), qPrintable(d.message));
        QCOMPARE(doc->skippedBytes(), b.size() - last);
    }

    void truncationAtEveryByte_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("digest-match.lct") << QStringLiteral("digest-match.lct");
        QTest::newRow("encoding-variants.lct") << QStringLiteral("encoding-variants.lct");
        QTest::newRow("hdr-schema2.lct") << QStringLiteral("hdr-schema2.lct");
        QTest::newRow("header-rewritten.lct") << QStringLiteral("header-rewritten.lct");
    }
    void truncationAtEveryByte() {
        QFETCH(QString, name);
        const QByteArray full = readAll(fixturePath(name));
        QString error;
        auto ref = loadBytes(full, &error);
        QVERIFY(ref);
        const RecordStore &rr = ref->records();
        QVERIFY(rr.size() >= 6);
        QCOMPARE(ref->skippedBytes(), 0);
        // A rewritten header (spec 7.4) is recovered from its first record: it must be whole.
        const bool rewritten = ref->header().configLost();
        const qint64 needed =
            rewritten ? rr.frameOffset(0) + 4 + rr.bodyLength(0) : ref->recordsStart();
        const int step = exhaustiveStride();
        for (qint64 cut = 0; cut < full.size(); cut += step) {
            const QString at = QStringLiteral("%1 cut at %2").arg(name).arg(cut);
            auto doc = loadBytes(full.left(cut), &error);
            if (cut < needed) {
                // The header itself is cut short: refused, with the offset.
                QVERIFY2(!doc, qPrintable(at));
                QVERIFY2(error.contains(QLatin1String("mem.lct")) &&
                             error.contains(QLatin1String("offset ")),
                         qPrintable(at + QLatin1String(": ") + error));
                continue;
            }
            QVERIFY2(doc, qPrintable(at + QLatin1String(": ") + error));
            int complete = 0;
            bool onBoundary = cut == ref->recordsStart();
            for (int i = 0; i < rr.size(); ++i) {
                const qint64 end = rr.frameOffset(i) + 4 + rr.bodyLength(i);
                complete += end <= cut ? 1 : 0;
                onBoundary = onBoundary || end == cut;
            }
            QVERIFY2(doc->records().size() == complete,
                     qPrintable(QStringLiteral("%1: %2 records, expected %3\n%4")
                                    .arg(at)
                                    .arg(doc->records().size())
                                    .arg(complete)
                                    .arg(describe(*doc))));
            for (int i = 0; i < complete; ++i) {
                QCOMPARE(doc->records().tMono(i), rr.tMono(i));
                QCOMPARE(doc->records().qualname(i), rr.qualname(i));
                QCOMPARE(doc->records().frameOffset(i), rr.frameOffset(i));
            }
            QCOMPARE(countKind(*doc, Kind::HeaderRewritten), rewritten ? 1 : 0);
            const int truncated = countKind(*doc, Kind::Truncated);
            QVERIFY2(truncated == (onBoundary ? 0 : 1), qPrintable(at + '\n' + describe(*doc)));
            // Nothing else is claimed wrong: no resync into the middle of the cut frame.
            QVERIFY2(countSeverity(*doc, Severity::Error) == truncated &&
                         countSeverity(*doc, Severity::Warning) == (rewritten ? 1 : 0),
                     qPrintable(at + '\n' + describe(*doc)));
            checkInvariants(*doc, at);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    void byteFlipEverywhere_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("mask");
        QTest::addColumn<int>("dense");   // every byte below this offset
        QTest::addColumn<int>("stride");  // then every stride-th byte
        QTest::newRow("digest-match xor ff")
            << QStringLiteral("digest-match.lct") << 0xff << -1 << 1;
        QTest::newRow("digest-match xor 80")
            << QStringLiteral("digest-match.lct") << 0x80 << -1 << 1;
        QTest::newRow("encoding-variants xor 01")
            << QStringLiteral("encoding-variants.lct") << 0x01 << -1 << 1;
        QTest::newRow("calls-generations xor ff")
            << QStringLiteral("calls-generations.lct") << 0xff << 3000 << 5;
        QTest::newRow("calls-generations xor 10")
            << QStringLiteral("calls-generations.lct") << 0x10 << 0 << 7;
        QTest::newRow("header-rewritten xor ff")
            << QStringLiteral("header-rewritten.lct") << 0xff << 1500 << 6;
    }
    void byteFlipEverywhere() {
        QFETCH(QString, name);
        QFETCH(int, mask);
        QFETCH(int, dense);
        QFETCH(int, stride);
        const QByteArray full = readAll(fixturePath(name));
        auto ref = loadBytes(full);
        QVERIFY(ref);
        const RecordStore &rr = ref->records();
        int lost = 0;
        int hit = 0;
        int tried = 0;
        const int step = exhaustiveStride();
        for (qint64 p = 0; p < full.size(); p += (dense < 0 || p < dense) ? step : stride * step) {
            ++tried;
            QByteArray b = full;
            b[p] = char(uchar(b[p]) ^ mask);
            const QString at =
                QStringLiteral("%1: byte %2 ^ 0x%3").arg(name).arg(p).arg(mask, 0, 16);
            QString error;
            auto doc = loadBytes(b, &error);
            if (!doc) {
                // Only a damaged header may be refused, and the refusal says where.
                QVERIFY2(p < ref->recordsStart(), qPrintable(at + QLatin1String(": ") + error));
                QVERIFY2(error.contains(QLatin1String("offset ")), qPrintable(error));
                continue;
            }
            checkInvariants(*doc, at);
            if (QTest::currentTestFailed()) {
                return;
            }
            if (p < ref->recordsStart()) {
                // A damaged header that still opens can be shown.
                QVERIFY(HeaderTree::build(doc->header()) != nullptr);
                continue;
            }
            // A damaged record that still indexes can be summarised and inspected.
            const int near = doc->recordNearOffset(p);
            if (near >= 0) {
                const auto args = doc->args(near);
                QVERIFY(RecordSummary::summarize(args->value).size() <= 160);
                QVERIFY(ArgumentTree::build(args->value) != nullptr);
            }
            // The damaged frame; every record before it is read intact.
            int damaged = 0;
            while (damaged < rr.size() &&
                   rr.frameOffset(damaged) + 4 + rr.bodyLength(damaged) <= p) {
                ++damaged;
            }
            QVERIFY2(doc->records().size() >= damaged, qPrintable(at));
            for (int i = 0; i < damaged; ++i) {
                QCOMPARE(doc->records().frameOffset(i), rr.frameOffset(i));
                QCOMPARE(doc->records().tMono(i), rr.tMono(i));
                QCOMPARE(doc->records().qualname(i), rr.qualname(i));
            }
            // Damage costs at most the damaged record: every later record is still found at its
            // offset (after a resync when the length prefix was hit), and a lost record is never
            // lost silently.
            QSet<qint64> offsets;
            for (int i = 0; i < doc->records().size(); ++i) {
                offsets.insert(doc->records().frameOffset(i));
            }
            for (int i = damaged + 1; i < rr.size(); ++i) {
                QVERIFY2(offsets.contains(rr.frameOffset(i)),
                         qPrintable(QStringLiteral("%1: record %2 lost\n%3")
                                        .arg(at)
                                        .arg(i)
                                        .arg(describe(*doc))));
            }
            if (!offsets.contains(rr.frameOffset(damaged))) {
                ++lost;
                QVERIFY2(doc->errorCount() > 0, qPrintable(at));
                QVERIFY2(doc->skippedBytes() > 0, qPrintable(at));
            }
            hit += doc->errorCount() > 0 ? 1 : 0;
        }
        // The flips did hit records (the loop above was not vacuous): errors said, and records
        // lost (fewer since a record under a damaged length prefix is kept when whole).
        QVERIFY2(hit > tried / 10, qPrintable(QStringLiteral("%1 of %2").arg(hit).arg(tried)));
        QVERIFY2(lost > 0, qPrintable(QString::number(lost)));
    }

    // --- header recovery ------------------------------------------------------------------

    void headerRewrittenFixtures_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("schema1") << QStringLiteral("header-rewritten.lct");
        QTest::newRow("first recorder") << QStringLiteral("header-rewritten-first-recorder.lct");
    }
    void headerRewrittenFixtures() {
        QFETCH(QString, name);
        QString error;
        auto doc = TraceLoader::load(fixturePath(name), &error);
        QVERIFY2(doc, qPrintable(error));
        Severity sev;
        QCOMPARE(countKind(*doc, Kind::HeaderRewritten, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        QVERIFY(doc->header().configLost());
        QCOMPARE(doc->header().digestStatus(), TraceHeader::DigestStatus::Lost);
        QVERIFY(!doc->header().field(u"sm_config_json"));
        QVERIFY(doc->header().tWallStart().has_value());
        // Records start where the placeholder header ended, not where the long one claims.
        const QByteArray b = readAll(fixturePath(name));
        const qint64 claimed = 4 + qFromBigEndian<quint32>(b.constData());
        QVERIFY(doc->recordsStart() < claimed);
        QCOMPARE(doc->records().frameOffset(0), doc->recordsStart());
        QCOMPARE(doc->records().flags(0) & RecordStore::AfterResync, int(RecordStore::AfterResync));
        QCOMPARE(doc->recoveredFrames(), 1);
        // The message says what was lost in a sentence of its own ("... were overwritten
        // and are lost and every record from offset 159." read as if the records were lost).
        QString message;
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::HeaderRewritten) {
                message = d.message;
            }
        }
        QVERIFY2(message.endsWith(
                     QStringLiteral("The header fields that decode were recovered "
                                    "(sm_config_json and sm_config_digest were overwritten and "
                                    "are lost); records are read from offset %1.")
                         .arg(doc->recordsStart())),
                 qPrintable(message));
    }

    void headerRewrittenSynthetic() {
        // Built the way LMCache's first recorder wrote it (spec §7.4).
        HeaderSpec ph;
        HeaderSpec full;
        full.configJson = QStringLiteral("{\"chunk_size\": 256, \"world_size\": 2, \"x\": \"") +
                          QString(150, 'y') + QStringLiteral("\"}");
        full.configDigest = QString(64, 'a');
        const QByteArray phBody = headerBody(ph);
        const QByteArray longBody = headerBody(full);
        SmallTrace t = smallTrace(6);
        const QByteArray records = t.bytes.mid(t.headerEnd);
        QByteArray b = frame(longBody);
        const qint64 pos = 4 + phBody.size();
        QVERIFY(records.size() > b.size() - pos);
        b = b.left(pos) + records;
        QVERIFY(!ValueDecoder::decode(b.constData() + 4, longBody.size()).ok());

        QString error;
        auto doc = loadBytes(b, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->recordsStart(), pos);
        QCOMPARE(doc->records().size(), 6);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(doc->records().tMono(i), t.tMono[i]);
            QCOMPARE(doc->records().qualname(i), t.qualnames[i]);
        }
        QCOMPARE(countKind(*doc, Kind::HeaderRewritten), 1);
        QVERIFY(doc->header().configLost());
        QCOMPARE(doc->header().level(), QStringLiteral("storage"));
        QCOMPARE(doc->header().traceSchemaVersion().value_or(-1), 2);
        QCOMPARE(doc->header().tMonoStart().value_or(-1), 1000.5);
        QVERIFY(!doc->header().field(u"sm_config_json"));
        checkInvariants(*doc, QStringLiteral("rewritten"));
    }

    void regression_damagedHeaderPrefixRecoversHeader_data() {
        QTest::addColumn<quint32>("prefix");
        QTest::addColumn<int>("records");
        QTest::newRow("ff ff ff ff") << 0xffffffffu << 6;
        QTest::newRow("too short") << 100u << 6;
        QTest::newRow("too long by 40") << 0u << 6;
    }
    void regression_damagedHeaderPrefixRecoversHeader() {
        // A damaged length prefix over an intact header was taken for a header rewritten in
        // place (config and digest "lost", bytes skipped) or refused: the header map at offset 4
        // is whole and a record frame follows it.
        QFETCH(quint32, prefix);
        QFETCH(int, records);
        HeaderSpec h;
        h.configJson = QStringLiteral("{\"chunk_size\": 256, \"x\": \"") + QString(150, 'y') +
                       QStringLiteral("\"}");
        h.configDigest = QString(64, 'a');
        const QByteArray body = headerBody(h);
        QVERIFY(body.size() > 100);
        if (prefix == 0) {
            prefix = quint32(body.size()) + 40;  // into the first record
        }
        SmallTrace t = smallTrace(records);
        QByteArray b = frame(body) + t.bytes.mid(t.headerEnd);
        qToBigEndian<quint32>(prefix, b.data());

        QString error;
        auto doc = loadBytes(b, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->recordsStart(), 4 + body.size());
        QCOMPARE(doc->records().size(), records);
        QCOMPARE(countKind(*doc, Kind::HeaderRewritten), 0);
        QCOMPARE(countKind(*doc, Kind::Resync), 0);
        QVERIFY(!doc->header().configLost());
        QCOMPARE(doc->header().smConfigDigest(), QString(64, 'a'));
        QVERIFY(doc->header().field(u"sm_config_json"));
        QCOMPARE(countKind(*doc, Kind::Malformed), 1);
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Malformed) {
                QCOMPARE(d.offset, 0);
                QVERIFY2(d.message.contains(QStringLiteral("length prefix is damaged: expected "
                                                           "%1 bytes")
                                                .arg(body.size())) &&
                             d.message.contains(QStringLiteral("found %1").arg(prefix)),
                         qPrintable(d.message));
            }
        }
        checkInvariants(*doc, QStringLiteral("damaged header prefix"));
    }

    void regression_cutLastFrameSaysHowToFollow_data() {
        QTest::addColumn<int>("cutFromEnd");
        QTest::newRow("inside the body") << 10;
        QTest::newRow("inside the length prefix") << -2;
    }
    void regression_cutLastFrameSaysHowToFollow() {
        // A trace still being written, opened without following, said only "the file was cut
        // short".
        QFETCH(int, cutFromEnd);
        SmallTrace t = smallTrace(3);
        const QByteArray b = cutFromEnd > 0 ? t.bytes.left(t.bytes.size() - cutFromEnd)
                                            : t.bytes + QByteArray(-cutFromEnd, '\0');
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(countKind(*doc, Kind::Truncated), 1);
        for (const Diagnostic &d : doc->diagnostics()) {
            if (d.kind == Kind::Truncated) {
                QVERIFY2(d.message.contains(QStringLiteral("the file was cut short")) &&
                             d.message.contains(QStringLiteral("still being written")) &&
                             d.message.contains(QStringLiteral("File > Follow")) &&
                             d.message.contains(QStringLiteral("lmct-viewer --follow")),
                         qPrintable(d.message));
            }
        }
    }

    // --- digests, schema, level ------------------------------------------------------------

    void digest() {
        QString error;
        auto match = TraceLoader::load(fixturePath(QStringLiteral("digest-match.lct")), &error);
        QVERIFY(match);
        QCOMPARE(match->header().digestStatus(), TraceHeader::DigestStatus::Match);
        QCOMPARE(match->header().computedDigest(), match->header().smConfigDigest());
        QCOMPARE(match->header().computedDigest().size(), 64);
        QCOMPARE(countKind(*match, Kind::Digest), 0);

        auto mismatch =
            TraceLoader::load(fixturePath(QStringLiteral("digest-mismatch.lct")), &error);
        QVERIFY(mismatch);
        QCOMPARE(mismatch->header().digestStatus(), TraceHeader::DigestStatus::Mismatch);
        Severity sev;
        QCOMPARE(countKind(*mismatch, Kind::Digest, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        QVERIFY(
            mismatch->diagnostics().first().message.contains(mismatch->header().computedDigest()));

        auto absent = loadBytes(frame(headerBody()));
        QCOMPARE(absent->header().digestStatus(), TraceHeader::DigestStatus::Absent);
        QVERIFY(absent->header().computedDigest().isEmpty());

        // Upper-case hex of the right digest still matches.
        HeaderSpec h;
        h.configJson = QStringLiteral("{\"a\": 1}");
        h.configDigest = QString::fromLatin1(
            QCryptographicHash::hash(h.configJson.toUtf8(), QCryptographicHash::Sha256)
                .toHex()
                .toUpper());
        auto upper = loadBytes(frame(headerBody(h)));
        QCOMPARE(upper->header().digestStatus(), TraceHeader::DigestStatus::Match);
        // A digest without a config is a mismatch, not absent.
        h.configJson.clear();
        h.configDigest = QString(64, 'f');
        auto orphan = loadBytes(frame(headerBody(h)));
        QCOMPARE(orphan->header().digestStatus(), TraceHeader::DigestStatus::Mismatch);
        // A config without a digest ("" or no sm_config_digest key, e.g. a flipped bit in the
        // header's map size) is absent, not a mismatch: there is nothing to compare.
        h.configJson = QStringLiteral("{\"a\": 1}");
        h.configDigest.clear();
        auto undigested = loadBytes(frame(headerBody(h)));
        QCOMPARE(undigested->header().digestStatus(), TraceHeader::DigestStatus::Absent);
        Mp noKey;
        noKey.map(7).str("type").str("header").str("magic").bin("LMCT");
        noKey.str("format_version").sint(1).str("level").str("storage");
        noKey.str("trace_schema_version").sint(2).str("t_wall_start").f64(1.7e9);
        noKey.str("sm_config_json").str(h.configJson);
        auto keyless = loadBytes(frame(noKey.bytes));
        QVERIFY(keyless);
        QCOMPARE(keyless->header().digestStatus(), TraceHeader::DigestStatus::Absent);
    }

    void headerRefusals_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("word");
        HeaderSpec h;
        h.magic = "XXXX";
        QTest::newRow("bad magic") << frame(headerBody(h)) << "XXXX";
        h = HeaderSpec();
        h.formatVersion = 3;
        QTest::newRow("format_version 3") << frame(headerBody(h)) << "format_version is 3";
        QTest::newRow("no magic")
            << frame(Mp().map(2).str("type").str("header").str("x").uint(1).bytes) << "magic";
        QTest::newRow("no format_version")
            << frame(Mp().map(2).str("type").str("header").str("magic").bin("LMCT").bytes)
            << "format_version";
        QTest::newRow("type tag wrong")
            << frame(Mp().map(2).str("type").str("event").str("magic").bin("LMCT").bytes)
            << "event";
        QTest::newRow("first frame a record")
            << frame(recordBody(1, 2, storageQualname("finish_write"), keysArgs(1))) << "record";
        QTest::newRow("header not a map") << frame(Mp().arr(1).uint(1).bytes) << "map";
        QTest::newRow("4 bytes") << QByteArray("\x00\x00\x00\x01", 4) << "4 bytes";
        QTest::newRow("header length 4 GiB") << be32(0xffffffffu) + headerBody() << "4294967295";
    }
    void headerRefusals() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, word);
        QElapsedTimer t;
        t.start();
        QString error;
        auto doc = loadBytes(bytes, &error);
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QVERIFY(!doc);
        QVERIFY2(error.startsWith(QLatin1String("mem.lct: ")), qPrintable(error));
        QVERIFY2(error.contains(QRegularExpression(QStringLiteral("offset \\d+"))),
                 qPrintable(error));
        QVERIFY2(error.contains(word), qPrintable(error));
    }

    void regression_shortFileRefusalNamesOffset() {
        // The loader's contract: a refusal reads "FILE: offset N: ...". Empty files and files
        // shorter than a length prefix and a map marker said no offset.
        for (int n = 0; n < 5; ++n) {
            QString error;
            auto doc = TraceLoader::loadBytes(frame(headerBody()).left(n), QStringLiteral("s.lct"),
                                              &error);
            QVERIFY(!doc);
            QVERIFY2(error.startsWith(QLatin1String("s.lct: offset 0: ")), qPrintable(error));
        }
    }

    void regression_offByOneLengthDoesNotHideNextRecord_data() {
        QTest::addColumn<int>("delta");
        for (int d : {-10, -1, 1, 2, 3}) {
            QTest::addRow("%+d", d) << d;
        }
    }
    void regression_offByOneLengthDoesNotHideNextRecord() {
        // A length prefix a few bytes too long was trusted (the bytes after it did not look like
        // a frame; main's fast path does not even look), and the resync started after its
        // claimed end, inside the next record frame: that good record was lost too.
        QFETCH(int, delta);
        SmallTrace t = smallTrace(5);
        QByteArray b = t.bytes;
        const qint64 at = t.frameStarts[2];
        const quint32 len = qFromBigEndian<quint32>(b.constData() + at);
        b.replace(at, 4, be32(quint32(qint64(len) + delta)));
        QString error;
        auto doc = TraceLoader::loadBytes(b, QStringLiteral("m.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        QList<qint64> offsets;
        for (int i = 0; i < doc->records().size(); ++i) {
            offsets.append(doc->records().frameOffset(i));
        }
        QVERIFY(doc->errorCount() >= 1);
        // The damaged frame's value ends where the next record frame starts (inside what it
        // claims, or after it): it is kept with that length, its arguments intact, nothing
        // skipped. Regression: one too short was kept cut, its arguments flagged as damaged,
        // and the rest of its value skipped.
        QCOMPARE(offsets, QList<qint64>(t.frameStarts.begin(), t.frameStarts.end()));
        QCOMPARE(doc->records().bodyLength(2), quint32(t.frameEnds[2] - t.frameStarts[2] - 4));
        QVERIFY(doc->records().flags(2) & RecordStore::AfterResync);
        QVERIFY(!(doc->records().flags(2) & RecordStore::BadArgs));
        QCOMPARE(doc->skippedBytes(), 0);
        const QString said = describe(*doc);
        QVERIFY2(said.contains(delta < 0 ? QStringLiteral("length prefix too short")
                                         : QStringLiteral("corrupted length prefix")),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("offset %1").arg(at)), qPrintable(said));
    }

    void argumentCheckIsOptional() {
        // lmct info indexes only (fast); --check decodes every
        // record's arguments. A byte no msgpack value starts with, at the end of a record's
        // arguments, keeps its index fields, damaging its args.
        SmallTrace t = smallTrace(5);
        QByteArray b = t.bytes;
        b[t.frameEnds[2] - 1] = char(0xc1);
        QString error;
        TraceLoadOptions indexOnly;
        indexOnly.validateArgs = false;
        auto quick = TraceLoader::loadBytes(b, QStringLiteral("m.lct"), &error, indexOnly);
        QVERIFY2(quick, qPrintable(error));
        QVERIFY(!quick->argsChecked());
        QVERIFY(!(quick->records().flags(2) & RecordStore::BadArgs));
        QVERIFY(TraceInfo::toText(QStringLiteral("m.lct"), *quick)
                    .contains(QStringLiteral("arguments:             not checked")));
        QCOMPARE(TraceInfo::toJson(QStringLiteral("m.lct"), *quick, true)
                     .value(QStringLiteral("args_checked"))
                     .toBool(true),
                 false);
        auto checked = TraceLoader::loadBytes(b, QStringLiteral("m.lct"), &error);
        QVERIFY2(checked, qPrintable(error));
        QVERIFY(checked->argsChecked());
        QVERIFY(checked->records().flags(2) & RecordStore::BadArgs);
        QCOMPARE(checked->records().size(), quick->records().size());
        QVERIFY(checked->errorCount() > quick->errorCount());
        QCOMPARE(TraceInfo::toJson(QStringLiteral("m.lct"), *checked, true)
                     .value(QStringLiteral("args_checked"))
                     .toBool(false),
                 true);
    }

    void regression_rewrittenHeaderDamagedFirstRecordIsReported_data() {
        QTest::addColumn<int>("how");
        QTest::newRow("length prefix ff ff ff f0") << 0;
        QTest::newRow("body byte 0xc1") << 1;
    }
    void regression_rewrittenHeaderDamagedFirstRecordIsReported() {
        // After a header rewritten in place (spec 7.4) the loader looks for the first record at
        // the placeholder's end, else scans for a later one. When the first record was damaged,
        // records started at the later one and the damaged record's bytes were silently taken
        // for header: one record fewer, no diagnostic, nothing skipped.
        QFETCH(int, how);
        QByteArray b = readAll(fixturePath(QStringLiteral("header-rewritten.lct")));
        auto ref = loadBytes(b);
        QVERIFY(ref);
        const RecordStore &rr = ref->records();
        const qint64 first = rr.frameOffset(0);
        const qint64 firstSize = 4 + rr.bodyLength(0);
        if (how == 0) {
            b.replace(first, 4, QByteArray("\xff\xff\xff\xf0", 4));
        } else {
            b[first + 4 + 1] = char(0xc1);  // right after the record's map marker
        }
        QString error;
        auto doc = loadBytes(b, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->recordsStart(), first);
        QVERIFY2(doc->errorCount() >= 1, qPrintable(describe(*doc)));
        if (how == 0) {
            // the record's value is whole and the next frame follows it: kept
            QCOMPARE(doc->records().size(), rr.size());
            QCOMPARE(doc->records().frameOffset(0), first);
            QCOMPARE(doc->records().bodyLength(0), quint32(firstSize - 4));
            QCOMPARE(doc->skippedBytes(), 0);
        } else {
            QCOMPARE(doc->records().size(), rr.size() - 1);
            QCOMPARE(doc->records().frameOffset(0), rr.frameOffset(1));
            QCOMPARE(doc->skippedBytes(), firstSize);
        }
        QCOMPARE(countKind(*doc, Kind::HeaderRewritten), 1);
        checkInvariants(*doc, QStringLiteral("damaged first record"));
    }

    void unknownSchemaAndLevelWarn() {
        HeaderSpec h;
        h.schema = 7;
        h.level = QStringLiteral("kernel");
        auto doc =
            loadBytes(frame(headerBody(h)) + smallTrace(2).bytes.mid(smallTrace(2).headerEnd));
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 2);
        Severity sev;
        QCOMPARE(countKind(*doc, Kind::UnknownSchema, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        QCOMPARE(countKind(*doc, Kind::UnknownLevel, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        QCOMPARE(doc->warningCount(), 2);
        QCOMPARE(doc->errorCount(), 0);
    }

    // Regression: an sm_config_json that is not JSON and a trace_schema_version that is a string
    // passed without a word (`lmct info` showed the schema as "(none)").
    void headerFieldsOfTheWrongTypeWarn() {
        const QByteArray records = smallTrace(2).bytes.mid(smallTrace(2).headerEnd);
        auto headerWarnings = [](const TraceDocument &doc) {
            QStringList out;
            for (const Diagnostic &d : doc.diagnostics()) {
                if (d.kind == Kind::Header) {
                    out.append(d.message);
                    if (d.severity != Severity::Warning || d.offset != 4) {
                        out.append(QStringLiteral("(not a warning at offset 4)"));
                    }
                }
            }
            return out;
        };
        HeaderSpec h;
        h.configJson = QStringLiteral("{not json");
        auto doc = loadBytes(frame(headerBody(h)) + records);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 2);
        QJsonParseError expected;
        QJsonDocument::fromJson("{not json", &expected);
        QCOMPARE(expected.offset, 2);
        QCOMPARE(headerWarnings(*doc),
                 QStringList{QStringLiteral("header field sm_config_json is not valid JSON: %1 at "
                                            "byte offset 2 of its 9 bytes; expected the "
                                            "StorageManager config as a JSON object")
                                 .arg(expected.errorString())});
        h.configJson = QStringLiteral("[1, 2]");
        doc = loadBytes(frame(headerBody(h)) + records);
        QCOMPARE(headerWarnings(*doc),
                 QStringList{QStringLiteral("header field sm_config_json holds a JSON array; "
                                            "expected the StorageManager config as a JSON "
                                            "object")});
        // A JSON object, and the placeholder "" (no config), are what LMCache writes.
        h.configJson = QStringLiteral("{\"chunk_size\": 256}");
        QCOMPARE(headerWarnings(*loadBytes(frame(headerBody(h)) + records)), QStringList());
        QCOMPARE(headerWarnings(*loadBytes(frame(headerBody()) + records)), QStringList());

        // trace_schema_version "2", level 7: the wrong types are named.
        Mp m;
        m.map(9).str("type").str("header");
        m.str("magic").bin("LMCT");
        m.str("format_version").sint(1);
        m.str("level").sint(7);
        m.str("trace_schema_version").str("2");
        m.str("t_mono_start").f64(1000.5);
        m.str("t_wall_start").f64(1760000000.25);
        m.str("sm_config_json").str("");
        m.str("sm_config_digest").str("");
        doc = loadBytes(frame(m.bytes) + records);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 2);
        QCOMPARE(headerWarnings(*doc),
                 (QStringList{QStringLiteral("header field trace_schema_version: expected an "
                                             "integer, found str \"2\""),
                              QStringLiteral("header field level: expected a string, found int")}));
        QCOMPARE(countKind(*doc, Kind::UnknownSchema), 0);
        QCOMPARE(countKind(*doc, Kind::UnknownLevel), 0);  // said once, as the wrong type
    }

    // --- damage accounting -----------------------------------------------------------------

    void resyncFlagsTheRecoveredRecord() {
        // 300 random bytes between records 6 and 7: skipped, and record 7 flagged
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("garbage-run.lct")), &error);
        QVERIFY(doc);
        int flagged = -1;
        for (int i = 0; i < doc->records().size(); ++i) {
            if (doc->records().flags(i) & RecordStore::AfterResync) {
                QCOMPARE(flagged, -1);
                flagged = i;
            }
        }
        QCOMPARE(flagged, 6);  // the 7th record follows the gap
        QCOMPARE(doc->recoveredFrames(), 1);
        const RecordStore &rs = doc->records();
        const qint64 gapStart = rs.frameOffset(5) + 4 + rs.bodyLength(5);
        QCOMPARE(doc->skippedBytes(), rs.frameOffset(6) - gapStart);
        QCOMPARE(doc->skippedBytes(), 300);
        Severity sev;
        QCOMPARE(countKind(*doc, Kind::Resync, &sev), 1);
        QCOMPARE(sev, Severity::Error);
        QCOMPARE(doc->diagnostics().first().offset, gapStart);
    }

    void damagedLengthPrefixKeepsItsRecord() {
        // Regression: a length prefix too long (by 10 bytes, by 1000, or 0xfffffff0) lost
        // its record, though the record's value was whole and the next frame followed it:
        // "claims N bytes, but a record frame starts inside it"; skipped bytes to that frame.
        // Now the record is kept with the length its value fills, flagged, and said.
        // Regression: one too long (or 1000 in a larger file) lost the NEXT record: the hop went on
        // from inside the next frame, where 4 bytes read as a length that fits (00 01 0b 85:
        // 68 KB; this trace is 270 KB), and the damaged record was kept whole with it.
        const test::SmallTrace t = test::smallTrace(1000);
        const int k = 12;  // the record whose prefix is damaged
        const qint64 at = t.frameStarts[k];
        const quint32 bodyLength = quint32(t.frameEnds[k] - at - 4);
        for (const quint32 claimed :
             {bodyLength + 1, bodyLength + 10, bodyLength + 1000, 0xfffffff0u}) {
            QByteArray b = t.bytes;
            const QByteArray prefix = test::be32(claimed);
            b.replace(int(at), 4, prefix);
            const QString what =
                QStringLiteral("prefix %1 for %2 bytes").arg(claimed).arg(bodyLength);
            auto doc = loadBytes(b);
            QVERIFY2(doc, qPrintable(what));
            checkInvariants(*doc, what);
            const RecordStore &rs = doc->records();
            QVERIFY2(rs.size() == t.tMono.size(),
                     qPrintable(what + QLatin1String("\n") + describe(*doc)));
            for (int i = 0; i < rs.size(); ++i) {
                QCOMPARE(rs.frameOffset(i), t.frameStarts[i]);
                QCOMPARE(rs.tMono(i), t.tMono[i]);
            }
            QCOMPARE(rs.bodyLength(k), bodyLength);
            // the Inspector's Frame tab says why the frame is shorter than its prefix
            const QString dump = FrameDump::dump(doc->frameBytes(k), at);
            QVERIFY2(dump.contains(QStringLiteral("u32 big-endian length = %1, damaged: the "
                                                  "record was kept with the %2 bytes")
                                       .arg(claimed)
                                       .arg(bodyLength)),
                     qPrintable(dump.left(400)));
            QVERIFY(rs.flags(k) & RecordStore::AfterResync);
            QVERIFY(!(rs.flags(k + 1) & RecordStore::AfterResync));
            QCOMPARE(doc->skippedBytes(), 0);
            QCOMPARE(doc->recoveredFrames(), 1);
            QVERIFY(doc->args(k)->error.isEmpty());  // its arguments read whole
            QCOMPARE(countKind(*doc, Kind::Resync), 1);
            const Diagnostic d = doc->diagnostics().first();
            QCOMPARE(d.offset, at);
            QVERIFY2(d.message.contains(QStringLiteral("record is kept")) &&
                         d.message.contains(QString::number(claimed)) &&
                         d.message.contains(QString::number(t.frameStarts[k + 1])),
                     qPrintable(d.message));
        }
    }

    void hugeRecordUnderDamagedPrefixIsNotParsed() {
        // The keeping above parses the bytes up to the next record frame; past 64 MiB it is not
        // tried (a crafted value of 3e9 nils would take seconds, its pages kept resident): such
        // a record is skipped, as before.
        test::Mp args;
        args.map(1).str("blob").bin(QByteArray((64 << 20) + 16, 'x'));
        const QByteArray big = recordBody(0.5, 1.7e9, storageQualname("finish_write"), args.bytes);
        const QByteArray after =
            frame(recordBody(0.6, 1.7e9, storageQualname("finish_write"), keysArgs(1)));
        const QByteArray b = frame(headerBody()) + be32(0xfffffff0u) + big + after;
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 1);
        QCOMPARE(doc->records().tMono(0), 0.6);
        QCOMPARE(doc->skippedBytes(), 4 + big.size());
        // a record of 1 MiB under the same prefix is kept
        test::Mp small;
        small.map(1).str("blob").bin(QByteArray(1 << 20, 'x'));
        const QByteArray kept =
            recordBody(0.5, 1.7e9, storageQualname("finish_write"), small.bytes);
        doc = loadBytes(frame(headerBody()) + be32(0xfffffff0u) + kept + after);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 2);
        QCOMPARE(doc->skippedBytes(), 0);
    }

    void lengthTakingInWholeFramesIsSaid() {
        // A length prefix too long by exactly the next three frames: the index takes them into
        // the record (it does not parse arguments). The argument check flags the record; since
        // It also says that the trailing bytes are three whole record frames, not indexed.
        const test::SmallTrace t = test::smallTrace(20);
        const int k = 7;
        QByteArray b = t.bytes;
        const qint64 at = t.frameStarts[k];
        b.replace(int(at), 4, test::be32(quint32(t.frameEnds[k + 3] - at - 4)));
        TraceLoader::Options opt;
        opt.validateArgs = true;
        QString error;
        auto doc = TraceLoader::loadBytes(b, QStringLiteral("m.lct"), &error, opt);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), 17);
        QVERIFY(doc->records().flags(k) & RecordStore::BadArgs);
        QCOMPARE(countKind(*doc, Kind::Malformed), 1);
        const Diagnostic d = doc->diagnostics().first();
        QCOMPARE(d.offset, at);
        QVERIFY2(d.message.contains(QStringLiteral("3 whole record frame(s), from offset %1")
                                        .arg(t.frameStarts[k + 1])) &&
                     d.message.contains(QStringLiteral("not indexed")),
                 qPrintable(d.message));
        // trailing bytes that are not frames get no such sentence
        QByteArray c = t.bytes;
        c.replace(int(at), 4, test::be32(quint32(t.frameEnds[k + 3] - at - 4 - 1)));
        c.remove(int(t.frameEnds[k + 3] - 1), 1);  // the last frame taken in, cut by a byte
        doc = TraceLoader::loadBytes(c, QStringLiteral("m.lct"), &error, opt);
        QVERIFY2(doc, qPrintable(error));
        bool said = false;
        for (const Diagnostic &x : doc->diagnostics()) {
            QVERIFY2(!x.message.contains(QStringLiteral("whole record frame")),
                     qPrintable(x.message));
            said = said || x.offset == at;
        }
        QVERIFY(said);
    }

    void orderDiagnostic() {
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("tmono-backwards.lct")), &error);
        QVERIFY(doc);
        Severity sev;
        QCOMPARE(countKind(*doc, Kind::Order, &sev), 1);
        QCOMPARE(sev, Severity::Info);
        const RecordStore &rs = doc->records();
        QVERIFY(rs.tMono(rs.size() - 1) < doc->duration());
        QCOMPARE(rs.maxTMono(), doc->duration());
    }

    void implausibleBackStepIsAWarning() {
        // t_mono may step back slightly (threads); 1.7e308 then 1.0 is no reordering but
        // corrupt time values: a warning that says so, not the info note.
        auto trace = [](double before, double after) {
            return frame(headerBody()) +
                   frame(recordBody(0.5, 1760000000.5, storageQualname("reserve_write"),
                                    keysArgs(1))) +
                   frame(recordBody(before, 1760000001.0, storageQualname("finish_write"),
                                    keysArgs(1))) +
                   frame(recordBody(after, 1760000001.5, storageQualname("reserve_write"),
                                    keysArgs(1, 1)));
        };
        Severity sev;
        auto huge = loadBytes(trace(1.7e308, 1.0));
        QVERIFY(huge);
        QCOMPARE(countKind(*huge, Kind::Order, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        Diagnostic d;
        for (const Diagnostic &x : huge->diagnostics()) {
            if (x.kind == Kind::Order) {
                d = x;
            }
        }
        QVERIFY2(d.message.contains(QStringLiteral("likely corrupt")), qPrintable(d.message));
        QVERIFY2(d.message.contains(QStringLiteral("1.7e+308")), qPrintable(d.message));
        QCOMPARE(d.offset, huge->records().frameOffset(2));
        // more than an hour back: a warning too; a second back: the info note
        auto hours = loadBytes(trace(7300.0, 100.0));
        QVERIFY(hours);
        QCOMPARE(countKind(*hours, Kind::Order, &sev), 1);
        QCOMPARE(sev, Severity::Warning);
        auto slight = loadBytes(trace(2.0, 1.0));
        QVERIFY(slight);
        QCOMPARE(countKind(*slight, Kind::Order, &sev), 1);
        QCOMPARE(sev, Severity::Info);
    }

    void diagnosticsAreCapped() {
        // 20 zero-length frames, each after a different record (consecutive ones are one finding).
        SmallTrace t = smallTrace(21);
        QByteArray b = t.bytes;
        for (int i = 20; i >= 1; --i) {
            b.insert(t.frameEnds[i - 1], be32(0));
        }
        TraceLoadOptions opt;
        opt.maxDiagnostics = 5;
        auto doc = loadBytes(b, nullptr, opt);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 21);
        QCOMPARE(doc->diagnosticCount(), 21);  // 20 zero-length frames and the damage summary
        QCOMPARE(doc->errorCount(), 20);       // counted past the cap too
        QCOMPARE(doc->diagnostics().size(), 6);
        QCOMPARE(doc->diagnostics().last().kind, Kind::Note);
        QVERIFY(doc->diagnostics().last().message.contains(QLatin1String("5")));
        QCOMPARE(doc->skippedFrames(), 20);
    }

    // Regression: a valid header followed by a run of zero bytes took minutes
    // and gigabytes, one diagnostic per 4 bytes. A run is one finding.
    void regression_zeroRunIsOneDiagnostic() {
        SmallTrace t = smallTrace(2);
        QByteArray b = t.bytes + QByteArray(4 << 20, '\0');
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 2);
        QCOMPARE(countKind(*doc, Kind::Malformed), 1);
        QCOMPARE(doc->skippedFrames(), qint64(1 << 20));
    }

    // Regression: after each damaged frame the fast path parsed a whole
    // batch (up to 32768 frames) again, so reading time grew with the square of the damaged
    // frames: 20 000 one-byte bad frames between records took 269 s (now a fraction of one).
    void regression_manyDamagedFramesAreLinear() {
        Mp args;
        args.map(1).str("k").uint(1);
        const QByteArray good =
            frame(recordBody(0.5, 1.0, storageQualname("finish_write"), args.bytes));
        QByteArray b = frame(headerBody());
        const int bad = 20000;
        for (int i = 0; i < bad; ++i) {
            b += good + be32(1) + QByteArray(1, '\xc1');
        }
        b += good;
        TraceLoadOptions opt;
        opt.maxDiagnostics = 100;
        auto doc = loadBytes(b, nullptr, opt);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), bad + 1);
        QCOMPARE(doc->skippedFrames(), qint64(bad));
        QVERIFY(doc->diagnosticCount() >= bad);
    }

    // Regression: NaN, infinite or negative times were accepted silently and
    // made the duration NaN.
    void regression_nonFiniteTimesWarnAndKeepDuration() {
        SmallTrace t = smallTrace(3);
        QByteArray b = t.bytes;
        const QByteArray key("\xa6t_mono\xcb", 8);
        const qsizetype at = b.indexOf(key, t.frameEnds[1]);  // the second record's t_mono
        QVERIFY(at > 0);
        b.replace(at + key.size(), 8, QByteArray("\x7f\xf8\0\0\0\0\0\0", 8));  // NaN
        auto doc = loadBytes(b);
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 3);
        QCOMPARE(countKind(*doc, Kind::Time), 1);
        QVERIFY(std::isfinite(doc->duration()));
    }

    // --- cancel and progress -----------------------------------------------------------------

    void cancelBeforeStart() {
        std::atomic_bool cancel{true};
        TraceLoadOptions opt;
        opt.cancel = &cancel;
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("sample.lct")), &error, opt);
        QVERIFY(doc);
        QVERIFY(doc->isPartial());
        QCOMPARE(doc->records().size(), 0);
        QCOMPARE(countKind(*doc, Kind::Note), 1);
        QVERIFY(doc->diagnostics().first().message.contains(QLatin1String("cancel")));
    }

    void cancelFromProgress() {
        const QString path = tracePath(QStringLiteral("newest-unknown-spec-tp4.lct"));
        std::atomic_bool cancel{false};
        int calls = 0;
        TraceLoadOptions opt;
        opt.cancel = &cancel;
        opt.progress = [&](qint64, qint64, qint64) {
            ++calls;
            cancel = true;
        };
        QString error;
        auto doc = TraceLoader::load(path, &error, opt);
        QVERIFY(doc);
        QVERIFY(doc->isPartial());
        QVERIFY(calls >= 1);
        const int total =
            readJson(path + QStringLiteral(".truth.json"))[QStringLiteral("records")].toInt();
        QVERIFY2(doc->records().size() > 0 && doc->records().size() < total,
                 qPrintable(QString::number(doc->records().size())));
        checkInvariants(*doc, QStringLiteral("cancelled"));
    }

    // Regression: a cancel during the argument check (after every record was
    // indexed) left no trace but argsChecked() false: no diagnostic, no marker. It now says at
    // which record the check stopped; the records all stay.
    void cancelDuringArgumentCheckIsReported() {
        SmallTrace t = smallTrace(3000);
        QString error;
        std::atomic_bool cancel{false};
        TraceLoadOptions opt;
        opt.cancel = &cancel;
        opt.progress = [&](qint64 done, qint64 total, qint64) {
            if (done >= total) {
                cancel = true;  // indexing is done: the argument check is next
            }
        };
        auto doc = TraceLoader::loadBytes(t.bytes, QStringLiteral("c.lct"), &error, opt);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), 3000);
        QVERIFY(!doc->isPartial());  // every record is there
        QVERIFY(!doc->argsChecked());
        QCOMPARE(doc->argsCheckCancelledAt(), 0);
        QCOMPARE(doc->warningCount(), 1);
        const Diagnostic d = doc->diagnostics().constLast();
        QCOMPARE(d.severity, Diagnostic::Severity::Warning);
        QCOMPARE(d.offset, t.frameStarts[0]);
        QVERIFY2(d.message.contains(QLatin1String("argument check was cancelled at record 0 of "
                                                  "3000")),
                 qPrintable(d.message));
        QVERIFY2(d.message.contains(QLatin1String("not (all) checked")), qPrintable(d.message));
        // a check that ran to its end says nothing, whatever the cancel flag said afterwards
        std::atomic_bool late{false};
        TraceLoadOptions whole;
        whole.cancel = &late;
        auto full = TraceLoader::loadBytes(t.bytes, QStringLiteral("c.lct"), &error, whole);
        QVERIFY(full && full->argsChecked());
        QCOMPARE(full->argsCheckCancelledAt(), -1);
        QCOMPARE(full->diagnosticCount(), 0);
        // cancelled while the check runs (at some record): the records before it were checked
        SmallTrace big = smallTrace(60000);
        std::atomic_bool midway{false};
        TraceLoadOptions mid;
        mid.cancel = &midway;
        QThread *canceller = nullptr;
        mid.progress = [&](qint64 done, qint64 total, qint64) {
            if (done >= total && !canceller) {
                canceller = QThread::create([&] {
                    QThread::usleep(500);
                    midway = true;
                });
                canceller->start();
            }
        };
        auto part = TraceLoader::loadBytes(big.bytes, QStringLiteral("m.lct"), &error, mid);
        QVERIFY(canceller && canceller->wait(10000));
        delete canceller;
        QVERIFY(part);
        QCOMPARE(part->records().size(), 60000);
        QVERIFY(!part->isPartial());
        if (!part->argsChecked()) {  // (unless the check was quicker than the canceller)
            const int at = part->argsCheckCancelledAt();
            QVERIFY2(at >= 0 && at < 60000, qPrintable(QString::number(at)));
            QVERIFY(part->diagnostics().constLast().message.contains(
                QStringLiteral("cancelled at record %1 of 60000").arg(at)));
            QCOMPARE(part->diagnostics().constLast().offset, big.frameStarts[at]);
        } else {
            QCOMPARE(part->argsCheckCancelledAt(), -1);
        }
    }

    void regression_cancelHonouredWithLargeRecords() {
        // The fast path took up to 2^15 frames per batch and checked cancel and reported progress
        // only between batches: a file of fewer, larger records was one batch, so a cancel during
        // loading was ignored and no progress came before the end.
        Mp args;
        args.map(1).str("blob").bin(QByteArray(100000, '\x5a'));
        QByteArray b = frame(headerBody());
        for (int i = 0; i < 200; ++i) {
            b += frame(
                recordBody(0.001 * (i + 1), 1.0, storageQualname("finish_write"), args.bytes));
        }
        std::atomic_bool cancel{false};
        int calls = 0;
        TraceLoadOptions opt;
        opt.cancel = &cancel;
        opt.progress = [&](qint64 done, qint64, qint64) {
            ++calls;
            if (done > b.size() / 4) {
                cancel = true;
            }
        };
        auto doc = loadBytes(b, nullptr, opt);
        QVERIFY(doc);
        QVERIFY(calls >= 2);
        QVERIFY(doc->isPartial());
        QVERIFY2(doc->records().size() > 0 && doc->records().size() < 200,
                 qPrintable(QString::number(doc->records().size())));
    }

    void indexedPagesLeaveTheRss() {
#ifdef Q_OS_LINUX
        // Issue #6: peak RSS at most 40 B per record + 300 MB. A mapped trace read once (index and
        // argument check) must not stay resident as a whole: its pages are released per batch.
        Mp args;
        args.map(1).str("blob").bin(QByteArray(2000, '\x33'));
        QByteArray b = frame(headerBody());
        while (b.size() < (24 << 20)) {
            b += frame(recordBody(0.001, 1.0, storageQualname("finish_write"), args.bytes));
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rss.lct"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(b), b.size());
        }
        QString error;
        auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->diagnostics().size(), 0);
        const MappedRss rss = mappedRss(path);
        QCOMPARE(rss.mappings, 1);
        const qint64 rssKb = rss.kib;
        QVERIFY2(rssKb < 4096, qPrintable(QStringLiteral("%1 KiB of a %2 KiB file resident")
                                              .arg(rssKb)
                                              .arg(b.size() / 1024)));
        // The bytes are still there: the arguments of the last record decode.
        QVERIFY(doc->args(doc->records().size() - 1));
#else
        QSKIP("page release is Linux only");
#endif
    }

    void analysesLeaveTheFileOutOfTheRss() {
#ifdef Q_OS_LINUX
        // Issue #6 (bounded memory): the viewer's analyses read every record's arguments once
        // (key analysis, context pairs, statistics, a filter on args); with a 1.37 GB trace open
        // its RSS held the whole file (1.9 GB) after them. Each must release what it has read.
        QByteArray b = frame(headerBody());
        const char *calls[] = {"reserve_write", "finish_write", "read_prefetched_results.__enter__",
                               "read_prefetched_results.__exit__"};
        for (int i = 0; b.size() < (24 << 20); ++i) {
            const double t = 0.001 * i;
            b += frame(recordBody(t, 1.7e9 + t, storageQualname(calls[i % 4]),
                                  keysArgs(32, (i / 4) * 32)));
        }
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("keys.lct"), b);
        QString error;
        auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        QVERIFY(doc->records().size() > 1000);
        auto resident = [&](const char *after) {
            const MappedRss rss = mappedRss(path);
            QCOMPARE(rss.mappings, 1);
            QVERIFY2(rss.kib < 4096, qPrintable(QStringLiteral("after %1: %2 KiB of a %3 KiB file "
                                                               "resident")
                                                    .arg(QLatin1String(after))
                                                    .arg(rss.kib)
                                                    .arg(b.size() / 1024)));
        };
        resident("loading");
        const auto ka = KeyAnalysis::build(*doc);
        QVERIFY(ka);
        QVERIFY(ka->keyCount() > 0);
        QVERIFY(ka->keyRecordCount() > 1000);
        resident("the key analysis");
        const auto pairs = ContextPairs::build(*doc, storageQualname("read_prefetched_results"));
        QVERIFY(pairs);
        resident("pairing read_prefetched_results");
        const TraceStatistics st = TraceStatistics::compute(*doc);
        QVERIFY(st.argsDecoded);
        resident("the statistics");
        const FilterEvaluator ev(doc, FilterExpression::parse(QStringLiteral("keys.count > 3")));
        QCOMPARE(ev.run(FilterEvaluator::Options()).records.size(), size_t(doc->records().size()));
        resident("a filter on arguments");
        // The bytes are still there: the keys of the last record decode.
        QVERIFY(doc->args(doc->records().size() - 1)->error.isEmpty());
#else
        QSKIP("page release is Linux only");
#endif
    }

    void recordStoreKeepsEveryTWallExactly() {
        // t_wall is kept in 4 bytes (its drift from t_mono + the chunk's offset, in steps of its
        // double's spacing) when it can be, else as its double: either way tWall() gives back
        // the very bits recorded, over several chunks and for every kind of value.
        RecordStore store;
        const quint32 id = store.intern("q", 1);
        std::vector<double> mono, wall;
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> odd{0.0,          -0.0,
                                      1.0,          -1760000000.0,
                                      1073741824.0, std::nextafter(1073741824.0, 0.0),
                                      2147483648.0, std::nextafter(2147483648.0, 0.0),
                                      5e-324,       1e300,
                                      inf,          -inf,
                                      nan};
        for (int i = 0; i < 30000; ++i) {
            double m = 0.001 * i + 1e-7 * unit(rng);          // seconds since the start
            double w = 1760000000.25 + m + 1e-4 * unit(rng);  // drifting a little
            switch (i % 50) {
                case 7:  // the wall clock stepped by more than 512 s
                    w += (i % 100 == 7 ? 1 : -1) * (600.0 + unit(rng) * 1e5);
                    break;
                case 11:
                    w = odd[size_t(i / 50) % odd.size()];
                    break;
                case 13:
                    m = odd[size_t(i / 50 + 3) % odd.size()];
                    break;
                case 17:  // a synthetic clock: wall times counted from 0
                    w = m;
                    break;
                default:
                    break;
            }
            mono.push_back(m);
            wall.push_back(w);
            store.append(m, w, id, 4 + i, 10, 0);
        }
        for (int i = 0; i < store.size(); ++i) {
            const double got = store.tWall(i);
            if (std::memcmp(&got, &wall[size_t(i)], sizeof got) != 0) {
                QFAIL(qPrintable(QStringLiteral("record %1: t_mono %2, t_wall %3 read back as %4")
                                     .arg(i)
                                     .arg(mono[size_t(i)], 0, 'g', 17)
                                     .arg(wall[size_t(i)], 0, 'g', 17)
                                     .arg(got, 0, 'g', 17)));
            }
            QCOMPARE(store.tMono(i), mono[size_t(i)]);
        }
        QCOMPARE(store.minTWall(),
                 *std::min_element(wall.begin(), wall.end(), [](double a, double b) {
                     return (std::isfinite(a) ? a : 1e308) < (std::isfinite(b) ? b : 1e308);
                 }));
    }

    void recordStoreClockStepCostsOneBlock() {
        // Regression: the t_wall prediction's offset was per chunk, so a wall clock stepped
        // by more than 512 s (NTP, a suspend) sent the rest of its chunk (up to half the trace)
        // to the 8-byte form. With an offset per 4096 records, the step costs at most one block.
        constexpr int n = 200000;
        auto fill = [](RecordStore &store, double step) {
            const quint32 id = store.intern("q", 1);
            for (int i = 0; i < n; ++i) {
                const double m = 0.001 * i;
                const double w = 1760000000.125 + m + (i >= 100000 ? step : 0.0);
                store.append(m, w, id, 4 + 20 * qint64(i), 16, 0);
                if (store.tWall(i) != w) {
                    return false;
                }
            }
            return true;
        };
        RecordStore steady, stepped;
        QVERIFY(fill(steady, 0.0));
        QVERIFY(fill(stepped, 1000.0));
        const qint64 more = stepped.memoryBytes() - steady.memoryBytes();
        QVERIFY2(more > 0 && more <= 4096 * 8 + 4096, qPrintable(QString::number(more)));
    }

    void recordStorePrefaultsAheadOfAppendsRunningMeanwhile() {
        // The loader appends one batch while a worker makes the next batch's slots resident
        // and others look qualnames up: prefault(first, count) leaves the slots before `first`
        // alone, and findInterned() sees a name once intern() has published it.
        RecordStore store;
        const QByteArray first("lmcache.first"), second("lmcache.second");
        const quint32 a = store.intern(first.constData(), quint32(first.size()));
        constexpr int n = 300000;  // several chunks, so that both sides allocate some
        std::atomic_bool go{false}, found{false};
        QThread *ahead = QThread::create([&] {
            while (!go.load()) {
            }
            store.prefault(n, n);
        });
        QThread *looker = QThread::create([&] {
            while (!found.load()) {
                found = store.findInterned(second.constData(), quint32(second.size())) == 1;
            }
        });
        ahead->start();
        looker->start();
        go = true;
        for (int i = 0; i < n; ++i) {
            const quint32 id =
                i < n / 2 ? a : store.intern(second.constData(), quint32(second.size()));
            store.append(double(i), 1760000000.0 + i, id, 4 + 16 * qint64(i), 12, 0);
        }
        QVERIFY(ahead->wait(30000));
        QVERIFY(looker->wait(30000));
        delete ahead;
        delete looker;
        for (int i = n; i < 2 * n; ++i) {
            store.append(double(i), 1760000000.0 + i, a, 4 + 16 * qint64(i), 12, 0);
        }
        QCOMPARE(store.size(), 2 * n);
        for (int i = 0; i < 2 * n; ++i) {
            if (store.tMono(i) != double(i) || store.tWall(i) != 1760000000.0 + i ||
                store.frameOffset(i) != 4 + 16 * qint64(i) || store.bodyLength(i) != 12 ||
                store.qualnameId(i) != (i >= n / 2 && i < n ? 1u : 0u)) {
                QFAIL(qPrintable(QStringLiteral("record %1 is not as appended").arg(i)));
            }
        }
    }

    void recordStoreMemoryIsCountedFromAllocations() {
        // RecordStore::memoryBytes() counts what the store allocated, not a per-record formula.
        RecordStore store;
        const qint64 empty = store.memoryBytes();
        // The fixed qualname slots (names and counts) exist from the start.
        QVERIFY2(empty >= RecordStore::kMaxQualnames * qint64(sizeof(QString)),
                 qPrintable(QString::number(empty)));
        // An interned name costs its UTF-16 and UTF-8 copies at least.
        const QByteArray name = storageQualname("finish_write").toUtf8().repeated(20);
        const quint32 id = store.intern(name.constData(), quint32(name.size()));
        const qint64 named = store.memoryBytes();
        QVERIFY2(named - empty >= 3 * name.size(), qPrintable(QString::number(named - empty)));
        // The first record allocates the first chunk: its flags column is zeroed (resident) at
        // once, the other five columns one page each.
        store.append(1.0, 1760000002.0, id, 4, 10, 0);  // (t_wall in its 4-byte form)
        const qint64 one = store.memoryBytes();
        QVERIFY2(one - named >= RecordStore::kFirstChunk + 5 * 4096,
                 qPrintable(QString::number(one - named)));
        // More records on the same pages cost nothing more; the next page of each column does.
        for (int i = 1; i < 100; ++i) {
            store.append(1.0 + i, 1760000002.0 + i, id, 4 + 20 * i, 10, 0);
        }
        QCOMPARE(store.memoryBytes(), one);

        // Issue: "Memory per record beyond the mapping stays under 40 bytes." 100 000 small
        // records: five chunks, the last one partly written.
        constexpr int n = 100000;
        Mp emptyArgs;
        emptyArgs.map(0);
        const QByteArray body =
            recordBody(0.5, 1760000000.5, storageQualname("finish_write"), emptyArgs.bytes);
        QByteArray b = frame(headerBody());
        b.reserve(b.size() + n * (4 + body.size()));
        for (int i = 0; i < n; ++i) {
            b += frame(body);
        }
        QString error;
        auto doc = loadBytes(b, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), n);
        const qint64 bytes = doc->records().memoryBytes();
        const double perRecord = double(bytes) / n;
        qInfo("RecordStore: %lld bytes for %d records, %.2f B per record", bytes, n, perRecord);
        QVERIFY2(perRecord < 40, qPrintable(QString::number(perRecord)));
        // The columns are t_mono and t_wall (8 + 4: its drift from the predicted t_wall),
        // offset (8), qualname id and length (4 + 4) and flags (1): 29 bytes per record. Beyond
        // that only a bounded overhead: the unwritten flags of the last chunk (27 KiB here), a
        // partly written page per column (20 KiB), the qualname slots (32 KiB) and the names. A
        // column widened by a byte adds n bytes more.
        constexpr qint64 columnBytes = 8 + 4 + 8 + 4 + 4 + 1;
        constexpr qint64 overhead = 96 * 1024;
        QVERIFY2(bytes >= columnBytes * n, qPrintable(QString::number(bytes)));
        QVERIFY2(bytes < columnBytes * n + overhead,
                 qPrintable(QStringLiteral("%1 bytes, %2 over the columns")
                                .arg(bytes)
                                .arg(bytes - columnBytes * n)));
    }

    void progressIsReported() {
        const QString path = tracePath(QStringLiteral("newest-unknown-spec-tp4.lct"));
        QList<std::array<qint64, 3>> calls;
        TraceLoadOptions opt;
        opt.progress = [&](qint64 done, qint64 total, qint64 records) {
            calls.append({done, total, records});
        };
        QString error;
        auto doc = TraceLoader::load(path, &error, opt);
        QVERIFY(doc);
        QVERIFY2(calls.size() >= 2, "a 9 MB file reports progress on the way");
        for (int i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls[i][1], doc->fileSize());
            QVERIFY(calls[i][0] <= doc->fileSize());
            if (i > 0) {
                QVERIFY(calls[i][0] >= calls[i - 1][0]);
                QVERIFY(calls[i][2] >= calls[i - 1][2]);
            }
        }
        QCOMPARE(calls.last()[0], doc->fileSize());
        QCOMPARE(calls.last()[2], qint64(doc->records().size()));

        // A small file reports at least the end.
        calls.clear();
        auto small =
            TraceLoader::load(fixturePath(QStringLiteral("digest-match.lct")), &error, opt);
        QVERIFY(small);
        QVERIFY(!calls.isEmpty());
        QCOMPARE(calls.last()[2], qint64(small->records().size()));
    }

    void argsFromSeveralThreads() {
        // TraceDocument is documented as safe to use from several threads at once: args() of
        // the same records from four threads give what one thread gives.
        QString error;
        auto doc = TraceLoader::load(fixturePath(QStringLiteral("sample.lct")), &error);
        QVERIFY(doc);
        const int n = doc->records().size();
        QStringList serial;
        for (int i = 0; i < n; ++i) {
            serial.append(RecordSummary::summarize(doc->args(i)->value));
        }
        QThreadPool pool;
        pool.setMaxThreadCount(4);
        std::vector<int> work;
        for (int pass = 0; pass < 4; ++pass) {
            for (int i = 0; i < n; ++i) {
                work.push_back((i * 7 + pass * 13) % n);
            }
        }
        const QStringList parallel = QtConcurrent::blockingMapped<QStringList>(
            &pool, work, [&](int i) { return RecordSummary::summarize(doc->args(i)->value); });
        for (size_t k = 0; k < work.size(); ++k) {
            QCOMPARE(parallel[qsizetype(k)], serial[work[k]]);
        }
    }

    // --- hostile input -------------------------------------------------------------------------

    void hostileFixturesFinishFast_data() {
        QTest::addColumn<QString>("name");
        for (const char *n : {"deep-nesting.lct", "huge-array-claim.lct", "huge-map-claim.lct",
                              "huge-str-claim.lct", "huge-length-prefix.lct",
                              "huge-length-prefix-mid.lct", "garbage-run.lct"}) {
            QTest::newRow(n) << QString::fromLatin1(n);
        }
    }
    void hostileFixturesFinishFast() {
        QFETCH(QString, name);
        QElapsedTimer t;
        t.start();
        QString error;
        auto doc = TraceLoader::load(fixturePath(name), &error);
        QVERIFY2(t.elapsed() < 2000, "hang guard");
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), manifest()[name][QStringLiteral("records")].toInt());
        QVERIFY(doc->errorCount() >= 1);
    }

    void fourGiBPrefixAfterRecords() {
        SmallTrace t = smallTrace(3);
        const QByteArray b = t.bytes + be32(0xffffffffu) + t.bytes.mid(t.frameStarts[0] + 4, 40);
        QElapsedTimer timer;
        timer.start();
        auto doc = loadBytes(b);
        QVERIFY2(timer.elapsed() < 2000, "hang guard");
        QVERIFY(doc);
        QCOMPARE(doc->records().size(), 3);
        QCOMPARE(countKind(*doc, Kind::Truncated), 1);
        QVERIFY(doc->diagnostics().first().message.contains(QLatin1String("4294967295")));
    }

    // --- API details ---------------------------------------------------------------------------

    void unreadableFiles() {
        QString error;
        const QString missing = QStringLiteral("/nonexistent/dir/trace.lct");
        QVERIFY(!TraceLoader::load(missing, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QTemporaryDir dir;
        QVERIFY(!TraceLoader::load(dir.path(), &error));
        QVERIFY2(error.contains(dir.path()) && error.contains(QLatin1String("directory")),
                 qPrintable(error));
    }

    void loadAndLoadBytesAgree() {
        const QString path = fixturePath(QStringLiteral("calls-generations.lct"));
        QString error;
        auto a = TraceLoader::load(path, &error);
        auto b = TraceLoader::loadBytes(readAll(path), QStringLiteral("x"), &error);
        QVERIFY(a && b);
        QCOMPARE(a->records().size(), b->records().size());
        for (int i = 0; i < a->records().size(); ++i) {
            QCOMPARE(a->records().tMono(i), b->records().tMono(i));
            QCOMPARE(a->records().frameOffset(i), b->records().frameOffset(i));
            QCOMPARE(a->frameBytes(i), b->frameBytes(i));
        }
        QCOMPARE(a->diagnostics().size(), b->diagnostics().size());
    }

    void looksLikeTrace() {
        for (const QString &f : {tracePath(QStringLiteral("schema2-prefetch-spec-tp2.lct")),
                                 tracePath(QStringLiteral("header-only.lmct")),
                                 fixturePath(QStringLiteral("hdr-first-recorder.lct"))}) {
            QVERIFY2(TraceLoader::looksLikeTrace(readAll(f).left(64)), qPrintable(f));
        }
        QVERIFY(
            !TraceLoader::looksLikeTrace(readAll(fixturePath(QStringLiteral("not-a-trace.bin")))));
        QVERIFY(!TraceLoader::looksLikeTrace(
            readAll(fixturePath(QStringLiteral("first-frame-record.lct")))));
        QVERIFY(!TraceLoader::looksLikeTrace(QByteArray()));
        QVERIFY(!TraceLoader::looksLikeTrace(frame(headerBody()).left(16)));
    }

    void frameBytesAndNearOffset() {
        SmallTrace t = smallTrace(4);
        auto doc = loadBytes(t.bytes);
        QVERIFY(doc);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(doc->frameBytes(i),
                     t.bytes.mid(t.frameStarts[i], t.frameEnds[i] - t.frameStarts[i]));
            QCOMPARE(doc->recordNearOffset(t.frameStarts[i]), i);
            QCOMPARE(doc->recordNearOffset(t.frameEnds[i] - 1), i);
        }
        QCOMPARE(doc->recordNearOffset(0), 0);
        QCOMPARE(doc->recordNearOffset(1 << 30), 3);
        QVERIFY(doc->frameBytes(4).isEmpty());
        QVERIFY(doc->frameBytes(-1).isEmpty());
        QVERIFY(doc->args(99)->error.contains(QLatin1String("99")));
        // args are cached: the same object comes back.
        QCOMPARE(doc->args(1).get(), doc->args(1).get());
        QCOMPARE(doc->args(1)->value.find(u"keys")->size(), 2);
    }

    void filesOver4GiB() {
        // Issue #6: files over 4 GiB work (64-bit offsets everywhere). A sparse file of 4.4 GB:
        // two records whose arguments hold a 2.2 GB binary (a hole: no disk, never read by the
        // index or the argument check), then records that start past 4 GiB.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("over4g.lct"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write(frame(headerBody())) > 0);
        constexpr quint32 kBlob = 2200000000u;
        QList<qint64> starts;
        for (int i = 0; i < 2; ++i) {
            Mp args;
            args.map(1).str("blob");
            args.bytes += char(0xc6);  // bin32: its size, then the bytes (a hole here)
            args.bytes += be32(kBlob);
            const QByteArray body =
                recordBody(0.1 * (i + 1), 1.7e9 + i, storageQualname("finish_write"), args.bytes);
            starts.append(f.pos());
            QVERIFY(f.write(be32(quint32(body.size()) + kBlob) + body) > 0);
            QVERIFY(f.seek(f.pos() + kBlob));
        }
        for (int i = 2; i < 4; ++i) {
            starts.append(f.pos());
            QVERIFY(f.write(frame(recordBody(0.1 * (i + 1), 1.7e9 + i,
                                             storageQualname("reserve_write"), keysArgs(1, i)))) >
                    0);
        }
        f.close();
        QVERIFY(QFileInfo(path).size() > (qint64(1) << 32));
        QVERIFY(starts[2] > (qint64(1) << 32));
        QString error;
        auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        const RecordStore &rs = doc->records();
        QCOMPARE(rs.size(), 4);
        QVERIFY2(doc->errorCount() == 0, qPrintable(doc->diagnostics().value(0).message));
        QVERIFY(doc->argsChecked());
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(rs.frameOffset(i), starts[i]);
            QCOMPARE(rs.tMono(i), 0.1 * (i + 1));
        }
        QCOMPARE(rs.bodyLength(0), quint32(rs.frameOffset(1) - rs.frameOffset(0) - 4));
        // the records past 4 GiB decode, are found by offset and filter like any other
        QCOMPARE(doc->args(3)->value.find(u"keys")->size(), 1);
        QCOMPARE(doc->recordNearOffset(starts[3] + 5), 3);
        const auto found =
            FilterEvaluator(doc, FilterExpression::parse(QStringLiteral("keys.count == 1")))
                .run()
                .records;
        QCOMPARE(found, (std::vector<int>{2, 3}));
        QCOMPARE(qint64(doc->frameBytes(3).size()), QFileInfo(path).size() - starts[3]);
        // and `lmct dump` lists the records past 4 GiB
        const test::ProcessRun dump =
            test::runLmct({QStringLiteral("dump"), QStringLiteral("--filter"),
                           QStringLiteral("call == reserve_write"), path});
        QVERIFY2(dump.exitCode == 0, dump.err.constData());
        QCOMPARE(dump.out.count('\n'), 2);
        const QList<QByteArray> lines = dump.out.trimmed().split('\n');
        QVERIFY2(lines.size() == 2 &&
                     lines[0].simplified().startsWith("2 0.300000 reserve_write") &&
                     lines[1].simplified().startsWith("3 0.400000 reserve_write"),
                 dump.out.constData());
    }

    void workerThreadsTakeTheWorkerNice() {
        // lmct-viewer's background work ran at the GUI thread's priority and, on 2 cores, kept
        // it waiting for a CPU up to 144 ms while a 10 M record trace loaded. Worker threads
        // take WorkerPriority's nice value; the main thread keeps its own.
        QCOMPARE(WorkerPriority::workerNice(), 0);  // the default (lmct) changes nothing
        const int mainNice = getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
        WorkerPriority::setWorkerNice(7);
        QMutex mutex;
        QList<QPair<bool, int>> seen;  // (on the main thread, nice value)
        ParallelChunks::run(64, [&](int) {
            QThread::msleep(2);  // long enough for the pool's threads to take items too
            const bool onMain = QThread::currentThread() == QCoreApplication::instance()->thread();
            const int nice = getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
            QMutexLocker lock(&mutex);
            seen.append({onMain, nice});
        });
        // A job started on a pool thread takes it too, before its own work.
        const int jobNice = QtConcurrent::run([] {
                                WorkerPriority::applyToCurrentThread();
                                return getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
                            }).result();
        WorkerPriority::setWorkerNice(0);  // (restored where allowed: as root)
        QCOMPARE(jobNice, 7);
        int onWorkers = 0;
        for (const auto &[onMain, nice] : std::as_const(seen)) {
            QCOMPARE(nice, onMain ? mainNice : 7);
            onWorkers += onMain ? 0 : 1;
        }
        QVERIFY(onWorkers > 0);
        QCOMPARE(getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid))), mainNice);
    }
};

QTEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_traceloader.moc"
