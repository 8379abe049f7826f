#pragma once

#include "trace/tracedocument.h"
#include "trace/traceloader.h"

#include <QString>

namespace lmct {

/**
 * What a scan found beyond the records themselves, said as diagnostics on the document once
 * TraceScanner has read them: times that are not times and t_mono stepping back (reportOrder),
 * and one summary of what was skipped or recovered (reportDamage, what `lmct info` reports).
 * Its facts are those the scanner kept in TraceDocument::ScanState while it appended records.
 *
 * Units: record indices count from 0 in file order; offsets are bytes of the file; `t_mono` and
 * `t_wall` are seconds.
 *
 * Ownership: holds references to the document (its RecordStore and ScanState) and to the
 * options; both outlive it. Made on the stack after each scan.
 *
 * Thread-safety: on the thread that scans, after the scan, one at a time per document; readers
 * of the document may read meanwhile (diagnostics are added under the document's lock).
 *
 * Errors: none; the diagnostics are stored up to Options::maxDiagnostics.
 */
class ScanReport {
public:
    ScanReport(TraceDocument &doc, const TraceLoader::Options &opt);

    /**
     * The diagnostics about times that are not times and t_mono stepping back: once the whole
     * file is indexed, or, while `following`, after every scan, kept current in place (one
     * note each, counted up to the last record read; a followed trace never showed
     * them, then showed the counts of the first scan that saw them).
     */
    void reportOrder(bool following = false);

    /** One summary of what was skipped or recovered (`lmct info` reports it), when anything was. */
    void reportDamage();

private:
    /** Adds a diagnostic to the document (stored up to Options::maxDiagnostics). */
    void diag(Diagnostic::Severity s, Diagnostic::Kind k, qint64 offset, const QString &msg);

    TraceDocument &m_doc;
    const TraceLoader::Options &m_opt;
    const RecordStore &m_store;
    TraceDocument::ScanState &m_st;
};

}  // namespace lmct
