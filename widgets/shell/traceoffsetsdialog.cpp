#include "shell/traceoffsetsdialog.h"

#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace lmct {

TraceOffsetsDialog::TraceOffsetsDialog(const TraceSet &set, QWidget *parent) : QDialog(parent) {
    setWindowTitle(tr("Trace Offsets"));
    auto *v = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("Milliseconds added to every t_wall of a trace on the common axis: hosts' clocks a "
           "few ms apart line up. Positive: the trace is drawn later."));
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("<b>Trace</b>")), 0, 0);
    grid->addWidget(new QLabel(tr("<b>Starts at</b>")), 0, 1);
    grid->addWidget(new QLabel(tr("<b>Offset</b>")), 0, 2);
    for (int t = 0; t < set.size(); ++t) {
        auto *name = new QLabel(TerminalText::escaped(set.displayLabel(t)));
        name->setTextFormat(Qt::PlainText);
        name->setToolTip(TerminalText::escaped(set.trace(t).path));
        const double start = set.startWall(t);
        auto *at = new QLabel(std::isfinite(start) ? TimeFormat::wall(start) : tr("no t_wall"));
        auto *box = new QDoubleSpinBox;
        box->setRange(-1e9, 1e9);
        box->setDecimals(3);
        box->setSingleStep(1.0);
        box->setSuffix(tr(" ms"));
        box->setValue(set.offset(t) * 1000.0);
        box->setAccessibleName(tr("Offset of %1").arg(set.label(t)));
        grid->addWidget(name, t + 1, 0);
        grid->addWidget(at, t + 1, 1);
        grid->addWidget(box, t + 1, 2);
        m_boxes.append(box);
    }
    v->addLayout(grid);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                         QDialogButtonBox::Reset);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Reset), &QPushButton::clicked, this, [this] {
        for (QDoubleSpinBox *b : std::as_const(m_boxes)) {
            b->setValue(0.0);
        }
    });
    v->addWidget(buttons);
}

std::vector<double> TraceOffsetsDialog::offsets() const {
    std::vector<double> out;
    for (const QDoubleSpinBox *b : m_boxes) {
        out.push_back(b->value() / 1000.0);
    }
    return out;
}

}  // namespace lmct
