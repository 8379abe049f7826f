#include "compare/callcomparison.h"

#include "codec/qualname.h"

#include <QHash>
#include <algorithm>

namespace lmct {

namespace {

std::array<FigurePair, CallComparison::kFigureCount> figuresOf(const TraceStatistics::CallRow *a,
                                                               const TraceStatistics::CallRow *b) {
    std::array<FigurePair, CallComparison::kFigureCount> f;
    auto set = [&f](CallComparison::Figure which, const TraceStatistics::CallRow *row, bool isB) {
        double v = qQNaN();
        if (!row) {
            // An absent call: none were made (count and share 0), its times are unknown.
            if (which == CallComparison::Figure::Count || which == CallComparison::Figure::Share) {
                v = 0.0;
            }
        } else {
            switch (which) {
                case CallComparison::Figure::Count:
                    v = double(row->count);
                    break;
                case CallComparison::Figure::Rate:
                    v = row->rate;
                    break;
                case CallComparison::Figure::Share:
                    v = row->share;
                    break;
                case CallComparison::Figure::InterArrivalP50:
                    v = row->interArrivalP50;
                    break;
                case CallComparison::Figure::InterArrivalP95:
                    v = row->interArrivalP95;
                    break;
                case CallComparison::Figure::KeysPerCall:
                    v = row->keysMean;
                    break;
            }
        }
        (isB ? f[size_t(which)].b : f[size_t(which)].a) = v;
    };
    for (int i = 0; i < CallComparison::kFigureCount; ++i) {
        set(CallComparison::Figure(i), a, false);
        set(CallComparison::Figure(i), b, true);
    }
    return f;
}

}  // namespace

QString CallComparison::figureName(Figure f) {
    switch (f) {
        case Figure::Count:
            return QStringLiteral("count");
        case Figure::Rate:
            return QStringLiteral("rate_per_s");
        case Figure::Share:
            return QStringLiteral("share");
        case Figure::InterArrivalP50:
            return QStringLiteral("inter_arrival_p50_s");
        case Figure::InterArrivalP95:
            return QStringLiteral("inter_arrival_p95_s");
        case Figure::KeysPerCall:
            return QStringLiteral("keys_per_call");
    }
    return {};
}

QString CallComparison::figureLabel(Figure f) {
    switch (f) {
        case Figure::Count:
            return QStringLiteral("count");
        case Figure::Rate:
            return QStringLiteral("rate (/s)");
        case Figure::Share:
            return QStringLiteral("share");
        case Figure::InterArrivalP50:
            return QStringLiteral("inter-arrival p50");
        case Figure::InterArrivalP95:
            return QStringLiteral("inter-arrival p95");
        case Figure::KeysPerCall:
            return QStringLiteral("keys per call");
    }
    return {};
}

CallComparison CallComparison::build(const TraceStatistics &a, const TraceStatistics &b) {
    QHash<QString, const TraceStatistics::CallRow *> inA, inB;
    QStringList order;  // one qualname per call, for the flow order
    QHash<QString, QString> qualnameOf;
    for (const auto &r : a.calls) {
        if (!inA.contains(r.call)) {
            inA.insert(r.call, &r);
            qualnameOf.insert(r.call, r.qualname);
            order.append(r.call);
        }
    }
    for (const auto &r : b.calls) {
        if (!inB.contains(r.call)) {
            inB.insert(r.call, &r);
            if (!qualnameOf.contains(r.call)) {
                qualnameOf.insert(r.call, r.qualname);
                order.append(r.call);
            }
        }
    }
    std::stable_sort(order.begin(), order.end(), [&qualnameOf](const QString &x, const QString &y) {
        return Qualname::flowLess(qualnameOf.value(x), qualnameOf.value(y));
    });
    CallComparison out;
    for (const QString &call : order) {
        const auto *ra = inA.value(call);
        const auto *rb = inB.value(call);
        Row row;
        row.call = call;
        row.qualnameA = ra ? ra->qualname : QString();
        row.qualnameB = rb ? rb->qualname : QString();
        row.figures = figuresOf(ra, rb);
        if (!ra) {
            row.reason = QStringLiteral("A has no %1").arg(call);
        } else if (!rb) {
            row.reason = QStringLiteral("B has no %1").arg(call);
        }
        out.m_rows.push_back(std::move(row));
    }
    Row total;
    total.call = QStringLiteral("total");
    total.isTotal = true;
    total.figures = figuresOf(&a.totals, &b.totals);
    out.m_rows.push_back(std::move(total));
    return out;
}

const CallComparison::Row *CallComparison::row(const QString &call) const {
    for (const Row &r : m_rows) {
        if (r.call == call) {
            return &r;
        }
    }
    return nullptr;
}

}  // namespace lmct
