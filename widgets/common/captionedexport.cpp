#include "common/captionedexport.h"

#include "common/plottheme.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QWidget>

namespace lmct {

namespace {

/** Sets `get()`'s font without ligatures through `set`; records how to put it back. */
template <typename Get, typename Set>
void unligate(std::vector<std::function<void()>> *restore, Get get, Set set) {
    const QFont old = get();
    set(PlotExport::withoutLigatures(old));
    restore->push_back([set, old] { set(old); });
}

}  // namespace

void CaptionedExport::unligateTexts() {
    QCustomPlot *plot = m_spec.plot;
    auto *r = &m_restoreFonts;
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *a : rect->axes()) {
            unligate(
                r, [a] { return a->labelFont(); }, [a](const QFont &f) { a->setLabelFont(f); });
            unligate(
                r, [a] { return a->tickLabelFont(); },
                [a](const QFont &f) { a->setTickLabelFont(f); });
        }
    }
    // titles, legends and their entries, wherever they sit (also inside axis rects)
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true)) {
        if (auto *t = qobject_cast<QCPTextElement *>(e)) {
            unligate(
                r, [t] { return t->font(); }, [t](const QFont &f) { t->setFont(f); });
        } else if (auto *l = qobject_cast<QCPLegend *>(e)) {
            unligate(
                r, [l] { return l->font(); }, [l](const QFont &f) { l->setFont(f); });
        } else if (auto *i = qobject_cast<QCPAbstractLegendItem *>(e)) {
            unligate(
                r, [i] { return i->font(); }, [i](const QFont &f) { i->setFont(f); });
        }
    }
    for (int n = 0; n < plot->itemCount(); ++n) {
        if (auto *t = qobject_cast<QCPItemText *>(plot->item(n))) {
            unligate(
                r, [t] { return t->font(); }, [t](const QFont &f) { t->setFont(f); });
        }
    }
}

CaptionedExport::CaptionedExport(const PlotExportSpec &spec, QSize size) : m_spec(spec) {
    QCustomPlot *plot = m_spec.plot;
    size = effectiveSize(m_spec, size);
    // a plot that follows its palette (PlotTheme) is its own palette widget
    QWidget *paletteWidget =
        m_spec.paletteWidget ? m_spec.paletteWidget : (PlotTheme::follows(plot) ? plot : nullptr);
    m_spec.paletteWidget = paletteWidget;
    if (QWidget *w = paletteWidget) {
        // Dark themes export light: the widget draws with the print palette meanwhile (its
        // PaletteChange restyles the plot at once).
        m_restylePalette = true;
        m_hadPalette = w->testAttribute(Qt::WA_SetPalette);
        m_palette = w->palette();
        w->setPalette(printPalette());
    }
    QString caption = m_spec.caption ? m_spec.caption() : QString();
    int reserved = 0;
    const QFont captionFont =
        PlotExport::withoutLigatures((m_spec.paletteWidget ? m_spec.paletteWidget : plot)->font());
    if (!caption.isEmpty()) {
        QCPLayoutGrid *grid = plot->plotLayout();
        grid->insertRow(0);
        const QFont &font = captionFont;
        m_caption = new QCPTextElement(
            plot, captionLines(caption, QFontMetricsF(font), size.width() - 12), font);
        m_caption->setTextColor(printPalette().color(QPalette::Text));
        m_caption->setMargins(QMargins(6, 4, 6, 2));
        // QPainter clips text to its rect unless told not to: the rect QCPTextElement computes
        // for several lines is a pixel short, which cut the last line's underscores.
        m_caption->setTextFlags(Qt::AlignCenter | Qt::TextDontClip);
        m_caption->setLayer(QStringLiteral("legend"));
        grid->addElement(0, 0, m_caption);
        QList<double> stretch = grid->rowStretchFactors();
        stretch[0] = 0.001;
        grid->setRowStretchFactors(stretch);
        reserved = static_cast<QCPLayoutElement *>(m_caption)->minimumOuterSizeHint().height();
    }
    if (m_spec.layOut) {
        // the caption's lines are left out of the room the plot's parts share
        m_spec.layOut(size, reserved);
        // A layout for a small size can leave out or merge what the caption names (the
        // timeline's hit-ratio plot, its lanes): the caption is read again, and the plot laid
        // out again for its new lines, until both agree (at most twice more).
        for (int again = 0; again < 2 && m_caption; ++again) {
            const QString now = m_spec.caption();
            if (now == caption) {
                break;
            }
            caption = now;
            m_caption->setText(
                captionLines(caption, QFontMetricsF(captionFont), size.width() - 12));
            reserved = static_cast<QCPLayoutElement *>(m_caption)->minimumOuterSizeHint().height();
            m_spec.layOut(size, reserved);
        }
        if (m_caption && m_spec.caption() != caption) {
            // (not settled: the last layout's account, on the lines the layout made room for)
            m_caption->setText(
                captionLines(m_spec.caption(), QFontMetricsF(captionFont), size.width() - 12));
        }
    }
    // last: a timeline sets its fonts again as its palette changes and as it is laid out
    unligateTexts();
}

CaptionedExport::~CaptionedExport() {
    QCustomPlot *plot = m_spec.plot;
    if (m_caption) {
        QCPLayoutGrid *grid = plot->plotLayout();
        grid->remove(m_caption);  // deletes it
        grid->simplify();
    }
    for (auto it = m_restoreFonts.rbegin(); it != m_restoreFonts.rend(); ++it) {
        (*it)();
    }
    if (m_restylePalette) {
        // back to the widget's palette: its own, or the inherited one (a default QPalette)
        m_spec.paletteWidget->setPalette(m_hadPalette ? m_palette : QPalette());
    }
    if (m_spec.layOut) {
        m_spec.layOut(QSize(), 0);  // queues a replot
    } else {
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QString CaptionedExport::separator() {
    return QStringLiteral("  —  ");
}

QString CaptionedExport::captionLines(const QString &caption, const QFontMetricsF &fm, int width) {
    if (fm.horizontalAdvance(caption) <= width) {
        return caption;
    }
    const QString sep = separator();
    QStringList lines;
    for (QString part : caption.split(sep)) {
        if (fm.horizontalAdvance(part) > width) {
            part = fm.elidedText(part, Qt::ElideMiddle, width);
        }
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.last() + sep + part) <= width) {
            lines.last() += sep + part;
        } else {
            lines.append(part);
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString CaptionedExport::documentTitle(const PlotExportSpec &spec) {
    QString subject = spec.subject ? spec.subject() : QString();
    if (subject.isEmpty() && spec.inputPath) {
        subject = QFileInfo(spec.inputPath()).fileName();
    }
    if (subject.isEmpty() && spec.caption) {
        subject = spec.caption().section(separator(), 0, 0).trimmed();
    }
    const QString what = spec.title.toLower();
    if (subject.isEmpty()) {
        return what;
    }
    return what.isEmpty() ? subject : QStringLiteral("%1 — %2").arg(subject, what);
}

QPalette CaptionedExport::printPalette() {
    // Fusion's light palette
    const QColor window(0xef, 0xef, 0xef), text(0x10, 0x10, 0x10);
    QPalette p(text, window, Qt::white, QColor(0x9f, 0x9f, 0x9f), QColor(0xb8, 0xb8, 0xb8), text,
               Qt::white, Qt::white, window);
    p.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Link, QColor(0x00, 0x00, 0xff));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Shadow, QColor(0x76, 0x76, 0x76));
    return p;
}

QSize CaptionedExport::effectiveSize(const PlotExportSpec &spec, QSize size) {
    return size.isEmpty() ? spec.plot->size() : size;
}

QImage CaptionedExport::toImage(const PlotExportSpec &spec, QSize size, double scale) {
    size = effectiveSize(spec, size);
    const CaptionedExport scope(spec, size);
    return PlotExport::toImage(spec.plot, size.width(), size.height(), scale);
}

bool CaptionedExport::save(const PlotExportSpec &spec, const QString &path,
                           PlotExport::Format format, QSize size, double scale, QString *error) {
    size = effectiveSize(spec, size);
    const CaptionedExport scope(spec, size);
    const QString input = spec.inputPath ? spec.inputPath() : QString();
    return PlotExport::save(spec.plot, path, format, size.width(), size.height(), scale, error,
                            input, documentTitle(spec));
}

void CaptionedExport::paint(const PlotExportSpec &spec, QCPPainter *painter, QSize size,
                            double resolution) {
    size = effectiveSize(spec, size);
    const CaptionedExport scope(spec, size);
    PlotExport::paint(spec.plot, painter, size.width(), size.height(), resolution);
}

QByteArray CaptionedExport::svg(const PlotExportSpec &spec, QSize size, const QString &title) {
    size = effectiveSize(spec, size);
    const CaptionedExport scope(spec, size);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!PlotExport::writeSvg(spec.plot, &buffer, size.width(), size.height(), 1.0, title)) {
        return QByteArray();
    }
    return bytes;
}

}  // namespace lmct
