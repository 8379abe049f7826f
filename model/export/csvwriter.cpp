#include "export/csvwriter.h"

QByteArray CsvWriter::field(const QByteArray &utf8) {
    bool quote = false;
    for (char c : utf8) {
        if (c == ',' || c == '"' || c == '\r' || c == '\n') {
            quote = true;
            break;
        }
    }
    if (!quote) {
        return utf8;
    }
    QByteArray out;
    out.reserve(utf8.size() + 8);
    out.append('"');
    for (char c : utf8) {
        if (c == '"') {
            out.append('"');
        }
        out.append(c);
    }
    out.append('"');
    return out;
}

QByteArray CsvWriter::row(const QList<QByteArray> &fields) {
    QByteArray out;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i > 0) {
            out.append(',');
        }
        out.append(field(fields[i]));
    }
    out.append("\r\n");
    return out;
}

QByteArray CsvWriter::row(const QStringList &fields) {
    QList<QByteArray> utf8;
    utf8.reserve(fields.size());
    for (const QString &f : fields) {
        utf8.append(f.toUtf8());
    }
    return row(utf8);
}
