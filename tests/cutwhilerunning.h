#pragma once
// Runs the built lmct on a trace and cuts the trace while lmct reads it: lmct is stopped
// (SIGSTOP) once /proc/PID/maps shows it has mapped the trace, the file is cut to a new size, and
// lmct goes on (SIGCONT). Linux only (/proc and SIGSTOP); the callers skip elsewhere.

#include "testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>

#ifdef Q_OS_LINUX
#include <sys/types.h>
#include <csignal>

namespace lmct::test {

/** What one run of cutWhileRunning gave: `cut` is false when lmct ended before it mapped. */
struct CutRun {
    bool started = false;
    bool finished = false;
    bool cut = false;
    ProcessRun result;  // exit code and output of lmct
};

/**
 * Starts lmct with `args` (which name `path`), cuts `path` to `newSize` bytes once lmct has mapped
 * it, and waits (60 s at most) for lmct to end. Whether the cut came before lmct read all it
 * needed depends on timing: callers compare the output with that of the whole file and try
 * again when they are equal.
 */
inline CutRun cutWhileRunning(const QStringList &args, const QString &path, qint64 newSize) {
    CutRun run;
    const QByteArray mapped = QFileInfo(path).canonicalFilePath().toUtf8();
    QProcess p;
    p.start(lmctPath(), args);
    run.started = p.waitForStarted(20000);
    if (!run.started) {
        return run;
    }
    const pid_t pid = pid_t(p.processId());
    const QString proc = QStringLiteral("/proc/%1/").arg(pid);
    auto stopped = [&] {
        const QByteArray stat = readAll(proc + QStringLiteral("stat"));
        const qsizetype close = stat.lastIndexOf(')');
        return close > 0 && stat.mid(close + 2, 1) == "T";
    };
    while (p.state() == QProcess::Running && !run.cut) {
        ::kill(pid, SIGSTOP);
        for (int i = 0; i < 1000 && !stopped() && p.state() == QProcess::Running; ++i) {
            QThread::usleep(50);
        }
        if (readAll(proc + QStringLiteral("maps")).contains(mapped)) {
            QFile f(path);
            run.cut = f.open(QIODevice::ReadWrite) && f.resize(newSize);
        }
        ::kill(pid, SIGCONT);
        QThread::usleep(200);
    }
    run.finished = p.waitForFinished(60000);
    run.result.exitCode = p.exitCode();
    run.result.out = p.readAllStandardOutput();
    run.result.err = p.readAllStandardError();
    return run;
}

}  // namespace lmct::test
#endif
