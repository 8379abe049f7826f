#pragma once

// The export checks every plot's export actions pass (GUI suites): PNG, SVG and PDF of the
// chosen size written and sound, the clipboard's copy, and the paths an export refuses.

#include "common/captionedexport.h"
#include "common/plotexportactions.h"
#include "exportcheck.h"
#include "pdfcheck.h"
#include "smalldisk.h"
#include "testutil.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace lmct::test {

/**
 * Exports `a`'s plot to BASE.png, BASE.svg and BASE.pdf at its chosen size and checks them:
 * the PNG has `pixels` pixels and is not blank (gray variance over `minVariance`), the SVG
 * parses and renders, has the layout size as its viewBox and `mustSay` in its text, the PDF has
 * a MediaBox of `pixels` points and (with poppler) is one page that renders not blank, and
 * Copy Image puts an image of `pixels` on the clipboard. Returns what failed ("" when all did
 * not), prefixed with `what`.
 */
inline QString checkPlotExports(const PlotExportActions *a, const QString &base, QSize pixels,
                                const QRegularExpression &mustSay, const QString &what,
                                double minVariance = 10) {
    QStringList problems;
    QString error;
    const QString png = base + QStringLiteral(".png"), svg = base + QStringLiteral(".svg"),
                  pdf = base + QStringLiteral(".pdf");
    if (!a->exportTo(PlotExport::Format::Png, png, &error)) {
        problems << QStringLiteral("PNG: %1").arg(error);
    } else if (const QImage img(png); img.size() != pixels || grayVariance(img) <= minVariance) {
        problems << QStringLiteral("PNG %1 x %2, variance %3")
                        .arg(img.width())
                        .arg(img.height())
                        .arg(grayVariance(img));
    }
    if (!a->exportTo(PlotExport::Format::Svg, svg, &error)) {
        problems << QStringLiteral("SVG: %1").arg(error);
    } else {
        bool ok = false;
        const QString text = svgText(svg, &ok);
        const QSize layout = a->layoutSize();
        const QByteArray viewBox = QStringLiteral("viewBox=\"0 0 %1 %2\"")
                                       .arg(layout.width())
                                       .arg(layout.height())
                                       .toUtf8();
        if (!ok || !readAll(svg).contains(viewBox) || !text.contains(mustSay)) {
            problems << QStringLiteral("SVG (parses %1, %2): %3")
                            .arg(ok)
                            .arg(QString::fromUtf8(viewBox), text.left(200));
        }
        // titled by what it shows, not by its file name
        const QString title = svgTitle(svg);
        if (title.isEmpty() || title != CaptionedExport::documentTitle(a->spec()) ||
            title.contains(QFileInfo(svg).fileName())) {
            problems << QStringLiteral("SVG titled \"%1\"").arg(title);
        }
    }
    if (!a->exportTo(PlotExport::Format::Pdf, pdf, &error)) {
        problems << QStringLiteral("PDF: %1").arg(error);
    } else {
        const QByteArray box = QStringLiteral("/MediaBox [0 0 %1.000000 %2.000000]")
                                   .arg(pixels.width())
                                   .arg(pixels.height())
                                   .toUtf8();
        if (!readAll(pdf).contains(box)) {
            problems << QStringLiteral("PDF without %1").arg(QString::fromUtf8(box));
        }
        if (havePoppler()) {
            const QList<QImage> pages = pdfPages(pdf);
            if (pages.size() != 1 || grayVariance(pages.first()) <= minVariance) {
                problems << QStringLiteral("PDF of %1 pages, blank or unread").arg(pages.size());
            }
        }
    }
    QApplication::clipboard()->clear();
    a->copyImage();
    if (QApplication::clipboard()->image().size() != pixels) {
        problems << QStringLiteral("copied image of another size");
    }
    return problems.isEmpty() ? QString()
                              : what + QStringLiteral(": ") + problems.join(QStringLiteral("; "));
}

/**
 * The paths `a` refuses: one in a folder that does not exist (nothing is left behind), and
 * each of `traces` (the trace shown, another open one), which stay as they were. Returns what
 * failed, "" when nothing did.
 */
inline QString checkRefusedTargets(const PlotExportActions *a, const QString &badPath,
                                   const QStringList &traces, const QString &what) {
    QStringList problems;
    QString error;
    if (a->exportTo(PlotExport::Format::Png, badPath, &error) || QFileInfo::exists(badPath)) {
        problems << QStringLiteral("wrote %1").arg(badPath);
    }
    for (const QString &trace : traces) {
        const QByteArray before = readAll(trace);
        if (a->exportTo(PlotExport::Format::Pdf, trace, &error) || readAll(trace) != before) {
            problems << QStringLiteral("wrote over the trace %1").arg(trace);
        } else if (!error.contains(QStringLiteral("input trace"))) {
            problems << QStringLiteral("refused %1 saying %2").arg(trace, error);
        }
    }
    return problems.isEmpty() ? QString()
                              : what + QStringLiteral(": ") + problems.join(QStringLiteral("; "));
}

/**
 * Exports `a`'s plot as PNG, SVG and PDF into `disk` (too small for any of them): each export
 * fails saying the device is full, and no file (nor a temporary one) is left. Returns what
 * failed, "" when nothing did.
 */
inline QString checkFullDisk(const PlotExportActions *a, const SmallDisk &disk,
                             const QString &what) {
    QStringList problems;
    const std::pair<PlotExport::Format, const char *> formats[] = {
        {PlotExport::Format::Png, "png"},
        {PlotExport::Format::Svg, "svg"},
        {PlotExport::Format::Pdf, "pdf"}};
    for (const auto &[format, suffix] : formats) {
        const QString path = disk.filePath(QStringLiteral("full.") + QLatin1String(suffix));
        QString error;
        const bool ok = a->exportTo(format, path, &error);
        const QStringList left = disk.files();
        if (ok || !left.isEmpty() ||
            !error.startsWith(
                QStringLiteral("cannot write %1: no space left on the device").arg(path))) {
            problems << QStringLiteral("%1: written %2, left %3, said \"%4\"")
                            .arg(QLatin1String(suffix))
                            .arg(ok)
                            .arg(left.join(QLatin1Char(' ')), error);
        }
        for (const QString &f : left) {
            QFile::remove(disk.filePath(f));
        }
    }
    return problems.isEmpty() ? QString()
                              : what + QStringLiteral(": ") + problems.join(QStringLiteral("; "));
}

}  // namespace lmct::test
