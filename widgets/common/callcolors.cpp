#include "common/callcolors.h"

#include "codec/qualname.h"

#include <QGuiApplication>
#include <QHash>
#include <QPainter>
#include <QPixmap>

namespace lmct {

namespace {

// Fixed colours for LMCache's call flow (Tableau 10 hues: distinct, colour-blind aware, and
// mid-tone so they work on light and dark backgrounds). The prefetch-lease calls of late 2026
// builds take two more hues: violet for a release, saturated where the flow's purple is
// greyish and apart from submit_prefetch_task's blue (CIEDE2000 ΔE ≥ 25 from every flow colour,
// CIE76 ΔE ≥ 24), and brick for a cancel (a dropped prefetch, akin to abort_write's red but
// darker).
struct FlowColor {
    const char *name;
    QRgb rgb;
};
constexpr FlowColor kFlowColors[] = {
    {"submit_prefetch_task", 0x4e79a7},               // blue
    {"read_prefetched_results.__enter__", 0x76b7b2},  // teal
    {"finish_read_prefetched", 0x59a14f},             // green
    {"release_prefetch_task", 0x7a1fd0},              // violet
    {"cancel_prefetch_task", 0xa0434e},               // brick
    {"read_prefetched_results.__exit__", 0xb07aa1},   // purple
    {"reserve_write", 0xf28e2b},                      // orange
    {"reserve_write_with_status", 0xedc948},          // yellow
    {"finish_write", 0x9c755f},                       // brown
    {"abort_write", 0xe15759},                        // red
};

quint32 fnv1a(const QString &s) {
    quint32 h = 2166136261u;
    const QByteArray utf8 = s.toUtf8();
    for (char c : utf8) {
        h ^= quint8(c);
        h *= 16777619u;
    }
    return h;
}

}  // namespace

QColor CallColors::color(const QString &shortName) {
    for (const FlowColor &f : kFlowColors) {
        if (shortName == QLatin1String(f.name)) {
            return QColor::fromRgb(f.rgb);
        }
    }
    // Other calls (events.*, newer LMCache calls): one of ten more mid-tone colours, none
    // close to the call flow's, chosen by a stable hash of the name.
    static constexpr QRgb kExtra[] = {0xd37295, 0x17becf, 0xbcbd22, 0x9467bd, 0xff9d9a,
                                      0x499894, 0xa0cbe8, 0x8cd17d, 0x79706e, 0xc9a227};
    return QColor::fromRgb(kExtra[fnv1a(shortName) % (sizeof(kExtra) / sizeof(kExtra[0]))]);
}

QColor CallColors::forQualname(const QString &qualname) {
    return color(Qualname::shortName(qualname));
}

QIcon CallColors::chip(const QString &shortName, int size) {
    static QHash<QString, QIcon> cache;
    const QString key = shortName + QLatin1Char('\x1f') + QString::number(size);
    auto it = cache.constFind(key);
    if (it != cache.constEnd()) {
        return *it;
    }
    const qreal dpr = qApp ? qApp->devicePixelRatio() : 1.0;
    QPixmap pm(QSize(size, size) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    {
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        const QColor c = color(shortName);
        p.setPen(QPen(c.darker(140), 1.0));
        p.setBrush(c);
        const QRectF r(1.5, 1.5, size - 3.0, size - 3.0);
        p.drawRoundedRect(r, 2.5, 2.5);
    }
    QIcon icon(pm);
    cache.insert(key, icon);
    return icon;
}

}  // namespace lmct
