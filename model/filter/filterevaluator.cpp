#include "filter/filterevaluator.h"

#include "codec/qualname.h"
#include "codec/recordfacts.h"
#include "filter/filtervalueset.h"
#include "trace/packedargsdecoder.h"
#include "util/hex.h"
#include "util/parallelchunks.h"
#include "util/passprogress.h"

#include <QElapsedTimer>
#include <QMutex>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace lmct {

namespace {

using Op = FilterNode::Op;

/** One scalar seen by a comparison, without copies. */
struct Scalar {
    enum class Type : quint8 { Str, Bytes, HexText, Int, UInt, Float, Bool, Nil, Other };
    Type type = Type::Other;
    std::string_view s;  // Str (UTF-8), Bytes (raw), HexText (hex digits)
    qint64 i = 0;
    quint64 u = 0;
    double d = 0.0;
    bool b = false;

    static Scalar str(std::string_view v) {
        Scalar x;
        x.type = Type::Str;
        x.s = v;
        return x;
    }
    static Scalar integer(qint64 v) {
        Scalar x;
        x.type = Type::Int;
        x.i = v;
        x.d = double(v);
        return x;
    }
    static Scalar floating(double v) {
        Scalar x;
        x.type = Type::Float;
        x.d = v;
        return x;
    }
    static Scalar from(const PackedValue &v) {
        Scalar x;
        switch (v.kind()) {
            case PackedValue::Kind::String:
                return str(v.str());
            case PackedValue::Kind::Bytes:
                x.type = Type::Bytes;
                x.s = v.bytes();
                return x;
            case PackedValue::Kind::Int:
                if (v.isUnsigned()) {
                    x.type = Type::UInt;
                    x.u = v.toUInt();
                    x.d = double(x.u);
                    return x;
                }
                return integer(v.toInt());
            case PackedValue::Kind::Float:
                return floating(v.toDouble());
            case PackedValue::Kind::Bool:
                x.type = Type::Bool;
                x.b = v.toBool();
                return x;
            case PackedValue::Kind::Nil:
                x.type = Type::Nil;
                return x;
            default:
                return x;
        }
    }
};

QByteArray hexText(const Scalar &x) {
    const QByteArray raw = QByteArray::fromRawData(x.s.data(), qsizetype(x.s.size()));
    return x.type == Scalar::Type::Bytes ? raw.toHex() : raw.toLower();
}

bool hexPrefix(const Scalar &x, const QByteArray &prefix) {
    return Hex::hasPrefix(x.s, x.type == Scalar::Type::HexText,
                          std::string_view(prefix.constData(), size_t(prefix.size())));
}

bool ordered(Op op, int c) {
    switch (op) {
        case Op::Lt:
            return c < 0;
        case Op::Le:
            return c <= 0;
        case Op::Gt:
            return c > 0;
        case Op::Ge:
            return c >= 0;
        default:
            return c == 0;
    }
}

template <typename T>
int threeWay(T a, T b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

int compareText(std::string_view a, const QByteArray &b) {
    const int c = a.compare(std::string_view(b.constData(), size_t(b.size())));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool numericCompare(const Scalar &x, Op op, const FilterLiteral::Number &n) {
    if (op == Op::Contains) {
        op = Op::Eq;
    }
    if (n.isInteger && n.unit == FilterLiteral::Unit::None) {
        if (x.type == Scalar::Type::Int) {
            return ordered(op, threeWay(x.i, n.integer));
        }
        if (x.type == Scalar::Type::UInt) {
            return ordered(op, n.integer < 0 ? 1 : threeWay(x.u, quint64(n.integer)));
        }
    }
    if (std::isnan(x.d)) {
        return false;
    }
    return ordered(op, threeWay(x.d, n.value));
}

/** `x op lit` for one scalar; op is never Ne or In (handled by the caller). */
bool compareScalar(const Scalar &x, Op op, const FilterLiteral &lit, const QRegularExpression &re) {
    switch (x.type) {
        case Scalar::Type::Str: {
            switch (op) {
                case Op::Eq:
                    return x.s == std::string_view(lit.utf8.constData(), size_t(lit.utf8.size()));
                case Op::Contains:
                    return x.s.find(
                               std::string_view(lit.utf8.constData(), size_t(lit.utf8.size()))) !=
                           std::string_view::npos;
                case Op::Matches:
                    return re.match(QString::fromUtf8(x.s.data(), qsizetype(x.s.size())))
                        .hasMatch();
                default: {
                    if (lit.number) {
                        bool ok = false;
                        const double v = QByteArray::fromRawData(x.s.data(), qsizetype(x.s.size()))
                                             .toDouble(&ok);
                        if (ok) {
                            return ordered(op, threeWay(v, lit.number->value));
                        }
                    }
                    return ordered(op, compareText(x.s, lit.utf8));
                }
            }
        }
        case Scalar::Type::Bytes:
        case Scalar::Type::HexText: {
            switch (op) {
                case Op::Eq:
                    return lit.hex && hexPrefix(x, *lit.hex);
                case Op::Contains:
                    return lit.hex && hexText(x).contains(*lit.hex);
                case Op::Matches:
                    return re.match(QString::fromLatin1(hexText(x))).hasMatch();
                default: {
                    const QByteArray h = hexText(x);
                    const QByteArray other = lit.hex ? *lit.hex : lit.utf8;
                    return ordered(op, threeWay(h, other));
                }
            }
        }
        case Scalar::Type::Int:
        case Scalar::Type::UInt:
        case Scalar::Type::Float: {
            if (op == Op::Matches) {
                const QString text = x.type == Scalar::Type::Int    ? QString::number(x.i)
                                     : x.type == Scalar::Type::UInt ? QString::number(x.u)
                                                                    : QString::number(x.d, 'g', 17);
                return re.match(text).hasMatch();
            }
            if (!lit.number) {
                return false;
            }
            return numericCompare(x, op, *lit.number);
        }
        case Scalar::Type::Bool: {
            if (op == Op::Matches) {
                return re.match(x.b ? QStringLiteral("true") : QStringLiteral("false")).hasMatch();
            }
            const std::optional<bool> want = lit.asBool();
            if (!want) {
                return false;
            }
            return ordered(op == Op::Contains ? Op::Eq : op, threeWay(int(x.b), int(*want)));
        }
        case Scalar::Type::Nil:
            return (op == Op::Eq || op == Op::Contains) &&
                   lit.keyword == FilterLiteral::Keyword::Null;
        case Scalar::Type::Other:
            return false;
    }
    return false;
}

/** `x == v` for some v of the set of an `in`: compareScalar's Eq through hash look-ups. */
bool isMember(const Scalar &x, const FilterValueSet &set) {
    switch (x.type) {
        case Scalar::Type::Str:
            return set.containsText(x.s);
        case Scalar::Type::Bytes:
        case Scalar::Type::HexText:
            return set.containsHash(x.s, x.type == Scalar::Type::HexText);
        case Scalar::Type::Int:
            return set.containsInteger(x.i);
        case Scalar::Type::UInt:
            return set.containsUnsigned(x.u);
        case Scalar::Type::Float:
            return set.containsFloat(x.d);
        case Scalar::Type::Bool:
            return set.containsBool(x.b);
        case Scalar::Type::Nil:
            return set.containsNull();
        case Scalar::Type::Other:
            return false;
    }
    return false;
}

constexpr int kMaxDepth = 64;
constexpr size_t kMaxResolved = 1 << 16;

/** Every scalar inside `v` (seen through tags, lists and map values) until `pred` holds. */
template <typename Pred>
bool anyScalar(const PackedValue &value, Pred &&pred, int depth = 0) {
    const PackedValue v = value.untagged();
    if (depth > kMaxDepth) {
        return false;
    }
    if (v.isArray()) {
        for (int i = 0, n = v.size(); i < n; ++i) {
            if (anyScalar(v.at(i), pred, depth + 1)) {
                return true;
            }
        }
        return false;
    }
    if (v.isMap()) {
        for (int i = 0, n = v.size(); i < n; ++i) {
            if (anyScalar(v.valueAt(i), pred, depth + 1)) {
                return true;
            }
        }
        return false;
    }
    if (!v.isValid()) {
        return false;
    }
    return pred(Scalar::from(v));
}

void resolve(const PackedValue &value, const std::vector<FilterField::Step> &steps, size_t at,
             std::vector<PackedValue> *out, int depth) {
    if (depth > kMaxDepth || out->size() >= kMaxResolved || !value.isValid()) {
        return;
    }
    if (at == steps.size()) {
        out->push_back(value);
        return;
    }
    const PackedValue v = value.untagged();
    const FilterField::Step &s = steps[at];
    if (v.isArray()) {
        if (s.isIndex) {
            const int i = s.index < 0 ? v.size() + s.index : s.index;
            resolve(v.at(i), steps, at + 1, out, depth + 1);
        } else {
            for (int i = 0, n = v.size(); i < n; ++i) {
                resolve(v.at(i), steps, at, out, depth + 1);
            }
        }
    } else if (v.isMap()) {
        const QByteArray key = s.isIndex ? QByteArray::number(s.index) : s.name;
        resolve(v.find(std::string_view(key.constData(), size_t(key.size()))), steps, at + 1, out,
                depth + 1);
    }
}

/** Per-thread evaluation state for one record at a time. */
struct Context {
    explicit Context(const TraceDocument &doc) : doc(doc), decoder(doc) {}

    void start(int r) {
        record = r;
        decoded = false;
        argsOk = false;
    }
    bool ensureArgs() {
        if (!decoded) {
            const PackedValue a = decoder.decode(record);
            facts.reset(a);
            argsOk = a.isValid();
            decoded = true;
            ++decodedCount;
            if (!argsOk) {
                ++errorCount;
            }
        }
        return argsOk;
    }

    const TraceDocument &doc;
    PackedArgsDecoder decoder;
    RecordFacts facts;
    std::vector<PackedValue> resolved;
    int record = -1;
    bool decoded = false;
    bool argsOk = false;
    qint64 decodedCount = 0;
    qint64 errorCount = 0;
};

}  // namespace

/** The compiled expression: a tree of cheap-first nodes with per-qualname tables. */
struct FilterEvaluator::Program {
    enum class Kind : quint8 { All, None, And, Or, Not, Table, Column, Args };
    struct Node {
        Kind kind = Kind::All;
        std::vector<Node> children;
        std::vector<char> table;                   // Table: truth per qualname id
        const FilterNode *leaf = nullptr;          // Table, Column, Args
        std::shared_ptr<const FilterValueSet> in;  // the values of `leaf` when it is `in [...]`
        bool needsArgs = false;
    };
    Node root;
    std::shared_ptr<const FilterNode> ast;                 // keeps `leaf` pointers alive
    std::vector<std::shared_ptr<const FilterNode>> owned;  // rewritten nodes (!= as !(==))
    bool valid = true;
};

namespace {

using Program = FilterEvaluator::Program;

/** `x op values` of a leaf, with `in` as any-of; op is never Ne. */
bool leafHolds(const Program::Node &p, const Scalar &x) {
    if (p.in) {
        return isMember(x, *p.in);
    }
    const FilterNode &n = *p.leaf;
    return compareScalar(x, n.op, n.values.front(), n.regex);
}

bool evalColumn(const Program::Node &p, const RecordStore &rs, int r) {
    const FilterNode &n = *p.leaf;
    Scalar x;
    switch (n.field.kind) {
        case FilterField::Kind::TMono:
            x = Scalar::floating(rs.tMono(r));
            break;
        case FilterField::Kind::TWall:
            x = Scalar::floating(rs.tWall(r));
            break;
        default:
            x = Scalar::integer(r);
            break;
    }
    if (n.kind == FilterNode::Kind::Exists) {
        return x.d != 0.0;
    }
    return leafHolds(p, x);
}

/** Field value(s) of one key as scalars; false when the key lacks the field. */
bool keyScalar(const PackedObjectKey &k, FilterField::Kind kind, Scalar *out) {
    switch (kind) {
        case FilterField::Kind::ChunkHash:
            out->type = k.chunkHashIsHex ? Scalar::Type::HexText : Scalar::Type::Bytes;
            out->s = k.chunkHash;
            return true;
        case FilterField::Kind::ModelName:
            *out = Scalar::str(k.modelName);
            return true;
        case FilterField::Kind::KvRank:
            *out = Scalar::integer(k.kvRank);
            return true;
        case FilterField::Kind::Rank:
            *out = Scalar::integer(k.rank().rank);
            return true;
        case FilterField::Kind::WorldSize:
            *out = Scalar::integer(k.rank().worldSize);
            return true;
        case FilterField::Kind::LocalRank:
            *out = Scalar::integer(k.rank().localRank);
            return true;
        case FilterField::Kind::LocalWorldSize:
            *out = Scalar::integer(k.rank().localWorldSize);
            return true;
        case FilterField::Kind::ObjectGroupId:
            if (!k.hasObjectGroupId) {
                return false;
            }
            *out = Scalar::integer(k.objectGroupId);
            return true;
        case FilterField::Kind::CacheSalt:
            if (!k.hasCacheSalt) {
                return false;
            }
            *out = Scalar::str(k.cacheSalt);
            return true;
        default:
            return false;
    }
}

bool truthyScalar(const Scalar &x) {
    switch (x.type) {
        case Scalar::Type::Str:
        case Scalar::Type::Bytes:
        case Scalar::Type::HexText:
            return !x.s.empty();
        case Scalar::Type::Int:
            return x.i != 0;
        case Scalar::Type::UInt:
            return x.u != 0;
        case Scalar::Type::Float:
            return x.d != 0.0;
        case Scalar::Type::Bool:
            return x.b;
        default:
            return false;
    }
}

/** An argument condition (never `!=`: compiled as `!(==)`) on the record's arguments. */
bool evalArgs(const Program::Node &p, Context &c) {
    if (!c.ensureArgs()) {
        return false;
    }
    const FilterNode &n = *p.leaf;
    const bool exists = n.kind == FilterNode::Kind::Exists;
    auto test = [&](const Scalar &x) { return exists ? truthyScalar(x) : leafHolds(p, x); };
    RecordFacts &f = c.facts;
    switch (n.field.kind) {
        case FilterField::Kind::KeysCount:
            return test(Scalar::integer(f.keyCount()));
        case FilterField::Kind::Bytes: {
            const auto b = f.bytes();
            return b && test(Scalar::integer(*b));
        }
        case FilterField::Kind::Request: {
            const PackedValue id = f.requestId();
            if (!id.isValid()) {
                return false;
            }
            return exists ? id.truthy() : anyScalar(id, test);
        }
        case FilterField::Kind::ArgPath: {
            c.resolved.clear();
            resolve(f.args(), n.field.path, 0, &c.resolved, 0);
            for (const PackedValue &v : c.resolved) {
                if (exists ? v.truthy() : anyScalar(v, test)) {
                    return true;
                }
            }
            return false;
        }
        default:
            break;
    }
    // ObjectKey fields: the condition holds when any key satisfies it.
    Scalar x;
    for (const PackedObjectKey &k : f.keys()) {
        if (keyScalar(k, n.field.kind, &x) && test(x)) {
            return true;
        }
    }
    return false;
}

/** A `call` or `qualname` condition on one qualname. */
bool qualnameHolds(const Program::Node &p, const QString &qualname) {
    const FilterNode &n = *p.leaf;
    const bool call = n.field.kind == FilterField::Kind::Call;
    const QByteArray text = (call ? Qualname::shortName(qualname) : qualname).toUtf8();
    if (n.kind == FilterNode::Kind::Exists) {
        return !text.isEmpty();
    }
    return leafHolds(p, Scalar::str(std::string_view(text.constData(), size_t(text.size()))));
}

bool eval(const Program::Node &p, Context &c) {
    switch (p.kind) {
        case Program::Kind::All:
            return true;
        case Program::Kind::None:
            return false;
        case Program::Kind::And:
            for (const Program::Node &ch : p.children) {
                if (!eval(ch, c)) {
                    return false;
                }
            }
            return true;
        case Program::Kind::Or:
            for (const Program::Node &ch : p.children) {
                if (eval(ch, c)) {
                    return true;
                }
            }
            return false;
        case Program::Kind::Not:
            return !eval(p.children.front(), c);
        case Program::Kind::Table: {
            const quint32 id = c.doc.records().qualnameId(c.record);
            // Qualnames that appeared after the evaluator was built (a growing document).
            return id < p.table.size() ? p.table[id] != 0
                                       : qualnameHolds(p, c.doc.records().qualnameById(id));
        }
        case Program::Kind::Column:
            return evalColumn(p, c.doc.records(), c.record);
        case Program::Kind::Args:
            return evalArgs(p, c);
    }
    return false;
}

}  // namespace

namespace {

/** Whether a `trace` condition holds for the trace `id` (the same for all its records). */
bool traceHolds(const Program::Node &p, const FilterEvaluator::Trace &id) {
    const FilterNode &n = *p.leaf;
    if (n.kind == FilterNode::Kind::Exists) {
        return true;  // every record belongs to a trace
    }
    const QByteArray label = id.label.toUtf8(), instance = id.instanceId.toUtf8();
    auto text = [](const QByteArray &b) {
        return Scalar::str(std::string_view(b.constData(), size_t(b.size())));
    };
    if (leafHolds(p, text(label)) || (!instance.isEmpty() && leafHolds(p, text(instance)))) {
        return true;
    }
    // The index, for values written as unquoted integers (`trace == 2`, `trace in [0, 1]`).
    const bool byIndex = std::any_of(n.values.begin(), n.values.end(), [](const FilterLiteral &v) {
        return !v.quoted && v.number && v.number->isInteger &&
               v.number->unit == FilterLiteral::Unit::None;
    });
    return byIndex && n.op != FilterNode::Op::Matches && leafHolds(p, Scalar::integer(id.index));
}

struct Compiler {
    const RecordStore &records;
    std::vector<std::shared_ptr<const FilterNode>> *owned;
    FilterEvaluator::Trace trace;

    Program::Node compile(const FilterNode &n) {
        Program::Node p;
        switch (n.kind) {
            case FilterNode::Kind::And:
            case FilterNode::Kind::Or: {
                p.kind = n.kind == FilterNode::Kind::And ? Program::Kind::And : Program::Kind::Or;
                for (const auto &c : n.children) {
                    p.children.push_back(compile(*c));
                    p.needsArgs = p.needsArgs || p.children.back().needsArgs;
                }
                // Cheap conditions first: they often decide without decoding the arguments.
                std::stable_partition(p.children.begin(), p.children.end(),
                                      [](const Program::Node &c) { return !c.needsArgs; });
                return p;
            }
            case FilterNode::Kind::Not:
                p.kind = Program::Kind::Not;
                p.children.push_back(compile(*n.children.front()));
                p.needsArgs = p.children.front().needsArgs;
                return p;
            case FilterNode::Kind::Compare:
                if (n.op == FilterNode::Op::Ne) {
                    // a != b is exactly !(a == b): with "any key" semantics, != means "no key".
                    auto eq = std::make_shared<FilterNode>(n);
                    eq->op = FilterNode::Op::Eq;
                    owned->push_back(eq);
                    p.kind = Program::Kind::Not;
                    p.children.push_back(compile(*eq));
                    p.needsArgs = p.children.front().needsArgs;
                    return p;
                }
                break;
            case FilterNode::Kind::Exists:
                break;
        }
        p.leaf = &n;
        if (n.kind == FilterNode::Kind::Compare && n.op == FilterNode::Op::In) {
            p.in = std::make_shared<const FilterValueSet>(n.values);
        }
        switch (n.field.kind) {
            case FilterField::Kind::Qualname:
            case FilterField::Kind::Call: {
                p.kind = Program::Kind::Table;
                for (const QString &q : records.qualnames()) {
                    p.table.push_back(qualnameHolds(p, q) ? 1 : 0);
                }
                return p;
            }
            case FilterField::Kind::TMono:
            case FilterField::Kind::TWall:
            case FilterField::Kind::Index:
                p.kind = Program::Kind::Column;
                return p;
            case FilterField::Kind::Trace:
                p.kind = traceHolds(p, trace) ? Program::Kind::All : Program::Kind::None;
                return p;
            default:
                p.kind = Program::Kind::Args;
                p.needsArgs = true;
                return p;
        }
    }
};

struct Partial {
    std::vector<int> records;
    qint64 examined = 0;
    qint64 decoded = 0;
    qint64 errors = 0;
};

}  // namespace

FilterEvaluator::FilterEvaluator(std::shared_ptr<const TraceDocument> doc,
                                 const FilterExpression &expr)
    : m_doc(std::move(doc)), m_expr(expr) {
    Trace trace;
    if (m_doc) {
        trace.label = m_doc->fileName();
        trace.instanceId = TraceSet::instanceIdOf(m_doc->header());
    }
    compile(trace);
}

FilterEvaluator::FilterEvaluator(const TraceSet &set, int t, const FilterExpression &expr)
    : m_doc(set.documentPtr(t)), m_expr(expr) {
    compile(Trace{set.label(t), set.instanceId(t), t});
}

FilterEvaluator::FilterEvaluator(std::shared_ptr<const TraceDocument> doc,
                                 const FilterExpression &expr, const Trace &trace)
    : m_doc(std::move(doc)), m_expr(expr) {
    compile(trace);
}

void FilterEvaluator::compile(const Trace &trace) {
    const FilterExpression &expr = m_expr;
    auto program = std::make_shared<Program>();
    program->ast = expr.root();
    program->valid = expr.isValid() && m_doc != nullptr;
    if (program->valid && program->ast) {
        std::vector<std::shared_ptr<const FilterNode>> owned;
        Compiler c{m_doc->records(), &owned, trace};
        program->root = c.compile(*program->ast);
        program->owned = std::move(owned);
    }
    m_program = program;
}

FilterEvaluator::~FilterEvaluator() = default;

bool FilterEvaluator::matches(int record) const {
    if (!m_program->valid || record < 0 || record >= m_doc->records().size()) {
        return false;
    }
    Context c(*m_doc);
    c.start(record);
    return eval(m_program->root, c);
}

FilterEvaluator::Result FilterEvaluator::run() const {
    return run(Options());
}

FilterEvaluator::Result FilterEvaluator::run(const Options &options) const {
    QElapsedTimer timer;
    timer.start();
    Result result;
    if (!m_program->valid) {
        return result;
    }
    const TraceDocument &doc = *m_doc;
    const RecordStore &rs = doc.records();
    const std::vector<int> *subset = options.subset;
    // The document may grow while we run (loading, live follow): evaluate the records published
    // now. After a file was cut short while open, the records past its new end have no
    // arguments any more (zeros read): left out, as KeyAnalysis leaves them out.
    const int size = std::min(rs.size(), doc.readableRecordCount());
    const qint64 total = subset ? qint64(subset->size()) : qint64(size);
    const Program::Node &root = m_program->root;
    const int chunk = options.chunkSize > 0 ? options.chunkSize : (root.needsArgs ? 2048 : 65536);
    const auto chunks = PassProgress::chunks(total, chunk);
    const TMonoRange range = options.range;
    const bool allTimes = range.isAll();
    const std::atomic_bool *cancel = options.cancel;
    PassProgress progress(total, cancel, options.progress);

    auto map = [&](const std::pair<qint64, qint64> &ch) -> Partial {
        Partial p;
        if (progress.cancelled()) {
            return p;
        }
        Context c(doc);
        for (qint64 k = ch.first; k < ch.second; ++k) {
            if ((k & 1023) == 0 && progress.cancelled()) {
                break;
            }
            const int r = subset ? (*subset)[size_t(k)] : int(k);
            if (r < 0 || r >= size || (!allTimes && !range.contains(rs.tMono(r)))) {
                continue;
            }
            ++p.examined;
            c.start(r);
            if (eval(root, c)) {
                p.records.push_back(r);
            }
        }
        p.decoded = c.decodedCount;
        p.errors = c.errorCount;
        if (c.decodedCount > 0 && size > 0 &&
            ch.second > ch.first) {  // args read once: keep them out of RSS
            const auto rec = [&](qint64 k) { return subset ? (*subset)[size_t(k)] : int(k); };
            doc.releaseRecordPages(std::clamp(rec(ch.first), 0, size - 1),
                                   std::clamp(rec(ch.second - 1), 0, size - 1));
        }
        progress.add(ch.second - ch.first);
        return p;
    };
    auto reduce = [](Partial &acc, const Partial &p) {
        acc.records.insert(acc.records.end(), p.records.begin(), p.records.end());
        acc.examined += p.examined;
        acc.decoded += p.decoded;
        acc.errors += p.errors;
    };
    std::vector<Partial> parts(chunks.size());
    ParallelChunks::run(
        int(chunks.size()), [&](int i) { parts[size_t(i)] = map(chunks[size_t(i)]); },
        options.pool);
    Partial all;
    for (const Partial &p : parts) {
        reduce(all, p);  // in chunk order: records stay in file order
    }
    result.cancelled = cancel && cancel->load();
    if (!result.cancelled) {
        progress.finish();
    }
    result.records = std::move(all.records);
    if (subset && !std::is_sorted(result.records.begin(), result.records.end())) {
        std::sort(result.records.begin(), result.records.end());  // a caller's unsorted subset
    }
    result.examined = all.examined;
    result.decoded = all.decoded;
    result.decodeErrors = all.errors;
    result.seconds = double(timer.nsecsElapsed()) / 1e9;
    return result;
}

}  // namespace lmct
