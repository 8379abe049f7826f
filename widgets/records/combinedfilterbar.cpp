#include "records/combinedfilterbar.h"

#include "filter/filterexpression.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>

namespace lmct {

CombinedFilterBar::CombinedFilterBar(QWidget *parent) : QWidget(parent) {
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 3, 4, 3);
    layout->setSpacing(6);
    layout->addWidget(new QLabel(tr("Filter:"), this));
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("filterEdit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setPlaceholderText(
        tr("e.g. trace == \"worker-1.lct\" && call == reserve_write — Enter applies"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("filterStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(120);
    m_progress->setTextVisible(false);
    m_progress->hide();
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    connect(m_edit, &QLineEdit::textEdited, this, &CombinedFilterBar::onEdited);
    connect(m_edit, &QLineEdit::returnPressed, this, &CombinedFilterBar::apply);
    connect(m_edit, &QLineEdit::textChanged, this, [this](const QString &t) {
        if (t.isEmpty()) {  // the clear button, or everything deleted
            emit applyRequested(QString());
        }
    });
}

QString CombinedFilterBar::text() const {
    return m_edit->text().trimmed();
}

void CombinedFilterBar::setText(const QString &text) {
    if (m_edit->text().trimmed() != text) {
        const QSignalBlocker block(m_edit);
        m_edit->setText(text);
    }
}

void CombinedFilterBar::onEdited(const QString &text) {
    const FilterExpression expr = FilterExpression::parse(text.trimmed());
    if (!expr.isValid()) {
        setStatus(expr.errorString(), true);
    } else {
        setStatus(QString());
    }
}

bool CombinedFilterBar::apply() {
    const QString t = text();
    const FilterExpression expr = FilterExpression::parse(t);
    if (!expr.isValid()) {
        setStatus(expr.errorString(), true);
        return false;
    }
    emit applyRequested(t);
    return true;
}

QString CombinedFilterBar::statusText() const {
    return m_status->text();
}

void CombinedFilterBar::setStatus(const QString &text, bool error) {
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

void CombinedFilterBar::setProgress(int perMille) {
    m_progress->setVisible(perMille >= 0);
    if (perMille >= 0) {
        m_progress->setValue(perMille);
    }
}

}  // namespace lmct
