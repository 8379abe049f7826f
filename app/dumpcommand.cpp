#include "dumpcommand.h"

#include "commandsupport.h"
#include "csvwriter.h"
#include "qualname.h"
#include "recordsummary.h"
#include "timeformat.h"
#include "valuedecoder.h"
#include "valueformatter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentMap>

using namespace lmct;

namespace {

enum class Format { Text, Jsonl, Csv };

/** Decoded args of record `r` (from the mapped file, not the document's cache). */
ValueDecoder::Result decodeArgs(const TraceDocument &doc, int r) {
    const RecordStore &rs = doc.records();
    const auto *body = reinterpret_cast<const char *>(doc.fileData() + rs.frameOffset(r) + 4);
    ValueDecoder::Result res = ValueDecoder::decode(body, rs.bodyLength(r));
    if (const Value *a = res.value.find(u"args")) {
        Value args = *a;
        res.value = std::move(args);
    } else {
        if (res.ok()) {
            res.message = QStringLiteral("no args map");
        }
        res.value = Value::map();
    }
    return res;
}

QByteArray formatRecord(const TraceDocument &doc, int r, Format format) {
    const RecordStore &rs = doc.records();
    const ValueDecoder::Result args = decodeArgs(doc, r);
    switch (format) {
        case Format::Jsonl: {
            QJsonObject o{
                {QStringLiteral("index"), r},
                {QStringLiteral("t_mono"), rs.tMono(r)},
                {QStringLiteral("t_wall"), rs.tWall(r)},
                {QStringLiteral("qualname"), rs.qualname(r)},
                {QStringLiteral("args"), ValueFormatter::toJson(args.value)},
            };
            if (!args.message.isEmpty()) {
                o.insert(QStringLiteral("args_error"), args.message);
            }
            return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
        }
        case Format::Csv: {
            const QJsonValue json = ValueFormatter::toJson(args.value);
            const QByteArray argsJson =
                json.isObject()  ? QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact)
                : json.isArray() ? QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact)
                                 : QByteArray();
            return CsvWriter::row(
                QList<QByteArray>{QByteArray::number(r), CommandSupport::number(rs.tMono(r)),
                                  CommandSupport::number(rs.tWall(r)), rs.qualname(r).toUtf8(),
                                  Qualname::shortName(rs.qualname(r)).toUtf8(),
                                  RecordSummary::summarize(args.value, 1000).toUtf8(), argsJson});
        }
        case Format::Text:
            break;
    }
    return QStringLiteral("%1  %2  %3  %4\n")
        .arg(r, 8)
        .arg(TimeFormat::mono(rs.tMono(r)), 14)
        .arg(Qualname::shortName(rs.qualname(r)), -34)
        .arg(RecordSummary::summarize(args.value, 200))
        .toUtf8();
}

}  // namespace

int DumpCommand::run(const QStringList &args) {
    CommandSupport cs(QStringLiteral("dump"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Print the records of a trace that match a filter, in file order.\n"
        "Default: one text line per record (index, t_mono, call, summary).\n"
        "--jsonl: one JSON object per line: index, t_mono, t_wall, qualname, args (bytes as\n"
        "hex, codec-tagged values as {\"__t__\": TAG, \"v\": PAYLOAD}).\n"
        "--csv: RFC 4180 with columns index,t_mono,t_wall,qualname,call,summary,args_json.\n"
        "Exit 0 ok, 1 usage error or invalid filter/range, 2 unreadable input."));
    p.addOption({QStringLiteral("jsonl"), QStringLiteral("JSON Lines output.")});
    p.addOption({QStringLiteral("csv"), QStringLiteral("CSV output (RFC 4180).")});
    cs.addSelectionOptions(p);
    if (const int rc = cs.parseArguments(p, args); rc >= 0) {
        return rc;
    }
    const bool jsonl = p.isSet(QStringLiteral("jsonl"));
    const bool csv = p.isSet(QStringLiteral("csv"));
    if (jsonl && csv) {
        cs.error(QStringLiteral("--jsonl and --csv exclude each other"));
        return CommandSupport::kExitUsage;
    }
    const Format format = jsonl ? Format::Jsonl : csv ? Format::Csv : Format::Text;
    CommandSupport::Selection sel;
    if (!cs.readSelection(p, &sel)) {
        return CommandSupport::kExitUsage;
    }
    const auto doc = cs.load(p.positionalArguments().front());
    if (!doc) {
        return CommandSupport::kExitUnreadable;
    }
    const std::vector<int> rows = CommandSupport::select(doc, sel);

    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly)) {
        cs.error(QStringLiteral("cannot write to standard output"));
        return CommandSupport::kExitUnreadable;
    }
    if (format == Format::Csv) {
        out.write(CsvWriter::row(QStringList{QStringLiteral("index"), QStringLiteral("t_mono"),
                                             QStringLiteral("t_wall"), QStringLiteral("qualname"),
                                             QStringLiteral("call"), QStringLiteral("summary"),
                                             QStringLiteral("args_json")}));
    }
    // Format chunks in parallel, a bounded window at a time, and write them in order.
    constexpr size_t kChunk = 1024;
    const size_t window =
        kChunk * size_t(qMax(1, QThreadPool::globalInstance()->maxThreadCount())) * 4;
    const TraceDocument &d = *doc;
    for (size_t begin = 0; begin < rows.size(); begin += window) {
        std::vector<std::pair<size_t, size_t>> chunks;
        const size_t end = std::min(rows.size(), begin + window);
        for (size_t b = begin; b < end; b += kChunk) {
            chunks.emplace_back(b, std::min(end, b + kChunk));
        }
        const QList<QByteArray> texts = QtConcurrent::blockingMapped<QList<QByteArray>>(
            chunks, [&](const std::pair<size_t, size_t> &c) {
                QByteArray text;
                for (size_t k = c.first; k < c.second; ++k) {
                    text += formatRecord(d, rows[k], format);
                }
                return text;
            });
        for (const QByteArray &t : texts) {
            if (out.write(t) != t.size()) {
                cs.error(QStringLiteral("cannot write to standard output"));
                return CommandSupport::kExitUnreadable;
            }
        }
    }
    out.flush();
    return CommandSupport::kExitOk;
}
