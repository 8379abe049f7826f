#pragma once

// Synthetic traces of one deployment for the combine benchmarks: each a header and `n` records
// of four StorageManager calls with empty arguments (or, with `ranks`, one ObjectKey of a TP
// rank each, for lanes grouped by rank), ≈200 calls/s, starts 0.1 s apart, a clock error of a
// few ms, and every 50th t_wall 200 µs back. Written as LMCache frames, loaded as any trace is.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtEndian>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace lmct::bench {

namespace deployment_detail {

inline void str(QByteArray &b, const char *s) {
    const int n = int(std::strlen(s));
    b += char(0xa0 | n);  // fixstr: every string here is shorter than 32 bytes
    b += QByteArray(s, n);
}

inline void f64(QByteArray &b, double d) {
    b += char(0xcb);
    quint64 u;
    std::memcpy(&u, &d, 8);
    char be[8];
    qToBigEndian(u, be);
    b += QByteArray(be, 8);
}

inline void u32(QByteArray &b, quint32 v) {
    b += char(0xce);
    char be[4];
    qToBigEndian(v, be);
    b += QByteArray(be, 4);
}

/** args {"keys": [ObjectKey]}: a key of model Qwen/Qwen3-8B, rank `rank` of `ranks` (KvRank's
 *  packing), hash from `seed`. */
inline QByteArray keyArgs(int seed, int rank, int ranks) {
    QByteArray b;
    b += char(0x81);
    str(b, "keys");
    b += char(0x91);
    b += char(0x82);
    str(b, "__t__"), str(b, "ObjectKey"), str(b, "v");
    b += char(0x85);
    str(b, "chunk_hash");
    b += char(0xc4), b += char(32);
    for (int i = 0; i < 32; ++i) {
        b += char((seed * 31 + i * 7 + (seed >> 8) * 13) & 0xff);
    }
    str(b, "model_name"), str(b, "Qwen/Qwen3-8B");
    str(b, "kv_rank"),
        u32(b, quint32(ranks) << 24 | quint32(rank) << 16 | quint32(ranks) << 8 | quint32(rank));
    str(b, "object_group_id"), b += char(0);
    str(b, "cache_salt"), str(b, "");
    return b;
}

inline void frame(QByteArray &out, const QByteArray &body) {
    char len[4];
    qToBigEndian(quint32(body.size()), len);
    out += QByteArray(len, 4);
    out += body;
}

}  // namespace deployment_detail

/** Writes trace `t`: `n` records from `start`, ≈200 calls/s, every 50th t_wall 200 µs back;
 *  with `ranks` > 0 records 4j … 4j+3 carry a key of rank j % ranks, else empty arguments. */
inline QString writeDeploymentTrace(const QString &dir, int t, int n, double start,
                                    double clockError, int ranks = 0) {
    static const char *calls[] = {"submit_prefetch_task", "reserve_write", "finish_write",
                                  "finish_read_prefetched"};
    using namespace deployment_detail;
    QByteArray out;
    QByteArray h;
    h += char(0x89);
    str(h, "type"), str(h, "header"), str(h, "magic");
    h += char(0xc4), h += char(4), h += "LMCT";
    str(h, "format_version"), h += char(1), str(h, "level"), str(h, "storage");
    str(h, "trace_schema_version"), h += char(2);
    str(h, "t_mono_start"), f64(h, 100.0), str(h, "t_wall_start"), f64(h, start + clockError);
    str(h, "sm_config_json"), str(h, ""), str(h, "sm_config_digest"), str(h, "");
    frame(out, h);
    std::mt19937_64 rng(quint64(t) + 1);
    std::exponential_distribution<double> gap(200.0);
    double tm = 0.0;
    for (int i = 0; i < n; ++i) {
        tm += gap(rng);
        const double wall = start + clockError + tm - (i % 50 == 49 ? 200e-6 : 0.0);
        QByteArray b;
        b += char(0x85);
        str(b, "type"), str(b, "record"), str(b, "t_mono"), f64(b, tm);
        str(b, "t_wall"), f64(b, wall), str(b, "qualname"), str(b, calls[i % 4]);
        str(b, "args");
        if (ranks > 0) {
            b += keyArgs(i / 4, (i / 4) % ranks, ranks);  // each rank all four calls
        } else {
            b += char(0x80);
        }
        frame(out, b);
    }
    const QString path = QStringLiteral("%1/trace%2.lct").arg(dir).arg(t);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(out) != out.size()) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return {};
    }
    return path;
}

/** The traces of a deployment of `k` traces of `n` records in `dir`; `errors` gets each trace's
 *  clock error (seconds; its offset is minus that); `ranks` as writeDeploymentTrace's. Empty on
 *  a write error (said on stderr). */
inline std::vector<QString> writeDeployment(const QString &dir, int k, int n,
                                            std::vector<double> *errors, int ranks = 0) {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> clock(-0.005, 0.005);
    std::vector<QString> paths;
    for (int t = 0; t < k; ++t) {
        const double error = clock(rng);
        const QString path = writeDeploymentTrace(dir, t, n, 1760000000.0 + 0.1 * t, error, ranks);
        if (path.isEmpty()) {
            return {};
        }
        paths.push_back(path);
        errors->push_back(error);
    }
    return paths;
}

}  // namespace lmct::bench
