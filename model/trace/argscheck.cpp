#include "trace/argscheck.h"

#include "util/parallelchunks.h"

#include <QMutex>
#include <QThread>
#include <algorithm>

namespace lmct {

ArgsCheck::ArgsCheck(TraceDocument &doc, TraceScanner &scanner, const TraceLoader::Options &opt)
    : m_doc(doc), m_scanner(scanner), m_opt(opt), m_store(doc.m_records) {}

int ArgsCheck::run() {
    m_scanner.checkShrink();
    // (records read before the file shrank past them have no arguments any more)
    const int n = m_scanner.hasShrunk() ? m_doc.recordsWithin(m_scanner.scanEnd()) : m_store.size();
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
            const RecordIndexer::Fields f =
                RecordIndexer::parse(m_scanner.body(m_store.frameOffset(i)), m_store.bodyLength(i),
                                     RecordIndexer::Mode::Full);
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
    m_scanner.checkShrink();
    for (int i : bad) {
        const qint64 off = m_store.frameOffset(i);
        if (off + 4 + m_store.bodyLength(i) > m_scanner.scanEnd()) {
            break;  // read zeros past the end of a file that shrank: not damage
        }
        const RecordIndexer::Fields f = RecordIndexer::parse(
            m_scanner.body(off), m_store.bodyLength(i), RecordIndexer::Mode::Full);
        m_store.setFlag(i, RecordStore::BadArgs);
        if (f.trailingAt >= 0) {
            m_scanner.diag(
                Diagnostic::Severity::Error, Diagnostic::Kind::Malformed, off,
                QStringLiteral("record %1 (frame at offset %2, %3 bytes): its body is %4 "
                               "(LMCache's reader rejects such a frame; this viewer keeps "
                               "the record, flagged)%5")
                    .arg(i)
                    .arg(off)
                    .arg(m_store.bodyLength(i))
                    .arg(f.message, m_scanner.framesTakenIn(off + 4 + f.trailingAt,
                                                            off + 4 + m_store.bodyLength(i))));
            continue;
        }
        // A limit is no damage: the arguments may be valid msgpack, only more than is decoded.
        const bool limit = f.status == RecordIndexer::Status::Limit;
        m_scanner.diag(
            Diagnostic::Severity::Error,
            limit ? Diagnostic::Kind::Limit : Diagnostic::Kind::Malformed, off,
            (limit ? QStringLiteral("record %1 (frame at offset %2, %3 bytes): its t_mono, "
                                    "t_wall and qualname are intact but its arguments exceed a "
                                    "decoding limit: %4")
                   : QStringLiteral("record %1 (frame at offset %2, %3 bytes): its t_mono, "
                                    "t_wall and qualname are intact but its arguments are "
                                    "damaged: %4"))
                .arg(i)
                .arg(off)
                .arg(m_store.bodyLength(i))
                .arg(f.message));
    }
    if (stoppedAt >= 0) {
        const qint64 off = m_store.frameOffset(stoppedAt);
        m_scanner.diag(
            Diagnostic::Severity::Warning, Diagnostic::Kind::Note, off,
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

}  // namespace lmct
