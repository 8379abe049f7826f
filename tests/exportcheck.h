#pragma once

// Helpers shared by the export test suites (GUI): whether an image is blank, the text of an
// SVG file, and where the lanes and the caption are in an exported timeline image.

#include <QColor>
#include <QFile>
#include <QImage>
#include <QList>
#include <QPair>
#include <QString>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <cstdlib>

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

/** The text of the first `<title>` of the SVG file at `path` (its document title); empty: none. */
inline QString svgTitle(const QString &path) {
    QFile f(path);
    QXmlStreamReader xml(f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray());
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"title") {
            return xml.readElementText();
        }
    }
    return QString();
}

/** Whether `rgb` is a call's colour (saturated), not a text, grid or background grey. */
inline bool isCallColour(QRgb rgb) {
    const QColor c(rgb);
    return c.hsvSaturation() >= 90 && c.value() >= 60;
}

/**
 * The lane rows of an exported timeline image, top to bottom, found by their stripes: each row
 * has its call's colour along its left edge, one pixel short of its top and bottom
 * (TimelineLanes). `x` is the leftmost column with at least 30 call-coloured pixels (left of it
 * are only the grey lane labels); each run of call-coloured pixels down column x + 1 that is 3
 * or more pixels long is a row of that many pixels plus the 2 between stripes. Empty when no
 * stripe is found.
 */
struct LaneRows {
    int x = -1;
    QList<int> tops;     ///< first pixel of each row's stripe
    QList<int> heights;  ///< each row's height (stripe + 2)
    int bottom() const { return tops.isEmpty() ? -1 : tops.last() + heights.last() - 1; }
};

inline LaneRows laneRows(const QImage &img) {
    LaneRows r;
    for (int x = 0; x < img.width() / 2 && r.x < 0; ++x) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y) {
            n += isCallColour(img.pixel(x, y)) ? 1 : 0;
        }
        if (n >= 30) {
            r.x = x;
        }
    }
    if (r.x < 0) {
        return r;
    }
    int start = -1;
    for (int y = 0; y <= img.height(); ++y) {
        const bool on = y < img.height() && isCallColour(img.pixel(r.x + 1, y));
        if (on && start < 0) {
            start = y;
        } else if (!on && start >= 0) {
            if (y - start >= 3) {
                r.tops.append(start);
                r.heights.append(y - start + 2);
            }
            start = -1;
        }
    }
    return r;
}

/**
 * The rows of the first line of text from the top of `img` (an exported timeline: its caption):
 * the first band of rows that have a pixel whose grey differs from the top-right pixel's by
 * more than 80. Its height grows with the text's size. Empty (0, 0) when there is none.
 */
inline QPair<int, int> firstTextBand(const QImage &img) {
    const int bg = qGray(img.pixel(img.width() - 1, 0));
    int first = -1;
    for (int y = 0; y < img.height(); ++y) {
        bool ink = false;
        for (int x = 0; x < img.width() && !ink; ++x) {
            ink = std::abs(qGray(img.pixel(x, y)) - bg) > 80;
        }
        if (ink && first < 0) {
            first = y;
        } else if (!ink && first >= 0) {
            return {first, y - first};
        }
    }
    return {0, 0};
}

/**
 * The bands of rows of `area` in `img` that hold text: rows with a pixel whose grey differs
 * from the top-right pixel's by more than 80, as (first row, height). Two lines of text that
 * touch make one band.
 */
inline QList<QPair<int, int>> textBands(const QImage &img, const QRect &area) {
    const int bg = qGray(img.pixel(img.width() - 1, 0));
    const QRect r = area.intersected(img.rect());
    QList<QPair<int, int>> bands;
    int first = -1;
    for (int y = r.top(); y <= r.bottom() + 1; ++y) {
        bool ink = false;
        for (int x = r.left(); y <= r.bottom() && x <= r.right() && !ink; ++x) {
            ink = std::abs(qGray(img.pixel(x, y)) - bg) > 80;
        }
        if (ink && first < 0) {
            first = y;
        } else if (!ink && first >= 0) {
            bands.append({first, y - first});
            first = -1;
        }
    }
    return bands;
}

}  // namespace lmct::test
