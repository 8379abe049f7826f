#include "common/plotexportactions.h"

#include "common/captionedexport.h"
#include "common/exportsizedialog.h"

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

QString sizeText(QSize s) {
    return QObject::tr("%1 × %2").arg(s.width()).arg(s.height());
}

}  // namespace

PlotExportActions::PlotExportActions(QWidget *owner, PlotExportSpec spec, const Names &names)
    : QObject(owner), m_owner(owner), m_spec(std::move(spec)), m_names(names) {
    const QString prefix = m_names.objectPrefix;
    const QString title = m_spec.title;
    m_png = new QAction(tr("Export %1 as &PNG…").arg(title), this);
    m_png->setObjectName(prefix + QStringLiteral("ExportPng"));
    m_svg = new QAction(tr("Export %1 as &SVG…").arg(title), this);
    m_svg->setObjectName(prefix + QStringLiteral("ExportSvg"));
    m_pdf = new QAction(tr("Export %1 as P&DF…").arg(title), this);
    m_pdf->setObjectName(prefix + QStringLiteral("ExportPdf"));
    m_copy = new QAction(tr("&Copy Image"), this);
    m_copy->setObjectName(prefix + QStringLiteral("CopyImage"));
    m_copy->setToolTip(
        tr("Copy the %1 with its caption to the clipboard as an image").arg(title.toLower()));
    connect(m_png, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Png); });
    connect(m_svg, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Svg); });
    connect(m_pdf, &QAction::triggered, this, [this] { exportAs(PlotExport::Format::Pdf); });
    connect(m_copy, &QAction::triggered, this, &PlotExportActions::copyImage);

    m_scales = new QActionGroup(this);
    m_sizeMenu = new QMenu(tr("Export &Size"), owner);
    m_sizeMenu->setObjectName(prefix + QStringLiteral("ExportSize"));
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
    m_custom->setObjectName(prefix + QStringLiteral("ExportCustomSize"));
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
                a->setText(tr("Screen (%1×)").arg(m_owner->devicePixelRatioF(), 0, 'g', 3));
            }
        }
    });
    m_sizeProvider = [this](QSize current) {
        ExportSizeDialog dialog(current.isEmpty() ? QSize(1920, 1080) : current, m_owner);
        return dialog.exec() == QDialog::Accepted ? dialog.chosenSize() : QSize();
    };
    reloadSize();
    m_pathProvider = [this](const QString &title, const QString &suggested, const QString &filter) {
        return QFileDialog::getSaveFileName(m_owner, title, suggested, filter);
    };
    updateEnabled();
}

void PlotExportActions::reloadSize() {
    // The remembered choice: "screen", "2x" or "1920x1080" (anything else: the screen's ratio).
    static const QRegularExpression choiceRe(QStringLiteral("^(\\d{1,5})x(?:(\\d{1,5}))?$"));
    const QRegularExpressionMatch m =
        choiceRe.match(QSettings().value(m_names.settingsKey).toString());
    m_size = QSize();
    m_scale = 0.0;
    if (m.hasMatch() && !m.captured(2).isEmpty()) {
        m_size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        if (!PlotExport::imageSizeProblem(m_size, 1.0).isEmpty()) {
            m_size = QSize();
        }
    } else if (m.hasMatch()) {
        m_scale = std::clamp(m.captured(1).toInt(), 0, 4);
    }
    syncChecks();
}

void PlotExportActions::addTo(QMenu *menu) {
    updateEnabled();
    menu->addAction(m_png);
    menu->addAction(m_svg);
    menu->addAction(m_pdf);
    menu->addAction(m_copy);
    menu->addMenu(m_sizeMenu);
}

void PlotExportActions::updateEnabled() {
    const bool ok = !m_spec.ready || m_spec.ready();
    for (QAction *a : actions()) {
        a->setEnabled(ok);
    }
}

void PlotExportActions::setPngScale(double scale) {
    m_scale = std::clamp(scale, 0.0, 4.0);
    m_size = QSize();
    syncChecks();
    remember();
}

bool PlotExportActions::setPngSize(QSize pixels, QString *error) {
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

double PlotExportActions::effectiveScale() const {
    if (m_size.isValid()) {
        return PlotExport::pixelScale(m_size);
    }
    return m_scale > 0 ? m_scale : std::max(1.0, m_owner->devicePixelRatioF());
}

QSize PlotExportActions::layoutSize() const {
    return m_size.isValid() ? m_size / PlotExport::pixelScale(m_size) : m_spec.plot->size();
}

void PlotExportActions::setSizeProvider(SizeProvider provider) {
    m_sizeProvider = std::move(provider);
}

void PlotExportActions::setPathProvider(PathProvider provider) {
    m_pathProvider = std::move(provider);
}

void PlotExportActions::chooseCustomSize() {
    const QSize chosen = m_sizeProvider(m_size);
    if (chosen.isEmpty()) {
        syncChecks();  // cancelled: the previous choice stays checked
        return;
    }
    QString why;
    if (!setPngSize(chosen, &why)) {
        QMessageBox::warning(m_owner, tr("Export Size"), why);
    }
}

void PlotExportActions::syncChecks() {
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

void PlotExportActions::remember() const {
    const QString value = m_size.isValid()
                              ? QStringLiteral("%1x%2").arg(m_size.width()).arg(m_size.height())
                          : m_scale > 0 ? QStringLiteral("%1x").arg(int(std::lround(m_scale)))
                                        : QStringLiteral("screen");
    QSettings().setValue(m_names.settingsKey, value);
}

bool PlotExportActions::exportTo(PlotExport::Format format, const QString &path,
                                 QString *error) const {
    const QSize size = layoutSize();
    if (format == PlotExport::Format::Png) {
        const QString why = PlotExport::imageSizeProblem(size, effectiveScale());
        if (!why.isEmpty()) {
            *error = tr("cannot write %1: %2").arg(path, why);
            return false;
        }
    }
    return CaptionedExport::save(m_spec, path, format, size, effectiveScale(), error);
}

QImage PlotExportActions::image(QString *error) const {
    const QSize size = layoutSize();
    const QString why = PlotExport::imageSizeProblem(size, effectiveScale());
    if (!why.isEmpty()) {
        if (error) {
            *error = why;
        }
        return QImage();
    }
    return CaptionedExport::toImage(m_spec, size, effectiveScale());
}

void PlotExportActions::copyImage() const {
    QString why;
    const QImage img = image(&why);
    if (!img.isNull()) {
        QApplication::clipboard()->setImage(img);
    } else if (!why.isEmpty()) {
        QMessageBox::warning(m_owner, tr("Copy Image"), why);
    }
}

void PlotExportActions::exportAs(PlotExport::Format format) {
    if (m_spec.ready && !m_spec.ready()) {
        return;
    }
    QString kind, suffix, filter;
    switch (format) {
        case PlotExport::Format::Png:
            kind = QStringLiteral("PNG");
            suffix = QStringLiteral("png");
            filter = tr("PNG image (*.png)");
            break;
        case PlotExport::Format::Svg:
            kind = QStringLiteral("SVG");
            suffix = QStringLiteral("svg");
            filter = tr("SVG image (*.svg)");
            break;
        case PlotExport::Format::Pdf:
            kind = QStringLiteral("PDF");
            suffix = QStringLiteral("pdf");
            filter = tr("PDF document (*.pdf)");
            break;
    }
    const QString title = tr("Export %1 as %2").arg(m_spec.title, kind);
    const QString input = m_spec.inputPath ? m_spec.inputPath() : QString();
    const QFileInfo fi(input);
    const QString base = input.isEmpty() ? QStringLiteral("plot") : fi.completeBaseName();
    const QString name = base + m_spec.fileSuffix + QLatin1Char('.') + suffix;
    const QString suggested = input.isEmpty() ? name : fi.dir().filePath(name);
    const QString path = m_pathProvider(title, suggested, filter);
    if (path.isEmpty()) {
        return;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = exportTo(format, path, &error);
    QApplication::restoreOverrideCursor();
    if (!ok) {
        QMessageBox::critical(m_owner, tr("Export failed"), error);
        return;
    }
    emit exported(path);
}

}  // namespace lmct
