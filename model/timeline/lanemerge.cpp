#include "timeline/lanemerge.h"

#include "codec/qualname.h"
#include "util/plural.h"

#include <algorithm>
#include <array>

namespace lmct {

LaneMerge::Stage LaneMerge::stageOf(const QString &name) {
    static const int kFirstWrite =
        int(Qualname::callFlow().indexOf(QStringLiteral("reserve_write")));
    const int flow = int(Qualname::callFlow().size());
    int rank = Qualname::flowRank(name);
    if (rank >= flow) {
        // a spans row's family: where its __enter__ is
        rank = Qualname::flowRank(name + QStringLiteral(".__enter__"));
    }
    if (rank >= flow) {
        return Stage::Other;
    }
    return rank < kFirstWrite ? Stage::Prefetch : Stage::Write;
}

QString LaneMerge::stageName(Stage stage) {
    switch (stage) {
        case Stage::Prefetch:
            return QStringLiteral("prefetch");
        case Stage::Write:
            return QStringLiteral("write");
        case Stage::Other:
            break;
    }
    return QStringLiteral("other");
}

double LaneMerge::weightOf(const QVector<Row> &rows, const QVector<Lane> &lanes) {
    double w = 0.0;
    for (const Row &r : rows) {
        w += r.merged() || r.lanes.isEmpty() ? 1.0 : lanes[r.lanes.first()].weight;
    }
    return w;
}

bool LaneMerge::anyMerged(const QVector<Row> &rows) {
    return std::any_of(rows.cbegin(), rows.cend(), [](const Row &r) { return r.merged(); });
}

QVector<LaneMerge::Row> LaneMerge::rows(const QVector<Lane> &lanes, double room) {
    const int n = int(lanes.size());
    double total = 0.0;
    std::array<QVector<int>, 3> byStage;
    for (int i = 0; i < n; ++i) {
        total += lanes[i].weight;
        byStage[size_t(stageOf(lanes[i].name))].append(i);
    }
    // which stages are collapsed; a stage of one lane saves only its extra weight
    std::array<bool, 3> collapsed{false, false, false};
    auto savedBy = [&](size_t s) {
        double w = 0.0;
        for (int i : byStage[s]) {
            w += lanes[i].weight;
        }
        return byStage[s].isEmpty() ? 0.0 : w - 1.0;
    };
    double weight = total;
    while (weight > room + 1e-9) {
        size_t best = 3;
        double bestSaved = 0.0;
        for (size_t s = 0; s < 3; ++s) {
            const double saved = savedBy(s);
            if (!collapsed[s] && saved > bestSaved + 1e-9) {
                best = s;
                bestSaved = saved;
            }
        }
        if (best == 3) {
            break;
        }
        collapsed[best] = true;
        weight -= bestSaved;
    }
    QVector<Row> out;
    if (n == 0) {
        return out;
    }
    const bool several = std::count_if(byStage.cbegin(), byStage.cend(),
                                       [](const QVector<int> &v) { return !v.isEmpty(); }) > 1;
    if (weight > room + 1e-9 && several && n > 1) {
        Row all;
        for (int i = 0; i < n; ++i) {
            all.lanes.append(i);
        }
        all.label = QStringLiteral("all (%1)").arg(Plural::counted(n, "lane", "lanes"));
        out.append(all);
        return out;
    }
    std::array<bool, 3> placed{false, false, false};
    for (int i = 0; i < n; ++i) {
        const auto s = size_t(stageOf(lanes[i].name));
        if (!collapsed[s]) {
            out.append(Row{{i}, QString()});
        } else if (!placed[s]) {
            placed[s] = true;
            const qsizetype count = byStage[s].size();
            out.append(
                Row{byStage[s], QStringLiteral("%1 (%2)").arg(
                                    stageName(Stage(s)), Plural::counted(count, "lane", "lanes"))});
        }
    }
    return out;
}

}  // namespace lmct
