#pragma once

// Reads a database written by SqliteExport back through libsqlite3's own API, the way a
// notebook would: opened read-only, each query's rows as QVariant lists (NULL an invalid
// QVariant, INTEGER qint64, REAL double, TEXT QString).

#include <sqlite3.h>

#include <QList>
#include <QString>
#include <QVariant>

namespace lmct::test {

class SqliteQuery {
public:
    explicit SqliteQuery(const QString &path) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READONLY, nullptr) !=
            SQLITE_OK) {
            m_error = m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("no memory");
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    ~SqliteQuery() { sqlite3_close(m_db); }
    SqliteQuery(const SqliteQuery &) = delete;
    SqliteQuery &operator=(const SqliteQuery &) = delete;

    bool isOpen() const { return m_db != nullptr; }
    /** The last error (open or query); empty after a successful query. */
    const QString &error() const { return m_error; }

    QList<QVariantList> rows(const QString &sql) {
        QList<QVariantList> out;
        m_error.clear();
        sqlite3_stmt *st = nullptr;
        if (!m_db ||
            sqlite3_prepare_v2(m_db, sql.toUtf8().constData(), -1, &st, nullptr) != SQLITE_OK) {
            m_error = m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("not open");
            return out;
        }
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            QVariantList row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                switch (sqlite3_column_type(st, c)) {
                    case SQLITE_INTEGER:
                        row.append(QVariant::fromValue(qint64(sqlite3_column_int64(st, c))));
                        break;
                    case SQLITE_FLOAT:
                        row.append(sqlite3_column_double(st, c));
                        break;
                    case SQLITE_TEXT:
                        row.append(QString::fromUtf8(
                            reinterpret_cast<const char *>(sqlite3_column_text(st, c)),
                            sqlite3_column_bytes(st, c)));
                        break;
                    case SQLITE_NULL:
                        row.append(QVariant());
                        break;
                    default:
                        row.append(QByteArray(static_cast<const char *>(sqlite3_column_blob(st, c)),
                                              sqlite3_column_bytes(st, c)));
                }
            }
            out.append(row);
        }
        if (rc != SQLITE_DONE) {
            m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
        }
        sqlite3_finalize(st);
        return out;
    }

    /** The first column of the first row as an integer (-1 when there is none). */
    qint64 integer(const QString &sql) {
        const QList<QVariantList> r = rows(sql);
        return r.isEmpty() || r.front().isEmpty() || !r.front().front().isValid()
                   ? -1
                   : r.front().front().toLongLong();
    }

private:
    sqlite3 *m_db = nullptr;
    QString m_error;
};

}  // namespace lmct::test
