#include "shell/viewdocks.h"

#include "common/viewstateobserver.h"
#include "viewstate.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMetaMethod>
#include <QScrollArea>

namespace lmct {

namespace {

QString dockObjectName(const QString &title) {
    QString name;
    for (const QChar c : title) {
        if (c.isLetterOrNumber()) {
            name += c.toLower();
        }
    }
    return QStringLiteral("dock-") + name;
}

}  // namespace

ViewDocks::ViewDocks(QMainWindow *window, QMenu *viewMenu, QAction *before)
    : QObject(window), m_window(window), m_viewMenu(viewMenu), m_before(before) {}

QDockWidget *ViewDocks::add(const QString &title, QWidget *view, Qt::DockWidgetArea area,
                            ViewState *state) {
    auto *dock = new QDockWidget(title, m_window);
    dock->setObjectName(dockObjectName(title));
    auto *scroll = new QScrollArea(dock);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);  // the view fills the dock; scrolls only below its minimum
    scroll->setWidget(view);
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    m_window->addDockWidget(area, dock);
    m_viewMenu->insertAction(m_before, dock->toggleViewAction());
    m_views.append(view);
    if (auto *observer = dynamic_cast<ViewStateObserver *>(view)) {
        connect(dock, &QDockWidget::visibilityChanged, view,
                [observer](bool shown) { observer->setShown(shown); });
    }
    bind(view, state);
    return dock;
}

void ViewDocks::bindAll(ViewState *state) {
    for (const QPointer<QWidget> &view : std::as_const(m_views)) {
        bind(view, state);
    }
}

QWidget *ViewDocks::viewOf(const QDockWidget *dock) {
    const auto *scroll = dock ? qobject_cast<const QScrollArea *>(dock->widget()) : nullptr;
    return scroll ? scroll->widget() : nullptr;
}

void ViewDocks::bind(QWidget *view, ViewState *state) {
    if (!view) {
        return;
    }
    if (auto *observer = dynamic_cast<ViewStateObserver *>(view)) {
        observer->setViewState(state);
        return;
    }
    // Views that are not ViewStateObservers but offer an invokable setViewState.
    const QMetaObject *mo = view->metaObject();
    for (const char *sig : {"setViewState(lmct::ViewState*)", "setViewState(ViewState*)"}) {
        const int i = mo->indexOfMethod(sig);
        if (i >= 0) {
            mo->method(i).invoke(view, Qt::DirectConnection, Q_ARG(lmct::ViewState *, state));
            return;
        }
    }
}

}  // namespace lmct
