#include "util/fileidentity.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace lmct {

std::optional<FileIdentity> FileIdentity::of(const QString &path) {
    if (path.isEmpty()) {
        return std::nullopt;
    }
#ifdef Q_OS_UNIX
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        return std::nullopt;
    }
    return FileIdentity{quint64(st.st_dev), quint64(st.st_ino)};
#else
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty()) {
        return std::nullopt;
    }
    return FileIdentity{0, quint64(qHash(canonical))};
#endif
}

std::optional<FileIdentity> FileIdentity::ofHandle(int fd) {
#ifdef Q_OS_UNIX
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        return std::nullopt;
    }
    return FileIdentity{quint64(st.st_dev), quint64(st.st_ino)};
#else
    Q_UNUSED(fd);
    return std::nullopt;
#endif
}

bool FileIdentity::same(const QString &a, const QString &b) {
    const auto ia = of(a);
    return ia && ia == of(b);
}

}  // namespace lmct
