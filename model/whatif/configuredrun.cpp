#include "whatif/configuredrun.h"

#include "trace/storagemanagerconfig.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

const WhatIfAnalysis::Curve *curveOf(const std::vector<WhatIfAnalysis::Curve> &curves,
                                     CachePolicy::Kind kind) {
    for (const WhatIfAnalysis::Curve &c : curves) {
        if (c.policy == kind && !c.capacities.empty()) {
            return &c;
        }
    }
    return nullptr;
}

}  // namespace

ConfiguredRun::ConfiguredRun(quint64 l1Bytes, const QString &policyText)
    : m_l1Bytes(l1Bytes),
      m_policyText(policyText.trimmed()),
      m_policy(CachePolicy::fromName(policyText.trimmed())) {}

std::optional<ConfiguredRun> ConfiguredRun::fromConfig(const StorageManagerConfig &config) {
    if (!config.isValid() || !config.l1Bytes() || *config.l1Bytes() <= 0) {
        return std::nullopt;
    }
    return ConfiguredRun(quint64(*config.l1Bytes()), config.evictionPolicy().value_or(QString()));
}

quint64 ConfiguredRun::capacityIn(Unit unit, const ChunkSize &size) const {
    if (unit == Unit::Bytes) {
        return m_l1Bytes;
    }
    return size.chunksFor(m_l1Bytes).value_or(0);
}

QString ConfiguredRun::chunksText(quint64 n, Digits digits) {
    const QString number = digits == Digits::Grouped ? QLocale().toString(n) : QString::number(n);
    return number + (n == 1 ? QStringLiteral(" chunk") : QStringLiteral(" chunks"));
}

QString ConfiguredRun::bytesText(double bytes) {
    static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double v = std::max(0.0, bytes);
    while (u < 6 && v >= 1024.0 * (1 - 0.0005)) {  // (1023.9 KiB is written 1 MiB)
        v /= 1024.0;
        ++u;
    }
    if (u == 0) {
        return QStringLiteral("%1 B").arg(qint64(std::llround(v)));
    }
    // three significant digits, trailing zeros dropped: 48 GiB, 2.54 GiB, 312 MiB
    const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    QString n = QString::number(v, 'f', decimals);  // (C locale: no grouping, a point)
    if (decimals > 0) {
        while (n.endsWith(QLatin1Char('0'))) {
            n.chop(1);
        }
        if (n.endsWith(QLatin1Char('.'))) {
            n.chop(1);
        }
    }
    return n + QLatin1Char(' ') + QLatin1String(kUnits[u]);
}

QString ConfiguredRun::percentText(double ratio) {
    return QLocale().toString(100.0 * ratio, 'f', 1) + QLatin1Char('%');
}

std::optional<qint64> ConfiguredRun::hitsAt(const Curve &curve, quint64 capacity, bool *exact) {
    const auto it = std::upper_bound(curve.capacities.begin(), curve.capacities.end(), capacity);
    if (it == curve.capacities.begin() || curve.prefetchHits.size() != curve.capacities.size()) {
        return std::nullopt;
    }
    const size_t i = size_t(it - curve.capacities.begin()) - 1;
    if (exact) {
        *exact = curve.capacities[i] == capacity;
    }
    return curve.prefetchHits[i];
}

QString ConfiguredRun::capacityText(Unit unit, quint64 capacity, const ChunkSize &size,
                                    Digits digits) const {
    if (unit == Unit::Bytes) {
        const QString b = bytesText(double(capacity));
        const std::optional<quint64> chunks = size.chunksFor(capacity);
        return chunks ? QStringLiteral("%1 ≈ %2").arg(b, chunksText(*chunks, digits)) : b;
    }
    const QString c = chunksText(capacity, digits);
    const std::optional<quint64> bytes = size.bytesFor(capacity);
    return bytes ? QStringLiteral("%1 ≈ %2").arg(c, bytesText(double(*bytes))) : c;
}

std::optional<ConfiguredRun::Reading> ConfiguredRun::readingAt(const Curve &curve, quint64 capacity,
                                                               qint64 prefetches) {
    Reading r;
    const std::optional<qint64> hits = hitsAt(curve, capacity, &r.exact);
    if (!hits) {
        return std::nullopt;
    }
    r.hits = *hits;
    const auto it = std::upper_bound(curve.capacities.begin(), curve.capacities.end(), capacity);
    const size_t i = size_t(it - curve.capacities.begin()) - 1;
    r.ratio = i < curve.prefetchHitRatio.size() ? curve.prefetchHitRatio[i]
              : prefetches > 0                  ? double(r.hits) / double(prefetches)
                                                : 0.0;
    return r;
}

ConfiguredRun::Figures ConfiguredRun::figures(
    Unit unit, const Scope &scope, const std::vector<Curve> &curves,
    const std::function<quint64(qint64)> &lruCapacityFor) const {
    Figures f;
    f.unit = unit;
    f.capacity = capacityIn(unit, scope.chunkSize);
    f.chunks = scope.chunkSize.chunksFor(m_l1Bytes);
    if (f.capacity == 0) {
        return f;
    }
    auto read = [&](std::optional<CachePolicy::Kind> kind) -> std::optional<Reading> {
        const Curve *c = kind ? curveOf(curves, *kind) : nullptr;
        return c ? readingAt(*c, f.capacity, scope.prefetches) : std::nullopt;
    };
    f.mine = read(m_policy);
    f.lru = read(CachePolicy::Kind::Lru);
    f.opt = read(CachePolicy::Kind::Opt);
    const Curve *lru = curveOf(curves, CachePolicy::Kind::Lru);
    if (!f.opt || (!lru && !lruCapacityFor)) {
        return f;
    }
    if (lruCapacityFor) {
        f.reachAt = lruCapacityFor(f.opt->hits);
        f.reach = f.reachAt == 0 ? Reach::Never : Reach::At;
    }
    if (f.lru && f.lru->exact && f.lru->hits >= f.opt->hits) {
        f.reach = Reach::There;  // (reachAt, when known, is the smallest such capacity)
    } else if (!lruCapacityFor) {
        // the first LRU sample at or above OPT's hits: LRU reaches them there at the latest
        for (size_t i = 0; i < lru->capacities.size() && i < lru->prefetchHits.size(); ++i) {
            if (lru->prefetchHits[i] >= f.opt->hits) {
                f.reachAt = lru->capacities[i];
                f.reach = Reach::AtMost;
                break;
            }
        }
    }
    return f;
}

QString ConfiguredRun::sentence(Unit unit, const Scope &scope, const std::vector<Curve> &curves,
                                const std::function<quint64(qint64)> &lruCapacityFor,
                                Digits digits) const {
    const QString policy = m_policy ? CachePolicy::label(*m_policy) : m_policyText;
    QString ran = policy.isEmpty()
                      ? QStringLiteral("You ran an L1 of %1")
                      : QStringLiteral("You ran %1").arg(policy) +
                            (m_policy ? QString() : QStringLiteral(" (not simulated)")) +
                            QStringLiteral(" at %1");
    QString at = bytesText(double(m_l1Bytes));
    const Figures f = figures(unit, scope, curves, lruCapacityFor);
    if (f.capacity == 0) {
        // chunks asked for, but no key size to turn the bytes into chunks
        return ran.arg(at) +
               QStringLiteral(
                   "; without a memory layout for every key, its size in chunks is unknown");
    }
    if (f.chunks) {
        at += QStringLiteral(" ≈ ") + chunksText(*f.chunks, digits);
    }
    QStringList parts;
    if (scope.prefetches <= 0) {
        return ran.arg(at) + QStringLiteral("; the scope has no prefetches to hit");
    }
    auto ratio = [](const Reading &r) {
        return (r.exact ? QString() : QStringLiteral("≈ ")) + percentText(r.ratio);
    };
    parts << (f.mine ? ran.arg(at) + QStringLiteral(": ") + ratio(*f.mine) +
                           QStringLiteral(" of prefetched keys hit")
                     : ran.arg(at));
    if (f.opt && m_policy != CachePolicy::Kind::Opt) {
        parts << QStringLiteral("OPT there: ") + ratio(*f.opt);
    }
    const QString target = f.opt ? ratio(*f.opt) : QString();
    switch (f.reach) {
        case Reach::Unknown:
            break;
        case Reach::There:
            parts << QStringLiteral("LRU reaches it there too");
            break;
        case Reach::Never:
            parts << QStringLiteral("LRU never reaches %1").arg(target);
            break;
        case Reach::At:
            parts << QStringLiteral("LRU reaches %1 at %2")
                         .arg(target, capacityText(unit, f.reachAt, scope.chunkSize, digits));
            break;
        case Reach::AtMost:
            parts << QStringLiteral("LRU reaches %1 at %2 or less")
                         .arg(target, capacityText(unit, f.reachAt, scope.chunkSize, digits));
            break;
    }
    return parts.join(QStringLiteral("; "));
}

}  // namespace lmct
