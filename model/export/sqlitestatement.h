#pragma once

#include <QByteArrayView>
#include <QString>
#include <optional>

struct sqlite3_stmt;

namespace lmct {

class SqliteDatabase;

/**
 * One prepared libsqlite3 statement (RAII over sqlite3_prepare_v3 / sqlite3_finalize) for
 * inserting many rows: bind the parameters (1-based, as in SQL's `?1`), then run() it; run()
 * resets the statement for the next row.
 *
 * Binding: text and blobs are bound without a copy (SQLITE_STATIC), so the bytes must stay
 * alive until run() returns. A NaN double is stored as NULL (libsqlite3's rule), as is an
 * empty optional.
 *
 * Ownership: must be destroyed before its SqliteDatabase. Errors: prepare failures leave the
 * statement invalid (isValid(), error()); run() returns false with `error` set.
 * Thread-safety: the thread of its database.
 */
class SqliteStatement {
public:
    SqliteStatement(SqliteDatabase &db, const char *sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    /** Why preparing failed (empty when valid). */
    const QString &error() const { return m_error; }

    void bindNull(int i);
    void bindInt(int i, qint64 v);
    void bindInt(int i, const std::optional<qint64> &v);
    void bindDouble(int i, double v);
    /** UTF-8 text; a null view binds NULL. */
    void bindText(int i, QByteArrayView utf8);

    /** Steps the statement to its end, then resets it and clears the bindings. */
    bool run(QString *error);

private:
    SqliteDatabase &m_db;
    sqlite3_stmt *m_stmt = nullptr;
    QString m_error;
};

}  // namespace lmct
