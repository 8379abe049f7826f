#include "compare/latencycomparison.h"

#include "stats/tracestatistics.h"

#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** Why a trace has no value of latency `k` ("B has no submit_prefetch_task"). */
QString missingReason(LatencyComparison::Kind k, const LatencyComparison::Inputs &in,
                      const char *side) {
    const QString s = QLatin1String(side);
    switch (k) {
        case LatencyComparison::Kind::WriteLatency:
            return QStringLiteral("%1 has no finish_write after a reservation").arg(s);
        case LatencyComparison::Kind::FirstReuse:
            return QStringLiteral("%1 has no key read after its finish_write").arg(s);
        case LatencyComparison::Kind::ReadDuration:
            return in.reads ? QStringLiteral(
                                  "%1 has no matched read_prefetched_results "
                                  "__enter__/__exit__ pair")
                                  .arg(s)
                            : QStringLiteral("%1 has no read_prefetched_results").arg(s);
        case LatencyComparison::Kind::TimeToRead:
            return in.requests && in.requests->count() > 0
                       ? QStringLiteral("%1 has no submit_prefetch_task followed by its read")
                             .arg(s)
                       : QStringLiteral("%1 has no submit_prefetch_task").arg(s);
    }
    return {};
}

}  // namespace

QString LatencyComparison::kindName(Kind k) {
    switch (k) {
        case Kind::WriteLatency:
            return QStringLiteral("write_latency");
        case Kind::FirstReuse:
            return QStringLiteral("first_reuse");
        case Kind::ReadDuration:
            return QStringLiteral("read_enter_exit");
        case Kind::TimeToRead:
            return QStringLiteral("time_to_read");
    }
    return {};
}

QString LatencyComparison::kindLabel(Kind k) {
    switch (k) {
        case Kind::WriteLatency:
            return QStringLiteral("write latency (reserve → finish)");
        case Kind::FirstReuse:
            return QStringLiteral("time to first reuse");
        case Kind::ReadDuration:
            return QStringLiteral("read enter → exit");
        case Kind::TimeToRead:
            return QStringLiteral("time to read (submit → read)");
    }
    return {};
}

LatencyComparison::Distribution LatencyComparison::distributionOf(std::vector<double> values) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
        values.end());
    Distribution d;
    d.n = qint64(values.size());
    if (values.empty()) {
        return d;
    }
    std::sort(values.begin(), values.end());
    d.p50 = TraceStatistics::percentile(values, 0.50);
    d.p95 = TraceStatistics::percentile(values, 0.95);
    d.max = values.back();
    for (const double v : values) {
        ++d.buckets[size_t(ReuseAnalysis::timeBucketOf(v))];
    }
    return d;
}

std::vector<double> LatencyComparison::valuesOf(Kind k, const Inputs &in) {
    std::vector<double> v;
    switch (k) {
        case Kind::WriteLatency:
        case Kind::FirstReuse:
            if (in.keys) {
                for (const KeyAnalysis::Key &key : in.keys->keys()) {
                    const double x = k == Kind::WriteLatency ? key.writeLatency : key.firstReuse;
                    if (std::isfinite(x)) {
                        v.push_back(x);
                    }
                }
            }
            break;
        case Kind::ReadDuration:
            if (in.reads) {
                v.reserve(in.reads->spans().size());
                for (const ContextPairs::Span &s : in.reads->spans()) {
                    v.push_back(s.duration());
                }
            }
            break;
        case Kind::TimeToRead:
            if (in.requests) {
                for (const RequestAnalysis::Request &q : in.requests->requests()) {
                    const double x = in.requests->timeToRead(q);
                    if (std::isfinite(x)) {
                        v.push_back(x);
                    }
                }
            }
            break;
    }
    return v;
}

LatencyComparison LatencyComparison::build(const Inputs &a, const Inputs &b) {
    LatencyComparison out;
    for (int i = 0; i < kKindCount; ++i) {
        const Kind k = Kind(i);
        Row row;
        row.kind = k;
        row.a = distributionOf(valuesOf(k, a));
        row.b = distributionOf(valuesOf(k, b));
        QStringList why;
        if (row.a.n == 0) {
            why.append(missingReason(k, a, "A"));
        }
        if (row.b.n == 0) {
            why.append(missingReason(k, b, "B"));
        }
        row.reason = why.join(QStringLiteral("; "));
        out.m_rows.push_back(std::move(row));
    }
    return out;
}

}  // namespace lmct
