#pragma once

#include <QTabWidget>

namespace lmct {

/**
 * The main window's tabs of open files (traces, comparisons, deployments): every tab at least
 * kMinimumEms em wide (the advance of "M" in the bar's font, as a style sheet's `em`), its
 * title elided in the middle, and the bar scrolling when the tabs do not fit (nine files made
 * every title an ellipsis).
 *
 * The minimum width is the tab bar's own size hint, not a style sheet: a style sheet on the bar
 * marks the tab widget as styled (Qt::WA_StyleSheet), and palette changes of its ancestors then
 * stop there, so a palette set on the window or the application at runtime never reached the
 * open tabs (a comparison's charts stayed light in a dark theme).
 *
 * Ownership: a QWidget (parent-owned); owns its tab bar. Thread-safety: GUI thread only.
 * Errors: none.
 */
class FileTabWidget : public QTabWidget {
    Q_OBJECT
public:
    static constexpr int kMinimumEms = 12;

    explicit FileTabWidget(QWidget *parent = nullptr);
};

}  // namespace lmct
