// Trace reports as files: `lmct-viewer --report OUT.pdf|OUT.html [--filter] [--range] FILE` and
// `--report OUT --compare A B` on the offscreen platform, and File > Export Report…. The PDF
// renders with pdftoppm to non-blank pages, as many as its footers count, with selectable text;
// the HTML is well-formed XHTML with every section, inline SVGs that parse, no script and no
// external reference; bad input, a bad path or a bad suffix exit non-zero, say why and write
// nothing.

#include "combinefixture.h"
#include "common/captionedexport.h"
#include "common/plotexport.h"
#include "comparefixture.h"
#include "comparisonlink.h"
#include "exportcheck.h"
#include "pdfcheck.h"
#include "report/comparisonreport.h"
#include "report/reportjob.h"
#include "report/reportpdfwriter.h"
#include "report/reportpictures.h"
#include "report/reporttimeline.h"
#include "report/tracereport.h"
#include "shell/comparetab.h"
#include "shell/exportactions.h"
#include "shell/mainwindow.h"
#include "shell/reportactions.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "timeline/timelinerateplot.h"
#include "timeline/timelinewidget.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <unistd.h>
#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>

using namespace lmct;
using namespace lmct::test;

namespace {

QString viewerPath() {
    return QStringLiteral(LMCT_BIN_DIR "/lmct-viewer");
}

ProcessRun runViewer(const QStringList &args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return runProgram(viewerPath(), args, env);
}

/** What an XHTML report holds, read with QXmlStreamReader. */
struct Html {
    bool wellFormed = false;
    QString error;
    QStringList sections;    ///< ids of <section>
    QStringList svgs;        ///< each <svg> element, as text
    QStringList references;  ///< every href / src / xlink:href value
    int scripts = 0;         ///< <script>, <link>, <iframe>, <object>, <embed>, <img>
    QString text;
};

Html readHtml(const QByteArray &bytes) {
    Html h;
    const QString doc = QString::fromUtf8(bytes);
    QXmlStreamReader xml(doc);  // (offsets in characters of `doc`)
    int svgDepth = 0;
    qsizetype svgOpen = -1;
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const QString name = xml.name().toString();
            if (name == QLatin1String("section")) {
                h.sections << xml.attributes().value(QLatin1String("id")).toString();
            }
            if (name == QLatin1String("svg") && svgDepth++ == 0) {
                svgOpen = doc.lastIndexOf(QLatin1String("<svg"), xml.characterOffset());
            }
            for (const char *el : {"script", "link", "iframe", "object", "embed", "img"}) {
                h.scripts += name == QLatin1String(el);
            }
            for (const QXmlStreamAttribute &a : xml.attributes()) {
                const QString n = a.name().toString();
                if (n == QLatin1String("href") || n == QLatin1String("src")) {
                    h.references << a.value().toString();
                }
            }
        } else if (token == QXmlStreamReader::EndElement && xml.name() == QLatin1String("svg")) {
            if (--svgDepth == 0) {
                h.svgs << doc.mid(svgOpen, xml.characterOffset() - svgOpen);
            }
        } else if (token == QXmlStreamReader::Characters) {
            h.text += xml.text();
        }
    }
    h.wellFormed = !xml.hasError();
    h.error = xml.errorString();
    return h;
}

}  // namespace

namespace {

/** Writes `content` as a PDF to `out` (no pictures); the text of each page, or empty when the
 *  write fails (`error` says why). */
QStringList pdfPageTexts(const ReportContent &content, const QString &out, QString *error) {
    const ReportPictures pictures(content, {});
    QFile f(out);
    if (!f.open(QIODevice::WriteOnly) || !ReportPdfWriter::write(content, pictures, &f, error)) {
        return {};
    }
    f.close();
    return test::pdfText(out).split(QLatin1Char('\f'));
}

/** The rows named "tablerow…" on the page that holds `mark`; -1 when no page does. */
int rowsBeside(const QStringList &pages, const QString &mark) {
    for (const QString &page : pages) {
        if (page.contains(mark)) {
            return int(page.count(QStringLiteral("tablerow")));
        }
    }
    return -1;
}

}  // namespace

class TestGuiReport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_b, m_release;

    /** The checks of a report PDF; returns its page count (0 on failure, with a QTest fail). */
    int checkPdf(const QString &path, const QStringList &mustSay) {
        [&] {
            QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
            QVERIFY(readAll(path).startsWith("%PDF-"));
        }();
        if (QTest::currentTestFailed() || !havePoppler()) {
            return havePoppler() ? 0 : 1;
        }
        const QString text = pdfText(path);
        // "Page N of M" in every footer: M pages
        static const QRegularExpression footer(QStringLiteral("Page (\\d+) of (\\d+)"));
        QList<int> numbers;
        int total = 0;
        for (auto it = footer.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            numbers << m.captured(1).toInt();
            total = m.captured(2).toInt();
        }
        const QList<QImage> pages = pdfPages(path);
        [&] {
            QVERIFY2(total >= 2, qPrintable(text.left(400)));
            QCOMPARE(int(pages.size()), total);
            QCOMPARE(int(numbers.size()), total);
            for (int i = 0; i < total; ++i) {
                QCOMPARE(numbers[i], i + 1);
                QVERIFY2(grayVariance(pages[i]) > 20,
                         qPrintable(QStringLiteral("page %1").arg(i + 1)));
            }
            // selectable text: the headings and what the caller asks for
            for (const QString &s : mustSay) {
                QVERIFY2(text.contains(s), qPrintable(s));
            }
        }();
        return QTest::currentTestFailed() ? 0 : total;
    }

    /** The report's timelines of `content`, each made at the report's picture size and ready
     * (empty when one is not ready within a minute). */
    static std::vector<std::unique_ptr<ReportTimeline>> readyTimelines(
        const ReportContent &content) {
        std::vector<std::unique_ptr<ReportTimeline>> timelines;
        for (const ReportContent::TimelineSource &source : content.timelines) {
            timelines.push_back(
                std::make_unique<ReportTimeline>(source, ReportPictures::kTimelineSize));
        }
        for (const auto &t : timelines) {
            if (!t->waitReady(60000)) {
                return {};
            }
        }
        return timelines;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        WorkloadSpec sa, sb;
        sb.rounds = 12;
        sb.l1Bytes /= 2;
        sb.policy = QStringLiteral("FIFO");
        m_a = writeFile(m_dir, QStringLiteral("a.lct"), makeWorkload(sa).bytes);
        m_b = writeFile(m_dir, QStringLiteral("b.lct"), makeWorkload(sb).bytes);
        m_release = tracePath(QStringLiteral("late2026-release.lct"));
        QVERIFY(QFileInfo::exists(viewerPath()));
    }

    void headlessPdfOfATrace() {
        const QString out = m_dir.filePath(QStringLiteral("release.pdf"));
        const ProcessRun r = runViewer({QStringLiteral("--report"), out, m_release});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(
            checkPdf(out, {QStringLiteral("Trace report: late2026-release.lct"),
                           QStringLiteral("File and configuration"), QStringLiteral("Diagnostics"),
                           QStringLiteral("Calls"), QStringLiteral("Timeline"),
                           QStringLiteral("Cache behaviour"), QStringLiteral("Anomalies"),
                           QStringLiteral("What-if: prefetched keys hit")}) >= 3);
    }

    void headlessPdfWithFilterAndRange() {
        const QString out = m_dir.filePath(QStringLiteral("filtered.pdf"));
        const ProcessRun r = runViewer({QStringLiteral("--report"), out, QStringLiteral("--filter"),
                                        QStringLiteral("call == finish_write"),
                                        QStringLiteral("--range"), QStringLiteral("0:1000"), m_a});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(checkPdf(out, {QStringLiteral("filter: call == finish_write"),
                               QStringLiteral("configured L1 1 KiB · LRU")}) >= 2);
    }

    void regression_rangePastTheTraceIsSaid() {
        // `--report --range 0:1000` on a shorter trace said nothing, while `--export-svg` notes
        // that the range reaches past the trace and what it shows: the report says the same.
        const QStringList range{QStringLiteral("--range"), QStringLiteral("0:1000")};
        const ProcessRun exported =
            runViewer(QStringList{QStringLiteral("--export-svg"),
                                  m_dir.filePath(QStringLiteral("range.svg"))} +
                      range + QStringList{m_a});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        auto note = [](const QByteArray &err) {
            for (const QByteArray &line : err.split('\n')) {
                if (line.contains("note: --range")) {
                    return line;
                }
            }
            return QByteArray();
        };
        const QByteArray said = note(exported.err);
        QVERIFY2(
            said.startsWith("lmct-viewer: note: --range 0:1000 reaches past the trace (t_mono "),
            exported.err.constData());
        ProcessRun r = runViewer(
            QStringList{QStringLiteral("--report"), m_dir.filePath(QStringLiteral("range.pdf"))} +
            range + QStringList{m_a});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(note(r.err), said);
        // a comparison's range is cut to both traces' common axis
        r = runViewer(QStringList{QStringLiteral("--report"),
                                  m_dir.filePath(QStringLiteral("range-ab.pdf"))} +
                      range + QStringList{QStringLiteral("--compare"), m_a, m_b});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(note(r.err).startsWith("lmct-viewer: note: --range 0:1000 reaches past the "
                                        "traces (t_mono "),
                 r.err.constData());
        // a range inside the trace: no note
        r = runViewer({QStringLiteral("--report"), m_dir.filePath(QStringLiteral("inside.pdf")),
                       QStringLiteral("--range"), QStringLiteral("1.1:1.2"), m_a});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(note(r.err).isEmpty(), r.err.constData());
    }

    void headlessHtmlIsSelfContained() {
        const QString out = m_dir.filePath(QStringLiteral("release.html"));
        const ProcessRun r = runViewer({QStringLiteral("--report"), out, m_release});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Html h = readHtml(readAll(out));
        QVERIFY2(h.wellFormed, qPrintable(h.error));
        QCOMPARE(h.sections,
                 (QStringList{"file", "diagnostics", "calls", "timeline", "cache", "anomalies"}));
        QCOMPARE(h.scripts, 0);
        // links only to its own sections, images only as data
        for (const QString &ref : h.references) {
            QVERIFY2(ref.startsWith(QLatin1Char('#')) || ref.startsWith(QLatin1String("data:")),
                     qPrintable(ref.left(80)));
        }
        QVERIFY(!readAll(out).contains("url("));
        // the timeline and seven figures (the calls' two charts, the cache's five), each an SVG
        // that parses and renders
        QCOMPARE(h.svgs.size(), 8);
        for (const QString &svg : h.svgs) {
            QXmlStreamReader x(svg);
            while (!x.atEnd()) {
                x.readNext();
            }
            QVERIFY2(!x.hasError(), qPrintable(x.errorString()));
            QVERIFY(QSvgRenderer(svg.toUtf8()).isValid());
        }
        QVERIFY(h.text.contains(QStringLiteral("late2026-release.lct")));  // the captions
        QVERIFY(h.text.contains(QStringLiteral("configured L1")));
        QVERIFY(h.text.contains(QStringLiteral("Per call")));
    }

    void headlessComparison() {
        const QString pdf = m_dir.filePath(QStringLiteral("ab.pdf"));
        ProcessRun r =
            runViewer({QStringLiteral("--report"), pdf, QStringLiteral("--compare"), m_a, m_b});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(checkPdf(pdf, {QStringLiteral("Comparison report: a.lct ⇄ b.lct"),
                               QStringLiteral("Header and configuration"),
                               QStringLiteral("Latencies"), QStringLiteral("Key overlap per model"),
                               QStringLiteral("A: a.lct"), QStringLiteral("B: b.lct")}) >= 3);
        const QString html = m_dir.filePath(QStringLiteral("ab.html"));
        r = runViewer({QStringLiteral("--report"), html, QStringLiteral("--compare"), m_a, m_b});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Html h = readHtml(readAll(html));
        QVERIFY2(h.wellFormed, qPrintable(h.error));
        QCOMPARE(h.sections, (QStringList{"files", "diagnostics", "header", "calls", "latencies",
                                          "cache", "timeline"}));
        QVERIFY(h.svgs.size() >= 5);  // overlays and two timelines
        QVERIFY(h.text.contains(QStringLiteral("A solid, B dashed")));
        QCOMPARE(h.text.count(QStringLiteral("one calls/s scale for A and B")), 2);
        QVERIFY2(!r.err.contains("warning"), r.err.constData());
    }

    void headlessComparisonAlignsAsTheTabDoes() {
        // Issue #20: `--report --compare` always aligned from each trace's start; --align and
        // --offset line B up as the comparison's tab can (by t_wall, B shifted), and the words
        // of the report say so.
        std::vector<double> wallsA, wallsB;
        for (int i = 0; i < 40; ++i) {
            wallsA.push_back(1000.0 + 0.25 * i);  // 0 … 9.75 s
            wallsB.push_back(1003.0 + 0.1 * i);   // B starts 3 s later by t_wall
        }
        const QString a = writeFile(m_dir, QStringLiteral("wall-a.lct"),
                                    combineTrace(1000.0, wallsA, QString(), 0));
        const QString b = writeFile(m_dir, QStringLiteral("wall-b.lct"),
                                    combineTrace(1003.0, wallsB, QString(), 1));
        // "A's t_mono F … T s, B's F' … T' s": the stretch of each on the common axis
        static const QRegularExpression stretch(
            QStringLiteral("A's t_mono (\\S+) … (\\S+) s, B's (\\S+) … (\\S+) s"));
        struct Case {
            QStringList options;
            QString says;
            double bStart;  // B's t_mono 0 on the common axis
        };
        const QList<Case> cases{
            {{QStringLiteral("--align"), QStringLiteral("wall")},
             QStringLiteral("aligned by t_wall (B's start %1 from A's)")
                 .arg(TimeFormat::delta(3.0)),
             3.0},
            {{QStringLiteral("--align"), QStringLiteral("wall"), QStringLiteral("--offset"),
              QStringLiteral("-500ms")},
             QStringLiteral("aligned by t_wall, B shifted by %1 (B's start %2 from A's)")
                 .arg(TimeFormat::delta(-0.5), TimeFormat::delta(2.5)),
             2.5},
            // a negative offset as the next argument, or after "="
            {{QStringLiteral("--offset"), QStringLiteral("-2")},
             QStringLiteral("aligned from each trace's start, B shifted by %1")
                 .arg(TimeFormat::delta(-2.0)),
             -2.0},
            {{QStringLiteral("--align=start"), QStringLiteral("--offset=1.5")},
             QStringLiteral("aligned from each trace's start, B shifted by %1")
                 .arg(TimeFormat::delta(1.5)),
             1.5},
        };
        for (const Case &c : cases) {
            const QString out = m_dir.filePath(QStringLiteral("aligned.html"));
            QFile::remove(out);
            const ProcessRun r =
                runViewer(QStringList{QStringLiteral("--report"), out} + c.options +
                          QStringList{QStringLiteral("--compare"), a, b});
            const QString what = c.options.join(QLatin1Char(' '));
            QVERIFY2(r.exitCode == 0, qPrintable(what + QStringLiteral(": ") + r.err));
            const Html h = readHtml(readAll(out));
            QVERIFY2(h.wellFormed, qPrintable(h.error));
            // the section's words, the axis and both captions
            QVERIFY2(h.text.count(c.says) >= 3, qPrintable(what + QStringLiteral(": ") + c.says));
            QVERIFY2(h.text.contains(QStringLiteral("Both on one time axis, ") + c.says),
                     qPrintable(what));
            const auto m = stretch.match(h.text);
            QVERIFY2(m.hasMatch(), qPrintable(what));
            QCOMPARE(m.captured(1).toDouble() - m.captured(3).toDouble(), c.bStart);
            QCOMPARE(m.captured(2).toDouble() - m.captured(4).toDouble(), c.bStart);
        }
        // a trace without t_wall cannot be aligned by it; the options need a comparison
        const QString noWall = writeFile(m_dir, QStringLiteral("no-wall.lct"),
                                         combineTrace(qQNaN(), {qQNaN(), qQNaN()}, QString(), 2));
        const QString out = m_dir.filePath(QStringLiteral("refused.pdf"));
        struct Refusal {
            QStringList args;
            const char *says;
        };
        const QList<Refusal> refusals{
            {{QStringLiteral("--align"), QStringLiteral("wall"), QStringLiteral("--compare"), a,
              noWall},
             "--align wall: trace B (no-wall.lct) has no t_wall"},
            {{QStringLiteral("--align"), QStringLiteral("sideways"), QStringLiteral("--compare"), a,
              b},
             "invalid --align: expected start"},
            {{QStringLiteral("--offset"), QStringLiteral("soon"), QStringLiteral("--compare"), a,
              b},
             "invalid --offset"},
            {{QStringLiteral("--offset"), QStringLiteral("1MiB"), QStringLiteral("--compare"), a,
              b},
             "invalid --offset"},
            {{QStringLiteral("--align"), QStringLiteral("wall"), a}, "need --compare A B"},
            {{QStringLiteral("--offset"), QStringLiteral("2"), a}, "need --compare A B"},
            // B shifted off the range: on the common axis it holds none of B's records
            {{QStringLiteral("--range"), QStringLiteral("0:5"), QStringLiteral("--offset"),
              QStringLiteral("100"), QStringLiteral("--compare"), a, b},
             "lies outside trace B (wall-b.lct)"},
        };
        for (const Refusal &c : refusals) {
            const ProcessRun r = runViewer(QStringList{QStringLiteral("--report"), out} + c.args);
            const QString what = c.args.join(QLatin1Char(' '));
            QVERIFY2(r.exitCode == 1,
                     qPrintable(what + QStringLiteral(": exit %1, ").arg(r.exitCode) +
                                QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains("lmct-viewer: ") && r.err.contains(c.says),
                     qPrintable(what + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            QVERIFY(!QFileInfo::exists(out));
        }
        // and without --report, where they line up the comparison's tab, in the same words
        const ProcessRun gui = runViewer({QStringLiteral("--align"), QStringLiteral("sideways"),
                                          QStringLiteral("--compare"), a, b});
        QCOMPARE(gui.exitCode, 1);
        QVERIFY2(gui.err.contains("lmct-viewer: invalid --align: expected start"),
                 gui.err.constData());
    }

    void regression_damagedTraceIsSaidOnStderr() {
        // `--report --compare` over a damaged B said nothing, where `lmct compare` warns.
        WorkloadSpec sb;
        sb.rounds = 12;
        const QString bad = writeFile(m_dir, QStringLiteral("bad-b.lct"),
                                      damagedWorkload(makeWorkload(sb).bytes, 2));
        const QString out = m_dir.filePath(QStringLiteral("bad.html"));
        ProcessRun r =
            runViewer({QStringLiteral("--report"), out, QStringLiteral("--compare"), m_a, bad});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("lmct-viewer: warning: B (bad-b.lct) is damaged: "),
                 r.err.constData());
        QVERIFY2(!r.err.contains("A (a.lct)"), r.err.constData());
        r = runViewer({QStringLiteral("--report"), out, bad});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("lmct-viewer: warning: bad-b.lct is damaged: "), r.err.constData());
    }

    void badInputOrPathWritesNothing() {
        const QString out = m_dir.filePath(QStringLiteral("nothing.pdf"));
        struct Case {
            QStringList args;
            int code;
            const char *says;
        };
        const QString missing = m_dir.filePath(QStringLiteral("missing.lct"));
        const QString badDir = m_dir.filePath(QStringLiteral("no-such-dir/r.pdf"));
        const QList<Case> cases{
            {{QStringLiteral("--report"), out, missing}, 2, "missing.lct"},
            {{QStringLiteral("--report"), badDir, m_a}, 2, "no-such-dir"},
            {{QStringLiteral("--report"), m_dir.filePath(QStringLiteral("r.txt")), m_a},
             1,
             ".pdf, .html, .htm or .xhtml"},
            {{QStringLiteral("--report"), out, QStringLiteral("--filter"),
              QStringLiteral("call =="), m_a},
             1,
             "invalid filter"},
            {{QStringLiteral("--report"), out, QStringLiteral("--range"), QStringLiteral("5:1"),
              m_a},
             1,
             "invalid --range"},
            {{QStringLiteral("--report"), m_a, m_a}, 1, ".pdf, .html, .htm or .xhtml"},
            // ".pdf" alone wrote a hidden file of no name
            {{QStringLiteral("--report"), m_dir.filePath(QStringLiteral(".pdf")), m_a},
             1,
             "expected a name before the suffix"},
            // a range holding none of the records wrote an empty report and exited 0
            {{QStringLiteral("--report"), out, QStringLiteral("--range"),
              QStringLiteral("100000:200000"), m_a},
             1,
             "lies outside the trace"},
            {{QStringLiteral("--report"), out, QStringLiteral("--range"), QStringLiteral("100000:"),
              QStringLiteral("--compare"), m_a, m_b},
             1,
             "lies outside trace A (a.lct)"},
            {{QStringLiteral("--report"), out, QStringLiteral("--compare"), m_a, missing},
             2,
             "missing.lct"},
            {{QStringLiteral("--report"), out, QStringLiteral("--compare"), m_a}, 1, "--compare"},
        };
        const QByteArray before = readAll(m_a);
        for (const Case &c : cases) {
            const ProcessRun r = runViewer(c.args);
            QVERIFY2(r.exitCode == c.code,
                     qPrintable(c.args.join(QLatin1Char(' ')) +
                                QStringLiteral(": exit %1, ").arg(r.exitCode) +
                                QString::fromUtf8(r.err)));
            // (the environment may add Qt's own notes, e.g. of an unset XDG_RUNTIME_DIR)
            QVERIFY2(r.err.contains("lmct-viewer: ") && r.err.contains(c.says), r.err.constData());
            QVERIFY(!QFileInfo::exists(out));
            QVERIFY(!QFileInfo::exists(badDir));
            QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral(".pdf"))));
        }
        QCOMPARE(readAll(m_a), before);
        // the trace itself as the target
        const QString copy = writeFile(m_dir, QStringLiteral("self.pdf"), before);
        const ProcessRun self = runViewer({QStringLiteral("--report"), copy, copy});
        QCOMPARE(self.exitCode, 2);
        QCOMPARE(readAll(copy), before);
        // a comparison's report over its trace B: named as B, or as a hard link to it
        const QByteArray bBytes = readAll(m_b);
        const QString b = writeFile(m_dir, QStringLiteral("b-as.pdf"), bBytes);
        const QString link = m_dir.filePath(QStringLiteral("b-link.html"));
        QCOMPARE(::link(QFile::encodeName(b).constData(), QFile::encodeName(link).constData()), 0);
        for (const QString &target : {b, link}) {
            const ProcessRun r = runViewer(
                {QStringLiteral("--report"), target, QStringLiteral("--compare"), m_a, b});
            QVERIFY2(r.exitCode == 2 && r.err.contains("input trace"), r.err.constData());
            QCOMPARE(readAll(b), bBytes);
        }
    }

    void regression_tableTitleIsNotLeftAloneAtAPageFoot() {
        // Issue #20: a table's title and header could end a page with its rows on the next.
        // Wherever filler paragraphs push the table, its title shares its page with at least
        // three of its rows.
        if (!test::havePoppler()) {
            QSKIP("pdftotext (poppler-utils) is not installed");
        }
        QTemporaryDir dir;
        for (int filler = 30; filler <= 75; ++filler) {
            ReportContent c;
            c.title = QStringLiteral("Layout");
            ReportContent::Section s;
            s.id = QStringLiteral("s");
            s.title = QStringLiteral("Section");
            for (int i = 0; i < filler; ++i) {
                s.paragraph(QStringLiteral("filler line %1").arg(i));
            }
            ReportContent::Table t;
            t.title = QStringLiteral("Kept Table");
            t.header = {QStringLiteral("name"), QStringLiteral("value")};
            t.numeric = {false, true};
            for (int r = 0; r < 8; ++r) {
                t.rows << QStringList{QStringLiteral("tablerow%1").arg(r), QString::number(r)};
            }
            s.table(std::move(t));
            c.sections.push_back(std::move(s));
            QString error;
            const QStringList pages =
                pdfPageTexts(c, dir.filePath(QStringLiteral("f%1.pdf").arg(filler)), &error);
            QVERIFY2(!pages.isEmpty(), qPrintable(error));
            const int rows = rowsBeside(pages, QStringLiteral("Kept Table"));
            QVERIFY2(
                rows >= 3,
                qPrintable(
                    QStringLiteral("%1 filler lines: %2 rows by the title").arg(filler).arg(rows)));
        }
    }

    void regression_headingIsNotLeftAloneAboveATable() {
        // A section's heading was kept with 80 units of what follows, less than a table's
        // title, header and first three rows: the heading could end a page with its table on
        // the next. Wherever filler pushes it, the heading shares its page with three rows.
        if (!test::havePoppler()) {
            QSKIP("pdftotext (poppler-utils) is not installed");
        }
        QTemporaryDir dir;
        for (int filler = 30; filler <= 75; ++filler) {
            ReportContent c;
            c.title = QStringLiteral("Layout");
            ReportContent::Section first;
            first.id = QStringLiteral("first");
            first.title = QStringLiteral("Filler");
            for (int i = 0; i < filler; ++i) {
                first.paragraph(QStringLiteral("filler line %1").arg(i));
            }
            c.sections.push_back(std::move(first));
            ReportContent::Section s;
            s.id = QStringLiteral("s");
            s.title = QStringLiteral("Kept Heading");
            ReportContent::Table t;
            t.title = QStringLiteral("Its table");
            t.header = {QStringLiteral("name"), QStringLiteral("text"), QStringLiteral("value")};
            t.numeric = {false, false, true};
            for (int r = 0; r < 8; ++r) {
                // rows of several lines: the table's start is higher than 80 units
                t.rows << QStringList{QStringLiteral("tablerow%1").arg(r),
                                      QStringLiteral("a long cell that wraps ").repeated(12),
                                      QString::number(r)};
            }
            s.table(std::move(t));
            c.sections.push_back(std::move(s));
            QString error;
            const QStringList pages =
                pdfPageTexts(c, dir.filePath(QStringLiteral("h%1.pdf").arg(filler)), &error);
            QVERIFY2(!pages.isEmpty(), qPrintable(error));
            const int rows = rowsBeside(pages, QStringLiteral("Kept Heading"));
            QVERIFY2(rows >= 3, qPrintable(QStringLiteral("%1 filler lines: %2 rows by the heading")
                                               .arg(filler)
                                               .arg(rows)));
        }
    }

    void regression_comparisonTimelinesShareOneAxis() {
        // Issue #20: the report's pictures of A and B had two time axes, each fitted to its
        // trace. Both now show the same stretch of one axis that says the alignment.
        WorkloadSpec sa, sb;
        sb.rounds = 12;
        const auto a = loadWorkload(makeWorkload(sa), QStringLiteral("a.lct"));
        const auto b = loadWorkload(makeWorkload(sb), QStringLiteral("b.lct"));
        QVERIFY(a && b);
        QVERIFY(std::abs(a->duration() - b->duration()) > 0.1 * a->duration());
        const auto content = ComparisonReport::build(a, b, {});
        QVERIFY(content);
        const auto timelines = readyTimelines(*content);
        QCOMPARE(timelines.size(), size_t(2));
        for (const auto &t : timelines) {
            // the picture as the report paints it (laid out at its size)
            QVERIFY(
                !CaptionedExport::toImage(t->spec(), ReportPictures::kTimelineSize, 1.0).isNull());
        }
        const QCPRange ra = timelines[0]->timeline()->visibleRange();
        const QCPRange rb = timelines[1]->timeline()->visibleRange();
        QCOMPARE(ra.lower, rb.lower);
        QCOMPARE(ra.upper, rb.upper);
        QVERIFY(ra.lower <= 0.0);
        QVERIFY(ra.upper >= std::max(a->duration(), b->duration()));
        QStringList captions;
        for (const auto &t : timelines) {
            const QString axis = t->timeline()->timeAxis()->label();
            QVERIFY2(axis.contains(QStringLiteral("one axis for A and B, aligned from each "
                                                  "trace's start")),
                     qPrintable(axis));
            captions << t->spec().caption();
        }
        // the captions give the same range and the alignment
        static const QRegularExpression range(QStringLiteral("t_mono \\S+ … \\S+ s"));
        QCOMPARE(range.match(captions[0]).captured(), range.match(captions[1]).captured());
        QVERIFY2(range.match(captions[0]).hasMatch(), qPrintable(captions[0]));
        for (const QString &c : captions) {
            QVERIFY2(c.endsWith(QStringLiteral("one time axis for A and B, aligned from each "
                                               "trace's start")),
                     qPrintable(c));
        }
        QVERIFY(captions[1].startsWith(QStringLiteral("B: b.lct")));
    }

    void regression_comparisonRatePlotsShareOneScale() {
        // Issue #20: A's and B's rate plots each scaled their own y axis, so a reader could
        // not compare the rates by eye. Both now run to the larger of their own upper ends.
        std::vector<double> wallsA, wallsB;
        for (int i = 0; i < 40; ++i) {
            wallsA.push_back(1000.0 + 0.25 * i);  // 4 calls/s over 10 s
        }
        for (int i = 0; i < 400; ++i) {
            // bursts of ten records within 10 ms, one every 0.25 s: a higher peak rate
            wallsB.push_back(1000.0 + 0.25 * (i / 10) + 0.001 * (i % 10));
        }
        const auto a =
            loadTrace(combineTrace(1000.0, wallsA, QString(), 0), QStringLiteral("rate-a.lct"));
        const auto b =
            loadTrace(combineTrace(1000.0, wallsB, QString(), 1), QStringLiteral("rate-b.lct"));
        QVERIFY(a && b);
        const auto content = ComparisonReport::build(a, b, {});
        QVERIFY(content);
        const auto timelines = readyTimelines(*content);
        std::vector<ReportTimeline *> pointers;
        for (const auto &t : timelines) {
            QVERIFY(t->source().sharedRateScale);
            pointers.push_back(t.get());
        }
        QCOMPARE(timelines.size(), size_t(2));
        // the calls/s axis as the page paints a picture (its caption, its size)
        const auto paintedRange = [](ReportTimeline *t) {
            const CaptionedExport scope(t->spec(), ReportPictures::kTimelineSize);
            const QSize s = ReportPictures::kTimelineSize;
            (void)PlotExport::toImage(t->spec().plot, s.width(), s.height(), 1.0);
            return t->timeline()->ratePlot()->valueAxis()->range();
        };
        double own[2];
        for (size_t i = 0; i < 2; ++i) {
            own[i] = paintedRange(pointers[i]).upper;
        }
        QVERIFY2(own[1] > 3 * own[0], qPrintable(QStringLiteral("%1 %2").arg(own[0]).arg(own[1])));
        const ReportPictures pictures(*content, pointers);  // shares the scale
        const QCPRange ra = paintedRange(pointers[0]), rb = paintedRange(pointers[1]);
        QCOMPARE(ra.lower, 0.0);
        QCOMPARE(rb.lower, 0.0);
        QCOMPARE(ra.upper, rb.upper);
        QVERIFY2(std::abs(ra.upper - own[1]) < 0.05 * own[1],
                 qPrintable(QStringLiteral("%1 vs B's own %2").arg(ra.upper).arg(own[1])));
        QCOMPARE(timelines[0]->sharedRateUpper(), ra.upper);
        for (ReportTimeline *t : pointers) {
            const QString caption = t->spec().caption();
            QVERIFY2(caption.contains(QStringLiteral("one calls/s scale for A and B")),
                     qPrintable(caption));
            QVERIFY2(caption.endsWith(t->source().captionNote), qPrintable(caption));
        }
        // a trace's own report keeps its own scale
        const auto single = TraceReport::build(a, {});
        QVERIFY(single);
        QVERIFY(!single->timelines.front().sharedRateScale);
    }

    void fileMenuExportsTheReport() {
        MainWindow w;
        w.resize(1400, 900);
        TraceTab *tab = showAndOpen(w, m_a);
        QVERIFY(tab);
        ReportActions *report = w.findChild<ExportActions *>()->reportActions();
        QAction *action = w.findChild<QAction *>(QStringLiteral("exportReport"));
        QCOMPARE(action, report->action());
        QVERIFY(w.menuBar()->actions().first()->menu()->actions().contains(action));
        report->updateEnabled();
        QVERIFY(action->isEnabled());
        // the current tab's filter goes into the report
        const QString f = QStringLiteral("call == finish_write");
        tab->viewState()->setFilterText(f);
        tab->viewState()->setFilterResult(f, std::make_shared<const std::vector<int>>());
        QString asked;
        const QString out = m_dir.filePath(QStringLiteral("menu"));  // no suffix: a PDF
        report->setPathProvider([&](const QString &, const QString &suggested, const QString &) {
            asked = suggested;
            return out;
        });
        QSignalSpy done(report, &ReportActions::finished);
        action->trigger();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().at(0).toBool(), true);
        QCOMPARE(QFileInfo(asked).fileName(), QStringLiteral("a-report.pdf"));
        QVERIFY(checkPdf(out + QStringLiteral(".pdf"),
                         {QStringLiteral("filter: call == finish_write")}) >= 2);
        // a comparison's tab: its report
        CompareTab *cmp = w.compareFiles(m_a, m_b);
        QSignalSpy compared(cmp, &CompareTab::compared);
        QVERIFY(compared.wait(60000));
        // B shifted in the tab: the report's timelines line up as the tab's do
        cmp->offsetBox()->setValue(2.0);
        QCOMPARE(cmp->link()->offset(), 2.0);
        QVERIFY(report->start(m_dir.filePath(QStringLiteral("menu-ab.html"))));
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(0).toBool(), true);
        const Html h = readHtml(readAll(m_dir.filePath(QStringLiteral("menu-ab.html"))));
        QVERIFY(h.wellFormed);
        QVERIFY(h.sections.contains(QStringLiteral("latencies")));
        QVERIFY2(h.text.contains(QStringLiteral("aligned from each trace's start, B shifted by "
                                                "+2.000 s")),
                 qPrintable(h.text.right(2000)));
        // never over a trace open in the window: the comparison's B (named .pdf here, as a
        // trace may be) from its own tab, and from the first trace's tab
        const QByteArray bBytes = readAll(m_b);
        const QString b = writeFile(m_dir, QStringLiteral("menu-b.pdf"), bBytes);
        CompareTab *overB = w.compareFiles(m_a, b);
        QSignalSpy comparedB(overB, &CompareTab::compared);
        QVERIFY(comparedB.wait(60000));
        QTimer closeBoxes;  // the failure's message box
        connect(&closeBoxes, &QTimer::timeout, this, [] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                box->reject();
            }
        });
        closeBoxes.start(50);
        for (QWidget *from : {static_cast<QWidget *>(overB), static_cast<QWidget *>(tab)}) {
            w.tabWidget()->setCurrentWidget(from);
            QVERIFY(report->start(b));
            QVERIFY(done.wait(60000));
            QCOMPARE(done.last().at(0).toBool(), false);
            QVERIFY2(done.last().at(1).toString().contains(QStringLiteral("input trace")),
                     qPrintable(done.last().at(1).toString()));
            QCOMPARE(readAll(b), bBytes);
        }
        // cancelled: nothing written
        const QString cancelled = m_dir.filePath(QStringLiteral("cancelled.pdf"));
        QVERIFY(report->start(cancelled));
        report->cancel();
        QTRY_VERIFY(!report->isRunning());
        QVERIFY(!QFileInfo::exists(cancelled));
    }
};

QTEST_MAIN(TestGuiReport)
#include "tst_gui_report.moc"
