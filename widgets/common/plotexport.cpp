#include "common/plotexport.h"

#include "export/exportfile.h"

#include <qcustomplot.h>
#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/**
 * Sets the plot's buffer device pixel ratio to `scale` while it lives (plottables that draw
 * raster images at that ratio, TimelineLanes, then render one image pixel per output pixel);
 * restores it with a queued replot.
 */
class RatioScope {
public:
    RatioScope(QCustomPlot *plot, double scale)
        : m_plot(plot), m_old(plot->bufferDevicePixelRatio()) {
        m_changed = std::abs(m_old - scale) > 1e-9;
        if (m_changed) {
            m_plot->setBufferDevicePixelRatio(scale);
        }
    }
    ~RatioScope() {
        if (m_changed) {
            m_plot->setBufferDevicePixelRatio(m_old);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
    RatioScope(const RatioScope &) = delete;
    RatioScope &operator=(const RatioScope &) = delete;

private:
    QCustomPlot *m_plot;
    double m_old;
    bool m_changed = false;
};

}  // namespace

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

QString PlotExport::suffix(Format format) {
    switch (format) {
        case Format::Png:
            return QStringLiteral("png");
        case Format::Svg:
            return QStringLiteral("svg");
        case Format::Pdf:
            return QStringLiteral("pdf");
    }
    return QString();
}

QString PlotExport::suffixProblem(const QString &path, Format format) {
    static const QStringList kPictureSuffixes = {
        QStringLiteral("png"), QStringLiteral("svg"),  QStringLiteral("svgz"),
        QStringLiteral("pdf"), QStringLiteral("jpg"),  QStringLiteral("jpeg"),
        QStringLiteral("gif"), QStringLiteral("bmp"),  QStringLiteral("webp"),
        QStringLiteral("tif"), QStringLiteral("tiff"), QStringLiteral("eps"),
        QStringLiteral("ps")};
    const QString found = QFileInfo(path).suffix();
    const QString own = suffix(format);
    if (found.compare(own, Qt::CaseInsensitive) == 0 ||
        !kPictureSuffixes.contains(found.toLower())) {
        return QString();
    }
    return QObject::tr("%1: expected a file name ending in .%2 for a %3, found .%4")
        .arg(path, own, own.toUpper(), found);
}

QFont PlotExport::withoutLigatures(QFont font) {
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    return font;
}

bool PlotExport::withinImageLimits(double pixelsWide, double pixelsHigh) {
    return pixelsWide <= kMaxImageSide && pixelsHigh <= kMaxImageSide &&
           pixelsWide * pixelsHigh <= double(kMaxImagePixels);
}

int PlotExport::pixelScale(QSize pixels) {
    const int most = std::min(pixels.width() / kLayoutWidth, pixels.height() / kLayoutHeight);
    for (int n = most; n > 1; --n) {
        if (pixels.width() % n == 0 && pixels.height() % n == 0) {
            return n;
        }
    }
    return 1;
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
    const RatioScope ratio(plot, scale);
    QImage img = plot->toPixmap(width, height, scale).toImage();
    img.setDevicePixelRatio(1.0);
    return img;
}

bool PlotExport::writeSvg(QCustomPlot *plot, QIODevice *out, int width, int height, double scale,
                          const QString &title) {
    const RatioScope ratio(plot, scale);  // the lanes' embedded image
    QSvgGenerator gen;
    gen.setOutputDevice(out);
    // the layout's width x height, shown at scale times that: texts stay text
    gen.setSize(QSize(int(std::lround(width * scale)), int(std::lround(height * scale))));
    gen.setViewBox(QRect(0, 0, width, height));
    // CSS pixels: its width/height in mm then render at `width` x `height` px in browsers and
    // Inkscape (96 per inch; the default of 72 made them 4/3 larger)
    gen.setResolution(96);
    gen.setTitle(title);
    gen.setDescription(QStringLiteral("LMCache Trace Viewer plot"));
    QCPPainter painter(&gen);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setFont(withoutLigatures(plot->font()));  // what a plottable draws in it
    plot->toPainter(&painter, width, height);
    return painter.end();
}

bool PlotExport::writePdf(QCustomPlot *plot, QIODevice *out, int width, int height, double scale,
                          const QString &title) {
    const RatioScope ratio(plot, scale);  // the lanes' embedded image
    QPdfWriter pdf(out);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("LMCache Trace Viewer"));
    pdf.setResolution(72);
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(QPageSize(QSizeF(width * scale, height * scale), QPageSize::Point, QString(),
                              QPageSize::ExactMatch));
    QCPPainter painter(&pdf);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.scale(scale, scale);
    painter.setFont(withoutLigatures(plot->font()));  // what a plottable draws in it
    plot->toPainter(&painter, width, height);
    return painter.end();
}

void PlotExport::paint(QCustomPlot *plot, QCPPainter *painter, int width, int height,
                       double resolution) {
    const RatioScope ratio(plot, resolution);  // the lanes' embedded image
    painter->setMode(QCPPainter::pmVectorized);
    painter->setMode(QCPPainter::pmNoCaching);
    painter->save();
    painter->setClipRect(QRect(0, 0, width, height), Qt::IntersectClip);
    painter->setFont(withoutLigatures(plot->font()));  // what a plottable draws in it
    plot->toPainter(painter, width, height);
    painter->restore();
}

QByteArray PlotExport::encode(QCustomPlot *plot, Format format, int width, int height, double scale,
                              const QString &title, QString *error) {
    auto fail = [&](const QString &why) {
        if (error) {
            *error = why;
        }
        return QByteArray();
    };
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
        case Format::Png: {
            const QImage img = toImage(plot, width, height, scale);
            if (img.isNull()) {
                return fail(QObject::tr("empty image"));
            }
            QImageWriter w(&buffer, "png");
            if (!w.write(img)) {
                return fail(w.errorString());
            }
            break;
        }
        case Format::Svg:
            if (!writeSvg(plot, &buffer, width, height, scale, title)) {
                return fail(QObject::tr("the SVG could not be drawn"));
            }
            break;
        case Format::Pdf:
            if (!writePdf(plot, &buffer, width, height, scale, title)) {
                return fail(QObject::tr("the PDF could not be drawn"));
            }
            break;
    }
    if (bytes.isEmpty()) {
        return fail(QObject::tr("nothing was drawn"));
    }
    return bytes;
}

bool PlotExport::save(QCustomPlot *plot, const QString &path, Format format, int width, int height,
                      double scale, QString *error, const QString &inputPath,
                      const QString &documentTitle) {
    const QString title = documentTitle.isEmpty() ? QFileInfo(path).fileName() : documentTitle;
    return ExportFile::write(
        path,
        [&](QIODevice *out, QString *e) {
            // Encoded in memory first: QSvgGenerator drops the device's write errors and
            // libpng prints its own; the whole file then goes out in one checked write.
            const QByteArray bytes = encode(plot, format, width, height, scale, title, e);
            if (bytes.isEmpty()) {
                return false;
            }
            return ExportFile::writeAll(out, bytes, e);
        },
        error, inputPath);
}

}  // namespace lmct
