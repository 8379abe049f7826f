#include "filter/tracesetfilter.h"

#include "filter/filterevaluator.h"

#include <mutex>

namespace lmct {

TraceSetFilter::Result TraceSetFilter::run(const TraceSet &set, const MergedOrder &order,
                                           const FilterExpression &expr) {
    return run(set, order, expr, Options());
}

TraceSetFilter::Result TraceSetFilter::run(const TraceSet &set, const MergedOrder &order,
                                           const FilterExpression &expr, const Options &options) {
    Result out;
    qint64 total = 0;
    for (int t = 0; t < set.size(); ++t) {
        total += set.document(t).records().size();
    }
    qint64 before = 0;  // records of the traces evaluated already
    std::mutex lock;
    for (int t = 0; t < set.size(); ++t) {
        if (options.cancel && options.cancel->load()) {
            out.cancelled = true;
            break;
        }
        FilterEvaluator::Result r;
        if (expr.isValid()) {
            FilterEvaluator::Options o;
            o.cancel = options.cancel;
            if (options.progress) {
                o.progress = [&, before](qint64 done, qint64) {
                    const std::lock_guard<std::mutex> g(lock);
                    options.progress(before + done, total);
                };
            }
            r = FilterEvaluator(set, t, expr).run(o);
        }
        before += set.document(t).records().size();
        out.cancelled = out.cancelled || r.cancelled;
        out.decodeErrors += r.decodeErrors;
        out.perTrace.push_back(std::make_shared<const std::vector<int>>(std::move(r.records)));
    }
    while (out.perTrace.size() < size_t(set.size())) {
        out.perTrace.push_back(std::make_shared<const std::vector<int>>());
    }
    if (!out.cancelled) {
        out.rows = rowsOf(order, out.perTrace);
        if (options.progress) {
            options.progress(total, total);
        }
    }
    return out;
}

std::vector<qint64> TraceSetFilter::rowsOf(
    const MergedOrder &order,
    const std::vector<std::shared_ptr<const std::vector<int>>> &perTrace) {
    std::vector<qint64> rows;
    std::vector<size_t> cursor(perTrace.size(), 0);
    for (qint64 i = 0, n = order.size(); i < n; ++i) {
        const size_t t = size_t(order.traceAt(i));
        if (t >= perTrace.size() || !perTrace[t]) {
            continue;
        }
        const std::vector<int> &m = *perTrace[t];
        const int r = order.recordAt(i);
        size_t &c = cursor[t];
        while (c < m.size() && m[c] < r) {
            ++c;
        }
        if (c < m.size() && m[c] == r) {
            rows.push_back(i);
            ++c;
        }
    }
    return rows;
}

}  // namespace lmct
