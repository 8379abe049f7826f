#include "trace/frameprobe.h"

#include <cstring>

namespace lmct {

bool FrameProbe::recordFrameAt(qint64 pos, qint64 *next, RecordIndexer::Fields *fields) const {
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

qint64 FrameProbe::findRecordFrame(qint64 from, qint64 to) const {
    static constexpr qint64 kReleaseEvery = 4 << 20;
    to = qMin(to, m_size - 5);
    qint64 scanned = qMax<qint64>(from, 0);  // start of the pages not yet released
    for (qint64 p = qMax<qint64>(from, 0); p < to; ++p) {
        if (p - scanned >= kReleaseEvery) {
            m_file.releaseResident(scanned, p - scanned);
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

qint64 FrameProbe::findPartialRecordFrame(qint64 from, qint64 to) const {
    static constexpr char kTag[] = "\xa4type\xa6record";
    static constexpr qint64 kTagSize = sizeof(kTag) - 1;
    // (a frame cut within its tag: as much of it as lies before `to`, 4 bytes at least)
    static constexpr qint64 kMinTag = 4;
    const qint64 last = qMin(to, m_size) - 5 - kMinTag;
    for (qint64 p = qMax<qint64>(from, 0); p <= last; ++p) {
        if (!isMapMarker(m_data[p + 4]) || m_data[p] != 0) {
            continue;
        }
        const qint64 len = lengthAt(p);
        const qint64 tag = qMin(kTagSize, qMin(to, m_size) - p - 5);
        if (len >= 8 && p + 4 + len > to && std::memcmp(m_data + p + 5, kTag, size_t(tag)) == 0) {
            return p;
        }
    }
    return -1;
}

QString FrameProbe::framesTakenIn(qint64 from, qint64 end) const {
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

}  // namespace lmct
