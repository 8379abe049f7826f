#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace lmct {

/**
 * What the main window shows when no trace is open: the application's name and icon, how to
 * open a trace (File > Open, drag and drop), buttons to open a file or the bundled sample, and
 * the most recent files as links.
 *
 * Thread-safety: GUI thread only.
 */
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget *parent = nullptr);

    /** Shows up to five of `files` (absolute paths, newest first) as links. */
    void setRecentFiles(const QStringList &files);

signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString &path);

private:
    QLabel *m_recentTitle = nullptr;
    QVBoxLayout *m_recentList = nullptr;
};

}  // namespace lmct
