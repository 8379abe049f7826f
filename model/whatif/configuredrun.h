#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/chunksize.h"
#include "whatif/whatifanalysis.h"

#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace lmct {

class StorageManagerConfig;

/**
 * The L1 capacity and eviction policy a trace was recorded with, read against the what-if curves
 * of a scope: the sentence the What-if tab writes beside its curves ("You ran LRU at 48 GiB ≈
 * 24576 chunks: 41.2% of prefetched keys hit; OPT there: 63.0%; LRU reaches 63.0% at 2.5 GiB ≈
 * 1280 chunks").
 *
 * The facts come from the header's StorageManagerConfig (LMCache
 * `lmcache/v1/distributed/config.py`): `l1_manager_config.memory_config.size_in_bytes` (the L1
 * capacity, bytes) and `eviction_config.eviction_policy` (e.g. "LRU"; a policy the what-if does
 * not simulate is named as written and said to be not simulated).
 *
 * Units: capacities in bytes or chunks (WhatIfAnalysis::Unit). A capacity in bytes stands for
 * the chunks ChunkSize::chunksFor() gives (the scope's bytes over its mean bytes per key, rounded
 * down, at least 1; exact when the keys have one size), as `lmct whatif` counts them. Hit ratios
 * are counted prefetch hits over all prefetch occurrences, shown in percent with one decimal in
 * the locale's format. Sizes and chunk counts are written as `lmct whatif --capacity` reads
 * them: no digit grouping, a point for the decimals ("1.84 GiB ≈ 1850 chunks"); a report
 * groups the digits of chunk counts as it does every count (Digits::Grouped: "1,850 chunks").
 *
 * Thread-safety: a value type; const use from any thread. Errors: none; fromConfig() gives
 * nullopt for a config without a known L1 size, and sentence() says what it lacks (no layout to
 * turn bytes into chunks, curves not computed yet).
 */
class ConfiguredRun {
public:
    using Unit = WhatIfAnalysis::Unit;
    using Curve = WhatIfAnalysis::Curve;

    /**
     * How the sentence writes chunk counts: Plain as `lmct whatif --capacity` reads them
     * ("1365 chunks", the viewer's, to copy), Grouped in the locale's digits ("1,365 chunks",
     * a report's, where every other count is grouped too).
     */
    enum class Digits : quint8 { Plain, Grouped };

    /** What the sentence reads about the scope. */
    struct Scope {
        ChunkSize chunkSize;    ///< the sizes of the scope's keys (unknown: no layout)
        qint64 prefetches = 0;  ///< all prefetch occurrences of the scope
    };

    ConfiguredRun(quint64 l1Bytes, const QString &policyText);

    /** The run of a header's config; nullopt when it has no (valid) L1 size. */
    static std::optional<ConfiguredRun> fromConfig(const StorageManagerConfig &config);

    quint64 l1Bytes() const { return m_l1Bytes; }
    /** The eviction policy as written ("LRU"); empty when the config names none. */
    QString policyText() const { return m_policyText; }
    /** The simulated policy it names; nullopt when none or not simulated (e.g. "MRU"). */
    std::optional<CachePolicy::Kind> policy() const { return m_policy; }

    /** The configured capacity in `unit`: the bytes, or the chunks they hold
     *  (ChunkSize::chunksFor(); 0 when chunks are asked for and `size` is unknown). */
    quint64 capacityIn(Unit unit, const ChunkSize &size) const;

    /** A curve read at the configured capacity. */
    struct Reading {
        qint64 hits = 0;     ///< counted prefetch hits there
        double ratio = 0.0;  ///< the curve's prefetch hit ratio there (as its table shows it)
        bool exact = false;  ///< sampled at the capacity itself, not the sample below it
    };

    /** Where LRU reaches OPT's hits at the configured capacity. */
    enum class Reach {
        Unknown,  ///< no OPT reading, or neither an LRU curve nor lruCapacityFor
        There,    ///< LRU's exact reading there already has OPT's hits
        At,       ///< at reachAt exactly (lruCapacityFor)
        AtMost,   ///< at reachAt or less (the first LRU sample that has them)
        Never,    ///< at no capacity (lruCapacityFor gave 0)
    };

    /**
     * Every figure of the sentence, all read from `curves` of one `unit` (one replay, so that
     * OPT's hits and the capacity where LRU reaches them never mix chunks and bytes).
     * `lruCapacityFor` as for sentence().
     */
    struct Figures {
        Unit unit = Unit::Chunks;
        quint64 capacity = 0;  ///< capacityIn(unit); 0 when chunks are asked for without sizes
        std::optional<quint64> chunks;  ///< the L1 in chunks (ChunkSize::chunksFor())
        std::optional<Reading> mine;    ///< the configured policy's curve (when simulated)
        std::optional<Reading> lru;     ///< LRU's curve
        std::optional<Reading> opt;     ///< OPT's curve
        Reach reach = Reach::Unknown;
        /** In `unit`: for Reach::At and Reach::AtMost; for Reach::There too when
         *  `lruCapacityFor` is given (the smallest capacity with OPT's hits). */
        quint64 reachAt = 0;
    };
    Figures figures(Unit unit, const Scope &scope, const std::vector<Curve> &curves,
                    const std::function<quint64(qint64)> &lruCapacityFor = {}) const;

    /**
     * The sentence for `curves` (WhatIfAnalysis curves of `unit`, any subset of the policies,
     * holding the configured capacity capacityIn() among their capacities for exact figures;
     * otherwise the sample below it is read and the figure marked "≈"). `lruCapacityFor` is
     * WhatIfAnalysis::lruCapacityFor() of the run when it has ended (exact); without it the LRU
     * curve's samples are searched ("at most"). Parts whose curves are missing are left out.
     * `digits`: how its chunk counts are written (sizes are never grouped).
     */
    QString sentence(Unit unit, const Scope &scope, const std::vector<Curve> &curves,
                     const std::function<quint64(qint64)> &lruCapacityFor = {},
                     Digits digits = Digits::Plain) const;

    /** A byte count in binary units with three significant digits: "48 GiB", "2.54 GiB",
     *  "312 MiB", "1000 KiB", "100 B"; never grouped, always a point for the decimals, so that
     *  `lmct whatif --capacity` reads what is copied from the viewer. */
    static QString bytesText(double bytes);
    /** A chunk count as the sentence writes it: "1 chunk", "1850 chunks" (no grouping), or
     *  Digits::Grouped "1,850 chunks" (QLocale()). */
    static QString chunksText(quint64 chunks, Digits digits = Digits::Plain);
    /** A hit ratio (0..1) as the sentence writes it: "41.2%" (the locale's decimal point). */
    static QString percentText(double ratio);
    /** The prefetch hits of `curve` at `capacity`: exact when sampled there, else the sample
     *  below it (`exact` false); nullopt below its first sample or for an empty curve. */
    static std::optional<qint64> hitsAt(const Curve &curve, quint64 capacity,
                                        bool *exact = nullptr);
    /** hitsAt() with the curve's ratio there (hits over `prefetches` when it has none). */
    static std::optional<Reading> readingAt(const Curve &curve, quint64 capacity,
                                            qint64 prefetches);

private:
    QString capacityText(Unit unit, quint64 capacity, const ChunkSize &size, Digits digits) const;

    quint64 m_l1Bytes = 0;
    QString m_policyText;
    std::optional<CachePolicy::Kind> m_policy;
};

}  // namespace lmct
