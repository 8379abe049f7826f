#include "report/reporthtmlwriter.h"

#include "common/captionedexport.h"
#include "report/reportpictures.h"

#include <QRegularExpression>

namespace lmct {

namespace {

const char *const kStyle = R"(
body { font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; font-size: 14px;
       color: #101010; background: #ffffff; margin: 2em auto; max-width: 1000px; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 2px solid #308cc6; padding-bottom: 0.15em; margin-top: 2em; }
p.subtitle { color: #505050; font-size: 0.9em; margin: 0.1em 0; }
p.note, p.tablenote { color: #505050; font-style: italic; font-size: 0.9em; }
nav ul { columns: 2; font-size: 0.95em; }
table { border-collapse: collapse; margin: 0.6em 0 0.3em; font-size: 0.85em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; font-size: 1.05em; }
th { background: #e4e9ef; text-align: left; }
th, td { padding: 0.2em 0.5em; border-bottom: 1px solid #d0d4da; vertical-align: top; }
tr:nth-child(even) td { background: #f6f7f9; }
td.num { text-align: right; white-space: nowrap; }
tr.strong td { font-weight: bold; }
table.facts td:first-child { font-weight: bold; color: #404040; white-space: nowrap; }
td { overflow-wrap: anywhere; }
figure { margin: 1em 0; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { color: #505050; font-size: 0.85em; margin-top: 0.3em; }
footer { color: #606060; font-size: 0.85em; margin-top: 3em; border-top: 1px solid #b0b0b0; }
)";

QString table(const ReportContent::Table &t) {
    QString out;
    const bool list = t.header.isEmpty() && !t.rows.isEmpty() && t.rows.first().size() == 1;
    out += !t.header.isEmpty() ? QStringLiteral("<table>")
           : list              ? QStringLiteral("<table class=\"list\">")
                               : QStringLiteral("<table class=\"facts\">");
    if (!t.title.isEmpty()) {
        out += QStringLiteral("<caption>%1</caption>").arg(ReportHtmlWriter::escaped(t.title));
    }
    if (!t.header.isEmpty()) {
        out += QStringLiteral("<thead><tr>");
        for (const QString &h : t.header) {
            out += QStringLiteral("<th>%1</th>").arg(ReportHtmlWriter::escaped(h));
        }
        out += QStringLiteral("</tr></thead>");
    }
    out += QStringLiteral("<tbody>");
    for (qsizetype r = 0; r < t.rows.size(); ++r) {
        out += t.strongRows.contains(int(r)) ? QStringLiteral("<tr class=\"strong\">")
                                             : QStringLiteral("<tr>");
        for (qsizetype c = 0; c < t.rows[r].size(); ++c) {
            const bool num = c < t.numeric.size() && t.numeric[c];
            out += QStringLiteral("<td%1>%2</td>")
                       .arg(num ? QStringLiteral(" class=\"num\"") : QString(),
                            ReportHtmlWriter::escaped(t.rows[r][c]));
        }
        out += QStringLiteral("</tr>");
    }
    out += QStringLiteral("</tbody></table>\n");
    if (!t.note.isEmpty()) {
        out += QStringLiteral("<p class=\"tablenote\">%1</p>\n")
                   .arg(ReportHtmlWriter::escaped(t.note));
    }
    return out;
}

/** The <svg> element of a picture: the generator's document from its root on, made XML-safe. */
QString svgElement(const QByteArray &svg) {
    QString s = QString::fromUtf8(svg);
    const qsizetype root = s.indexOf(QStringLiteral("<svg"));
    if (root < 0) {
        return QString();
    }
    s = s.mid(root);
    // C0 controls cannot be in XML at all (the generator copies texts as they are)
    static const QRegularExpression controls(QStringLiteral("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]"));
    s.replace(controls, QString(QChar(0xfffd)));
    return s;
}

}  // namespace

QString ReportHtmlWriter::escaped(const QString &text) {
    QString out = text.toHtmlEscaped();
    static const QRegularExpression controls(QStringLiteral("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]"));
    out.replace(controls, QString(QChar(0xfffd)));
    // a lone surrogate is no character either
    for (qsizetype i = 0; i < out.size(); ++i) {
        const QChar c = out.at(i);
        if (c.isHighSurrogate() && i + 1 < out.size() && out.at(i + 1).isLowSurrogate()) {
            ++i;
        } else if (c.isSurrogate()) {
            out[i] = QChar(0xfffd);
        }
    }
    return out;
}

QByteArray ReportHtmlWriter::html(const ReportContent &content, const ReportPictures &pictures) {
    QString out;
    out += QStringLiteral(
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
        "<meta charset=\"utf-8\"/>\n<meta name=\"generator\" content=\"LMCache Trace Viewer\"/>\n");
    out += QStringLiteral("<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n")
               .arg(escaped(content.title), QString::fromUtf8(kStyle));
    out += QStringLiteral("<header><h1>%1</h1>\n").arg(escaped(content.title));
    for (const QString &line : content.subtitle) {
        out += QStringLiteral("<p class=\"subtitle\">%1</p>\n").arg(escaped(line));
    }
    out += QStringLiteral("</header>\n<nav><ul>\n");
    for (const ReportContent::Section &s : content.sections) {
        out += QStringLiteral("<li><a href=\"#%1\">%2</a></li>\n")
                   .arg(escaped(s.id), escaped(s.title));
    }
    out += QStringLiteral("</ul></nav>\n");
    for (const ReportContent::Section &s : content.sections) {
        out += QStringLiteral("<section id=\"%1\">\n<h2>%2</h2>\n")
                   .arg(escaped(s.id), escaped(s.title));
        for (const ReportContent::Block &b : s.blocks) {
            switch (b.kind) {
                case ReportContent::Block::Kind::Paragraph:
                    out += QStringLiteral("<p>%1</p>\n").arg(escaped(b.text));
                    break;
                case ReportContent::Block::Kind::Note:
                    out += QStringLiteral("<p class=\"note\">%1</p>\n").arg(escaped(b.text));
                    break;
                case ReportContent::Block::Kind::Table:
                    out += table(b.table);
                    break;
                case ReportContent::Block::Kind::Figure:
                case ReportContent::Block::Kind::Timeline: {
                    const bool timeline = b.kind == ReportContent::Block::Kind::Timeline;
                    const QString id = timeline ? QStringLiteral("timeline-%1").arg(b.timeline)
                                                : QStringLiteral("figure-") + b.figure.id;
                    const QString alt = timeline
                                            ? QObject::tr(
                                                  "The timeline: one lane per call, a tick per "
                                                  "record, the calls per second below.")
                                            : b.figure.alt;
                    out += QStringLiteral("<figure id=\"%1\">\n").arg(escaped(id));
                    if (pictures.has(b)) {
                        out += svgElement(CaptionedExport::svg(
                            pictures.spec(b), pictures.size(b),
                            timeline ? QObject::tr("Timeline") : b.figure.title));
                    } else {
                        out += QStringLiteral("<p class=\"note\">%1</p>")
                                   .arg(escaped(QObject::tr("(picture not available)")));
                    }
                    out += QStringLiteral("\n<figcaption>%1</figcaption>\n</figure>\n")
                               .arg(escaped(alt));
                    break;
                }
            }
        }
        out += QStringLiteral("</section>\n");
    }
    out += QStringLiteral("<footer><p>%1</p></footer>\n</body>\n</html>\n")
               .arg(escaped(content.runningTitle));
    return out.toUtf8();
}

}  // namespace lmct
