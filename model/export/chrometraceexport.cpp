#include "export/chrometraceexport.h"

#include "codec/qualname.h"
#include "codec/valueformatter.h"
#include "export/recordexport.h"
#include "timeline/contextpairs.h"
#include "util/parallelchunks.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace lmct {

namespace {

enum class Kind : quint8 { Plain, Enter, Exit };

struct Prepared {
    QByteArray argsJson;  ///< compact JSON object of the args
    QByteArrayView keys;  ///< key-list identity (enter/exit only), ContextPairs::keyListBytes
    Kind kind = Kind::Plain;
};

/** `head` (a compact object) with `"args": ARGS` appended. */
QByteArray withArgs(const QJsonObject &head, const QByteArray &args) {
    QByteArray s = QJsonDocument(head).toJson(QJsonDocument::Compact);
    s.chop(1);
    s += head.isEmpty() ? "\"args\":" : ",\"args\":";
    s += args;
    s += '}';
    return s;
}

}  // namespace

bool ChromeTraceExport::write(QIODevice *out, const TraceDocument &doc,
                              const std::vector<int> &rows, Summary *summary, QString *error) {
    const RecordStore &rs = doc.records();
    const QString enterName = QStringLiteral("read_prefetched_results.__enter__");
    const QString exitName = QStringLiteral("read_prefetched_results.__exit__");

    // 1. Decode and format the args in parallel.
    std::vector<Prepared> prepared(rows.size());
    ParallelChunks::run(int(rows.size()), [&](int ri) {
        const size_t i = size_t(ri);
        prepared[i] = [&] {
            const int r = rows[i];
            Prepared p;
            const TraceDocument::Args a = doc.decodeArgs(r);
            QJsonObject args = ValueFormatter::toJson(a.value).toObject();
            const QString call = Qualname::shortName(rs.qualname(r));
            if (call == enterName || call == exitName) {
                p.kind = call == enterName ? Kind::Enter : Kind::Exit;
                p.keys = ContextPairs::keyListBytes(doc, r);
            }
            args.insert(QStringLiteral("record_index"), r);
            if (!a.error.isEmpty()) {
                args.insert(QStringLiteral("args_error"), a.error);
            }
            p.argsJson = QJsonDocument(args).toJson(QJsonDocument::Compact);
            return p;
        }();
    });

    // 2. Pair enters and exits among the exported rows: ContextPairs' rule (FIFO per identical
    // key list, in file order). Events carry positions in `rows` as their record numbers.
    std::vector<ContextPairs::Event> calls;
    for (size_t i = 0; i < prepared.size(); ++i) {
        const Prepared &p = prepared[i];
        if (p.kind != Kind::Plain) {
            calls.push_back(ContextPairs::Event{qint32(i), 0.0, p.kind == Kind::Enter, p.keys});
        }
    }
    std::vector<qint64> partner(rows.size(), -1);  // enter → exit position, exit → enter
    const auto matched = ContextPairs::match(calls);
    for (const ContextPairs::Span &span : matched->spans()) {
        partner[size_t(span.enter)] = span.exit;
        partner[size_t(span.exit)] = span.enter;
    }
    const qint64 pairs = matched->matchedCount();

    // 3. Lanes: one thread per qualname, in order of first appearance.
    QHash<QString, int> tids;
    QByteArray text = "{\"traceEvents\":[\n";
    auto meta = [](const QString &name, int tid, const QString &value) {
        QJsonObject o{{QStringLiteral("name"), name},
                      {QStringLiteral("ph"), QStringLiteral("M")},
                      {QStringLiteral("pid"), 1},
                      {QStringLiteral("args"), QJsonObject{{QStringLiteral("name"), value}}}};
        if (tid > 0) {
            o.insert(QStringLiteral("tid"), tid);
        }
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    };
    text += meta(QStringLiteral("process_name"), 0, doc.fileName());
    auto tidOf = [&](const QString &qualname) {
        auto it = tids.find(qualname);
        if (it == tids.end()) {
            const int tid = int(tids.size()) + 1;
            it = tids.insert(qualname, tid);
            text += ",\n";
            text += meta(QStringLiteral("thread_name"), tid, qualname);
        }
        return it.value();
    };

    qint64 events = 0;
    bool ok = true;
    auto flush = [&] {
        if (ok && out->write(text) != text.size()) {
            ok = false;
        }
        text.clear();
    };
    for (size_t i = 0; i < prepared.size() && ok; ++i) {
        const Prepared &p = prepared[i];
        const int r = rows[i];
        if (p.kind == Kind::Exit && partner[i] >= 0) {
            continue;  // merged into its enter's complete event
        }
        const QString qualname = rs.qualname(r);
        const int tid = tidOf(qualname);
        const double ts = rs.tMono(r) * 1e6;
        QJsonObject head{{QStringLiteral("cat"), qualname},
                         {QStringLiteral("pid"), 1},
                         {QStringLiteral("tid"), tid},
                         {QStringLiteral("ts"), ts}};
        QByteArray event;
        if (p.kind == Kind::Enter && partner[i] >= 0) {
            const size_t x = size_t(partner[i]);
            const int xr = rows[x];
            head.insert(QStringLiteral("name"), QStringLiteral("read_prefetched_results"));
            head.insert(QStringLiteral("ph"), QStringLiteral("X"));
            head.insert(QStringLiteral("dur"), qMax(0.0, rs.tMono(xr) - rs.tMono(r)) * 1e6);
            QByteArray args = "{\"enter_index\":" + QByteArray::number(r) +
                              ",\"exit_index\":" + QByteArray::number(xr) +
                              ",\"enter\":" + p.argsJson + ",\"exit\":" + prepared[x].argsJson +
                              '}';
            event = withArgs(head, args);
        } else {
            head.insert(QStringLiteral("name"), Qualname::shortName(qualname));
            head.insert(QStringLiteral("ph"), QStringLiteral("i"));
            head.insert(QStringLiteral("s"), QStringLiteral("t"));
            event = withArgs(head, p.argsJson);
        }
        text += ",\n";
        text += event;
        ++events;
        if (text.size() > (1 << 20)) {
            flush();
        }
    }
    text += "\n]}\n";
    flush();
    if (!ok) {
        if (error) {
            *error = out->errorString();
        }
        return false;
    }
    if (!RecordExport::checkNotShrunk(doc, error)) {
        return false;
    }
    if (summary) {
        summary->events = events;
        summary->pairs = pairs;
        summary->lanes = tids.size();
    }
    return true;
}

}  // namespace lmct
