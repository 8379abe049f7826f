// bench_parse: CPU time of reading one record's index fields with msgpack-cxx, per record.
//
//   bench_parse FILE [--repeat N]
//
// Loads FILE, then on one thread parses record bodies again in Index mode
// (RecordIndexer::parse: `t_mono`, `t_wall`, `qualname`, stopping at `args`):
// - "hot": the first 10 000 records over and over (they stay in the CPU's caches), the cost of
//   the parse alone;
// - "whole file": every record once, from memory, as the loader meets them;
// - "floor": the same hot records through msgpack-cxx's visitor parser with a visitor that only
//   keeps the last string and float it sees and stops at the `args` map: what any msgpack-cxx
//   reader of these fields pays at least.
// Prints nanoseconds per record for each (median of N runs). `lmct info` must parse every
// record, so (ns per record x records / cores) bounds its time from below.

#include "benchutil.h"
#include "trace/recordindexer.h"
#include "trace/traceloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <msgpack.hpp>
#include <vector>

using namespace lmct;
using namespace lmct::bench;

namespace {

struct Body {
    const char *data;
    quint32 size;
};

/** The least a visitor can do for the index fields: keeps the last string and float seen,
 *  stops at the second map's start (the `args` map in LMCache's field order). */
class FloorVisitor : public msgpack::null_visitor {
public:
    void init() {}
    bool visit_str(const char *v, uint32_t) {
        lastString = v;
        return true;
    }
    bool visit_float64(double v) {
        lastFloat = v;
        return true;
    }
    bool start_map(uint32_t) { return m_depth++ == 0; }
    bool end_map() {
        --m_depth;
        return true;
    }
    void parse_error(size_t, size_t) {}
    void insufficient_bytes(size_t, size_t) {}
    void reset() { m_depth = 0; }

    const char *lastString = nullptr;
    double lastFloat = 0.0;

private:
    int m_depth = 0;
};

/** Nanoseconds per record of `parseOne` over `bodies`, `passes` times; median of `repeat`. */
template <typename Fn>
double nsPerRecord(const std::vector<Body> &bodies, int passes, int repeat, Fn parseOne) {
    std::vector<double> ns;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        for (int p = 0; p < passes; ++p) {
            for (const Body &b : bodies) {
                parseOne(b);
            }
        }
        ns.push_back(double(t.nsecsElapsed()) / (double(passes) * double(bodies.size())));
    }
    return median(ns);
}

}  // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        QTextStream(stderr) << "usage: bench_parse FILE [--repeat N]\n";
        return 1;
    }
    const int repeat = repeatOption(args, 5);
    pageCache(args[1]);
    QString error;
    auto doc = TraceLoader::load(args[1], &error, TraceLoadOptions{});
    if (!doc || doc->records().isEmpty()) {
        QTextStream(stderr) << (doc ? QStringLiteral("no records") : error) << "\n";
        return 2;
    }
    const RecordStore &store = doc->records();
    const auto *data = reinterpret_cast<const char *>(doc->fileData());
    std::vector<Body> all;
    all.reserve(size_t(store.size()));
    for (int i = 0; i < store.size(); ++i) {
        all.push_back({data + store.frameOffset(i) + 4, store.bodyLength(i)});
    }
    const std::vector<Body> hot(all.begin(), all.begin() + std::min<size_t>(all.size(), 10000));
    const int hotPasses = std::max(1, int(2000000 / hot.size()));

    double sink = 0.0;  // keeps the parses from being optimised away
    auto index = [&sink](const Body &b) {
        sink += RecordIndexer::parse(b.data, b.size, RecordIndexer::Mode::Index).tMono;
    };
    const double hotNs = nsPerRecord(hot, hotPasses, repeat, index);
    const double wholeNs = nsPerRecord(all, 1, std::min(repeat, 3), index);

    FloorVisitor visitor;
    msgpack::detail::parse_helper<FloorVisitor> helper(visitor);
    const double floorNs = nsPerRecord(hot, hotPasses, repeat, [&](const Body &b) {
        visitor.reset();
        helper.init();
        std::size_t off = 0;
        helper.execute(b.data, b.size, off);
        sink += visitor.lastFloat;
    });

    out << "file                   " << args[1] << "\n"
        << "records                " << store.size() << "\n"
        << "index parse, hot       " << QString::number(hotNs, 'f', 1) << " ns/record\n"
        << "index parse, whole     " << QString::number(wholeNs, 'f', 1) << " ns/record\n"
        << "msgpack-cxx floor, hot " << QString::number(floorNs, 'f', 1) << " ns/record\n"
        << "(checksum " << sink << ")\n";
    return 0;
}
