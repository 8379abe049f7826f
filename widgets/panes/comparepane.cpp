#include "panes/comparepane.h"

#include "cache/bucketlabel.h"
#include "common/legendplacement.h"
#include "common/plottheme.h"
#include "common/policycolors.h"
#include "common/statuscolors.h"
#include "common/whatifcurveplot.h"
#include "itemmodels/cachecomparisonmodel.h"
#include "itemmodels/callcomparisonmodel.h"
#include "itemmodels/configcomparisonmodel.h"
#include "itemmodels/keyoverlapmodel.h"
#include "itemmodels/latencycomparisonmodel.h"
#include "panes/comparisonrowdelegate.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** The least size of the Cache tab's plots: their titles, legends and bucket labels whole. */
constexpr QSize kCachePlotSize(420, 300);

/**
 * Sizes `t` to show every row and column whole, after each reset (the page around it scrolls
 * instead of the table).
 */
void fitToContents(QTableView *t) {
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    t->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    const auto fit = [t] {
        const int frame = 2 * t->frameWidth();
        t->setFixedHeight(frame + t->horizontalHeader()->sizeHint().height() +
                          t->verticalHeader()->length());
        t->setFixedWidth(frame + t->horizontalHeader()->length());
    };
    QObject::connect(t->model(), &QAbstractItemModel::modelReset, t, fit);
    fit();
}

QLabel *reasonLabel() {
    auto *l = new QLabel;
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    QFont f = l->font();
    f.setItalic(true);
    l->setFont(f);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setVisible(false);
    return l;
}

QCustomPlot *makePlot(const QString &title) {
    auto *p = new QCustomPlot;
    p->setMinimumSize(240, 140);
    p->plotLayout()->insertRow(0);
    QFont f = p->font();
    f.setBold(true);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, title, f));
    p->legend->setVisible(true);
    QFont lf = p->font();
    lf.setPointSizeF(std::max(6.0, lf.pointSizeF() - 1.0));
    p->legend->setFont(lf);
    // A and B in a row under the plot: in a corner of a short plot they hid the tallest bars
    LegendPlacement::putUnder(p);
    p->yAxis->setNumberFormat(QStringLiteral("gb"));
    // as many count ticks as the plot's height holds apart: on a short plot eight labels
    // overlapped
    QObject::connect(p, &QCustomPlot::afterLayout, p, [p] {
        const int labelPx = QFontMetrics(p->yAxis->tickLabelFont()).height();
        const int count = std::clamp(p->axisRect()->height() / (2 * labelPx), 2, 5);
        if (p->yAxis->ticker()->tickCount() != count) {
            p->yAxis->ticker()->setTickCount(count);
            p->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    PlotTheme::follow(p);
    return p;
}

/** Two bar series (A, B) of `hist` side by side per bucket, ticks labelled by `label`. */
void showBuckets(QCustomPlot *p, const std::vector<qint64> &a, const std::vector<qint64> &b,
                 const std::function<QString(quint64)> &label) {
    p->clearPlottables();
    int first = int(std::max(a.size(), b.size())), last = 0;
    double top = 1;
    for (int i = 0; i < int(std::max(a.size(), b.size())); ++i) {
        const qint64 va = i < int(a.size()) ? a[size_t(i)] : 0;
        const qint64 vb = i < int(b.size()) ? b[size_t(i)] : 0;
        if (va > 0 || vb > 0) {
            first = std::min(first, i);
            last = i;
            top = std::max({top, double(va), double(vb)});
        }
    }
    if (first > last) {
        first = last = 0;
    }
    for (int side = 0; side < 2; ++side) {
        const std::vector<qint64> &h = side == 0 ? a : b;
        auto *bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(side == 0 ? QObject::tr("A") : QObject::tr("B"));
        bars->setWidth(0.4);
        QColor c = ComparePane::sideColor(side == 1);
        bars->setPen(QPen(c.darker(120)));
        c.setAlpha(200);
        bars->setBrush(c);
        for (int i = first; i <= last && i < int(h.size()); ++i) {
            if (h[size_t(i)] > 0) {
                bars->addData(i + (side == 0 ? -0.2 : 0.2), double(h[size_t(i)]));
            }
        }
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int span = last - first + 1;
    // As many labels as fit apart in the plot's least width (its y axis and margins take about
    // 80 px), at most 8: a label every `step` buckets.
    const QFontMetrics fm(p->xAxis->tickLabelFont());
    int labelWidth = 1;
    for (int i = first; i <= last; ++i) {
        labelWidth =
            std::max(labelWidth, fm.horizontalAdvance(label(ReuseAnalysis::bucketFloor(i))) + 10);
    }
    const int fit = std::clamp((p->minimumWidth() - 80) / labelWidth, 1, 8);
    const int step = (span + fit - 1) / fit;
    for (int i = first; i <= last; i += step) {
        ticker->addTick(i, label(ReuseAnalysis::bucketFloor(i)));
    }
    p->xAxis->setTicker(ticker);
    p->xAxis->setRange(first - 0.7, last + 0.7);
    p->yAxis->setRange(0, top * 1.12);
    p->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace

ComparePane::ComparePane(QWidget *parent)
    : QWidget(parent),
      m_tabs(new QTabWidget(this)),
      m_configModel(new ConfigComparisonModel(this)),
      m_callModel(new CallComparisonModel(this)),
      m_latencyModel(new LatencyComparisonModel(this)),
      m_cacheModel(new CacheComparisonModel(this)),
      m_overlapModel(new KeyOverlapModel(this)) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    // A damaged trace's warning, above every tab: its figures leave the damage out.
    m_damage = new QLabel;
    m_damage->setObjectName(QStringLiteral("compareDamage"));
    m_damage->setWordWrap(true);
    m_damage->setTextFormat(Qt::PlainText);
    m_damage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_damage->setContentsMargins(6, 3, 6, 3);
    m_damage->setVisible(false);
    v->addWidget(m_damage);
    v->addWidget(m_tabs);
    // Each page scrolls when squeezed below its minimum (the plots'), so that the pane does
    // not take the timelines' room above it.
    const auto scrolled = [](QWidget *page) {
        auto *area = new QScrollArea;
        area->setFrameShape(QFrame::NoFrame);
        area->setWidgetResizable(true);
        area->setWidget(page);
        return area;
    };
    m_tabs->addTab(scrolled(buildHeaderTab()), tr("Header && config"));
    m_tabs->addTab(scrolled(buildCallsTab()), tr("Calls"));
    m_tabs->addTab(scrolled(buildLatenciesTab()), tr("Latencies"));
    m_tabs->addTab(scrolled(buildCacheTab()), tr("Cache"));
    setComparison(nullptr);
}

ComparePane::~ComparePane() = default;

QColor ComparePane::policyColor(CachePolicy::Kind kind) {
    return PolicyColors::color(kind);  // as the What-if tab and the timeline's hit plot draw it
}

QColor ComparePane::sideColor(bool b) {
    return b ? QColor(0xff, 0x7f, 0x0e) : QColor(0x1f, 0x77, 0xb4);
}

QTableView *ComparePane::makeTable(QAbstractItemModel *model, ComparisonRowDelegate *delegate) {
    auto *t = new QTableView;
    t->setModel(model);
    t->setItemDelegate(delegate);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setStretchLastSection(false);
    t->horizontalHeader()->setHighlightSections(false);
    t->setAlternatingRowColors(false);
    connect(model, &QAbstractItemModel::modelReset, t, [t] { t->resizeColumnsToContents(); });
    return t;
}

QWidget *ComparePane::buildHeaderTab() {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    m_configSummary = new QLabel;
    m_configSummary->setWordWrap(true);
    m_configSummary->setTextFormat(Qt::PlainText);
    v->addWidget(m_configSummary);
    ComparisonRowDelegate::Roles roles;
    roles.differs = ConfigComparisonModel::DiffersRole;
    roles.isVolatile = ConfigComparisonModel::VolatileRole;
    m_configView = makeTable(m_configModel, new ComparisonRowDelegate(roles, this));
    connect(m_configModel, &QAbstractItemModel::modelReset, m_configView, [this] {
        // Long values (a config JSON, a digest) are elided: their tool tip has them whole.
        for (int c = 0; c < ConfigComparisonModel::kColumnCount; ++c) {
            m_configView->setColumnWidth(
                c, std::min(m_configView->columnWidth(c),
                            c == ConfigComparisonModel::FieldColumn ? 380 : 300));
        }
    });
    v->addWidget(m_configView, 1);
    m_reasons[HeaderTab] = reasonLabel();
    v->addWidget(m_reasons[HeaderTab]);
    return w;
}

QWidget *ComparePane::buildCallsTab() {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    ComparisonRowDelegate::Roles roles;
    roles.reason = FigureTableModel::ReasonRole;
    roles.isTotal = FigureTableModel::IsTotalRole;
    m_callView = makeTable(m_callModel, new ComparisonRowDelegate(roles, this));
    v->addWidget(m_callView, 1);
    m_reasons[CallsTab] = reasonLabel();
    v->addWidget(m_reasons[CallsTab]);
    return w;
}

QWidget *ComparePane::buildLatenciesTab() {
    auto *w = new QWidget;
    auto *h = new QHBoxLayout(w);
    h->setContentsMargins(4, 4, 4, 4);
    auto *left = new QVBoxLayout;
    ComparisonRowDelegate::Roles roles;
    roles.reason = FigureTableModel::ReasonRole;
    m_latencyView = makeTable(m_latencyModel, new ComparisonRowDelegate(roles, this));
    connect(m_latencyModel, &QAbstractItemModel::modelReset, m_latencyView, [v = m_latencyView] {
        // Every column whole, Δ % included: on a narrow window the page scrolls sideways
        // rather than the table cutting its last column.
        v->setMinimumWidth(2 * v->frameWidth() + v->horizontalHeader()->length() +
                           v->verticalScrollBar()->sizeHint().width());
    });
    left->addWidget(m_latencyView, 1);
    m_reasons[LatenciesTab] = reasonLabel();
    left->addWidget(m_reasons[LatenciesTab]);
    h->addLayout(left, 3);
    auto *right = new QVBoxLayout;
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Distribution of:")));
    m_latencyChooser = new QComboBox;
    for (int k = 0; k < LatencyComparison::kKindCount; ++k) {
        m_latencyChooser->addItem(LatencyComparison::kindLabel(LatencyComparison::Kind(k)), k);
    }
    connect(m_latencyChooser, &QComboBox::currentIndexChanged, this,
            &ComparePane::updateLatencyPlot);
    pick->addWidget(m_latencyChooser, 1);
    right->addLayout(pick);
    m_latencyPlot = makePlot(tr("Latency distribution, A and B"));
    m_latencyPlot->xAxis->setLabel(tr("latency (log₂ bins)"));
    m_latencyPlot->yAxis->setLabel(tr("count"));
    right->addWidget(m_latencyPlot, 1);
    h->addLayout(right, 2);
    return w;
}

QWidget *ComparePane::buildCacheTab() {
    // One column the page scrolls through, so that nothing is squeezed on a laptop screen: the
    // figures with every column whole (A, B, Δ, Δ %), the key overlap beside the reasons, then
    // the two plots side by side at a readable size.
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(4, 4, 4, 4);
    ComparisonRowDelegate::Roles roles;
    roles.reason = FigureTableModel::ReasonRole;
    roles.isTotal = FigureTableModel::IsTotalRole;
    m_cacheView = makeTable(m_cacheModel, new ComparisonRowDelegate(roles, this));
    fitToContents(m_cacheView);
    v->addWidget(m_cacheView, 0, Qt::AlignLeft);
    auto *middle = new QHBoxLayout;
    auto *overlap = new QVBoxLayout;
    overlap->addWidget(new QLabel(tr("Key overlap per model")));
    ComparisonRowDelegate::Roles overlapRoles;
    overlapRoles.isTotal = KeyOverlapModel::IsTotalRole;
    m_overlapView = makeTable(m_overlapModel, new ComparisonRowDelegate(overlapRoles, this));
    fitToContents(m_overlapView);
    overlap->addWidget(m_overlapView);
    overlap->addStretch(1);
    middle->addLayout(overlap);
    m_reasons[CacheTab] = reasonLabel();
    m_reasons[CacheTab]->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    middle->addWidget(m_reasons[CacheTab], 1);
    v->addLayout(middle);
    auto *split = new QSplitter(Qt::Horizontal);
    split->setChildrenCollapsible(false);

    m_whatIfTitle = tr("What-if: prefetch hit ratio (A solid, B dashed)");
    // One legend entry per policy (its colour; A solid, B dashed as the title says), in rows of
    // three below the plot: twelve entries inside the axis rect hid the curves.
    m_whatIfPlot = new WhatIfCurvePlot(WhatIfCurvePlot::Legend::Below);
    m_whatIfPlot->setTitle(m_whatIfTitle);
    split->addWidget(m_whatIfPlot);
    auto *right = new QWidget;
    auto *rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Reuse distance in:")));
    m_reuseChooser = new QComboBox;
    m_reuseChooser->addItem(tr("distinct keys"));
    m_reuseChooser->addItem(tr("time"));
    connect(m_reuseChooser, &QComboBox::currentIndexChanged, this, &ComparePane::updateReusePlot);
    pick->addWidget(m_reuseChooser);
    pick->addStretch(1);
    rv->addLayout(pick);
    m_reusePlot = makePlot(tr("Reuse distance, A and B"));
    m_reusePlot->yAxis->setLabel(tr("reuses"));
    rv->addWidget(m_reusePlot, 1);
    split->addWidget(right);
    for (QCustomPlot *p : {static_cast<QCustomPlot *>(m_whatIfPlot), m_reusePlot}) {
        p->setMinimumSize(kCachePlotSize);
    }
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    v->addWidget(split, 1);
    return w;
}

void ComparePane::setComparison(std::shared_ptr<const TraceComparison> c) {
    m_comparison = std::move(c);
    if (m_comparison) {
        m_configModel->setComparison(m_comparison->header());
    } else {
        m_configModel->clear();
    }
    m_callModel->setComparison(m_comparison);
    m_latencyModel->setComparison(m_comparison);
    m_cacheModel->setComparison(m_comparison);
    m_overlapModel->setComparison(m_comparison);
    if (m_comparison) {
        const HeaderComparison &h = m_comparison->header();
        int volatileCount = 0;
        for (const HeaderComparison::Row &r : h.rows()) {
            volatileCount += r.isVolatile && !r.differs ? 1 : 0;
        }
        QString text = tr("%n field(s) differ (highlighted)", nullptr, h.differingCount());
        if (volatileCount > 0) {
            text += tr("; %n volatile field(s) ignored (greyed)", nullptr, volatileCount);
        }
        m_configSummary->setText(text + QLatin1Char('.'));
        m_configSummary->setToolTip(h.configExplanation());
    } else {
        m_configSummary->setText(tr("No comparison yet."));
    }
    const QStringList damage = m_comparison ? m_comparison->damageWarnings() : QStringList();
    QStringList lines;
    for (const QString &w : damage) {
        lines << QStringLiteral("⚠ ") + w;
    }
    m_damage->setText(lines.join(QLatin1Char('\n')));
    m_damage->setStyleSheet(QStringLiteral("QLabel#compareDamage { color: %1; font-weight: bold; }")
                                .arg(StatusColors::warning(palette()).name()));
    m_damage->setToolTip(
        tr("Open the trace in a tab of its own: its Diagnostics dock says where and how the "
           "file is damaged."));
    m_damage->setVisible(!lines.isEmpty());
    updateReasons();
    updateLatencyPlot();
    updateWhatIfPlot();
    updateReusePlot();
}

QCustomPlot *ComparePane::whatIfPlot() const {
    return m_whatIfPlot;
}

QString ComparePane::reasonText(Tab tab) const {
    return m_reasons[tab] ? m_reasons[tab]->text() : QString();
}

void ComparePane::updateReasons() {
    const auto collect = [](const FigureTableModel *m, QStringList *out) {
        for (const FigureTableModel::Row &r : m->rows()) {
            if (!r.reason.isEmpty() && !out->contains(r.reason)) {
                out->append(r.reason);
            }
        }
    };
    QStringList lists[4];
    QStringList notes;
    if (m_comparison) {
        // A config that is no JSON object (absent, empty, cut) is compared as one text.
        for (const ConfigDiff::Change &ch : m_comparison->header().configDiff().changes()) {
            if (ch.path.isEmpty()) {
                lists[HeaderTab].append(
                    tr("sm_config_json of A or B is no JSON object: the configs are compared as "
                       "whole texts, field by field comparison is not possible"));
            }
        }
        collect(m_callModel, &lists[CallsTab]);
        collect(m_latencyModel, &lists[LatenciesTab]);
        collect(m_cacheModel, &lists[CacheTab]);
        const CacheComparison &k = m_comparison->cache();
        for (const QString &r :
             {k.hitRatioReason(), k.lmcacheReason(), k.whatIfReason(), k.overlap().reason()}) {
            if (!r.isEmpty() && !lists[CacheTab].contains(r)) {
                lists[CacheTab].append(r);
            }
        }
        // The assumptions of the replays at the configured capacity (the policy row carries
        // them as its reason) are notes, not reasons.
        for (const QString &note : {k.a().atCapacity.note, k.b().atCapacity.note}) {
            if (!note.isEmpty()) {
                notes.append(note);
            }
        }
        lists[CacheTab].removeIf([&notes](const QString &r) {
            return notes.contains(r) || r == notes.join(QStringLiteral("; "));
        });
    }
    for (int t = 0; t < 4; ++t) {
        if (!m_reasons[t]) {
            continue;
        }
        const auto bullets = [](const QStringList &items) {
            QStringList lines;
            for (const QString &r : items) {
                lines << QStringLiteral("• ") + r;
            }
            return lines.join(QLatin1Char('\n'));
        };
        QStringList parts;
        if (!lists[t].isEmpty()) {
            parts << tr("Not compared:\n%1").arg(bullets(lists[t]));
        }
        if (t == CacheTab && !notes.isEmpty()) {
            parts << tr("Note:\n%1").arg(bullets(notes));
        }
        m_reasons[t]->setText(parts.join(QLatin1Char('\n')));
        m_reasons[t]->setVisible(!parts.isEmpty());
    }
}

void ComparePane::updateLatencyPlot() {
    const int k = std::max(0, m_latencyChooser->currentIndex());
    if (!m_comparison) {
        m_latencyPlot->clearPlottables();
        m_latencyPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const LatencyComparison::Row &r = m_comparison->latencies().row(LatencyComparison::Kind(k));
    showBuckets(m_latencyPlot, r.a.buckets, r.b.buckets, BucketLabel::micros);
}

void ComparePane::updateWhatIfPlot() {
    WhatIfCurvePlot *p = m_whatIfPlot;
    p->clearCurves();
    const TraceComparison *c = m_comparison.get();
    if (!c || !c->cache().a().whatIf || !c->cache().b().whatIf) {
        p->setTitle(m_whatIfTitle);
        p->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    double maxCapacity = 1;
    QStringList unknown;  // sides without prefetches: no curve (WhatIfAnalysis says 0)
    for (int side = 0; side < 2; ++side) {
        const CacheComparison::Side &cs = side == 0 ? c->cache().a() : c->cache().b();
        if (!cs.hasWhatIfRatios()) {
            unknown << (side == 0 ? tr("A") : tr("B"));
            continue;
        }
        WhatIfCurvePlot::Style style;
        style.pen = side == 0 ? Qt::SolidLine : Qt::DashLine;
        style.width = side == 0 ? 2.0 : 1.6;
        for (const WhatIfAnalysis::Curve &cv : cs.whatIf->curves()) {
            QVector<double> xs, ys;
            for (size_t i = 0; i < cv.capacities.size() && i < cv.prefetchHitRatio.size(); ++i) {
                xs.append(double(cv.capacities[i]));
                ys.append(100.0 * cv.prefetchHitRatio[i]);
                maxCapacity = std::max(maxCapacity, double(cv.capacities[i]));
            }
            // one legend entry per policy: A's, or B's when A has no such curve
            const bool inLegend = side == 0 || !c->cache().a().hasWhatIfRatios() ||
                                  !c->cache().a().whatIf->curve(cv.policy);
            p->addCurve(cv.policy, xs, ys, style, inLegend);
        }
    }
    p->xAxis->setRange(0.7, maxCapacity * 1.4);
    p->yAxis->setRange(0, 105);
    QString text = m_whatIfTitle;
    for (const QString &side : unknown) {
        text += QLatin1Char('\n') + tr("%1: — (%1 has no submit_prefetch_task)").arg(side);
    }
    p->setTitle(text);
    p->replot(QCustomPlot::rpQueuedReplot);
}

void ComparePane::updateReusePlot() {
    const bool time = m_reuseChooser->currentIndex() == 1;
    m_reusePlot->xAxis->setLabel(time ? tr("time since the previous use (log₂ bins)")
                                      : tr("distinct keys in between (log₂ bins)"));
    if (!m_comparison) {
        m_reusePlot->clearPlottables();
        m_reusePlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const ReuseAnalysis::Stats &a = m_comparison->cache().a().reuse->total();
    const ReuseAnalysis::Stats &b = m_comparison->cache().b().reuse->total();
    if (time) {
        showBuckets(m_reusePlot, a.distanceTime, b.distanceTime, BucketLabel::micros);
    } else {
        showBuckets(m_reusePlot, a.distanceKeys, b.distanceKeys, BucketLabel::count);
    }
}

}  // namespace lmct
