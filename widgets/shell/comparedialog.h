#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QDialogButtonBox;

namespace lmct {

/**
 * File > Compare…: picks the two traces of a comparison, A and B, each one of the open tabs'
 * traces or a file chosen with Browse…. The choices are paths (or the names of traces without
 * a file, such as the bundled sample), as the open tabs give them; A and B must differ in
 * position only (a trace may be compared with itself).
 *
 * Ownership: a QDialog. Thread-safety: GUI thread only.
 */
class CompareDialog : public QDialog {
    Q_OBJECT
public:
    /** `openTraces`: the paths of the open tabs' traces, offered first (A the first, B the
     *  second when there are two). */
    explicit CompareDialog(const QStringList &openTraces, const QStringList &fileFilters,
                           QWidget *parent = nullptr);

    QString pathA() const;
    QString pathB() const;
    /** Sets the choice of A or B (adds `path` to the list when it is not there yet). */
    void setPath(bool b, const QString &path);

private:
    void browse(bool b);
    void updateOk();

    QComboBox *m_a = nullptr;
    QComboBox *m_b = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QStringList m_filters;
};

}  // namespace lmct
