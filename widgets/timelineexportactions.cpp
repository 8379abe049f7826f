#include "timelineexportactions.h"

#include "timelineexport.h"
#include "timelinewidget.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <cmath>

namespace lmct {

TimelineExportActions::TimelineExportActions(TimelineWidget *timeline)
    : QObject(timeline), m_timeline(timeline) {
    m_png = new QAction(tr("Export Timeline as &PNG…"), this);
    m_png->setObjectName(QStringLiteral("timelineExportPng"));
    m_svg = new QAction(tr("Export Timeline as &SVG…"), this);
    m_svg->setObjectName(QStringLiteral("timelineExportSvg"));
    m_pdf = new QAction(tr("Export Timeline as P&DF…"), this);
    m_pdf->setObjectName(QStringLiteral("timelineExportPdf"));
    m_copy = new QAction(tr("&Copy Image"), this);
    m_copy->setObjectName(QStringLiteral("timelineCopyImage"));
    m_copy->setToolTip(tr("Copy the timeline with its caption to the clipboard as an image"));
    connect(m_png, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Png); });
    connect(m_svg, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Svg); });
    connect(m_pdf, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Pdf); });
    connect(m_copy, &QAction::triggered, this, &TimelineExportActions::copyImage);

    m_scales = new QActionGroup(this);
    for (int s = 0; s <= 4; ++s) {
        QAction *a = m_scales->addAction(s == 0 ? tr("Screen") : tr("%1×").arg(s));
        a->setCheckable(true);
        a->setData(s);
        a->setChecked(s == 0);
    }
    connect(m_scales, &QActionGroup::triggered, this,
            [this](QAction *a) { m_scale = a->data().toInt(); });
    m_pathProvider = [this](const QString &title, const QString &suggested, const QString &filter) {
        return QFileDialog::getSaveFileName(m_timeline, title, suggested, filter);
    };
    connect(timeline, &TimelineWidget::indexReady, this, &TimelineExportActions::updateEnabled);
    updateEnabled();
}

void TimelineExportActions::addTo(QMenu *menu) {
    updateEnabled();
    menu->addAction(m_png);
    menu->addAction(m_svg);
    menu->addAction(m_pdf);
    menu->addAction(m_copy);
    QMenu *scale = menu->addMenu(tr("PNG &Scale"));
    for (QAction *a : m_scales->actions()) {
        if (a->data().toInt() == 0) {
            a->setText(tr("Screen (%1×)").arg(m_timeline->devicePixelRatioF(), 0, 'g', 3));
        }
        scale->addAction(a);
    }
}

void TimelineExportActions::updateEnabled() {
    const ViewState *state = m_timeline->viewState();
    const bool ok = state && state->document() && !m_timeline->isIndexing();
    for (QAction *a : actions()) {
        a->setEnabled(ok);
    }
}

void TimelineExportActions::setPngScale(double scale) {
    m_scale = std::clamp(scale, 0.0, 4.0);
    for (QAction *a : m_scales->actions()) {
        a->setChecked(std::abs(a->data().toInt() - m_scale) < 1e-9);
    }
}

double TimelineExportActions::effectiveScale() const {
    return m_scale > 0 ? m_scale : std::max(1.0, m_timeline->devicePixelRatioF());
}

void TimelineExportActions::setPathProvider(PathProvider provider) {
    m_pathProvider = std::move(provider);
}

bool TimelineExportActions::exportTo(PlotExport::Format format, const QString &path,
                                     QString *error) const {
    return TimelineExport::save(m_timeline, path, format, QSize(), effectiveScale(), error);
}

void TimelineExportActions::copyImage() const {
    const QImage img = TimelineExport::toImage(m_timeline, QSize(), effectiveScale());
    if (!img.isNull()) {
        QApplication::clipboard()->setImage(img);
    }
}

void TimelineExportActions::exportAs(PlotExport::Format format) {
    const ViewState *state = m_timeline->viewState();
    const auto doc = state ? state->document() : nullptr;
    if (!doc) {
        return;
    }
    QString title, suffix, filter;
    switch (format) {
        case PlotExport::Format::Png:
            title = tr("Export Timeline as PNG");
            suffix = QStringLiteral("png");
            filter = tr("PNG image (*.png)");
            break;
        case PlotExport::Format::Svg:
            title = tr("Export Timeline as SVG");
            suffix = QStringLiteral("svg");
            filter = tr("SVG image (*.svg)");
            break;
        case PlotExport::Format::Pdf:
            title = tr("Export Timeline as PDF");
            suffix = QStringLiteral("pdf");
            filter = tr("PDF document (*.pdf)");
            break;
    }
    const QFileInfo fi(doc->filePath());
    const QString suggested =
        fi.dir().filePath(fi.completeBaseName() + QStringLiteral("-timeline.") + suffix);
    const QString path = m_pathProvider(title, suggested, filter);
    if (path.isEmpty()) {
        return;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = exportTo(format, path, &error);
    QApplication::restoreOverrideCursor();
    if (!ok) {
        QMessageBox::critical(m_timeline, tr("Export failed"), error);
        return;
    }
    emit exported(path);
}

}  // namespace lmct
