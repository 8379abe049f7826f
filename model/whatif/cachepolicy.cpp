#include "whatif/cachepolicy.h"

#include "whatif/arcpolicy.h"
#include "whatif/clockpolicy.h"
#include "whatif/fifopolicy.h"
#include "whatif/lrupolicy.h"
#include "whatif/optpolicy.h"
#include "whatif/s3fifopolicy.h"

#include <array>

namespace lmct {

namespace {

constexpr std::array<CachePolicy::Kind, CachePolicy::kKindCount> kAll = {
    CachePolicy::Kind::Lru,    CachePolicy::Kind::Fifo, CachePolicy::Kind::Clock,
    CachePolicy::Kind::S3Fifo, CachePolicy::Kind::Arc,  CachePolicy::Kind::Opt};

}  // namespace

std::unique_ptr<CachePolicy> CachePolicy::create(Kind kind, quint64 capacity,
                                                 const UseSequence &uses) {
    if (capacity == 0) {
        return nullptr;
    }
    switch (kind) {
        case Kind::Lru:
            return std::make_unique<LruPolicy>(capacity, uses);
        case Kind::Fifo:
            return std::make_unique<FifoPolicy>(capacity, uses);
        case Kind::Clock:
            return std::make_unique<ClockPolicy>(capacity, uses);
        case Kind::S3Fifo:
            return std::make_unique<S3FifoPolicy>(capacity, uses);
        case Kind::Arc:
            return std::make_unique<ArcPolicy>(capacity, uses);
        case Kind::Opt:
            return std::make_unique<OptPolicy>(capacity, uses);
    }
    return nullptr;
}

QString CachePolicy::name(Kind kind) {
    switch (kind) {
        case Kind::Lru:
            return QStringLiteral("lru");
        case Kind::Fifo:
            return QStringLiteral("fifo");
        case Kind::Clock:
            return QStringLiteral("clock");
        case Kind::S3Fifo:
            return QStringLiteral("s3fifo");
        case Kind::Arc:
            return QStringLiteral("arc");
        case Kind::Opt:
            return QStringLiteral("opt");
    }
    return {};
}

QString CachePolicy::label(Kind kind) {
    switch (kind) {
        case Kind::Lru:
            return QStringLiteral("LRU");
        case Kind::Fifo:
            return QStringLiteral("FIFO");
        case Kind::Clock:
            return QStringLiteral("CLOCK");
        case Kind::S3Fifo:
            return QStringLiteral("S3-FIFO");
        case Kind::Arc:
            return QStringLiteral("ARC");
        case Kind::Opt:
            return QStringLiteral("OPT");
    }
    return {};
}

std::optional<CachePolicy::Kind> CachePolicy::fromName(const QString &text) {
    const QString t = text.trimmed();
    for (const Kind k : kAll) {
        if (t.compare(name(k), Qt::CaseInsensitive) == 0 ||
            t.compare(label(k), Qt::CaseInsensitive) == 0) {
            return k;
        }
    }
    return std::nullopt;
}

std::span<const CachePolicy::Kind> CachePolicy::all() {
    return kAll;
}

}  // namespace lmct
