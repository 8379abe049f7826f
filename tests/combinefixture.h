#pragma once
// Traces of one deployment for the combine tests: a header with a chosen t_wall_start (and a
// level_meta.instance_id when given), then records with chosen t_walls, each a finish_write or
// reserve_write with one key. The reference merge order the tests compare with is worked out
// here from the rule MergedOrder documents, independently of its code.

#include "testutil.h"
#include "trace/traceloader.h"

#include <QByteArray>
#include <QDebug>
#include <QString>
#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>
#include <vector>

namespace lmct::test {

/** The trace of `bytes` loaded under `name`; null, with the loader's message logged, when the
 *  bytes do not load. */
inline std::shared_ptr<const TraceDocument> loadTrace(const QByteArray &bytes,
                                                      const QString &name) {
    QString error;
    auto doc = TraceLoader::loadBytes(bytes, name, &error);
    if (!doc) {
        qWarning() << name << error;
    }
    return doc;
}

/** Header bytes (frame body) with `tWallStart` and, when not empty, level_meta.instance_id. */
inline QByteArray combineHeader(double tWallStart, const QString &instance = QString()) {
    Mp m;
    m.map(instance.isEmpty() ? 9 : 10).str("type").str("header");
    m.str("magic").bin("LMCT").str("format_version").sint(1).str("level").str("storage");
    m.str("trace_schema_version").sint(2);
    m.str("t_mono_start").f64(500.0).str("t_wall_start").f64(tWallStart);
    m.str("sm_config_json").str("").str("sm_config_digest").str("");
    if (!instance.isEmpty()) {
        m.str("level_meta").map(1).str("instance_id").str(instance);
    }
    return m.bytes;
}

/** One record frame at `tWall` (t_mono = tWall − start), call alternating by `seed`. */
inline QByteArray combineRecord(double tWall, double start, int seed) {
    const double tMono = std::isfinite(tWall) ? std::max(0.0, tWall - start) : 0.001 * seed;
    return frame(recordBody(tMono, tWall,
                            storageQualname(seed % 2 ? "finish_write" : "reserve_write"),
                            keysArgs(1, seed)));
}

/** A whole trace: header and one record per t_wall. */
inline QByteArray combineTrace(double tWallStart, const std::vector<double> &walls,
                               const QString &instance = QString(), int seed = 0) {
    QByteArray b = frame(combineHeader(tWallStart, instance));
    for (size_t i = 0; i < walls.size(); ++i) {
        b += combineRecord(walls[i], tWallStart, seed + int(i));
    }
    return b;
}

/**
 * The documented order: per trace, key = latest of (t_wall_start, finite t_walls so far) +
 * offset; rows sorted by (key, trace, record). Returns (trace, record) pairs.
 */
inline std::vector<std::pair<int, int>> referenceOrder(
    const std::vector<double> &starts, const std::vector<std::vector<double>> &walls,
    const std::vector<double> &offsets) {
    std::vector<std::tuple<double, int, int>> rows;
    for (size_t t = 0; t < walls.size(); ++t) {
        double latest = std::isfinite(starts[t]) ? starts[t] : -1e300;
        for (size_t r = 0; r < walls[t].size(); ++r) {
            if (std::isfinite(walls[t][r])) {
                latest = std::max(latest, walls[t][r]);
            }
            rows.emplace_back(latest + offsets[t], int(t), int(r));
        }
    }
    std::sort(rows.begin(), rows.end());
    std::vector<std::pair<int, int>> out;
    for (const auto &[k, t, r] : rows) {
        out.emplace_back(t, r);
    }
    return out;
}

}  // namespace lmct::test
