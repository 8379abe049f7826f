// libFuzzer target: every byte sequence through the whole decoding path.
//
// Frame scanning and recovery (TraceLoader), header and record decoding (RecordIndexer, both
// modes), argument decoding (TraceDocument::args, ValueDecoder), and what is built from arguments
// for people: the summary line (and PackedSummary's from the bytes, which must equal it), the
// inspector's argument and header trees, JSON (RecordJson, TraceInfo), the frame dump. Then what is
// computed over a decoded document: filter parsing (the input as filter text) and evaluation (fixed
// expressions touching every kind of field), statistics, the timeline index and the cache analyses
// (keys, anomalies, reuse, requests). Run it with tests/fuzz/run-fuzz.sh SECONDS (./test.sh --fuzz
// SECONDS).

#include "cache/cacheanalysis.h"
#include "codec/packedsummary.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "export/recordjson.h"
#include "filter/filterevaluator.h"
#include "filter/filterexpression.h"
#include "itemmodels/argumenttree.h"
#include "itemmodels/headertree.h"
#include "msgpack/framedump.h"
#include "stats/tracestatistics.h"
#include "timeline/timelineindex.h"
#include "trace/recordindexer.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"

#include <QByteArray>
#include <QThreadPool>
#include <QtGlobal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace lmct;

namespace {

/** Filters evaluated on every decoded document: record columns, derived key fields, argument
 *  paths through lists, maps and tags, and each operator kind. Parsed once. */
const std::vector<FilterExpression> &filters() {
    static const std::vector<FilterExpression> exprs = [] {
        std::vector<FilterExpression> v;
        for (const char *text : {
                 "call == reserve_write || t_mono > 1s && index < 100",
                 "t_wall > \"2025-01-01 00:00\"",
                 "chunk_hash == 9f3a || chunk_hash contains 00",
                 "model_name matches \"^Qwen.*8B$\" || cache_salt == \"\"",
                 "kv_rank == 0x01000100 || rank in [0, 1] || world_size > 1",
                 "local_rank >= 0 && local_world_size <= 8 || object_group_id != 3",
                 "keys.count > 2 || bytes > 1MiB || request == \"chatcmpl-1\"",
                 "spec.keys[0].chunk_hash == 00 || spec.keys[-1].model_name",
                 "args contains LOOKUP || layout_desc.shapes contains 1024",
                 "entries.key.model_name || spec.group_layout_descs.0.shapes[1] < 5",
                 "!(args.bytes == null) && !mode in [\"in\", 'x', true, 1.5e3]",
             }) {
            v.push_back(FilterExpression::parse(QString::fromLatin1(text)));
            if (!v.back().isValid()) {  // a typo here would silently test nothing
                qFatal("fuzz_trace: invalid filter %s: %s", text,
                       qPrintable(v.back().errorString()));
            }
        }
        return v;
    }();
    return exprs;
}

/** One thread for everything run through the compute pool: results do not depend on the
 *  thread count, and the fuzzer stays deterministic and fast. */
QThreadPool *pool() {
    static QThreadPool *p = [] {
        auto *tp = new QThreadPool;
        tp->setMaxThreadCount(1);
        return tp;
    }();
    return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    // The raw input as one msgpack value and as one record body.
    const ValueDecoder::Result v = ValueDecoder::decode(bytes);
    RecordSummary::summarize(v.value);
    for (const char *call : {"finish_write", "release_prefetch_task", "cancel_prefetch_task"}) {
        const QString qualname = Qualname::storagePrefix() + QLatin1String(call);
        const QString tree = RecordSummary::summarize(qualname, v.value);
        // Differential: the summary streamed from the bytes is the value tree's, or declined.
        QString streamed;
        if (PackedSummary::summarize(bytes.constData(), bytes.size(),
                                     PackedSummary::callOf(qualname), 160, &streamed) &&
            (streamed != tree || !v.ok())) {
            std::fprintf(stderr,
                         "fuzz_trace: PackedSummary differs (%s)\n stream: %s\n   tree: %s\n", call,
                         qPrintable(streamed), qPrintable(tree));
            std::abort();
        }
    }
    ValueFormatter::display(v.value);
    ValueFormatter::indexRuns(v.value);
    RecordIndexer::parse(bytes.constData(), bytes.size(), RecordIndexer::Mode::Full);
    RecordIndexer::parse(bytes.constData(), bytes.size(), RecordIndexer::Mode::Index);

    // The raw input (its head) as filter text.
    FilterExpression::parse(QString::fromUtf8(bytes.left(512))).toString();

    // The raw input as a whole trace file.
    QString error;
    TraceLoadOptions opt;
    opt.maxDiagnostics = 64;
    std::shared_ptr<const TraceDocument> doc =
        TraceLoader::loadBytes(bytes, QStringLiteral("fuzz.lct"), &error, opt);
    if (!doc) {
        return 0;
    }
    HeaderTree::build(doc->header());
    TraceInfo::toJson(QStringLiteral("fuzz.lct"), *doc);
    const int n = qMin(doc->records().size(), 32);
    for (int i = 0; i < n; ++i) {
        auto args = doc->args(i);
        RecordSummary::summarize(args->value);
        RecordSummary::summarize(doc->records().qualname(i), args->value);
        ArgumentTree::TimeContext time;
        time.tMonoStart = doc->header().tMonoStart();
        time.recordTMono = doc->records().tMono(i);
        ArgumentTree::build(args->value, 5000, time);
        ValueFormatter::toJson(args->value);
        RecordJson::toJson(*doc, i);
        FrameDump::dump(doc->frameBytes(i), 0, 256);
    }

    // What is computed over the decoded records.
    for (const FilterExpression &expr : filters()) {
        const FilterEvaluator ev(doc, expr);
        for (int i = 0; i < n; ++i) {
            ev.matches(i);
        }
    }
    TraceStatistics::Options so;
    so.pool = pool();
    TraceStatistics::compute(*doc, so);
    TimelineIndex::build(doc->records());
    CacheAnalysis::run(*doc);
    return 0;
}
