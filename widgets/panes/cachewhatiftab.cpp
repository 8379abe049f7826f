#include "panes/cachereusetab.h"

#include "util/timeformat.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

constexpr int kSliderSteps = 1000;
constexpr double kLogBase = 0.5;  // where the bars of the log-scale count histogram stand

/** 0, 1, 2, 4, ... 512, 1k, 2k, ... 1M: a bucket's lower bound, short enough for a tick. */
QString shortCount(quint64 v) {
    if (v >= (quint64(1) << 30)) {
        return QString::number(v >> 30) + QLatin1Char('G');
    }
    if (v >= (quint64(1) << 20)) {
        return QString::number(v >> 20) + QLatin1Char('M');
    }
    if (v >= 1024) {
        return QString::number(v >> 10) + QLatin1Char('k');
    }
    return QString::number(v);
}

/** 1µs, 2µs, ... 512µs, 1ms, ... 1s, ...: a bucket's lower bound in microseconds, for a tick. */
QString shortMicros(quint64 us) {
    auto sig = [](double v) {  // 2 significant digits, whole numbers from 100 on, no exponent
        return v >= 100 ? QString::number(qRound64(v)) : QString::number(v, 'g', 2);
    };
    if (us >= 60000000) {
        return sig(double(us) / 60e6) + QStringLiteral("min");
    }
    if (us >= 1000000) {
        return sig(double(us) / 1e6) + QStringLiteral("s");
    }
    if (us >= 1000) {
        return sig(double(us) / 1e3) + QStringLiteral("ms");
    }
    return us == 0 ? QStringLiteral("0") : QString::number(us) + QStringLiteral("µs");
}

/** 1, 10, 100, 1k, 10k, ... 1M, ...: a power of ten, short enough for a tick. */
QString decade(int exponent) {
    static const char *const kSuffix[] = {"", "k", "M", "G", "T"};
    const int group = std::clamp(exponent / 3, 0, 4);
    return QString::number(qint64(std::llround(std::pow(10.0, exponent - 3 * group)))) +
           QLatin1String(kSuffix[group]);
}

QString percent(double f) {
    return QLocale().toString(100.0 * f, 'f', 1) + QLatin1Char('%');
}

}  // namespace

CacheReuseTab::CacheReuseTab(QWidget *parent) : CacheTab(parent) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 2, 4, 2);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Reuse of the keys of:")));
    m_reuseModel = new QComboBox;
    m_reuseModel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_reuseModel->setToolTip(tr("Reuse distributions of the keys of one model, or of all"));
    connect(m_reuseModel, &QComboBox::currentIndexChanged, this, [this] {
        m_reuseModelChoice = m_reuseModel->currentText();  // kept across analyses
        updateHistograms();
    });
    pick->addWidget(m_reuseModel);
    pick->addStretch(1);
    v->addLayout(pick);
    auto *grid = new QGridLayout;
    grid->setSpacing(2);

    m_hitPlot = new QCustomPlot;
    m_hitPlot->setMinimumSize(240, 150);
    m_hitPlot->plotLayout()->insertRow(0);
    m_hitPlot->plotLayout()->addElement(
        0, 0,
        new QCPTextElement(m_hitPlot, tr("Would have hit: LRU cache of C chunks (all models)")));
    m_hitPlot->addGraph();
    m_hitPlot->graph(0)->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    m_hitPlot->graph(0)->setLineStyle(QCPGraph::lsStepLeft);
    m_hitPlot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_hitPlot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_hitPlot->xAxis->setLabel(tr("capacity C (chunks)"));
    m_hitPlot->yAxis->setLabel(tr("prefetched keys hit (%)"));
    m_hitPlot->yAxis->setRange(0, 100);
    m_capacityLine = new QCPItemStraightLine(m_hitPlot);
    m_capacityLine->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1, Qt::DashLine));
    // the point read at C: drawn whole even on the axes (C = 1, 0% hit, the largest C)
    m_capacityMarker = new QCPItemTracer(m_hitPlot);
    m_capacityMarker->setStyle(QCPItemTracer::tsCircle);
    m_capacityMarker->setSize(9);
    m_capacityMarker->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    m_capacityMarker->setBrush(QColor(255, 255, 255, 220));
    m_capacityMarker->setClipToAxisRect(false);
    m_capacityMarker->setSelectable(false);
    m_capacityMarker->setVisible(false);
    grid->addWidget(m_hitPlot, 0, 0);

    const QString xLabels[kHistogramCount] = {tr("distinct keys in between (log₂ bins)"),
                                              tr("time since the previous use (log₂ bins)"),
                                              tr("uses after the first, per key (log₂ bins)")};
    const QString yLabels[kHistogramCount] = {tr("reuses"), tr("reuses"), tr("keys")};
    const QColor colors[kHistogramCount] = {QColor(0x2c, 0xa0, 0x2c, 180),
                                            QColor(0xff, 0x7f, 0x0e, 180),
                                            QColor(0x94, 0x67, 0xbd, 180)};
    for (int h = 0; h < kHistogramCount; ++h) {
        auto *p = new QCustomPlot;
        p->setMinimumSize(240, 150);
        p->plotLayout()->insertRow(0);
        QFont titleFont = font();
        titleFont.setPointSizeF(std::max(6.0, titleFont.pointSizeF() - 1.0));
        m_histTitles[h] = new QCPTextElement(p, QString(), titleFont);
        p->plotLayout()->addElement(0, 0, m_histTitles[h]);
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
        bars->setWidth(0.85);
        bars->setBrush(colors[h]);
        bars->setPen(Qt::NoPen);
        m_histPlots[h] = p;
    }
    grid->addWidget(m_histPlots[DistanceKeysHistogram], 0, 1);
    grid->addWidget(m_histPlots[DistanceTimeHistogram], 1, 0);
    grid->addWidget(m_histPlots[ReuseCountHistogram], 1, 1);
    v->addLayout(grid, 1);

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Capacity:")));
    m_capacity = new QSlider(Qt::Horizontal);
    m_capacity->setRange(0, kSliderSteps);
    m_capacity->setValue(kSliderSteps / 2);
    m_capacity->setToolTip(tr("Cache capacity in chunks (log scale)"));
    connect(m_capacity, &QSlider::valueChanged, this, &CacheReuseTab::updateCapacity);
    row->addWidget(m_capacity, 1);
    m_capacityLabel = new QLabel;
    m_capacityLabel->setMinimumWidth(fontMetrics().horizontalAdvance(
        QStringLiteral("C = 1,000,000 chunks: 100.0% of 10,000,000 prefetched keys hit")));
    row->addWidget(m_capacityLabel);
    v->addLayout(row);
}

void CacheReuseTab::showAnalysis() {
    const CacheAnalysis *a = m_analysis.get();
    if (!a) {
        m_hitPlot->graph(0)->data()->clear();
        m_hitPlot->replot();
        {
            const QSignalBlocker block(m_reuseModel);
            m_reuseModel->clear();
        }
        updateHistograms();
        updateCapacity();
        return;
    }
    // Hit curve.
    const ReuseAnalysis &r = *a->reuse;
    QVector<double> xs, ys;
    for (const auto &[c, ratio] : r.curve(400)) {
        xs.append(double(c));
        ys.append(100.0 * ratio);
    }
    m_hitPlot->graph(0)->setData(xs, ys, true);
    // Room on both sides of the slider's capacities (1 to the key count), so that the line
    // and the marker at C stay inside the plot at either end of the slider.
    const double keys = a->keys ? double(std::max(1, a->keys->keyCount())) : 1.0;
    const double top = std::max({10.0, xs.isEmpty() ? 10.0 : xs.back() * 2.0, keys * 1.5});
    m_hitPlot->xAxis->setRange(0.7, top);
    // Zoom on what can be reached (the label says the best ratio), in steps of 10%.
    const double best = 100.0 * r.hitRatio(r.saturationCapacity());
    m_hitPlot->yAxis->setRange(0, std::min(100.0, 10.0 * std::ceil(best * 1.15 / 10.0 + 1e-9)));
    // Histograms: the model selector lists the models (the selection kept when it still exists).
    {
        const QSignalBlocker block(m_reuseModel);
        m_reuseModel->clear();
        m_reuseModel->addItem(tr("All models"), -1);
        for (int m = 0; m < int(r.models().size()); ++m) {
            m_reuseModel->addItem(r.models()[size_t(m)].model, m);
        }
        m_reuseModel->setCurrentIndex(std::max(0, m_reuseModel->findText(m_reuseModelChoice)));
    }
    updateHistograms();
    updateCapacity();
}

void CacheReuseTab::updateHistograms() {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    const int m = m_reuseModel->currentData().isValid() ? m_reuseModel->currentData().toInt() : -1;
    const ReuseAnalysis::Stats *st =
        !r ? nullptr
           : (m >= 0 && m < int(r->models().size()) ? &r->models()[size_t(m)] : &r->total());
    const QString names[kHistogramCount] = {tr("Reuse distance (keys)"),
                                            tr("Reuse distance (time)"), tr("Reuse count")};
    for (int h = 0; h < kHistogramCount; ++h) {
        QCustomPlot *p = m_histPlots[h];
        auto *bars = qobject_cast<QCPBars *>(p->plottable(0));
        bars->data()->clear();
        if (!st) {
            m_histTitles[h]->setText(names[h]);
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
            return h == DistanceTimeHistogram ? shortMicros(floor) : shortCount(floor);
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
            const QString med = h == DistanceTimeHistogram ? TimeFormat::duration(f.median)
                                                           : count(qint64(f.median));
            const QString p95 =
                h == DistanceTimeHistogram ? TimeFormat::duration(f.p95) : count(qint64(f.p95));
            figures = tr("median %1 · p95 %2 · %3")
                          .arg(med, p95,
                               ofKeys ? counted(f.n, tr("key"), tr("keys"))
                                      : counted(f.n, tr("reuse"), tr("reuses")));
        }
        m_histTitles[h]->setText(QStringLiteral("%1 — %2").arg(names[h], figures));
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CacheReuseTab::setLogCountAxis(QCPAxis *axis, double maxCount) {
    // from the bars' base to a bit above the tallest
    axis->setRange(kLogBase, std::max(10.0, maxCount * 1.6));
    setLogCountTicks(axis);
}

void CacheReuseTab::setLogCountTicks(QCPAxis *axis) {
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

QString CacheReuseTab::histogramTitle(Histogram h) const {
    return m_histTitles[h]->text();
}

qint64 CacheReuseTab::capacity() const {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    const qint64 keys = r && m_analysis->keys ? std::max(1, m_analysis->keys->keyCount()) : 1;
    const double f = double(m_capacity->value()) / kSliderSteps;
    return std::max<qint64>(1, qint64(std::llround(std::pow(double(keys), f))));
}

QString CacheReuseTab::capacityText() const {
    return m_capacityLabel->text();
}

void CacheReuseTab::updateCapacity() {
    const ReuseAnalysis *r = m_analysis ? m_analysis->reuse.get() : nullptr;
    if (!r) {
        m_capacityLabel->setText(tr("No reuse data"));
        m_capacityLine->setVisible(false);
        m_capacityMarker->setVisible(false);
        m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const qint64 c = capacity();
    m_capacityLabel->setText(
        tr("C = %1: %2 of %3 hit (%4 at best)")
            .arg(counted(c, tr("chunk"), tr("chunks")), percent(r->hitRatio(c)),
                 counted(r->total().prefetches, tr("prefetched key"), tr("prefetched keys")),
                 percent(r->hitRatio(r->saturationCapacity()))));
    m_capacityLine->setVisible(true);
    m_capacityLine->point1->setCoords(double(c), 0);
    m_capacityLine->point2->setCoords(double(c), 100);
    m_capacityMarker->position->setCoords(double(c), 100.0 * r->hitRatio(c));
    m_capacityMarker->setVisible(true);
    m_hitPlot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace lmct
