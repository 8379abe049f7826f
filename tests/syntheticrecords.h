#pragma once
// Synthetic RecordStores for tests and benchmarks: LMCache's storage calls (spec §6) in the mix
// of the reference traces, bursty arrivals, and t_mono stepping back slightly in file order.

#include "codec/qualname.h"
#include "trace/recordstore.h"

#include <QByteArray>
#include <memory>
#include <random>

namespace lmct::test {

/** Short call names and their share (percent) of records, from the reference traces. */
struct CallShare {
    const char *call;
    int percent;
};
inline constexpr CallShare kCallMix[] = {
    {"submit_prefetch_task", 12},  {"read_prefetched_results.__enter__", 9},
    {"finish_read_prefetched", 9}, {"read_prefetched_results.__exit__", 9},
    {"reserve_write", 25},         {"reserve_write_with_status", 6},
    {"finish_write", 28},          {"abort_write", 2},
};

/**
 * `n` records over about `n / 200` seconds (≈200 calls/s on average: quiet stretches at
 * 150/s, bursts at 3000/s);
 * every 50th record is written up to 200 µs before its predecessor (t_mono steps back).
 * Deterministic for a given seed.
 */
inline std::unique_ptr<RecordStore> syntheticRecords(int n, quint64 seed = 1) {
    auto store = std::make_unique<RecordStore>();
    RecordStore &rs = *store;
    quint32 ids[std::size(kCallMix)];
    int cumulative[std::size(kCallMix)];
    int acc = 0;
    for (size_t k = 0; k < std::size(kCallMix); ++k) {
        const QByteArray q = (Qualname::storagePrefix() + kCallMix[k].call).toUtf8();
        ids[k] = rs.intern(q.constData(), quint32(q.size()));
        acc += kCallMix[k].percent;
        cumulative[k] = acc;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pick(0, acc - 1);
    std::exponential_distribution<double> quiet(300.0 * 0.5), burst(300.0 * 10.0);
    std::uniform_real_distribution<double> back(0.0, 200e-6);
    double t = 0.0;
    bool inBurst = false;
    for (int i = 0; i < n; ++i) {
        if (i % 1000 == 0) {
            inBurst = (rng() % 4) == 0;
        }
        t += inBurst ? burst(rng) : quiet(rng);
        const double tm = (i % 50 == 49) ? std::max(0.0, t - back(rng)) : t;
        const int p = pick(rng);
        size_t k = 0;
        while (p >= cumulative[k]) {
            ++k;
        }
        rs.append(tm, 1760000000.25 + tm + 1e-4, ids[k], qint64(i) * 64, 60, 0);
    }
    return store;
}

}  // namespace lmct::test
