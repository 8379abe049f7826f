#include "cache/anomalyreport.h"

#include "timeline/contextpairs.h"
#include "trace/tracedocument.h"
#include "util/timeformat.h"

#include <algorithm>
#include <cmath>

namespace lmct {

QString AnomalyReport::kindName(Kind k) {
    switch (k) {
        case Kind::FinishWithoutReserve:
            return QStringLiteral("finish_without_reserve");
        case Kind::ReserveWithoutFinish:
            return QStringLiteral("reserve_without_finish");
        case Kind::ExitWithoutEnter:
            return QStringLiteral("exit_without_enter");
        case Kind::EnterWithoutExit:
            return QStringLiteral("enter_without_exit");
        case Kind::ReadNeverWritten:
            return QStringLiteral("read_never_written");
        case Kind::TimeBackwards:
            return QStringLiteral("time_backwards");
        case Kind::HitDisagrees:
            return QStringLiteral("hit_disagrees");
        case Kind::Gap:
            break;
    }
    return QStringLiteral("gap");
}

QString AnomalyReport::kindDescription(Kind k) {
    switch (k) {
        case Kind::FinishWithoutReserve:
            return QStringLiteral("finish_write of a key with no open reservation");
        case Kind::ReserveWithoutFinish:
            return QStringLiteral(
                "key still reserved at the end (no finish_write, no abort_write)");
        case Kind::ExitWithoutEnter:
            return QStringLiteral("__exit__ with no open __enter__ of the same key list");
        case Kind::EnterWithoutExit:
            return QStringLiteral("__enter__ never closed by an __exit__ of the same key list");
        case Kind::ReadNeverWritten:
            return QStringLiteral("key read before any finish_write of it");
        case Kind::TimeBackwards:
            return QStringLiteral("t_mono below the previous record's");
        case Kind::HitDisagrees:
            return QStringLiteral(
                "LMCache's L1 prefix hit (PrefetchHandle) differs from the calls'");
        case Kind::Gap:
            break;
    }
    return QStringLiteral(
               "silence longer than %1× the median inter-arrival while a write or read was open "
               "(lost events?)")
        .arg(kGapFactor);
}

void AnomalyReport::add(const Item &item) {
    if (++m_counts[size_t(item.kind)] <= kMaxItemsPerKind) {
        m_items.push_back(item);
    }
}

qint64 AnomalyReport::totalCount() const {
    qint64 n = 0;
    for (qint64 c : m_counts) {
        n += c;
    }
    return n;
}

std::vector<int> AnomalyReport::records(const Item &item) {
    std::vector<int> r{item.record};
    if (item.record2 >= 0) {
        r.push_back(item.record2);
    }
    return r;
}

std::shared_ptr<const AnomalyReport> AnomalyReport::build(
    const TraceDocument &doc, std::shared_ptr<const KeyAnalysis> keys, const Progress &progress,
    const std::atomic_bool *cancel, std::shared_ptr<const RequestAnalysis> requests) {
    auto ar = std::make_shared<AnomalyReport>();
    ar->m_keys = keys;
    const KeyAnalysis &ka = *keys;
    const RecordStore &rs = doc.records();
    const int n = std::min(ka.readableRecordCount(), rs.size());
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    auto report = [&progress](int p) {
        if (progress) {
            progress(p);
        }
    };

    // 1. Keys, in file order. Work (for gaps): per key, the records from the latest reserve of a
    // key not stored yet to the finish_write / abort_write that closes it. A reservation never
    // closed is work of unknown extent (reserve_without_finish reports it): it spans nothing;
    // nor does a reserve followed by another before any close (its own close may be lost).
    const size_t nk = size_t(ka.keyCount());
    std::vector<qint32> open(nk, -1);    // record of the open reservation
    std::vector<qint32> latest(nk, -1);  // record of the latest reserve while it is open
    std::vector<quint8> written(nk, 0), flagged(nk, 0), working(nk, 0);
    std::vector<std::pair<qint32, qint32>> work;
    auto closed = [&](size_t k, qint32 rec) {
        if (working[k]) {
            working[k] = 0;
            const std::pair<qint32, qint32> span(latest[k], rec);
            if (work.empty() || work.back() != span) {  // the keys of one reserve and finish
                work.push_back(span);
            }
        }
    };
    for (int kr = 0; kr < ka.keyRecordCount(); ++kr) {
        if ((kr & 0xffff) == 0 && cancelled()) {
            return nullptr;
        }
        const qint32 rec = ka.recordOf(kr);
        const double t = ka.timeAt(kr);
        switch (ka.callAt(kr)) {
            case KeyAnalysis::Call::Reserve:
            case KeyAnalysis::Call::ReserveWithStatus:
                for (const quint32 k : ka.keysAt(kr)) {
                    if (open[k] < 0) {
                        open[k] = rec;
                        working[k] = written[k] ? 0 : 1;
                    }
                    latest[k] = rec;
                }
                break;
            case KeyAnalysis::Call::Finish:
                for (const quint32 k : ka.keysAt(kr)) {
                    closed(k, rec);
                    if (open[k] >= 0) {
                        open[k] = -1;
                    } else {
                        ar->add(Item{Kind::FinishWithoutReserve, rec, -1, qint32(k), t, 0.0});
                    }
                    written[k] = 1;
                }
                break;
            case KeyAnalysis::Call::Abort:
                for (const quint32 k : ka.keysAt(kr)) {
                    closed(k, rec);
                    open[k] = -1;
                }
                break;
            case KeyAnalysis::Call::ReadEnter:
            case KeyAnalysis::Call::FinishRead:
                if (ka.finishRoleAt(kr) != KeyAnalysis::FinishRole::Read) {
                    break;  // part of a release or of an earlier read: no read of its own
                }
                for (const quint32 k : ka.keysAt(kr)) {
                    if (!written[k] && !flagged[k]) {
                        flagged[k] = 1;
                        ar->add(Item{Kind::ReadNeverWritten, rec, -1, qint32(k), t, 0.0});
                    }
                }
                break;
            default:
                break;
        }
    }
    const qint32 lastKeyless = std::max(
        ka.keylessFinishes().empty() ? -1 : ka.keylessFinishes().back(), ka.lastDamagedFinish());
    for (size_t k = 0; k < nk; ++k) {
        if (open[k] < 0) {
            continue;
        }
        if (ka.key(int(k)).reservedAgain) {
            ++ar->m_alreadyStored;  // skipped by reserve_write(mode="new"): already stored
            continue;
        }
        if (lastKeyless > open[k]) {
            ++ar->m_suppressed;  // a keyless (or damaged) finish_write may have finished it
            continue;
        }
        ar->add(Item{Kind::ReserveWithoutFinish, open[k], -1, qint32(k), rs.tMono(open[k]), 0.0});
    }
    report(30);

    // 2. Context-manager pairs.
    for (const QString &family : ContextPairs::families(rs)) {
        if (cancelled()) {
            return nullptr;
        }
        const auto cp = ContextPairs::build(doc, family, cancel);
        if (!cp) {
            return nullptr;
        }
        for (const qint32 r : cp->unmatchedExits()) {
            if (r < n) {
                ar->add(Item{Kind::ExitWithoutEnter, r, -1, -1, rs.tMono(r), 0.0});
            }
        }
        for (const qint32 r : cp->unmatchedEnters()) {
            if (r < n) {
                ar->add(Item{Kind::EnterWithoutExit, r, -1, -1, rs.tMono(r), 0.0});
            }
        }
        for (const ContextPairs::Span &sp : cp->spans()) {
            work.emplace_back(std::min(sp.enter, sp.exit), std::max(sp.enter, sp.exit));
        }
    }
    report(60);

    // 3. Time: steps back, then silences against the median inter-arrival.
    std::vector<float> positive;
    positive.reserve(size_t(std::max(0, n - 1)));
    for (int i = 1; i < n; ++i) {
        const double d = rs.tMono(i) - rs.tMono(i - 1);
        if (d < 0) {
            ar->add(Item{Kind::TimeBackwards, i, i - 1, -1, rs.tMono(i), -d});
        } else if (d > 0 && std::isfinite(d)) {
            positive.push_back(float(d));
        }
    }
    if (cancelled()) {
        return nullptr;
    }
    if (!positive.empty()) {
        auto mid = positive.begin() + qsizetype(positive.size() / 2);
        std::nth_element(positive.begin(), mid, positive.end());
        ar->m_median = double(*mid);
    }
    positive = {};
    // Work spans merged where they overlap (a silence from i-1 to i is inside work when one span
    // holds both records: merging overlapping spans keeps that).
    std::sort(work.begin(), work.end());
    std::vector<std::pair<qint32, qint32>> merged;
    for (const auto &w : work) {
        if (!merged.empty() && w.first <= merged.back().second) {
            merged.back().second = std::max(merged.back().second, w.second);
        } else {
            merged.push_back(w);
        }
    }
    work = {};
    auto busy = [&merged](int before, int after) {
        auto it =
            std::upper_bound(merged.begin(), merged.end(), before,
                             [](int v, const std::pair<qint32, qint32> &w) { return v < w.first; });
        return it != merged.begin() && std::prev(it)->second >= after;
    };
    const double threshold = ar->gapThreshold();
    if (threshold > 0) {
        for (int i = 1; i < n; ++i) {
            const double d = rs.tMono(i) - rs.tMono(i - 1);
            if (d > threshold && busy(i - 1, i)) {
                ar->add(Item{Kind::Gap, i - 1, i, -1, rs.tMono(i - 1), d});
            }
        }
    }

    // 4. LMCache's account of the prefix hit against the calls'.
    if (!requests && !ka.handleRecords().empty()) {
        requests = RequestAnalysis::build(ka, {}, cancel);
        if (!requests) {
            return nullptr;
        }
    }
    ar->m_requests = requests;
    if (requests) {
        for (int q = 0; q < requests->count(); ++q) {
            const RequestAnalysis::Request &r = requests->at(q);
            if (requests->hitCheck(r) == RequestAnalysis::HitCheck::Disagrees) {
                const qint32 rec = ka.recordOf(requests->handleKr(r));
                ar->add(Item{Kind::HitDisagrees, rec, r.submitRecord, q, rs.tMono(rec), 0.0});
            }
        }
    }
    std::stable_sort(ar->m_items.begin(), ar->m_items.end(), [](const Item &a, const Item &b) {
        return a.record < b.record || (a.record == b.record && a.kind < b.kind);
    });
    report(100);
    return ar;
}

QString AnomalyReport::message(const Item &item) const {
    auto keyText = [this](int id) {
        if (id < 0 || id >= m_keys->keyCount()) {
            return QStringLiteral("?");
        }
        const ObjectKey k = m_keys->objectKey(id);
        QString s =
            QStringLiteral("%1 (%2, %3").arg(k.shortHash(12), k.modelName, k.rank().toString());
        if (k.cacheSalt && !k.cacheSalt->isEmpty()) {
            s += QStringLiteral(", salt %1").arg(*k.cacheSalt);
        }
        return s + QLatin1Char(')');
    };
    switch (item.kind) {
        case Kind::FinishWithoutReserve:
            return QStringLiteral("finish_write of key %1 with no open reservation")
                .arg(keyText(item.key));
        case Kind::ReserveWithoutFinish:
            return QStringLiteral("key %1 reserved here, never finished nor aborted")
                .arg(keyText(item.key));
        case Kind::ExitWithoutEnter:
            return QStringLiteral("__exit__ with no open __enter__ of the same key list");
        case Kind::EnterWithoutExit:
            return QStringLiteral("__enter__ never closed by an __exit__ of the same key list");
        case Kind::ReadNeverWritten:
            return QStringLiteral("key %1 read before any finish_write of it")
                .arg(keyText(item.key));
        case Kind::TimeBackwards:
            return QStringLiteral("t_mono steps back %1 from the previous record")
                .arg(TimeFormat::duration(item.value));
        case Kind::HitDisagrees:
            if (m_requests && item.key >= 0 && item.key < m_requests->count()) {
                const RequestAnalysis::Request &q = m_requests->at(item.key);
                return QStringLiteral("request %1: LMCache found %2 in L1, the calls show %3")
                    .arg(m_requests->requestId(q), m_requests->handleHitText(q),
                         m_requests->inferredHitText(q));
            }
            return kindDescription(item.kind);
        case Kind::Gap:
            break;
    }
    return QStringLiteral(
               "silence of %1 while work was open (median inter-arrival %2, "
               "threshold %3)")
        .arg(TimeFormat::duration(item.value), TimeFormat::duration(m_median),
             TimeFormat::duration(gapThreshold()));
}

}  // namespace lmct
