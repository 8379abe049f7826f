#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace lmct {

/**
 * The "Open Recent" list: absolute paths of the traces opened last, newest first, at most
 * maxCount(), kept in QSettings under `key` (so they survive restarts), and the menu that shows
 * them (numbered entries with the file name and its folder, then "Clear Menu").
 *
 * Files that no longer exist stay listed but are disabled in the menu.
 * Ownership: the menu is owned by the caller (see attachMenu). Thread-safety: GUI thread only.
 */
class RecentFiles : public QObject {
    Q_OBJECT
public:
    explicit RecentFiles(const QString &key = QStringLiteral("recentFiles"),
                         QObject *parent = nullptr);

    static int maxCount() { return 10; }

    QStringList files() const { return m_files; }
    /** Moves `path` (made absolute) to the top, dropping the oldest beyond maxCount(). */
    void add(const QString &path);
    void remove(const QString &path);
    void clear();

    /** Keeps `menu` filled with the list (rebuilt whenever it changes). */
    void attachMenu(QMenu *menu);

signals:
    /** A recent entry was chosen in the menu. */
    void openRequested(const QString &path);
    void changed();

private:
    void save();
    void fillMenu();

    QString m_key;
    QStringList m_files;
    QMenu *m_menu = nullptr;
};

}  // namespace lmct
