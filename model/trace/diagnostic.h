#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * One finding about a trace file: damage, recovery, or a warning about its content.
 *
 * Diagnostics are plain data, produced by the loader (TraceDocument) and shown by the
 * diagnostics pane and `lmct info`. `offset` is the absolute byte offset in the file where the
 * problem starts (the frame's length prefix for frame-level findings), or -1 when the finding
 * concerns the whole file. `kind` is a stable machine-readable word (see Kind) so tests and tools
 * can match diagnostics without parsing messages.
 *
 * Thread-safety: a value type; copies are independent.
 */
struct Diagnostic {
    enum class Severity : quint8 { Info, Warning, Error };

    /** Stable category words; the strings returned by kindName() appear in JSON output. */
    enum class Kind : quint8 {
        Truncated,        ///< the file ends inside a frame (length prefix or body)
        Malformed,        ///< a frame body is not one complete msgpack value
        BadFields,        ///< a record is valid msgpack but misses or mistypes a required field
        Resync,           ///< bytes were skipped to find the next record frame
        HeaderRewritten,  ///< LMCache's first recorder wrote its header over its own records
        Limit,            ///< a value exceeded a decoding limit (nesting depth, claimed size)
        UnknownSchema,    ///< trace_schema_version is not one this build knows
        UnknownLevel,     ///< level is neither "storage" nor "events"
        Header,           ///< a header field is missing or of the wrong type
        Digest,           ///< sm_config_digest does not match sm_config_json
        Order,            ///< t_mono steps back
        Damage,           ///< summary: bytes and frames skipped, records recovered
        Time,             ///< t_mono or t_wall not finite, or t_mono negative
        Shrank,           ///< the file was truncated by another process while being read
        Note              ///< anything else worth telling
    };

    Severity severity = Severity::Info;
    Kind kind = Kind::Note;
    qint64 offset = -1;  ///< bytes from the start of the file, or -1
    QString message;     ///< one human sentence: what was expected, what was found

    static QString severityName(Severity s);
    static QString kindName(Kind k);
};

using DiagnosticList = QList<Diagnostic>;

}  // namespace lmct
