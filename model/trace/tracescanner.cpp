#include "trace/tracescanner.h"

#include "trace/mappingguard.h"
#include "util/parallelchunks.h"

#include <QMutex>
#include <QThread>
#include <algorithm>
#include <cmath>

namespace lmct {

namespace {

/** Appended to a diagnostic of a last frame cut short: a trace still being recorded ends so. */
QString stillWrittenHint() {
    return QStringLiteral(
        " (or it is still being written: to read it as it grows, open it with "
        "File > Follow\u2026 in the viewer or lmct-viewer --follow FILE; "
        "lmct info reads only what is there)");
}

}  // namespace

TraceScanner::TraceScanner(TraceDocument &doc, const TraceLoader::Options &opt)
    : FrameProbe(doc.m_file, doc.m_file.size()),
      m_doc(doc),
      m_opt(opt),
      m_store(doc.m_records),
      m_st(doc.m_scan) {
    if (const qint64 shrunk = doc.m_file.shrunkTo(); shrunk >= 0 && shrunk < m_size) {
        m_size = shrunk;
        m_shrunk = true;
    }
}

bool TraceScanner::clipToShrink(bool force) {
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

bool TraceScanner::checkShrink() {
    return clipToShrink();
}

void TraceScanner::diag(Diagnostic::Severity s, Diagnostic::Kind k, qint64 offset,
                        const QString &msg) {
    m_doc.addDiagnostic(Diagnostic{s, k, offset, msg}, m_opt.maxDiagnostics);
}

void TraceScanner::damage(qint64 bytes, qint64 frames, qint64 recovered, bool partial) {
    QMutexLocker lock(&m_doc.m_mutex);
    m_doc.m_damage.skippedBytes += bytes;
    m_doc.m_damage.skippedFrames += frames;
    m_doc.m_damage.recoveredFrames += recovered;
    m_doc.m_damage.partial = m_doc.m_damage.partial || partial;
}

void TraceScanner::append(qint64 off, quint32 len, const RecordIndexer::Fields &f, int knownId) {
    const quint32 id = knownId >= 0 ? quint32(knownId) : m_store.intern(f.qualname, f.qualnameSize);
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

qint64 TraceScanner::hop(qint64 off, std::vector<Frame> &frames, int maxFrames) const {
    // Also at most this many bytes per batch: progress and cancel are handled between
    // batches, and 2^15 large records can be the whole file.
    static constexpr qint64 kBatchBytes = 4 << 20;
    static constexpr qint64 kFetchAhead = 2048, kCacheLine = 64;
    frames.clear();
    qint64 p = off;
    bool badLength = false;
    qint64 fetched = off;  // bytes before this are being fetched into the cache
    while (int(frames.size()) < maxFrames && p - off < kBatchBytes && m_size - p >= 4) {
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
    // While following, the frame the mapping ends on is left to the careful path too: bytes
    // not yet written cannot show that its length is right (valueFillsFrame()).
    if (m_opt.follow && p == m_size && !frames.empty()) {
        p = frames.back().off;
        frames.pop_back();
    }
    return p;
}

void TraceScanner::parseRange(const std::vector<Frame> &frames,
                              std::vector<RecordIndexer::Fields> &fields, std::vector<int> &ids,
                              int from, int to) const {
    // The fields the index needs lie in a body's first two cache lines and the hop only
    // touched the first: fetch the second a few frames ahead, or the parse stalls on
    // memory once per record (1.37 GB trace: 0.48 -> 0.35 user CPU s for lmct info).
    constexpr int kAhead = 6;
    for (int i = from; i < std::min(to, from + kAhead); ++i) {
        __builtin_prefetch(body(frames[size_t(i)].off) + 60);
    }
    for (int i = from; i < to; ++i) {
        if (i + kAhead < to) {
            __builtin_prefetch(body(frames[size_t(i + kAhead)].off) + 60);
        }
        RecordIndexer::Fields &f = fields[size_t(i)];
        f = RecordIndexer::parse(body(frames[size_t(i)].off), frames[size_t(i)].len,
                                 RecordIndexer::Mode::Index);
        // Also look the qualname up among the names interned so far, while its bytes are in
        // the cache; the appending thread then interns only new names.
        ids[size_t(i)] = f.status == RecordIndexer::Status::Ok
                             ? m_store.findInterned(f.qualname, f.qualnameSize)
                             : -1;
    }
}

QList<QPair<int, int>> TraceScanner::parseChunks(int n) {
    const int threads = qMax(1, QThread::idealThreadCount());
    QList<QPair<int, int>> chunks;
    // A 4 MiB batch of large records (about 1 500 of 2.8 KB) is still worth two threads.
    if (n < 256 || threads == 1) {
        return chunks;
    }
    const int step = (n + threads * 4 - 1) / (threads * 4);
    for (int i = 0; i < n; i += step) {
        chunks.append({i, qMin(n, i + step)});
    }
    return chunks;
}

void TraceScanner::releasePending() {
    if (m_releaseLength > 0) {  // batches appended already
        m_doc.m_file.releaseResident(m_releaseFrom, m_releaseLength);
        m_releaseLength = 0;
    }
}

bool TraceScanner::parseBatch(qint64 off) {
    qint64 p = 0;
    if (m_nextFrom == off && m_nextEnd > off && m_nextEnd <= m_size) {
        std::swap(m_frames, m_nextFrames);  // hopped while the previous batch was parsed
        p = m_nextEnd;
    } else {
        p = hop(off, m_frames, m_batchFrames);
    }
    m_nextFrom = -1;
    if (m_frames.empty()) {
        return false;
    }
    const int n = int(m_frames.size());
    m_fields.resize(size_t(n));
    m_ids.resize(size_t(n));
    const QList<QPair<int, int>> chunks = parseChunks(n);
    if (chunks.isEmpty()) {
        parseRange(m_frames, m_fields, m_ids, 0, n);
    } else {
        // Item 0 hops the next batch (taken first, so it overlaps the parsing); the frames
        // it finds are used only if this batch turns out whole (m_nextFrom). Item 1
        // releases the pages of the batches appended before, on the other core: in the hop's
        // item, hop and release were one serial path longer than the parse (1.37 GB trace:
        // 0.35 -> 0.31 s wall for lmct info at load 1.5, medians of 7, alternated).
        const bool hopNext = p < m_size && m_size - p >= 4;
        qint64 nextEnd = p;
        const qint64 first = m_store.size();
        // Item 2 makes the store's pages for this batch resident, so that the serial appends
        // do not fault on fresh memory page by page.
        ParallelChunks::run(int(chunks.size()) + 3, [&](int k) {
            if (k == 0) {
                if (hopNext) {
                    nextEnd = hop(p, m_nextFrames, m_batchFrames);
                }
            } else if (k == 1) {
                releasePending();
            } else if (k == 2) {
                m_store.prefault(first, n);
            } else {
                parseRange(m_frames, m_fields, m_ids, chunks[k - 3].first, chunks[k - 3].second);
            }
        });
        if (hopNext && nextEnd > p) {
            m_nextFrom = p;
            m_nextEnd = nextEnd;
        }
    }
    m_parsedFrom = off;
    m_parsedEnd = p;
    return true;
}

qint64 TraceScanner::appendParsed(qint64 end, bool shrank) {
    const int n = int(m_frames.size());
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
            return m_frames[size_t(i)].off;
        }
        // The frame after this one is no record: this one's length prefix may be too long
        // and the hop went on from inside the next frame (a prefix one too long lands on
        // a length that fits any large file; the next record was lost).
        if (i + 1 < n && m_fields[size_t(i) + 1].status != RecordIndexer::Status::Ok) {
            if (const qint64 x = valueEndsAtRecordFrame(m_frames[size_t(i)]); x >= 0) {
                keepAtValueEnd(m_frames[size_t(i)], x, f, m_ids[size_t(i)]);
                m_batchFrames = std::max(kMinBatch, 2 * i);
                return x;
            }
            if (m_opt.follow) {  // the careful path tells whether to wait for more
                m_batchFrames = std::max(kMinBatch, 2 * i);
                return m_frames[size_t(i)].off;
            }
        }
        append(m_frames[size_t(i)].off, m_frames[size_t(i)].len, f, m_ids[size_t(i)]);
    }
    m_batchFrames = std::min(kBatch, 2 * m_batchFrames);
    return end;
}

qint64 TraceScanner::fastBatch(qint64 off) {
    if (m_parsedFrom != off && !parseBatch(off)) {
        return off;
    }
    const qint64 end = m_parsedEnd;
    m_parsedFrom = -1;
    // The file may have been truncated while it was parsed (the frames read past its new end
    // read as zeros): only frames wholly inside the file as it is now are appended.
    const bool shrank = clipToShrink();
    if (shrank) {
        m_nextFrom = -1;  // hopped over what is no longer there
    }
    const QList<QPair<int, int>> chunks =
        m_nextFrom == end && m_nextEnd > end && m_nextEnd <= m_size
            ? parseChunks(int(m_nextFrames.size()))
            : QList<QPair<int, int>>();
    if (chunks.isEmpty()) {
        const qint64 after = appendParsed(end, shrank);
        if (after != end) {
            m_nextFrom = -1;
        }
        return after;
    }
    // The appends are serial (about 17 ns per small record): they run as one item while the
    // other items parse the next batch, hop the one after it and make the store's pages for
    // the next batch resident. What they prepare is used only if this batch turns out whole.
    const int n = int(m_nextFrames.size());
    m_nextFields.resize(size_t(n));
    m_nextIds.resize(size_t(n));
    const qint64 q = m_nextEnd;
    const bool hopNext = q < m_size && m_size - q >= 4;
    qint64 afterEnd = q;
    const int batchFrames = m_batchFrames;  // (the appends change it)
    const qint64 first = m_store.size() + qint64(m_frames.size());
    qint64 after = end;
    ParallelChunks::run(int(chunks.size()) + 4, [&](int k) {
        if (k == 0) {
            if (hopNext) {
                afterEnd = hop(q, m_afterFrames, batchFrames);
            }
        } else if (k == 1) {
            after = appendParsed(end, false);
        } else if (k == 2) {
            releasePending();
        } else if (k == 3) {
            m_store.prefault(first, n);
        } else {
            parseRange(m_nextFrames, m_nextFields, m_nextIds, chunks[k - 4].first,
                       chunks[k - 4].second);
        }
    });
    if (after != end) {
        m_nextFrom = -1;
        return after;
    }
    std::swap(m_frames, m_nextFrames);
    std::swap(m_fields, m_nextFields);
    std::swap(m_ids, m_nextIds);
    m_parsedFrom = end;
    m_parsedEnd = q;
    m_nextFrom = -1;
    if (hopNext && afterEnd > q) {
        std::swap(m_nextFrames, m_afterFrames);
        m_nextFrom = q;
        m_nextEnd = afterEnd;
    }
    return end;
}

void TraceScanner::keepUpTo(qint64 off, qint64 x, const RecordIndexer::Fields &f, int id,
                            const QString &message) {
    diag(Diagnostic::Severity::Error, Diagnostic::Kind::Resync, off, message);
    m_st.pendingFlags = RecordStore::AfterResync;
    append(off, quint32(x - off - 4), f, id);
}

void TraceScanner::keepAtValueEnd(const Frame &frame, qint64 x, const RecordIndexer::Fields &f,
                                  int id) {
    const bool tooShort = x > frame.off + 4 + qint64(frame.len);
    keepUpTo(frame.off, x, f, id,
             (tooShort ? QStringLiteral("frame at offset %1 claims %2 bytes, but its record goes "
                                        "on for %3, up to the record frame at offset %4 (length "
                                        "prefix too short?): the record is kept with that "
                                        "length, nothing skipped")
                       : QStringLiteral("frame at offset %1 claims %2 bytes, but its record ends "
                                        "after %3, where the record frame at offset %4 starts "
                                        "(corrupted length prefix?): the record is kept with "
                                        "that length, nothing skipped"))
                 .arg(frame.off)
                 .arg(frame.len)
                 .arg(x - frame.off - 4)
                 .arg(x));
}

qint64 TraceScanner::valueEndsAtRecordFrame(const Frame &frame) const {
    const RecordIndexer::Fields full = RecordIndexer::parse(
        body(frame.off), std::min<qint64>(frame.len, kMaxKeptBody), RecordIndexer::Mode::Full);
    qint64 next = 0;
    if (full.trailingAt > 0) {
        const qint64 x = frame.off + 4 + full.trailingAt;
        return recordFrameAt(x, &next) ? x : -1;
    }
    if (full.status != RecordIndexer::Status::Malformed || full.trailingAt >= 0 ||
        qint64(frame.len) > kMaxKeptBody) {
        return -1;
    }
    // Cut short (or damaged inside): whole up to the next record frame?
    const qint64 end = frame.off + 4 + qint64(frame.len);
    const qint64 x = findRecordFrame(end, std::min(m_size, frame.off + 4 + kMaxKeptBody + 1));
    if (x < 0) {
        return -1;
    }
    const RecordIndexer::Fields longer =
        RecordIndexer::parse(body(frame.off), x - frame.off - 4, RecordIndexer::Mode::Full);
    return longer.status == RecordIndexer::Status::Ok && longer.trailingAt < 0 ? x : -1;
}

bool TraceScanner::valueFillsFrame(const Frame &frame) const {
    if (qint64(frame.len) > kMaxKeptBody) {
        return true;
    }
    const RecordIndexer::Fields full =
        RecordIndexer::parse(body(frame.off), frame.len, RecordIndexer::Mode::Full);
    return full.status == RecordIndexer::Status::Ok && full.trailingAt < 0;
}

bool TraceScanner::resync(qint64 *off, const QString &what) {
    const qint64 next = findRecordFrame(*off + 1, m_size);
    if (next < 0) {
        return false;
    }
    // The bytes up to that frame may be one whole record under a damaged length prefix (too
    // long: the next frame lies inside what it claims, or it claims more than the file
    // holds): its value fills them exactly. Then nothing is lost: the record is kept with
    // that length, flagged AfterResync (it was skipped, with the bytes up to the next frame).
    // (Not tried past kMaxKeptBody.)
    if (const qint64 bodyLength = next - *off - 4; bodyLength > 0 && bodyLength <= kMaxKeptBody) {
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

void TraceScanner::readRecords() {
    m_nextFrom = -1;  // frames hopped by an earlier scan may lie in a remapped file
    m_parsedFrom = -1;
    qint64 off = m_doc.m_scanOffset.load(std::memory_order_relaxed);
    qint64 lastProgress = off;
    auto publish = [&] { m_doc.m_scanOffset.store(off, std::memory_order_release); };
    clipToShrink();  // truncated since the last scan (a followed file)?
    while (off < m_size) {
        publish();
        if (m_opt.cancel && m_opt.cancel->load(std::memory_order_relaxed)) {
            damage(0, 0, 0, true);
            diag(Diagnostic::Severity::Warning, Diagnostic::Kind::Note, off,
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
                                "length prefix; the file was cut short%3")
                     .arg(rem)
                     .arg(off)
                     .arg(stillWrittenHint()));
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
            if (m_opt.follow) {
                break;  // the record frame to resync on may still be being written
            }
            diag(Diagnostic::Severity::Error, Diagnostic::Kind::Truncated, off,
                 QStringLiteral("the last frame, at offset %1, claims %2 bytes but only %3 "
                                "follow: the file was cut short; %4 bytes at offset %1 left "
                                "unread%5")
                     .arg(off)
                     .arg(len)
                     .arg(rem - 4)
                     .arg(rem)
                     .arg(stillWrittenHint()));
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
            // While following, the end of the file is only where the writer has got to: a
            // frame that ends there, or one there that ends there, proves nothing.
            qint64 after = 0;
            const auto chainGoesOn = [&] {
                if (m_size - frameEnd < 4) {
                    return false;
                }
                const qint64 next = frameEnd + 4 + qint64(lengthAt(frameEnd));
                return (next == m_size && !m_opt.follow) || recordFrameAt(next, &after);
            };
            if ((frameEnd < m_size || m_opt.follow) && !recordFrameAt(frameEnd, &after) &&
                !chainGoesOn()) {
                if (const qint64 x = valueEndsAtRecordFrame({off, len}); x >= 0) {
                    keepAtValueEnd({off, len}, x, f);
                    off = x;
                    continue;
                }
                // Its value does not fill it and no record frame follows yet: wait for one
                // (a length prefix too long would otherwise send the scan into the middle of
                // the next record, where 4 bytes read as a length are waited for forever).
                if (m_opt.follow && !valueFillsFrame({off, len}) &&
                    findRecordFrame(frameEnd, m_size) < 0) {
                    break;
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
        // (While following, not what the end of the file shows: more is still to come.)
        const bool lengthTrusted =
            f.status == RecordIndexer::Status::BadFields || recordFrameAt(frameEnd, &dummy) ||
            (!m_opt.follow &&
             (frameEnd == m_size ||
              (m_size - frameEnd >= 4 && qint64(lengthAt(frameEnd)) > m_size - frameEnd - 4 &&
               findRecordFrame(off + 1, frameEnd) < 0)));
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
        const qint64 inside = findRecordFrame(off + 1, frameEnd);
        // Another frame written short may lie between (a disk full twice): each is said.
        if (const qint64 next = cutShort(inside) ? findPartialRecordFrame(off + 1, inside) : -1;
            next >= 0 &&
            RecordIndexer::parse(body(off), next - off - 4, RecordIndexer::Mode::Full).status !=
                RecordIndexer::Status::Ok) {
            diag(Diagnostic::Severity::Error, Diagnostic::Kind::Resync, off,
                 QStringLiteral("partial frame at offset %1: its length prefix claims %2 bytes, "
                                "but only %3 bytes (prefix included) come before the frame at "
                                "offset %4, itself written short (a frame written short, e.g. on "
                                "a full disk; frames written after it and lost are not in the "
                                "file); skipped bytes %1..%5 (%3 bytes)")
                     .arg(off)
                     .arg(len)
                     .arg(next - off)
                     .arg(next)
                     .arg(next - 1));
            damage(next - off, 0);
            m_st.pendingFlags = RecordStore::AfterResync;
            off = next;
            continue;
        }
        if (cutShort(inside) &&
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
        if (m_opt.follow) {
            break;  // the record frame to resync on may still be being written
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

void TraceScanner::releaseLater(qint64 from, qint64 length) {
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

}  // namespace lmct
