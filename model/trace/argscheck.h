#pragma once

#include "trace/tracedocument.h"
#include "trace/traceloader.h"
#include "trace/tracescanner.h"

namespace lmct {

/**
 * The complete check of every record's arguments once the file is indexed
 * (RecordIndexer::Mode::Full), on every core: damaged arguments keep the record (its index
 * fields are intact) but flag it BadArgs and add a diagnostic naming the record, its offset and
 * what is wrong. The records were read by `scanner`, whose frame tests and view of a file that
 * shrank it shares: records past the end of a file that shrank are not checked.
 *
 * Units: record indices count from 0 in file order; offsets and lengths are bytes of the file.
 *
 * Ownership: holds references to the document (its RecordStore), the scanner and the options;
 * all outlive it. Made on the stack after a scan that read the whole file.
 *
 * Thread-safety: run() is called on the thread that scans; its pass runs on ComputePool
 * (ParallelChunks). Readers of the document may read meanwhile: only flags are set.
 *
 * Errors: damage becomes a Diagnostic (Malformed, or Limit when only a decoding limit is
 * exceeded); a cancel (Options::cancel) stops the pass and says where in a warning.
 */
class ArgsCheck {
public:
    ArgsCheck(TraceDocument &doc, TraceScanner &scanner, const TraceLoader::Options &opt);

    /**
     * Checks every record's arguments. Returns -1 when every record was checked; when
     * cancelled, the first record not checked (a warning says so).
     */
    int run();

private:
    /** The check releases the pages of what it checked every this many bytes. */
    static constexpr qint64 kReleaseBytes = 4 << 20;

    TraceDocument &m_doc;
    TraceScanner &m_scanner;
    const TraceLoader::Options &m_opt;
    RecordStore &m_store;
};

}  // namespace lmct
