#include "shell/deploymenttimelines.h"

#include "deploymentlink.h"
#include "timeline/timelinealignment.h"
#include "timeline/timelinewidget.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lmct {

DeploymentTimelines::DeploymentTimelines(QWidget *parent) : QWidget(parent) {
    m_rows = new QVBoxLayout(this);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(2);
    m_alignment = new TimelineAlignment(this);
}

QColor DeploymentTimelines::traceColor(int t) {
    // Tableau 10 without the call colours' first two: trace badges, not calls.
    static const QColor colors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                    QColor(0x59, 0xa1, 0x4f), QColor(0xb0, 0x7a, 0xa1),
                                    QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                    QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f)};
    return colors[size_t(std::max(0, t)) % (sizeof(colors) / sizeof(colors[0]))];
}

void DeploymentTimelines::setTraces(const TraceSet &set, const QList<ViewState *> &states,
                                    DeploymentLink *link, const QStringList &labels,
                                    const QList<int> &badges, bool hideFiltered) {
    m_set = set;
    m_link = link;
    m_labels = labels;
    for (int t = 0; t < set.size() && t < states.size(); ++t) {
        auto *head = new QHBoxLayout;
        head->setContentsMargins(2, 2, 2, 0);
        const int number = badges.value(t, t);
        auto *badge = new QLabel(QString::number(number + 1));
        QFont f = badge->font();
        f.setBold(true);
        badge->setFont(f);
        badge->setAlignment(Qt::AlignCenter);
        badge->setMinimumWidth(badge->fontMetrics().horizontalAdvance(QStringLiteral("WW")));
        badge->setStyleSheet(
            QStringLiteral("QLabel { background: %1; color: white; border-radius: 3px; "
                           "padding: 1px 4px; }")
                .arg(traceColor(number).name()));
        head->addWidget(badge);
        auto *label = new QLabel;
        label->setTextFormat(Qt::PlainText);
        label->setObjectName(QStringLiteral("traceHeader"));
        head->addWidget(label, 1);
        m_rows->addLayout(head);

        auto *timeline = new TimelineWidget;
        timeline->setRatePlotVisible(false);
        timeline->overview()->hide();
        timeline->setTimeMode(TimelineWidget::TimeMode::Wall);
        timeline->setWallShift(set.offset(t));
        timeline->setMinimumHeight(t == 0 ? 250 : 215);  // the lanes readable, not squeezed
        if (hideFiltered) {
            timeline->setFilterMode(TimelineWidget::FilterMode::Hide);
        }
        timeline->setViewState(states[t]);
        if (t > 0) {
            if (auto *bar = timeline->findChild<QToolBar *>()) {
                bar->hide();
            }
        }
        m_rows->addWidget(timeline, 1);
        m_alignment->add(timeline);
        link->linkViewport(t, timeline->viewport());
        m_timelines.append(timeline);
        m_headers.append(label);
        connect(timeline, &TimelineWidget::hoverTimeChanged, this, [this, t](double at) {
            for (int o = 0; o < count(); ++o) {
                if (o != t) {
                    m_timelines[o]->showTimeGuide(std::isnan(at) ? at : m_link->map(t, o, at));
                }
            }
        });
        connect(timeline, &TimelineWidget::indexReady, this, [this] {
            // Until a window is moved by hand (it is then no longer fitted), show all.
            for (TimelineWidget *w : std::as_const(m_timelines)) {
                if (!w->viewport()->isFitted()) {
                    return;
                }
            }
            showAll();
        });
        updateHeader(t);
    }
}

void DeploymentTimelines::updateSet(const TraceSet &set) {
    m_set = set;
    for (int t = 0; t < count() && t < set.size(); ++t) {
        if (m_timelines[t]->wallShift() != set.offset(t)) {
            m_timelines[t]->setWallShift(set.offset(t));
        }
        updateHeader(t);
    }
}

void DeploymentTimelines::updateHeader(int t) {
    const TraceDocument &doc = m_set.document(t);
    const QLocale loc;
    QString text = TerminalText::escaped(m_labels.value(t, m_set.displayLabel(t)));
    if (m_labels.isEmpty()) {
        text += tr("  ·  %n record(s)", nullptr, doc.records().size());
    }
    if (m_set.offset(t) != 0.0) {
        text += tr("  ·  offset %1").arg(TimeFormat::delta(m_set.offset(t)));
    }
    if (doc.isLoading()) {
        text += tr("  ·  reading…");
    }
    if (doc.errorCount() > 0 || doc.warningCount() > 0) {
        text += tr("  ·  ⚠ %n error(s)", nullptr, int(doc.errorCount()));
        text += tr(", %n warning(s)", nullptr, int(doc.warningCount()));
    }
    m_headers[t]->setText(text);
    m_headers[t]->setToolTip(TerminalText::escaped(m_set.trace(t).path));
}

void DeploymentTimelines::showAll() {
    if (count() == 0 || !m_link) {
        return;
    }
    double lower = qInf();
    double upper = -qInf();
    for (int t = 0; t < count(); ++t) {
        const TimelineViewport::Range r = m_timelines[t]->viewport()->traceRange();
        lower = std::min(lower, m_link->toCommon(t, r.lower));
        upper = std::max(upper, m_link->toCommon(t, r.upper));
    }
    if (!(upper > lower)) {
        return;
    }
    const double margin = std::max(1e-6, (upper - lower) * 0.01);
    TimelineViewport *first = m_timelines[0]->viewport();
    first->showWindow(m_link->fromCommon(0, lower - margin), m_link->fromCommon(0, upper + margin));
}

}  // namespace lmct
