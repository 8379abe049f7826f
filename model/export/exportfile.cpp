#include "export/exportfile.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace lmct {

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
    if (!inputPath.isEmpty() && target.exists() &&
        target.canonicalFilePath() == QFileInfo(inputPath).canonicalFilePath()) {
        return fail(QStringLiteral("it is the input trace, which is never overwritten"));
    }
    if (!target.absoluteDir().exists()) {
        return fail(QStringLiteral("the folder %1 does not exist").arg(target.absolutePath()));
    }
    return true;
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
        return fail(file.errorString());
    }
    QString bodyError;
    if (!body(&file, &bodyError)) {
        file.cancelWriting();
        return fail(bodyError.isEmpty() ? file.errorString() : bodyError);
    }
    if (!file.commit()) {
        return fail(file.errorString());
    }
    return true;
}

}  // namespace lmct
