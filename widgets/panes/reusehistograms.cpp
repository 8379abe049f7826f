#include "panes/reusehistograms.h"

#include "cache/bucketlabel.h"
#include "common/plottheme.h"
#include "panes/cachetab.h"
#include "util/timeformat.h"

#include <qcustomplot.h>
#include <QHBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr double kLogBase = 0.5;  // where the bars of the log-scale count histogram stand

/** 1, 10, 100, 1k, 10k, ... 1M, ...: a power of ten, short enough for a tick. */
QString decade(int exponent) {
    static const char *const kSuffix[] = {"", "k", "M", "G", "T"};
    const int group = std::clamp(exponent / 3, 0, 4);
    return QString::number(qint64(std::llround(std::pow(10.0, exponent - 3 * group)))) +
           QLatin1String(kSuffix[group]);
}

}  // namespace

ReuseHistograms::ReuseHistograms(QWidget *parent) : QWidget(parent) {
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    const QString xLabels[kHistogramCount] = {tr("distinct keys in between (log₂ bins)"),
                                              tr("time since the previous use (log₂ bins)"),
                                              tr("uses after the first, per key (log₂ bins)")};
    const QString yLabels[kHistogramCount] = {tr("reuses"), tr("reuses"), tr("keys")};
    const QColor colors[kHistogramCount] = {QColor(0x2c, 0xa0, 0x2c, 180),
                                            QColor(0xff, 0x7f, 0x0e, 180),
                                            QColor(0x94, 0x67, 0xbd, 180)};
    for (int h = 0; h < kHistogramCount; ++h) {
        auto *p = new QCustomPlot;
        p->setMinimumSize(150, 140);
        p->plotLayout()->insertRow(0);
        QFont titleFont = font();
        titleFont.setPointSizeF(std::max(6.0, titleFont.pointSizeF() - 1.0));
        m_titles[h] = new QCPTextElement(p, QString(), titleFont);
        p->plotLayout()->addElement(0, 0, m_titles[h]);
        p->xAxis->setLabel(xLabels[h]);
        p->yAxis->setLabel(yLabels[h]);
        p->yAxis->setNumberFormat(QStringLiteral("gb"));
        auto *bars = new QCPBars(p->xAxis, p->yAxis);
        if (h == ReuseCountHistogram) {
            // Counts span orders of magnitude (most keys used once, a few many times): a log
            // axis keeps the small bars visible. Bars stand on kLogBase (empty bins have none).
            p->yAxis->setScaleType(QCPAxis::stLogarithmic);
            p->yAxis->setRange(kLogBase, 10);
            bars->setBaseValue(kLogBase);
            // the decades labelled follow the plot's height
            connect(p, &QCustomPlot::afterLayout, this, [p] {
                const int height = p->yAxis->axisRect()->height();
                if (p->property("lmctTickHeight").toInt() != height) {
                    p->setProperty("lmctTickHeight", height);
                    setLogCountTicks(p->yAxis);
                }
            });
        }
        // the title follows the plot's width
        connect(p, &QCustomPlot::afterLayout, this, [this, h] { fitTitleToPlot(h, false); });
        bars->setWidth(0.85);
        bars->setBrush(colors[h]);
        bars->setPen(Qt::NoPen);
        PlotTheme::follow(p);
        m_plots[h] = p;
        row->addWidget(p, 1);
    }
    setStats(nullptr);
}

void ReuseHistograms::setStats(const ReuseAnalysis::Stats *st) {
    const QString names[kHistogramCount] = {tr("Reuse distance (keys)"),
                                            tr("Reuse distance (time)"), tr("Reuse count")};
    for (int h = 0; h < kHistogramCount; ++h) {
        QCustomPlot *p = m_plots[h];
        auto *bars = qobject_cast<QCPBars *>(p->plottable(0));
        bars->data()->clear();
        if (!st) {
            m_fullTitles[h] = names[h];
            fitTitleToPlot(h, true);
            p->replot(QCustomPlot::rpQueuedReplot);
            continue;
        }
        const std::vector<qint64> &hist = h == DistanceKeysHistogram   ? st->distanceKeys
                                          : h == DistanceTimeHistogram ? st->distanceTime
                                                                       : st->reuseCount;
        const ReuseAnalysis::Figures &f = h == DistanceKeysHistogram   ? st->distanceKeysFigures
                                          : h == DistanceTimeHistogram ? st->distanceTimeFigures
                                                                       : st->reuseCountFigures;
        auto label = [h](quint64 floor) {
            return h == DistanceTimeHistogram ? BucketLabel::micros(floor)
                                              : BucketLabel::count(floor);
        };
        int first = ReuseAnalysis::kBuckets, last = 0;
        double maxCount = 1;
        for (int b = 0; b < ReuseAnalysis::kBuckets; ++b) {
            if (hist[size_t(b)] > 0) {
                first = std::min(first, b);
                last = b;
                maxCount = std::max(maxCount, double(hist[size_t(b)]));
                bars->addData(b, double(hist[size_t(b)]));
            }
        }
        if (first > last) {
            first = last = 0;
        }
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        const int span = last - first + 1;
        const int step = span <= 8 ? 1 : (span + 6) / 7;
        for (int b = first; b <= last; b += step) {
            ticker->addTick(b, label(ReuseAnalysis::bucketFloor(b)));
        }
        p->xAxis->setTicker(ticker);
        p->xAxis->setRange(first - 0.6, last + 0.6);
        if (h == ReuseCountHistogram) {
            setLogCountAxis(p->yAxis, maxCount);
        } else {
            p->yAxis->setRange(0, maxCount * 1.1);
        }
        const bool ofKeys = h == ReuseCountHistogram;  // the others count reuses
        QString figures = tr("no data");
        if (f.n > 0) {
            const bool time = h == DistanceTimeHistogram;
            const QString med =
                time ? TimeFormat::duration(f.median) : CacheTab::count(qint64(f.median));
            const QString p95 = time ? TimeFormat::duration(f.p95) : CacheTab::count(qint64(f.p95));
            figures = tr("median %1 · p95 %2 · %3")
                          .arg(med, p95,
                               ofKeys ? CacheTab::counted(f.n, tr("key"), tr("keys"))
                                      : CacheTab::counted(f.n, tr("reuse"), tr("reuses")));
        }
        // two lines: three plots side by side leave each a third of the width
        m_fullTitles[h] = QStringLiteral("%1\n%2").arg(names[h], figures);
        fitTitleToPlot(h, true);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

QString ReuseHistograms::shownTitle(Histogram h) const {
    return m_titles[h]->text();
}

QString ReuseHistograms::fitTitle(const QString &title, const QFontMetrics &fm, int width,
                                  bool *elided) {
    if (elided) {
        *elided = false;
    }
    if (width <= 0) {
        return title;
    }
    static const QString kSeparator = QStringLiteral(" · ");
    QStringList out;
    for (const QString &line : title.split(QLatin1Char('\n'))) {
        if (fm.horizontalAdvance(line) <= width) {
            out << line;
            continue;
        }
        QString packed;
        const auto flush = [&] {
            if (fm.horizontalAdvance(packed) > width) {
                packed = fm.elidedText(packed, Qt::ElideRight, width);
                if (elided) {
                    *elided = true;
                }
            }
            out << packed;
            packed.clear();
        };
        for (const QString &part : line.split(kSeparator)) {
            if (packed.isEmpty()) {
                packed = part;
            } else if (fm.horizontalAdvance(packed + kSeparator + part) <= width) {
                packed += kSeparator + part;
            } else {
                flush();
                packed = part;
            }
        }
        flush();
    }
    return out.join(QLatin1Char('\n'));
}

void ReuseHistograms::fitTitleToPlot(int h, bool force) {
    QCustomPlot *p = m_plots[h];
    QCPTextElement *title = m_titles[h];
    const int width = p->width() - title->margins().left() - title->margins().right();
    if (!force && p->property("lmctTitleWidth").toInt() == width) {
        return;
    }
    p->setProperty("lmctTitleWidth", width);
    bool elided = false;
    const QString shown = fitTitle(m_fullTitles[h], QFontMetrics(title->font()), width, &elided);
    p->setToolTip(elided ? m_fullTitles[h] : QString());
    if (shown != title->text()) {
        title->setText(shown);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void ReuseHistograms::setLogCountAxis(QCPAxis *axis, double maxCount) {
    // from the bars' base to a bit above the tallest
    axis->setRange(kLogBase, std::max(10.0, maxCount * 1.6));
    setLogCountTicks(axis);
}

void ReuseHistograms::setLogCountTicks(QCPAxis *axis) {
    // Ticks at powers of ten labelled 1, 10, 100, 1k, ...; every other (or third...) decade
    // when the plot is too short for all of them to be read.
    const double top = axis->range().upper;
    const int decades = int(std::floor(std::log10(std::max(10.0, top)))) + 1;  // 10^0 ...
    const int labelPx = QFontMetrics(axis->tickLabelFont()).height();
    const int height = axis->axisRect()->height();
    const int room = height > 0 ? std::max(1, height / (labelPx * 3 / 2)) : decades;
    const int step = std::max(1, (decades + room - 1) / room);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int e = 0; e < decades; e += step) {
        ticker->addTick(std::pow(10.0, e), decade(e));
    }
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
}

}  // namespace lmct
