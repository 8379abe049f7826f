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
