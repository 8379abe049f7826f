#pragma once

#include "trace/recordindexer.h"
#include "trace/tracefile.h"

#include <QString>
#include <QtEndian>

namespace lmct {

/**
 * The frame tests over the bytes of a mapped trace file: the length prefix and body of a frame,
 * whether a complete record frame starts at an offset, where the next whole or cut-short record
 * frame begins, whether a frame reads as cut by a truncation, and whether trailing bytes are
 * whole record frames. TraceScanner reads the records with them (and is one); TraceHeaderReader
 * uses them to find where the records of a rewritten header start.
 *
 * Units: offsets and lengths are bytes of the file (a frame's offset is that of its 4-byte
 * big-endian length prefix, its length that of its body); the bytes looked at are [0, scanEnd()).
 *
 * Ownership: holds a reference to the TraceFile (and its mapping's address), which outlives it.
 *
 * Thread-safety: the tests only read; one probe may be used from several threads while its end
 * does not change. findRecordFrame() releases the pages it scanned from the RSS (the bytes stay
 * mapped and readable).
 *
 * Errors: none; an offset outside [0, scanEnd()) is no frame.
 *
 * LMCache source: the frames are written by LMCache's trace recorder (`trace/format.py`: a
 * 4-byte big-endian length, then one msgpack map per record).
 */
class FrameProbe {
public:
    /** Tests over `file`'s bytes [0, end). */
    FrameProbe(const TraceFile &file, qint64 end)
        : m_file(file), m_data(file.data()), m_size(end) {}

    /** The end of the bytes looked at (bytes). */
    qint64 scanEnd() const { return m_size; }

    /** The length prefix of the frame at `pos` (big-endian, bytes); needs 4 bytes there. */
    quint32 lengthAt(qint64 pos) const { return qFromBigEndian<quint32>(m_data + pos); }

    /** The body of the frame at `pos`: the bytes after its length prefix. */
    const char *body(qint64 pos) const { return reinterpret_cast<const char *>(m_data + pos + 4); }

    /** A complete record frame starts at `pos`; sets `*next` to the offset after it. */
    bool recordFrameAt(qint64 pos, qint64 *next, RecordIndexer::Fields *fields = nullptr) const;

    /**
     * First offset in [from, to) where a record frame starts; -1 when none. The pages scanned
     * without finding one leave the RSS every 4 MiB (resyncing over 3 GB of a frame cut
     * short kept 2.9 GB resident).
     */
    qint64 findRecordFrame(qint64 from, qint64 to) const;

    /**
     * First offset in [from, to) where a record frame begins that is cut short before `to`: a
     * length prefix of at least 8, a map whose first key is `type` with the value `record`
     * (msgspec writes the tag pair first; of a frame cut inside that tag, what lies before `to`,
     * at least `\xa4typ`), and a claimed end past `to`; -1 when none. A frame
     * written short right after another one (spec 7.10, a disk full twice).
     */
    qint64 findPartialRecordFrame(qint64 from, qint64 to) const;

    /**
     * Whether the frame at `pos` reads the way one cut by a truncation does: the rest of the
     * page a file now ends in, and every page past it (MappingGuard), read as zeros. So: a
     * length prefix cut short, a zero length, a length past the end, or a zero last byte.
     * Damage that looks like this is worth an fstat before it is reported.
     */
    bool readsAsCut(qint64 pos) const {
        const qint64 rem = m_size - pos;
        if (rem < 4) {
            return true;
        }
        const quint32 len = lengthAt(pos);
        return len == 0 || qint64(len) > rem - 4 || m_data[pos + 3 + qint64(len)] == 0;
    }

    /**
     * What the trailing bytes [from, end) of a record's body are when they are whole record
     * frames, one after the other up to `end` (a length prefix too long by exactly the frames
     * after it: the hop took them in, as the index does not parse arguments): a sentence
     * saying how many, to end the diagnostic with; else empty.
     */
    QString framesTakenIn(qint64 from, qint64 end) const;

    /** Whether `b` begins a msgpack map (fixmap, map 16, map 32): a header or a record. */
    static bool isMapMarker(uchar b) { return (b >= 0x80 && b <= 0x8f) || b == 0xde || b == 0xdf; }

protected:
    const TraceFile &m_file;
    const uchar *m_data;
    qint64 m_size;  // the end of the bytes looked at; a scanner moves it when the file shrinks
};

}  // namespace lmct
