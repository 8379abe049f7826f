// The timeline's toolbar, context menu and shortcuts share one set of actions.

#include "testutil.h"
#include "timeline/timelinewidget.h"
#include "timelinefixture.h"
#include "viewstate.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <cmath>
#include <functional>

using namespace lmct;
using namespace lmct::test;

namespace {
const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

QAction *withIconText(const QList<QAction *> &actions, const QString &text) {
    for (QAction *a : actions) {
        if (a->iconText() == text) {
            return a;
        }
    }
    return nullptr;
}
QAction *withText(const QList<QAction *> &actions, const QString &text) {
    for (QAction *a : actions) {
        if (a->text() == text) {
            return a;
        }
    }
    return nullptr;
}
}  // namespace

class TstGuiTimelineActions : public QObject, public TimelineFixture {
    Q_OBJECT
private:
    /** The actions of the plot's context menu at `pos` (the menu is closed again). */
    QList<QAction *> contextMenuActions(const QPoint &pos) {
        QList<QAction *> shown;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, this, [&] {
            if (auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) {
                poll.stop();
                shown = menu->actions();
                menu->close();
            }
        });
        poll.start();
        QTimer::singleShot(5000, &poll, &QTimer::stop);
        emit m_w->plot()->customContextMenuRequested(pos);
        return shown;
    }

private slots:
    void init() { QVERIFY(openTimeline(kSchema2, QSize(1200, 700))); }
    void cleanup() {
        delete m_w;
        delete m_state;
        m_doc.reset();
    }

    void toolbarAndContextMenuShareActions() {
        auto *toolbar = m_w->findChild<QToolBar *>();
        QVERIFY(toolbar);
        const QList<QAction *> bar = toolbar->actions();
        m_state->setSelectedRecord(0);
        const QList<QAction *> menu =
            contextMenuActions(m_w->lanes()->rowRect(0).center().toPoint());
        QVERIFY(!menu.isEmpty());
        for (const QString &t :
             {QStringLiteral("Relative"), QStringLiteral("Wall clock"), QStringLiteral("UTC"),
              QStringLiteral("Fit"), QStringLiteral("Back"), QStringLiteral("Rate")}) {
            QAction *a = withIconText(bar, t);
            QVERIFY2(a, qPrintable(t));
            QVERIFY2(menu.contains(a), qPrintable(t));
        }
        // the menu names what they do; the toolbar keeps its short labels
        QCOMPARE(withIconText(bar, QStringLiteral("Relative"))->text(),
                 QStringLiteral("Relative time (t_mono)"));
        QCOMPARE(withIconText(bar, QStringLiteral("Back"))->text(),
                 QStringLiteral("Previous view"));
        // switching in one switches the other
        withIconText(bar, QStringLiteral("Wall clock"))->trigger();
        QCOMPARE(m_w->timeMode(), TimelineWidget::TimeMode::Wall);
        QVERIFY(withIconText(bar, QStringLiteral("Wall clock"))->isChecked());
        QVERIFY(!withIconText(bar, QStringLiteral("Relative"))->isChecked());
    }

    void shortcutsAreOnTheActions() {
        const QList<QAction *> own = m_w->actions();
        QAction *fitAll = withText(own, QStringLiteral("Fit everything"));
        QVERIFY(fitAll);
        QCOMPARE(fitAll->shortcut(), QKeySequence(Qt::Key_Home));
        QCOMPARE(fitAll->shortcutContext(), Qt::WidgetWithChildrenShortcut);
        auto *toolbar = m_w->findChild<QToolBar *>();
        QCOMPARE(withIconText(toolbar->actions(), QStringLiteral("Back"))->shortcut(),
                 QKeySequence(Qt::Key_Backspace));
        QCOMPARE(withIconText(toolbar->actions(), QStringLiteral("Fit"))->shortcut(),
                 QKeySequence(Qt::Key_F));
        QCOMPARE(withText(toolbar->actions(), QStringLiteral("Keep newest in view"))->shortcut(),
                 QKeySequence(Qt::Key_End));
        // the action does what the key does
        const QCPRange fitted = m_w->visibleRange();
        m_w->setVisibleRange(fitted.lower, fitted.lower + fitted.size() / 10);
        fitAll->trigger();
        QVERIFY(std::abs(m_w->visibleRange().size() - fitted.size()) < 1e-9 * fitted.size());
        // nothing to navigate: the keys pass through
        m_state->setDocument(nullptr);
        QVERIFY(fitAll->shortcut().isEmpty());
    }
};

QTEST_MAIN(TstGuiTimelineActions)
#include "tst_gui_timelineactions.moc"
