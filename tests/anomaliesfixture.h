#pragma once
// The crafted anomalies trace shared by tst_cacheanomalies and tst_cachecli: one or two items of
// every AnomalyReport kind at known records.
//   finish_without_reserve: records 2 (key 10, never reserved) and 3 (key 1, already finished)
//   reserve_without_finish: record 4 (key 12)
//   exit_without_enter: record 10; enter_without_exit: record 11
//   read_never_written: records 11 (key 14) and 13 (key 15, written later)
//   time_backwards: record 16 (0.5 ms below record 15); gap: records 17 -> 18 (1.001 s, inside
//   the reservation of key 16, closed after it)
// Records are 1 ms apart otherwise (median inter-arrival 1 ms, gap threshold 20 ms).

#include "cachetracewriter.h"

namespace lmct::test {

/** The crafted anomalies trace: records 1 ms apart except where noted. Expected items below. */
inline QByteArray anomaliesTrace() {
    CacheTraceWriter w;
    double t = 0.0;
    auto next = [&t] { return t += 0.001; };
    const QString R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write"),
                  A = QStringLiteral("abort_write"),
                  EN = QStringLiteral("read_prefetched_results.__enter__"),
                  EX = QStringLiteral("read_prefetched_results.__exit__"),
                  FR = QStringLiteral("finish_read_prefetched");
    w.call(next(), R, {key(1)});           // 0
    w.call(next(), F, {key(1)});           // 1
    w.call(next(), F, {key(10)});          // 2  finish_without_reserve (never reserved)
    w.call(next(), F, {key(1)});           // 3  finish_without_reserve (already finished)
    w.call(next(), R, {key(12)});          // 4  reserve_without_finish (never closed)
    w.call(next(), R, {key(13)});          // 5
    w.call(next(), A, {key(13)});          // 6  closes key(13): not reported
    w.call(next(), EN, {key(1)});          // 7  read of a written key: fine
    w.call(next(), FR, {key(1)});          // 8
    w.call(next(), EX, {key(1)});          // 9  closes 7
    w.call(next(), EX, {key(1), key(2)});  // 10 exit_without_enter
    w.call(next(), EN, {key(14)});         // 11 enter_without_exit; read_never_written key(14)
    w.call(next(), FR, {key(14)});         // 12 (key(14) already reported)
    w.call(next(), FR, {key(15)});         // 13 read_never_written key(15) (written later)
    w.call(next(), R, {key(15)});          // 14
    w.call(next(), F, {key(15)});          // 15
    w.call(t - 0.0005, A, {});             // 16 time_backwards (0.5 ms below record 15)
    t += 0.0005;
    w.call(next(), R, {key(16)});  // 17
    t += 1.0;
    w.call(next(), F, {key(16)});  // 18 gap of ~1.001 s after record 17, key(16) in flight
    for (int i = 0; i < 12; ++i) {
        w.call(next(), A, {});  // 19..30: keep the median at 1 ms
    }
    return w.bytes();
}

/**
 * Requests with LMCache's own account of their L1 prefix hit (late 2026: release_prefetch_task
 * and cancel_prefetch_task with a PrefetchHandle), shared by tst_requests and tst_cacheanomalies.
 * Keys 1..4 are written first (records 0, 1). Requests, in submit order:
 *   a (record 2): asks 1,2,3,9; reads 1,2,3 (3, 4); released with keys nil (5: the keys its
 *     handle found, 1,2,3) through a finish_read_prefetched of all its keys (6): hit 3 of 4,
 *     agrees
 *   b (record 7): asks 1,2; reads 1 (8, 9); released (10, 11): hit 2 of 2, disagrees (read 1)
 *   c (record 12): asks 1,2,3,4,10; cancelled (13): hit 2 of 5, agrees (4 stored at the submit)
 *   d (record 14): asks 10,1; cancelled (15): hit 1 of 2, disagrees (key 10 never stored)
 *   e (record 16): asks 1; cancelled (17): total_requested_keys 3, disagrees
 * Records are 1 ms apart. hit_disagrees: records 10 (b), 15 (d), 17 (e).
 */
inline QByteArray handleHitsTrace() {
    CacheTraceWriter w;
    double t = 0.0;
    auto next = [&t] { return t += 0.001; };
    const QString R = QStringLiteral("reserve_write"), F = QStringLiteral("finish_write"),
                  S = QStringLiteral("submit_prefetch_task"),
                  EN = QStringLiteral("read_prefetched_results.__enter__"),
                  EX = QStringLiteral("read_prefetched_results.__exit__");
    auto handle = [&](const char *rid, qint64 hit, qint64 total) {
        THandle h;
        h.externalRequestId = QString::fromLatin1(rid);
        h.l1PrefixHitCount = hit;
        h.totalRequestedKeys = total;
        h.submitTime = CacheTraceWriter::kTMonoStart + t;  // placeholder, set below
        return h;
    };
    w.call(next(), R, {key(1), key(2), key(3), key(4)});                                     // 0
    w.call(next(), F, {key(1), key(2), key(3), key(4)});                                     // 1
    w.call(next(), S, {key(1), key(2), key(3), key(9)}, KeysAt::Spec, QStringLiteral("a"));  // 2
    const double ta = t;
    w.call(next(), EN, {key(1), key(2), key(3)});  // 3
    w.call(next(), EX, {key(1), key(2), key(3)});  // 4
    THandle h = handle("a", 3, 4);
    h.submitTime = CacheTraceWriter::kTMonoStart + ta;
    w.release(next(), h, std::nullopt);                                      // 5
    w.finishRead(next(), {key(1), key(2), key(3), key(9)});                  // 6
    w.call(next(), S, {key(1), key(2)}, KeysAt::Spec, QStringLiteral("b"));  // 7
    h = handle("b", 2, 2);
    h.submitTime = CacheTraceWriter::kTMonoStart + t;
    w.call(next(), EN, {key(1)});                     // 8
    w.call(next(), EX, {key(1)});                     // 9
    w.release(next(), h, std::vector<TKey>{key(1)});  // 10
    w.finishRead(next(), {key(1)});                   // 11
    w.call(next(), S, {key(1), key(2), key(3), key(4), key(10)}, KeysAt::Spec,
           QStringLiteral("c"));  // 12
    h = handle("c", 2, 5);
    h.submitTime = CacheTraceWriter::kTMonoStart + t;
    w.cancel(next(), h);                                                      // 13
    w.call(next(), S, {key(10), key(1)}, KeysAt::Spec, QStringLiteral("d"));  // 14
    h = handle("d", 1, 2);
    h.submitTime = CacheTraceWriter::kTMonoStart + t;
    w.cancel(next(), h);                                             // 15
    w.call(next(), S, {key(1)}, KeysAt::Spec, QStringLiteral("e"));  // 16
    h = handle("e", 1, 3);
    h.submitTime = CacheTraceWriter::kTMonoStart + t;
    w.cancel(next(), h);  // 17
    return w.bytes();
}

}  // namespace lmct::test
