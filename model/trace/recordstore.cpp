#include "trace/recordstore.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace lmct {

namespace {

constexpr qint64 kPage = 4096;

qint64 roundUpToPage(qint64 bytes) {
    return (bytes + kPage - 1) / kPage * kPage;
}

/** Heap bytes of one interned name: its UTF-16 and UTF-8 copies (header, data, terminator), a
 *  QList slot and a QHash node. The containers' growth slack is not counted. */
qint64 internedBytes(const QString &name, const QByteArray &utf8) {
    return 2 * qint64(sizeof(QArrayData)) + (name.size() + 1) * qint64(sizeof(QChar)) +
           (utf8.size() + 1) + qint64(sizeof(QByteArray)) +
           qint64(sizeof(QByteArray) + sizeof(quint32));
}

// t_wall in [2^30, 2^31) seconds is kWallLow + k · 2^-22 for a whole k < 2^52 (a double's
// spacing there): Chunk::wallDelta stores k less predictedSteps() as a qint32.
constexpr double kWallLow = 1073741824.0;   // 2^30 s: January 2004
constexpr double kWallHigh = 2147483648.0;  // 2^31 s: January 2038
constexpr double kWallSteps = 4194304.0;    // steps per second, 2^22

/**
 * The step count of t_mono + base, truncated to a whole number; NaN when that is not a time near
 * the range. The same arithmetic when storing and reading (no multiply-add to contract), so it
 * predicts the same number from the same doubles. (No std::floor: a libm call per record on the
 * loader's serial path.)
 */
double predictedSteps(double tMono, double base) {
    const double x = (tMono + base - kWallLow) * kWallSteps;
    return std::abs(x) < 4.0e18 ? double(qint64(x)) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

RecordStore::Chunk::Chunk(qint64 capacity)
    : tMono(new double[size_t(capacity)]),
      wallDelta(new qint32[size_t(capacity)]),
      offset(new qint64[size_t(capacity)]),
      qualname(new quint32[size_t(capacity)]),
      length(new quint32[size_t(capacity)]),
      flags(new std::atomic<quint8>[size_t(capacity)]),
      wallBase(new double[size_t((capacity + kWallBlock - 1) / kWallBlock)]) {
    std::fill_n(wallBase.get(), (capacity + kWallBlock - 1) / kWallBlock,
                std::numeric_limits<double>::quiet_NaN());
}

RecordStore::Chunk::~Chunk() {
    delete[] tMono;
    delete[] wallDelta;
    delete[] wallExact.load(std::memory_order_relaxed);
    delete[] offset;
    delete[] qualname;
    delete[] length;
    delete[] flags;
}

RecordStore::RecordStore()
    : m_names(new QString[kMaxQualnames]), m_counts(new std::atomic<qint64>[kMaxQualnames]) {
    for (int i = 0; i < kMaxChunks; ++i) {
        m_chunks[size_t(i)].store(nullptr, std::memory_order_relaxed);
    }
    for (int i = 0; i < kMaxQualnames; ++i) {
        m_counts[size_t(i)].store(0, std::memory_order_relaxed);
    }
}

RecordStore::~RecordStore() {
    for (int i = 0; i < kMaxChunks; ++i) {
        delete m_chunks[size_t(i)].load(std::memory_order_relaxed);
    }
}

QStringList RecordStore::qualnames() const {
    QStringList out;
    const int n = qualnameCount();
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
        out.append(m_names[size_t(i)]);
    }
    return out;
}

std::vector<qint64> RecordStore::qualnameCounts() const {
    const int n = qualnameCount();
    std::vector<qint64> out(size_t(n), 0);
    for (int i = 0; i < n; ++i) {
        out[size_t(i)] = m_counts[size_t(i)].load(std::memory_order_relaxed);
    }
    return out;
}

int RecordStore::qualnameIdOf(const QString &qualname) const {
    const int n = qualnameCount();
    for (int i = 0; i < n; ++i) {
        if (m_names[size_t(i)] == qualname) {
            return i;
        }
    }
    return -1;
}

int RecordStore::findInterned(const char *utf8, quint32 size) const {
    // A trace has a handful of qualnames sharing a long prefix: compare sizes and the last bytes
    // (where they differ) before the whole name.
    const int known = m_utf8Count.load(std::memory_order_acquire);
    for (int i = 0; i < known; ++i) {
        const QByteArray &n = m_utf8[i];
        if (quint32(n.size()) == size && (size == 0 || n.back() == utf8[size - 1]) &&
            std::memcmp(n.constData(), utf8, size) == 0) {
            return int(i);
        }
    }
    return -1;
}

quint32 RecordStore::intern(const char *utf8, quint32 size) {
    if (const int id = findInterned(utf8, size); id >= 0) {
        return quint32(id);
    }
    const QByteArray key(utf8, qsizetype(size));
    if (auto it = m_ids.constFind(key); it != m_ids.constEnd()) {
        return it.value();
    }
    const int n = m_nameCount.load(std::memory_order_relaxed);
    if (n == kMaxQualnames - 1) {
        // Too many distinct qualnames (a hostile or corrupted file): one last shared entry.
        m_names[size_t(n)] = QStringLiteral("<more than %1 qualnames>").arg(kMaxQualnames - 1);
        m_nameBytes.store(m_nameBytes.load(std::memory_order_relaxed) +
                              internedBytes(m_names[size_t(n)], QByteArray()),
                          std::memory_order_relaxed);
        m_nameCount.store(n + 1, std::memory_order_release);
    }
    if (n >= kMaxQualnames - 1) {
        return quint32(kMaxQualnames - 1);
    }
    m_names[size_t(n)] = QString::fromUtf8(key);
    m_ids.insert(key, quint32(n));
    if (n < kFastNames) {
        m_utf8[n] = key;
        m_utf8Count.store(n + 1, std::memory_order_release);
    }
    m_nameBytes.store(
        m_nameBytes.load(std::memory_order_relaxed) + internedBytes(m_names[size_t(n)], key),
        std::memory_order_relaxed);
    m_nameCount.store(n + 1, std::memory_order_release);
    return quint32(n);
}

void RecordStore::append(double tMono, double tWall, quint32 qualnameId, qint64 offset,
                         quint32 length, quint8 flags) {
    const int i = m_size.load(std::memory_order_relaxed);
    if (i == std::numeric_limits<int>::max()) {
        return;  // 2^31 - 1 records: the row index type's limit
    }
    const int c = chunkOf(i);
    Chunk *ch = chunk(c);
    const qint64 s = i - chunkStart(c);
    ch->tMono[s] = tMono;
    qint32 delta = kWallExact;
    if (tWall >= kWallLow && tWall < kWallHigh && std::isfinite(tMono)) {
        double &base = ch->wallBase[size_t(s >> kWallBlockBits)];
        if (std::isnan(base)) {
            base = tWall - tMono;  // published with the record (m_size, below)
        }
        const double predicted = predictedSteps(tMono, base);
        const double steps = (tWall - kWallLow) * kWallSteps;  // exact: a whole number
        // exact when it fits a qint32 (both whole numbers below 2^53 then; NaN fails the test)
        const double d = steps - predicted;
        if (d > double(kWallExact) && d <= double(std::numeric_limits<qint32>::max())) {
            delta = qint32(d);
        }
    }
    if (delta == kWallExact) {
        double *exact = ch->wallExact.load(std::memory_order_relaxed);
        if (!exact) {
            exact = new double[size_t(chunkCapacity(c))];
            ch->wallExact.store(exact, std::memory_order_release);
        }
        exact[s] = tWall;
        const qint64 count = ch->wallExactCount.load(std::memory_order_relaxed);
        if (count == 0) {
            ch->wallExactFirst.store(s, std::memory_order_relaxed);
        }
        ch->wallExactLast.store(s, std::memory_order_relaxed);
        ch->wallExactCount.store(count + 1, std::memory_order_relaxed);
    }
    ch->wallDelta[s] = delta;
    ch->offset[s] = offset;
    ch->qualname[s] = qualnameId;
    ch->length[s] = length;
    ch->flags[s].store(flags, std::memory_order_relaxed);
    // Extremes over finite times only (a NaN or infinite t_mono would poison the duration).
    if (std::isfinite(tMono)) {
        if (!m_haveTMono) {
            m_minTMono.store(tMono, std::memory_order_relaxed);
            m_maxTMono.store(tMono, std::memory_order_relaxed);
            m_haveTMono = true;
        } else {
            if (tMono < minTMono())
                m_minTMono.store(tMono, std::memory_order_relaxed);
            if (tMono > maxTMono())
                m_maxTMono.store(tMono, std::memory_order_relaxed);
        }
    }
    if (std::isfinite(tWall)) {
        if (!m_haveTWall) {
            m_minTWall.store(tWall, std::memory_order_relaxed);
            m_maxTWall.store(tWall, std::memory_order_relaxed);
            m_haveTWall = true;
        } else {
            if (tWall < minTWall())
                m_minTWall.store(tWall, std::memory_order_relaxed);
            if (tWall > maxTWall())
                m_maxTWall.store(tWall, std::memory_order_relaxed);
        }
    }
    // One writer: a plain relaxed load and store, no locked read-modify-write.
    m_counts[qualnameId].store(m_counts[qualnameId].load(std::memory_order_relaxed) + 1,
                               std::memory_order_relaxed);
    m_size.store(i + 1, std::memory_order_release);
}

namespace {

/** Writes a zero at the start of every page that slots [from, to) of `column` reach into and
 *  that slot `from`'s page is not (that page may be resident already). */
template <typename T>
void touchPages(T *column, qint64 from, qint64 to) {
    constexpr quintptr kPage = 4096;
    const quintptr begin = reinterpret_cast<quintptr>(column + from);
    const quintptr end = reinterpret_cast<quintptr>(column + to);
    for (quintptr page = (begin + kPage - 1) & ~(kPage - 1); page < end; page += kPage) {
        // new[] aligns to 16 bytes, so a page boundary is a slot boundary
        column[(page - reinterpret_cast<quintptr>(column)) / sizeof(T)] = T();
    }
}

}  // namespace

RecordStore::Chunk *RecordStore::chunk(int c) {
    Chunk *ch = m_chunks[c].load(std::memory_order_acquire);
    if (ch) {
        return ch;
    }
    auto *made = new Chunk(chunkCapacity(c));
    if (m_chunks[c].compare_exchange_strong(ch, made, std::memory_order_acq_rel)) {
        return made;
    }
    delete made;  // prefault() on another thread allocated it first
    return ch;
}

void RecordStore::prefault(qint64 first, qint64 count) {
    const qint64 last = std::min<qint64>(first + count, std::numeric_limits<int>::max());
    for (qint64 i = first; i < last;) {
        const int c = chunkOf(i);
        Chunk *ch = chunk(c);
        const qint64 from = i - chunkStart(c);
        const qint64 to = std::min(last - chunkStart(c), chunkCapacity(c));
        touchPages(ch->tMono, from, to);
        touchPages(ch->wallDelta, from, to);
        touchPages(ch->offset, from, to);
        touchPages(ch->qualname, from, to);
        touchPages(ch->length, from, to);
        i = chunkStart(c) + to;
    }
}

double RecordStore::tWall(int i) const {
    const Slot slot = at(i);
    const qint32 delta = slot.c->wallDelta[slot.s];
    if (delta == kWallExact) {
        return slot.c->wallExact.load(std::memory_order_acquire)[slot.s];
    }
    const double steps =
        predictedSteps(slot.c->tMono[slot.s], slot.c->wallBase[size_t(slot.s >> kWallBlockBits)]) +
        delta;
    return kWallLow + steps / kWallSteps;
}

qint64 RecordStore::memoryBytes() const {
    const qint64 n = size();
    qint64 bytes = qint64(sizeof(*this));
    // Columns, chunk by chunk. A chunk's arrays are allocated for its whole capacity, but new[]
    // of a trivial type leaves them unwritten: a page becomes resident when the first record on
    // it is written (exactly so for the arrays of 128 KiB and more, which malloc maps freshly;
    // the small first chunks come from the heap, a few pages either way). So a full chunk counts
    // its capacity and the chunk being filled counts the pages up to its last record, per
    // column. The flags array is the exception: std::atomic's constructor zeroes every element
    // (C++20), so all its pages are written at allocation.
    for (int c = 0; c < kMaxChunks; ++c) {
        if (!m_chunks[size_t(c)].load(std::memory_order_relaxed)) {
            continue;
        }
        const qint64 capacity = chunkCapacity(c);
        const qint64 used = qBound<qint64>(0, n - chunkStart(c), capacity);
        auto column = [&](qint64 elementSize) {
            return used == capacity
                       ? capacity * elementSize
                       : qMin(roundUpToPage(used * elementSize), capacity * elementSize);
        };
        bytes += qint64(sizeof(Chunk));
        bytes += column(sizeof(*Chunk::tMono)) + column(sizeof(*Chunk::wallDelta)) +
                 column(sizeof(*Chunk::offset)) + column(sizeof(*Chunk::qualname)) +
                 column(sizeof(*Chunk::length));
        const Chunk *ch = m_chunks[size_t(c)].load(std::memory_order_relaxed);
        bytes += qint64(sizeof(double)) * ((capacity + kWallBlock - 1) / kWallBlock);
        if (const double *exact = ch->wallExact.load(std::memory_order_acquire)) {
            // pages written: at most one per value, at most those the values span
            const auto first = quintptr(exact + ch->wallExactFirst.load(std::memory_order_relaxed));
            const auto last = quintptr(exact + ch->wallExactLast.load(std::memory_order_relaxed)) +
                              sizeof(double) - 1;
            const qint64 pages = qMin(ch->wallExactCount.load(std::memory_order_relaxed),
                                      qint64(last / kPage - first / kPage) + 1);
            bytes += pages * kPage;
        }
        bytes += capacity * qint64(sizeof(*Chunk::flags));
    }
    // Interned qualnames: the fixed slots of names and counts, and what intern() allocated.
    bytes += kMaxQualnames * qint64(sizeof(QString) + sizeof(std::atomic<qint64>));
    bytes += m_nameBytes.load(std::memory_order_relaxed);
    return bytes;
}

}  // namespace lmct
