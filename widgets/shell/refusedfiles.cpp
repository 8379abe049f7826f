#include "shell/refusedfiles.h"

#include "util/terminaltext.h"

#include <algorithm>

#include <QFileInfo>
#include <QWidget>

namespace lmct {

RefusedFiles::RefusedFiles(QWidget *window) : QObject(window), m_window(window) {}

void RefusedFiles::noteOpened(const QString &abs) {
    m_openOrder.insert(abs, m_nextOpen++);
}

void RefusedFiles::forget(const QString &path) {
    m_openOrder.remove(path);
}

void RefusedFiles::report(const QString &path, const QString &reason) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    const qint64 order = m_openOrder.value(abs, m_nextOpen++);
    m_openOrder.remove(abs);
    // (loads end in any order: the box lists the files as they were given)
    const auto at = std::upper_bound(m_refused.begin(), m_refused.end(), order,
                                     [](qint64 o, const Refused &r) { return o < r.order; });
    m_refused.insert(at, Refused{order, path, reason});
    if (!m_box) {
        m_box = new QMessageBox(QMessageBox::Warning, tr("Cannot Open Trace"), QString(),
                                QMessageBox::Ok, m_window);
        m_box->setTextFormat(Qt::PlainText);
        m_box->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_box, &QMessageBox::finished, this, [this] { m_refused.clear(); });
        updateBox();
        m_box->open();
        return;
    }
    updateBox();
}

void RefusedFiles::updateBox() {
    if (!m_box) {
        return;
    }
    if (m_refused.size() == 1) {
        const Refused &r = m_refused.first();
        m_box->setText(tr("“%1” is not a trace this viewer can open.")
                           .arg(TerminalText::escaped(QFileInfo(r.path).fileName())));
        m_box->setInformativeText(r.reason);
        return;
    }
    m_box->setText(tr("%1 files are not traces this viewer can open.").arg(m_refused.size()));
    QStringList lines;
    for (const Refused &r : std::as_const(m_refused)) {
        lines << tr("“%1”: %2").arg(TerminalText::escaped(QFileInfo(r.path).fileName()), r.reason);
    }
    m_box->setInformativeText(lines.join(QStringLiteral("\n\n")));
}

}  // namespace lmct
