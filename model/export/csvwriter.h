#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

/**
 * RFC 4180 CSV rows: fields separated by commas, records ended by CRLF, a field quoted with
 * `"` when it holds a comma, a quote, CR or LF, quotes inside doubled. Text is UTF-8.
 *
 * Thread-safety: stateless.
 */
class CsvWriter {
public:
    /** One field, quoted when needed. */
    static QByteArray field(const QByteArray &utf8);
    /** One record: the fields joined with commas, then CRLF. */
    static QByteArray row(const QList<QByteArray> &fields);
    static QByteArray row(const QStringList &fields);
};
