// The main window's first run (no saved layout) on a 1366x768 screen, as a laptop shows it: the
// window maximized, the docks at their default sizes. The offscreen platform is given that
// screen (its configfile option) before the QApplication exists.

#include "legendcheck.h"
#include "shell/mainwindow.h"
#include "shell/tracetab.h"
#include "testutil.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace lmct;

namespace {

const QString kSchema2 = QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct");

}  // namespace

class TstGuiFirstRun : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("lmct-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_firstrun"));
        QSettings().clear();
        QVERIFY(QGuiApplication::primaryScreen());
        QCOMPARE(QGuiApplication::primaryScreen()->size(), QSize(1366, 768));
    }

    void maximizedFirstRunShowsTheTimelineLegend() {
        // Issue #5: the first run lays the docks out before the window is maximized, at 90% of
        // the screen; the maximized window gave the extra room to the table, and the timeline
        // dock (300 px of a 336 px timeline) cut off the rate legend. The defaults are now those
        // of the maximized size.
        MainWindow w;
        w.setShowDialogs(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.size(), QSize(1366, 768));
        QVERIFY(w.isMaximized());
        QVERIFY(test::openAndWait(w, kSchema2));
        const QString why = test::legendOutOfView(w, 6);  // one entry per call lane
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

int main(int argc, char *argv[]) {
    // one 1366x768 screen (the offscreen platform's default is 800x600)
    const QString config = QDir::temp().filePath(QStringLiteral("tst_gui_firstrun-screen.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, 
                    "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}], "windowFrameMargins": false})") <
            0) {
        return 2;
    }
    f.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toUtf8());
    QApplication app(argc, argv);
    TstGuiFirstRun t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_gui_firstrun.moc"
