#include "export/recordexport.h"
#include "util/computepool.h"
#include "util/parallelchunks.h"

#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valueformatter.h"
#include "export/csvwriter.h"
#include "export/recordlineformatter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QThreadPool>

namespace lmct {

QByteArray RecordExport::csvHeader() {
    return CsvWriter::row(QStringList{QStringLiteral("index"), QStringLiteral("t_mono"),
                                      QStringLiteral("t_wall"), QStringLiteral("qualname"),
                                      QStringLiteral("call"), QStringLiteral("summary"),
                                      QStringLiteral("args_json")});
}

QByteArray RecordExport::formatRecord(const TraceDocument &doc, int r, Format format) {
    QByteArray out;
    RecordLineFormatter(doc, format).append(r, &out);
    return out;
}

QByteArray RecordExport::formatRecordByValue(const TraceDocument &doc, int r, Format format) {
    const RecordStore &rs = doc.records();
    const TraceDocument::Args args = doc.decodeArgs(r);
    if (format == Format::Jsonl) {
        QJsonObject o{
            {QStringLiteral("index"), r},
            {QStringLiteral("t_mono"), rs.tMono(r)},
            {QStringLiteral("t_wall"), rs.tWall(r)},
            {QStringLiteral("qualname"), rs.qualname(r)},
            {QStringLiteral("args"), ValueFormatter::toJson(args.value)},
        };
        if (!args.error.isEmpty()) {
            o.insert(QStringLiteral("args_error"), args.error);
        }
        return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    }
    const QJsonValue json = ValueFormatter::toJson(args.value);
    const QByteArray argsJson =
        json.isObject()  ? QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact)
        : json.isArray() ? QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact)
                         : QByteArray();
    return CsvWriter::row(
        QList<QByteArray>{QByteArray::number(r), number(rs.tMono(r)), number(rs.tWall(r)),
                          rs.qualname(r).toUtf8(), Qualname::shortName(rs.qualname(r)).toUtf8(),
                          summary(rs.qualname(r), args, 1000).toUtf8(), argsJson});
}

QString RecordExport::summary(const QString &qualname, const TraceDocument::Args &args,
                              int maxChars) {
    const QString text = RecordSummary::summarize(qualname, args.value, maxChars);
    if (args.error.isEmpty()) {
        return text;
    }
    return text + (text.isEmpty() ? QString() : QStringLiteral(" ")) +
           QStringLiteral("(arguments: %1)").arg(args.error);
}

bool RecordExport::writeRows(QIODevice *out, const std::vector<int> &rows,
                             const std::function<QByteArray(int)> &formatOne, QString *error) {
    return writeRows(
        out, rows, [&formatOne](int r, QByteArray *text) { text->append(formatOne(r)); }, error);
}

bool RecordExport::writeRows(QIODevice *out, const std::vector<int> &rows,
                             const std::function<void(int, QByteArray *)> &appendOne,
                             QString *error) {
    // Format chunks in parallel, a bounded window at a time, and write them in order.
    constexpr size_t kChunk = 1024;
    const size_t window = kChunk * size_t(qMax(1, ComputePool::instance()->maxThreadCount())) * 4;
    for (size_t begin = 0; begin < rows.size(); begin += window) {
        std::vector<std::pair<size_t, size_t>> chunks;
        const size_t end = std::min(rows.size(), begin + window);
        for (size_t b = begin; b < end; b += kChunk) {
            chunks.emplace_back(b, std::min(end, b + kChunk));
        }
        std::vector<QByteArray> texts(chunks.size());
        ParallelChunks::run(int(chunks.size()), [&](int ci) {
            const std::pair<size_t, size_t> &c = chunks[size_t(ci)];
            QByteArray &text = texts[size_t(ci)];
            for (size_t k = c.first; k < c.second; ++k) {
                appendOne(rows[k], &text);
            }
        });
        for (const QByteArray &t : texts) {
            if (out->write(t) != t.size()) {
                if (error) {
                    *error = out->errorString();
                }
                return false;
            }
        }
    }
    return true;
}

bool RecordExport::write(QIODevice *out, const TraceDocument &doc, const std::vector<int> &rows,
                         Format format, QString *error) {
    if (format == Format::Csv) {
        const QByteArray h = csvHeader();
        if (out->write(h) != h.size()) {
            if (error) {
                *error = out->errorString();
            }
            return false;
        }
    }
    const RecordLineFormatter formatter(doc, format);
    if (!writeRows(
            out, rows, [&formatter](int r, QByteArray *text) { formatter.append(r, text); },
            error)) {
        return false;
    }
    return checkNotShrunk(doc, error);
}

bool RecordExport::checkNotShrunk(const TraceDocument &doc, QString *error) {
    qint64 size = -1;
    const QString shrank = doc.shrinkSentence(&size);
    if (shrank.isEmpty()) {
        return true;
    }
    if (error) {
        *error = QStringLiteral(
                     "%1: the records past byte %2 are no longer there, so nothing "
                     "was written")
                     .arg(shrank)
                     .arg(size);
    }
    return false;
}

QByteArray RecordExport::number(double v) {
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

}  // namespace lmct
