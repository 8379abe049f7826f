#include "export/sqlitedatabase.h"

#include <sqlite3.h>
#include <cerrno>
#include <cstring>

namespace lmct {

SqliteDatabase::~SqliteDatabase() {
    if (m_db) {
        sqlite3_close_v2(m_db);
    }
}

bool SqliteDatabase::open(const QString &path, QString *error) {
    const QByteArray name = path.toUtf8();
    const int rc = sqlite3_open_v2(
        name.constData(), &m_db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
        nullptr);
    if (rc != SQLITE_OK) {
        if (error) {
            *error = m_db ? lastError() : QString::fromUtf8(sqlite3_errstr(rc));
        }
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        return false;
    }
    return true;
}

bool SqliteDatabase::exec(const char *sql, QString *error) {
    // Statement by statement rather than sqlite3_exec: the operating system's reason for a
    // failed step (sqlite3_system_errno) is read before finalizing, which may clear it.
    const char *rest = sql;
    while (rest && *rest) {
        sqlite3_stmt *st = nullptr;
        const char *tail = nullptr;
        if (sqlite3_prepare_v2(m_db, rest, -1, &st, &tail) != SQLITE_OK) {
            if (error) {
                *error = lastError();
            }
            return false;
        }
        int rc = SQLITE_DONE;
        while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        }
        if (rc != SQLITE_DONE) {
            if (error) {
                *error = lastError();
            }
            sqlite3_finalize(st);
            return false;
        }
        sqlite3_finalize(st);
        rest = tail;
    }
    return true;
}

bool SqliteDatabase::close(QString *error) {
    if (!m_db) {
        return true;
    }
    if (sqlite3_close(m_db) != SQLITE_OK) {
        if (error) {
            *error = lastError();
        }
        return false;
    }
    m_db = nullptr;
    return true;
}

QString SqliteDatabase::lastError() const {
    const int lastErrno = errno;  // before anything here can change it
    if (!m_db) {
        return QStringLiteral("no database");
    }
    QString text = QString::fromUtf8(sqlite3_errmsg(m_db));
    int sys = sqlite3_system_errno(m_db);
    const int code = sqlite3_errcode(m_db) & 0xff;  // the primary code
    if (sys == 0 && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN)) {
        // A failed write is rolled back inside the step, which clears libsqlite3's own record
        // of the reason (EFBIG, ENOSPC); the thread's errno still holds it.
        sys = lastErrno;
    }
    if (sys != 0) {
        text += QStringLiteral(" (%1)").arg(QString::fromLocal8Bit(std::strerror(sys)));
    }
    return text;
}

}  // namespace lmct
