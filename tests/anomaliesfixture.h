#pragma once
// The crafted anomalies trace shared by tst_cacheanomalies and tst_cachecli: one or two items of
// every AnomalyReport kind at known records.
//   finish_without_reserve: records 2 (key 10, never reserved) and 3 (key 1, already finished)
//   reserve_without_finish: record 4 (key 12)
//   exit_without_enter: record 10; enter_without_exit: record 11
//   read_never_written: records 11 (key 14) and 13 (key 15, written later)
//   time_backwards: record 16 (0.5 ms below record 15); gap: records 17 -> 18 (1.001 s)
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
    w.call(next(), A, {});  // 17
    t += 1.0;
    w.call(next(), A, {});  // 18 gap of ~1.001 s after record 17
    for (int i = 0; i < 12; ++i) {
        w.call(next(), A, {});  // 19..30: keep the median at 1 ms
    }
    return w.bytes();
}

}  // namespace lmct::test
