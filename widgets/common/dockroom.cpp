#include "common/dockroom.h"

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QMainWindow>
#include <QPointer>
#include <QTabBar>
#include <QTimer>
#include <QVariant>
#include <algorithm>
#include <limits>
#include <memory>

namespace lmct {

namespace {

/** The tab bar of `dock`'s tab group (the window's tab bar with a tab of its title); 0 when
 *  it is in no tab group. */
int tabBarHeight(const QMainWindow *window, QDockWidget *dock) {
    if (window->tabifiedDockWidgets(dock).isEmpty()) {
        return 0;
    }
    for (const QTabBar *bar : window->findChildren<QTabBar *>(Qt::FindDirectChildrenOnly)) {
        for (int i = 0; bar->isVisible() && i < bar->count(); ++i) {
            if (bar->tabText(i) == dock->windowTitle()) {
                return bar->height();
            }
        }
    }
    return 0;
}

/** The dynamic property that holds a kept height (pixels). */
constexpr char kKeptProperty[] = "lmctDockRoomKeptHeight";

/** How much the shown widgets of `window` outside `dock` with a kept height can give. */
int roomOfKept(const QMainWindow *window, const QDockWidget *dock) {
    int room = std::numeric_limits<int>::max();
    for (const QWidget *w : window->findChildren<QWidget *>()) {
        const int kept = DockRoom::keptHeight(w);
        if (kept > 0 && w->isVisible() && !dock->isAncestorOf(w)) {
            room = std::min(room, std::max(0, w->height() - kept));
        }
    }
    return room;
}

}  // namespace

void DockRoom::keepHeight(QWidget *widget, int pixels) {
    if (widget) {
        widget->setProperty(kKeptProperty, std::max(0, pixels));
    }
}

int DockRoom::keptHeight(const QWidget *widget) {
    return widget ? widget->property(kKeptProperty).toInt() : 0;
}

int DockRoom::growHeight(QWidget *view, int pixels) {
    QDockWidget *dock = nullptr;
    for (QWidget *w = view; w && !dock; w = w->parentWidget()) {
        dock = qobject_cast<QDockWidget *>(w);
    }
    auto *window = dock ? qobject_cast<QMainWindow *>(dock->parentWidget()) : nullptr;
    if (!window || dock->isFloating() || pixels <= 0) {
        return 0;
    }
    if (dock->visibleRegion().isEmpty()) {
        // a tab behind another (Qt leaves it "visible", out of sight): it grows when it comes
        // to the front, where the room is wanted
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(dock, &QDockWidget::visibilityChanged, dock,
                                 [once, view = QPointer<QWidget>(view), pixels](bool shown) {
                                     if (shown && view) {
                                         QObject::disconnect(*once);
                                         QTimer::singleShot(
                                             0, view, [view, pixels] { growHeight(view, pixels); });
                                     }
                                 });
        return pixels;
    }
    const int before = dock->height();
    const int room = roomOfKept(window, dock);
    const int target = std::min(before + std::min(pixels, room), int(window->height() * kMaxShare));
    if (target <= before) {
        return 0;
    }
    // (Qt counts a tab group's tab bar in the size asked for)
    window->resizeDocks({dock}, {target + tabBarHeight(window, dock)}, Qt::Vertical);
    return target - before;
}

int DockRoom::shortfall(const QWidget *view) {
    const QWidget *w = view ? view->parentWidget() : nullptr;
    while (w && !qobject_cast<const QAbstractScrollArea *>(w)) {
        w = w->parentWidget();
    }
    const auto *area = qobject_cast<const QAbstractScrollArea *>(w);
    return area ? std::max(0,
                           view->minimumSizeHint().height() - area->maximumViewportSize().height())
                : 0;
}

}  // namespace lmct
