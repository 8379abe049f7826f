#pragma once

#include "trace/traceset.h"

#include <QDialog>
#include <QList>
#include <vector>

class QDoubleSpinBox;

namespace lmct {

/**
 * Lanes > Trace Offsets… of a combined tab: each trace of a deployment with its offset on the
 * common `t_wall` axis in milliseconds (clocks of hosts a few ms apart; positive: the trace is
 * drawn later), its start on that axis, and a Reset that puts every offset back to 0.
 *
 * Ownership: a modal dialog; copies the set. Thread-safety: GUI thread only.
 */
class TraceOffsetsDialog : public QDialog {
    Q_OBJECT
public:
    explicit TraceOffsetsDialog(const TraceSet &set, QWidget *parent = nullptr);

    /** The offsets as edited, seconds, by trace. */
    std::vector<double> offsets() const;
    /** Trace `t`'s box (milliseconds). */
    QDoubleSpinBox *box(int t) const { return m_boxes.value(t); }

private:
    QList<QDoubleSpinBox *> m_boxes;
};

}  // namespace lmct
