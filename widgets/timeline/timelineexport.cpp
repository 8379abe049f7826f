#include "timeline/timelineexport.h"

#include "timeline/timelinewidget.h"
#include "util/timeformat.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <algorithm>

namespace lmct {

namespace {

/**
 * While it lives: the caption line on top of the timeline's plot, and the plot laid out at the
 * export's size (TimelineWidget::layOutFor). Afterwards the plot is as it was on screen.
 */
class ExportScope {
public:
    ExportScope(TimelineWidget *timeline, QSize size)
        : m_timeline(timeline), m_plot(timeline->plot()) {
        QCPLayoutGrid *grid = m_plot->plotLayout();
        grid->insertRow(0);
        QFont font = timeline->font();
        const int width = (size.isEmpty() ? m_plot->width() : size.width()) - 12;
        m_caption =
            new QCPTextElement(m_plot,
                               TimelineExport::captionLines(TimelineExport::caption(*timeline),
                                                            QFontMetricsF(font), width),
                               font);
        m_caption->setTextColor(timeline->palette().color(QPalette::Text));
        m_caption->setMargins(QMargins(6, 4, 6, 2));
        // QPainter clips text to its rect unless told not to: the rect QCPTextElement computes
        // for several lines is a pixel short, which cut the last line's underscores.
        m_caption->setTextFlags(Qt::AlignCenter | Qt::TextDontClip);
        m_caption->setLayer(QStringLiteral("legend"));
        grid->addElement(0, 0, m_caption);
        QList<double> stretch = grid->rowStretchFactors();
        stretch[0] = 0.001;
        grid->setRowStretchFactors(stretch);
        // the caption's lines are left out of the room the lanes and the rate plot share
        m_timeline->layOutFor(
            size.isEmpty() ? m_plot->size() : size,
            static_cast<QCPLayoutElement *>(m_caption)->minimumOuterSizeHint().height());
    }
    ~ExportScope() {
        QCPLayoutGrid *grid = m_plot->plotLayout();
        grid->remove(m_caption);  // deletes it
        grid->simplify();
        m_timeline->layOutFor(QSize());  // queues a replot
    }
    ExportScope(const ExportScope &) = delete;
    ExportScope &operator=(const ExportScope &) = delete;

private:
    TimelineWidget *m_timeline;
    QCustomPlot *m_plot;
    QCPTextElement *m_caption = nullptr;
};

QSize effectiveSize(const TimelineWidget *timeline, QSize size) {
    return size.isEmpty() ? timeline->plot()->size() : size;
}

}  // namespace

QString TimelineExport::captionSeparator() {
    return QStringLiteral("  —  ");
}

QString TimelineExport::captionLines(const QString &caption, const QFontMetricsF &fm, int width) {
    if (fm.horizontalAdvance(caption) <= width) {
        return caption;
    }
    const QString sep = captionSeparator();
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

QString TimelineExport::caption(const TimelineWidget &timeline) {
    const ViewState *state = timeline.viewState();
    const auto doc = state ? state->document() : nullptr;
    const QString file = doc ? doc->fileName() : QObject::tr("no trace");
    const QCPRange r = timeline.visibleRange();
    // The axis's range as drawn (before the trace's first record too, when zoomed out there).
    const double lo = r.lower, hi = std::max(lo, r.upper);
    QString range;
    if (timeline.timeMode() == TimelineWidget::TimeMode::Wall) {
        const double off = timeline.ticker()->wallOffset();
        const bool utc = timeline.ticker()->utc();
        range = QObject::tr("t_wall %1 … %2")
                    .arg(TimeFormat::wall(off + lo, utc), TimeFormat::wall(off + hi, utc));
    } else {
        range = QObject::tr("t_mono %1 … %2 s").arg(TimeFormat::mono(lo), TimeFormat::mono(hi));
    }
    range += QStringLiteral(" (%1)").arg(TimeFormat::duration(hi - lo));
    const QString filter = state ? state->filterAppliedText() : QString();
    const QString filterText =
        filter.isEmpty() ? QObject::tr("no filter") : QObject::tr("filter: %1").arg(filter);
    const QString sep = captionSeparator();
    return file + sep + range + sep + filterText;
}

QImage TimelineExport::toImage(TimelineWidget *timeline, QSize size, double scale) {
    size = effectiveSize(timeline, size);
    const ExportScope scope(timeline, size);
    return PlotExport::toImage(timeline->plot(), size.width(), size.height(), scale);
}

bool TimelineExport::save(TimelineWidget *timeline, const QString &path, PlotExport::Format format,
                          QSize size, double scale, QString *error) {
    size = effectiveSize(timeline, size);
    const ExportScope scope(timeline, size);
    const ViewState *state = timeline->viewState();
    const QString input = state && state->document() ? state->document()->filePath() : QString();
    return PlotExport::save(timeline->plot(), path, format, size.width(), size.height(), scale,
                            error, input);
}

}  // namespace lmct
