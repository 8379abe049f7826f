// The viewer shows records while a trace loads (progressive loading) and while LMCache is still
// writing it (File > Follow, --follow).

#include "records/recordtableview.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"
#include "viewstate.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace lmct;

using lmct::test::frameEnds;
using lmct::test::readAll;
using lmct::test::writeFile;

namespace {
/** `w` follows `path`: the tab once its document exists and it is following, else nullptr. */
TraceTab *followed(MainWindow &w, const QString &path) {
    TraceTab *tab = w.followFile(path);
    if (!tab || !QTest::qWaitFor([tab] { return tab->viewState()->document() != nullptr; }, 5000)) {
        return nullptr;
    }
    return tab->isFollowing() ? tab : nullptr;
}
}  // namespace

class TestGuiFollow : public QObject {
    Q_OBJECT

private slots:
    void followShowsAppendedRecords();
    void openedComesBeforeLoaded();
    void countsKeepTheirPlaceWhileFollowing();
    void followingEndsWhenTheFileShrinks();
    void emptyFollowedFileWaits();
};

// Regression: following a file that is still empty (no header yet) said "the server
// recorded no calls"; it waits for records, like the timeline, until following ends.
void TestGuiFollow::emptyFollowedFileWaits() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("empty-live.lct"), QByteArray());
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = followed(w, path);
    QVERIFY(tab);
    QTRY_COMPARE_WITH_TIMEOUT(tab->table()->emptyMessage(), QStringLiteral("Waiting for records…"),
                              5000);
    tab->stopFollowing();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isFollowing(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!tab->viewState()->document()->isLoading(), 5000);
    QVERIFY2(tab->table()->emptyMessage().contains(QStringLiteral("no records")),
             qPrintable(tab->table()->emptyMessage()));
}

// Regression: after a followed file was truncated the tab went on saying "Following…" but
// never read anything again. Following now ends, and the Diagnostics pane says why.
void TestGuiFollow::followingEndsWhenTheFileShrinks() {
    const QByteArray all = readAll(QStringLiteral(LMCT_FIXTURES "/sample.lct"));
    const QList<qint64> ends = frameEnds(all);
    QVERIFY(ends.size() > 60);
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("live.lct"), all.left(ends[50]));
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = w.followFile(path);
    QVERIFY(tab);
    QTRY_COMPARE_WITH_TIMEOUT(tab->table()->model()->rowCount(), 50, 5000);
    QVERIFY(tab->isFollowing());
    QVERIFY(QFile::resize(path, ends[20]));
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isFollowing(), 5000);
    // the tab no longer says "(live)" (it kept the label)
    QTRY_COMPARE(w.tabWidget()->tabText(w.tabWidget()->indexOf(tab)), QStringLiteral("live.lct"));
    const auto doc = tab->viewState()->document();
    QVERIFY(doc);
    bool shrank = false;
    for (const Diagnostic &d : doc->diagnostics()) {
        shrank = shrank || d.kind == Diagnostic::Kind::Shrank;
    }
    QVERIFY(shrank);
}

void TestGuiFollow::followShowsAppendedRecords() {
    const QByteArray all = readAll(QStringLiteral(LMCT_FIXTURES "/sample.lct"));
    const QList<qint64> ends = frameEnds(all);
    QVERIFY(ends.size() > 100);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(ends[10] + 7));  // header, 10 records, a piece of the 11th
    out.flush();

    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = followed(w, path);
    QVERIFY(tab);
    QAbstractItemModel *model = tab->table()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 10, 5000);

    // Append the rest in two pieces: each appears within about a second.
    out.write(all.mid(ends[10] + 7, ends[60] - ends[10] - 7 + 3));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 60, 3000);
    out.write(all.mid(ends[60] + 3));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), int(ends.size() - 1), 3000);
    QCOMPARE(tab->viewState()->document()->errorCount(), 0);  // partial frames were waited for

    tab->stopFollowing();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isFollowing(), 5000);
    QVERIFY(!tab->viewState()->document()->isLoading());
}

void TestGuiFollow::openedComesBeforeLoaded() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = w.openFile(QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct"));
    QVERIFY(tab);
    QSignalSpy opened(tab, &TraceTab::opened);
    QSignalSpy loaded(tab, &TraceTab::loaded);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(
        tab->table()->model()->rowCount(),
        test::traceTruth(QStringLiteral("schema2-prefetch-spec-tp2.lct"))[QStringLiteral("records")]
            .toInt());
    QVERIFY(!tab->viewState()->document()->isLoading());
}

void TestGuiFollow::countsKeepTheirPlaceWhileFollowing() {
    // Regression: labels whose counts grow while a trace is followed changed width and
    // pushed their neighbours around (the status bar, the timeline's count).
    const QByteArray all = readAll(QStringLiteral(LMCT_FIXTURES "/sample.lct"));
    const QList<qint64> ends = frameEnds(all);
    QVERIFY(ends.size() > 300);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(ends[10]));  // header and 10 records
    out.flush();

    MainWindow w;
    w.setShowDialogs(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TraceTab *tab = w.followFile(path);
    QVERIFY(tab);
    QAbstractItemModel *model = tab->table()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 10, 5000);
    const QStringList names{QStringLiteral("statusRecords"), QStringLiteral("statusDuration"),
                            QStringLiteral("statusSize"), QStringLiteral("timelineInfo")};
    auto geometries = [&] {
        QCoreApplication::processEvents();
        QStringList g;
        for (const QString &n : names) {
            auto *l = w.findChild<QLabel *>(n);
            if (!l) {
                return QStringList{n + QStringLiteral(" missing")};
            }
            const QRect r(l->mapTo(&w, QPoint(0, 0)), l->size());
            g << QStringLiteral("%1 %2,%3 %4 \"%5\"")
                     .arg(n)
                     .arg(r.x())
                     .arg(r.width())
                     .arg(l->isVisible())
                     .arg(l->text());
        }
        return g;
    };
    auto places = [](const QStringList &g) {  // without the texts
        QStringList p;
        for (const QString &s : g) {
            p << s.left(s.indexOf(QLatin1Char('"')));
        }
        return p;
    };
    // the timeline has drawn the first records
    auto *info = w.findChild<QLabel *>(QStringLiteral("timelineInfo"));
    QVERIFY(info);
    QTRY_VERIFY_WITH_TIMEOUT(info->text().contains(QStringLiteral(" 10 calls")), 10000);
    w.resize(1400, 900);  // (the offscreen screen made it smaller)
    QTRY_COMPARE(w.width(), 1400);
    QTRY_VERIFY(info->isVisible());
    QTest::qWait(200);  // the docks laid out
    const QStringList before = geometries();
    const int width = w.width();
    const int height = w.height();
    // grows to 100 records (3 digits), then to all of them
    out.write(all.mid(ends[10], ends[100] - ends[10]));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 100, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(info->text().contains(QStringLiteral(" 100 calls")), 10000);
    const QStringList middle = geometries();
    out.write(all.mid(ends[100]));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), int(ends.size() - 1), 5000);
    const QString total = QLocale().toString(int(ends.size() - 1));
    QTRY_VERIFY_WITH_TIMEOUT(
        info->text().contains(QLatin1Char(' ') + total + QStringLiteral(" calls")), 10000);
    const QStringList after = geometries();
    QVERIFY2(after.join(QLatin1Char('\n')).contains(total + QStringLiteral(" records")),
             qPrintable(after.join(QLatin1Char('\n'))));
    QCOMPARE(w.width(), width);  // no label made the window grow either
    QCOMPARE(w.height(), height);
    QCOMPARE(places(middle), places(before));
    QCOMPARE(places(after), places(before));
    tab->stopFollowing();
}

QTEST_MAIN(TestGuiFollow)
#include "tst_gui_follow.moc"
