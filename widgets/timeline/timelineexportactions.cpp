#include "timeline/timelineexportactions.h"

#include "common/exportsizedialog.h"
#include "timeline/timelineexport.h"
#include "timeline/timelinewidget.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <cmath>

namespace lmct {

namespace {

const QString kExportSizeKey = QStringLiteral("timeline/exportSize");

QString sizeText(QSize s) {
    return QObject::tr("%1 × %2").arg(s.width()).arg(s.height());
}

}  // namespace

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
    m_sizeMenu = new QMenu(tr("Export &Size"), timeline);
    m_sizeMenu->setObjectName(QStringLiteral("timelineExportSize"));
    m_sizeMenu->setToolTipsVisible(true);
    for (int s = 0; s <= 4; ++s) {
        QAction *a = m_scales->addAction(s == 0 ? tr("Screen") : tr("%1×").arg(s));
        a->setCheckable(true);
        a->setData(s);
        a->setToolTip(tr("The plot's size on screen, at this scale"));
        m_sizeMenu->addAction(a);
    }
    m_sizeMenu->addSeparator();
    for (const QSize &preset : {QSize(1280, 720), QSize(1920, 1080), QSize(3840, 2160)}) {
        QAction *a = m_scales->addAction(sizeText(preset));
        a->setCheckable(true);
        a->setData(preset);
        a->setToolTip(PlotExport::pixelScale(preset) > 1
                          ? tr("Exactly this many pixels: laid out at %1, texts %2× as large")
                                .arg(sizeText(preset / PlotExport::pixelScale(preset)))
                                .arg(PlotExport::pixelScale(preset))
                          : tr("The plot laid out at exactly this many pixels"));
        m_sizeMenu->addAction(a);
    }
    m_custom = m_scales->addAction(tr("Custom Size…"));
    m_custom->setObjectName(QStringLiteral("timelineExportCustomSize"));
    m_custom->setCheckable(true);
    m_sizeMenu->addAction(m_custom);
    connect(m_scales, &QActionGroup::triggered, this, [this](QAction *a) {
        if (a == m_custom) {
            chooseCustomSize();
        } else if (a->data().typeId() == QMetaType::QSize) {
            setPngSize(a->data().toSize());
        } else {
            setPngScale(a->data().toInt());
        }
    });
    connect(m_sizeMenu, &QMenu::aboutToShow, this, [this] {
        for (QAction *a : m_scales->actions()) {
            if (a->data().typeId() == QMetaType::Int && a->data().toInt() == 0) {
                a->setText(tr("Screen (%1×)").arg(m_timeline->devicePixelRatioF(), 0, 'g', 3));
            }
        }
    });
    m_sizeProvider = [this](QSize current) {
        ExportSizeDialog dialog(current.isEmpty() ? QSize(1920, 1080) : current, m_timeline);
        return dialog.exec() == QDialog::Accepted ? dialog.chosenSize() : QSize();
    };
    // The remembered choice: "screen", "2x" or "1920x1080" (anything else: the screen's ratio).
    static const QRegularExpression choiceRe(QStringLiteral("^(\\d{1,5})x(?:(\\d{1,5}))?$"));
    const QRegularExpressionMatch m = choiceRe.match(QSettings().value(kExportSizeKey).toString());
    if (m.hasMatch() && !m.captured(2).isEmpty()) {
        m_size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        if (!PlotExport::imageSizeProblem(m_size, 1.0).isEmpty()) {
            m_size = QSize();
        }
    } else if (m.hasMatch()) {
        m_scale = std::clamp(m.captured(1).toInt(), 0, 4);
    }
    syncChecks();
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
    menu->addMenu(m_sizeMenu);
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
    m_size = QSize();
    syncChecks();
    remember();
}

bool TimelineExportActions::setPngSize(QSize pixels, QString *error) {
    const QString why = PlotExport::imageSizeProblem(pixels, 1.0);
    if (!why.isEmpty()) {
        if (error) {
            *error = why;
        }
        syncChecks();  // a group click may have checked the refused entry
        return false;
    }
    m_size = pixels;
    syncChecks();
    remember();
    return true;
}

double TimelineExportActions::effectiveScale() const {
    if (m_size.isValid()) {
        return PlotExport::pixelScale(m_size);
    }
    return m_scale > 0 ? m_scale : std::max(1.0, m_timeline->devicePixelRatioF());
}

QSize TimelineExportActions::layoutSize() const {
    return m_size.isValid() ? m_size / PlotExport::pixelScale(m_size) : m_timeline->plot()->size();
}

void TimelineExportActions::setSizeProvider(SizeProvider provider) {
    m_sizeProvider = std::move(provider);
}

void TimelineExportActions::setPathProvider(PathProvider provider) {
    m_pathProvider = std::move(provider);
}

void TimelineExportActions::chooseCustomSize() {
    const QSize chosen = m_sizeProvider(m_size);
    if (chosen.isEmpty()) {
        syncChecks();  // cancelled: the previous choice stays checked
        return;
    }
    QString why;
    if (!setPngSize(chosen, &why)) {
        QMessageBox::warning(m_timeline, tr("Export Size"), why);
    }
}

void TimelineExportActions::syncChecks() {
    bool found = false;
    for (QAction *a : m_scales->actions()) {
        bool on = false;
        if (a == m_custom) {
            continue;
        }
        if (a->data().typeId() == QMetaType::QSize) {
            on = m_size.isValid() && a->data().toSize() == m_size;
        } else {
            on = !m_size.isValid() && std::abs(a->data().toInt() - m_scale) < 1e-9;
        }
        a->setChecked(on);
        found = found || on;
    }
    const bool custom = !found && m_size.isValid();
    m_custom->setChecked(custom);
    m_custom->setText(custom ? tr("Custom Size (%1)…").arg(sizeText(m_size)) : tr("Custom Size…"));
    if (!found && !custom) {  // a fractional scale set in code: no entry checked
        for (QAction *a : m_scales->actions()) {
            a->setChecked(false);
        }
    }
}

void TimelineExportActions::remember() const {
    const QString value = m_size.isValid()
                              ? QStringLiteral("%1x%2").arg(m_size.width()).arg(m_size.height())
                          : m_scale > 0 ? QStringLiteral("%1x").arg(int(std::lround(m_scale)))
                                        : QStringLiteral("screen");
    QSettings().setValue(kExportSizeKey, value);
}

bool TimelineExportActions::exportTo(PlotExport::Format format, const QString &path,
                                     QString *error) const {
    const QSize size = layoutSize();
    if (format == PlotExport::Format::Png) {
        const QString why = PlotExport::imageSizeProblem(size, effectiveScale());
        if (!why.isEmpty()) {
            *error = tr("cannot write %1: %2").arg(path, why);
            return false;
        }
    }
    return TimelineExport::save(m_timeline, path, format, size, effectiveScale(), error);
}

QImage TimelineExportActions::image(QString *error) const {
    const QSize size = layoutSize();
    const QString why = PlotExport::imageSizeProblem(size, effectiveScale());
    if (!why.isEmpty()) {
        if (error) {
            *error = why;
        }
        return QImage();
    }
    return TimelineExport::toImage(m_timeline, size, effectiveScale());
}

void TimelineExportActions::copyImage() const {
    QString why;
    const QImage img = image(&why);
    if (!img.isNull()) {
        QApplication::clipboard()->setImage(img);
    } else if (!why.isEmpty()) {
        QMessageBox::warning(m_timeline, tr("Copy Image"), why);
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
