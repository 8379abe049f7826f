#pragma once

#include <QComboBox>
#include <QStringList>

namespace lmct {

/**
 * The "All traces / one trace" chooser of the combined views: item 0 is "All traces", then one
 * item per trace of the deployment in its order. A choice is -1 for all traces, else the trace's
 * index. traceChosen(choice) is emitted when the user (or setChoice) changes it, not when
 * setTraces() keeps it.
 *
 * Ownership: a QWidget (parent owns it). Thread-safety: GUI thread only.
 */
class TraceChooser : public QComboBox {
    Q_OBJECT
public:
    explicit TraceChooser(QWidget *parent = nullptr);

    /**
     * Shows one item per label (escaped as terminal text is: control characters made visible).
     * Keeps the current choice when that trace is still there, else chooses all traces; emits
     * nothing.
     */
    void setTraces(const QStringList &labels);
    /** -1: all traces; else the index of the chosen trace. */
    int choice() const;
    void setChoice(int trace);

signals:
    void traceChosen(int choice);
};

}  // namespace lmct
