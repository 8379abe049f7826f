#include "export/recordlineformatter.h"

#include "codec/packedsummary.h"
#include "codec/qualname.h"
#include "export/csvwriter.h"
#include "export/packedjson.h"
#include "trace/mappingguard.h"

#include <cstring>

namespace lmct {

namespace {

/** Appends `field` as CsvWriter::field() writes it: runs between quotes copied whole. */
void appendCsvField(const char *data, qsizetype size, QByteArray *out) {
    if (size <= 0) {
        return;
    }
    const char *end = data + size;
    const char *quote = static_cast<const char *>(std::memchr(data, '"', size_t(size)));
    bool quoted = quote != nullptr;
    for (const char *p = data; p < end && !quoted; ++p) {
        quoted = *p == ',' || *p == '\r' || *p == '\n';
    }
    if (!quoted) {
        out->append(data, size);
        return;
    }
    // At most every byte a quote: room for that, then cut to what was written.
    const qsizetype at = out->size();
    out->resize(at + 2 * size + 2);
    char *w = out->data() + at;
    *w++ = '"';
    const char *run = data;
    while (quote) {
        const size_t n = size_t(quote + 1 - run);  // up to the quote, which is then doubled
        std::memcpy(w, run, n);
        w += n;
        *w++ = '"';
        run = quote + 1;
        quote = static_cast<const char *>(std::memchr(run, '"', size_t(end - run)));
    }
    std::memcpy(w, run, size_t(end - run));
    w += end - run;
    *w++ = '"';
    out->truncate(w - out->constData());
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
    n.call = PackedSummary::callOf(qualname);
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
        // args_json streams (and checks the whole body: what it accepts decodes whole, so
        // the summary has no "(arguments: ...)" to add); so does the summary, from the same
        // bytes, unless PackedSummary declines: then it reads the value tree.
        thread_local QByteArray json;
        json.clear();
        PackedJson::Shape shape = PackedJson::Shape::Scalar;
        if (!PackedJson::appendRecordArgs(body, rs.bodyLength(r), &json, &shape)) {
            return false;
        }
        QString summary;
        if (!PackedSummary::summarizeRecord(body, rs.bodyLength(r), names->call, 1000, &summary)) {
            const TraceDocument::Args args = m_doc.decodeArgs(r);
            if (!args.error.isEmpty()) {
                return false;
            }
            summary = RecordExport::summary(rs.qualname(r), args, 1000);
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
        const QByteArray summaryUtf8 = summary.toUtf8();
        appendCsvField(summaryUtf8.constData(), summaryUtf8.size(), out);
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
