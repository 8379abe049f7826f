#pragma once

#include "report/reportcontent.h"

#include <QIODevice>
#include <QString>

namespace lmct {

class ReportPictures;

/**
 * A report as a PDF (QPdfWriter and QPainter): A4 portrait pages at 96 units an inch, the
 * title and its lines on the first page, then the sections in order, each heading kept with
 * what follows it. Text is text (selectable, searchable), wrapped at word boundaries (anywhere
 * in a long hash or path); tables size their columns to their contents (numbers right-aligned,
 * long texts wrapped), break between rows and repeat their header on the next page, and start
 * with their title, header and first three rows (a shorter table whole) on one page, the
 * heading of a section that opens with one kept with them too; figures and
 * timelines are painted as vectors by CaptionedExport (their caption on top), scaled to the
 * page's width. Every page has a footer: the report's running title and "Page N of M".
 *
 * Laid out twice: once measuring (the page count for the footers), once painting.
 *
 * Thread-safety: GUI thread (the pictures are widgets).
 */
class ReportPdfWriter {
public:
    /** Writes the PDF to `out`; false with `error` set when painting fails. */
    static bool write(const ReportContent &content, const ReportPictures &pictures, QIODevice *out,
                      QString *error);
};

}  // namespace lmct
