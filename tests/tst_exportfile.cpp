// ExportFile refuses every trace the process reads as a target, by file identity: the input
// trace named another way (a hard link, a symbolic link, a relative path), and any trace a
// TraceFile has open (the other trace of a comparison, another tab's), for every export that
// passes through it (record exports, SQLite); once the trace is closed the path is free again.

#include "export/exportfile.h"
#include "export/sqliteexport.h"
#include "testutil.h"
#include "trace/opentraces.h"
#include "trace/traceloader.h"
#include "util/fileidentity.h"

#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace lmct;
using namespace lmct::test;

namespace {

const QString kTrace = tracePath(QStringLiteral("late2026-release.lct"));

/** Writes "x" to `path` through ExportFile; the message in `error`. */
bool writeX(const QString &path, QString *error, const QString &input = {}) {
    return ExportFile::write(
        path, [](QIODevice *out, QString *) { return out->write("x") == 1; }, error, input);
}

}  // namespace

class TestExportFile : public QObject {
    Q_OBJECT

private slots:
    void regression_fullDiskIsSaidInWords() {
        // Issue #21: an export onto a full disk said "cannot write F: Unknown error" (QFileDevice
        // loses ENOSPC in its buffered writes). A 256 KiB tmpfs stands for the full disk; it
        // needs mount(2), so the case is skipped where that is not allowed.
        QTemporaryDir dir;
        const QString mnt = dir.filePath(QStringLiteral("small"));
        QVERIFY(QDir().mkpath(mnt));
        if (QProcess::execute(QStringLiteral("mount"),
                              {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                               QStringLiteral("size=256k"), QStringLiteral("tmpfs"), mnt}) != 0) {
            QSKIP("cannot mount a small tmpfs here (needs root)");
        }
        const QString out = mnt + QStringLiteral("/records.csv");
        QString error;
        const bool ok = ExportFile::write(
            out,
            [](QIODevice *dev, QString *why) {
                const QByteArray block(64 * 1024, 'x');
                for (int i = 0; i < 16; ++i) {
                    if (dev->write(block) != block.size()) {
                        *why = dev->errorString();
                        return false;
                    }
                }
                return true;
            },
            &error);
        const QStringList left = QDir(mnt).entryList(QDir::Files | QDir::Hidden);
        QProcess::execute(QStringLiteral("umount"), {mnt});
        QVERIFY(!ok);
        QVERIFY2(!error.contains(QStringLiteral("Unknown error")), qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot write %1: no space left on the device "
                                                 "holding %2 (")
                                      .arg(out, mnt)),
                 qPrintable(error));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));  // nothing behind
    }

    void regression_aFileInThePathIsNotCalledAMissingFolder() {
        // OUT under a regular file was refused with "the folder … does not exist"
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain"));
        QVERIFY(writeX(file, nullptr));
        for (const QString &out :
             {file + QStringLiteral("/out.csv"), file + QStringLiteral("/deeper/out.csv")}) {
            QString error;
            QVERIFY(!writeX(out, &error));
            QVERIFY2(error.contains(file + QStringLiteral(" is a file, not a folder")),
                     qPrintable(error));
        }
        QString error;
        QVERIFY(!writeX(dir.filePath(QStringLiteral("none/out.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("the folder %1 does not exist")
                                    .arg(dir.filePath(QStringLiteral("none")))),
                 qPrintable(error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("x"));  // the file in the way is untouched
    }

    void fileIdentityFollowsLinks() {
        QTemporaryDir dir;
        const QString a = writeFile(dir, QStringLiteral("a.lct"), readAll(kTrace));
        const QString hard = dir.filePath(QStringLiteral("hard.pdf"));
        const QString soft = dir.filePath(QStringLiteral("soft.pdf"));
        QCOMPARE(::link(QFile::encodeName(a).constData(), QFile::encodeName(hard).constData()), 0);
        QVERIFY(QFile::link(a, soft));
        QVERIFY(FileIdentity::same(a, hard));
        QVERIFY(FileIdentity::same(a, soft));
        QVERIFY(FileIdentity::same(a, dir.path() + QStringLiteral("/./a.lct")));
        QVERIFY(!FileIdentity::same(a, kTrace));
        QVERIFY(!FileIdentity::same(a, dir.filePath(QStringLiteral("missing"))));
        QVERIFY(!FileIdentity::of(QString()));
    }

    void inputTraceByAnotherNameIsRefused() {
        QTemporaryDir dir;
        const QByteArray bytes = readAll(kTrace);
        const QString a = writeFile(dir, QStringLiteral("a.lct"), bytes);
        const QString hard = dir.filePath(QStringLiteral("a-link.pdf"));
        QCOMPARE(::link(QFile::encodeName(a).constData(), QFile::encodeName(hard).constData()), 0);
        QString error;
        // not open: refused as the input named, through a hard link
        QVERIFY(!ExportFile::checkTarget(hard, &error, a));
        QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
        QVERIFY(!writeX(hard, &error, a));
        QCOMPARE(readAll(a), bytes);
        // another file is written
        QVERIFY2(writeX(dir.filePath(QStringLiteral("out.pdf")), &error, a), qPrintable(error));
    }

    void everyOpenTraceIsRefused() {
        QTemporaryDir dir;
        const QByteArray bytes = readAll(kTrace);
        const QString a = writeFile(dir, QStringLiteral("a.lct"), bytes);
        const QString b = writeFile(dir, QStringLiteral("b.pdf"), bytes);
        const QString hardB = dir.filePath(QStringLiteral("b-link.html"));
        QCOMPARE(::link(QFile::encodeName(b).constData(), QFile::encodeName(hardB).constData()), 0);
        QString error;
        QVERIFY(OpenTraces::openAs(b).isEmpty());
        {
            auto docA = TraceLoader::load(a, &error);
            auto docB = TraceLoader::load(b, &error);
            QVERIFY(docA && docB);
            QCOMPARE(OpenTraces::openAs(hardB), b);
            // exporting A (its input named) to B, or to a link to B: refused
            for (const QString &target : {b, hardB}) {
                QVERIFY(!ExportFile::checkTarget(target, &error, a));
                QVERIFY2(error.contains(QStringLiteral("input trace b.pdf")), qPrintable(error));
                QVERIFY(!writeX(target, &error, a));
                QVERIFY(!writeX(target, &error));  // no input named at all
                SqliteExport::Options o;
                o.inputPath = a;
                QVERIFY(!SqliteExport::write(target, *docA, {0}, o, nullptr, &error));
                QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
            }
            QCOMPARE(readAll(b), bytes);
            QCOMPARE(readAll(a), bytes);
        }
        // closed: the path is an ordinary file again
        QVERIFY(OpenTraces::openAs(b).isEmpty());
        QVERIFY2(writeX(hardB, &error), qPrintable(error));
        QCOMPARE(readAll(hardB), QByteArray("x"));
    }

    void aTraceOpenedWhileWritingIsNotReplaced() {
        QTemporaryDir dir;
        const QByteArray bytes = readAll(kTrace);
        const QString b = writeFile(dir, QStringLiteral("b.csv"), bytes);
        std::shared_ptr<const TraceDocument> opened;
        QString error;
        const bool ok = ExportFile::write(
            b,
            [&](QIODevice *out, QString *) {
                QString why;
                opened = TraceLoader::load(b, &why);  // opened as the export runs
                return out->write("x") == 1;
            },
            &error);
        QVERIFY(opened);
        QVERIFY(!ok);
        QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
        QCOMPARE(readAll(b), bytes);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("b.csv")});
    }
};

QTEST_GUILESS_MAIN(TestExportFile)
#include "tst_exportfile.moc"
