#include "report/reportpdfwriter.h"

#include "common/captionedexport.h"
#include "report/reportpictures.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QPdfWriter>
#include <QTextLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kDpi = 96;
constexpr double kMargin = 56;     // ≈ 15 mm
constexpr double kFooter = 28;     // room of the footer under the body
constexpr double kCellPad = 4;     // inside a table cell, left and right
constexpr double kCellPadV = 2.5;  // above and below
constexpr double kGap = 8;         // between blocks

using Block = ReportContent::Block;

/** Lays out and, with a painter, paints the report; one instance per pass. */
class Pager {
public:
    Pager(QPaintDevice *device, QCPPainter *painter, const ReportContent &content,
          const ReportPictures &pictures, int pageCount)
        : m_device(device),
          m_painter(painter),
          m_content(content),
          m_pictures(pictures),
          m_pageCount(pageCount) {
        QFont base = QApplication::font();
        base.setPointSizeF(9.5);
        // No ligatures ("ﬁ" for "fi"): a reader's search and copy find the words as written
        // (Qt shapes without them once letter spacing is set; 1/50 pixel is invisible).
        base.setLetterSpacing(QFont::AbsoluteSpacing, 0.02);
        m_body = base;
        m_small = base;
        m_small.setPointSizeF(8);
        m_table = base;
        m_table.setPointSizeF(8);
        m_tableBold = m_table;
        m_tableBold.setBold(true);
        m_h1 = base;
        m_h1.setPointSizeF(17);
        m_h1.setBold(true);
        m_h2 = base;
        m_h2.setPointSizeF(13);
        m_h2.setBold(true);
        m_h3 = base;
        m_h3.setPointSizeF(10);
        m_h3.setBold(true);
        m_note = m_small;
        m_note.setItalic(true);
        m_width = device->width() - 2 * kMargin;
        m_bottom = device->height() - kMargin - kFooter;
    }

    /** Lays out (and paints) everything; returns the pages used. */
    int run(QPdfWriter *pdf) {
        m_pdf = pdf;
        startPage(false);
        text(m_content.title, m_h1, QColor(0x10, 0x10, 0x10));
        for (const QString &line : m_content.subtitle) {
            text(line, m_small, QColor(0x50, 0x50, 0x50));
        }
        m_y += kGap;
        for (const ReportContent::Section &s : m_content.sections) {
            heading(s.title, leadHeight(s));
            for (const Block &b : s.blocks) {
                block(b);
            }
        }
        footer();
        return m_page;
    }

private:
    void startPage(bool newPage) {
        if (newPage) {
            footer();
            if (m_painter && m_pdf) {
                m_pdf->newPage();
            }
        }
        ++m_page;
        m_y = kMargin;
    }

    void footer() {
        if (!m_painter) {
            return;
        }
        const double y = m_device->height() - kMargin - kFooter + 10;
        m_painter->save();
        m_painter->setPen(QPen(QColor(0xb0, 0xb0, 0xb0), 0.6));
        m_painter->drawLine(QPointF(kMargin, y), QPointF(kMargin + m_width, y));
        m_painter->setFont(m_small);
        m_painter->setPen(QColor(0x60, 0x60, 0x60));
        const QRectF r(kMargin, y + 3, m_width, 16);
        const QString page =
            QObject::tr("Page %1 of %2").arg(m_page).arg(std::max(m_page, m_pageCount));
        const QFontMetricsF fm(m_small, m_device);
        m_painter->drawText(r, Qt::AlignRight | Qt::AlignTop, page);
        m_painter->drawText(
            QRectF(r.left(), r.top(), r.width() - fm.horizontalAdvance(page) - 16, r.height()),
            Qt::AlignLeft | Qt::AlignTop,
            fm.elidedText(m_content.runningTitle, Qt::ElideMiddle,
                          r.width() - fm.horizontalAdvance(page) - 16));
        m_painter->restore();
    }

    /** Room for `height` more on this page, or a new one (unless at its top already). */
    void ensure(double height) {
        if (m_y + height > m_bottom && m_y > kMargin + 1) {
            startPage(true);
        }
    }

    /** `text` wrapped to `width` in `font`: its layout (positions from 0) and height. */
    double layout(QTextLayout &l, const QString &text, const QFont &font, double width) const {
        l.setText(text);
        l.setFont(font);
        QTextOption o;
        o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        l.setTextOption(o);
        l.setCacheEnabled(true);
        l.beginLayout();
        double h = 0;
        const double leading = QFontMetricsF(font, m_device).leading();
        while (true) {
            QTextLine line = l.createLine();
            if (!line.isValid()) {
                break;
            }
            line.setLineWidth(width);
            line.setPosition(QPointF(0, h));
            h += line.height() + std::max(0.0, leading);
        }
        l.endLayout();
        return h;
    }

    double textHeight(const QString &text, const QFont &font, double width) const {
        QTextLayout l(QString(), font, m_device);
        return layout(l, text, font, width);
    }

    void drawText(const QString &text, const QFont &font, const QColor &color, QPointF at,
                  double width, Qt::Alignment align = Qt::AlignLeft) {
        if (!m_painter) {
            return;
        }
        QTextLayout l(QString(), font, m_device);
        layout(l, text, font, width);
        m_painter->save();
        m_painter->setPen(color);
        if (align & Qt::AlignRight) {
            // one line, right-aligned (numbers)
            const double w = l.lineCount() == 1 ? l.lineAt(0).naturalTextWidth() : width;
            at.rx() += std::max(0.0, width - w);
        }
        l.draw(m_painter, at);
        m_painter->restore();
    }

    void text(const QString &t, const QFont &font, const QColor &color) {
        const double h = textHeight(t, font, m_width);
        ensure(h);
        drawText(t, font, color, QPointF(kMargin, m_y), m_width);
        m_y += h + 3;
    }

    /** The height of what a heading is kept with: its first blocks up to the first picture
     *  or the start of the first table, at most a page less the heading. */
    double leadHeight(const ReportContent::Section &s) const {
        double h = 0;
        for (const Block &b : s.blocks) {
            if (b.kind == Block::Kind::Paragraph || b.kind == Block::Kind::Note) {
                h += textHeight(b.text, b.kind == Block::Kind::Note ? m_note : m_body, m_width) + 6;
                continue;
            }
            if (b.kind == Block::Kind::Table) {
                h += tableLead(b.table, columns(b.table));
            } else if (m_pictures.has(b)) {
                const QSize size = m_pictures.size(b);
                h += size.height() * std::min(1.0, m_width / size.width());
            }
            break;
        }
        return std::min(h, (m_bottom - kMargin) * 0.8);
    }

    void heading(const QString &title, double lead) {
        const double h = textHeight(title, m_h2, m_width);
        m_y += kGap;
        ensure(h + 8 + std::max(60.0, lead));  // with what follows
        drawText(title, m_h2, QColor(0x10, 0x10, 0x10), QPointF(kMargin, m_y), m_width);
        m_y += h + 2;
        if (m_painter) {
            m_painter->save();
            m_painter->setPen(QPen(QColor(0x30, 0x8c, 0xc6), 1.2));
            m_painter->drawLine(QPointF(kMargin, m_y), QPointF(kMargin + m_width, m_y));
            m_painter->restore();
        }
        m_y += 6;
    }

    void block(const Block &b) {
        switch (b.kind) {
            case Block::Kind::Paragraph:
                text(b.text, m_body, QColor(0x10, 0x10, 0x10));
                m_y += 3;
                break;
            case Block::Kind::Note:
                text(b.text, m_note, QColor(0x50, 0x50, 0x50));
                m_y += 3;
                break;
            case Block::Kind::Table:
                table(b.table);
                break;
            case Block::Kind::Figure:
            case Block::Kind::Timeline:
                picture(b);
                break;
        }
    }

    /** Column widths for `t` in the body's width. */
    std::vector<double> columns(const ReportContent::Table &t) const {
        const int n =
            int(std::max<qsizetype>(t.header.size(), t.rows.isEmpty() ? 0 : t.rows.first().size()));
        std::vector<double> natural(size_t(n), 0.0);
        const QFontMetricsF fm(m_table, m_device), fb(m_tableBold, m_device);
        for (int c = 0; c < n; ++c) {
            if (c < t.header.size()) {
                // a header may wrap at its spaces: its longest word counts
                for (const QString &w : t.header[c].split(QLatin1Char(' '))) {
                    natural[size_t(c)] = std::max(natural[size_t(c)], fb.horizontalAdvance(w));
                }
            }
            for (const QStringList &r : t.rows) {
                if (c < r.size()) {
                    natural[size_t(c)] = std::max(natural[size_t(c)], fb.horizontalAdvance(r[c]));
                }
            }
            natural[size_t(c)] += 2 * kCellPad + 1;
        }
        std::vector<double> w = natural;
        double sum = 0;
        for (double v : w) {
            sum += v;
        }
        if (sum <= m_width) {
            // the room left to the last text column (a facts table's values, a message)
            int grow = n - 1;
            for (int c = n - 1; c >= 0; --c) {
                if (c >= t.numeric.size() || !t.numeric[c]) {
                    grow = c;
                    break;
                }
            }
            if (grow >= 0 && t.header.isEmpty()) {
                w[size_t(grow)] += m_width - sum;
            }
            return w;
        }
        // Too wide: numbers and short columns keep their width, the long texts share what is
        // left in proportion to their natural widths.
        const double fair = m_width / n;
        const auto flexibleColumn = [&](int c) {
            const bool numeric = c < t.numeric.size() && t.numeric[c];
            return !numeric && natural[size_t(c)] > fair;
        };
        double fixed = 0, flexible = 0;
        for (int c = 0; c < n; ++c) {
            (flexibleColumn(c) ? flexible : fixed) += natural[size_t(c)];
        }
        const double room = std::max(m_width - fixed, 0.0);
        for (int c = 0; c < n && flexible > 0; ++c) {
            if (flexibleColumn(c)) {
                w[size_t(c)] = std::max(48.0, natural[size_t(c)] / flexible * room);
            }
        }
        return w;
    }

    double rowHeight(const QStringList &cells, const std::vector<double> &w,
                     const QFont &font) const {
        double h = 0;
        for (int c = 0; c < cells.size() && c < int(w.size()); ++c) {
            h = std::max(h, textHeight(cells[c], font, w[size_t(c)] - 2 * kCellPad));
        }
        return h + 2 * kCellPadV;
    }

    void row(const QStringList &cells, const std::vector<double> &w, const QFont &font,
             const ReportContent::Table &t, double h, bool header, bool shade) {
        if (m_painter) {
            double total = 0;
            for (double v : w) {
                total += v;
            }
            m_painter->save();
            if (header || shade) {
                m_painter->fillRect(QRectF(kMargin, m_y, total, h),
                                    header ? QColor(0xe4, 0xe9, 0xef) : QColor(0xf6, 0xf7, 0xf9));
            }
            m_painter->setPen(QPen(QColor(0xd0, 0xd4, 0xda), 0.5));
            m_painter->drawLine(QPointF(kMargin, m_y + h), QPointF(kMargin + total, m_y + h));
            m_painter->restore();
        }
        double x = kMargin;
        for (int c = 0; c < cells.size() && c < int(w.size()); ++c) {
            const bool right = c < t.numeric.size() && t.numeric[c];
            const bool key = t.header.isEmpty() && c == 0 && cells.size() > 1;
            drawText(cells[c], key ? m_tableBold : font,
                     key ? QColor(0x40, 0x40, 0x40) : QColor(0x10, 0x10, 0x10),
                     QPointF(x + kCellPad, m_y + kCellPadV), w[size_t(c)] - 2 * kCellPad,
                     right && !header ? Qt::AlignRight : Qt::AlignLeft);
            x += w[size_t(c)];
        }
        m_y += h;
    }

    const QFont &rowFont(const ReportContent::Table &t, qsizetype r) const {
        return t.strongRows.contains(int(r)) ? m_tableBold : m_table;
    }

    /** The height of what a table's start keeps on one page: its title, its header and its
     *  first three rows (the whole of a shorter table), never alone at a page's foot. */
    double tableLead(const ReportContent::Table &t, const std::vector<double> &w) const {
        double h = t.title.isEmpty() ? 0 : textHeight(t.title, m_h3, m_width) + 3;
        h += t.header.isEmpty() ? 0 : rowHeight(t.header, w, m_tableBold);
        for (qsizetype r = 0; r < std::min<qsizetype>(3, t.rows.size()); ++r) {
            h += rowHeight(t.rows[r], w, rowFont(t, r));
        }
        return h;
    }

    void table(const ReportContent::Table &t) {
        const std::vector<double> w = columns(t);
        const double titleH = t.title.isEmpty() ? 0 : textHeight(t.title, m_h3, m_width) + 3;
        const double headH = t.header.isEmpty() ? 0 : rowHeight(t.header, w, m_tableBold);
        ensure(tableLead(t, w));
        if (!t.title.isEmpty()) {
            drawText(t.title, m_h3, QColor(0x10, 0x10, 0x10), QPointF(kMargin, m_y), m_width);
            m_y += titleH;
        }
        if (!t.header.isEmpty()) {
            row(t.header, w, m_tableBold, t, headH, true, false);
        }
        for (qsizetype r = 0; r < t.rows.size(); ++r) {
            const QFont &font = rowFont(t, r);
            const double h = rowHeight(t.rows[r], w, font);
            if (m_y + h > m_bottom) {
                startPage(true);
                if (!t.header.isEmpty()) {
                    row(t.header, w, m_tableBold, t, headH, true, false);
                }
            }
            row(t.rows[r], w, font, t, h, false, r % 2 == 1);
        }
        m_y += 3;
        if (!t.note.isEmpty()) {
            text(t.note, m_note, QColor(0x50, 0x50, 0x50));
        }
        m_y += kGap;
    }

    void picture(const Block &b) {
        if (!m_pictures.has(b)) {
            text(QObject::tr("(picture not available)"), m_note, QColor(0x80, 0x20, 0x20));
            return;
        }
        const QSize size = m_pictures.size(b);
        const double scale = std::min(1.0, m_width / size.width());
        const double h = size.height() * scale;
        ensure(h);
        if (m_painter) {
            m_painter->save();
            m_painter->translate(kMargin + (m_width - size.width() * scale) / 2, m_y);
            m_painter->scale(scale, scale);
            CaptionedExport::paint(m_pictures.spec(b), m_painter, size, 2.0);
            m_painter->restore();
        }
        m_y += h + kGap;
    }

    QPaintDevice *m_device;
    QCPPainter *m_painter;
    QPdfWriter *m_pdf = nullptr;
    const ReportContent &m_content;
    const ReportPictures &m_pictures;
    int m_pageCount;
    int m_page = 0;
    double m_y = 0;
    double m_width = 0, m_bottom = 0;
    QFont m_body, m_small, m_table, m_tableBold, m_h1, m_h2, m_h3, m_note;
};

}  // namespace

bool ReportPdfWriter::write(const ReportContent &content, const ReportPictures &pictures,
                            QIODevice *out, QString *error) {
    QPdfWriter pdf(out);
    pdf.setTitle(content.title);
    pdf.setCreator(QStringLiteral("LMCache Trace Viewer"));
    pdf.setResolution(kDpi);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    // first the page count (measuring only), then the pages
    const int pages = Pager(&pdf, nullptr, content, pictures, 0).run(nullptr);
    QCPPainter painter;
    if (!painter.begin(&pdf)) {
        *error = QObject::tr("the PDF could not be started");
        return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    Pager(&pdf, &painter, content, pictures, pages).run(&pdf);
    if (!painter.end()) {
        *error = QObject::tr("the PDF could not be finished");
        return false;
    }
    return true;
}

}  // namespace lmct
