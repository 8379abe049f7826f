#pragma once

// Helpers shared by the export test suites (GUI): whether an image is blank, and the text of an
// SVG file.

#include <QFile>
#include <QImage>
#include <QString>
#include <QSvgRenderer>
#include <QXmlStreamReader>

namespace lmct::test {

/** Variance of the gray levels of `img`: 0 for a blank image. */
inline double grayVariance(const QImage &img) {
    double sum = 0, sum2 = 0;
    const qint64 n = qint64(img.width()) * img.height();
    if (n == 0) {
        return 0.0;
    }
    for (int y = 0; y < img.height(); ++y) {
        for (int x = 0; x < img.width(); ++x) {
            const double g = qGray(img.pixel(x, y));
            sum += g;
            sum2 += g * g;
        }
    }
    const double mean = sum / double(n);
    return sum2 / double(n) - mean * mean;
}

/** The character data of the SVG file at `path`; sets `ok` when it parses and renders. */
inline QString svgText(const QString &path, bool *ok) {
    QFile f(path);
    const QByteArray svg = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    QXmlStreamReader xml(svg);
    QString text;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::Characters) {
            text += xml.text();
        }
    }
    *ok = !svg.isEmpty() && !xml.hasError() && QSvgRenderer(svg).isValid();
    return text;
}

}  // namespace lmct::test
