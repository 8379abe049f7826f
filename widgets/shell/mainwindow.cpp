#include "shell/mainwindow.h"

#include "timeline/timelinewidget.h"

#include "panes/cachebehaviourpane.h"
#include "panes/diagnosticspane.h"
#include "panes/headerpane.h"
#include "panes/inspectorpane.h"
#include "panes/statisticspane.h"
#include "records/recordtableview.h"
#include "shell/combineactions.h"
#include "shell/comparedialog.h"
#include "shell/comparetab.h"
#include "shell/docklayout.h"
#include "shell/exportactions.h"
#include "shell/filetabwidget.h"
#include "shell/recentfiles.h"
#include "shell/refusedfiles.h"
#include "shell/tracestatusbar.h"
#include "shell/tracetab.h"
#include "shell/viewdocks.h"
#include "shell/welcomepage.h"
#include "util/terminaltext.h"
#include "viewstate.h"

#include <algorithm>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>

namespace lmct {

namespace {

const char kUtcKey[] = "view/wallUtc";
const char kLastDirKey[] = "file/lastDir";

}  // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent),
      m_center(new QStackedWidget(this)),
      m_welcome(new WelcomePage(m_center)),
      m_tabs(new FileTabWidget(m_center)),
      m_recent(new RecentFiles(QStringLiteral("recentFiles"), this)),
      m_refused(new RefusedFiles(this)) {
    setWindowTitle(QApplication::applicationDisplayName().isEmpty()
                       ? tr("LMCache Trace Viewer")
                       : QApplication::applicationDisplayName());
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setTabPosition(Qt::AllDockWidgetAreas, QTabWidget::North);

    // The welcome page scrolls when the window is short: unscrolled its height was the central
    // area's minimum, which kept the default layout from giving the timeline dock its share.
    m_welcomeArea = new QScrollArea(m_center);
    m_welcomeArea->setFrameShape(QFrame::NoFrame);
    m_welcomeArea->setWidgetResizable(true);
    m_welcomeArea->setWidget(m_welcome);
    m_center->addWidget(m_welcomeArea);
    m_center->addWidget(m_tabs);
    setCentralWidget(m_center);

    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentTabChanged);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_welcome, &WelcomePage::sampleRequested, this, &MainWindow::openSample);
    connect(m_welcome, &WelcomePage::recentRequested, this, &MainWindow::openFile);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openFile);
    connect(m_recent, &RecentFiles::changed, this,
            [this] { m_welcome->setRecentFiles(m_recent->files()); });
    m_welcome->setRecentFiles(m_recent->files());

    createActions();
    m_viewDocks = new ViewDocks(this, m_viewMenu, m_docksSeparator);
    createDocks();
    createStatusBar();
    m_layout = new DockLayout(
        this, {m_inspectorDock, m_timelineDock, m_diagnosticsDock, m_cacheDock, m_inspector});
    m_layout->restore();
    onCurrentTabChanged();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"),
                                    this, &MainWindow::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open one or more LMCache trace files"));
    QMenu *recent = file->addMenu(tr("Open &Recent"));
    m_recent->attachMenu(recent);
    QAction *follow = file->addAction(tr("&Follow…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Follow a Trace Being Recorded"), QString(),
                                         traceFileFilters().join(QLatin1String(";;")));
        if (!path.isEmpty()) {
            followFile(path);
        }
    });
    follow->setStatusTip(
        tr("Open a trace LMCache is still writing and show new records as they "
           "are appended"));
    QAction *stopFollow = file->addAction(tr("S&top Following"), this, [this] {
        if (TraceTab *tab = currentTab()) {
            tab->stopFollowing();
        }
    });
    stopFollow->setStatusTip(tr("Stop watching the current tab's file for new records"));
    file->addSeparator();
    QAction *compare = file->addAction(tr("Co&mpare…"), this, &MainWindow::showCompareDialog);
    compare->setStatusTip(tr("Compare two traces side by side (two files or two open tabs)"));
    (m_combine = new CombineActions(this))->addTo(file);
    connect(file, &QMenu::aboutToShow, this, [this, stopFollow] {
        const TraceTab *tab = currentTab();
        stopFollow->setEnabled(tab && tab->isFollowing());
    });
    file->addSeparator();
    m_closeTabAction = file->addAction(tr("&Close Tab"), this, [this] {
        if (m_tabs->currentIndex() >= 0) {
            closeTab(m_tabs->currentIndex());
        }
    });
    m_closeTabAction->setShortcut(QKeySequence::Close);
    file->addSeparator();
    m_exportActions = new ExportActions(this, [this] { return currentTab(); });
    m_exportActions->setCurrentComparison([this] { return compareTabAt(m_tabs->currentIndex()); });
    m_exportActions->addMenu(file);
    file->addSeparator();
    QAction *quit = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")),
                                    tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *go = menuBar()->addMenu(tr("&Go"));
    m_goToAction = go->addAction(tr("&Go to Record…"), this, [this] {
        if (TraceTab *t = currentTab()) {
            t->table()->promptGoToRecord();
        }
    });
    m_goToAction->setShortcut(Qt::CTRL | Qt::Key_G);
    m_showAllAction = go->addAction(tr("Show &All Records"), this, [this] {
        // the current trace's, or trace A's of a comparison (the link clears B's)
        if (m_boundState) {
            m_boundState->setTimeRange(std::nullopt);
        }
    });
    m_showAllAction->setShortcut(Qt::Key_Escape);
    m_showAllAction->setStatusTip(tr("Clear the time range"));
    go->addSeparator();
    QAction *next = go->addAction(tr("&Next Tab"), this, [this] {
        if (m_tabs->count() > 1) {
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
        }
    });
    next->setShortcut(QKeySequence::NextChild);
    QAction *prev = go->addAction(tr("&Previous Tab"), this, [this] {
        if (m_tabs->count() > 1) {
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) %
                                    m_tabs->count());
        }
    });
    prev->setShortcut(QKeySequence::PreviousChild);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_docksSeparator = m_viewMenu->addSeparator();
    m_utcAction = m_viewMenu->addAction(tr("Show t_wall in &UTC"));
    m_utcAction->setCheckable(true);
    m_utcAction->setChecked(QSettings().value(QLatin1String(kUtcKey), false).toBool());
    connect(m_utcAction, &QAction::toggled, this, [this](bool utc) {
        QSettings().setValue(QLatin1String(kUtcKey), utc);
        for (int i = 0; i < m_tabs->count(); ++i) {
            if (TraceTab *t = tabAt(i)) {
                t->viewState()->setWallUtc(utc);
            } else if (CompareTab *c = compareTabAt(i)) {
                c->stateA()->setWallUtc(utc);
                c->stateB()->setWallUtc(utc);
            } else {
                CombineActions::setWallUtc(m_tabs->widget(i), utc);
            }
        }
    });
    m_viewMenu->addAction(tr("&Reset Layout"), this, [this] {
        if (m_layout->reset()) {
            onCurrentTabChanged();  // a comparison leaves the timelines out again
        }
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Open &Sample Trace"), this, &MainWindow::openSample);
    help->addSeparator();
    QAction *about =
        help->addAction(tr("&About LMCache Trace Viewer"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)
        ->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::createDocks() {
    m_inspector = new InspectorPane;
    m_inspectorDock = addViewDock(tr("Inspector"), m_inspector, Qt::RightDockWidgetArea);
    m_header = new HeaderPane;
    m_headerDock = addViewDock(tr("Header"), m_header, Qt::RightDockWidgetArea);
    tabifyDockWidget(m_inspectorDock, m_headerDock);
    m_diagnostics = new DiagnosticsPane;
    m_diagnosticsDock = addViewDock(tr("Diagnostics"), m_diagnostics, Qt::BottomDockWidgetArea);
    m_statistics = new StatisticsPane;
    QDockWidget *stats = addViewDock(tr("Statistics"), m_statistics, Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_diagnosticsDock, stats);
    m_diagnosticsDock->raise();
    auto *timeline = new TimelineWidget;
    m_timelineDock = addViewDock(tr("Timeline"), timeline, Qt::TopDockWidgetArea);
    m_exportActions->addTimeline(timeline);
    m_combine->addGroupingTo(timeline);  // Lanes > Group Lanes By
    // The inspector column runs the full height; the timeline sits above the table only.
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    m_inspector->setMinimumWidth(320);  // keys and hashes stay readable beside a wide timeline
    // Cache Behaviour shares the timeline's room (tables and plots need the height).
    m_cacheDock = addViewDock(tr("Cache Behaviour"), new CacheBehaviourPane, Qt::TopDockWidgetArea);
    tabifyDockWidget(m_timelineDock, m_cacheDock);
    m_timelineDock->raise();
    m_inspectorDock->raise();
}

QDockWidget *MainWindow::addViewDock(const QString &title, QWidget *view, Qt::DockWidgetArea area) {
    return m_viewDocks->add(title, view, area, m_boundState);
}

QWidget *MainWindow::dockView(const QDockWidget *dock) {
    return ViewDocks::viewOf(dock);
}

void MainWindow::createStatusBar() {
    m_statusBar = new TraceStatusBar(this);
    setStatusBar(m_statusBar);
    connect(m_statusBar, &TraceStatusBar::problemsClicked, this, [this] {
        m_diagnosticsDock->show();
        m_diagnosticsDock->raise();
        m_diagnostics->setFocus();
    });
}

void MainWindow::closeEvent(QCloseEvent *event) {
    m_layout->hide(DockLayout::DockSet::None);  // the layout is saved as the user left it
    m_layout->save();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (TraceTab *t = tabAt(i)) {
            t->cancelLoad();
        } else if (CompareTab *c = compareTabAt(i)) {
            c->cancel();
        } else {
            CombineActions::cancel(m_tabs->widget(i));
        }
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event) {
    if (event->mimeData()->hasUrls()) {
        for (const QUrl &url : event->mimeData()->urls()) {
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
        }
    }
    QMainWindow::dragEnterEvent(event);
}

void MainWindow::dropEvent(QDropEvent *event) {
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        }
    }
    if (paths.isEmpty()) {
        QMainWindow::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    openFiles(paths);
}

QStringList MainWindow::traceFileFilters() {
    return {tr("LMCache traces (*.lct *.lmct)"), tr("All files (*)")};
}

void MainWindow::showOpenDialog() {
    QSettings s;
    QString dir = s.value(QLatin1String(kLastDirKey)).toString();
    if (dir.isEmpty()) {
        const TraceTab *tab = currentTab();
        dir = tab && QFileInfo(tab->filePath()).isAbsolute()
                  ? QFileInfo(tab->filePath()).absolutePath()
                  : QDir::homePath();
    }
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Trace"), dir, traceFileFilters().join(QLatin1String(";;")));
    if (files.isEmpty()) {
        return;
    }
    s.setValue(QLatin1String(kLastDirKey), QFileInfo(files.first()).absolutePath());
    openFiles(files);
}

void MainWindow::openFiles(const QStringList &paths) {
    for (const QString &p : paths) {
        openFile(p);
    }
}

TraceTab *MainWindow::openFile(const QString &path) {
    const QFileInfo fi(path);
    const QString abs = fi.absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (tabAt(i) && tabAt(i)->filePath() == abs) {
            m_tabs->setCurrentIndex(i);
            return tabAt(i);
        }
    }
    m_refused->noteOpened(abs);
    auto *tab = new TraceTab;
    tab->load(abs);  // results arrive through the event loop, after addTab() connected them
    addTab(tab, tab->fileName(), TerminalText::escaped(QDir::toNativeSeparators(abs)));
    return tab;
}

TraceTab *MainWindow::followFile(const QString &path) {
    const QFileInfo fi(path);
    const QString abs = fi.absoluteFilePath();
    auto *tab = new TraceTab;
    tab->follow(abs);
    addTab(tab, tr("%1 (live)").arg(tab->fileName()),
           TerminalText::escaped(QDir::toNativeSeparators(abs)));
    return tab;
}

TraceTab *MainWindow::openSample() {
    QFile f(QStringLiteral(":/samples/sample.lct"));
    if (!f.open(QIODevice::ReadOnly)) {
        const QString error = tr("The bundled sample trace is not part of this build.");
        emit loadFailed(QStringLiteral(":/samples/sample.lct"), error);
        if (m_showDialogs) {
            QMessageBox::warning(this, tr("Open Sample Trace"), error);
        }
        return nullptr;
    }
    auto *tab = new TraceTab;
    tab->loadBytes(f.readAll(), QStringLiteral("sample.lct"));
    addTab(tab, tr("sample.lct"), tr("Bundled sample trace"));
    return tab;
}

TraceTab *MainWindow::addTab(TraceTab *tab, const QString &title, const QString &toolTip) {
    tab->viewState()->setWallUtc(m_utcAction->isChecked());
    connect(tab, &TraceTab::loaded, this, [this, tab] { onTabLoaded(tab); });
    connect(tab, &TraceTab::followingEnded, this, [this, tab] {
        const int index = m_tabs->indexOf(tab);
        if (index >= 0) {  // no longer "(live)"
            m_tabs->setTabText(index, tab->fileName());
        }
        if (tab == currentTab()) {
            updateStatus();
            updateActions();
        }
    });
    connect(tab, &TraceTab::loadFailed, this,
            [this, tab](const QString &error) { onTabFailed(tab, error); });
    connect(tab->table(), &RecordTableView::subsetApplied, this, [this, tab] {
        if (tab == currentTab()) {
            updateStatus();
        }
    });
    const int index = m_tabs->addTab(tab, title);
    m_tabs->setTabToolTip(index, toolTip);
    m_tabs->setCurrentIndex(index);
    return tab;
}

void MainWindow::closeTab(int index) {
    if (m_combine->close(index)) {
        return;
    }
    if (CompareTab *c = compareTabAt(index)) {
        disconnect(c, nullptr, this, nullptr);
        c->cancel();
        m_tabs->removeTab(index);
        c->deleteLater();
        onCurrentTabChanged();
        return;
    }
    TraceTab *tab = tabAt(index);
    if (!tab) {
        return;
    }
    disconnect(tab, nullptr, this, nullptr);
    disconnect(tab->table(), nullptr, this, nullptr);
    tab->cancelLoad();
    m_tabs->removeTab(index);
    tab->deleteLater();
    onCurrentTabChanged();
}

void MainWindow::onTabLoaded(TraceTab *tab) {
    const int index = m_tabs->indexOf(tab);
    if (index < 0) {
        return;
    }
    m_refused->forget(tab->filePath());
    const auto doc = tab->document();
    if (QFileInfo(tab->filePath()).isAbsolute() && QFileInfo::exists(tab->filePath())) {
        m_recent->add(tab->filePath());
    }
    const bool problems = doc && (doc->errorCount() > 0 || doc->warningCount() > 0);
    m_tabs->setTabIcon(index,
                       problems ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
    if (doc && doc->isPartial()) {
        m_tabs->setTabText(index, tr("%1 (partial)").arg(tab->fileName()));
    } else if (doc && doc->argsCheckCancelledAt() >= 0) {
        m_tabs->setTabText(index, tr("%1 (partial check)").arg(tab->fileName()));
    }
    if (tab == currentTab()) {
        if (problems) {
            m_diagnosticsDock->show();
            m_diagnosticsDock->raise();
        }
        updateStatus();
        updateActions();
    }
    emit traceLoaded(tab);
}

void MainWindow::onTabFailed(TraceTab *tab, const QString &error) {
    const QString path = tab->filePath();
    const int index = m_tabs->indexOf(tab);
    if (index >= 0) {
        disconnect(tab, nullptr, this, nullptr);
        disconnect(tab->table(), nullptr, this, nullptr);
        m_tabs->removeTab(index);
        tab->deleteLater();
        onCurrentTabChanged();
    }
    if (!QFileInfo::exists(path)) {
        m_recent->remove(path);
    }
    emit loadFailed(path, error);
    reportRefused(path, error);
}

void MainWindow::reportRefused(const QString &path, const QString &reason) {
    if (m_showDialogs) {
        m_refused->report(path, reason);
    }
}

QMessageBox *MainWindow::refusedBox() const {
    return m_refused->box();
}

bool MainWindow::layoutWasReset() const {
    return m_layout->layoutWasReset();
}

void MainWindow::onCurrentTabChanged() {
    TraceTab *tab = currentTab();
    CompareTab *compare = compareTabAt(m_tabs->currentIndex());
    QWidget *combined =
        CombineActions::isCombined(m_tabs->currentWidget()) ? m_tabs->currentWidget() : nullptr;
    ViewState *state = tab       ? tab->viewState()
                       : compare ? compare->stateA()
                                 : CombineActions::stateOf(combined);
    if (state != m_boundState) {
        if (m_boundState) {
            disconnect(m_boundState, nullptr, this, nullptr);
        }
        m_boundState = state;
        if (state) {
            connect(state, &ViewState::timeRangeChanged, this, [this] {
                updateStatus();
                updateActions();
            });
            connect(state, &ViewState::documentChanged, this, [this] {
                updateStatus();
                updateActions();
            });
            connect(state, &ViewState::documentGrew, this, &MainWindow::updateStatus);
        }
        m_viewDocks->bindAll(state);
    }
    m_layout->hide(m_tabs->count() == 0  ? DockLayout::DockSet::All
                   : compare || combined ? DockLayout::DockSet::Timelines
                                         : DockLayout::DockSet::None);
    m_center->setCurrentWidget(m_tabs->count() > 0 ? static_cast<QWidget *>(m_tabs)
                                                   : m_welcomeArea);
    const QString app = QApplication::applicationDisplayName().isEmpty()
                            ? tr("LMCache Trace Viewer")
                            : QApplication::applicationDisplayName();
    setWindowTitle(tab        ? tr("%1 — %2").arg(tab->fileName(), app)
                   : compare  ? tr("%1 — %2").arg(compare->title(), app)
                   : combined ? tr("%1 — %2").arg(m_tabs->tabText(m_tabs->currentIndex()), app)
                              : app);
    updateStatus();
    updateActions();
}

void MainWindow::updateActions() {
    TraceTab *tab = currentTab();
    const bool hasDoc = tab && tab->document();
    m_closeTabAction->setEnabled(tab != nullptr);
    m_goToAction->setEnabled(hasDoc && !tab->document()->records().isEmpty());
    m_showAllAction->setEnabled(m_boundState && m_boundState->document() &&
                                m_boundState->timeRange().has_value());
}

void MainWindow::updateStatus() {
    if (const QString c = CombineActions::statusOf(m_tabs->currentWidget()); !c.isEmpty()) {
        m_statusBar->showText(c);
        return;
    }
    if (const CompareTab *c = compareTabAt(m_tabs->currentIndex())) {
        m_statusBar->showText(
            tr("Comparing %1 (A) with %2 (B); the docks show A")
                .arg(TerminalText::escaped(QFileInfo(c->filePathA()).fileName()),
                     TerminalText::escaped(QFileInfo(c->filePathB()).fileName())));
        return;
    }
    m_statusBar->showTab(currentTab());
}

QString MainWindow::statusText() const {
    return m_statusBar->statusText();
}

TraceTab *MainWindow::currentTab() const {
    return qobject_cast<TraceTab *>(m_tabs->currentWidget());
}

TraceTab *MainWindow::tabAt(int index) const {
    return qobject_cast<TraceTab *>(m_tabs->widget(index));
}

CompareTab *MainWindow::compareTabAt(int index) const {
    return qobject_cast<CompareTab *>(m_tabs->widget(index));
}

void MainWindow::showCompareDialog() {
    QStringList open;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (const TraceTab *t = tabAt(i); t && t->document() && !t->isLoading()) {
            open << t->filePath();
        }
    }
    CompareDialog dialog(open, traceFileFilters(), this);
    if (dialog.exec() == QDialog::Accepted) {
        compareFiles(dialog.pathA(), dialog.pathB());
    }
}

CompareTab *MainWindow::compareFiles(const QString &a, const QString &b,
                                     const CompareAlignmentOptions &alignment) {
    // A trace open in a loaded tab is compared as it is (also the bundled sample, which has no
    // file); otherwise both files are loaded by the comparison.
    const auto openDocument = [this](const QString &path) -> std::shared_ptr<const TraceDocument> {
        const QString abs = QFileInfo(path).absoluteFilePath();
        for (int i = 0; i < m_tabs->count(); ++i) {
            const TraceTab *t = tabAt(i);
            if (t && !t->isLoading() && t->document() &&
                (t->filePath() == path || t->filePath() == abs)) {
                return t->document();
            }
        }
        return nullptr;
    };
    auto *tab = new CompareTab;
    tab->stateA()->setWallUtc(m_utcAction->isChecked());
    tab->stateB()->setWallUtc(m_utcAction->isChecked());
    const auto docA = openDocument(a);
    const auto docB = openDocument(b);
    connect(tab, &CompareTab::failed, this, [this, tab](const QString &error) {
        const int index = m_tabs->indexOf(tab);
        if (index < 0 || (tab->stateA()->document() && tab->stateB()->document())) {
            return;  // a cancelled comparison keeps both timelines shown
        }
        const QString path = tab->filePathA();
        closeTab(index);
        emit loadFailed(path, error);
        if (m_showDialogs) {
            auto *box =
                new QMessageBox(QMessageBox::Warning, tr("Cannot Compare Traces"),
                                tr("The traces cannot be compared."), QMessageBox::Ok, this);
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    tab->lineUp(alignment);
    if (docA && docB) {
        tab->compareDocuments(docA, docB);
    } else {
        tab->compareFiles(a, b);
    }
    const int index = m_tabs->addTab(tab, tab->title());
    m_tabs->setTabToolTip(
        index,
        tr("A: %1\nB: %2")
            .arg(TerminalText::escaped(QDir::toNativeSeparators(QFileInfo(a).absoluteFilePath())),
                 TerminalText::escaped(QDir::toNativeSeparators(QFileInfo(b).absoluteFilePath()))));
    m_tabs->setCurrentIndex(index);
    return tab;
}

int MainWindow::tabCount() const {
    return m_tabs->count();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About LMCache Trace Viewer"),
        tr("<h3>LMCache Trace Viewer %1</h3>"
           "<p>Opens storage traces recorded by LMCache (<code>*.lct</code>, "
           "<code>*.lmct</code>): every StorageManager call with its time and decoded "
           "arguments, the header and its config digest, and what a damaged file lost.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

}  // namespace lmct
