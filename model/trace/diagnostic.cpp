#include "trace/diagnostic.h"

namespace lmct {

QString Diagnostic::severityName(Severity s) {
    switch (s) {
        case Severity::Info:
            return QStringLiteral("info");
        case Severity::Warning:
            return QStringLiteral("warning");
        case Severity::Error:
            return QStringLiteral("error");
    }
    return QStringLiteral("info");
}

QString Diagnostic::kindName(Kind k) {
    switch (k) {
        case Kind::Truncated:
            return QStringLiteral("truncated");
        case Kind::Malformed:
            return QStringLiteral("malformed");
        case Kind::BadFields:
            return QStringLiteral("bad-fields");
        case Kind::Resync:
            return QStringLiteral("resync");
        case Kind::HeaderRewritten:
            return QStringLiteral("header-rewritten");
        case Kind::Limit:
            return QStringLiteral("limit");
        case Kind::UnknownSchema:
            return QStringLiteral("unknown-schema");
        case Kind::UnknownLevel:
            return QStringLiteral("unknown-level");
        case Kind::Header:
            return QStringLiteral("header");
        case Kind::Digest:
            return QStringLiteral("digest");
        case Kind::Order:
            return QStringLiteral("order");
        case Kind::Damage:
            return QStringLiteral("damage");
        case Kind::Time:
            return QStringLiteral("time");
        case Kind::Shrank:
            return QStringLiteral("shrank");
        case Kind::Note:
            return QStringLiteral("note");
    }
    return QStringLiteral("note");
}

}  // namespace lmct
