#include "export/sqliteexport.h"

#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "codec/memorylayout.h"
#include "codec/objectkey.h"
#include "codec/qualname.h"
#include "codec/recordsummary.h"
#include "codec/valueformatter.h"
#include "export/exportfile.h"
#include "export/recordexport.h"
#include "export/sqlitedatabase.h"
#include "export/sqlitestatement.h"
#include "trace/traceinfo.h"
#include "util/computepool.h"
#include "util/parallelchunks.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace lmct {

namespace {

const char *const kSchema = R"sql(
CREATE TABLE records(
    record INTEGER PRIMARY KEY,
    t_mono REAL,
    t_wall REAL,
    call TEXT,
    qualname TEXT,
    request TEXT,
    model_name TEXT,
    kv_rank INTEGER,
    rank INTEGER,
    world_size INTEGER,
    keys INTEGER,
    bytes INTEGER,
    args TEXT,
    args_error TEXT,
    frame_offset INTEGER,
    frame_length INTEGER
);
CREATE TABLE key_uses(
    record INTEGER,
    key_id INTEGER,
    call TEXT,
    position INTEGER,
    is_read INTEGER,
    finish_role TEXT
);
CREATE TABLE keys(
    id INTEGER PRIMARY KEY,
    chunk_hash TEXT,
    model_name TEXT,
    kv_rank INTEGER,
    rank INTEGER,
    world_size INTEGER,
    object_group_id INTEGER,
    cache_salt TEXT,
    state TEXT,
    reserves INTEGER,
    finishes INTEGER,
    aborts INTEGER,
    prefetches INTEGER,
    reads INTEGER,
    first_record INTEGER,
    last_record INTEGER,
    first_t_mono REAL,
    last_t_mono REAL,
    write_latency_s REAL,
    first_reuse_s REAL,
    already_stored INTEGER
);
CREATE TABLE requests(
    id INTEGER PRIMARY KEY,
    request_id TEXT,
    submit_record INTEGER,
    submit_t_mono REAL,
    requested INTEGER,
    prefix_hit INTEGER,
    lmcache_hit INTEGER,
    lmcache_total INTEGER,
    hit_check TEXT,
    read_record INTEGER,
    read_keys INTEGER,
    match_rule TEXT,
    released INTEGER,
    cancelled INTEGER,
    time_to_read_s REAL,
    reserved INTEGER,
    finished INTEGER,
    first_reserve_record INTEGER,
    last_finish_record INTEGER,
    time_to_written_s REAL
);
CREATE TABLE diagnostics(
    id INTEGER PRIMARY KEY,
    severity TEXT,
    kind TEXT,
    offset INTEGER,
    message TEXT
);
CREATE TABLE header(
    key TEXT,
    value TEXT
);
)sql";

const char *const kIndices = R"sql(
CREATE INDEX records_call ON records(call);
CREATE INDEX key_uses_key_id ON key_uses(key_id);
CREATE INDEX key_uses_record ON key_uses(record);
)sql";

/** The temporary database beside the target, removed unless kept (renamed over the target). */
struct TemporaryDatabase {
    QString path;
    bool keep = false;
    ~TemporaryDatabase() {
        if (!keep && !path.isEmpty()) {
            ::unlink(QFile::encodeName(path).constData());
        }
    }
};

/** What the records table holds of one record besides its columns in the RecordStore. */
struct RecordRow {
    QByteArray request;  // null: none
    QByteArray model;    // null: no key
    qint64 kvRank = 0;
    int keys = 0;
    std::optional<qint64> bytes;
    QByteArray args;
    QByteArray argsError;  // null: decoded completely
};

/** A JSON value as compact text ("null" for an undefined one). */
QByteArray jsonText(const QJsonValue &v) {
    if (v.isObject()) {
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    }
    if (v.isArray()) {
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    }
    const QByteArray wrapped = QJsonDocument(QJsonArray{v.isUndefined() ? QJsonValue() : v})
                                   .toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

RecordRow recordRow(const TraceDocument &doc, int r) {
    RecordRow row;
    const TraceDocument::Args args = doc.decodeArgs(r);
    row.args = jsonText(ValueFormatter::toJson(args.value));
    if (!args.error.isEmpty()) {
        row.argsError = args.error.toUtf8();
    }
    const QString request = RecordSummary::requestId(args.value);
    if (!request.isEmpty()) {
        row.request = request.toUtf8();
    }
    row.keys = ObjectKey::count(args.value);
    if (row.keys > 0) {
        const QList<ObjectKey> first = ObjectKey::collect(args.value, 1);
        if (!first.isEmpty()) {
            row.model = first.front().modelName.toUtf8();
            if (row.model.isNull()) {
                row.model = QByteArray("");
            }
            row.kvRank = first.front().kvRank;
        }
    }
    if (const std::optional<MemoryLayout> layout = MemoryLayout::findIn(args.value)) {
        if (const std::optional<qint64> per = layout->bytesPerObject()) {
            row.bytes = *per * row.keys;
        }
    }
    return row;
}

QByteArrayView nullableUtf8(const QByteArray &b) {
    return b.isNull() ? QByteArrayView() : QByteArrayView(b);
}

std::optional<qint64> recordOrNull(qint32 r) {
    return r >= 0 ? std::optional<qint64>(r) : std::nullopt;
}

QString systemError(int e) {
    return QString::fromLocal8Bit(std::strerror(e));
}

/** How a table's pass ended. */
enum class Outcome { Done, Failed, Cancelled };

/** Progress (0..100, told once per change) and cancel of one export. */
struct Pass {
    const SqliteExport::Options &options;
    int shown = -1;

    void progress(int percent) {
        percent = std::clamp(percent, 0, 100);
        if (options.progress && percent != shown) {
            shown = percent;
            options.progress(percent);
        }
    }
    bool cancelled() const { return options.cancel && options.cancel->load(); }
};

/** records (progress 34-88): formatted in parallel chunks, a bounded window at a time,
 *  inserted in the order of `rows`. */
Outcome insertRecords(SqliteDatabase &db, const TraceDocument &doc, const std::vector<int> &rows,
                      Pass &pass, qint64 *count, QString *why) {
    SqliteStatement ins(db,
                        "INSERT INTO records VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                        "?12, ?13, ?14, ?15, ?16)");
    if (!ins.isValid()) {
        *why = ins.error();
        return Outcome::Failed;
    }
    const RecordStore &rs = doc.records();
    std::vector<QByteArray> qualnames, calls;
    for (int id = 0; id < rs.qualnameCount(); ++id) {
        qualnames.push_back(rs.qualnameById(quint32(id)).toUtf8());
        calls.push_back(Qualname::shortName(rs.qualnameById(quint32(id))).toUtf8());
    }
    constexpr size_t kChunk = 512;
    const size_t window = kChunk * size_t(qMax(1, ComputePool::instance()->maxThreadCount())) * 4;
    std::vector<RecordRow> batch;
    for (size_t begin = 0; begin < rows.size(); begin += window) {
        if (pass.cancelled()) {
            return Outcome::Cancelled;
        }
        const size_t end = std::min(rows.size(), begin + window);
        batch.assign(end - begin, RecordRow());
        ParallelChunks::run(int((end - begin + kChunk - 1) / kChunk), [&](int ci) {
            const size_t b = begin + size_t(ci) * kChunk;
            for (size_t k = b; k < std::min(end, b + kChunk); ++k) {
                batch[k - begin] = recordRow(doc, rows[k]);
            }
        });
        for (size_t k = begin; k < end; ++k) {
            const int r = rows[k];
            const RecordRow &row = batch[k - begin];
            const quint32 q = rs.qualnameId(r);
            ins.bindInt(1, r);
            ins.bindDouble(2, rs.tMono(r));
            ins.bindDouble(3, rs.tWall(r));
            ins.bindText(4, calls[q]);
            ins.bindText(5, qualnames[q]);
            ins.bindText(6, nullableUtf8(row.request));
            if (!row.model.isNull()) {
                const KvRank kr = KvRank::unpack(row.kvRank);
                ins.bindText(7, row.model);
                ins.bindInt(8, row.kvRank);
                ins.bindInt(9, kr.rank);
                ins.bindInt(10, kr.worldSize);
            }
            ins.bindInt(11, row.keys);
            ins.bindInt(12, row.bytes);
            ins.bindText(13, row.args);
            ins.bindText(14, nullableUtf8(row.argsError));
            ins.bindInt(15, rs.frameOffset(r));
            ins.bindInt(16, qint64(rs.bodyLength(r)) + 4);
            if (!ins.run(why)) {
                return Outcome::Failed;
            }
        }
        *count += qint64(end - begin);
        doc.releaseRecordPages(rows[begin], rows[end - 1]);
        pass.progress(34 + int(54 * double(end) / double(rows.size())));
    }
    return Outcome::Done;
}

/** key_uses (progress 88-94): the key occurrences of the key records among `rows`. */
Outcome insertKeyUses(SqliteDatabase &db, const KeyAnalysis &keys, const std::vector<int> &rows,
                      Pass &pass, qint64 *count, QString *why) {
    SqliteStatement ins(db, "INSERT INTO key_uses VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    if (!ins.isValid()) {
        *why = ins.error();
        return Outcome::Failed;
    }
    std::vector<char> selected(size_t(keys.recordCount()), 0);
    for (int r : rows) {
        if (r >= 0 && r < keys.recordCount()) {
            selected[size_t(r)] = 1;
        }
    }
    std::vector<QByteArray> callNames;
    for (int c = 0; c <= int(KeyAnalysis::Call::Other); ++c) {
        callNames.push_back(KeyAnalysis::callName(KeyAnalysis::Call(c)).toUtf8());
    }
    static const QByteArray roleNames[3] = {"read", "of_release", "of_read"};
    const int keyRecords = keys.keyRecordCount();
    for (int kr = 0; kr < keyRecords; ++kr) {
        if ((kr & 0xffff) == 0) {
            if (pass.cancelled()) {
                return Outcome::Cancelled;
            }
            pass.progress(88 + int(6 * double(kr) / double(keyRecords)));
        }
        const qint32 record = keys.recordOf(kr);
        if (!selected[size_t(record)]) {
            continue;
        }
        const KeyAnalysis::Call call = keys.callAt(kr);
        const bool finishRead = call == KeyAnalysis::Call::FinishRead;
        const KeyAnalysis::FinishRole role = keys.finishRoleAt(kr);
        const bool isRead = call == KeyAnalysis::Call::ReadEnter ||
                            (finishRead && role == KeyAnalysis::FinishRole::Read);
        const std::span<const quint32> ids = keys.keysAt(kr);
        for (size_t pos = 0; pos < ids.size(); ++pos) {
            ins.bindInt(1, record);
            ins.bindInt(2, qint64(ids[pos]));
            ins.bindText(3, callNames[size_t(call)]);
            ins.bindInt(4, qint64(pos));
            ins.bindInt(5, isRead ? 1 : 0);
            if (finishRead) {
                ins.bindText(6, roleNames[int(role)]);
            }
            if (!ins.run(why)) {
                return Outcome::Failed;
            }
            ++*count;
        }
    }
    pass.progress(94);
    return Outcome::Done;
}

/** keys (progress 94-96): `lmct keys --json`'s fields. */
Outcome insertKeys(SqliteDatabase &db, const KeyAnalysis &keys, Pass &pass, qint64 *count,
                   QString *why) {
    SqliteStatement ins(db,
                        "INSERT INTO keys VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                        "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
    if (!ins.isValid()) {
        *why = ins.error();
        return Outcome::Failed;
    }
    // Non-null bytes for empty names: an empty model name or salt is text, not NULL.
    auto utf8 = [](const QString &s) { return s.isEmpty() ? QByteArray("") : s.toUtf8(); };
    std::vector<QByteArray> models, salts, states;
    for (const QString &m : keys.models()) {
        models.push_back(utf8(m));
    }
    for (const QString &s : keys.salts()) {
        salts.push_back(utf8(s));
    }
    for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
        states.push_back(KeyAnalysis::stateName(KeyAnalysis::State(s)).toUtf8());
    }
    for (int id = 0; id < keys.keyCount(); ++id) {
        if ((id & 0xffff) == 0 && pass.cancelled()) {
            return Outcome::Cancelled;
        }
        const KeyAnalysis::Key &k = keys.key(id);
        const KvRank kr = KvRank::unpack(k.kvRank);
        const QByteArray hash = keys.hashView(id).toByteArray().toHex();
        ins.bindInt(1, id);
        ins.bindText(2, hash);
        ins.bindText(3, models[k.model]);
        ins.bindInt(4, k.kvRank);
        ins.bindInt(5, kr.rank);
        ins.bindInt(6, kr.worldSize);
        ins.bindInt(7, k.hasGroup ? std::optional<qint64>(k.group) : std::nullopt);
        if (k.salt >= 0) {
            ins.bindText(8, salts[size_t(k.salt)]);
        }
        ins.bindText(9, states[size_t(k.state)]);
        ins.bindInt(10, qint64(k.reserves));
        ins.bindInt(11, qint64(k.finishes));
        ins.bindInt(12, qint64(k.aborts));
        ins.bindInt(13, qint64(k.prefetches));
        ins.bindInt(14, qint64(k.reads()));
        ins.bindInt(15, k.firstRecord);
        ins.bindInt(16, k.lastRecord);
        ins.bindDouble(17, k.firstT);
        ins.bindDouble(18, k.lastT);
        ins.bindDouble(19, k.writeLatency);
        ins.bindDouble(20, k.firstReuse);
        ins.bindInt(21, k.reservedAgain ? 1 : 0);
        if (!ins.run(why)) {
            return Outcome::Failed;
        }
        ++*count;
    }
    pass.progress(96);
    return Outcome::Done;
}

/** requests (progress 96-97): the Requests tab's columns (RequestTableModel). */
Outcome insertRequests(SqliteDatabase &db, const RequestAnalysis &requests, Pass &pass,
                       qint64 *count, QString *why) {
    SqliteStatement ins(db,
                        "INSERT INTO requests VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                        "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)");
    if (!ins.isValid()) {
        *why = ins.error();
        return Outcome::Failed;
    }
    for (int i = 0; i < requests.count(); ++i) {
        if ((i & 0xffff) == 0 && pass.cancelled()) {
            return Outcome::Cancelled;
        }
        const RequestAnalysis::Request &q = requests.at(i);
        const QByteArray requestId = requests.requestIdBytes(q).toByteArray();
        const PrefetchHandle *h = requests.handle(q);
        const QByteArray check = RequestAnalysis::hitCheckName(requests.hitCheck(q)).toUtf8();
        const QByteArray match = RequestAnalysis::matchName(q.match).toUtf8();
        ins.bindInt(1, i);
        ins.bindText(2, nullableUtf8(requestId));
        ins.bindInt(3, q.submitRecord);
        ins.bindDouble(4, requests.submitT(q));
        ins.bindInt(5, q.requested);
        ins.bindInt(6, q.prefixHit);
        ins.bindInt(
            7, h && h->hasHitCount ? std::optional<qint64>(h->l1PrefixHitCount) : std::nullopt);
        ins.bindInt(8,
                    h && h->hasTotal ? std::optional<qint64>(h->totalRequestedKeys) : std::nullopt);
        ins.bindText(9, check.isEmpty() ? QByteArrayView() : QByteArrayView(check));
        ins.bindInt(10, recordOrNull(q.readRecord));
        ins.bindInt(11, q.readKeys);
        ins.bindText(12, match);
        ins.bindInt(13, q.released ? 1 : 0);
        ins.bindInt(14, q.cancelled ? 1 : 0);
        ins.bindDouble(15, requests.timeToRead(q));
        ins.bindInt(16, q.reserved);
        ins.bindInt(17, q.finished);
        ins.bindInt(18, recordOrNull(q.firstReserveRecord));
        ins.bindInt(19, recordOrNull(q.lastFinishRecord));
        ins.bindDouble(20, requests.timeToWritten(q));
        if (!ins.run(why)) {
            return Outcome::Failed;
        }
        ++*count;
    }
    pass.progress(97);
    return Outcome::Done;
}

bool insertDiagnostics(SqliteDatabase &db, const TraceDocument &doc, qint64 *count, QString *why) {
    SqliteStatement ins(db, "INSERT INTO diagnostics VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!ins.isValid()) {
        *why = ins.error();
        return false;
    }
    const DiagnosticList diagnostics = doc.diagnostics();
    for (int i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic &d = diagnostics[i];
        const QByteArray severity = Diagnostic::severityName(d.severity).toUtf8();
        const QByteArray kind = Diagnostic::kindName(d.kind).toUtf8();
        const QByteArray message = d.message.isEmpty() ? QByteArray("") : d.message.toUtf8();
        ins.bindInt(1, i);
        ins.bindText(2, severity);
        ins.bindText(3, kind);
        ins.bindInt(4, d.offset >= 0 ? std::optional<qint64>(d.offset) : std::nullopt);
        ins.bindText(5, message);
        if (!ins.run(why)) {
            return false;
        }
        ++*count;
    }
    return true;
}

/** header: the header's fields, the StorageManagerConfig and the export's facts. */
bool insertHeader(SqliteDatabase &db, const TraceDocument &doc, const KeyAnalysis &keys,
                  const SqliteExport::Options &options, qint64 recordsExported, qint64 *count,
                  QString *why) {
    SqliteStatement ins(db, "INSERT INTO header VALUES(?1, ?2)");
    if (!ins.isValid()) {
        *why = ins.error();
        return false;
    }
    std::vector<std::pair<QByteArray, QByteArray>> rows;
    const QJsonObject fields = TraceInfo::headerJson(doc.header());
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        rows.push_back({it.key().toUtf8(), jsonText(it.value())});
    }
    rows.push_back({"sm_config", jsonText(TraceInfo::configJson(doc.header().smConfig()))});
    const auto text = [](const QString &s) { return jsonText(QJsonValue(s)); };
    const auto integer = [](qint64 v) { return QByteArray::number(v); };
    rows.push_back({"lmct.file", text(doc.fileName())});
    rows.push_back(
        {"lmct.digest", text(TraceHeader::digestStatusName(doc.header().digestStatus()))});
    rows.push_back({"lmct.duration_s", jsonText(QJsonValue(doc.duration()))});
    rows.push_back({"lmct.records", integer(doc.records().size())});
    rows.push_back({"lmct.records_exported", integer(recordsExported)});
    rows.push_back({"lmct.filter", text(options.filterText)});
    rows.push_back({"lmct.range", text(options.rangeText)});
    rows.push_back({"lmct.diagnostic_count", integer(doc.diagnosticCount())});
    rows.push_back({"lmct.skipped_bytes", integer(doc.skippedBytes())});
    rows.push_back({"lmct.skipped_frames", integer(doc.skippedFrames())});
    rows.push_back({"lmct.recovered_frames", integer(doc.recoveredFrames())});
    rows.push_back({"lmct.partial", doc.isPartial() ? "true" : "false"});
    rows.push_back({"lmct.key_records", integer(keys.keyRecordCount())});
    rows.push_back({"lmct.damaged_key_records", integer(keys.damagedRecords())});
    rows.push_back({"lmct.keyless_finish_writes", integer(qint64(keys.keylessFinishes().size()))});
    for (const auto &[key, value] : rows) {
        ins.bindText(1, key);
        ins.bindText(2, value);
        if (!ins.run(why)) {
            return false;
        }
        ++*count;
    }
    return true;
}

/**
 * Creates the temporary file beside `path` (same file system: the rename is atomic), exclusively,
 * with the permissions a new file gets (0666 less the umask) or, when `path` exists, its own.
 */
bool createTemporary(const QString &path, QString *tempPath, QString *why) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        const QString name =
            path + QStringLiteral(".tmp-") +
            QString::number(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 36);
        const QByteArray encoded = QFile::encodeName(name);
        const int fd = ::open(encoded.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            *tempPath = name;
            struct stat target;
            if (::stat(QFile::encodeName(path).constData(), &target) == 0) {
                ::chmod(encoded.constData(), target.st_mode & 07777);
            }
            return true;
        }
        if (errno != EEXIST) {
            *why = systemError(errno);
            return false;
        }
    }
    *why = QStringLiteral("no free name for a temporary file beside it");
    return false;
}

/** One fsync of the finished file, as QSaveFile syncs before its rename. */
bool syncFile(const QString &path, QString *why) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        *why = systemError(errno);
        if (fd >= 0) {
            ::close(fd);
        }
        return false;
    }
    ::close(fd);
    return true;
}

}  // namespace

const char *SqliteExport::schema() {
    return kSchema;
}

bool SqliteExport::write(const QString &path, const TraceDocument &doc,
                         const std::vector<int> &rows, const Options &options, Summary *summary,
                         QString *error) {
    Summary local;
    Summary &sum = summary ? *summary : local;
    sum = Summary();
    QString why;
    auto fail = [&](const QString &reason) {
        if (error) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, reason);
        }
        return false;
    };
    auto stop = [&] {
        if (error) {
            *error = QStringLiteral("cancelled");
        }
        return false;
    };
    auto ended = [&](Outcome o) { return o == Outcome::Cancelled ? stop() : fail(why); };
    if (!ExportFile::checkTarget(path, error, options.inputPath)) {
        return false;
    }
    Pass pass{options};
    pass.progress(0);

    // The analyses of the whole trace: keys 0-30, requests 30-34.
    const auto keys = KeyAnalysis::build(
        doc, [&](int p) { pass.progress(p * 30 / 100); }, options.cancel);
    if (!keys || pass.cancelled()) {
        return stop();
    }
    const auto requests = RequestAnalysis::build(
        *keys, [&](int p) { pass.progress(30 + p * 4 / 100); }, options.cancel);
    if (!requests || pass.cancelled()) {
        return stop();
    }
    pass.progress(34);

    TemporaryDatabase temp;
    if (!createTemporary(path, &temp.path, &why)) {
        return fail(why);
    }
    {
        SqliteDatabase db;
        if (!db.open(temp.path, &why) ||
            !db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768;",
                     &why) ||
            !db.exec(kSchema, &why) || !db.exec("BEGIN", &why)) {
            return fail(why);
        }
        Outcome o = insertRecords(db, doc, rows, pass, &sum.records, &why);
        if (o == Outcome::Done) {
            o = insertKeyUses(db, *keys, rows, pass, &sum.keyUses, &why);
        }
        if (o == Outcome::Done) {
            o = insertKeys(db, *keys, pass, &sum.keys, &why);
        }
        if (o == Outcome::Done) {
            o = insertRequests(db, *requests, pass, &sum.requests, &why);
        }
        if (o != Outcome::Done) {
            return ended(o);
        }
        if (!insertDiagnostics(db, doc, &sum.diagnostics, &why) ||
            !insertHeader(db, doc, *keys, options, sum.records, &sum.headerRows, &why)) {
            return fail(why);
        }
        if (pass.cancelled()) {
            return stop();
        }
        if (!db.exec(kIndices, &why) || !db.exec("COMMIT", &why) || !db.close(&why)) {
            return fail(why);
        }
    }
    pass.progress(99);
    if (!syncFile(temp.path, &why) || !RecordExport::checkNotShrunk(doc, &why)) {
        return fail(why);
    }
    if (pass.cancelled()) {
        return stop();
    }
    if (!ExportFile::checkTarget(path, error, options.inputPath)) {
        return false;  // (a trace opened meanwhile is not replaced either)
    }
    if (std::rename(QFile::encodeName(temp.path).constData(),
                    QFile::encodeName(path).constData()) != 0) {
        return fail(systemError(errno));
    }
    temp.keep = true;
    pass.progress(100);
    return true;
}

}  // namespace lmct
