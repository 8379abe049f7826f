#include "shell/recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace lmct {

RecentFiles::RecentFiles(const QString &key, QObject *parent) : QObject(parent), m_key(key) {
    m_files = QSettings().value(m_key).toStringList();
    while (m_files.size() > maxCount()) {
        m_files.removeLast();
    }
}

void RecentFiles::add(const QString &path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_files.removeAll(abs);
    m_files.prepend(abs);
    while (m_files.size() > maxCount()) {
        m_files.removeLast();
    }
    save();
}

void RecentFiles::remove(const QString &path) {
    if (m_files.removeAll(QFileInfo(path).absoluteFilePath()) > 0) {
        save();
    }
}

void RecentFiles::clear() {
    m_files.clear();
    save();
}

void RecentFiles::attachMenu(QMenu *menu) {
    m_menu = menu;
    fillMenu();
}

void RecentFiles::save() {
    QSettings().setValue(m_key, m_files);
    fillMenu();
    emit changed();
}

void RecentFiles::fillMenu() {
    if (!m_menu) {
        return;
    }
    m_menu->clear();
    int n = 0;
    for (const QString &path : std::as_const(m_files)) {
        ++n;
        const QFileInfo fi(path);
        auto esc = [](QString s) { return s.replace(QLatin1Char('&'), QStringLiteral("&&")); };
        const QString label =
            n < 10 ? QStringLiteral("&%1  %2  —  %3")
                         .arg(n)
                         .arg(esc(fi.fileName()), esc(QDir::toNativeSeparators(fi.absolutePath())))
                   : QStringLiteral("%1  —  %2")
                         .arg(esc(fi.fileName()), esc(QDir::toNativeSeparators(fi.absolutePath())));
        QAction *a = m_menu->addAction(label, this, [this, path] { emit openRequested(path); });
        a->setToolTip(path);
        a->setEnabled(fi.exists());
    }
    if (m_files.isEmpty()) {
        m_menu->addAction(tr("No Recent Files"))->setEnabled(false);
    }
    m_menu->addSeparator();
    QAction *clearAction = m_menu->addAction(tr("Clear Menu"), this, &RecentFiles::clear);
    clearAction->setEnabled(!m_files.isEmpty());
    m_menu->setEnabled(true);
}

}  // namespace lmct
