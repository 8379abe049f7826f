#include "shell/combineactions.h"

#include "shell/combinedtab.h"
#include "shell/deploymentdialog.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "timeline/lanegrouping.h"
#include "timeline/timelineactions.h"
#include "timeline/timelinewidget.h"
#include "util/terminaltext.h"
#include "viewstate.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

namespace lmct {

namespace {

const char kLastDirKey[] = "file/lastDir";

}  // namespace

CombineActions::CombineActions(MainWindow *window) : QObject(window), m_window(window) {}

void CombineActions::addTo(QMenu *file) {
    QAction *a =
        file->addAction(tr("Open as One &Deployment…"), this, &CombineActions::showOpenDialog);
    a->setStatusTip(
        tr("Open several traces of one deployment merged on one t_wall axis, one lane group "
           "per trace"));
}

void CombineActions::showOpenDialog() {
    QSettings s;
    const QString dir = s.value(QLatin1String(kLastDirKey), QDir::homePath()).toString();
    QStringList open;
    QTabWidget *tabs = m_window->tabWidget();
    for (int i = 0; i < tabs->count(); ++i) {
        if (const TraceTab *t = m_window->tabAt(i); t && QFileInfo(t->filePath()).isAbsolute()) {
            open << t->filePath();
        }
    }
    DeploymentDialog dialog(open, MainWindow::traceFileFilters(), dir, m_window);
    if (open.isEmpty()) {
        // nothing open to pick from: straight to the files
        const QStringList files =
            QFileDialog::getOpenFileNames(m_window, tr("Open as One Deployment"), dir,
                                          MainWindow::traceFileFilters().join(QLatin1String(";;")));
        if (files.isEmpty()) {
            return;
        }
        dialog.addFiles(files);
    }
    if (dialog.exec() != QDialog::Accepted || dialog.paths().isEmpty()) {
        return;
    }
    s.setValue(QLatin1String(kLastDirKey), QFileInfo(dialog.paths().first()).absolutePath());
    combineFiles(dialog.paths(), dialog.followed());
}

CombinedTab *CombineActions::combineFiles(const QStringList &paths, const QSet<int> &followed) {
    auto *tab = new CombinedTab;
    tab->combineFiles(paths, followed);
    addTab(tab);
    return tab;
}

void CombineActions::addGroupingTo(TimelineWidget *timeline) {
    auto *actions = timeline ? timeline->findChild<TimelineActions *>() : nullptr;
    if (!actions) {
        return;
    }
    // after the timeline's own entries
    connect(actions->lanesMenu(), &QMenu::aboutToShow, this, [this, actions] {
        const TraceTab *t = m_window->currentTab();
        QMenu *group = actions->lanesMenu()->addMenu(tr("&Group Lanes By"));
        group->setEnabled(t && t->document() && !t->isLoading() && !t->isFollowing());
        group->setToolTip(tr("Opens the trace in a tab of its own, a timeline per group"));
        for (const LaneGrouping::By by :
             {LaneGrouping::By::Model, LaneGrouping::By::Rank, LaneGrouping::By::Tenant}) {
            group->addAction(tr("%1…").arg(LaneGrouping::name(by)), this,
                             [this, by] { groupCurrentTrace(int(by)); });
        }
    });
}

CombinedTab *CombineActions::groupCurrentTrace(int by) {
    const TraceTab *t = m_window->currentTab();
    const auto doc = t && !t->isLoading() ? t->document() : nullptr;
    if (!doc) {
        return nullptr;
    }
    auto *tab = new CombinedTab;
    tab->combineDocuments({doc});
    tab->setGrouping(LaneGrouping::By(by));
    addTab(tab);
    return tab;
}

void CombineActions::addTab(CombinedTab *tab) {
    tab->setWallUtc(m_window->m_utcAction->isChecked());
    QTabWidget *tabs = m_window->tabWidget();
    connect(tab, &CombinedTab::currentStateChanged, m_window, [this, tab] {
        if (m_window->tabWidget()->currentWidget() == tab) {
            m_window->onCurrentTabChanged();
        }
    });
    connect(tab, &CombinedTab::combined, m_window, [this, tab] {
        // the label names the traces shown (not a file that could not be read)
        const int index = m_window->tabWidget()->indexOf(tab);
        if (index >= 0) {
            m_window->tabWidget()->setTabText(index, tab->title());
        }
        for (ViewState *s : tab->states()) {
            s->setWallUtc(m_window->m_utcAction->isChecked());
        }
        if (m_window->tabWidget()->currentWidget() == tab) {
            m_window->onCurrentTabChanged();
        }
    });
    connect(tab, &CombinedTab::statusChanged, m_window, [this, tab] {
        if (m_window->tabWidget()->currentWidget() == tab) {
            m_window->updateStatus();
        }
    });
    connect(tab, &CombinedTab::failed, m_window, [this, tab](const QString &error) {
        const int index = m_window->tabWidget()->indexOf(tab);
        if (index < 0) {
            return;
        }
        const QString path = tab->filePaths().value(0);
        close(index);
        emit m_window->loadFailed(path, error);
        if (m_window->m_showDialogs) {
            auto *box =
                new QMessageBox(QMessageBox::Warning, tr("Cannot Open Deployment"),
                                tr("None of the traces can be read."), QMessageBox::Ok, m_window);
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    const int index = tabs->addTab(tab, tab->title());
    QStringList tip;
    for (const QString &p : tab->filePaths()) {
        tip << TerminalText::escaped(QDir::toNativeSeparators(p));
    }
    tabs->setTabToolTip(index, tip.join(QLatin1Char('\n')));
    tabs->setCurrentIndex(index);
}

ViewState *CombineActions::stateOf(QWidget *w) {
    const auto *tab = qobject_cast<CombinedTab *>(w);
    return tab ? tab->currentState() : nullptr;
}

bool CombineActions::isCombined(QWidget *w) {
    return qobject_cast<CombinedTab *>(w) != nullptr;
}

QString CombineActions::statusOf(QWidget *w) {
    const auto *tab = qobject_cast<CombinedTab *>(w);
    if (!tab) {
        return QString();
    }
    QString text = tab->statusLabel()->text();
    const ViewState *s = tab->currentState();
    if (s && s->document()) {
        text += tr(" · the docks show %1").arg(TerminalText::escaped(s->document()->fileName()));
    }
    return text;
}

void CombineActions::setWallUtc(QWidget *w, bool utc) {
    if (auto *tab = qobject_cast<CombinedTab *>(w)) {
        tab->setWallUtc(utc);
    }
}

void CombineActions::cancel(QWidget *w) {
    if (auto *tab = qobject_cast<CombinedTab *>(w)) {
        tab->cancel();
    }
}

bool CombineActions::close(int index) {
    QTabWidget *tabs = m_window->tabWidget();
    auto *tab = qobject_cast<CombinedTab *>(tabs->widget(index));
    if (!tab) {
        return false;
    }
    disconnect(tab, nullptr, m_window, nullptr);
    tab->cancel();
    tabs->removeTab(index);
    tab->deleteLater();
    m_window->onCurrentTabChanged();
    return true;
}

}  // namespace lmct
