// The lmct-viewer program itself: its command line, and its behaviour without a display.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

class TestViewerApp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void noDisplayExplainsAndExits();
    void versionAndHelpWorkWithoutDisplay();
    void opensAFileOffscreen();

private:
    QProcessEnvironment noDisplayEnv() const;
    QString m_viewer;
};

void TestViewerApp::initTestCase() {
    m_viewer = QStringLiteral(LMCT_BIN_DIR "/lmct-viewer");
    QVERIFY2(QFileInfo(m_viewer).isExecutable(), qPrintable(m_viewer));
}

QProcessEnvironment TestViewerApp::noDisplayEnv() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    return env;
}

void TestViewerApp::noDisplayExplainsAndExits() {
    QProcess p;
    p.setProcessEnvironment(noDisplayEnv());
    p.start(m_viewer, {QStringLiteral(LMCT_TRACES "/header-only.lmct")});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("lmct-viewer: no display found (DISPLAY is not set). Run "
                                         "it under a desktop session, or headless with: xvfb-run "
                                         "-a lmct-viewer FILE")),
             qPrintable(err));
    QVERIFY(p.readAllStandardOutput().isEmpty());
}

void TestViewerApp::versionAndHelpWorkWithoutDisplay() {
    QProcess p;
    p.setProcessEnvironment(noDisplayEnv());
    p.start(m_viewer, {QStringLiteral("--version")});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("0.")));

    p.start(m_viewer, {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
    const QString help = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(help.contains(QStringLiteral("[FILE...]")), qPrintable(help));
    QVERIFY(help.contains(QStringLiteral(".lct")));
}

void TestViewerApp::opensAFileOffscreen() {
    // With a platform set it starts, opens the file and keeps running until told to stop.
    QProcessEnvironment env = noDisplayEnv();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"),
               QDir::tempPath() + QStringLiteral("/lmct-tst-cfg"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(m_viewer, {QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct")});
    QVERIFY(p.waitForStarted(20000));
    QVERIFY(!p.waitForFinished(2500));  // still running: no crash while loading
    QCOMPARE(p.state(), QProcess::Running);
    p.terminate();
    QVERIFY(p.waitForFinished(20000));
}

QTEST_GUILESS_MAIN(TestViewerApp)
#include "tst_gui_viewerapp.moc"
