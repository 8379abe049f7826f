#pragma once

#include "common/plotexport.h"
#include "common/plotexportspec.h"

#include <QImage>
#include <QList>
#include <QObject>
#include <QSize>
#include <QString>
#include <functional>

class QAction;
class QActionGroup;
class QMenu;
class QWidget;

namespace lmct {

/**
 * The export actions of one plot (PlotExportSpec): "Export TITLE as PNG…", "…as SVG…",
 * "…as PDF…" (a file dialog, then CaptionedExport::save: the caption, the light print palette,
 * QSaveFile) and "Copy Image" (CaptionedExport::toImage to the clipboard), plus the
 * "Export Size" submenu, one exclusive choice of:
 *
 * - a scale: "Screen" (the plot's device pixel ratio, at least 1) or 1×–4×. Images have the
 *   plot's current on-screen size (logical pixels) times the scale; SVG and PDF are vector,
 *   that many CSS pixels or points;
 * - a size in pixels: 1280×720, 1920×1080, 3840×2160 or "Custom Size…" (ExportSizeDialog). The
 *   plot is laid out at that size divided by PlotExport::pixelScale (up to 1920×1080 logical
 *   pixels: 3840×2160 is laid out at 1920×1080 and rendered at scale 2, so that texts grow with
 *   the picture; never stretched, texts stay crisp), so PNGs and copied images have exactly
 *   that many pixels and SVG and PDF that many CSS pixels or points.
 *
 * The choice is remembered in QSettings under Names::settingsKey ("screen", "2x" or
 * "1920x1080") and read by every new instance (and again by reloadSize(), which the plots'
 * context menus call as they open: one choice for all of them).
 *
 * Sizes are checked against PlotExport's limits (PlotExport::imageSizeProblem): a refused size
 * is not chosen, and a PNG or copy whose image would exceed them is refused with the reason
 * (nothing is written). A failed export shows a message box naming the path and the reason and
 * leaves no file. The actions are enabled while PlotExportSpec::ready says so (updateEnabled()).
 *
 * Object names: PREFIX + "ExportPng", "ExportSvg", "ExportPdf", "CopyImage", "ExportSize" (the
 * submenu) and "ExportCustomSize" (PREFIX from Names::objectPrefix, e.g. "timeline").
 *
 * Ownership: a child of `owner` (the submenu too). Thread-safety: GUI thread.
 */
class PlotExportActions : public QObject {
    Q_OBJECT
public:
    /** How the actions are named and where the choice is remembered. */
    struct Names {
        QString objectPrefix = QStringLiteral("plot");
        QString settingsKey = QStringLiteral("plots/exportSize");
    };

    PlotExportActions(QWidget *owner, PlotExportSpec spec, const Names &names);

    const PlotExportSpec &spec() const { return m_spec; }

    QAction *pngAction() const { return m_png; }
    QAction *svgAction() const { return m_svg; }
    QAction *pdfAction() const { return m_pdf; }
    QAction *copyAction() const { return m_copy; }
    /** The four actions above, in menu order. */
    QList<QAction *> actions() const { return {m_png, m_svg, m_pdf, m_copy}; }

    /** Adds the actions and the "Export Size" submenu to `menu` (enabling them as updateEnabled).
     */
    void addTo(QMenu *menu);
    /** Enables the actions when PlotExportSpec::ready says there is something to export. */
    void updateEnabled();
    /** The "Export Size" submenu (the scale and size choices); owned by the owner widget. */
    QMenu *sizeMenu() const { return m_sizeMenu; }
    /** Reads the remembered choice again (another plot's menu may have changed it). */
    void reloadSize();

    /**
     * PNG and copy scale: 0 means the plot's device pixel ratio, else 1–4 (clamped).
     * Choosing a scale clears the size; the choice is remembered.
     */
    double pngScale() const { return m_scale; }
    void setPngScale(double scale);
    /** The chosen size in pixels; empty when a scale is chosen. */
    QSize pngSize() const { return m_size; }
    /**
     * Chooses a size in pixels (exports are laid out at it / PlotExport::pixelScale(it), at that
     * scale) and remembers it; false with `error` set (PlotExport::imageSizeProblem) when it is
     * refused, the choice unchanged.
     */
    bool setPngSize(QSize pixels, QString *error = nullptr);
    /**
     * The scale exports are rendered at now: PlotExport::pixelScale of a size, else pngScale()
     * or the ratio.
     */
    double effectiveScale() const;
    /**
     * The logical size exports are laid out at: pngSize() / its pixelScale, else the plot's size.
     */
    QSize layoutSize() const;

    /**
     * Asks for a custom size: current size → the chosen one, or an empty size to cancel. The
     * default runs ExportSizeDialog; tests replace it to avoid a modal dialog.
     */
    using SizeProvider = std::function<QSize(QSize current)>;
    void setSizeProvider(SizeProvider provider);

    /**
     * Asks where to save: (dialog title, suggested path, name filter) → path, empty to cancel.
     * The default is QFileDialog::getSaveFileName; tests replace it to avoid a modal dialog.
     */
    using PathProvider = std::function<QString(const QString &title, const QString &suggested,
                                               const QString &filter)>;
    void setPathProvider(PathProvider provider);

    /**
     * Writes the plot to `path` in `format` at layoutSize() and effectiveScale(); no dialog.
     * False with `error` set when it fails or the PNG would exceed the image limits.
     */
    bool exportTo(PlotExport::Format format, const QString &path, QString *error) const;
    /** The image copyImage() puts on the clipboard; null with `error` set when refused. */
    QImage image(QString *error = nullptr) const;
    /** Puts image() on the clipboard (a message box when it is refused). */
    void copyImage() const;

signals:
    /** An export through the actions succeeded, to `path`. */
    void exported(const QString &path);

private:
    void exportAs(PlotExport::Format format);
    void chooseCustomSize();
    void syncChecks();
    void remember() const;

    QWidget *m_owner;
    PlotExportSpec m_spec;
    Names m_names;
    QAction *m_custom = nullptr;
    QMenu *m_sizeMenu = nullptr;
    QSize m_size;
    SizeProvider m_sizeProvider;
    QAction *m_png = nullptr;
    QAction *m_svg = nullptr;
    QAction *m_pdf = nullptr;
    QAction *m_copy = nullptr;
    QActionGroup *m_scales = nullptr;
    double m_scale = 0.0;
    PathProvider m_pathProvider;
};

}  // namespace lmct
