#include "shell/exportactions.h"

#include "trace/traceinfo.h"

#include "codec/valueformatter.h"
#include "common/jobpool.h"
#include "export/chrometraceexport.h"
#include "export/exportfile.h"
#include "export/recordexport.h"
#include "export/sqliteexport.h"
#include "export/tablecsv.h"
#include "itemmodels/statisticstablemodel.h"
#include "records/decoratedrecordtablemodel.h"
#include "records/recordtableview.h"
#include "shell/reportactions.h"
#include "shell/tracetab.h"
#include "stats/tracestatistics.h"
#include "timeline/timelineexportactions.h"
#include "timeline/timelinewidget.h"
#include "viewstate.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImageWriter>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTimer>
#include <algorithm>
#include <atomic>

namespace lmct {

ExportActions::ExportActions(QWidget *window, std::function<TraceTab *()> currentTab)
    : QObject(window), m_window(window), m_currentTab(std::move(currentTab)) {
    m_report = new ReportActions(window, m_currentTab);
}

void ExportActions::setCurrentComparison(std::function<CompareTab *()> currentComparison) {
    m_report->setCurrentComparison(std::move(currentComparison));
}

QMenu *ExportActions::addMenu(QMenu *fileMenu) {
    fileMenu->addAction(m_report->action());
    connect(fileMenu, &QMenu::aboutToShow, m_report, &ReportActions::updateEnabled);
    QMenu *menu = fileMenu->addMenu(tr("&Export"));
    m_menu = menu;
    QList<QAction *> needDoc;
    needDoc << menu->addAction(tr("Records as &CSV…"), this,
                               [this] { exportKind(Kind::RecordsCsv); });
    needDoc << menu->addAction(tr("Records as &JSON Lines…"), this,
                               [this] { exportKind(Kind::RecordsJsonl); });
    needDoc << menu->addAction(tr("&Statistics as CSV…"), this,
                               [this] { exportKind(Kind::StatisticsCsv); });
    needDoc << menu->addAction(tr("&Header and Config as JSON…"), this,
                               [this] { exportKind(Kind::HeaderJson); });
    needDoc << menu->addAction(tr("Chrome &Trace JSON (Perfetto)…"), this,
                               [this] { exportKind(Kind::ChromeJson); });
    needDoc << menu->addAction(tr("S&QLite Database (records, keys, requests)…"), this,
                               [this] { exportKind(Kind::Sqlite); });
    menu->addSeparator();
    menu->addAction(tr("&Window Screenshot (PNG)…"), this, &ExportActions::exportScreenshot);
    connect(menu, &QMenu::aboutToShow, this, [this, needDoc] {
        const TraceTab *tab = m_currentTab();
        const bool ok = tab && tab->document();
        for (QAction *a : needDoc) {
            a->setEnabled(ok);
        }
    });
    return menu;
}

void ExportActions::addTimeline(TimelineWidget *timeline) {
    if (!m_menu) {
        return;
    }
    TimelineExportActions *actions = timeline->exportActions();
    QAction *first = m_menu->actions().value(0);
    m_menu->insertActions(first, actions->actions());
    m_menu->insertMenu(first, actions->sizeMenu());
    m_menu->insertSeparator(first);
    connect(m_menu, &QMenu::aboutToShow, actions, &TimelineExportActions::updateEnabled);
}

std::vector<int> ExportActions::tableRecords(const TraceTab &tab) {
    std::vector<int> rows;
    const RecordTableModel *m = tab.table()->recordModel();
    const int n = m->rowCount();
    rows.reserve(size_t(n));
    for (int r = 0; r < n; ++r) {
        rows.push_back(m->recordAt(r));
    }
    return rows;
}

namespace {

/** What the SQLite export of `tab` records of its selection (filter and time range). */
SqliteExport::Options sqliteOptions(const TraceTab &tab) {
    SqliteExport::Options o;
    o.inputPath = tab.document()->filePath();
    o.filterText = tab.viewState()->filterAppliedText();
    if (const auto r = tab.viewState()->timeRange()) {
        o.rangeText =
            QString::fromLatin1(RecordExport::number(r->from) + ':' + RecordExport::number(r->to));
    }
    return o;
}

QString sibling(const QString &path, const QString &suffix) {
    const QFileInfo fi(path);
    return fi.dir().filePath(fi.completeBaseName() + suffix + QStringLiteral(".csv"));
}

}  // namespace

bool ExportActions::write(const TraceTab &tab, Kind kind, const QString &path, QString *error) {
    const std::shared_ptr<const TraceDocument> doc = tab.document();
    if (!doc) {
        *error = QObject::tr("no trace is loaded");
        return false;
    }
    const QString input = doc->filePath();
    switch (kind) {
        case Kind::RecordsCsv:
        case Kind::RecordsJsonl: {
            const std::vector<int> rows = tableRecords(tab);
            const auto f =
                kind == Kind::RecordsCsv ? RecordExport::Format::Csv : RecordExport::Format::Jsonl;
            return ExportFile::write(
                path,
                [&](QIODevice *out, QString *e) {
                    return RecordExport::write(out, *doc, rows, f, e);
                },
                error, input);
        }
        case Kind::ChromeJson: {
            std::vector<int> rows = tableRecords(tab);
            std::sort(rows.begin(), rows.end());  // pairs are matched in file order
            return ExportFile::write(
                path,
                [&](QIODevice *out, QString *e) {
                    return ChromeTraceExport::write(out, *doc, rows, nullptr, e);
                },
                error, input);
        }
        case Kind::Sqlite: {
            std::vector<int> rows = tableRecords(tab);
            std::sort(rows.begin(), rows.end());
            return SqliteExport::write(path, *doc, rows, sqliteOptions(tab), nullptr, error);
        }
        case Kind::HeaderJson: {
            QJsonObject o{{QStringLiteral("file"), doc->fileName()},
                          {QStringLiteral("header"), TraceInfo::headerJson(doc->header())}};
            const QJsonDocument config =
                QJsonDocument::fromJson(doc->header().smConfigJson().toUtf8());
            o.insert(QStringLiteral("sm_config"),
                     config.isObject() ? QJsonValue(config.object()) : QJsonValue());
            const QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Indented);
            return ExportFile::write(
                path, [&](QIODevice *out, QString *) { return out->write(text) == text.size(); },
                error, input);
        }
        case Kind::StatisticsCsv: {
            std::vector<int> rows = tableRecords(tab);
            std::sort(rows.begin(), rows.end());
            TraceStatistics::Options o;
            o.subset = &rows;
            auto stats = std::make_shared<const TraceStatistics>(TraceStatistics::compute(*doc, o));
            // The per-call table to `path`, the group tables next to it.
            const QList<QPair<StatisticsTableModel::Table, QString>> tables{
                {StatisticsTableModel::Table::Calls, path},
                {StatisticsTableModel::Table::Models, sibling(path, QStringLiteral("-models"))},
                {StatisticsTableModel::Table::Ranks, sibling(path, QStringLiteral("-ranks"))},
                {StatisticsTableModel::Table::Salts, sibling(path, QStringLiteral("-salts"))}};
            for (const auto &t : tables) {
                StatisticsTableModel model(t.first);
                model.setStatistics(stats);
                const QByteArray text = TableCsv::toCsv(model);
                if (!ExportFile::write(
                        t.second,
                        [&](QIODevice *out, QString *) { return out->write(text) == text.size(); },
                        error, input)) {
                    return false;
                }
            }
            return true;
        }
    }
    return false;
}

bool ExportActions::writeScreenshot(QWidget *widget, const QString &path, QString *error) {
    // grab() renders at the widget's device pixel ratio (HiDPI: physical pixels).
    const QPixmap pm = widget->grab();
    return ExportFile::write(
        path,
        [&](QIODevice *out, QString *e) {
            // encoded in memory: libpng prints its own line when a file's write fails
            QByteArray bytes;
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            QImageWriter w(&buffer, "png");
            if (!w.write(pm.toImage())) {
                *e = w.errorString();
                return false;
            }
            return ExportFile::writeAll(out, bytes, e);
        },
        error);
}

QString ExportActions::askPath(const QString &title, const QString &suggested,
                               const QString &filter) {
    return QFileDialog::getSaveFileName(m_window, title, suggested, filter);
}

void ExportActions::exportKind(Kind kind) {
    TraceTab *tab = m_currentTab();
    if (!tab || !tab->document()) {
        return;
    }
    const QFileInfo fi(tab->filePath());
    const QString base = fi.dir().filePath(fi.completeBaseName());
    QString title, suggested, filter;
    switch (kind) {
        case Kind::RecordsCsv:
            title = tr("Export Records as CSV");
            suggested = base + QStringLiteral("-records.csv");
            filter = tr("CSV (*.csv)");
            break;
        case Kind::RecordsJsonl:
            title = tr("Export Records as JSON Lines");
            suggested = base + QStringLiteral("-records.jsonl");
            filter = tr("JSON Lines (*.jsonl)");
            break;
        case Kind::StatisticsCsv:
            title = tr("Export Statistics as CSV (calls; -models, -ranks, -salts next to it)");
            suggested = base + QStringLiteral("-stats.csv");
            filter = tr("CSV (*.csv)");
            break;
        case Kind::HeaderJson:
            title = tr("Export Header and Config as JSON");
            suggested = base + QStringLiteral("-header.json");
            filter = tr("JSON (*.json)");
            break;
        case Kind::ChromeJson:
            title = tr("Export Chrome Trace JSON");
            suggested = base + QStringLiteral("-chrome.json");
            filter = tr("Chrome trace JSON (*.json)");
            break;
        case Kind::Sqlite:
            title = tr("Export SQLite Database");
            suggested = base + QStringLiteral(".db");
            filter = tr("SQLite database (*.db *.sqlite *.sqlite3)");
            break;
    }
    const QString path = askPath(title, suggested, filter);
    if (path.isEmpty()) {
        return;
    }
    if (kind == Kind::Sqlite) {
        startSqliteExport(path);
        return;
    }
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool ok = write(*tab, kind, path, &error);
    QApplication::restoreOverrideCursor();
    if (!ok) {
        QMessageBox::critical(m_window, tr("Export failed"), error);
    }
}

void ExportActions::startSqliteExport(const QString &path) {
    TraceTab *tab = m_currentTab();
    if (!tab || !tab->document()) {
        emit sqliteExportFinished(false, tr("no trace is loaded"));
        return;
    }
    const std::shared_ptr<const TraceDocument> doc = tab->document();
    std::vector<int> rows = tableRecords(*tab);
    std::sort(rows.begin(), rows.end());
    auto cancel = std::make_shared<std::atomic_bool>(false);
    auto *dialog = new QProgressDialog(tr("Writing %1…").arg(QFileInfo(path).fileName()),
                                       tr("Cancel"), 0, 100, m_window);
    dialog->setWindowTitle(tr("Export SQLite Database"));
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setMinimumDuration(400);
    dialog->setValue(0);
    connect(dialog, &QProgressDialog::canceled, dialog, [cancel] { cancel->store(true); });
    // The job only stores its progress; the dialog reads it on the GUI thread (no pointer to
    // a widget crosses threads).
    auto percent = std::make_shared<std::atomic_int>(0);
    auto *poll = new QTimer(dialog);
    poll->setInterval(100);
    connect(poll, &QTimer::timeout, dialog, [dialog, percent] {
        if (!dialog->wasCanceled()) {
            dialog->setValue(percent->load());
        }
    });
    poll->start();
    SqliteExport::Options options = sqliteOptions(*tab);
    options.cancel = cancel.get();  // the job holds `cancel`
    options.progress = [percent](int p) { percent->store(p); };
    auto *watcher = new QFutureWatcher<QString>(this);
    // Closing the window stops the export (nothing is left behind).
    connect(watcher, &QObject::destroyed, [cancel] { cancel->store(true); });
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, dialog, cancel] {
        const QString error = watcher->result();
        watcher->deleteLater();
        dialog->hide();
        dialog->deleteLater();
        const bool ok = error.isEmpty();
        if (!ok && !cancel->load()) {
            QMessageBox::critical(m_window, tr("Export failed"), error);
        }
        emit sqliteExportFinished(ok, error);
    });
    watcher->setFuture(JobPool::run([doc, rows = std::move(rows), path, options, cancel] {
        QString error;
        return SqliteExport::write(path, *doc, rows, options, nullptr, &error)
                   ? QString()
                   : (error.isEmpty() ? QStringLiteral("cannot write %1").arg(path) : error);
    }));
}

void ExportActions::exportScreenshot() {
    const QString path =
        askPath(tr("Save Window Screenshot"),
                QDir::home().filePath(QStringLiteral("lmct-viewer.png")), tr("PNG image (*.png)"));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!writeScreenshot(m_window, path, &error)) {
        QMessageBox::critical(m_window, tr("Export failed"), error);
    }
}

}  // namespace lmct
