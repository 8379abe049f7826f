#pragma once

#include <QByteArray>
#include <QtGlobal>
#include <algorithm>
#include <cstring>
#include <string_view>

namespace lmct {

/**
 * Compact JSON appended to a QByteArray through a raw pointer: grows it in steps, and sets its
 * size to what was written when done (QByteArray::append costs a call and checks per piece).
 * Beside raw bytes it writes the JSON scalars as QJsonDocument::toJson(Compact) writes them:
 * integers, doubles (Qt's shortest form; integral ones up to 2^53 as integers), strings escaped
 * as Qt escapes them, bytes as lowercase hex. PackedJson streams msgpack through it.
 *
 * Units: sizes and offsets are bytes of the output array, counted from its start (what it held
 * before is kept; size() starts there).
 *
 * Ownership: writes into a QByteArray it does not own; the array must outlive the sink, and is
 * not to be touched while the sink lives (its size is past what was written until then).
 *
 * Thread-safety: one sink per thread; none is shared.
 *
 * Errors: none thrown; appendEscaped() says false for text that is not UTF-8, appendString()
 * then writes it as QString::fromUtf8 reads it (U+FFFD per bad byte).
 */
class JsonSink {
public:
    explicit JsonSink(QByteArray *b) : m_b(b), m_len(b->size()) {
        m_b->resize(std::max<qsizetype>(m_b->capacity(), m_len + 4096));
        m_data = m_b->data();
        m_cap = m_b->size();
    }
    ~JsonSink() { m_b->resize(m_len); }
    JsonSink(const JsonSink &) = delete;
    JsonSink &operator=(const JsonSink &) = delete;

    /** Room for `n` more bytes; returns where they go (commit with advance()). */
    char *room(qsizetype n) {
        if (m_len + n > m_cap) {
            m_b->resize(std::max(2 * m_cap, m_len + n + 4096));
            m_data = m_b->data();
            m_cap = m_b->size();
        }
        return m_data + m_len;
    }
    void advance(qsizetype n) { m_len += n; }
    void append(const char *s, qsizetype n) {
        char *w = room(n);
        if (n <= 16) {  // most pieces are short: no call into memcpy
            for (qsizetype i = 0; i < n; ++i) {
                w[i] = s[i];
            }
        } else {
            std::memcpy(w, s, size_t(n));
        }
        m_len += n;
    }
    template <size_t N>
    void literal(const char (&s)[N]) {
        append(s, qsizetype(N - 1));
    }
    void append(char c) {
        *room(1) = c;
        ++m_len;
    }
    void append(const QByteArray &b) { append(b.constData(), b.size()); }
    /** `n` bytes as lowercase hex digits, two per byte. */
    void appendHex(const char *data, quint32 n);
    /** An integer as QJsonDocument writes it. */
    void appendInt(qint64 v) {
        char buf[24];
        char *e = buf + sizeof(buf);
        char *p = e;
        quint64 u = v < 0 ? 0 - quint64(v) : quint64(v);
        do {
            *--p = char('0' + u % 10);
            u /= 10;
        } while (u);
        if (v < 0) {
            *--p = '-';
        }
        append(p, e - p);
    }
    /** A double as QJsonDocument writes a QJsonValue(double): null when not finite. */
    void appendDouble(double v);
    /**
     * `s` with JSON's escapes for ASCII controls, quote and backslash. False (nothing appended
     * past what was valid) when `s` is not well-formed UTF-8.
     */
    bool appendEscaped(std::string_view s);
    /** A JSON string of UTF-8 text, quotes included (see PackedJson::appendString). */
    void appendString(std::string_view utf8);

    qsizetype size() const { return m_len; }
    const char *data() const { return m_data; }
    void truncate(qsizetype n) { m_len = n; }

private:
    QByteArray *m_b;
    char *m_data = nullptr;
    qsizetype m_len = 0;
    qsizetype m_cap = 0;
};

}  // namespace lmct
