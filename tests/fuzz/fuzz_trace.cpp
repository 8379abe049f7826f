// libFuzzer target: every byte sequence through the whole decoding path.
//
// Frame scanning and recovery (TraceLoader), header and record decoding (RecordIndexer, both
// modes), argument decoding (TraceDocument::args, ValueDecoder), and what is built from arguments
// for people: the summary line, the inspector tree, the header tree, JSON. Run it with
// tests/fuzz/run-fuzz.sh SECONDS (./test.sh --fuzz SECONDS).

#include "argumenttree.h"
#include "headertree.h"
#include "recordindexer.h"
#include "recordsummary.h"
#include "traceinfo.h"
#include "traceloader.h"
#include "valuedecoder.h"
#include "valueformatter.h"

#include <QByteArray>
#include <cstddef>
#include <cstdint>

using namespace lmct;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    // The raw input as one msgpack value and as one record body.
    const ValueDecoder::Result v = ValueDecoder::decode(bytes);
    RecordSummary::summarize(v.value);
    ValueFormatter::display(v.value);
    RecordIndexer::parse(bytes.constData(), bytes.size(), RecordIndexer::Mode::Full);
    RecordIndexer::parse(bytes.constData(), bytes.size(), RecordIndexer::Mode::Index);

    // The raw input as a whole trace file.
    QString error;
    TraceLoadOptions opt;
    opt.maxDiagnostics = 64;
    auto doc = TraceLoader::loadBytes(bytes, QStringLiteral("fuzz.lct"), &error, opt);
    if (!doc) {
        return 0;
    }
    HeaderTree::build(doc->header());
    TraceInfo::toJson(QStringLiteral("fuzz.lct"), *doc);
    const int n = qMin(doc->records().size(), 32);
    for (int i = 0; i < n; ++i) {
        auto args = doc->args(i);
        RecordSummary::summarize(args->value);
        ArgumentTree::build(args->value, 5000);
        ValueFormatter::toJson(args->value);
        doc->frameBytes(i);
    }
    return 0;
}
