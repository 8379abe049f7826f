#include "export/sqlitestatement.h"

#include "export/sqlitedatabase.h"

#include <sqlite3.h>

namespace lmct {

SqliteStatement::SqliteStatement(SqliteDatabase &db, const char *sql) : m_db(db) {
    if (sqlite3_prepare_v3(db.handle(), sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) !=
        SQLITE_OK) {
        m_error = db.lastError();
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_stmt);
}

void SqliteStatement::bindNull(int i) {
    sqlite3_bind_null(m_stmt, i);
}

void SqliteStatement::bindInt(int i, qint64 v) {
    sqlite3_bind_int64(m_stmt, i, v);
}

void SqliteStatement::bindInt(int i, const std::optional<qint64> &v) {
    if (v) {
        sqlite3_bind_int64(m_stmt, i, *v);
    } else {
        sqlite3_bind_null(m_stmt, i);
    }
}

void SqliteStatement::bindDouble(int i, double v) {
    sqlite3_bind_double(m_stmt, i, v);
}

void SqliteStatement::bindText(int i, QByteArrayView utf8) {
    if (utf8.isNull()) {
        sqlite3_bind_null(m_stmt, i);
    } else {
        sqlite3_bind_text64(m_stmt, i, utf8.data(), sqlite3_uint64(utf8.size()), SQLITE_STATIC,
                            SQLITE_UTF8);
    }
}

bool SqliteStatement::run(QString *error) {
    const int rc = sqlite3_step(m_stmt);
    if (rc != SQLITE_DONE && error) {
        *error = m_db.lastError();
    }
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    return rc == SQLITE_DONE;
}

}  // namespace lmct
