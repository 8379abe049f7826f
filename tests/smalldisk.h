#pragma once

// A folder on a tmpfs of a few KiB, standing for a full disk in the export suites. Mounting
// needs mount(2) (root); where it is not allowed the folder is not mounted and the case skips.

#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace lmct::test {

/**
 * Mounts a tmpfs of `kib` KiB at a fresh folder while it lives (unmounted on destruction).
 * isMounted() says whether it worked; the suites QSKIP otherwise. Files written there run out
 * of room after `kib` KiB.
 */
class SmallDisk {
public:
    explicit SmallDisk(int kib = 4) {
        m_path = m_dir.filePath(QStringLiteral("small"));
        if (!m_dir.isValid() || !QDir().mkpath(m_path)) {
            return;
        }
        m_mounted = QProcess::execute(QStringLiteral("mount"),
                                      {QStringLiteral("-t"), QStringLiteral("tmpfs"),
                                       QStringLiteral("-o"), QStringLiteral("size=%1k").arg(kib),
                                       QStringLiteral("tmpfs"), m_path}) == 0;
    }
    ~SmallDisk() {
        if (m_mounted) {
            QProcess::execute(QStringLiteral("umount"), {m_path});
        }
    }
    SmallDisk(const SmallDisk &) = delete;
    SmallDisk &operator=(const SmallDisk &) = delete;

    bool isMounted() const { return m_mounted; }
    /** The mounted folder. */
    QString path() const { return m_path; }
    QString filePath(const QString &name) const { return m_path + QLatin1Char('/') + name; }
    /** The files in the folder, hidden ones (QSaveFile's temporary files) too. */
    QStringList files() const {
        return QDir(m_path).entryList(QDir::Files | QDir::Hidden | QDir::System);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    bool m_mounted = false;
};

}  // namespace lmct::test
