#pragma once

// PDF checks shared by the export and report suites: the pages of a PDF rendered by poppler's
// pdftoppm, and its text by pdftotext (poppler-utils).

#include <QDir>
#include <QImage>
#include <QList>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <algorithm>

namespace lmct::test {

/** Whether pdftoppm and pdftotext can be run. */
inline bool havePoppler() {
    return !QStandardPaths::findExecutable(QStringLiteral("pdftoppm")).isEmpty() &&
           !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty();
}

/** The pages of the PDF at `path` as pdftoppm renders them at `dpi`; empty when it fails. */
inline QList<QImage> pdfPages(const QString &path, int dpi = 40) {
    QTemporaryDir dir;
    QProcess p;
    p.start(QStringLiteral("pdftoppm"),
            {QStringLiteral("-r"), QString::number(dpi), QStringLiteral("-png"), path,
             dir.filePath(QStringLiteral("page"))});
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        return {};
    }
    QStringList names = QDir(dir.path()).entryList({QStringLiteral("page*.png")}, QDir::Files);
    std::sort(names.begin(), names.end());  // page-1.png, page-2.png... (zero-padded when many)
    QList<QImage> pages;
    for (const QString &n : names) {
        pages << QImage(dir.filePath(n));
    }
    return pages;
}

/** The text of the PDF at `path` as pdftotext extracts it (what a copy or search finds);
 *  empty when it fails. */
inline QString pdfRawText(const QString &path) {
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput());
}

/** pdfRawText() with ligatures ("ﬁ") as their letters (NFKC). */
inline QString pdfText(const QString &path) {
    return pdfRawText(path).normalized(QString::NormalizationForm_KC);
}

/** The ligature characters of `text` (U+FB00 to U+FB06: "ﬀ", "ﬁ", "ﬂ", "ﬃ", "ﬄ", "ﬅ", "ﬆ"). */
inline QString ligaturesIn(const QString &text) {
    QString out;
    for (QChar c : text) {
        if (c.unicode() >= 0xFB00 && c.unicode() <= 0xFB06) {
            out += c;
        }
    }
    return out;
}

}  // namespace lmct::test
