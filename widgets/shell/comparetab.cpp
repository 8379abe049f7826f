#include "shell/comparetab.h"

#include "common/jobpool.h"
#include "comparisonlink.h"
#include "panes/comparepane.h"
#include "panes/compareplotexports.h"
#include "records/filterbar.h"
#include "shell/traceloadjob.h"
#include "timeline/timelinealignment.h"
#include "timeline/timelinewidget.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace lmct {

CompareTab::CompareTab(QWidget *parent)
    : QWidget(parent), m_stateA(new ViewState(this)), m_stateB(new ViewState(this)) {
    m_link = new ComparisonLink(m_stateA, m_stateB, this);

    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->setSpacing(4);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Align:")));
    m_alignment = new QComboBox;
    m_alignment->addItem(tr("from each trace's start"));
    m_alignment->addItem(tr("by t_wall"));
    m_alignment->setToolTip(
        tr("From each trace's start: t_mono 0 of both at the same place.\n"
           "By t_wall: instants of the same wall-clock time at the same place."));
    bar->addWidget(m_alignment);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Offset of B:")));
    m_offset = new QDoubleSpinBox;
    m_offset->setRange(-1e7, 1e7);
    m_offset->setDecimals(6);
    m_offset->setSingleStep(0.001);
    m_offset->setSuffix(tr(" s"));
    m_offset->setToolTip(tr("Shift of B on the common time axis (positive: B later)"));
    bar->addWidget(m_offset);
    m_handle = new QLabel(tr("⇔ drag B"));
    m_handle->setFrameShape(QFrame::StyledPanel);
    m_handle->setCursor(Qt::SizeHorCursor);
    m_handle->setToolTip(tr("Drag sideways to shift B's timeline against A's"));
    m_handle->setContentsMargins(6, 1, 6, 1);
    m_handle->installEventFilter(this);
    bar->addWidget(m_handle);
    bar->addStretch(1);
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText);
    bar->addWidget(m_status);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(200);
    m_progress->setVisible(false);
    bar->addWidget(m_progress);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setVisible(false);
    connect(m_cancel, &QPushButton::clicked, this, &CompareTab::cancel);
    bar->addWidget(m_cancel);
    v->addLayout(bar);

    // The timelines above the pane, both the full width: the time axes and the pane's
    // six-column tables need it more than the height.
    auto *split = m_split = new QSplitter(Qt::Vertical);
    auto *timelines = m_timelines = new QSplitter(Qt::Vertical);
    m_sides[0] = buildSide(false);
    m_sides[1] = buildSide(true);
    timelines->addWidget(m_sides[0]);
    timelines->addWidget(m_sides[1]);
    split->addWidget(timelines);
    m_pane = new ComparePane;
    ComparePlotExports::install(m_pane);
    split->addWidget(m_pane);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 4);
    // 5:4 from the start (scaled to the room there is), whatever the tables' size hints ask;
    // once shown, the lanes' need (fitTimelines())
    split->setSizes({5000, 4000});
    timelines->setSizes({1000, 1000});
    v->addWidget(split, 1);
    for (QSplitter *s : {split, timelines}) {
        connect(s, &QSplitter::splitterMoved, this, [this] { m_sizedByHand = true; });
    }
    split->installEventFilter(this);

    m_link->linkViewports(m_timelineA->viewport(), m_timelineB->viewport());
    // One time at one x in both: the same label column, and a guide at the time hovered in the
    // other timeline (mapped through the alignment and B's offset).
    m_alignmentOfPlots = new TimelineAlignment(this);
    m_alignmentOfPlots->add(m_timelineA);
    m_alignmentOfPlots->add(m_timelineB);
    connect(m_timelineA, &TimelineWidget::hoverTimeChanged, this,
            [this](double t) { m_timelineB->showTimeGuide(std::isnan(t) ? t : m_link->toB(t)); });
    connect(m_timelineB, &TimelineWidget::hoverTimeChanged, this,
            [this](double t) { m_timelineA->showTimeGuide(std::isnan(t) ? t : m_link->toA(t)); });
    // A new alignment can move B far from A (t_wall of runs days apart): show both whole.
    connect(m_alignment, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_link->setAlignment(i == 1 ? ComparisonLink::Alignment::Wall
                                    : ComparisonLink::Alignment::Start);
        showBoth();
    });
    connect(m_offset, &QDoubleSpinBox::valueChanged, m_link, &ComparisonLink::setOffset);
    connect(m_link, &ComparisonLink::mappingChanged, this, [this] {
        if (m_offset->value() != m_link->offset()) {
            const QSignalBlocker block(m_offset);
            m_offset->setValue(m_link->offset());
        }
        updateHeaders();
    });
    // Once both timelines have their trace, B's window starts as A's, mapped.
    for (TimelineWidget *t : {m_timelineA, m_timelineB}) {
        connect(t, &TimelineWidget::indexReady, this, &CompareTab::fitTimelines);
        connect(t, &TimelineWidget::indexReady, this, [this] {
            if (!m_aligned && !m_timelineA->isIndexing() && !m_timelineB->isIndexing() &&
                m_stateA->document() && m_stateB->document()) {
                m_aligned = true;
                showBoth();
            }
        });
    }
    updateHeaders();
}

CompareTab::~CompareTab() {
    if (m_cancelFlag) {
        m_cancelFlag->store(true);
    }
    m_watcher.waitForFinished();
}

QWidget *CompareTab::buildSide(bool b) {
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    auto *head = new QHBoxLayout;
    auto *badge = new QLabel(b ? QStringLiteral("B") : QStringLiteral("A"));
    QFont f = badge->font();
    f.setBold(true);
    badge->setFont(f);
    badge->setAlignment(Qt::AlignCenter);
    badge->setMinimumWidth(badge->fontMetrics().horizontalAdvance(QStringLiteral("WW")));
    const QColor c = ComparePane::sideColor(b);
    badge->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: white; border-radius: 3px; "
                       "padding: 1px 4px; }")
            .arg(c.name()));
    head->addWidget(badge);
    auto *label = new QLabel;
    label->setTextFormat(Qt::PlainText);
    head->addWidget(label, 2);
    auto *filter = new FilterBar;
    filter->setViewState(b ? m_stateB : m_stateA);
    head->addWidget(filter, 3);
    v->addLayout(head);
    // Without the rate plot and the overview strip (the windows follow each other, and start
    // on both traces whole): the lanes get the height. Squeezed below the lanes' readable
    // height, the timeline scrolls, as in its dock.
    auto *timeline = new TimelineWidget;
    timeline->setRatePlotVisible(false);
    timeline->overview()->hide();
    timeline->setViewState(b ? m_stateB : m_stateA);
    auto *scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(timeline);
    v->addWidget(scroll, 1);
    (b ? m_headerB : m_headerA) = label;
    (b ? m_filterB : m_filterA) = filter;
    (b ? m_timelineB : m_timelineA) = timeline;
    return w;
}

QString CompareTab::title() const {
    const auto name = [](const QString &path, const std::shared_ptr<const TraceDocument> &doc) {
        return doc ? TerminalText::escaped(doc->fileName())
                   : TerminalText::escaped(QFileInfo(path).fileName());
    };
    return tr("%1 ⇄ %2").arg(name(m_pathA, m_docA), name(m_pathB, m_docB));
}

bool CompareTab::isBusy() const {
    return (m_jobA && m_jobA->isRunning()) || (m_jobB && m_jobB->isRunning()) ||
           m_watcher.isRunning();
}

void CompareTab::showBoth() {
    // Both traces on the common axis, in A's t_mono: A's [0, duration] and B's mapped.
    const double lower = std::min(0.0, m_link->toA(0.0));
    const double upper =
        std::max(m_docA ? m_docA->duration() : 0.0, m_link->toA(m_docB ? m_docB->duration() : 0.0));
    const double margin = std::max(1e-6, (upper - lower) * 0.01);
    m_timelineA->viewport()->noteJump();
    m_timelineA->viewport()->showWindow(lower - margin, upper + margin);
}

void CompareTab::fitTimelines() {
    if (m_sizedByHand || !m_split->isVisible()) {
        return;
    }
    const int total = m_split->height() - m_split->handleWidth();
    if (total <= 0) {
        return;
    }
    // each side: its header row and a timeline that shows every lane at readable rows
    int need[2];
    for (int i = 0; i < 2; ++i) {
        const auto *side = static_cast<QBoxLayout *>(m_sides[i]->layout());
        const int header = side->itemAt(0)->sizeHint().height() + side->spacing();
        need[i] = header + (i ? m_timelineB : m_timelineA)->readableHeight();
    }
    const int wanted = need[0] + need[1] + m_timelines->handleWidth();
    const int room = total - int(std::ceil(total * kPaneLeastShare));
    const int given = std::min(wanted, room);
    if (given <= 0) {
        return;
    }
    m_split->setSizes({given, total - given});
    // squeezed, both in proportion to their need
    const int inner = given - m_timelines->handleWidth();
    const int a = int(std::lround(double(inner) * need[0] / std::max(1, need[0] + need[1])));
    m_timelines->setSizes({a, inner - a});
}

void CompareTab::updateHeaders() {
    const auto describe = [this](bool b) {
        const auto &doc = b ? m_docB : m_docA;
        const QString &path = b ? m_pathB : m_pathA;
        QString text = doc ? TerminalText::escaped(doc->fileName())
                           : TerminalText::escaped(QFileInfo(path).fileName());
        if (doc) {
            text += tr("  (%n record(s), %1)", nullptr, doc->records().size())
                        .arg(TimeFormat::duration(doc->duration()));
        }
        if (b) {
            text += tr("  offset %1").arg(TimeFormat::delta(m_link->offset()));
            if (m_link->alignment() == ComparisonLink::Alignment::Wall) {
                text += tr(", t_wall %1").arg(TimeFormat::delta(m_link->base()));
            }
        }
        return text;
    };
    m_headerA->setText(describe(false));
    m_headerB->setText(describe(true));
    m_headerA->setToolTip(TerminalText::escaped(m_pathA));
    m_headerB->setToolTip(TerminalText::escaped(m_pathB));
    // t_wall alignment needs both traces' t_wall
    if (auto *items = qobject_cast<QStandardItemModel *>(m_alignment->model())) {
        const QString reason = m_link->wallReason();
        if (QStandardItem *wall = items->item(1)) {
            wall->setEnabled(reason.isEmpty());
            wall->setToolTip(reason);
        }
    }
}

void CompareTab::lineUp(const CompareAlignmentOptions &options) {
    m_alignment->setCurrentIndex(options.byWall() ? 1 : 0);
    m_link->setAlignment(options.alignment);
    m_link->setOffset(options.offset);
    checkWallAlignment();
}

void CompareTab::checkWallAlignment() {
    if (!m_docA || !m_docB || m_link->alignment() != ComparisonLink::Alignment::Wall) {
        return;
    }
    if (const QString reason = m_link->wallReason(); !reason.isEmpty()) {
        m_note = tr("By t_wall is unavailable (%1): aligned from each trace's start").arg(reason);
        m_status->setText(m_note);
        m_alignment->setCurrentIndex(0);
    }
}

void CompareTab::compareFiles(const QString &a, const QString &b) {
    m_pathA = QFileInfo(a).absoluteFilePath();
    m_pathB = QFileInfo(b).absoluteFilePath();
    m_status->setText(tr("Loading…"));
    m_cancel->setVisible(true);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    auto done = std::make_shared<std::array<double, 2>>();  // fraction of each file read
    for (const bool side : {false, true}) {
        auto *job = new TraceLoadJob(this);
        (side ? m_jobB : m_jobA) = job;
        connect(job, &TraceLoadJob::progress, this,
                [this, side, done](qint64 bytesDone, qint64 bytesTotal, qint64) {
                    (*done)[side ? 1 : 0] =
                        bytesTotal > 0 ? double(bytesDone) / double(bytesTotal) : 0.0;
                    m_progress->setValue(int(50.0 * ((*done)[0] + (*done)[1])));
                });
        connect(job, &TraceLoadJob::finished, this,
                [this, side](std::shared_ptr<const TraceDocument> doc, const QString &error) {
                    onLoaded(side, std::move(doc), error);
                });
        job->start(side ? m_pathB : m_pathA);
    }
    updateHeaders();
}

void CompareTab::onLoaded(bool b, std::shared_ptr<const TraceDocument> doc, const QString &error) {
    if (!doc) {
        m_status->setText(
            tr("%1 cannot be read: %2").arg(b ? QStringLiteral("B") : QStringLiteral("A"), error));
        cancel();
        emit failed(error);
        return;
    }
    (b ? m_docB : m_docA) = doc;
    (b ? m_stateB : m_stateA)->setDocument(doc);
    updateHeaders();
    checkWallAlignment();
    if (m_docA && m_docB) {
        if (m_docA->isPartial() || m_docB->isPartial()) {
            m_status->setText(tr("Load cancelled: not compared"));
            m_cancel->setVisible(false);
            m_progress->setVisible(false);
            return;
        }
        startComparison();
    }
}

void CompareTab::compareDocuments(std::shared_ptr<const TraceDocument> a,
                                  std::shared_ptr<const TraceDocument> b) {
    m_docA = std::move(a);
    m_docB = std::move(b);
    m_pathA = m_docA ? m_docA->filePath() : QString();
    m_pathB = m_docB ? m_docB->filePath() : QString();
    m_stateA->setDocument(m_docA);
    m_stateB->setDocument(m_docB);
    updateHeaders();
    checkWallAlignment();
    if (m_docA && m_docB) {
        startComparison();
    }
}

void CompareTab::startComparison() {
    m_cancelFlag = std::make_shared<std::atomic_bool>(false);
    m_status->setText(tr("Comparing…"));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const TraceComparison>>::finished, this,
            &CompareTab::onComparisonDone, Qt::UniqueConnection);
    QPointer<QProgressBar> progress = m_progress;
    auto progressFn = [progress](int percent) {
        QMetaObject::invokeMethod(
            progress.data(),
            [progress, percent] {
                if (progress) {
                    progress->setValue(percent);
                }
            },
            Qt::QueuedConnection);
    };
    m_watcher.setFuture(JobPool::run([a = m_docA, b = m_docB, flag = m_cancelFlag, progressFn] {
        return TraceComparison::run(*a, *b, TraceComparison::Options{}, progressFn, flag.get());
    }));
}

void CompareTab::onComparisonDone() {
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    const auto c = m_watcher.future().isValid() && m_watcher.future().resultCount() > 0
                       ? m_watcher.result()
                       : nullptr;
    if (!c) {
        m_status->setText(tr("Comparison cancelled"));
        emit failed(tr("The comparison was cancelled."));
        return;
    }
    m_status->setText(m_note);
    m_pane->setComparison(c);
    emit compared();
}

void CompareTab::cancel() {
    for (TraceLoadJob *job : {m_jobA, m_jobB}) {
        if (job && job->isRunning()) {
            job->cancel();
        }
    }
    if (m_cancelFlag) {
        m_cancelFlag->store(true);
    }
    m_cancel->setVisible(false);
}

bool CompareTab::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_split && (event->type() == QEvent::Resize || event->type() == QEvent::Show)) {
        fitTimelines();
        return false;
    }
    if (watched == m_handle) {
        if (event->type() == QEvent::MouseButtonPress) {
            auto *e = static_cast<QMouseEvent *>(event);
            if (e->button() == Qt::LeftButton) {
                m_dragging = true;
                m_dragX = int(e->position().x());
                return true;
            }
        } else if (event->type() == QEvent::MouseMove && m_dragging) {
            auto *e = static_cast<QMouseEvent *>(event);
            const int dx = int(e->position().x()) - m_dragX;
            m_dragX = int(e->position().x());
            // Seconds per pixel of B's visible window: B follows the mouse.
            const QCPRange r = m_timelineB->visibleRange();
            const int width = std::max(1, m_timelineB->plot()->axisRect()->width());
            m_link->setOffset(m_link->offset() + dx * r.size() / width);
            return true;
        } else if (event->type() == QEvent::MouseButtonRelease) {
            m_dragging = false;
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace lmct
