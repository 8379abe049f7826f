#include "timeline/lanegrouping.h"

#include "codec/kvrank.h"
#include "codec/rawkeyscanner.h"

#include <QHash>
#include <algorithm>

namespace lmct {

namespace {

QString text(const uchar *p, quint32 n) {
    return QString::fromUtf8(reinterpret_cast<const char *>(p), qsizetype(n));
}

/** The group value of a record's keys under `by`, and its sort key. */
struct GroupValue {
    QString label;
    qint64 order = 0;  // ranks: rank, then world size; several: after every single value
};

constexpr qint64 kSeveral = qint64(1) << 40;

GroupValue valueOfKey(const RawKeyScanner::Fields &f, LaneGrouping::By by) {
    switch (by) {
        case LaneGrouping::By::Model:
            return GroupValue{text(f.model, f.modelSize), 0};
        case LaneGrouping::By::Rank: {
            const KvRank r = KvRank::unpack(f.kvRank);
            return GroupValue{r.toString(), (qint64(r.rank) << 16) | qint64(r.worldSize)};
        }
        case LaneGrouping::By::Tenant:
            // an empty salt is a tenant of its own, not the keys without one (another key)
            return GroupValue{!f.hasSalt       ? QStringLiteral("(no salt)")
                              : f.saltSize > 0 ? text(f.salt, f.saltSize)
                                               : QStringLiteral("(empty salt)"),
                              0};
        case LaneGrouping::By::None:
        case LaneGrouping::By::Trace:
            break;
    }
    return GroupValue();
}

/** The value shared by every key of `record`, "several …" when they differ, none without a
 *  key. */
std::optional<GroupValue> valueOf(const TraceDocument &doc, int record, LaneGrouping::By by,
                                  std::vector<RawKeyScanner::Key> *keys) {
    keys->clear();
    const QByteArray frame = doc.frameBytes(record);
    if (frame.size() <= 4) {
        return std::nullopt;
    }
    RawKeyScanner::scan(reinterpret_cast<const uchar *>(frame.constData()) + 4, frame.size() - 4,
                        keys);
    if (keys->empty()) {
        return std::nullopt;
    }
    const GroupValue first = valueOfKey(keys->front().fields, by);
    for (size_t k = 1; k < keys->size(); ++k) {
        if (valueOfKey((*keys)[k].fields, by).label != first.label) {
            const char *what = by == LaneGrouping::By::Rank    ? "(several ranks)"
                               : by == LaneGrouping::By::Model ? "(several models)"
                                                               : "(several tenants)";
            return GroupValue{QString::fromLatin1(what), kSeveral};
        }
    }
    return first;
}

}  // namespace

qint64 LaneGrouping::Group::count() const {
    qint64 n = 0;
    for (const auto &r : records) {
        n += qint64(r->size());
    }
    return n;
}

QString LaneGrouping::name(By by) {
    switch (by) {
        case By::None:
            return QStringLiteral("None");
        case By::Trace:
            return QStringLiteral("Trace");
        case By::Model:
            return QStringLiteral("Model");
        case By::Rank:
            return QStringLiteral("Rank");
        case By::Tenant:
            return QStringLiteral("Tenant");
    }
    return QString();
}

std::vector<LaneGrouping::By> LaneGrouping::all() {
    return {By::None, By::Trace, By::Model, By::Rank, By::Tenant};
}

LaneGrouping::Result LaneGrouping::compute(std::shared_ptr<const TraceDocument> doc, By by,
                                           const std::atomic_bool *cancel) {
    TraceSet set;
    set.add(std::move(doc));
    return compute(set, by, cancel);
}

LaneGrouping::Result LaneGrouping::compute(const TraceSet &set, By by,
                                           const std::atomic_bool *cancel) {
    Result out;
    out.by = by;
    const size_t k = size_t(set.size());
    const auto all = [&](int t) {
        std::vector<int> v(size_t(set.document(t).records().size()));
        for (size_t i = 0; i < v.size(); ++i) {
            v[i] = int(i);
        }
        return std::make_shared<const std::vector<int>>(std::move(v));
    };
    const auto none = [] { return std::make_shared<const std::vector<int>>(); };
    if (by == By::None || by == By::Trace) {
        if (by == By::None) {
            Group g;
            g.label = QStringLiteral("all");
            for (int t = 0; t < set.size(); ++t) {
                g.records.push_back(all(t));
            }
            out.groups.push_back(std::move(g));
            return out;
        }
        for (int t = 0; t < set.size(); ++t) {
            Group g;
            g.label = set.displayLabel(t);
            for (int o = 0; o < set.size(); ++o) {
                g.records.push_back(o == t ? all(t) : none());
            }
            out.groups.push_back(std::move(g));
        }
        return out;
    }
    // Per value: per trace the records; the keyless ones apart.
    QHash<QString, int> index;
    std::vector<GroupValue> values;
    std::vector<std::vector<std::vector<int>>> records;  // [group][trace]
    std::vector<std::vector<int>> keyless(k);
    std::vector<RawKeyScanner::Key> keys;
    for (int t = 0; t < set.size(); ++t) {
        const TraceDocument &doc = set.document(t);
        for (int r = 0, n = doc.records().size(); r < n; ++r) {
            if ((r & 0xfff) == 0 && cancel && cancel->load()) {
                out.cancelled = true;
                out.groups.clear();
                return out;
            }
            const std::optional<GroupValue> v = valueOf(doc, r, by, &keys);
            if (!v) {
                keyless[size_t(t)].push_back(r);
                continue;
            }
            auto it = index.find(v->label);
            if (it == index.end()) {
                it = index.insert(v->label, int(values.size()));
                values.push_back(*v);
                records.emplace_back(k);
            }
            records[size_t(*it)][size_t(t)].push_back(r);
        }
    }
    std::vector<int> order(values.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = int(i);
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const GroupValue &x = values[size_t(a)], &y = values[size_t(b)];
        return x.order != y.order ? x.order < y.order : x.label < y.label;
    });
    for (int g : order) {
        Group grp;
        grp.label = values[size_t(g)].label;
        for (auto &v : records[size_t(g)]) {
            grp.records.push_back(std::make_shared<const std::vector<int>>(std::move(v)));
        }
        out.groups.push_back(std::move(grp));
    }
    bool anyKeyless = false;
    for (const auto &v : keyless) {
        anyKeyless = anyKeyless || !v.empty();
    }
    if (anyKeyless) {
        Group grp;
        grp.label = QStringLiteral("(no key)");
        grp.keyless = true;
        for (auto &v : keyless) {
            grp.records.push_back(std::make_shared<const std::vector<int>>(std::move(v)));
        }
        out.groups.push_back(std::move(grp));
    }
    return out;
}

}  // namespace lmct
