// Viewer exports: `lmct-viewer --export-png/svg/pdf` run headless (no DISPLAY), rendering the
// app's TimelineWidget, and the File > Export writers (records in table order, statistics,
// header, Chrome JSON, SQLite off the GUI thread with Cancel, screenshot).

#include "common/jobpool.h"
#include "common/plotexport.h"
#include "exportcheck.h"
#include "records/recordtableview.h"
#include "shell/exportactions.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "smalldisk.h"
#include "sqlitequery.h"
#include "testutil.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <unistd.h>

using namespace lmct;
using lmct::test::grayVariance;
using lmct::test::svgText;

namespace {

const QString kTrace = QStringLiteral(LMCT_TRACES "/malformed-record.lmct");
const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

/**
 * Runs lmct-viewer with no display at all (no DISPLAY, WAYLAND_DISPLAY, QT_QPA_PLATFORM), or
 * with `display` as DISPLAY.
 */
test::ProcessRun runViewer(const QStringList &args, const QString &display = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    if (!display.isEmpty()) {
        env.insert(QStringLiteral("DISPLAY"), display);
    }
    return test::runProgram(QStringLiteral(LMCT_BIN_DIR "/lmct-viewer"), args, env, 120000);
}

int countDir(const QString &path) {
    return int(QDir(path).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size());
}

}  // namespace

class TestGuiExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_export"));
        QSettings().clear();
    }

    void pngHasRequestedSizeAndIsNotBlank() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.png"));
        const test::ProcessRun r = runViewer(
            {QStringLiteral("--export-png"), out, QStringLiteral("--size"),
             QStringLiteral("800x450"), QStringLiteral("--scale"), QStringLiteral("2"), kTrace});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QImage img(out);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(1600, 900));
        QVERIFY(grayVariance(img) > 0);
        // no platform noise on stderr
        QVERIFY2(!r.err.contains("This plugin does not support"), r.err.constData());
        // Keep one for people to look at (build/tests/export-sample.png).
        QFile::remove(QStringLiteral("export-sample.png"));
        QFile::copy(out, QStringLiteral("export-sample.png"));
    }

    void pngWithFilterAndRange() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.png"));
        const test::ProcessRun r =
            runViewer({QStringLiteral("--export-png"), out, QStringLiteral("--filter"),
                       QStringLiteral("call == reserve_write"), QStringLiteral("--range"),
                       QStringLiteral("0.2:0.8"), kTrace});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage img(out);
        QCOMPARE(img.size(), QSize(1600, 900));  // the default size
        QVERIFY(grayVariance(img) > 0);
    }

    void regression_rangePastTheTraceIsCutAndSaid() {
        // --range 0:1000 on a 1.3 s trace drew 0.3 … 2.3 s (re-centred) under a caption saying
        // "t_mono 0.000000 …", and --range -5:3 an axis from -4 s: the range is now cut to the
        // trace (with the fitted view's margin), stderr says so, and the caption gives what the
        // axis shows.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r.svg"));
        QString text;
        auto exportRange = [&](const QString &range) {
            QFile::remove(out);
            const test::ProcessRun r = runViewer(
                {QStringLiteral("--export-svg"), out, QStringLiteral("--range"), range, kTrace});
            bool ok = false;
            text = r.exitCode == 0 ? svgText(out, &ok) : QString();
            return r;
        };
        // The trace's end: its truth file's duration.
        const QString end = QString::number(
            test::traceTruth(QStringLiteral("malformed-record.lmct"))[QStringLiteral("duration_s")]
                .toDouble(),
            'f', 6);
        QVERIFY(end.toDouble() > 1.0 && end.toDouble() < 2.0);
        const test::ProcessRun r = exportRange(QStringLiteral("0:1000"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // cut to the records exactly, not to the fitted view's 1% margin past them
        QVERIFY2(r.err.contains(QStringLiteral("--range 0:1000 reaches past the trace (t_mono "
                                               "0.000000 … %1 s): showing t_mono 0.000000 … %1 s")
                                    .arg(end)
                                    .toUtf8()),
                 r.err.constData());
        QVERIFY2(text.contains(QStringLiteral("t_mono 0.000000 … ") + end.left(3)),
                 qPrintable(text.left(400)));
        QVERIFY2(!text.contains(QStringLiteral("2.0 s")),
                 qPrintable(text.left(400)));  // no tick past the end

        const test::ProcessRun r2 = exportRange(QStringLiteral("-5:1"));
        QVERIFY2(r2.exitCode == 0, r2.err.constData());
        QVERIFY2(!text.contains(QStringLiteral("−1 s")) && !text.contains(QStringLiteral("-1 s")),
                 qPrintable(text.left(400)));
        QVERIFY2(text.contains(QStringLiteral("… 1.000000 s")), qPrintable(text.left(400)));

        // wholly outside the trace: a usage error, no file
        const test::ProcessRun r3 = exportRange(QStringLiteral("100:200"));
        QCOMPARE(r3.exitCode, 1);
        QVERIFY2(r3.err.contains(QStringLiteral("--range 100:200 lies outside the trace (t_mono "
                                                "0.000000 … %1 s)")
                                     .arg(end)
                                     .toUtf8()),
                 r3.err.constData());
        QVERIFY(!QFile::exists(out));
        // in the fitted view's margin past the last record: outside too (an empty
        // picture and no note); an empty range: its own usage error
        const test::ProcessRun r4 = exportRange(QStringLiteral("1.32:1.33"));
        QCOMPARE(r4.exitCode, 1);
        QVERIFY2(r4.err.contains("--range 1.32:1.33 lies outside the trace"), r4.err.constData());
        const test::ProcessRun r5 = exportRange(QStringLiteral("1:1"));
        QCOMPARE(r5.exitCode, 1);
        QVERIFY2(r5.err.contains("--range 1:1 is empty: expected T0 < T1"), r5.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void filterHidesWhatItExcludes() {
        // The exported picture shows what --filter selects: records it excludes are hidden (not
        // dimmed as the user may prefer on screen), so a filter matching nothing leaves the
        // lanes without a coloured tick.
        QTemporaryDir dir;
        const auto colouredPixels = [&](const QStringList &extra) {
            const QString out = dir.filePath(QStringLiteral("f.png"));
            QFile::remove(out);
            const test::ProcessRun r =
                runViewer(QStringList{QStringLiteral("--export-png"), out, QStringLiteral("--size"),
                                      QStringLiteral("800x450")} +
                          extra + QStringList{kTrace});
            if (r.exitCode != 0) {
                qWarning() << r.err;
                return qint64(-1);
            }
            const QImage img(out);
            qint64 n = 0;
            for (int y = 0; y < img.height(); ++y) {
                for (int x = 0; x < img.width(); ++x) {
                    const QColor c = img.pixelColor(x, y);
                    n += c.hslSaturation() > 20 && c.value() > 60 ? 1 : 0;  // faint tints too
                }
            }
            return n;
        };
        const qint64 all = colouredPixels({});
        const qint64 none =
            colouredPixels({QStringLiteral("--filter"), QStringLiteral("t_mono < 0")});
        QVERIFY(all > 0);
        QVERIFY(none >= 0);
        QVERIFY2(none * 4 < all, qPrintable(QStringLiteral("%1 vs %2").arg(none).arg(all)));
    }

    void regression_hugeImageIsAUsageError() {
        // 20000x20000 at scale 8 passed the checks, grew to GBs, then failed as "cannot write:
        // empty image" (exit 2) after a minute.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("huge.png"));
        const test::ProcessRun r =
            runViewer({QStringLiteral("--export-png"), out, QStringLiteral("--size"),
                       QStringLiteral("20000x20000"), QStringLiteral("--scale"),
                       QStringLiteral("8"), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("160000 x 160000 pixel image"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void svgParsesAndHoldsLaneNames() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.svg"));
        const test::ProcessRun r = runViewer({QStringLiteral("--export-svg"), out, kTrace});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        bool ok = false;
        const QString text = svgText(out, &ok);
        QVERIFY(ok);
        for (const char *lane : {"reserve_write", "finish_write", "submit_prefetch_task",
                                 "read_prefetched_results.__enter__", "finish_read_prefetched"}) {
            QVERIFY2(text.contains(QLatin1String(lane)), lane);
        }
        QVERIFY(text.contains(QStringLiteral("malformed-record.lmct")));  // the caption
        QVERIFY(text.contains(QStringLiteral("no filter")));
        // the app's timeline: its rate plot and time axis caption
        QVERIFY(text.contains(QStringLiteral("calls/s")));
        QVERIFY(text.contains(QStringLiteral("t_mono")));
        // the lanes are shapes: each call row was an embedded raster image
        const QByteArray svg = test::readAll(out);
        QVERIFY2(!svg.contains("<image"), "the SVG embeds an image");
        // ...and drawn: a path per lane colour (each call row once drew nothing but its heads)
        QVERIFY2(svg.count("<path") >= 5, qPrintable(QString::number(svg.count("<path"))));
    }

    void regression_svgTitleIsTheSubject() {
        // the <title> of `--export-svg OUT` was OUT's file name
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("picture.svg"));
        const test::ProcessRun r = runViewer({QStringLiteral("--export-svg"), out, kSchema2});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(test::svgTitle(out), QStringLiteral("schema2-prefetch-spec-tp2.lct — timeline"));
    }

    void captionHoldsFileRangeAndFilter() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.svg"));
        const test::ProcessRun r =
            runViewer({QStringLiteral("--export-svg"), out, QStringLiteral("--filter"),
                       QStringLiteral("call == reserve_write"), QStringLiteral("--range"),
                       QStringLiteral("1s:3s"), kSchema2});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        bool ok = false;
        const QString text = svgText(out, &ok);
        QVERIFY(ok);
        QVERIFY2(text.contains(QStringLiteral("schema2-prefetch-spec-tp2.lct")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("t_mono 1.000000 … 3.000000 s")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("filter: call == reserve_write")), qPrintable(text));
    }

    void referenceTracePngAtScale() {
        // The reference trace at 1600x900, scale 2: 3200x1800 pixels, not blank.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s2.png"));
        const test::ProcessRun r = runViewer(
            {QStringLiteral("--export-png"), out, QStringLiteral("--size"),
             QStringLiteral("1600x900"), QStringLiteral("--scale"), QStringLiteral("2"), kSchema2});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage img(out);
        QCOMPARE(img.size(), QSize(3200, 1800));
        QVERIFY(grayVariance(img) > 100);
        QFile::remove(QStringLiteral("export-schema2.png"));
        QFile::copy(out, QStringLiteral("export-schema2.png"));  // build/tests/, to look at
    }

    void exportIgnoresAStaleDisplay() {
        // DISPLAY names no X server: the export still renders offscreen.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.png"));
        const test::ProcessRun r =
            runViewer({QStringLiteral("--export-png"), out, QStringLiteral("--size"),
                       QStringLiteral("320x200"), kTrace},
                      QStringLiteral(":987"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QImage(out).size(), QSize(320, 200));
    }

    void pdfIsPdf() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("t.pdf"));
        const test::ProcessRun r = runViewer({QStringLiteral("--export-pdf"), out, kTrace});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray pdf = test::readAll(out);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.size() > 1000);
        // vector lanes: no image object (each call row was one)
        QVERIFY2(!pdf.contains("/Subtype /Image"), "the PDF embeds an image");
    }

    void exportErrors() {
        QTemporaryDir dir;
        test::ProcessRun r = runViewer(
            {QStringLiteral("--export-png"), QStringLiteral("/nonexistent/dir/out.png"), kTrace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot write /nonexistent/dir/out.png"), r.err.constData());
        r = runViewer({QStringLiteral("--export-svg"), dir.path(), kTrace});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("directory"), r.err.constData());
        const QString out = dir.filePath(QStringLiteral("o.png"));
        r = runViewer({QStringLiteral("--export-png"), out, QStringLiteral("--filter"),
                       QStringLiteral("call =="), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("invalid filter"), r.err.constData());
        r = runViewer({QStringLiteral("--export-png"), out, QStringLiteral("--size"),
                       QStringLiteral("big"), kTrace});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("--size"));
        r = runViewer({QStringLiteral("--export-png"), out, QStringLiteral("/nonexistent.lct")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(countDir(dir.path()), 0);  // nothing half-written
        // the input trace is never the output
        QTemporaryDir other;
        const QString copy = other.filePath(QStringLiteral("copy.lmct"));
        QVERIFY(QFile::copy(kTrace, copy));
        const QByteArray before = test::readAll(copy);
        r = runViewer({QStringLiteral("--export-png"), copy, copy});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("input trace"), r.err.constData());
        QCOMPARE(test::readAll(copy), before);
    }

    void regression_fullDiskFailsEveryFormat() {
        // `--export-svg` onto a full disk exited 0 and left a truncated SVG; `--export-png`
        // printed libpng's "Write Error" before its own message. Each format exits 2, says once
        // that the disk is full and leaves no file.
        const test::SmallDisk disk;
        if (!disk.isMounted()) {
            QSKIP("cannot mount a small tmpfs here (needs root)");
        }
        for (const QString format :
             {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
            const QString out = disk.filePath(QStringLiteral("x.") + format);
            const test::ProcessRun r =
                runViewer({QStringLiteral("--export-") + format, out, QStringLiteral("--scale"),
                           QStringLiteral("8"), kSchema2});
            QVERIFY2(r.exitCode == 2, qPrintable(format + QLatin1Char(' ') + r.err));
            QVERIFY2(disk.files().isEmpty(), qPrintable(disk.files().join(QLatin1Char(' '))));
            QVERIFY2(!r.err.contains("libpng"), r.err.constData());
            QVERIFY2(r.err.count("cannot write") == 1, r.err.constData());
            QVERIFY2(r.err.contains(QStringLiteral("cannot write %1: no space left on the device")
                                        .arg(out)
                                        .toUtf8()),
                     r.err.constData());
        }
    }

    void regression_headlessRunsSayNothingOnSuccess() {
        // Every headless run without XDG_RUNTIME_DIR (cron, CI, ssh) printed Qt's
        // "QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to …": a successful export or
        // report prints nothing.
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        const QList<QStringList> runs = {
            {QStringLiteral("--export-png"), dir.filePath(QStringLiteral("t.png"))},
            {QStringLiteral("--export-svg"), dir.filePath(QStringLiteral("t.svg"))},
            {QStringLiteral("--export-pdf"), dir.filePath(QStringLiteral("t.pdf"))},
            {QStringLiteral("--report"), dir.filePath(QStringLiteral("r.pdf"))},
            {QStringLiteral("--report"), dir.filePath(QStringLiteral("r.html"))}};
        for (const QStringList &args : runs) {
            const test::ProcessRun r = test::runProgram(QStringLiteral(LMCT_BIN_DIR "/lmct-viewer"),
                                                        args + QStringList{kSchema2}, env, 120000);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), qPrintable(args.first() + QLatin1Char(' ') + r.err));
        }
        // other messages still reach stderr
        const test::ProcessRun bad =
            test::runProgram(QStringLiteral(LMCT_BIN_DIR "/lmct-viewer"),
                             {QStringLiteral("--export-png"), dir.path(), kSchema2}, env, 120000);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.startsWith("lmct-viewer: cannot write"), bad.err.constData());
    }

    void regression_suffixOfAnotherFormatIsRefused() {
        // `--export-png x.jpg` wrote a PNG named .jpg: a suffix naming another picture format
        // is a usage error (as --report refuses an unknown suffix), checked before the trace is
        // read; the format's own suffix in any case, none or one of no format still export.
        QTemporaryDir dir;
        const struct {
            QString option, name;
        } refused[] = {{QStringLiteral("--export-png"), QStringLiteral("x.jpg")},
                       {QStringLiteral("--export-png"), QStringLiteral("x.JPEG")},
                       {QStringLiteral("--export-png"), QStringLiteral("x.svg")},
                       {QStringLiteral("--export-svg"), QStringLiteral("x.png")},
                       {QStringLiteral("--export-svg"), QStringLiteral("x.pdf")},
                       {QStringLiteral("--export-pdf"), QStringLiteral("x.ps")}};
        for (const auto &c : refused) {
            const QString out = dir.filePath(c.name);
            const QString format = c.option.mid(int(qstrlen("--export-")));
            const test::ProcessRun r =
                runViewer({c.option, out, QStringLiteral("/nonexistent.lct")});
            QVERIFY2(r.exitCode == 1, qPrintable(c.option + QLatin1Char(' ') + r.err));
            const QString said =
                QStringLiteral(
                    "lmct-viewer: %1 %2: expected a file name ending in .%3 for a %4, "
                    "found .%5\n")
                    .arg(c.option, out, format, format.toUpper(), QFileInfo(out).suffix());
            QCOMPARE(QString::fromUtf8(r.err), said);
        }
        QCOMPARE(countDir(dir.path()), 0);
        const struct {
            QString option, name;
        } written[] = {{QStringLiteral("--export-png"), QStringLiteral("x")},
                       {QStringLiteral("--export-png"), QStringLiteral("x.PNG")},
                       {QStringLiteral("--export-svg"), QStringLiteral("x.out")},
                       {QStringLiteral("--export-pdf"), QStringLiteral("x.v2")}};
        for (const auto &c : written) {
            const QString out = dir.filePath(c.name);
            const test::ProcessRun r = runViewer(
                {c.option, out, QStringLiteral("--size"), QStringLiteral("400x300"), kSchema2});
            QVERIFY2(r.exitCode == 0, qPrintable(c.name + QLatin1Char(' ') + r.err));
            QVERIFY(QFileInfo(out).size() > 0);
        }
    }

    void fileExportMenuWriters() {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(900, 600);
        w.show();
        TraceTab *tab = test::openAndWait(w, kTrace);
        QVERIFY(tab);
        QVERIFY(tab->document());
        const std::vector<int> rows = ExportActions::tableRecords(*tab);
        QCOMPARE(qsizetype(rows.size()), qsizetype(tab->document()->records().size()));

        QString error;
        const QString csv = dir.filePath(QStringLiteral("r.csv"));
        QVERIFY2(ExportActions::write(*tab, ExportActions::Kind::RecordsCsv, csv, &error),
                 qPrintable(error));
        QCOMPARE(test::readAll(csv).count("\r\n"), qsizetype(rows.size()) + 1);
        const QString jsonl = dir.filePath(QStringLiteral("r.jsonl"));
        QVERIFY(ExportActions::write(*tab, ExportActions::Kind::RecordsJsonl, jsonl, &error));
        QCOMPARE(test::readAll(jsonl).count('\n'), qsizetype(rows.size()));
        const QString stats = dir.filePath(QStringLiteral("s.csv"));
        QVERIFY(ExportActions::write(*tab, ExportActions::Kind::StatisticsCsv, stats, &error));
        QVERIFY(test::readAll(stats).contains("reserve_write"));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("s-models.csv"))));
        const QString header = dir.filePath(QStringLiteral("h.json"));
        QVERIFY(ExportActions::write(*tab, ExportActions::Kind::HeaderJson, header, &error));
        const QJsonObject h = QJsonDocument::fromJson(test::readAll(header)).object();
        QCOMPARE(h.value(QStringLiteral("sm_config"))
                     .toObject()
                     .value(QStringLiteral("chunk_size"))
                     .toInt(),
                 256);
        // as lmct info --json and the truth files write it (it was hex)
        QCOMPARE(h.value(QStringLiteral("header")).toObject().value(QStringLiteral("magic")),
                 QJsonValue(QStringLiteral("LMCT")));
        const QString chrome = dir.filePath(QStringLiteral("c.json"));
        QVERIFY(ExportActions::write(*tab, ExportActions::Kind::ChromeJson, chrome, &error));
        QVERIFY(QJsonDocument::fromJson(test::readAll(chrome))
                    .object()
                    .contains(QStringLiteral("traceEvents")));

        // Unwritable: an error naming the path, no file.
        QVERIFY(!ExportActions::write(*tab, ExportActions::Kind::RecordsCsv,
                                      QStringLiteral("/nonexistent/dir/r.csv"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent/dir/r.csv")));
        QVERIFY(!ExportActions::write(*tab, ExportActions::Kind::ChromeJson, dir.path(), &error));

        const QString db = dir.filePath(QStringLiteral("t.db"));
        QVERIFY2(ExportActions::write(*tab, ExportActions::Kind::Sqlite, db, &error),
                 qPrintable(error));
        QCOMPARE(test::SqliteQuery(db).integer(QStringLiteral("select count(*) from records")),
                 qint64(rows.size()));

        // Another trace open in the window (named as an export might be): no export of this
        // tab writes over it, by its name or a hard link to it.
        const QString other = dir.filePath(QStringLiteral("other.csv"));
        QVERIFY(QFile::copy(kSchema2, other));
        const QString otherLink = dir.filePath(QStringLiteral("other-link.png"));
        QCOMPARE(
            ::link(QFile::encodeName(other).constData(), QFile::encodeName(otherLink).constData()),
            0);
        TraceTab *otherTab = test::openAndWait(w, other);
        QVERIFY(otherTab && otherTab != tab);
        const QByteArray otherBytes = test::readAll(other);
        for (ExportActions::Kind kind :
             {ExportActions::Kind::RecordsCsv, ExportActions::Kind::RecordsJsonl,
              ExportActions::Kind::StatisticsCsv, ExportActions::Kind::HeaderJson,
              ExportActions::Kind::ChromeJson, ExportActions::Kind::Sqlite}) {
            for (const QString &target : {other, otherLink}) {
                QVERIFY2(!ExportActions::write(*tab, kind, target, &error),
                         qPrintable(QStringLiteral("kind %1 to %2").arg(int(kind)).arg(target)));
                QVERIFY2(error.contains(QStringLiteral("input trace")), qPrintable(error));
                QCOMPARE(test::readAll(other), otherBytes);
            }
        }
        QVERIFY(!ExportActions::writeScreenshot(&w, otherLink, &error));
        QCOMPARE(test::readAll(other), otherBytes);

        const QString png = dir.filePath(QStringLiteral("w.png"));
        QVERIFY(ExportActions::writeScreenshot(&w, png, &error));
        const QImage shot(png);
        QCOMPARE(shot.size(), w.size() * w.devicePixelRatio());
        QVERIFY(grayVariance(shot) > 0);
    }

    void sqliteExportRunsInTheBackground() {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(900, 600);
        w.show();
        TraceTab *tab = test::openAndWait(w, kSchema2);
        QVERIFY(tab);
        auto *actions = w.findChild<ExportActions *>();
        QVERIFY(actions);
        bool offered = false;
        for (const QAction *a : w.findChildren<QAction *>()) {
            offered =
                offered || a->text().remove(QLatin1Char('&')).contains(QStringLiteral("SQLite"));
        }
        QVERIFY(offered);
        QSignalSpy done(actions, &ExportActions::sqliteExportFinished);

        const QString out = dir.filePath(QStringLiteral("bg.db"));
        actions->startSqliteExport(out);
        QCOMPARE(done.count(), 0);  // returned at once: the job runs off the GUI thread
        QVERIFY(w.findChild<QProgressDialog *>());
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        test::SqliteQuery db(out);
        QCOMPARE(db.integer(QStringLiteral("select count(*) from records")),
                 qint64(tab->document()->records().size()));
        QVERIFY(db.integer(QStringLiteral("select count(*) from keys")) > 0);
        QTRY_VERIFY(!w.findChild<QProgressDialog *>());  // deleted once done

        // Cancel in the progress dialog: nothing is written, no message box.
        done.clear();
        const QString cancelled = dir.filePath(QStringLiteral("cancelled.db"));
        actions->startSqliteExport(cancelled);
        auto *dialog = w.findChild<QProgressDialog *>();
        QVERIFY(dialog);
        auto *cancelButton = dialog->findChild<QPushButton *>();
        QVERIFY(cancelButton);
        cancelButton->click();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QCOMPARE(done.at(0).at(1).toString(), QStringLiteral("cancelled"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
                 QStringList{QStringLiteral("bg.db")});

        // Closing the window while it writes stops it too.
        auto *other = new MainWindow;
        other->show();
        QVERIFY(test::openAndWait(*other, kSchema2));
        other->findChild<ExportActions *>()->startSqliteExport(
            dir.filePath(QStringLiteral("closed.db")));
        delete other;
        QVERIFY(JobPool::instance()->waitForDone(60000));
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
                 QStringList{QStringLiteral("bg.db")});
    }
};

QTEST_MAIN(TestGuiExport)
#include "tst_gui_export.moc"
