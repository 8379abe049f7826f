#include "filter/filterfield.h"

#include <QRegularExpression>

namespace lmct {

namespace {

struct Known {
    const char *name;
    FilterField::Kind kind;
};

const Known kKnown[] = {
    {"qualname", FilterField::Kind::Qualname},
    {"call", FilterField::Kind::Call},
    {"t_mono", FilterField::Kind::TMono},
    {"t_wall", FilterField::Kind::TWall},
    {"index", FilterField::Kind::Index},
    {"trace", FilterField::Kind::Trace},
    {"keys.count", FilterField::Kind::KeysCount},
    {"chunk_hash", FilterField::Kind::ChunkHash},
    {"model_name", FilterField::Kind::ModelName},
    {"kv_rank", FilterField::Kind::KvRank},
    {"rank", FilterField::Kind::Rank},
    {"world_size", FilterField::Kind::WorldSize},
    {"local_rank", FilterField::Kind::LocalRank},
    {"local_world_size", FilterField::Kind::LocalWorldSize},
    {"object_group_id", FilterField::Kind::ObjectGroupId},
    {"cache_salt", FilterField::Kind::CacheSalt},
    {"request", FilterField::Kind::Request},
    {"bytes", FilterField::Kind::Bytes},
};

}  // namespace

FilterField::Type FilterField::type() const {
    switch (kind) {
        case Kind::Qualname:
        case Kind::Call:
        case Kind::ModelName:
        case Kind::CacheSalt:
        case Kind::Request:
            return Type::Text;
        case Kind::ChunkHash:
            return Type::Hex;
        case Kind::Trace:
        case Kind::ArgPath:
            return Type::Dynamic;
        default:
            return Type::Number;
    }
}

bool FilterField::needsArgs() const {
    switch (kind) {
        case Kind::Qualname:
        case Kind::Call:
        case Kind::TMono:
        case Kind::TWall:
        case Kind::Index:
        case Kind::Trace:
            return false;
        default:
            return true;
    }
}

bool FilterField::isKeyField() const {
    switch (kind) {
        case Kind::ChunkHash:
        case Kind::ModelName:
        case Kind::KvRank:
        case Kind::Rank:
        case Kind::WorldSize:
        case Kind::LocalRank:
        case Kind::LocalWorldSize:
        case Kind::ObjectGroupId:
        case Kind::CacheSalt:
            return true;
        default:
            return false;
    }
}

const QStringList &FilterField::knownNames() {
    static const QStringList names = [] {
        QStringList l;
        for (const Known &k : kKnown) {
            l.append(QLatin1String(k.name));
        }
        return l;
    }();
    return names;
}

bool FilterField::parse(const QString &text, FilterField *out, QString *error) {
    FilterField f;
    f.text = text;
    for (const Known &k : kKnown) {
        if (text == QLatin1String(k.name)) {
            f.kind = k.kind;
            *out = f;
            return true;
        }
    }
    // An argument path: name ( '.' name | '[' int ']' )*, names after a dot may start with a
    // digit (map keys such as group_layout_descs.0).
    static const QRegularExpression step(
        QStringLiteral("\\G(?:(\\.)?([A-Za-z0-9_]+)|\\[(-?[0-9]{1,9})\\])"));
    QString path = text;
    if (path == QLatin1String("args")) {
        f.kind = Kind::ArgPath;
        *out = f;
        return true;
    }
    if (path.startsWith(QLatin1String("args.")) || path.startsWith(QLatin1String("args["))) {
        path = path.mid(path[4] == QLatin1Char('.') ? 5 : 4);
    }
    const bool startsWell = !path.isEmpty() &&
                            (path[0].isLetter() || path[0] == QLatin1Char('_')) &&
                            path[0].unicode() < 128;
    qsizetype pos = 0;
    bool first = true;
    while (startsWell && pos < path.size()) {
        const auto m = step.match(path, pos);
        if (!m.hasMatch() || m.capturedLength() == 0) {
            break;
        }
        const bool dotted = m.capturedLength(1) > 0;
        if (m.capturedLength(2) > 0) {
            if (first == dotted) {  // the first name has no dot, every later one has one
                break;
            }
            Step s;
            s.name = m.captured(2).toUtf8();
            f.path.push_back(s);
        } else {
            if (first) {
                break;
            }
            Step s;
            s.isIndex = true;
            s.index = m.captured(3).toInt();
            f.path.push_back(s);
        }
        first = false;
        pos = m.capturedEnd();
    }
    if (!startsWell || pos != path.size() || f.path.empty()) {
        *error = QStringLiteral(
                     "'%1' is not a field: expected a field such as call, t_mono, model_name, "
                     "chunk_hash, or an argument path such as spec.keys[0].chunk_hash")
                     .arg(text);
        return false;
    }
    f.kind = Kind::ArgPath;
    *out = f;
    return true;
}

}  // namespace lmct
