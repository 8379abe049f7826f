#pragma once

#include "trace/tracedocument.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace lmct {

/**
 * Several traces of one deployment, shown on one `t_wall` axis: each trace a document (loaded by
 * TraceLoader as a single trace is), a label, the instance it came from and an offset.
 *
 * - Label: the file name (TraceDocument::fileName()); when two traces share a file name, the
 *   later one is labelled by its path as given (and, if that is taken too, "path #N"). Labels
 *   are unique in a set: `trace == "a.lct"` in a filter and `--offset a.lct=0.004` name a trace
 *   by its label.
 * - Instance: `level_meta.instance_id` of the header (spec §3, the newest header shape; LMCache
 *   writes it for the events level) as text; empty when the header has none.
 * - Start: the trace's `t_wall` at its start, Unix epoch seconds: the header's `t_wall_start`
 *   (the recorder's `time.time()` when it opened the file) when finite, else the first finite
 *   record `t_wall`, else NaN.
 * - Offset: seconds added to every `t_wall` of the trace on the common axis (clocks of hosts a
 *   few ms apart); 0 by default, editable. The aligned `t_wall` of a record is its `t_wall` plus
 *   its trace's offset. revision() grows with every change of an offset or of the traces, so a
 *   MergedOrder knows when it is stale.
 *
 * Each trace keeps its own diagnostics, header and records: a damaged trace does not change how
 * the others read. Traces may have different start times and may still be growing (loading or
 * followed); MergedOrder says how their records interleave.
 *
 * Ownership: shares the documents (std::shared_ptr<const TraceDocument>). Thread-safety: a value
 * type; copy it to hand a snapshot to a worker (copies share the documents, which are safe to
 * read from any thread). At most kMaxTraces traces.
 */
class TraceSet {
public:
    static constexpr int kMaxTraces = 65536;

    struct Trace {
        std::shared_ptr<const TraceDocument> document;
        QString path;         ///< as given to add() (the document's file path by default)
        QString label;        ///< unique in the set (see the class comment)
        QString instanceId;   ///< `level_meta.instance_id`, or empty
        double offset = 0.0;  ///< seconds added to every t_wall of this trace
    };

    /**
     * Adds `doc` (not null) as the last trace; `path` names it where the file name is taken
     * (default: the document's file path). Returns its index, or -1 when the set is full or
     * `doc` is null.
     */
    int add(std::shared_ptr<const TraceDocument> doc, const QString &path = QString());

    int size() const { return int(m_traces.size()); }
    bool isEmpty() const { return m_traces.empty(); }
    const Trace &trace(int t) const { return m_traces[size_t(t)]; }
    const TraceDocument &document(int t) const { return *m_traces[size_t(t)].document; }
    const std::shared_ptr<const TraceDocument> &documentPtr(int t) const {
        return m_traces[size_t(t)].document;
    }
    const QString &label(int t) const { return m_traces[size_t(t)].label; }
    const QString &instanceId(int t) const { return m_traces[size_t(t)].instanceId; }
    /** The label, and the instance in parentheses when there is one: "a.lct (vllm-0)". */
    QString displayLabel(int t) const;
    QStringList labels() const;
    /** The trace whose label, path or instance id is `name` (labels first); -1 when none. */
    int indexOf(const QString &name) const;

    double offset(int t) const { return m_traces[size_t(t)].offset; }
    /** Sets trace `t`'s offset (seconds); false (nothing changed) when not finite. */
    bool setOffset(int t, double seconds);
    /** Grows with every add() and every setOffset() that changes an offset. */
    quint64 revision() const { return m_revision; }

    /** Trace `t`'s start t_wall without its offset (see the class comment); NaN when unknown. */
    double startWall(int t) const;
    /** startWall() + offset(). */
    double alignedStart(int t) const { return startWall(t) + offset(t); }
    /** The latest finite record t_wall of trace `t` plus its offset; NaN when it has none. */
    double alignedEnd(int t) const;
    /** Earliest alignedStart() and latest alignedEnd() over the set (NaN ignored; NaN if none). */
    double combinedStart() const;
    double combinedEnd() const;

    /** Records of every trace published now (RecordStore::size() summed). */
    qint64 recordCount() const;

    /** The level_meta.instance_id of a header as text; empty when absent. */
    static QString instanceIdOf(const TraceHeader &header);

private:
    std::vector<Trace> m_traces;
    quint64 m_revision = 0;
};

}  // namespace lmct
