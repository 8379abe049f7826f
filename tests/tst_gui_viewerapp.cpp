// The lmct-viewer program itself: its command line, and its behaviour without a display.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

class TestViewerApp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void noDisplayExplainsAndExits();
    void versionAndHelpWorkWithoutDisplay();
    void opensAFileOffscreen();
    void nameThatIsNotUtf8IsSaid();
    void startsWithALayoutSavedMaximizedOnALargerScreen();

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

void TestViewerApp::nameThatIsNotUtf8IsSaid() {
    // Regression: "latin1_\xe9.lct" was "not a trace this viewer can open ... no such file".
    // The headless export says what is wrong with the name and exits 2 (the window shows the
    // same text in a message box). A shell gives the raw bytes (QProcess passes UTF-8).
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct"),
                        dir.filePath(QStringLiteral("t"))));
    QProcessEnvironment env = noDisplayEnv();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QProcess sh;
    sh.setProcessEnvironment(env);
    sh.setWorkingDirectory(dir.path());
    sh.start(QStringLiteral("/bin/sh"),
             {QStringLiteral("-c"),
              QStringLiteral("n=$(printf 'latin1_\\351.lct'); mv t \"$n\"; \"%1\" --export-png "
                             "out.png \"$n\"")
                  .arg(m_viewer)});
    QVERIFY(sh.waitForFinished(30000));
    const QString err = QString::fromUtf8(sh.readAllStandardError());
    QCOMPARE(sh.exitCode(), 2);
    QVERIFY2(err.contains(QStringLiteral("\"latin1_\\xe9.lct\" is not valid UTF-8")),
             qPrintable(err));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("out.png"))));
}

void TestViewerApp::startsWithALayoutSavedMaximizedOnALargerScreen() {
    // Regression: after the window was maximized at 1920x1080 and closed,
    // every start crashed inside Qt's dock layout (QDockAreaLayoutInfo::apply on freed memory):
    // the panes' minimum sizes added up to more than the restored window, and more than the
    // offscreen platform's 800x600 screen. This is that session's saved layout, verbatim.
    QTemporaryDir cfg;
    QVERIFY(cfg.isValid());
    QVERIFY(QDir(cfg.path()).mkpath(QStringLiteral("LMCache")));
    QFile conf(cfg.path() + QStringLiteral("/LMCache/lmct-viewer.conf"));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write(R"cfg([window]
geometry=@ByteArray(\x1\xd9\xd0\xcb\0\x3\0\0\0\0\0\0\0\0\0\0\0\0\a\x7f\0\0\x4\x37\0\0\0\0\0\0\0\0\xff\xff\xff\xfe\xff\xff\xff\xfe\0\0\0\0\x2\0\0\0\a\x80\0\0\0\0\0\0\0\0\0\0\a\x7f\0\0\x4\x37)
state=@ByteArray(\0\0\0\xff\0\0\0\x1\xfd\0\0\0\x3\0\0\0\x1\0\0\x2\x30\0\0\x4\v\xfc\x2\0\0\0\x1\xfc\0\0\0\x13\0\0\x4\v\0\0\0\xb5\x1\0\0\x19\xfa\0\0\0\0\x2\0\0\0\x2\xfb\0\0\0\x1c\0\x64\0o\0\x63\0k\0-\0i\0n\0s\0p\0\x65\0\x63\0t\0o\0r\x1\0\0\0\0\xff\xff\xff\xff\0\0\0\x9b\0\xff\xff\xff\xfb\0\0\0\x16\0\x64\0o\0\x63\0k\0-\0h\0\x65\0\x61\0\x64\0\x65\0r\x1\0\0\0\0\xff\xff\xff\xff\0\0\0m\0\xff\xff\xff\0\0\0\x2\0\0\x5J\0\0\x1\xca\xfc\x1\0\0\0\x1\xfc\0\0\0\0\0\0\x5J\0\0\x3\x8b\0\xff\xff\xff\xfa\0\0\0\0\x1\0\0\0\x2\xfb\0\0\0\x1a\0\x64\0o\0\x63\0k\0-\0t\0i\0m\0\x65\0l\0i\0n\0\x65\x1\0\0\0\0\xff\xff\xff\xff\0\0\x2l\0\xff\xff\xff\xfb\0\0\0&\0\x64\0o\0\x63\0k\0-\0\x63\0\x61\0\x63\0h\0\x65\0\x62\0\x65\0h\0\x61\0v\0i\0o\0u\0r\x1\0\0\0\0\xff\xff\xff\xff\0\0\x3\x8b\0\xff\xff\xff\0\0\0\x3\0\0\x5J\0\0\0\xc1\xfc\x1\0\0\0\x1\xfc\0\0\0\0\0\0\x5J\0\0\0\x99\0\xff\xff\xff\xfa\0\0\0\0\x1\0\0\0\x2\xfb\0\0\0 \0\x64\0o\0\x63\0k\0-\0\x64\0i\0\x61\0g\0n\0o\0s\0t\0i\0\x63\0s\x1\0\0\0\0\xff\xff\xff\xff\0\0\0G\0\xff\xff\xff\xfb\0\0\0\x1e\0\x64\0o\0\x63\0k\0-\0s\0t\0\x61\0t\0i\0s\0t\0i\0\x63\0s\x1\0\0\0\0\xff\xff\xff\xff\0\0\0\x99\0\xff\xff\xff\0\0\x5J\0\0\x1t\0\0\0\x4\0\0\0\x2\0\0\0\b\0\0\0\x2\xfc\0\0\0\0)
)cfg");
    conf.close();
    QProcessEnvironment env = noDisplayEnv();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), cfg.path());
    // It crashed in 3 of 4 starts: four starts must all survive.
    for (int run = 0; run < 4; ++run) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(m_viewer, {QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct")});
        QVERIFY(p.waitForStarted(20000));
        QVERIFY2(!p.waitForFinished(3000),
                 qPrintable(QStringLiteral("start %1 ended: %2")
                                .arg(run)
                                .arg(QString::fromLocal8Bit(p.readAllStandardError()))));
        QCOMPARE(p.state(), QProcess::Running);
        p.kill();  // no clean close: the saved layout stays the one under test
        QVERIFY(p.waitForFinished(20000));
        QSettings saved(conf.fileName(), QSettings::IniFormat);
        saved.setValue(QStringLiteral("window/layoutPending"), false);  // not the safety net
    }
}

QTEST_GUILESS_MAIN(TestViewerApp)
#include "tst_gui_viewerapp.moc"
