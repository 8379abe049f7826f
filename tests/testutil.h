#pragma once

// Helpers shared by the test suites: a msgpack byte builder (msgpack-cxx's packer for the
// canonical encodings, hand-written headers for the exotic widths), trace framing, small
// synthetic traces, access to the generated fixtures and the reference traces, files in a
// temporary directory, running the built `lmct` (or any program) to completion, and opening a
// trace in the viewer's window and waiting for it.

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>
#include <msgpack.hpp>

#include <cstring>
#include <string>

namespace lmct::test {

/** Appends msgpack values to a byte array. Width 0 = the smallest encoding (msgpack-cxx). */
class Mp {
public:
    QByteArray bytes;

    Mp &raw(const QByteArray &b) {
        bytes += b;
        return *this;
    }
    Mp &nil() {
        return packed([](auto &p) { p.pack_nil(); });
    }
    Mp &boolean(bool b) {
        return packed([b](auto &p) { b ? p.pack_true() : p.pack_false(); });
    }
    Mp &uint(quint64 u) {
        return packed([u](auto &p) { p.pack_uint64(u); });
    }
    Mp &sint(qint64 i) {
        return packed([i](auto &p) { p.pack_int64(i); });
    }
    // Floats by hand: msgpack-cxx packs integral floats as ints.
    Mp &f64(double d) {
        quint64 u;
        std::memcpy(&u, &d, 8);
        return byte(0xcb).be(u, 8);
    }
    Mp &f32(float f) {
        quint32 u;
        std::memcpy(&u, &f, 4);
        return byte(0xca).be(u, 4);
    }

    /** Unsigned int with an explicit width: 8, 16, 32 or 64 (0xcc..0xcf). */
    Mp &uintW(quint64 u, int width) {
        const uchar code = width == 8 ? 0xcc : width == 16 ? 0xcd : width == 32 ? 0xce : 0xcf;
        return byte(code).be(u, width / 8);
    }
    /** Signed int with an explicit width: 8, 16, 32 or 64 (0xd0..0xd3). */
    Mp &intW(qint64 i, int width) {
        const uchar code = width == 8 ? 0xd0 : width == 16 ? 0xd1 : width == 32 ? 0xd2 : 0xd3;
        return byte(code).be(quint64(i), width / 8);
    }

    /** str; width 0 minimal, -1 fixstr, 8/16/32 str8/16/32. */
    Mp &str(const QByteArray &s, int width = 0) {
        if (width == 0) {
            return packed([&s](auto &p) {
                p.pack_str(uint32_t(s.size()));
                p.pack_str_body(s.constData(), uint32_t(s.size()));
            });
        }
        if (width == -1) {
            byte(uchar(0xa0 | s.size()));
        } else {
            byte(width == 8 ? 0xd9 : width == 16 ? 0xda : 0xdb).be(quint64(s.size()), width / 8);
        }
        bytes += s;
        return *this;
    }
    Mp &str(const char *s, int width = 0) { return str(QByteArray(s), width); }
    Mp &str(const QString &s, int width = 0) { return str(s.toUtf8(), width); }

    /** bin; width 0 minimal, 8/16/32 bin8/16/32. */
    Mp &bin(const QByteArray &b, int width = 0) {
        if (width == 0) {
            return packed([&b](auto &p) {
                p.pack_bin(uint32_t(b.size()));
                p.pack_bin_body(b.constData(), uint32_t(b.size()));
            });
        }
        byte(width == 8 ? 0xc4 : width == 16 ? 0xc5 : 0xc6).be(quint64(b.size()), width / 8);
        bytes += b;
        return *this;
    }

    /** Array header; width 0 minimal, -1 fixarray, 16/32 array16/32. */
    Mp &arr(quint32 n, int width = 0) {
        if (width == 0) {
            return packed([n](auto &p) { p.pack_array(n); });
        }
        if (width == -1) {
            return byte(uchar(0x90 | n));
        }
        return byte(width == 16 ? 0xdc : 0xdd).be(n, width / 8);
    }
    /** Map header; width 0 minimal, -1 fixmap, 16/32 map16/32. */
    Mp &map(quint32 n, int width = 0) {
        if (width == 0) {
            return packed([n](auto &p) { p.pack_map(n); });
        }
        if (width == -1) {
            return byte(uchar(0x80 | n));
        }
        return byte(width == 16 ? 0xde : 0xdf).be(n, width / 8);
    }
    /** ext with msgpack-cxx's smallest header (fixext 1/2/4/8/16 or ext8/16/32). */
    Mp &ext(qint8 type, const QByteArray &data) {
        return packed([&](auto &p) {
            p.pack_ext(uint32_t(data.size()), type);
            p.pack_ext_body(data.constData(), uint32_t(data.size()));
        });
    }
    /** The start of a codec wrapper {"__t__": tag, "v": <next value>}. */
    Mp &tag(const char *t) { return map(2).str("__t__").str(t).str("v"); }

    Mp &byte(uchar b) {
        bytes += char(b);
        return *this;
    }

private:
    template <typename F>
    Mp &packed(F f) {
        msgpack::sbuffer buf;
        msgpack::packer<msgpack::sbuffer> p(&buf);
        f(p);
        bytes += QByteArray(buf.data(), qsizetype(buf.size()));
        return *this;
    }
    Mp &be(quint64 v, int n) {
        for (int i = n - 1; i >= 0; --i) {
            bytes += char((v >> (8 * i)) & 0xff);
        }
        return *this;
    }
};

inline QByteArray be32(quint32 n) {
    QByteArray b(4, '\0');
    qToBigEndian(n, b.data());
    return b;
}

/** One frame: 4-byte big-endian length and the body. */
inline QByteArray frame(const QByteArray &body) {
    return be32(quint32(body.size())) + body;
}

/** The offsets where the frames of a trace's bytes end (frame 0 = the header). */
inline QList<qint64> frameEnds(const QByteArray &bytes) {
    QList<qint64> ends;
    for (qint64 off = 0; off + 4 <= bytes.size();) {
        off += 4 + qFromBigEndian<quint32>(bytes.constData() + off);
        ends.append(off);
    }
    return ends;
}

struct HeaderSpec {
    QByteArray magic = "LMCT";
    qint64 formatVersion = 1;
    QString level = QStringLiteral("storage");
    qint64 schema = 2;
    QString configJson;
    QString configDigest;
};

inline QByteArray headerBody(const HeaderSpec &h = HeaderSpec()) {
    Mp m;
    m.map(9).str("type").str("header");
    m.str("magic").bin(h.magic);
    m.str("format_version").sint(h.formatVersion);
    m.str("level").str(h.level);
    m.str("trace_schema_version").sint(h.schema);
    m.str("t_mono_start").f64(1000.5);
    m.str("t_wall_start").f64(1760000000.25);
    m.str("sm_config_json").str(h.configJson);
    m.str("sm_config_digest").str(h.configDigest);
    return m.bytes;
}

inline QString storageQualname(const char *call) {
    return QStringLiteral("lmcache.v1.distributed.storage_manager.StorageManager.") +
           QLatin1String(call);
}

/** A record body in msgspec order; `args` is a complete msgpack value (normally a map). */
inline QByteArray recordBody(double tMono, double tWall, const QString &qualname,
                             const QByteArray &args) {
    Mp m;
    m.map(5).str("type").str("record");
    m.str("t_mono").f64(tMono).str("t_wall").f64(tWall).str("qualname").str(qualname);
    m.str("args").raw(args);
    return m.bytes;
}

/** The 32-byte chunk hash objectKey() derives from `seed`. */
inline QByteArray chunkHash(int seed) {
    QByteArray hash(32, '\0');
    for (int i = 0; i < 32; ++i) {
        hash[i] = char((seed * 31 + i * 7) & 0xff);
    }
    return hash;
}

/** A 5-field ObjectKey wrapper (schema 2) with the hash chunkHash(seed). */
inline QByteArray objectKey(int seed, qint64 kvRank = 33554944, const char *model = "Qwen/Qwen3-8B",
                            const char *salt = "") {
    const QByteArray hash = chunkHash(seed);
    Mp m;
    m.tag("ObjectKey").map(5);
    m.str("chunk_hash").bin(hash).str("model_name").str(model).str("kv_rank").sint(kvRank);
    m.str("object_group_id").sint(0).str("cache_salt").str(salt);
    return m.bytes;
}

/** args {"keys": [n ObjectKeys]} */
inline QByteArray keysArgs(int n, int seed = 0) {
    Mp m;
    m.map(1).str("keys").arr(quint32(n));
    for (int i = 0; i < n; ++i) {
        m.raw(objectKey(seed + i));
    }
    return m.bytes;
}

/** A small valid trace: header + `n` finish_write / reserve_write records. */
struct SmallTrace {
    QByteArray bytes;
    QList<qint64> frameStarts;  ///< offset of every record frame
    QList<qint64> frameEnds;    ///< offset after every record frame
    QList<double> tMono;
    QStringList qualnames;
    qint64 headerEnd = 0;
};

inline SmallTrace smallTrace(int n) {
    SmallTrace t;
    t.bytes = frame(headerBody());
    t.headerEnd = t.bytes.size();
    for (int i = 0; i < n; ++i) {
        const double tm = 0.001 * (i + 1) + 0.0000001 * i * i;
        const QString q = storageQualname(i % 2 ? "finish_write" : "reserve_write");
        t.frameStarts.append(t.bytes.size());
        t.bytes += frame(recordBody(tm, 1760000000.25 + tm, q, keysArgs(1 + i % 3, i)));
        t.frameEnds.append(t.bytes.size());
        t.tMono.append(tm);
        t.qualnames.append(q);
    }
    return t;
}

inline QString fixturePath(const QString &name) {
    return QStringLiteral(LMCT_FIXTURES "/") + name;
}
inline QString tracePath(const QString &name) {
    return QStringLiteral(LMCT_TRACES "/") + name;
}

inline QByteArray readAll(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return QByteArray();
    }
    return f.readAll();
}

inline QJsonObject readJson(const QString &path) {
    return QJsonDocument::fromJson(readAll(path)).object();
}

/**
 * Writes `bytes` to the file `name` in `dir` (replacing it). Returns its path, or an empty
 * string when it could not be written.
 */
inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
        return {};
    }
    return path;
}

/** What a program run to completion returned and wrote. */
struct ProcessRun {
    int exitCode = -1;  ///< -1 when it did not start, crashed or timed out
    QByteArray out;     ///< stdout
    QByteArray err;     ///< stderr

    /** `out` as JSON Lines: one object per non-empty line. */
    QList<QJsonObject> jsonLines() const {
        QList<QJsonObject> lines;
        for (const QByteArray &l : out.split('\n')) {
            if (!l.trimmed().isEmpty()) {
                lines.append(QJsonDocument::fromJson(l).object());
            }
        }
        return lines;
    }
};

/**
 * Runs `program` with `args` (and `env`, the test's environment by default) and waits for it,
 * at most `timeoutMs` (then it is killed and the run reports exit code -1).
 */
inline ProcessRun runProgram(
    const QString &program, const QStringList &args,
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 300000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit) {
        qWarning("%s %s did not finish normally", qPrintable(program),
                 qPrintable(args.join(QLatin1Char(' '))));
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

/** The built `lmct` command line program. */
inline QString lmctPath() {
    return QStringLiteral(LMCT_BIN_DIR "/lmct");
}

/** Runs the built `lmct` with `args` to completion (see runProgram). */
inline ProcessRun runLmct(const QStringList &args) {
    return runProgram(lmctPath(), args);
}

/**
 * Opens `path` in the viewer's main window `w` like File > Open does and waits (up to
 * `timeoutMs`) until the asynchronous load is done. Returns the tab (a TraceTab*), or null when
 * it did not open or did not finish loading in time. (A template: this header needs no widgets.)
 */
template <typename Window>
auto openAndWait(Window &w, const QString &path, int timeoutMs = 30000)
    -> decltype(w.openFile(path)) {
    const auto tab = w.openFile(path);
    if (!tab || !QTest::qWaitFor([tab] { return !tab->isLoading(); }, timeoutMs)) {
        return nullptr;
    }
    return tab;
}

/** Shows the main window `w` without its dialogs (errors go to the log) and openAndWait()s. */
template <typename Window>
auto showAndOpen(Window &w, const QString &path) -> decltype(w.openFile(path)) {
    w.setShowDialogs(false);
    w.show();
    return openAndWait(w, path);
}

/**
 * Resident KiB of this process's mappings of the file at `path` (the sum of their `Rss:` lines
 * in /proc/self/smaps, Linux only; 0 elsewhere), and how many mappings of it there are.
 */
struct MappedRss {
    qint64 kib = 0;
    int mappings = 0;
};
inline MappedRss mappedRss(const QString &path) {
    MappedRss r;
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return r;
    }
    const QByteArray canonical = QFileInfo(path).canonicalFilePath().toUtf8();
    bool inFile = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        // Mapping lines start "start-end perms offset dev inode path"; field lines "Name: ...".
        const int dash = line.indexOf('-');
        const int space = line.indexOf(' ');
        if (dash > 0 && space > dash && !line.left(space).contains(':')) {
            inFile = line.trimmed().endsWith(canonical);
            r.mappings += inFile ? 1 : 0;
        } else if (inFile && line.startsWith("Rss:")) {
            r.kib += line.mid(4).trimmed().split(' ').first().toLongLong();
        }
    }
    return r;
}

/** The generated fixtures' manifest.json. */
inline QJsonObject manifest() {
    static const QJsonObject m = readJson(fixturePath(QStringLiteral("manifest.json")));
    return m;
}

/**
 * The generated reference-shaped traces' manifest.json (LMCT_TRACES): per trace what the
 * fixtures' manifest says per fixture, e.g. `context_pairs`, `digest`, `bytes`.
 */
inline QJsonObject traceManifest() {
    static const QJsonObject m = readJson(tracePath(QStringLiteral("manifest.json")));
    return m;
}

/** The truth file of the generated trace `name` (LMCT_TRACES/name.truth.json). */
inline QJsonObject traceTruth(const QString &name) {
    return readJson(tracePath(name + QStringLiteral(".truth.json")));
}

/** The count of `qualname` (a StorageManager method, e.g. "submit_prefetch_task") in a truth. */
inline int truthCount(const QJsonObject &truth, const QString &method) {
    return truth[QStringLiteral("qualnames")]
        .toObject()[QStringLiteral("lmcache.v1.distributed.storage_manager.StorageManager.") +
                    method]
        .toInt();
}

}  // namespace lmct::test
