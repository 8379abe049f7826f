#include "export/exportfile.h"

#include "trace/opentraces.h"
#include "util/fileidentity.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>
#include <QStorageInfo>

namespace lmct {

namespace {

/**
 * Why writing `path` failed, in words. QFileDevice loses ENOSPC in its buffered writes and says
 * "Unknown error": a folder on a device with under 1 MiB free is said to be full.
 */
QString writeFailure(const QString &reason, const QString &path) {
    const QString folder = QFileInfo(path).absolutePath();
    QStorageInfo disk(folder);
    disk.refresh();
    const bool known = !reason.isEmpty() && reason != QLatin1String("Unknown error");
    if (disk.isValid() && disk.bytesAvailable() >= 0 && disk.bytesAvailable() < (1 << 20)) {
        return QStringLiteral("no space left on the device holding %1 (%2 free)%3")
            .arg(folder,
                 QLocale::c().formattedDataSize(disk.bytesAvailable(), 1,
                                                QLocale::DataSizeIecFormat),
                 known ? QStringLiteral(": ") + reason : QString());
    }
    return known ? reason : QStringLiteral("the write failed (the system gave no reason)");
}

}  // namespace

bool ExportFile::checkTarget(const QString &path, QString *error, const QString &inputPath) {
    auto fail = [&](const QString &why) {
        if (error) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        }
        return false;
    };
    if (path.isEmpty()) {
        return fail(QStringLiteral("no file name"));
    }
    const QFileInfo target(path);
    if (target.isDir()) {
        return fail(QStringLiteral("it is a directory"));
    }
    if (target.exists() && !target.isFile()) {
        // QSaveFile would rename its temporary file over a device node or FIFO (found by a
        // `lmct export --csv /dev/null` as root replaced /dev/null with a file).
        return fail(
            QStringLiteral("it is not a regular file (a device, FIFO or socket); exports "
                           "replace a file atomically and write nothing else"));
    }
    if (target.exists()) {
        // by file identity: a hard link or another spelling of the path is the same trace
        if (!inputPath.isEmpty() && FileIdentity::same(path, inputPath)) {
            return fail(QStringLiteral("it is the input trace, which is never overwritten"));
        }
        const QString open = OpenTraces::openAs(path);
        if (!open.isEmpty()) {
            return fail(
                QStringLiteral("it is the input trace %1 (open for reading), which is never "
                               "overwritten")
                    .arg(QFileInfo(open).fileName()));
        }
    }
    if (!target.absoluteDir().exists()) {
        // the nearest part of the path that exists says why: a file where a folder is meant,
        // or a folder missing
        QString part = target.absolutePath();
        while (!QFileInfo::exists(part) && QFileInfo(part).absolutePath() != part) {
            part = QFileInfo(part).absolutePath();
        }
        if (QFileInfo(part).exists() && !QFileInfo(part).isDir()) {
            return fail(QStringLiteral("%1 is a file, not a folder").arg(part));
        }
        return fail(QStringLiteral("the folder %1 does not exist").arg(target.absolutePath()));
    }
    return true;
}

bool ExportFile::writeAll(QIODevice *out, const QByteArray &bytes, QString *error) {
    qint64 done = 0;
    while (done < bytes.size()) {
        const qint64 n = out->write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            break;
        }
        done += n;
    }
    auto *file = qobject_cast<QFileDevice *>(out);
    const bool flushed = !file || (file->flush() && file->error() == QFileDevice::NoError);
    if (done == bytes.size() && flushed) {
        return true;
    }
    if (error) {
        *error = out->errorString();
    }
    return false;
}

bool ExportFile::write(const QString &path, const Body &body, QString *error,
                       const QString &inputPath) {
    if (!checkTarget(path, error, inputPath)) {
        return false;
    }
    auto fail = [&](const QString &why) {
        if (error) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        }
        return false;
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(writeFailure(file.errorString(), path));
    }
    QString bodyError;
    if (!body(&file, &bodyError)) {
        file.cancelWriting();
        // a device's failure is explained; the body's own refusal (a shrunk trace) is said as is
        const bool device = bodyError.isEmpty() || file.error() != QFileDevice::NoError;
        return fail(device
                        ? writeFailure(bodyError.isEmpty() ? file.errorString() : bodyError, path)
                        : bodyError);
    }
    // checked again: a trace opened while the body ran is not replaced either
    if (!checkTarget(path, error, inputPath)) {
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        return fail(writeFailure(file.errorString(), path));
    }
    return true;
}

}  // namespace lmct
