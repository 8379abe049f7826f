#pragma once

#include "trace/tracedocument.h"
#include "trace/traceloader.h"

#include <QString>

namespace lmct {

/**
 * Reads and checks the first frame of a trace, its header (spec §3), into a document that has
 * its file mapped: decodes the msgpack map, refuses what is no LMCache trace, salvages a header
 * that LMCache's first recorder rewrote in place over its own records (spec §7.4), and warns about
 * header fields LMCache never writes the way they are found. It sets the document's header,
 * where its records start (the scan offset TraceScanner begins at) and, after a salvage, the
 * flag the first record gets (RecordStore::AfterResync).
 *
 * Units: byte offsets of the file (the header's length prefix is at 0, its map at 4).
 *
 * Ownership: stateless; writes into the document passed, which the caller owns.
 *
 * Thread-safety: read() is reentrant; call it once per document before it is scanned
 * (TraceLoader::open(), loadBytes()), or again from TraceLoader::refresh() while a followed
 * trace has no complete header yet, on the thread that scans it.
 *
 * Errors: read() returns false and sets `*error` to "FILE: offset N: expected ..., found ..."
 * for the refusals TraceLoader lists (empty or too short file, a first frame that is no msgpack
 * map, a record instead of the header, no `LMCT` magic, `format_version` other than 1). The rest
 * becomes a Diagnostic on the document: a rewritten header (Kind::HeaderRewritten), trailing bytes
 * in the header frame, a damaged length prefix of the header frame (the header is read from the
 * whole map at offset 4 when a record frame follows it), an unknown `trace_schema_version` or
 * `level`, mistyped fields, an `sm_config_json` that is not a JSON object, a digest that does not
 * match. With Options::follow a header not complete yet is no refusal: read() returns true and the
 * document's ScanState says the header is not read yet.
 *
 * LMCache source: the header is written by LMCache's trace recorder (`trace/format.py`): `magic`,
 * `format_version`, `trace_schema_version` or `lmcache_version`, `level`, `t_mono_start`,
 * `t_wall_start`, `sm_config_json` and its SHA-256 `sm_config_digest`, `level_meta`.
 */
class TraceHeaderReader {
public:
    /** Reads the header of `doc`'s mapped file; false (with `*error`) when it is refused. */
    static bool read(TraceDocument *doc, QString *error, const TraceLoadOptions &options);
};

}  // namespace lmct
