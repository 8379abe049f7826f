#pragma once

#include <QLabel>

namespace lmct {

/**
 * A QLabel whose width does not jump as its text changes, for counts and status texts that
 * change while a trace loads or is followed (so that the widgets beside it stay put).
 *
 * Its minimum width is the widest of: the width of a template text (setWidthTemplate(), measured
 * with the label's font, e.g. "10,000,000 records") and every text shown since the last
 * resetWidth(). It grows when a longer text comes and never shrinks on its own. The usual UI
 * fonts have tabular digits, so counts of the same number of digits keep their width.
 *
 * Units: pixels. Ownership: a QWidget (parent owns it). Thread-safety: GUI thread only.
 */
class StableLabel : public QLabel {
    Q_OBJECT
public:
    explicit StableLabel(QWidget *parent = nullptr);

    /** Reserves the width of `text` (plain text, in the label's font); empty: no reserve. */
    void setWidthTemplate(const QString &text);
    QString widthTemplate() const { return m_template; }

    /** Shows `text` and widens the label if it needs more room (hides QLabel::setText). */
    void setText(const QString &text);
    /** Forgets the widths seen (e.g. another file is shown); the template still holds. */
    void resetWidth();

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateWidth();

    QString m_template;
    int m_widest = 0;  // widest text seen since resetWidth(), in pixels (contents)
};

}  // namespace lmct
