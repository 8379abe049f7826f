#include "plotexport.h"

#include "exportfile.h"

#include <qcustomplot.h>
#include <QFileInfo>
#include <QImageWriter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <cmath>

namespace lmct {

PlotExport::Format PlotExport::formatFor(const QString &path, Format fallback) {
    const QString s = QFileInfo(path).suffix().toLower();
    if (s == QLatin1String("png")) {
        return Format::Png;
    }
    if (s == QLatin1String("svg")) {
        return Format::Svg;
    }
    if (s == QLatin1String("pdf")) {
        return Format::Pdf;
    }
    return fallback;
}

bool PlotExport::withinImageLimits(double pixelsWide, double pixelsHigh) {
    return pixelsWide <= kMaxImageSide && pixelsHigh <= kMaxImageSide &&
           pixelsWide * pixelsHigh <= double(kMaxImagePixels);
}

QString PlotExport::imageSizeProblem(QSize size, double scale) {
    const double w = std::round(size.width() * scale), h = std::round(size.height() * scale);
    const QString pixels = QObject::tr("%1 × %2 pixels").arg(qint64(w)).arg(qint64(h));
    if (w > kMaxImageSide || h > kMaxImageSide) {
        return QObject::tr("%1: an image has at most %2 pixels a side.")
            .arg(pixels)
            .arg(kMaxImageSide);
    }
    if (!withinImageLimits(w, h)) {
        return QObject::tr("%1 is %2 million pixels: an image has at most %3 million (2^28).")
            .arg(pixels)
            .arg(qint64(w * h / 1e6))
            .arg(kMaxImagePixels / 1000000);
    }
    if (size.width() > kMaxSide || size.height() > kMaxSide) {
        return QObject::tr("%1: the plot is laid out at most %2 pixels wide and high.")
            .arg(pixels)
            .arg(kMaxSide);
    }
    if (!(scale > 0) || size.width() < kMinSide || size.height() < kMinSide) {
        return QObject::tr("%1: an image needs at least %2 pixels a side.")
            .arg(pixels)
            .arg(kMinSide);
    }
    return QString();
}

QImage PlotExport::toImage(QCustomPlot *plot, int width, int height, double scale) {
    if (width <= 0 || height <= 0 || !(scale > 0)) {
        return QImage();
    }
    const double oldRatio = plot->bufferDevicePixelRatio();
    const bool changeRatio = std::abs(oldRatio - scale) > 1e-9;
    if (changeRatio) {
        plot->setBufferDevicePixelRatio(scale);
    }
    QImage img = plot->toPixmap(width, height, scale).toImage();
    img.setDevicePixelRatio(1.0);
    if (changeRatio) {
        plot->setBufferDevicePixelRatio(oldRatio);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return img;
}

bool PlotExport::save(QCustomPlot *plot, const QString &path, Format format, int width, int height,
                      double scale, QString *error, const QString &inputPath) {
    const QString title = QFileInfo(path).fileName();
    return ExportFile::write(
        path,
        [&](QIODevice *out, QString *e) {
            switch (format) {
                case Format::Png: {
                    const QImage img = toImage(plot, width, height, scale);
                    if (img.isNull()) {
                        *e = QObject::tr("empty image");
                        return false;
                    }
                    QImageWriter w(out, "png");
                    if (!w.write(img)) {
                        *e = w.errorString();
                        return false;
                    }
                    return true;
                }
                case Format::Svg: {
                    QSvgGenerator gen;
                    gen.setOutputDevice(out);
                    gen.setSize(QSize(width, height));
                    gen.setViewBox(QRect(0, 0, width, height));
                    // CSS pixels: its width/height in mm then render at `width` x `height` px in
                    // browsers and Inkscape (96 per inch; the default of 72 made them 4/3 larger)
                    gen.setResolution(96);
                    gen.setTitle(title);
                    gen.setDescription(QStringLiteral("LMCache Trace Viewer timeline"));
                    QCPPainter painter(&gen);
                    painter.setMode(QCPPainter::pmVectorized);
                    painter.setMode(QCPPainter::pmNoCaching);
                    plot->toPainter(&painter, width, height);
                    return painter.end();
                }
                case Format::Pdf: {
                    QPdfWriter pdf(out);
                    pdf.setTitle(title);
                    pdf.setCreator(QStringLiteral("LMCache Trace Viewer"));
                    pdf.setResolution(72);
                    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
                    pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point, QString(),
                                              QPageSize::ExactMatch));
                    QCPPainter painter(&pdf);
                    painter.setMode(QCPPainter::pmVectorized);
                    painter.setMode(QCPPainter::pmNoCaching);
                    plot->toPainter(&painter, width, height);
                    return painter.end();
                }
            }
            return false;
        },
        error, inputPath);
}

}  // namespace lmct
