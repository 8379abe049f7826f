#pragma once

#include <QObject>
#include <QPointer>

class QAbstractScrollArea;
class QWidget;

namespace lmct {

/**
 * Watches the height in view of a timeline shown in a scroll area (the dock's): heightChanged()
 * when the area's height changes, also when the timeline itself keeps its size (taller than the
 * area, it is not resized when the area grows). The timeline's plot is laid out for the height
 * in view (TimelinePlotLayout::layoutSize), so it follows the area with this.
 *
 * Ownership: a QObject child of the view; watches the scroll area without owning it (a
 * QPointer), and finds it again when the view is reparented. Units: pixels. Thread-safety: GUI
 * thread. Errors: none; a view in no scroll area is not watched.
 */
class TimelineViewWatch : public QObject {
    Q_OBJECT
public:
    explicit TimelineViewWatch(QWidget *view);

signals:
    void heightChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void attach();

    QWidget *m_view;
    QPointer<QAbstractScrollArea> m_area;
};

}  // namespace lmct
