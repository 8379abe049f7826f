#include "common/tracechooser.h"

#include "util/terminaltext.h"

#include <QSignalBlocker>

namespace lmct {

TraceChooser::TraceChooser(QWidget *parent) : QComboBox(parent) {
    addItem(tr("All traces"));
    connect(this, &QComboBox::currentIndexChanged, this,
            [this](int index) { emit traceChosen(index - 1); });
}

void TraceChooser::setTraces(const QStringList &labels) {
    const int keep = choice();
    const QSignalBlocker block(this);
    while (count() > 1) {
        removeItem(1);
    }
    for (const QString &l : labels) {
        addItem(TerminalText::escaped(l));
    }
    setCurrentIndex(keep + 1 < count() ? keep + 1 : 0);
}

int TraceChooser::choice() const {
    return currentIndex() - 1;
}

void TraceChooser::setChoice(int trace) {
    setCurrentIndex(trace + 1);
}

}  // namespace lmct
