#pragma once

#include "codec/valuedecoder.h"
#include "trace/tracedocument.h"

#include <QByteArray>
#include <QIODevice>
#include <functional>
#include <vector>

namespace lmct {

/**
 * Record exports shared by `lmct dump` and the viewer's File > Export: JSON Lines and CSV.
 *
 * JSONL: one object per record: `index`, `t_mono`, `t_wall`, `qualname`, `args` as
 * ValueFormatter::toJson (bytes as lowercase hex, codec-tagged values as `{"__t__", "v"}`), plus
 * `args_error` when the arguments decoded only partly.
 * CSV (RFC 4180, CsvWriter): header row, columns index, t_mono, t_wall, qualname, call, summary,
 * args_json. Numbers in their shortest exact form.
 *
 * Arguments are read from the mapped file (not the document's cache): RecordLineFormatter streams
 * their JSON from the msgpack bytes, formatRecordByValue() goes through the value tree (the
 * reference, and the fallback for what the stream declines); both write the same bytes.
 * Writing formats chunks in parallel and writes them in the order of `rows`.
 *
 * Thread-safety: reentrant; the document must stay alive.
 */
class RecordExport {
public:
    enum class Format { Jsonl, Csv };

    /** The CSV header row (CRLF-terminated). */
    static QByteArray csvHeader();

    /**
     * The one-line summary of the `args` of a record of call `qualname`
     * (RecordSummary::summarize, at most about `maxChars`), followed by "(arguments: ERROR)"
     * when they were not decoded whole (a record past a cut showed an empty summary in
     * `lmct dump` and CSV, only JSON said it was gone).
     */
    static QString summary(const QString &qualname, const TraceDocument::Args &args, int maxChars);

    /** Record `r` as one JSONL line or one CSV row, line end included (RecordLineFormatter). */
    static QByteArray formatRecord(const TraceDocument &doc, int r, Format format);
    /**
     * formatRecord() through the value tree: TraceDocument::decodeArgs, ValueFormatter::toJson,
     * QJsonDocument. The same bytes, several times slower.
     */
    static QByteArray formatRecordByValue(const TraceDocument &doc, int r, Format format);

    /**
     * Writes `formatOne(row)` for every row of `rows` in order, formatting in parallel chunks.
     * Returns false with `error` set when the device refuses a write.
     */
    static bool writeRows(QIODevice *out, const std::vector<int> &rows,
                          const std::function<QByteArray(int)> &formatOne, QString *error);
    /**
     * writeRows() with `appendOne(row, buffer)` appending a row's text to its chunk's buffer
     * (no text per row). Chunks are formatted in parallel into buffers of their own, a bounded
     * window of them at a time, and written in the order of `rows`.
     */
    static bool writeRows(QIODevice *out, const std::vector<int> &rows,
                          const std::function<void(int, QByteArray *)> &appendOne, QString *error);

    /**
     * Header (CSV only) and every row of `rows` in `format`. False with `error` set when a
     * write failed, or when the trace shrank while it was read (checkNotShrunk()): ExportFile
     * then leaves no file (its records past the cut would be missing from it).
     */
    static bool write(QIODevice *out, const TraceDocument &doc, const std::vector<int> &rows,
                      Format format, QString *error);

    /**
     * True when `doc`'s file has not shrunk since it was opened (TraceDocument::shrinkSentence:
     * one fstat); else false with `error` saying so and that nothing was written. The exports
     * call it after writing (a trace cut during `lmct export` left a 603 MB file whose
     * records past the cut had the zeros in their place decoded as arguments).
     */
    static bool checkNotShrunk(const TraceDocument &doc, QString *error);

    /** Shortest text that reads back as the same double ("0.1", "1e-05", "1760000000.25"). */
    static QByteArray number(double v);
};

}  // namespace lmct
