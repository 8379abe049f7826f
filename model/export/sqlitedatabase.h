#pragma once

#include <QString>

struct sqlite3;

namespace lmct {

/**
 * One libsqlite3 connection, closed when destroyed (RAII over sqlite3_open_v2 / sqlite3_close).
 * Used by SqliteExport to write a database file; the statements (SqliteStatement) made on it
 * must be destroyed before it.
 *
 * Errors: every call that can fail returns false and sets `error` to libsqlite3's message
 * (sqlite3_errmsg), followed by the operating system's reason when there is one
 * ("disk I/O error (No space left on device)"): sqlite3_system_errno, or for a failed write
 * the thread's errno right after it (libsqlite3 clears its own record when it rolls back).
 *
 * Thread-safety: one thread at a time (the connection is opened with SQLITE_OPEN_NOMUTEX).
 */
class SqliteDatabase {
public:
    SqliteDatabase() = default;
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase &) = delete;
    SqliteDatabase &operator=(const SqliteDatabase &) = delete;

    /** Opens (creating when absent) the database file at `path` for reading and writing. */
    bool open(const QString &path, QString *error);
    /** Runs one or more SQL statements that return no rows. */
    bool exec(const char *sql, QString *error);
    /** Closes the connection; false when libsqlite3 refused (statements still open). */
    bool close(QString *error);

    sqlite3 *handle() const { return m_db; }
    /** libsqlite3's last message on this connection, with errno's text when set. */
    QString lastError() const;

private:
    sqlite3 *m_db = nullptr;
};

}  // namespace lmct
