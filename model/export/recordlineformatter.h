#pragma once

#include "codec/packedsummary.h"
#include "export/recordexport.h"
#include "trace/tracedocument.h"

#include <QByteArray>
#include <vector>

namespace lmct {

/**
 * Formats records as the lines of RecordExport's JSON Lines and CSV, fast: the JSON of a
 * record's `args` is streamed from its msgpack bytes in the mapped file (PackedJson), the texts
 * of each qualname are made once. The output is byte for byte RecordExport::formatRecordByValue
 * (the value-tree path), which stays the fallback for every record PackedJson declines, for a
 * record whose arguments do not decode whole (its `args_error`), and once a read of the mapping
 * has faulted or the file has shrunk (TraceDocument::decodeArgs then tells which records are
 * gone). CSV's summary column streams too (PackedSummary), the value tree (RecordSummary) only
 * for what that declines.
 *
 * Ownership: keeps a reference to `doc`, which must outlive it. Thread-safety: append() may be
 * called from several threads at once.
 */
class RecordLineFormatter {
public:
    RecordLineFormatter(const TraceDocument &doc, RecordExport::Format format);

    /** Appends record `r`'s line (line end included) to `out`. */
    void append(int r, QByteArray *out) const;

private:
    struct Names {
        QByteArray json;     ///< the qualname as a JSON string
        QByteArray csvName;  ///< the qualname as a CSV field
        QByteArray csvCall;  ///< Qualname::shortName as a CSV field
        PackedSummary::Call call = PackedSummary::Call::Other;
    };
    static Names namesOf(const QString &qualname);
    bool appendFast(int r, QByteArray *out) const;

    const TraceDocument &m_doc;
    RecordExport::Format m_format;
    std::vector<Names> m_names;  // by qualname id
};

}  // namespace lmct
