#pragma once

#include <QHash>
#include <QList>
#include <QMessageBox>
#include <QObject>
#include <QPointer>

class QWidget;

namespace lmct {

/**
 * The one warning box of files that cannot be opened: created for the first refused file,
 * extended by those refused while it is open, which it lists in the order they were opened
 * (loads end in any order), each with the loader's reason.
 *
 * Units: none; open order is a counter of noteOpened() calls.
 *
 * Ownership: a QObject child of the window; the box is a child of the window too and deletes
 * itself when closed.
 *
 * Thread-safety: GUI thread only.
 *
 * Errors: none; file names are escaped for display (TerminalText).
 */
class RefusedFiles : public QObject {
    Q_OBJECT
public:
    explicit RefusedFiles(QWidget *window);

    /** Notes that the file at absolute path `abs` is being opened now (its place in the box). */
    void noteOpened(const QString &abs);
    /** Forgets the open order of `path` (its load succeeded). */
    void forget(const QString &path);
    /** Lists `path` with `reason` in the box, opening the box when it is not open. */
    void report(const QString &path, const QString &reason);
    /** The open box, or nullptr. */
    QMessageBox *box() const { return m_box; }

private:
    void updateBox();

    /** A file refused while m_box is open, ordered by when it was opened. */
    struct Refused {
        qint64 order = 0;
        QString path;
        QString reason;
    };
    QWidget *m_window;
    QList<Refused> m_refused;
    QPointer<QMessageBox> m_box;
    QHash<QString, qint64> m_openOrder;  // absolute path -> when it was last opened
    qint64 m_nextOpen = 0;
};

}  // namespace lmct
