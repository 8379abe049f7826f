#include "cache/bucketlabel.h"

namespace lmct {

QString BucketLabel::count(quint64 v) {
    if (v >= (quint64(1) << 30)) {
        return QString::number(v >> 30) + QLatin1Char('G');
    }
    if (v >= (quint64(1) << 20)) {
        return QString::number(v >> 20) + QLatin1Char('M');
    }
    if (v >= 1024) {
        return QString::number(v >> 10) + QLatin1Char('k');
    }
    return QString::number(v);
}

QString BucketLabel::micros(quint64 us) {
    const auto sig = [](double x) {
        return x >= 99.5 ? QString::number(qRound64(x)) : QString::number(x, 'g', 2);
    };
    if (us >= 60000000) {
        return sig(double(us) / 60e6) + QStringLiteral("min");
    }
    if (us >= 1000000) {
        return sig(double(us) / 1e6) + QStringLiteral("s");
    }
    if (us >= 1000) {
        return sig(double(us) / 1e3) + QStringLiteral("ms");
    }
    return us == 0 ? QStringLiteral("0") : QString::number(us) + QStringLiteral("µs");
}

}  // namespace lmct
