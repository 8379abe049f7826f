#pragma once

#include <QDialog>
#include <QSize>
#include <QString>

class QDialogButtonBox;
class QLabel;
class QSpinBox;

namespace lmct {

/**
 * "Custom Export Size": width and height spin boxes (pixels of the exported PNG, CSS pixels or
 * points of SVG and PDF; laid out as PlotExportActions says) and a line saying why a size is
 * refused. Sizes are checked with
 * PlotExport::imageSizeProblem at scale 1, the limits of `lmct-viewer --size` (16…20000 pixels a
 * side, at most 32767 pixels a side and 2^28 pixels in all): while the size is refused, OK is
 * disabled and accept() does nothing, so an accepted dialog always holds a valid size.
 *
 * The spin boxes (object names "exportWidth", "exportHeight") take up to 99999 so that a too
 * large size is explained rather than silently clamped.
 *
 * Ownership: the caller's (usually on the stack, parented for placement). Thread-safety: GUI
 * thread.
 */
class ExportSizeDialog : public QDialog {
    Q_OBJECT
public:
    /** Opens with `initial` (pixels) in the spin boxes. */
    explicit ExportSizeDialog(QSize initial, QWidget *parent = nullptr);

    /** The size in the spin boxes, pixels. */
    QSize chosenSize() const;
    void setChosenSize(QSize pixels);
    /** Why chosenSize() is refused; empty when it is accepted. */
    QString problem() const;

    /** Closes with Accepted only when problem() is empty. */
    void accept() override;

private:
    void validate();

    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QLabel *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

}  // namespace lmct
