#pragma once

#include <QDialog>
#include <QSet>
#include <QStringList>

class QDialogButtonBox;
class QTreeWidget;

namespace lmct {

/**
 * File > Open as One Deployment…: the traces of one deployment, each with a Follow box for a
 * trace LMCache is still writing. Add… picks files (several at once), Remove drops the
 * selected ones; OK needs one trace or more. The traces of the open tabs are offered, unticked
 * in a first column, so a deployment can be made of files already open.
 *
 * Ownership: a QDialog. Thread-safety: GUI thread only.
 */
class DeploymentDialog : public QDialog {
    Q_OBJECT
public:
    /** `openTraces`: paths of the open tabs' traces, listed unchecked; `fileFilters` the file
     *  dialog's name filters; `dir` where Add… starts. */
    DeploymentDialog(const QStringList &openTraces, const QStringList &fileFilters,
                     const QString &dir, QWidget *parent = nullptr);

    /** Adds `paths` (checked: part of the deployment), skipping those listed already. */
    void addFiles(const QStringList &paths);
    /** The checked traces in list order. */
    QStringList paths() const;
    /** Indices into paths() of the traces to follow. */
    QSet<int> followed() const;
    /** Ticks or clears the Follow box of the listed trace `path`. */
    void setFollowed(const QString &path, bool follow);
    QTreeWidget *list() const { return m_list; }

private:
    void browse();
    void updateOk();

    QTreeWidget *m_list = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QStringList m_filters;
    QString m_dir;
};

}  // namespace lmct
