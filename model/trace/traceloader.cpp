#include "trace/traceloader.h"

#include "trace/mappingguard.h"
#include "util/parallelchunks.h"

#include "codec/valuedecoder.h"
#include "codec/valueformatter.h"
#include "trace/recordindexer.h"
#include "util/timeformat.h"

#include <QMutex>
#include <QThread>
#include <QtEndian>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>

namespace lmct {

namespace {

/** The longest header frame a followed trace's header is waited for (bytes). LMCache's header
 *  (`trace/format.py`) holds a few fields and the StorageManager config JSON: kilobytes. */
constexpr quint32 kMaxFollowedHeader = 16u << 20;

bool isMapMarker(uchar b) {
    return (b >= 0x80 && b <= 0x8f) || b == 0xde || b == 0xdf;
}

QString hexByte(uchar b) {
    return QStringLiteral("0x%1").arg(b, 2, 16, QLatin1Char('0'));
}

/**
 * Warnings (Kind::Header, offset 4) about header fields that are present with a type LMCache
 * never writes (a string trace_schema_version was shown as "(none)" without a word), about an
 * sm_config_json that is not the JSON object LMCache writes (json.dumps of the config), and
 * about each of its known fields with a value of another type or out of range.
 */
void checkHeaderFieldTypes(const TraceHeader &header,
                           const std::function<void(const QString &)> &warn) {
    static const struct {
        const char *name;
        Value::Type type;
        const char *expected;
    } kFields[] = {{"trace_schema_version", Value::Type::Int, "an integer"},
                   {"level", Value::Type::String, "a string"},
                   {"lmcache_version", Value::Type::String, "a string"},
                   {"sm_config_json", Value::Type::String, "a string"},
                   {"sm_config_digest", Value::Type::String, "a string"},
                   {"level_meta", Value::Type::Map, "a map"}};
    for (const auto &f : kFields) {
        const Value *v = header.field(QString::fromLatin1(f.name));
        if (v && v->type() != f.type) {
            QString found = v->typeName();  // as the record field checks say it
            if (v->isString()) {
                found += QStringLiteral(" \"%1\"").arg(ValueFormatter::display(*v, 60));
            }
            warn(QStringLiteral("header field %1: expected %2, found %3")
                     .arg(QLatin1String(f.name), QLatin1String(f.expected), found));
        }
    }
    // "" is a placeholder header's (no config); a cut one (over 1 MiB) cannot be parsed whole.
    const StorageManagerConfig &config = header.smConfig();
    if (config.state() == StorageManagerConfig::State::NotJson) {
        warn(QStringLiteral("header field sm_config_json is not valid JSON: %1 at byte offset %2 "
                            "of its %3 bytes; expected the StorageManager config as a JSON "
                            "object")
                 .arg(config.parseError())
                 .arg(config.parseOffset())
                 .arg(config.byteSize()));
    } else if (config.state() == StorageManagerConfig::State::NotObject) {
        warn(QStringLiteral("header field sm_config_json holds a JSON %1; expected the "
                            "StorageManager config as a JSON object")
                 .arg(config.jsonKind()));
    }
    for (const StorageManagerConfig::FieldProblem &p : config.fieldProblems()) {
        warn(QStringLiteral("header field sm_config_json: %1 (the field is left unknown)")
                 .arg(p.toString()));
    }
}

}  // namespace

/**
 * The frame-reading state machine over one document's mapped file, from its scan offset to the
 * end of the current mapping. Internal to the loader.
 */
class TraceScanner {
    /** A frame found by hopping: its offset and body length (bytes). */
    struct Frame {
        qint64 off;
        quint32 len;
    };

public:
    TraceScanner(TraceDocument &doc, const TraceLoader::Options &opt)
        : m_doc(doc),
          m_data(doc.m_file.data()),
          m_size(doc.m_file.size()),
          m_opt(opt),
          m_store(doc.m_records),
          m_st(doc.m_scan) {
        if (const qint64 shrunk = doc.m_file.shrunkTo(); shrunk >= 0 && shrunk < m_size) {
            m_size = shrunk;
            m_shrunk = true;
        }
    }

    /**
     * Checks whether the file shrank under us (TraceFile::checkShrunk: fstat and absorbed
     * SIGBUS faults); if so, the end of the scan moves to its new size, the document reports it
     * once, and true is returned. What lies beyond reads as zeros and is not the file's: it is
     * not there, not damage.
     */
    bool clipToShrink(bool force = false) {
        // An fstat per call was 40% of the time of a trace with 200 000 damaged frames (each
        // checks first). A file that shrank under the mapping shows in the first read past its
        // new end (MappingGuard counts the fault), or in zeros read in the page it now ends in
        // (`force`: see readsAsCut()): else the first call and then every 256th look.
        const quint64 faults = quint64(MappingGuard::faultCount());
        if (!force && faults == m_faultsSeen && (m_clipCalls++ & 255) != 0) {
            return false;
        }
        m_faultsSeen = faults;
        const qint64 shrunk = m_doc.m_file.checkShrunk();
        if (shrunk < 0 || shrunk >= m_size) {
            return false;
        }
        m_size = shrunk;
        m_shrunk = true;
        m_doc.noteShrink(m_opt.maxDiagnostics);
        return true;
    }

    quint32 lengthAt(qint64 pos) const { return qFromBigEndian<quint32>(m_data + pos); }

    const char *body(qint64 pos) const { return reinterpret_cast<const char *>(m_data + pos + 4); }

    /**
     * Whether the frame at `pos` reads the way one cut by a truncation does: the rest of the
     * page a file now ends in, and every page past it (MappingGuard), read as zeros. So: a
     * length prefix cut short, a zero length, a length past the end, or a zero last byte.
     * Damage that looks like this is worth an fstat before it is reported (clipToShrink).
     */
    bool readsAsCut(qint64 pos) const {
        const qint64 rem = m_size - pos;
        if (rem < 4) {
            return true;
        }
        const quint32 len = lengthAt(pos);
        return len == 0 || qint64(len) > rem - 4 || m_data[pos + 3 + qint64(len)] == 0;
    }

    /** A complete record frame starts at `pos`; sets `*next` to the offset after it. */
    bool recordFrameAt(qint64 pos, qint64 *next, RecordIndexer::Fields *fields = nullptr) const {
        if (pos < 0 || m_size - pos < 5) {
            return false;
        }
        const quint32 len = lengthAt(pos);
        if (len < 8 || qint64(len) > m_size - pos - 4 || !isMapMarker(m_data[pos + 4])) {
            return false;
        }
        RecordIndexer::Fields f = RecordIndexer::parse(body(pos), len, RecordIndexer::Mode::Index);
        if (f.status != RecordIndexer::Status::Ok) {
            return false;
        }
        if (fields) {
            *fields = f;
        }
        *next = pos + 4 + len;
        return true;
    }

    /**
     * First offset in [from, to) where a record frame starts; -1 when none. The pages scanned
     * without finding one leave the RSS every 4 MiB (resyncing over 3 GB of a frame cut
     * short kept 2.9 GB resident).
     */
    qint64 findRecordFrame(qint64 from, qint64 to) const {
        static constexpr qint64 kReleaseEvery = 4 << 20;
        to = qMin(to, m_size - 5);
        qint64 scanned = qMax<qint64>(from, 0);  // start of the pages not yet released
        for (qint64 p = qMax<qint64>(from, 0); p < to; ++p) {
            if (p - scanned >= kReleaseEvery) {
                m_doc.m_file.releaseResident(scanned, p - scanned);
                scanned = p;
            }
            // Cheap filters first: a map marker after the prefix, a length that fits.
            if (!isMapMarker(m_data[p + 4]) || m_data[p] != 0) {
                continue;
            }
            qint64 next;
            if (recordFrameAt(p, &next)) {
                return p;
            }
        }
        return -1;
    }

    void diag(Diagnostic::Severity s, Diagnostic::Kind k, qint64 offset, const QString &msg) {
        m_doc.addDiagnostic(Diagnostic{s, k, offset, msg}, m_opt.maxDiagnostics);
    }

    /** Adds to the damage counts (rare: only on damage). */
    void damage(qint64 bytes, qint64 frames, qint64 recovered = 0, bool partial = false) {
        QMutexLocker lock(&m_doc.m_mutex);
        m_doc.m_damage.skippedBytes += bytes;
        m_doc.m_damage.skippedFrames += frames;
        m_doc.m_damage.recoveredFrames += recovered;
        m_doc.m_damage.partial = m_doc.m_damage.partial || partial;
    }

    /** Indexes record frames from `off` to the end of the file. */
    void append(qint64 off, quint32 len, const RecordIndexer::Fields &f, int knownId = -1) {
        const quint32 id =
            knownId >= 0 ? quint32(knownId) : m_store.intern(f.qualname, f.qualnameSize);
        m_store.append(f.tMono, f.tWall, id, off, len, m_st.pendingFlags);
        if (m_st.pendingFlags) {
            damage(0, 0, 1);
        }
        m_st.pendingFlags = 0;
        if (!std::isfinite(f.tMono) || !std::isfinite(f.tWall) || f.tMono < 0) {
            if (m_st.badTimes++ == 0) {
                m_st.firstBadTime = m_store.size() - 1;
            }
            return;  // no ordering finding from a time that is not one
        }
        if (f.tMono < m_st.prevTMono) {
            ++m_st.backSteps;
            if (m_st.prevTMono - f.tMono > m_st.worstStep) {
                m_st.worstStep = m_st.prevTMono - f.tMono;
                m_st.worstIndex = m_store.size() - 1;
            }
        }
        m_st.prevTMono = f.tMono;
    }

    /**
     * Hops over up to m_batchFrames frames (and at most kBatchBytes) from `off` that lie wholly
     * inside the mapping, into `frames`; returns the offset after the last one. When a bad
     * length or a cut-off prefix follows, the frame before it is left out (its length may be the
     * damaged one: a length a few bytes too long swallows the start of the next frame) and the
     * careful path checks it.
     */
    qint64 hop(qint64 off, std::vector<Frame> &frames) const {
        // Also at most this many bytes per batch: progress and cancel are handled between
        // batches, and 2^15 large records can be the whole file.
        static constexpr qint64 kBatchBytes = 4 << 20;
        static constexpr qint64 kFetchAhead = 2048, kCacheLine = 64;
        frames.clear();
        qint64 p = off;
        bool badLength = false;
        qint64 fetched = off;  // bytes before this are being fetched into the cache
        while (int(frames.size()) < m_batchFrames && p - off < kBatchBytes && m_size - p >= 4) {
            const quint32 len = lengthAt(p);
            if (len == 0 || qint64(len) > m_size - p - 4) {
                badLength = true;
                break;
            }
            frames.push_back({p, len});
            p += 4 + qint64(len);
            // Each length gives the next frame's offset, so the hop is a chain of loads that
            // miss the cache. The frames lie one after the other, though: fetch the file a
            // fixed distance ahead, one cache line after the other, and the next length is
            // there when it is needed, whatever the frames' sizes (the bodies jumped over
            // are not fetched). 1.37 GB trace: 0.44-0.50 -> 0.36-0.37 s wall for lmct info.
            fetched = std::max(fetched, p);
            for (const qint64 to = std::min(p + kFetchAhead, m_size); fetched < to;
                 fetched += kCacheLine) {
                __builtin_prefetch(m_data + fetched);
            }
        }
        if ((badLength || (p < m_size && m_size - p < 4)) && !frames.empty()) {
            p = frames.back().off;
            frames.pop_back();
            // and the one before it: a prefix one too long lands inside the next frame on a
            // length that fits a large file, and the hop goes on from there to the bad one
            if (badLength && !frames.empty()) {
                p = frames.back().off;
                frames.pop_back();
            }
        }
        return p;
    }

    /**
     * The fast path: hops over up to kBatch frames that lie wholly inside the file, parses them
     * on every core, and appends the good ones in order. Returns the offset of the first frame
     * that needs the careful path (damage, end of file), or the end of the batch.
     *
     * Hopping is a chain of dependent loads from memory not yet in the cache (each frame's
     * length gives the next frame's offset), so it cannot itself be split; instead the next
     * batch is hopped while this one is parsed, as one more work item beside the parse chunks.
     */
    qint64 fastBatch(qint64 off) {
        qint64 p = 0;
        if (m_nextFrom == off && m_nextEnd > off && m_nextEnd <= m_size) {
            std::swap(m_frames, m_nextFrames);  // hopped while the previous batch was parsed
            p = m_nextEnd;
        } else {
            p = hop(off, m_frames);
        }
        m_nextFrom = -1;
        if (m_frames.empty()) {
            return off;
        }
        m_fields.resize(m_frames.size());
        m_ids.resize(m_frames.size());
        const int n = int(m_frames.size());
        // Parse threads also look the qualname up among the names interned so far, while its
        // bytes are in their cache; the appending thread then interns only new names.
        auto parseRange = [this](int from, int to) {
            // The fields the index needs lie in a body's first two cache lines and the hop only
            // touched the first: fetch the second a few frames ahead, or the parse stalls on
            // memory once per record (1.37 GB trace: 0.48 -> 0.35 user CPU s for lmct info).
            constexpr int kAhead = 6;
            for (int i = from; i < std::min(to, from + kAhead); ++i) {
                __builtin_prefetch(body(m_frames[size_t(i)].off) + 60);
            }
            for (int i = from; i < to; ++i) {
                if (i + kAhead < to) {
                    __builtin_prefetch(body(m_frames[size_t(i + kAhead)].off) + 60);
                }
                RecordIndexer::Fields &f = m_fields[size_t(i)];
                f = RecordIndexer::parse(body(m_frames[size_t(i)].off), m_frames[size_t(i)].len,
                                         RecordIndexer::Mode::Index);
                m_ids[size_t(i)] = f.status == RecordIndexer::Status::Ok
                                       ? m_store.findInterned(f.qualname, f.qualnameSize)
                                       : -1;
            }
        };
        const int threads = qMax(1, QThread::idealThreadCount());
        // A 4 MiB batch of large records (about 1 500 of 2.8 KB) is still worth two threads.
        if (n < 256 || threads == 1) {
            parseRange(0, n);
        } else {
            QList<QPair<int, int>> chunks;
            const int step = (n + threads * 4 - 1) / (threads * 4);
            for (int i = 0; i < n; i += step) {
                chunks.append({i, qMin(n, i + step)});
            }
            // Item 0 hops the next batch (taken first, so it overlaps the parsing); the frames
            // it finds are used only if this batch turns out whole (m_nextFrom). Item 1
            // releases the pages of the batches appended before, on the other core: in the hop's
            // item, hop and release were one serial path longer than the parse (1.37 GB trace:
            // 0.35 -> 0.31 s wall for lmct info at load 1.5, medians of 7, alternated).
            const bool hopNext = p < m_size && m_size - p >= 4;
            qint64 nextEnd = p;
            ParallelChunks::run(int(chunks.size()) + 2, [&](int k) {
                if (k == 0) {
                    if (hopNext) {
                        nextEnd = hop(p, m_nextFrames);
                    }
                    return;
                }
                if (k == 1) {
                    if (m_releaseLength > 0) {  // batches before this one: appended already
                        m_doc.m_file.releaseResident(m_releaseFrom, m_releaseLength);
                        m_releaseLength = 0;
                    }
                    return;
                }
                parseRange(chunks[k - 2].first, chunks[k - 2].second);
            });
            if (hopNext && nextEnd > p) {
                m_nextFrom = p;
                m_nextEnd = nextEnd;
            }
        }
        // The file may have been truncated while it was parsed (the frames read past its new end
        // read as zeros): only frames wholly inside the file as it is now are appended.
        const bool shrank = clipToShrink();
        if (shrank) {
            m_nextFrom = -1;  // hopped over what is no longer there
        }
        for (int i = 0; i < n; ++i) {
            const RecordIndexer::Fields &f = m_fields[size_t(i)];
            if (shrank && m_frames[size_t(i)].off + 4 + m_frames[size_t(i)].len > m_size) {
                return m_frames[size_t(i)].off;
            }
            if (f.status != RecordIndexer::Status::Ok) {
                // The frames after it were parsed for nothing and are parsed again by the next
                // batch: after damage, batches start small (many damaged frames cost linear,
                // not quadratic, time) and grow back while the frames are good.
                m_batchFrames = std::max(kMinBatch, 2 * i);
                m_nextFrom = -1;
                return m_frames[size_t(i)].off;
            }
            // The frame after this one is no record: this one's length prefix may be too long
            // and the hop went on from inside the next frame (a prefix one too long lands on
            // a length that fits any large file; the next record was lost).
            if (i + 1 < n && m_fields[size_t(i) + 1].status != RecordIndexer::Status::Ok) {
                if (const qint64 x = valueEndsAtRecordFrame(m_frames[size_t(i)]); x >= 0) {
                    keepShortened(m_frames[size_t(i)], x, f, m_ids[size_t(i)]);
                    m_batchFrames = std::max(kMinBatch, 2 * i);
                    m_nextFrom = -1;
                    return x;
                }
            }
            append(m_frames[size_t(i)].off, m_frames[size_t(i)].len, f, m_ids[size_t(i)]);
        }
        m_batchFrames = std::min(kBatch, 2 * m_batchFrames);
        return p;
    }

    /**
     * Appends the record at frame offset `off` (fields `f`, interned qualname id `id` or -1)
     * with the body length its value fills, up to `x` where a record frame starts: its length
     * prefix is damaged. Flagged AfterResync (append() counts it recovered) and said in a
     * Resync error, `message`.
     */
    void keepUpTo(qint64 off, qint64 x, const RecordIndexer::Fields &f, int id,
                  const QString &message) {
        diag(Diagnostic::Severity::Error, Diagnostic::Kind::Resync, off, message);
        m_st.pendingFlags = RecordStore::AfterResync;
        append(off, quint32(x - off - 4), f, id);
    }

    /** keepUpTo() for a frame whose value ends at `x`, before the end its prefix claims. */
    void keepShortened(const Frame &frame, qint64 x, const RecordIndexer::Fields &f, int id = -1) {
        keepUpTo(frame.off, x, f, id,
                 QStringLiteral("frame at offset %1 claims %2 bytes, but its record ends after "
                                "%3, where the record frame at offset %4 starts (corrupted "
                                "length prefix?): the record is kept with that length, nothing "
                                "skipped")
                     .arg(frame.off)
                     .arg(frame.len)
                     .arg(x - frame.off - 4)
                     .arg(x));
    }

    /**
     * Where the record value of `frame` ends, when that is before the frame's end (and within
     * kMaxKeptBody) and a record frame starts there (its length prefix is too long); else -1.
     * A Full parse: only for a frame followed by one that is no record.
     */
    qint64 valueEndsAtRecordFrame(const Frame &frame) const {
        const RecordIndexer::Fields full = RecordIndexer::parse(
            body(frame.off), std::min<qint64>(frame.len, kMaxKeptBody), RecordIndexer::Mode::Full);
        if (full.trailingAt <= 0) {
            return -1;
        }
        const qint64 x = frame.off + 4 + full.trailingAt;
        qint64 next = 0;
        return recordFrameAt(x, &next) ? x : -1;
    }

    /**
     * What the trailing bytes [from, end) of a record's body are when they are whole record
     * frames, one after the other up to `end` (a length prefix too long by exactly the frames
     * after it: the hop took them in, as the index does not parse arguments): a sentence
     * saying how many, to end the diagnostic with; else empty.
     */
    QString framesTakenIn(qint64 from, qint64 end) const {
        qint64 p = from, next = 0;
        int frames = 0;
        while (p < end && recordFrameAt(p, &next) && next <= end) {
            ++frames;
            p = next;
        }
        if (frames == 0 || p != end) {
            return QString();
        }
        return QStringLiteral(
                   "; the %1 bytes are %2 whole record frame(s), from offset %3: its "
                   "length prefix is too long by them, and their records are not "
                   "indexed")
            .arg(end - from)
            .arg(frames)
            .arg(from);
    }

    /**
     * Skips from `*off` to the next frame that decodes as a record, reporting why (`what`) and
     * the skipped byte range; the next record is flagged AfterResync. When the bytes skipped
     * (after the frame's length prefix) are exactly one record, that record is kept instead
     * (flagged AfterResync) and the diagnostic says so. False when no record frame follows
     * (`*off` unchanged).
     */
    bool resync(qint64 *off, const QString &what) {
        const qint64 next = findRecordFrame(*off + 1, m_size);
        if (next < 0) {
            return false;
        }
        // The bytes up to that frame may be one whole record under a damaged length prefix (too
        // long: the next frame lies inside what it claims, or it claims more than the file
        // holds): its value fills them exactly. Then nothing is lost: the record is kept with
        // that length, flagged AfterResync (it was skipped, with the bytes up to the next frame).
        // (Not tried past kMaxKeptBody.)
        if (const qint64 bodyLength = next - *off - 4;
            bodyLength > 0 && bodyLength <= kMaxKeptBody) {
            const RecordIndexer::Fields f =
                RecordIndexer::parse(body(*off), bodyLength, RecordIndexer::Mode::Full);
            if (f.status == RecordIndexer::Status::Ok) {
                keepUpTo(*off, next, f, -1,
                         QStringLiteral("%1; the %2 bytes after its prefix are one whole record "
                                        "and the record frame at offset %3 follows them: the "
                                        "record is kept with that length, nothing skipped")
                             .arg(what)
                             .arg(bodyLength)
                             .arg(next));
                *off = next;
                return true;
            }
        }
        diag(Diagnostic::Severity::Error, Diagnostic::Kind::Resync, *off,
             QStringLiteral("%1; skipped bytes %2..%3 (%4 bytes) to the next record frame")
                 .arg(what)
                 .arg(*off)
                 .arg(next - 1)
                 .arg(next - *off));
        damage(next - *off, 0);
        m_st.pendingFlags = RecordStore::AfterResync;
        *off = next;
        return true;
    }

    /**
     * The longest record value looked for under a damaged length prefix (bytes): a crafted
     * value of 3e9 nils up to the next frame would take a parse of seconds and keep its pages
     * resident.
     */
    static constexpr qint64 kMaxKeptBody = 64 << 20;

    /** A frame this long at the end of a followed file is waited for, not resynced over. */
    static constexpr qint64 kMaxWaitedFrame = 64 << 20;

    /**
     * Indexes record frames from the document's scan offset to the end of the mapping. Damage is
     * diagnosed as it is met; while following (Options::follow) an incomplete frame at the end is
     * left for the next scan instead.
     */
    void readRecords() {
        m_nextFrom = -1;  // frames hopped by an earlier scan may lie in a remapped file
        qint64 off = m_doc.m_scanOffset.load(std::memory_order_relaxed);
        qint64 lastProgress = off;
        auto publish = [&] { m_doc.m_scanOffset.store(off, std::memory_order_release); };
        clipToShrink();  // truncated since the last scan (a followed file)?
        while (off < m_size) {
            publish();
            if (m_opt.cancel && m_opt.cancel->load(std::memory_order_relaxed)) {
                damage(0, 0, 0, true);
                diag(
                    Diagnostic::Severity::Warning, Diagnostic::Kind::Note, off,
                    QStringLiteral("loading was cancelled at offset %1 of %2: the records after it "
                                   "are not shown")
                        .arg(off)
                        .arg(m_size));
                break;
            }
            if (m_opt.progress && off - lastProgress >= (4 << 20)) {
                m_opt.progress(off, m_size, m_store.size());
                lastProgress = off;
            }
            if (const qint64 after = fastBatch(off); after != off) {
                // Indexed: its pages need not stay in the RSS (the table reads a few back).
                releaseLater(off, after - off);
                off = after;
                continue;
            }
            // The careful path diagnoses damage: first make sure it is not a file that shrank
            // (a cut inside a frame read as a damaged frame and 300 MB of skipped zeros).
            if (clipToShrink(readsAsCut(off))) {
                continue;
            }
            const qint64 rem = m_size - off;
            if (m_shrunk && (rem < 4 || qint64(lengthAt(off)) > rem - 4)) {
                off = m_size;  // the frame the file now ends in is not there (noteShrink says so)
                break;
            }
            if (m_opt.follow && (rem < 4 || (qint64(lengthAt(off)) > rem - 4 &&
                                             qint64(lengthAt(off)) <= kMaxWaitedFrame))) {
                break;  // still being written: wait for the rest
            }
            if (rem < 4) {
                diag(Diagnostic::Severity::Error, Diagnostic::Kind::Truncated, off,
                     QStringLiteral("the file ends with %1 byte(s) at offset %2: expected a 4-byte "
                                    "length prefix; the file was cut short")
                         .arg(rem)
                         .arg(off));
                damage(rem, 0);
                off = m_size;
                break;
            }
            const quint32 len = lengthAt(off);
            if (len == 0) {
                // A run of zero-length frames (often a run of zero bytes: a preallocated or
                // sparse file) is one finding, not one per 4 bytes.
                qint64 end = off + 4;
                while (m_size - end >= 4 && lengthAt(end) == 0) {
                    end += 4;
                }
                const qint64 frames = (end - off) / 4;
                diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, off,
                     frames == 1
                         ? QStringLiteral("zero-length frame at offset %1: expected a record "
                                          "body; skipped its 4 bytes")
                               .arg(off)
                         : QStringLiteral("%1 zero-length frames (zero bytes?) at offsets %2..%3: "
                                          "expected record bodies; skipped %4 bytes")
                               .arg(frames)
                               .arg(off)
                               .arg(end - 1)
                               .arg(end - off));
                damage(end - off, frames);
                off = end;
                continue;
            }
            if (qint64(len) > rem - 4) {
                if (resync(&off, QStringLiteral("length prefix at offset %1 claims %2 bytes but "
                                                "only %3 remain (corrupted prefix?)")
                                     .arg(off)
                                     .arg(len)
                                     .arg(rem - 4))) {
                    continue;
                }
                diag(Diagnostic::Severity::Error, Diagnostic::Kind::Truncated, off,
                     QStringLiteral("the last frame, at offset %1, claims %2 bytes but only %3 "
                                    "follow: the file was cut short; %4 bytes at offset %1 left "
                                    "unread")
                         .arg(off)
                         .arg(len)
                         .arg(rem - 4)
                         .arg(rem));
                damage(rem, 0);
                off = m_size;
                break;
            }
            const RecordIndexer::Fields f =
                RecordIndexer::parse(body(off), len, RecordIndexer::Mode::Index);
            const qint64 frameEnd = off + 4 + len;
            if (f.status == RecordIndexer::Status::Ok && frameEnd < m_size &&
                (m_size - frameEnd < 4 || lengthAt(frameEnd) == 0 ||
                 qint64(lengthAt(frameEnd)) > m_size - frameEnd - 4) &&
                findRecordFrame(off + 1, frameEnd) >= 0) {
                // Its fields read fine, but no frame follows it and a record frame starts
                // inside it: its length prefix is too long. Resync on that record.
                if (resync(&off, QStringLiteral("frame at offset %1 claims %2 bytes, but a record "
                                                "frame starts inside it and none follows it "
                                                "(corrupted length prefix?)")
                                     .arg(off)
                                     .arg(len))) {
                    continue;
                }
            }
            if (f.status == RecordIndexer::Status::Ok) {
                // No record frame follows it: its length prefix may be too long by less than
                // the next frame's (a prefix one too long lost the next record).
                // (Not when the frame there leads on to a record frame: a bad frame in a good
                // chain, e.g. 200 000 one-byte frames each between two records: 0.6 -> 1.0 s.)
                qint64 after = 0;
                const auto chainGoesOn = [&] {
                    if (m_size - frameEnd < 4) {
                        return false;
                    }
                    const qint64 next = frameEnd + 4 + qint64(lengthAt(frameEnd));
                    return next == m_size || recordFrameAt(next, &after);
                };
                if (frameEnd < m_size && !recordFrameAt(frameEnd, &after) && !chainGoesOn()) {
                    if (const qint64 x = valueEndsAtRecordFrame({off, len}); x >= 0) {
                        keepShortened({off, len}, x, f);
                        off = x;
                        continue;
                    }
                }
                append(off, len, f);
                off = frameEnd;
                continue;
            }
            // A bad frame. Its length is trusted when the body parsed as one complete value, or
            // when a record frame (or the end of the file) follows it, or when what follows
            // cannot be a frame either and no record frame starts inside this one (a length
            // prefix off by a few bytes must not hide the next record).
            qint64 dummy;
            const bool lengthTrusted =
                f.status == RecordIndexer::Status::BadFields || frameEnd == m_size ||
                recordFrameAt(frameEnd, &dummy) ||
                (m_size - frameEnd >= 4 && qint64(lengthAt(frameEnd)) > m_size - frameEnd - 4 &&
                 findRecordFrame(off + 1, frameEnd) < 0);
            if (lengthTrusted) {
                const Diagnostic::Kind kind =
                    f.status == RecordIndexer::Status::BadFields ? Diagnostic::Kind::BadFields
                    : f.status == RecordIndexer::Status::Limit   ? Diagnostic::Kind::Limit
                                                                 : Diagnostic::Kind::Malformed;
                diag(Diagnostic::Severity::Error, kind, off,
                     QStringLiteral("record frame at offset %1 (%2 bytes) skipped: %3")
                         .arg(off)
                         .arg(len)
                         .arg(f.message));
                damage(4 + len, 1);
                off = frameEnd;
                continue;
            }
            // A record frame inside it, and the bytes before that no whole record (then its
            // prefix would just be too long, which resync() says): this frame was written short
            // (LMCache's recorder ignores write()'s result; on a full disk one frame is cut and
            // the next are lost, then whole frames follow right after the cut one), so say that.
            const auto cutShort = [&](qint64 inside) {
                return inside >= 0 &&
                       (inside - off - 4 > kMaxKeptBody ||
                        RecordIndexer::parse(body(off), inside - off - 4, RecordIndexer::Mode::Full)
                                .status != RecordIndexer::Status::Ok);
            };
            if (const qint64 inside = findRecordFrame(off + 1, frameEnd);
                cutShort(inside) &&
                resync(&off, QStringLiteral("partial frame at offset %1: its length prefix "
                                            "claims %2 bytes, but only %3 bytes (prefix "
                                            "included) come before the record frame at offset "
                                            "%4 (a frame written short, e.g. on a full disk; "
                                            "frames written after it and lost are not in the "
                                            "file)")
                                 .arg(off)
                                 .arg(len)
                                 .arg(inside - off)
                                 .arg(inside))) {
                continue;
            }
            if (resync(&off, QStringLiteral("frame at offset %1 (claims %2 bytes) is not a "
                                            "record (%3) and no frame follows it")
                                 .arg(off)
                                 .arg(len)
                                 .arg(f.message))) {
                continue;
            }
            diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, off,
                 QStringLiteral("frame at offset %1 (claims %2 bytes) is not a record (%3) and no "
                                "record frame follows; %4 bytes left unread")
                     .arg(off)
                     .arg(len)
                     .arg(f.message)
                     .arg(rem));
            damage(rem, 0);
            off = m_size;
            break;
        }
        releaseLater(0, 0);  // flushes what is pending
        publish();
        if (m_opt.progress) {
            m_opt.progress(off, m_size, m_store.size());
        }
    }

    /**
     * Indexed bytes need not stay in the RSS (the table reads a few back; the page cache keeps
     * them): [from, from + length) joins the range the next parallel batch releases beside its
     * parsing (TraceFile::releaseResident costs about as much as hopping). A range that does not
     * continue the pending one, or length 0, releases the pending one now.
     */
    void releaseLater(qint64 from, qint64 length) {
        if (m_releaseLength > 0 && (length == 0 || from != m_releaseFrom + m_releaseLength)) {
            m_doc.m_file.releaseResident(m_releaseFrom, m_releaseLength);
            m_releaseLength = 0;
        }
        if (length > 0) {
            if (m_releaseLength == 0) {
                m_releaseFrom = from;
            }
            m_releaseLength += length;
        }
    }

    /** One summary of what was skipped or recovered (`lmct info` reports it), when anything was. */
    void reportDamage() {
        const TraceDocument::Damage d = m_doc.damage();
        if (d.skippedBytes == 0 && d.skippedFrames == 0 && d.recoveredFrames == 0) {
            return;
        }
        diag(Diagnostic::Severity::Info, Diagnostic::Kind::Damage, -1,
             QStringLiteral("damage: %1 bytes skipped, %2 frames skipped, %3 frames recovered "
                            "(records read right after a resync or a rewritten header)")
                 .arg(d.skippedBytes)
                 .arg(d.skippedFrames)
                 .arg(d.recoveredFrames));
    }

    /**
     * The diagnostics about times that are not times and t_mono stepping back: once the whole
     * file is indexed, or, while `following`, after every scan, kept current in place (one
     * note each, counted up to the last record read; a followed trace never showed
     * them, then showed the counts of the first scan that saw them).
     */
    void reportOrder(bool following = false) {
        const int n = m_store.size();
        const QString upTo =
            following ? QStringLiteral(" (counted while the trace was followed, up to record %1)")
                            .arg(n - 1)
                      : QString();
        // (a note is added, or replaced while following when there is more to say)
        auto put = [&](int *at, qint64 *said, qint64 now, const Diagnostic &d) {
            if (!following) {
                diag(d.severity, d.kind, d.offset, d.message);
            } else if (now != *said && *at != -2) {
                *said = now;
                *at = m_doc.setDiagnostic(*at, d, m_opt.maxDiagnostics);
                if (*at < 0) {
                    *at = -2;  // not listed (the list is full): not tried again
                }
            }
        };
        if (m_st.badTimes > 0) {
            const int i = m_st.firstBadTime;
            put(&m_st.timeNoteAt, &m_st.timeNoteCount, m_st.badTimes,
                Diagnostic{
                    Diagnostic::Severity::Warning, Diagnostic::Kind::Time, m_store.frameOffset(i),
                    QStringLiteral(
                        "%1 record(s) have a t_mono or t_wall that is not a finite time, or a "
                        "negative t_mono (LMCache clamps t_mono at 0); the first is record %2 "
                        "(t_mono %3, t_wall %4). They are kept; duration and time axes ignore "
                        "them.%5")
                        .arg(m_st.badTimes)
                        .arg(i)
                        .arg(m_store.tMono(i))
                        .arg(TimeFormat::fixed(m_store.tWall(i), 6))
                        .arg(upTo)});
        }
        // The format allows t_mono to step back "slightly" (records are published from several
        // threads: microseconds, a stalled thread perhaps seconds). A step back of more than an
        // hour is no reordering but time values that are not times (1.7e308 then 1.0).
        static constexpr double kPlausibleBackStep = 3600.0;
        if (m_st.backSteps > 0 && !(m_st.worstStep <= kPlausibleBackStep)) {
            put(&m_st.orderNoteAt, &m_st.orderNoteCount, m_st.backSteps,
                Diagnostic{
                    Diagnostic::Severity::Warning, Diagnostic::Kind::Order,
                    m_store.frameOffset(m_st.worstIndex),
                    QStringLiteral(
                        "t_mono steps back by %1 s at record %2 (from %3 to %4): far more than "
                        "records published from several threads can explain (more than an "
                        "hour); the t_mono values are likely corrupt, and durations and the time "
                        "axis with them (%5 step(s) back in file order in all)%6")
                        .arg(m_st.worstStep, 0, 'g', 6)
                        .arg(m_st.worstIndex)
                        .arg(TimeFormat::mono(m_store.tMono(m_st.worstIndex) + m_st.worstStep),
                             TimeFormat::mono(m_store.tMono(m_st.worstIndex)))
                        .arg(m_st.backSteps)
                        .arg(upTo)});
        } else if (m_st.backSteps > 0) {
            put(&m_st.orderNoteAt, &m_st.orderNoteCount, m_st.backSteps,
                Diagnostic{Diagnostic::Severity::Info, Diagnostic::Kind::Order,
                           m_store.frameOffset(m_st.worstIndex),
                           QStringLiteral(
                               "t_mono steps back %1 time(s) in file order; the largest step is "
                               "%2 s, at record %3 (normal for a few microseconds: records are "
                               "published from several threads)%4")
                               .arg(m_st.backSteps)
                               .arg(m_st.worstStep, 0, 'g', 6)
                               .arg(m_st.worstIndex)
                               .arg(upTo)});
        }
    }

    /**
     * Checks every record's arguments completely (RecordIndexer::Mode::Full), on every core.
     * Damaged arguments keep the record (its index fields are intact) but flag it BadArgs and
     * add a diagnostic naming the record, its offset and what is wrong. Returns -1 when every
     * record was checked; when cancelled, the first record not checked (a warning says so).
     */
    int validateArgs() {
        clipToShrink();
        // (records read before the file shrank past them have no arguments any more)
        const int n = m_shrunk ? m_doc.recordsWithin(m_size) : m_store.size();
        std::vector<int> bad;
        QMutex mutex;
        const int threads = qMax(1, QThread::idealThreadCount());
        const int step = qMax(1024, (n + threads * 8 - 1) / (threads * 8));
        QList<QPair<int, int>> chunks;
        for (int i = 0; i < n; i += step) {
            chunks.append({i, qMin(n, i + step)});
        }
        // records checked per chunk (from its start; a cancel stops a chunk part way)
        std::vector<int> checked(size_t(chunks.size()), 0);
        auto check = [&](int k) {
            const QPair<int, int> &c = std::as_const(chunks)[k];
            std::vector<int> local;
            // Checked records' pages leave the RSS every few MiB, not at the end of the chunk
            // (a chunk of 10 M small records is 90 MB).
            int released = c.first;
            auto release = [&](int to) {
                if (to > released) {
                    m_doc.releaseRecordPages(released, to - 1);
                    released = to;
                }
            };
            int i = c.first;
            for (; i < c.second; ++i) {
                if (m_opt.cancel && m_opt.cancel->load(std::memory_order_relaxed)) {
                    break;
                }
                const RecordIndexer::Fields f = RecordIndexer::parse(
                    body(m_store.frameOffset(i)), m_store.bodyLength(i), RecordIndexer::Mode::Full);
                if (f.status != RecordIndexer::Status::Ok) {
                    local.push_back(i);
                }
                if (((i - released) & 4095) == 4095 &&
                    m_store.frameOffset(i) - m_store.frameOffset(released) >= kReleaseBytes) {
                    release(i + 1);
                }
            }
            checked[size_t(k)] = i - c.first;
            release(i);
            QMutexLocker lock(&mutex);
            bad.insert(bad.end(), local.begin(), local.end());
        };
        ParallelChunks::run(int(chunks.size()), check);
        int stoppedAt = -1;  // the first record not checked
        for (qsizetype k = 0; k < chunks.size(); ++k) {
            if (chunks[k].first + checked[size_t(k)] < chunks[k].second) {
                stoppedAt = chunks[k].first + checked[size_t(k)];
                break;
            }
        }
        std::sort(bad.begin(), bad.end());
        clipToShrink();
        for (int i : bad) {
            const qint64 off = m_store.frameOffset(i);
            if (off + 4 + m_store.bodyLength(i) > m_size) {
                break;  // read zeros past the end of a file that shrank: not damage
            }
            const RecordIndexer::Fields f =
                RecordIndexer::parse(body(off), m_store.bodyLength(i), RecordIndexer::Mode::Full);
            m_store.setFlag(i, RecordStore::BadArgs);
            if (f.trailingAt >= 0) {
                diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, off,
                     QStringLiteral("record %1 (frame at offset %2, %3 bytes): its body is %4 "
                                    "(LMCache's reader rejects such a frame; this viewer keeps "
                                    "the record, flagged)%5")
                         .arg(i)
                         .arg(off)
                         .arg(m_store.bodyLength(i))
                         .arg(f.message, framesTakenIn(off + 4 + f.trailingAt,
                                                       off + 4 + m_store.bodyLength(i))));
                continue;
            }
            diag(Diagnostic::Severity::Error,
                 f.status == RecordIndexer::Status::Limit ? Diagnostic::Kind::Limit
                                                          : Diagnostic::Kind::Malformed,
                 off,
                 QStringLiteral("record %1 (frame at offset %2, %3 bytes): its t_mono, t_wall and "
                                "qualname are intact but its arguments are damaged: %4")
                     .arg(i)
                     .arg(off)
                     .arg(m_store.bodyLength(i))
                     .arg(f.message));
        }
        if (stoppedAt >= 0) {
            const qint64 off = m_store.frameOffset(stoppedAt);
            diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Note, off,
                 QStringLiteral("the argument check was cancelled at record %1 of %2 (frame at "
                                "offset %3): the records before it were checked, the arguments "
                                "of the %4 from it on were not (all) checked for damage; every "
                                "record is indexed and shown")
                     .arg(stoppedAt)
                     .arg(n)
                     .arg(off)
                     .arg(n - stoppedAt));
        }
        return stoppedAt;
    }

private:
    TraceDocument &m_doc;
    const uchar *m_data;
    qint64 m_size;
    const TraceLoader::Options &m_opt;
    RecordStore &m_store;
    TraceDocument::ScanState &m_st;
    bool m_shrunk = false;     // the file shrank while mapped: m_size is its new end
    quint64 m_faultsSeen = 0;  // MappingGuard::faultCount() at the last look (clipToShrink)
    quint32 m_clipCalls = 0;   // clipToShrink() calls without a look

    static constexpr int kBatch = 1 << 15;  // frames per fast batch at most
    static constexpr int kMinBatch = 4;
    /** The argument check releases the pages of what it checked every this many bytes. */
    static constexpr qint64 kReleaseBytes = 4 << 20;
    int m_batchFrames = kBatch;  // frames the next fast batch may take (fastBatch)
    std::vector<Frame> m_frames;
    std::vector<Frame> m_nextFrames;  // the batch after m_frames, hopped while it was parsed
    qint64 m_nextFrom = -1;           // where m_nextFrames starts (-1: none)
    qint64 m_nextEnd = -1;            // the offset after m_nextFrames
    qint64 m_releaseFrom = 0;         // indexed bytes not yet released (releaseLater)
    qint64 m_releaseLength = 0;
    std::vector<RecordIndexer::Fields> m_fields;
    std::vector<int> m_ids;  // qualname id found by the parse threads, or -1
};

namespace {

/** Offset of the end of the key `sm_config_json` inside the first `limit` bytes, or -1. */
qint64 findConfigKeyEnd(const uchar *data, qint64 limit) {
    static const char key[] = "\xaesm_config_json";
    const qint64 n = sizeof(key) - 1;
    for (qint64 p = 4; p + n <= limit; ++p) {
        if (std::memcmp(data + p, key, size_t(n)) == 0) {
            return p + n;
        }
    }
    return -1;
}

}  // namespace

bool TraceLoader::looksLikeTrace(const QByteArray &b) {
    return b.size() >= 17 && isMapMarker(uchar(b[4])) &&
           b.mid(5, 12) == QByteArray("\xa4type\xa6header", 12);
}

bool TraceLoader::readHeader(TraceDocument *doc, QString *error, const Options &options) {
    const QString name = doc->m_file.fileName();
    const uchar *data = doc->m_file.data();
    const qint64 size = doc->m_file.size();
    auto refuse = [&](const QString &msg) {
        *error = QStringLiteral("%1: %2").arg(name, msg);
        if (const qint64 shrunk = doc->m_file.checkShrunk(); shrunk >= 0) {
            *error += QStringLiteral(" (the file shrank to %1 bytes while being read)").arg(shrunk);
        }
        return false;
    };
    // A followed trace may not have its header yet (LMCache writes it with the first record or
    // at attach time): wait for a complete header frame, as long as what is there can begin
    // one (a text file, followed, waited for a 1.8 GB "header" forever).
    // (A byte 4 that cannot begin a map is refused below, as for a plain open.)
    if (options.follow && (size < 5 || isMapMarker(data[4]))) {
        const quint32 claimed = size >= 4 ? qFromBigEndian<quint32>(data) : 0;
        if (claimed > kMaxFollowedHeader) {
            return refuse(QStringLiteral("offset 0: a length prefix of %1 bytes for the trace "
                                         "header (a header frame waited for is at most %2 bytes); "
                                         "this is not an LMCache trace")
                              .arg(claimed)
                              .arg(kMaxFollowedHeader));
        }
        if (size < 5 || 4 + qint64(claimed) > size) {
            return true;
        }
    }
    if (size == 0) {
        return refuse(
            QStringLiteral("offset 0: empty file (0 bytes): expected a trace header frame"));
    }
    if (size < 5) {
        return refuse(
            QStringLiteral("offset 0: only %1 bytes: too short for a header frame (a 4-byte "
                           "length prefix and a msgpack map)")
                .arg(size));
    }
    if (!isMapMarker(data[4])) {
        return refuse(QStringLiteral("offset 4: expected a msgpack map (the trace header), found "
                                     "byte %1; this is not an LMCache trace")
                          .arg(hexByte(data[4])));
    }
    TraceScanner reader(*doc, options);
    const quint32 len0 = reader.lengthAt(0);
    const qint64 frameEnd = 4 + qint64(len0);
    Value headerMap;
    qint64 recordsStart = -1;
    qint64 trailingAt = -1;  // file offset of trailing bytes in the header frame
    bool recovered = false;
    ValueDecoder::Result r;
    if (frameEnd <= size) {
        r = ValueDecoder::decode(reinterpret_cast<const char *>(data + 4), len0);
        if (r.ok() && r.value.isMap()) {
            headerMap = std::move(r.value);
            recordsStart = frameEnd;
        }
    }
    if (recordsStart < 0) {
        // The first frame does not decode on its own. LMCache's first recorder rewrote a longer
        // header over a placeholder, and its records start where the placeholder ended
        // (spec §7.4): after `sm_config_json`, "" (a0), `sm_config_digest`, "" (a0).
        const qint64 keyEnd = findConfigKeyEnd(data, qMin<qint64>(size, 4096));
        qint64 start = -1, next;
        if (keyEnd > 0 && reader.recordFrameAt(keyEnd + 19, &next)) {
            start = keyEnd + 19;
        } else {
            start = reader.findRecordFrame(5, qMin(frameEnd, size));
            // No record at the placeholder's end, but one later: the first record is damaged.
            // Read from the placeholder's end anyway, so that its loss is reported like any
            // other damage instead of being counted as header (unless the header map decoded
            // whole right up to that record and only its length prefix is off).
            const bool wholeHeader =
                r.status == ValueDecoder::Status::ExtraBytes && 4 + r.consumed == start;
            if (start > 0 && keyEnd > 0 && keyEnd + 19 < start && !wholeHeader) {
                start = keyEnd + 19;
            }
        }
        if (start > 4) {
            ValueDecoder::Result salvage =
                ValueDecoder::decode(reinterpret_cast<const char *>(data + 4), start - 4);
            if (salvage.value.isMap()) {
                // Keep only the complete fields; the partial tail is garbage from the records.
                Value fields = Value::map();
                const Value &m = salvage.value;
                for (int i = 0; i < m.size(); ++i) {
                    if (m.at(i).type() != Value::Type::Truncated &&
                        !(m.at(i).isString() && m.keyAt(i) == QLatin1String("sm_config_json") &&
                          frameEnd > start)) {
                        fields.insert(m.keyAt(i), m.at(i));
                    }
                }
                headerMap = std::move(fields);
                recordsStart = start;
                recovered = true;
            }
        }
        if (recordsStart < 0 && r.status == ValueDecoder::Status::ExtraBytes && r.value.isMap()) {
            // One whole map, then bytes that are no rewritten header's records: trailing bytes
            // in the header frame. Read the map, report the rest.
            headerMap = std::move(r.value);
            recordsStart = frameEnd;
            trailingAt = 4 + r.consumed;
        }
        if (recordsStart < 0) {
            if (frameEnd > size) {
                return refuse(QStringLiteral("offset 0: the header frame claims %1 bytes but the "
                                             "file has only %2 after the length prefix; the "
                                             "header is cut short and no record follows")
                                  .arg(len0)
                                  .arg(size - 4));
            }
            return refuse(QStringLiteral("offset 4: the first frame (%1 bytes) is not a msgpack "
                                         "map: %2")
                              .arg(len0)
                              .arg(r.message));
        }
    }
    // What the header map says.
    if (const Value *type = headerMap.find(u"type")) {
        if (type->isString() && type->toString() == QLatin1String("record")) {
            return refuse(
                QStringLiteral("offset 4: the first frame is a record (type \"record\"); "
                               "expected the header frame (type \"header\")"));
        }
        if (!type->isString() || type->toString() != QLatin1String("header")) {
            return refuse(QStringLiteral("offset 4: the first frame has type %1; expected "
                                         "\"header\"")
                              .arg(type->isString() ? QStringLiteral("\"%1\"").arg(type->toString())
                                                    : type->typeName()));
        }
    }
    TraceHeader header(std::move(headerMap));
    if (!header.hasMagic()) {
        if (header.fields().find(u"qualname") && header.fields().find(u"t_mono")) {
            return refuse(
                QStringLiteral("offset 4: the first frame is a record; expected the "
                               "header frame"));
        }
        return refuse(
            QStringLiteral("offset 4: the first frame has no magic field; expected a "
                           "trace header with magic \"LMCT\""));
    }
    if (header.magic() != QLatin1String("LMCT")) {
        return refuse(QStringLiteral("offset 4: header magic is \"%1\"; expected \"LMCT\"")
                          .arg(header.magic().left(40)));
    }
    const auto fv = header.formatVersion();
    if (!fv) {
        return refuse(QStringLiteral("offset 4: header has no integer format_version; expected 1"));
    }
    if (*fv != 1) {
        return refuse(QStringLiteral("offset 4: format_version is %1; this viewer reads "
                                     "format_version 1, the only one LMCache has written")
                          .arg(*fv));
    }
    if (recovered) {
        const bool lost =
            !header.fields().find(u"sm_config_json") || !header.fields().find(u"sm_config_digest");
        header.setConfigLost(lost);
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::HeaderRewritten, 0,
                    QStringLiteral("the header frame claims %1 bytes but records start at offset "
                                   "%2: LMCache's first recorder rewrote its header in place over "
                                   "its own records. The header fields that decode were "
                                   "recovered%3; records are read from offset %2.")
                        .arg(len0)
                        .arg(recordsStart)
                        .arg(lost ? QStringLiteral(" (sm_config_json and sm_config_digest were "
                                                   "overwritten and are lost)")
                                  : QString()));
    }
    if (trailingAt > 0) {
        reader.diag(Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, trailingAt,
                    QStringLiteral("the header frame (offset 0, %1 bytes) holds one msgpack map "
                                   "of %2 bytes, then %3 trailing bytes at offset %4 (a frame "
                                   "body holds exactly one value; LMCache's reader rejects it). "
                                   "The header was read from the map; the trailing bytes are "
                                   "ignored.")
                        .arg(len0)
                        .arg(trailingAt - 4)
                        .arg(frameEnd - trailingAt)
                        .arg(trailingAt));
    }
    const auto schema = header.traceSchemaVersion();
    if (schema && !TraceHeader::isKnownSchema(*schema)) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::UnknownSchema, 4,
                    QStringLiteral("trace_schema_version is %1; this viewer knows 1 and 2. "
                                   "Records are shown as decoded; unknown codec tags are shown "
                                   "generically.")
                        .arg(*schema));
    }
    checkHeaderFieldTypes(header, [&reader](const QString &message) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Header, 4, message);
    });
    const QString level = header.level();
    const Value *levelField = header.field(u"level");
    // (a level that is not a string was warned about above)
    if (!TraceHeader::isKnownLevel(level) && (!levelField || levelField->isString())) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::UnknownLevel, 4,
                    level.isEmpty()
                        ? QStringLiteral("header has no level; expected \"storage\" or \"events\"")
                        : QStringLiteral("level is \"%1\"; this viewer knows \"storage\" and "
                                         "\"events\"")
                              .arg(level.left(60)));
    }
    for (const char *f : {"t_mono_start", "t_wall_start"}) {
        const Value *v = header.field(QString::fromLatin1(f));
        if (!v || !v->isNumber()) {
            reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Header, 4,
                        QStringLiteral("header field %1 is %2; expected a number (seconds)")
                            .arg(QLatin1String(f), v ? v->typeName() : QStringLiteral("missing")));
        }
    }
    if (header.digestStatus() == TraceHeader::DigestStatus::Mismatch) {
        reader.diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Digest, 4,
                    QStringLiteral("sm_config_digest %1 does not match the SHA-256 of "
                                   "sm_config_json (%2)")
                        .arg(header.smConfigDigest().left(64), header.computedDigest()));
    }
    doc->m_header = std::move(header);
    doc->m_recordsStart = recordsStart;
    doc->m_scan.headerRead = true;
    doc->m_scan.pendingFlags = recovered ? RecordStore::AfterResync : 0;
    doc->m_scanOffset.store(recordsStart, std::memory_order_release);
    return true;
}

std::shared_ptr<TraceDocument> TraceLoader::open(const QString &path, QString *error,
                                                 const Options &options) {
    auto doc = std::make_shared<TraceDocument>();
    if (!doc->m_file.open(path, error) || !readHeader(doc.get(), error, options)) {
        return nullptr;
    }
    doc->m_loading.store(true, std::memory_order_release);
    return doc;
}

void TraceLoader::scan(TraceDocument *doc, const Options &options) {
    if (doc->m_scan.headerRead) {
        TraceScanner scanner(*doc, options);
        scanner.readRecords();
        if (options.follow) {
            scanner.reportOrder(true);
        } else {
            scanner.reportOrder();
            scanner.reportDamage();
            if (options.validateArgs && !doc->isPartial()) {
                const int stoppedAt = scanner.validateArgs();
                doc->m_argsCheckCancelledAt.store(stoppedAt, std::memory_order_release);
                doc->m_argsChecked.store(stoppedAt < 0, std::memory_order_release);
            }
        }
        doc->m_readToEnd.store(true, std::memory_order_release);
    }
    if (!options.follow) {
        doc->m_loading.store(false, std::memory_order_release);
    }
}

int TraceLoader::refresh(TraceDocument *doc, QString *error, const Options &options) {
    Options follow = options;
    follow.follow = true;
    doc->m_file.remap(error);
    if (!doc->m_scan.headerRead) {
        if (!readHeader(doc, error, follow)) {
            return -1;
        }
        if (!doc->m_scan.headerRead) {
            return 0;
        }
    }
    const int before = doc->m_records.size();
    scan(doc, follow);
    return doc->m_records.size() - before;
}

void TraceLoader::stopFollowing(TraceDocument *doc) {
    doc->m_loading.store(false, std::memory_order_release);
}

std::shared_ptr<TraceDocument> TraceLoader::load(const QString &path, QString *error,
                                                 const Options &options) {
    auto doc = open(path, error, options);
    if (doc) {
        scan(doc.get(), options);
    }
    return doc;
}

std::shared_ptr<TraceDocument> TraceLoader::loadBytes(const QByteArray &bytes, const QString &name,
                                                      QString *error, const Options &options) {
    auto doc = std::make_shared<TraceDocument>();
    doc->m_file.openBytes(bytes, name);
    if (!readHeader(doc.get(), error, options)) {
        return nullptr;
    }
    doc->m_loading.store(true, std::memory_order_release);
    scan(doc.get(), options);
    return doc;
}

}  // namespace lmct
