#include "timeline/timelineviewwatch.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QResizeEvent>
#include <QWidget>

namespace lmct {

TimelineViewWatch::TimelineViewWatch(QWidget *view) : QObject(view), m_view(view) {
    m_view->installEventFilter(this);
    attach();
}

void TimelineViewWatch::attach() {
    QWidget *w = m_view->parentWidget();
    while (w && !qobject_cast<QAbstractScrollArea *>(w)) {
        w = w->parentWidget();
    }
    auto *area = qobject_cast<QAbstractScrollArea *>(w);
    if (area == m_area) {
        return;
    }
    if (m_area) {
        m_area->removeEventFilter(this);
    }
    m_area = area;
    if (m_area) {
        m_area->installEventFilter(this);
    }
}

bool TimelineViewWatch::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view && event->type() == QEvent::ParentChange) {
        attach();
    } else if (watched == m_area && event->type() == QEvent::Resize) {
        const auto *resize = static_cast<const QResizeEvent *>(event);
        if (resize->size().height() != resize->oldSize().height()) {
            emit heightChanged();
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace lmct
