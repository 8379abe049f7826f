#include "export/recordlineformatter.h"

#include "codec/qualname.h"
#include "export/csvwriter.h"
#include "export/packedjson.h"
#include "trace/mappingguard.h"

namespace lmct {

namespace {

/** Appends `field` as CsvWriter::field() writes it. */
void appendCsvField(const char *data, qsizetype size, QByteArray *out) {
    bool quote = false;
    for (qsizetype i = 0; i < size && !quote; ++i) {
        const char c = data[i];
        quote = c == ',' || c == '"' || c == '\r' || c == '\n';
    }
    if (!quote) {
        out->append(data, size);
        return;
    }
    out->append('"');
    qsizetype run = 0;
    for (qsizetype i = 0; i < size; ++i) {
        if (data[i] == '"') {
            out->append(data + run, i + 1 - run);  // the quote, then its double
            run = i;
        }
    }
    out->append(data + run, size - run);
    out->append('"');
}

}  // namespace

RecordLineFormatter::RecordLineFormatter(const TraceDocument &doc, RecordExport::Format format)
    : m_doc(doc), m_format(format) {
    const RecordStore &rs = doc.records();
    const int n = rs.qualnameCount();
    m_names.reserve(size_t(n));
    for (int id = 0; id < n; ++id) {
        m_names.push_back(namesOf(rs.qualnameById(quint32(id))));
    }
}

RecordLineFormatter::Names RecordLineFormatter::namesOf(const QString &qualname) {
    Names n;
    const QByteArray utf8 = qualname.toUtf8();
    PackedJson::appendString(std::string_view(utf8.constData(), size_t(utf8.size())), &n.json);
    n.csvName = CsvWriter::field(utf8);
    n.csvCall = CsvWriter::field(Qualname::shortName(qualname).toUtf8());
    return n;
}

void RecordLineFormatter::append(int r, QByteArray *out) const {
    if (!appendFast(r, out)) {
        out->append(RecordExport::formatRecordByValue(m_doc, r, m_format));
    }
}

bool RecordLineFormatter::appendFast(int r, QByteArray *out) const {
    const RecordStore &rs = m_doc.records();
    if (r < 0 || r >= rs.size() || m_doc.shrunkTo() >= 0 || MappingGuard::faultCount() > 0) {
        return false;
    }
    const quint32 id = rs.qualnameId(r);
    Names local;
    const Names *names = &local;
    if (id < m_names.size()) {
        names = &m_names[id];
    } else {
        local = namesOf(rs.qualname(r));
    }
    const auto *body = reinterpret_cast<const char *>(m_doc.fileData() + rs.frameOffset(r) + 4);
    const qsizetype mark = out->size();
    if (m_format == RecordExport::Format::Jsonl) {
        if (!PackedJson::appendJsonLine(body, rs.bodyLength(r), r, names->json, rs.tMono(r),
                                        rs.tWall(r), out)) {
            return false;
        }
    } else {
        // The summary reads the value tree; args_json streams.
        const TraceDocument::Args args = m_doc.decodeArgs(r);
        if (!args.error.isEmpty()) {
            return false;
        }
        thread_local QByteArray json;
        json.clear();
        PackedJson::Shape shape = PackedJson::Shape::Scalar;
        if (!PackedJson::appendRecordArgs(body, rs.bodyLength(r), &json, &shape)) {
            return false;
        }
        PackedJson::appendInt(r, out);
        out->append(',');
        out->append(RecordExport::number(rs.tMono(r)));
        out->append(',');
        out->append(RecordExport::number(rs.tWall(r)));
        out->append(',');
        out->append(names->csvName);
        out->append(',');
        out->append(names->csvCall);
        out->append(',');
        const QByteArray summary = RecordExport::summary(rs.qualname(r), args, 1000).toUtf8();
        appendCsvField(summary.constData(), summary.size(), out);
        out->append(',');
        if (shape != PackedJson::Shape::Scalar) {
            appendCsvField(json.constData(), json.size(), out);
        }
        out->append("\r\n", 2);
    }
    // A read that faulted (the file shrank under it) read zeros: the value-tree path says so.
    if (MappingGuard::faultCount() > 0) {
        out->truncate(mark);
        return false;
    }
    return true;
}

}  // namespace lmct
