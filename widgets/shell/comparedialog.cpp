#include "shell/comparedialog.h"

#include "util/terminaltext.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace lmct {

CompareDialog::CompareDialog(const QStringList &openTraces, const QStringList &fileFilters,
                             QWidget *parent)
    : QDialog(parent), m_filters(fileFilters) {
    setWindowTitle(tr("Compare Two Traces"));
    auto *v = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    for (const bool b : {false, true}) {
        auto *combo = new QComboBox;
        combo->setMinimumContentsLength(40);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        for (const QString &p : openTraces) {
            combo->addItem(TerminalText::escaped(QFileInfo(p).fileName()), p);
            combo->setItemData(combo->count() - 1,
                               TerminalText::escaped(QDir::toNativeSeparators(p)), Qt::ToolTipRole);
        }
        if (b && combo->count() > 1) {
            combo->setCurrentIndex(1);
        }
        connect(combo, &QComboBox::currentIndexChanged, this, &CompareDialog::updateOk);
        auto *row = new QHBoxLayout;
        row->addWidget(combo, 1);
        auto *browse = new QPushButton(tr("Browse…"));
        connect(browse, &QPushButton::clicked, this, [this, b] { this->browse(b); });
        row->addWidget(browse);
        form->addRow(b ? tr("B (below):") : tr("A (above):"), row);
        (b ? m_b : m_a) = combo;
    }
    v->addLayout(form);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    v->addWidget(m_buttons);
    updateOk();
}

QString CompareDialog::pathA() const {
    return m_a->currentData().toString();
}

QString CompareDialog::pathB() const {
    return m_b->currentData().toString();
}

void CompareDialog::setPath(bool b, const QString &path) {
    QComboBox *combo = b ? m_b : m_a;
    int i = combo->findData(path);
    if (i < 0) {
        combo->addItem(TerminalText::escaped(QFileInfo(path).fileName()), path);
        i = combo->count() - 1;
        combo->setItemData(i, TerminalText::escaped(QDir::toNativeSeparators(path)),
                           Qt::ToolTipRole);
    }
    combo->setCurrentIndex(i);
    updateOk();
}

void CompareDialog::browse(bool b) {
    const QString path = QFileDialog::getOpenFileName(
        this, b ? tr("Trace B") : tr("Trace A"), QString(), m_filters.join(QLatin1String(";;")));
    if (!path.isEmpty()) {
        setPath(b, QFileInfo(path).absoluteFilePath());
    }
}

void CompareDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!pathA().isEmpty() && !pathB().isEmpty());
}

}  // namespace lmct
