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
    auto fail = [&](const QString &why) {
        if (error) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        }
        return false;
    };
    auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    auto stop = [&] {
        if (error) {
            *error = QStringLiteral("cancelled");
        }
        return false;
    };
    int shown = -1;
    auto progress = [&](int percent) {
        percent = std::clamp(percent, 0, 100);
        if (options.progress && percent != shown) {
            shown = percent;
            options.progress(percent);
        }
    };
    if (!ExportFile::checkTarget(path, error, options.inputPath)) {
        return false;
    }
    progress(0);

    // The analyses of the whole trace: keys 0-30, requests 30-34.
    const auto keys = KeyAnalysis::build(
        doc, [&](int p) { progress(p * 30 / 100); }, options.cancel);
    if (!keys || cancelled()) {
        return stop();
    }
    const auto requests = RequestAnalysis::build(
        *keys, [&](int p) { progress(30 + p * 4 / 100); }, options.cancel);
    if (!requests || cancelled()) {
        return stop();
    }
    progress(34);

    // The temporary file: created exclusively beside the target (same file system: the rename
    // is atomic), with the permissions a new file gets (0666 less the umask) or the target's.
    TemporaryDatabase temp;
    for (int attempt = 0; attempt < 64 && temp.path.isEmpty(); ++attempt) {
        const QString name =
            path + QStringLiteral(".tmp-") +
            QString::number(QRandomGenerator::global()->generate64() & 0xffffffffffULL, 36);
        const int fd = ::open(QFile::encodeName(name).constData(),
                              O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            temp.path = name;
        } else if (errno != EEXIST) {
            return fail(QString::fromLocal8Bit(std::strerror(errno)));
        }
    }
    if (temp.path.isEmpty()) {
        return fail(QStringLiteral("no free name for a temporary file beside it"));
    }
    struct stat target;
    if (::stat(QFile::encodeName(path).constData(), &target) == 0) {
        ::chmod(QFile::encodeName(temp.path).constData(), target.st_mode & 07777);
    }

    QString why;
    {
        SqliteDatabase db;
        if (!db.open(temp.path, &why) ||
            !db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768;",
                     &why) ||
            !db.exec(kSchema, &why) || !db.exec("BEGIN", &why)) {
            return fail(why);
        }
        {
            SqliteStatement insRecord(db,
                                      "INSERT INTO records VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                                      "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
            SqliteStatement insUse(db, "INSERT INTO key_uses VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
            SqliteStatement insKey(db,
                                   "INSERT INTO keys VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                                   "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
            SqliteStatement insRequest(
                db,
                "INSERT INTO requests VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)");
            SqliteStatement insDiagnostic(db, "INSERT INTO diagnostics VALUES(?1, ?2, ?3, ?4, ?5)");
            SqliteStatement insHeader(db, "INSERT INTO header VALUES(?1, ?2)");
            for (const SqliteStatement *s :
                 {&insRecord, &insUse, &insKey, &insRequest, &insDiagnostic, &insHeader}) {
                if (!s->isValid()) {
                    return fail(s->error());
                }
            }

            // records (34-88): formatted in parallel chunks, a bounded window at a time,
            // inserted in the order of `rows`.
            const RecordStore &rs = doc.records();
            std::vector<QByteArray> qualnames, calls;
            for (int id = 0; id < rs.qualnameCount(); ++id) {
                qualnames.push_back(rs.qualnameById(quint32(id)).toUtf8());
                calls.push_back(Qualname::shortName(rs.qualnameById(quint32(id))).toUtf8());
            }
            constexpr size_t kChunk = 512;
            const size_t window =
                kChunk * size_t(qMax(1, ComputePool::instance()->maxThreadCount())) * 4;
            std::vector<RecordRow> batch;
            for (size_t begin = 0; begin < rows.size(); begin += window) {
                if (cancelled()) {
                    return stop();
                }
                const size_t end = std::min(rows.size(), begin + window);
                batch.assign(end - begin, RecordRow());
                const int chunks = int((end - begin + kChunk - 1) / kChunk);
                ParallelChunks::run(chunks, [&](int ci) {
                    const size_t b = begin + size_t(ci) * kChunk;
                    const size_t e = std::min(end, b + kChunk);
                    for (size_t k = b; k < e; ++k) {
                        batch[k - begin] = recordRow(doc, rows[k]);
                    }
                });
                for (size_t k = begin; k < end; ++k) {
                    const int r = rows[k];
                    const RecordRow &row = batch[k - begin];
                    const quint32 q = rs.qualnameId(r);
                    insRecord.bindInt(1, r);
                    insRecord.bindDouble(2, rs.tMono(r));
                    insRecord.bindDouble(3, rs.tWall(r));
                    insRecord.bindText(4, calls[q]);
                    insRecord.bindText(5, qualnames[q]);
                    insRecord.bindText(6, nullableUtf8(row.request));
                    if (!row.model.isNull()) {
                        const KvRank kr = KvRank::unpack(row.kvRank);
                        insRecord.bindText(7, row.model);
                        insRecord.bindInt(8, row.kvRank);
                        insRecord.bindInt(9, kr.rank);
                        insRecord.bindInt(10, kr.worldSize);
                    }
                    insRecord.bindInt(11, row.keys);
                    insRecord.bindInt(12, row.bytes);
                    insRecord.bindText(13, row.args);
                    insRecord.bindText(14, nullableUtf8(row.argsError));
                    insRecord.bindInt(15, rs.frameOffset(r));
                    insRecord.bindInt(16, qint64(rs.bodyLength(r)) + 4);
                    if (!insRecord.run(&why)) {
                        return fail(why);
                    }
                }
                sum.records += qint64(end - begin);
                if (end > begin) {
                    doc.releaseRecordPages(rows[begin], rows[end - 1]);
                }
                progress(34 + int(54 * double(end) / double(rows.size())));
            }

            // key_uses (88-94): the key records among the selected records.
            std::vector<char> selected(size_t(keys->recordCount()), 0);
            for (int r : rows) {
                if (r >= 0 && r < keys->recordCount()) {
                    selected[size_t(r)] = 1;
                }
            }
            QList<QByteArray> callNames;
            for (int c = 0; c <= int(KeyAnalysis::Call::Other); ++c) {
                callNames.append(KeyAnalysis::callName(KeyAnalysis::Call(c)).toUtf8());
            }
            static const QByteArray roleNames[3] = {"read", "of_release", "of_read"};
            const int keyRecords = keys->keyRecordCount();
            for (int kr = 0; kr < keyRecords; ++kr) {
                const qint32 record = keys->recordOf(kr);
                if (!selected[size_t(record)]) {
                    continue;
                }
                const KeyAnalysis::Call call = keys->callAt(kr);
                const bool finishRead = call == KeyAnalysis::Call::FinishRead;
                const KeyAnalysis::FinishRole role = keys->finishRoleAt(kr);
                const bool isRead = call == KeyAnalysis::Call::ReadEnter ||
                                    (finishRead && role == KeyAnalysis::FinishRole::Read);
                const std::span<const quint32> ids = keys->keysAt(kr);
                for (size_t pos = 0; pos < ids.size(); ++pos) {
                    insUse.bindInt(1, record);
                    insUse.bindInt(2, qint64(ids[pos]));
                    insUse.bindText(3, callNames[int(call)]);
                    insUse.bindInt(4, qint64(pos));
                    insUse.bindInt(5, isRead ? 1 : 0);
                    if (finishRead) {
                        insUse.bindText(6, roleNames[int(role)]);
                    }
                    if (!insUse.run(&why)) {
                        return fail(why);
                    }
                    ++sum.keyUses;
                }
                if ((kr & 0xffff) == 0) {
                    if (cancelled()) {
                        return stop();
                    }
                    progress(88 + int(6 * double(kr) / double(keyRecords)));
                }
            }
            progress(94);

            // keys (94-96).
            QList<QByteArray> models, salts;
            for (const QString &m : keys->models()) {
                models.append(m.toUtf8().isNull() ? QByteArray("") : m.toUtf8());
            }
            for (const QString &s : keys->salts()) {
                salts.append(s.toUtf8().isNull() ? QByteArray("") : s.toUtf8());
            }
            QList<QByteArray> stateNames;
            for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
                stateNames.append(KeyAnalysis::stateName(KeyAnalysis::State(s)).toUtf8());
            }
            for (int id = 0; id < keys->keyCount(); ++id) {
                const KeyAnalysis::Key &k = keys->key(id);
                const KvRank kr = KvRank::unpack(k.kvRank);
                const QByteArray hash = keys->hashView(id).toByteArray().toHex();
                insKey.bindInt(1, id);
                insKey.bindText(2, hash);
                insKey.bindText(3, models[int(k.model)]);
                insKey.bindInt(4, k.kvRank);
                insKey.bindInt(5, kr.rank);
                insKey.bindInt(6, kr.worldSize);
                insKey.bindInt(7, k.hasGroup ? std::optional<qint64>(k.group) : std::nullopt);
                if (k.salt >= 0) {
                    insKey.bindText(8, salts[k.salt]);
                }
                insKey.bindText(9, stateNames[int(k.state)]);
                insKey.bindInt(10, qint64(k.reserves));
                insKey.bindInt(11, qint64(k.finishes));
                insKey.bindInt(12, qint64(k.aborts));
                insKey.bindInt(13, qint64(k.prefetches));
                insKey.bindInt(14, qint64(k.reads()));
                insKey.bindInt(15, k.firstRecord);
                insKey.bindInt(16, k.lastRecord);
                insKey.bindDouble(17, k.firstT);
                insKey.bindDouble(18, k.lastT);
                insKey.bindDouble(19, k.writeLatency);
                insKey.bindDouble(20, k.firstReuse);
                insKey.bindInt(21, k.reservedAgain ? 1 : 0);
                if (!insKey.run(&why)) {
                    return fail(why);
                }
                ++sum.keys;
                if ((id & 0xffff) == 0 && cancelled()) {
                    return stop();
                }
            }
            progress(96);

            // requests (96-97): the Requests tab's columns.
            auto record = [](qint32 r) {
                return r >= 0 ? std::optional<qint64>(r) : std::optional<qint64>();
            };
            for (int i = 0; i < requests->count(); ++i) {
                const RequestAnalysis::Request &q = requests->at(i);
                const QByteArray requestId = requests->requestIdBytes(q).toByteArray();
                const PrefetchHandle *h = requests->handle(q);
                const QByteArray check =
                    RequestAnalysis::hitCheckName(requests->hitCheck(q)).toUtf8();
                const QByteArray match = RequestAnalysis::matchName(q.match).toUtf8();
                insRequest.bindInt(1, i);
                insRequest.bindText(2, nullableUtf8(requestId));
                insRequest.bindInt(3, q.submitRecord);
                insRequest.bindDouble(4, requests->submitT(q));
                insRequest.bindInt(5, q.requested);
                insRequest.bindInt(6, q.prefixHit);
                insRequest.bindInt(7, h && h->hasHitCount
                                          ? std::optional<qint64>(h->l1PrefixHitCount)
                                          : std::nullopt);
                insRequest.bindInt(8, h && h->hasTotal
                                          ? std::optional<qint64>(h->totalRequestedKeys)
                                          : std::nullopt);
                insRequest.bindText(9, check.isEmpty() ? QByteArrayView() : QByteArrayView(check));
                insRequest.bindInt(10, record(q.readRecord));
                insRequest.bindInt(11, q.readKeys);
                insRequest.bindText(12, match);
                insRequest.bindInt(13, q.released ? 1 : 0);
                insRequest.bindInt(14, q.cancelled ? 1 : 0);
                insRequest.bindDouble(15, requests->timeToRead(q));
                insRequest.bindInt(16, q.reserved);
                insRequest.bindInt(17, q.finished);
                insRequest.bindInt(18, record(q.firstReserveRecord));
                insRequest.bindInt(19, record(q.lastFinishRecord));
                insRequest.bindDouble(20, requests->timeToWritten(q));
                if (!insRequest.run(&why)) {
                    return fail(why);
                }
                ++sum.requests;
                if ((i & 0xffff) == 0 && cancelled()) {
                    return stop();
                }
            }

            // diagnostics and header.
            const DiagnosticList diagnostics = doc.diagnostics();
            for (int i = 0; i < diagnostics.size(); ++i) {
                const Diagnostic &d = diagnostics[i];
                const QByteArray severity = Diagnostic::severityName(d.severity).toUtf8();
                const QByteArray kind = Diagnostic::kindName(d.kind).toUtf8();
                const QByteArray message = d.message.toUtf8();
                insDiagnostic.bindInt(1, i);
                insDiagnostic.bindText(2, severity);
                insDiagnostic.bindText(3, kind);
                insDiagnostic.bindInt(
                    4, d.offset >= 0 ? std::optional<qint64>(d.offset) : std::nullopt);
                insDiagnostic.bindText(5, message.isNull() ? QByteArray("") : message);
                if (!insDiagnostic.run(&why)) {
                    return fail(why);
                }
                ++sum.diagnostics;
            }
            std::vector<std::pair<QByteArray, QByteArray>> header;
            const QJsonObject fields = TraceInfo::headerJson(doc.header());
            for (auto it = fields.begin(); it != fields.end(); ++it) {
                header.push_back({it.key().toUtf8(), jsonText(it.value())});
            }
            header.push_back(
                {"sm_config", jsonText(TraceInfo::configJson(doc.header().smConfig()))});
            const auto text = [](const QString &s) { return jsonText(QJsonValue(s)); };
            const auto integer = [](qint64 v) { return QByteArray::number(v); };
            header.push_back({"lmct.file", text(doc.fileName())});
            header.push_back(
                {"lmct.digest", text(TraceHeader::digestStatusName(doc.header().digestStatus()))});
            header.push_back({"lmct.duration_s", RecordExport::number(doc.duration())});
            header.push_back({"lmct.records", integer(rs.size())});
            header.push_back({"lmct.records_exported", integer(sum.records)});
            header.push_back({"lmct.filter", text(options.filterText)});
            header.push_back({"lmct.range", text(options.rangeText)});
            header.push_back({"lmct.diagnostic_count", integer(doc.diagnosticCount())});
            header.push_back({"lmct.skipped_bytes", integer(doc.skippedBytes())});
            header.push_back({"lmct.skipped_frames", integer(doc.skippedFrames())});
            header.push_back({"lmct.recovered_frames", integer(doc.recoveredFrames())});
            header.push_back({"lmct.partial", doc.isPartial() ? "true" : "false"});
            header.push_back({"lmct.key_records", integer(keys->keyRecordCount())});
            header.push_back({"lmct.damaged_key_records", integer(keys->damagedRecords())});
            header.push_back(
                {"lmct.keyless_finish_writes", integer(qint64(keys->keylessFinishes().size()))});
            for (const auto &[key, value] : header) {
                insHeader.bindText(1, key);
                insHeader.bindText(2, value);
                if (!insHeader.run(&why)) {
                    return fail(why);
                }
                ++sum.headerRows;
            }
            progress(97);
        }
        if (cancelled()) {
            return stop();
        }
        if (!db.exec(kIndices, &why) || !db.exec("COMMIT", &why) || !db.close(&why)) {
            return fail(why);
        }
    }
    // One sync for the whole file, as QSaveFile does before its rename.
    const int fd = ::open(QFile::encodeName(temp.path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int e = errno;
        if (fd >= 0) {
            ::close(fd);
        }
        return fail(QString::fromLocal8Bit(std::strerror(e)));
    }
    ::close(fd);
    if (!RecordExport::checkNotShrunk(doc, &why)) {
        return fail(why);
    }
    if (cancelled()) {
        return stop();
    }
    if (std::rename(QFile::encodeName(temp.path).constData(),
                    QFile::encodeName(path).constData()) != 0) {
        return fail(QString::fromLocal8Bit(std::strerror(errno)));
    }
    temp.keep = true;
    progress(100);
    return true;
}

}  // namespace lmct
