#include "shell/filetabwidget.h"

#include <QTabBar>

#include <algorithm>

namespace lmct {

namespace {

/** A tab bar whose tabs are at least FileTabWidget::kMinimumEms em wide (or high, beside). */
class MinimumWidthTabBar : public QTabBar {
public:
    using QTabBar::QTabBar;

protected:
    // (minimumTabSizeHint(), the size of an elided tab, asks this too)
    QSize tabSizeHint(int index) const override {
        QSize s = QTabBar::tabSizeHint(index);
        const int least =
            FileTabWidget::kMinimumEms * fontMetrics().horizontalAdvance(QLatin1Char('M'));
        const bool beside = shape() == QTabBar::RoundedWest || shape() == QTabBar::RoundedEast ||
                            shape() == QTabBar::TriangularWest ||
                            shape() == QTabBar::TriangularEast;
        if (beside) {
            s.setHeight(std::max(s.height(), least));
        } else {
            s.setWidth(std::max(s.width(), least));
        }
        return s;
    }
};

}  // namespace

FileTabWidget::FileTabWidget(QWidget *parent) : QTabWidget(parent) {
    setTabBar(new MinimumWidthTabBar(this));
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    tabBar()->setElideMode(Qt::ElideMiddle);
    tabBar()->setExpanding(false);
    tabBar()->setUsesScrollButtons(true);
}

}  // namespace lmct
