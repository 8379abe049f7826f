#include "export/sqlitedatabase.h"

#include <sqlite3.h>
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
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
        if (error) {
            *error = lastError();
        }
        return false;
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
    if (!m_db) {
        return QStringLiteral("no database");
    }
    QString text = QString::fromUtf8(sqlite3_errmsg(m_db));
    const int sys = sqlite3_system_errno(m_db);
    if (sys != 0) {
        text += QStringLiteral(" (%1)").arg(QString::fromLocal8Bit(std::strerror(sys)));
    }
    return text;
}

}  // namespace lmct
