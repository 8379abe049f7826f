#include "common/exportsizedialog.h"

#include "common/plotexport.h"
#include "common/statuscolors.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lmct {

ExportSizeDialog::ExportSizeDialog(QSize initial, QWidget *parent) : QDialog(parent) {
    setWindowTitle(tr("Custom Export Size"));
    auto *layout = new QVBoxLayout(this);
    // The refusal message appears under the fields: the dialog grows to hold it (it was clipped)
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    auto *form = new QFormLayout;
    const auto spin = [this](const QString &name) {
        auto *box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(1, 99999);
        box->setSuffix(tr(" px"));
        box->setAccelerated(true);
        connect(box, &QSpinBox::valueChanged, this, &ExportSizeDialog::validate);
        return box;
    };
    m_width = spin(QStringLiteral("exportWidth"));
    m_height = spin(QStringLiteral("exportHeight"));
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    layout->addLayout(form);
    auto *note = new QLabel(
        tr("The PNG and the copied image have exactly this many pixels, SVG and PDF this many "
           "CSS pixels or points. Beyond 1920 × 1080 the plot is laid out at a whole "
           "fraction of the size and scaled up, so that its texts grow with the picture."),
        this);
    note->setObjectName(QStringLiteral("exportSizeNote"));
    note->setWordWrap(true);
    // A fixed width and the height its lines need at that width: a word-wrapped label's height
    // is otherwise not part of the layout's minimum (the note was cut after 4 lines).
    const int textWidth = fontMetrics().averageCharWidth() * 52;
    note->setFixedWidth(textWidth);
    note->setMinimumHeight(note->heightForWidth(textWidth));
    layout->addWidget(note);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("exportSizeMessage"));
    m_message->setWordWrap(true);
    m_message->setFixedWidth(textWidth);
    QPalette pal = m_message->palette();
    pal.setColor(QPalette::WindowText, StatusColors::error(pal));
    m_message->setPalette(pal);
    layout->addWidget(m_message);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportSizeDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ExportSizeDialog::reject);
    layout->addWidget(m_buttons);
    setChosenSize(initial.isValid() ? initial : QSize(1920, 1080));
    validate();
}

QSize ExportSizeDialog::chosenSize() const {
    return QSize(m_width->value(), m_height->value());
}

void ExportSizeDialog::setChosenSize(QSize pixels) {
    m_width->setValue(pixels.width());
    m_height->setValue(pixels.height());
    validate();
}

QString ExportSizeDialog::problem() const {
    return PlotExport::imageSizeProblem(chosenSize(), 1.0);
}

void ExportSizeDialog::accept() {
    if (problem().isEmpty()) {
        QDialog::accept();
    }
}

void ExportSizeDialog::validate() {
    const QString why = problem();
    m_message->setText(why);
    m_message->setMinimumHeight(why.isEmpty() ? 0 : m_message->heightForWidth(m_message->width()));
    m_message->setVisible(!why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

}  // namespace lmct
