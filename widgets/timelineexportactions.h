#pragma once

#include "plotexport.h"

#include <QList>
#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QActionGroup;
class QMenu;

namespace lmct {

class TimelineWidget;

/**
 * The timeline's export actions: "Export Timeline as PNG…", "…as SVG…", "…as PDF…" (a file
 * dialog, then TimelineExport::save) and "Copy Image" (TimelineExport::toImage to the
 * clipboard), plus the PNG scale (the screen's device pixel ratio, or 1×–4×). The same QAction
 * objects are in the timeline's context menu and in File > Export, so both run one code path.
 *
 * Images have the plot's current on-screen size times the scale; SVG and PDF are vector at the
 * plot's size. A failed export shows a message box naming the path and the reason and leaves no
 * file.
 *
 * Ownership: a child of the timeline. Thread-safety: GUI thread.
 */
class TimelineExportActions : public QObject {
    Q_OBJECT
public:
    explicit TimelineExportActions(TimelineWidget *timeline);

    QAction *pngAction() const { return m_png; }
    QAction *svgAction() const { return m_svg; }
    QAction *pdfAction() const { return m_pdf; }
    QAction *copyAction() const { return m_copy; }
    /** The four actions above, in menu order. */
    QList<QAction *> actions() const { return {m_png, m_svg, m_pdf, m_copy}; }

    /** Adds the actions and a "PNG Scale" submenu to `menu` (enabling them as updateEnabled). */
    void addTo(QMenu *menu);
    /** Enables the actions when the timeline shows an indexed document. */
    void updateEnabled();

    /** PNG and copy scale: 0 means the timeline's device pixel ratio, else 1–4. */
    double pngScale() const { return m_scale; }
    void setPngScale(double scale);
    /** The scale images are rendered at now (pngScale(), or the device pixel ratio). */
    double effectiveScale() const;

    /**
     * Asks where to save: (dialog title, suggested path, name filter) → path, empty to cancel.
     * The default is QFileDialog::getSaveFileName; tests replace it to avoid a modal dialog.
     */
    using PathProvider = std::function<QString(const QString &title, const QString &suggested,
                                               const QString &filter)>;
    void setPathProvider(PathProvider provider);

    /** Writes the timeline to `path` in `format` at pngScale(); no dialog. */
    bool exportTo(PlotExport::Format format, const QString &path, QString *error) const;
    /** Puts the timeline image (at effectiveScale()) on the clipboard. */
    void copyImage() const;

signals:
    /** An export through the actions succeeded, to `path`. */
    void exported(const QString &path);

private:
    void exportAs(PlotExport::Format format);

    TimelineWidget *m_timeline;
    QAction *m_png = nullptr;
    QAction *m_svg = nullptr;
    QAction *m_pdf = nullptr;
    QAction *m_copy = nullptr;
    QActionGroup *m_scales = nullptr;
    double m_scale = 0.0;
    PathProvider m_pathProvider;
};

}  // namespace lmct
