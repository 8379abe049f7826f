#include "shell/docklayout.h"

#include "panes/inspectorpane.h"

#include <algorithm>

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTimer>

namespace lmct {

namespace {

constexpr int kStateVersion = 1;
const char kGeometryKey[] = "window/geometry";
const char kStateKey[] = "window/state";
const char kLayoutPendingKey[] = "window/layoutPending";

}  // namespace

DockLayout::DockLayout(QMainWindow *window, const Docks &docks)
    : QObject(window), m_window(window), m_docks(docks) {}

void DockLayout::restore() {
    QSettings s;
    // A safety net: a saved layout that Qt 6.4 could not lay out crashed every start (inside
    // QDockAreaLayout, seen at 1920x1080). The flag stays set until the window has lived a few
    // seconds (or is closed); found set, the last start with this layout did not survive it.
    if (s.value(QLatin1String(kLayoutPendingKey), false).toBool()) {
        s.remove(QLatin1String(kGeometryKey));
        s.remove(QLatin1String(kStateKey));
        m_layoutReset = true;
    }
    s.setValue(QLatin1String(kLayoutPendingKey), true);
    s.sync();
    QTimer::singleShot(kLayoutSurvivalMs, this,
                       [] { QSettings().setValue(QLatin1String(kLayoutPendingKey), false); });
    if (m_window->restoreGeometry(s.value(QLatin1String(kGeometryKey)).toByteArray())) {
        fitToScreen();
        // Default sizes for this window size, before the saved layout (if any) overrides them.
        applyDefaultDockSizes();
    } else {
        QSize size(1500, 950);
        QSize maximized = size;
        if (const QScreen *screen = QApplication::primaryScreen()) {
            maximized = screen->availableSize();
            size = size.boundedTo(maximized * 0.9);
        }
        // The default heights of the maximized window: laid out at 90% and then maximized, the
        // window gave the extra height to the table and the docks stayed short (at 1366x768 the
        // timeline's legend was cut off). Shrunk to 90% (its normal size), the table yields.
        // (The widths stay those of 90%: shrunk, the inspector kept its width.)
        m_window->resize(size.width(), maximized.height());
        applyDefaultDockSizes();
        m_window->resize(size);
        m_window->setWindowState(m_window->windowState() |
                                 Qt::WindowMaximized);  // first run: use the screen
    }
    m_defaultState = m_window->saveState(kStateVersion);
    m_window->restoreState(s.value(QLatin1String(kStateKey)).toByteArray(), kStateVersion);
}

void DockLayout::save() {
    QSettings s;
    s.setValue(QLatin1String(kLayoutPendingKey), false);
    s.setValue(QLatin1String(kGeometryKey), m_window->saveGeometry());
    s.setValue(QLatin1String(kStateKey), m_window->saveState(kStateVersion));
}

bool DockLayout::reset() {
    if (m_docksHidden == DockSet::All) {
        // on the welcome page the default layout is what the first trace finds
        m_stateBeforeWelcome = m_defaultState;
        m_defaultSizesPending = true;
        return false;
    }
    m_window->restoreState(m_defaultState, kStateVersion);
    m_hiddenDocks.clear();
    m_docksHidden = DockSet::None;
    for (QDockWidget *d : m_window->findChildren<QDockWidget *>()) {
        d->show();
    }
    applyDefaultDockSizes();
    m_docks.inspector->raise();
    return true;
}

void DockLayout::fitToScreen() {
    const QScreen *screen = m_window->screen() ? m_window->screen() : QApplication::primaryScreen();
    if (!screen) {
        return;
    }
    const QRect avail = screen->availableGeometry();
    const Qt::WindowStates state = m_window->windowState();
    const Qt::WindowStates big = Qt::WindowMaximized | Qt::WindowFullScreen;
    QRect normal = m_window->geometry();
    if (state & big) {
        // A window saved maximized may carry no normal geometry (Qt saves an invalid one when
        // the window was never in the normal state): give it one that un-maximizes sensibly.
        normal = QRect(QPoint(), (avail.size() * 0.9).expandedTo(QSize(1, 1)));
    }
    normal.setSize(normal.size().boundedTo(avail.size()));
    if (!avail.contains(normal)) {
        normal.moveCenter(avail.center());
    }
    if (normal == m_window->geometry() && !(state & big)) {
        return;
    }
    m_window->setWindowState(state & ~big);
    m_window->setGeometry(normal);
    m_window->setWindowState(state);
}

void DockLayout::applyDefaultDockSizes() {
    const QSize sz = m_window->size();
    // The inspector: 30% of the width, at least a full line of the Frame tab's hex dump
    // (offset, 16 bytes, ASCII), at most 42% so the timeline keeps the larger share.
    const int dump = m_docks.inspectorPane->frameDumpWidth();
    const int inspector =
        std::clamp(std::max(sz.width() * 3 / 10, dump), 320, std::max(560, sz.width() * 42 / 100));
    m_window->resizeDocks({m_docks.inspector}, {inspector}, Qt::Horizontal);
    // The timeline: the height of a timeline of a few lanes with its rate plot and legend
    // (384 px; less scrolled the legend away at 1366x768), more on a tall window (36%), never
    // more than half. Diagnostics: a few rows (10%). The record table gets the rest: about 20
    // rows at 1600x1000.
    const int timeline = std::min(std::max(sz.height() * 36 / 100, 384), sz.height() / 2);
    const int diagnostics = std::max(sz.height() * 10 / 100, 90);
    m_window->resizeDocks({m_docks.timeline, m_docks.diagnostics}, {timeline, diagnostics},
                          Qt::Vertical);
}

void DockLayout::hide(DockSet set) {
    if (set == m_docksHidden) {
        return;
    }
    if (m_docksHidden == DockSet::All) {
        m_window->restoreState(m_stateBeforeWelcome, kStateVersion);
        if (m_defaultSizesPending) {
            for (QDockWidget *d : m_window->findChildren<QDockWidget *>()) {
                d->show();
            }
            applyDefaultDockSizes();
            m_docks.inspector->raise();
            m_defaultSizesPending = false;
        }
    } else {
        for (const QPointer<QDockWidget> &d : std::as_const(m_hiddenDocks)) {
            if (d) {
                d->show();
            }
        }
        if (m_hiddenDocks.contains(m_docks.timeline)) {
            m_docks.timeline->raise();
        }
    }
    m_hiddenDocks.clear();
    m_docksHidden = set;
    QList<QDockWidget *> leaveOut;
    if (set == DockSet::Timelines) {
        leaveOut = {m_docks.timeline, m_docks.cache};
    } else if (set == DockSet::All) {
        m_stateBeforeWelcome = m_window->saveState(kStateVersion);
        leaveOut = m_window->findChildren<QDockWidget *>(QString(), Qt::FindDirectChildrenOnly);
    }
    for (QDockWidget *d : std::as_const(leaveOut)) {
        if (d && !d->isHidden()) {
            m_hiddenDocks.append(d);
            d->hide();
        }
    }
}

}  // namespace lmct
