#include "cachecommand.h"

#include "util/hex.h"
#include "util/terminaltext.h"

#include <cmath>

namespace lmct {

CacheCommand::CacheCommand(const QString &command, const QString &description)
    : m_support(command) {
    m_parser.setApplicationDescription(description);
    m_parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
}

CacheCommand::~CacheCommand() {
    flush();
}

int CacheCommand::parse(const QStringList &args) {
    return m_support.parseArguments(m_parser, args);
}

std::shared_ptr<const TraceDocument> CacheCommand::load() const {
    return m_support.load(file());
}

void CacheCommand::error(const QString &message) const {
    m_support.error(message);
}

void CacheCommand::write(const QByteArray &s) {
    if (json()) {
        m_buffer.append(s);
    } else {
        m_buffer.append(TerminalText::escapedLines(QString::fromUtf8(s)).toUtf8());
    }
    if (m_buffer.size() > (1 << 20)) {
        flush();
    }
}

void CacheCommand::flush() {
    if (!m_buffer.isEmpty()) {
        CommandSupport::print(m_buffer);
        m_buffer.clear();
    }
    CommandSupport::flushOutput();
}

QByteArray CacheCommand::number(double v) {
    if (!std::isfinite(v)) {
        return QByteArrayLiteral("null");
    }
    return CommandSupport::number(v);
}

QByteArray CacheCommand::string(const QString &s) {
    QByteArray out;
    out.reserve(s.size() + 2);
    out.append('"');
    for (const char c : s.toUtf8()) {
        const uchar u = uchar(c);
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            default:
                if (u < 0x20) {
                    out.append("\\u00");
                    out.append(Hex::digit(u >> 4));
                    out.append(Hex::digit(u));
                } else {
                    out.append(c);
                }
        }
    }
    out.append('"');
    return out;
}

}  // namespace lmct
