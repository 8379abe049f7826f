#pragma once

#include "report/reportcontent.h"

#include <QByteArray>
#include <QString>

namespace lmct {

class ReportPictures;

/**
 * A report as one self-contained XHTML file (UTF-8; well-formed XML, so QXmlStreamReader and
 * any XML tool read it, and an HTML5 document to browsers): a style sheet inline, no script, no
 * external reference of any kind (the only links are to the report's own sections, "#id").
 * The title, a table of contents, then one `<section id="…">` per section with its paragraphs,
 * tables (`<table>` with a `<caption>`, numbers right-aligned) and pictures: each figure and
 * timeline is an inline `<svg>` (CaptionedExport::svg: vector, its caption on top; the
 * timeline's lanes an embedded PNG as a data: URI) inside a `<figure>` with its alternative text
 * as `<figcaption>`.
 *
 * Text is escaped for XML; characters XML cannot hold (C0 controls) become U+FFFD.
 *
 * Thread-safety: GUI thread (the pictures are widgets).
 */
class ReportHtmlWriter {
public:
    static QByteArray html(const ReportContent &content, const ReportPictures &pictures);
    /** `text` escaped for XML text and attributes, impossible characters replaced. */
    static QString escaped(const QString &text);
};

}  // namespace lmct
