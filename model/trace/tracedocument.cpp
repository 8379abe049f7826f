#include "trace/tracedocument.h"

#include "codec/valuedecoder.h"
#include "trace/mappingguard.h"
#include "trace/recordindexer.h"
#include "util/parallelchunks.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <vector>

namespace lmct {

QString TraceDocument::fileName() const {
    return QFileInfo(m_file.fileName()).fileName();
}

void TraceDocument::noteShrink(int cap) const {
    // Each shrink below the sizes noted before gets its own diagnostic (a file cut again).
    const qint64 shrunk = m_file.shrunkTo();
    if (shrunk < 0) {
        return;
    }
    qint64 noted = m_shrinkNoted.load(std::memory_order_relaxed);
    do {
        if (noted >= 0 && shrunk >= noted) {
            return;
        }
    } while (!m_shrinkNoted.compare_exchange_weak(noted, shrunk, std::memory_order_acq_rel));
    // The indexed records whose frames no longer fit in the file, if any.
    const int n = m_records.size();
    const int lost = recordsWithin(shrunk);
    QString which;
    if (lost < n) {
        which = QStringLiteral(" (records %1 to %2 of those read)").arg(lost).arg(n - 1);
    }
    // Documents are made non-const (TraceLoader); the diagnostics are guarded by m_mutex.
    if (m_file.rewritten()) {
        const_cast<TraceDocument *>(this)->addDiagnostic(
            Diagnostic{Diagnostic::Severity::Error, Diagnostic::Kind::Shrank, shrunk,
                       QStringLiteral("%1: offset %2: the file was cut and written again while "
                                      "being read (another process truncated it, then wrote "
                                      "it, now %3 bytes): its bytes from offset %2 on are not "
                                      "those read, and the records after offset %2 are no "
                                      "longer readable%4")
                           .arg(m_file.fileName())
                           .arg(shrunk)
                           .arg(QFileInfo(m_file.fileName()).size())
                           .arg(which)},
            cap);
        return;
    }
    const_cast<TraceDocument *>(this)->addDiagnostic(
        Diagnostic{Diagnostic::Severity::Error, Diagnostic::Kind::Shrank, shrunk,
                   QStringLiteral("%1: offset %2: the file shrank to %2 bytes while being read "
                                  "(from %3 bytes; truncated by another process): the records "
                                  "after offset %2 are no longer readable%4")
                       .arg(m_file.fileName())
                       .arg(shrunk)
                       .arg(m_file.size())
                       .arg(which)},
        cap);
}

qint64 TraceDocument::checkShrunk() const {
    const qint64 shrunk = m_file.checkShrunk();
    if (shrunk >= 0) {
        noteShrink();
    }
    return shrunk;
}

qint64 TraceDocument::checkRewritten() const {
    const qint64 shrunk = checkShrunk();
    if (shrunk >= 0 || !m_file.changedSinceMapped()) {
        return shrunk;
    }
    // Changed since mapped: appended to (a trace still recorded), or cut and written again
    // (the pages read then hold the new bytes, and no read faults). Are the bytes read there?
    const uchar *data = m_file.data();
    const qint64 mapped = m_file.size();
    qint64 changedAt = -1;
    if (m_recordsStart > 0 &&
        (m_recordsStart > mapped || qHashBits(data, size_t(m_recordsStart), 0) != m_headerDigest)) {
        changedAt = 0;
    } else {
        const int n = m_records.size();
        const int step = 1 << 14;
        const int chunks = (n + step - 1) / step;
        std::vector<int> firstChanged(size_t(chunks), -1);
        ParallelChunks::run(chunks, [&](int c) {
            for (int i = c * step, end = std::min(n, (c + 1) * step); i < end; ++i) {
                const qint64 off = m_records.frameOffset(i);
                const quint32 len = m_records.bodyLength(i);
                const double was = m_records.tMono(i);
                bool same = off + 4 + qint64(len) <= mapped;
                if (same) {
                    const RecordIndexer::Fields f =
                        RecordIndexer::parse(reinterpret_cast<const char *>(data + off + 4), len,
                                             RecordIndexer::Mode::Index);
                    same = f.status == RecordIndexer::Status::Ok &&
                           (f.tMono == was || (std::isnan(f.tMono) && std::isnan(was)));
                }
                if (!same) {
                    firstChanged[size_t(c)] = i;
                    return;
                }
            }
        });
        for (const int i : firstChanged) {
            if (i >= 0) {
                changedAt = m_records.frameOffset(i);
                break;
            }
        }
    }
    if (changedAt < 0) {
        m_file.restamp();      // only appended to: the next check is one fstat again
        return checkShrunk();  // (unless cut meanwhile)
    }
    m_file.noteRewrittenFrom(changedAt);
    noteShrink();
    return m_file.shrunkTo();
}

QString TraceDocument::shrinkSentence(qint64 *size) const {
    const qint64 shrunk = checkRewritten();
    if (size) {
        *size = shrunk;
    }
    if (shrunk < 0) {
        return QString();
    }
    if (m_file.rewritten()) {
        return QStringLiteral(
                   "%1 was cut and written again while being read: its bytes from "
                   "offset %2 on are not those read")
            .arg(filePath())
            .arg(shrunk);
    }
    return QStringLiteral("%1 shrank to %2 bytes while being read (truncated by another process?)")
        .arg(filePath())
        .arg(shrunk);
}

DiagnosticList TraceDocument::diagnostics() const {
    QMutexLocker lock(&m_mutex);
    return m_diagnostics;
}

qint64 TraceDocument::diagnosticCount() const {
    QMutexLocker lock(&m_mutex);
    return m_diagnosticCount;
}

TraceDocument::Damage TraceDocument::damage() const {
    QMutexLocker lock(&m_mutex);
    return m_damage;
}

int TraceDocument::setDiagnostic(int at, const Diagnostic &d, int cap) {
    QMutexLocker lock(&m_mutex);
    if (at < 0) {
        return appendLocked(d, cap);
    }
    if (at >= m_diagnostics.size()) {
        return -1;
    }
    auto adjust = [this](Diagnostic::Severity s, int by) {
        if (s == Diagnostic::Severity::Error) {
            m_errorTotal += by;
        } else if (s == Diagnostic::Severity::Warning) {
            m_warningTotal += by;
        }
    };
    adjust(m_diagnostics[at].severity, -1);
    adjust(d.severity, 1);
    m_diagnostics[at] = d;
    m_diagnosticsRevision.fetch_add(1, std::memory_order_release);
    return at;
}

void TraceDocument::noteOnce(const Diagnostic &d) const {
    // Documents are made non-const (TraceLoader); the diagnostics are guarded by m_mutex.
    auto *self = const_cast<TraceDocument *>(this);
    QMutexLocker lock(&m_mutex);
    for (const Diagnostic &o : std::as_const(self->m_diagnostics)) {
        if (o.kind == d.kind && o.message == d.message) {
            return;
        }
    }
    self->appendLocked(d, 10000);
}

void TraceDocument::addDiagnostic(const Diagnostic &d, int cap) {
    QMutexLocker lock(&m_mutex);
    appendLocked(d, cap);
}

int TraceDocument::appendLocked(const Diagnostic &d, int cap) {
    ++m_diagnosticCount;
    if (d.severity == Diagnostic::Severity::Error) {
        ++m_errorTotal;
    } else if (d.severity == Diagnostic::Severity::Warning) {
        ++m_warningTotal;
    }
    if (m_diagnostics.size() < cap) {
        m_diagnostics.append(d);
        return int(m_diagnostics.size()) - 1;
    }
    if (m_diagnostics.size() == cap) {
        m_diagnostics.append(Diagnostic{
            Diagnostic::Severity::Info, Diagnostic::Kind::Note, -1,
            QStringLiteral("more diagnostics follow; only the first %1 are listed").arg(cap)});
    }
    return -1;
}

int TraceDocument::warningCount() const {
    QMutexLocker lock(&m_mutex);
    return int(m_warningTotal);
}

int TraceDocument::errorCount() const {
    QMutexLocker lock(&m_mutex);
    return int(m_errorTotal);
}

std::shared_ptr<const TraceDocument::Args> TraceDocument::args(int i) const {
    {
        QMutexLocker lock(&m_cacheMutex);
        if (auto *hit = m_argsCache.object(i)) {
            return *hit;
        }
    }
    std::shared_ptr<const Args> result = std::make_shared<Args>(decodeArgs(i));
    QMutexLocker lock(&m_cacheMutex);
    m_argsCache.insert(i, new std::shared_ptr<const Args>(result));
    return result;
}

TraceDocument::Args TraceDocument::decodeArgs(int i) const {
    Args out;
    if (i < 0 || i >= m_records.size()) {
        out.error = QStringLiteral("no record %1").arg(i);
        out.value = Value::map();
        return out;
    }
    const qint64 off = m_records.frameOffset(i) + 4;
    const auto *body = reinterpret_cast<const char *>(m_file.data() + off);
    ValueDecoder::Result r = ValueDecoder::decode(body, m_records.bodyLength(i));
    if (!r.ok()) {
        out.error = r.message;
    }
    // A file truncated under us reads as zeros past its new end (MappingGuard): those are
    // not the record's bytes. Checked only after a failed decode or an absorbed fault.
    const qint64 end = off + qint64(m_records.bodyLength(i));
    qint64 shrunk = m_file.shrunkTo();
    if (shrunk < 0 && (!r.ok() || MappingGuard::faultCount() > 0)) {
        shrunk = m_file.checkShrunk();
    }
    if (shrunk >= 0 && end > shrunk) {
        noteShrink();
        out.error = QStringLiteral(
                        "the file shrank to %1 bytes while being read: record %2 "
                        "(frame at offset %3, %4 bytes) is no longer there")
                        .arg(shrunk)
                        .arg(i)
                        .arg(off - 4)
                        .arg(m_records.bodyLength(i));
        out.value = Value::map();
        return out;
    }
    if (const Value *a = r.value.find(u"args")) {
        out.value = std::move(*const_cast<Value *>(a));
    } else {
        if (out.error.isEmpty()) {
            out.error = QStringLiteral("no args map");
        }
        out.value = Value::map();
    }
    return out;
}

void TraceDocument::releaseRecordPages(int first, int last) const {
    const int n = m_records.size();
    if (first < 0 || last < 0 || first >= n || last >= n) {
        return;
    }
    if (last < first) {
        std::swap(first, last);
    }
    const qint64 from = m_records.frameOffset(first);
    const qint64 to = m_records.frameOffset(last) + 4 + m_records.bodyLength(last);
    if (to > from) {
        m_file.releaseResident(from, to - from);
    }
}

QByteArray TraceDocument::frameBytes(int i) const {
    if (i < 0 || i >= m_records.size()) {
        return QByteArray();
    }
    return QByteArray::fromRawData(
        reinterpret_cast<const char *>(m_file.data() + m_records.frameOffset(i)),
        qsizetype(m_records.bodyLength(i)) + 4);
}

int TraceDocument::readableRecordCount() const {
    const qint64 shrunk = checkShrunk();
    return shrunk < 0 ? m_records.size() : recordsWithin(shrunk);
}

int TraceDocument::recordsWithin(qint64 end) const {
    if (m_records.isEmpty()) {
        return 0;
    }
    const int r = recordNearOffset(end);  // frames ascend: the one `end` falls in
    return m_records.frameOffset(r) + 4 + qint64(m_records.bodyLength(r)) <= end ? r + 1 : r;
}

int TraceDocument::recordNearOffset(qint64 offset) const {
    const int n = m_records.size();
    if (n == 0) {
        return -1;
    }
    int lo = 0, hi = n - 1;
    if (offset <= m_records.frameOffset(0)) {
        return 0;
    }
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (m_records.frameOffset(mid) <= offset) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

}  // namespace lmct
