#include "keyscommand.h"

#include "cache/keyanalysis.h"
#include "cache/requestanalysis.h"
#include "cachecommand.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

#include <algorithm>

namespace lmct {

namespace {

/** `s` from the trace, escaped (a line feed in a model name broke the row), left-justified. */
QByteArray pad(const QString &s, int width) {
    return TerminalText::padded(TerminalText::escaped(s), width).toUtf8();
}

}  // namespace

int KeysCommand::run(const QStringList &args) {
    CacheCommand cmd(
        QStringLiteral("keys"),
        QStringLiteral(
            "Every distinct ObjectKey (chunk hash, model, kv_rank, object group, cache salt)\n"
            "with its first/last t_mono, the calls that named it (reserve = reserve_write +\n"
            "reserve_write_with_status, finish = finish_write, abort = abort_write, prefetch =\n"
            "submit_prefetch_task, read = read_prefetched_results.__enter__ +\n"
            "finish_read_prefetched that are reads: not the ones of a release_prefetch_task\n"
            "nor the late release of an earlier read) and its state: written_read, written,\n"
            "aborted, reserved_only, prefetched_only. The summary also counts the keys\n"
            "already stored (reserved again after a finish_write: skipped by\n"
            "reserve_write(mode=\"new\")) and the requests (submit_prefetch_task) with their\n"
            "releases, cancels and LMCache's own L1 prefix hit against the calls'.\n"
            "Exit 0 ok, 1 usage error, 2 unreadable input."));
    const int rc = cmd.parse(args);
    if (rc >= 0) {
        return rc;
    }
    const auto doc = cmd.load();
    if (!doc) {
        return CacheCommand::kExitUnreadable;
    }
    const auto ka = KeyAnalysis::build(*doc);
    // After the key scan, which checks whether the file was cut while it read it.
    cmd.warnIfDamaged(*doc, ka->readableRecordCount());
    const auto ra = RequestAnalysis::build(*ka);
    const auto states = ka->stateCounts();
    const auto roles = ka->finishRoleCounts();
    if (cmd.json()) {
        QByteArray head = "{\"distinct_keys\":" + CacheCommand::number(qint64(ka->keyCount()));
        head += ",\"already_stored\":" + CacheCommand::number(ka->alreadyStoredCount());
        head +=
            ",\"damaged_records\":{\"count\":" + CacheCommand::number(ka->damagedRecords()) +
            ",\"first_record\":" +
            (ka->firstDamagedRecord() >= 0 ? CacheCommand::number(qint64(ka->firstDamagedRecord()))
                                           : QByteArray("null")) +
            "}";
        head += ",\"salt_missing\":" + QByteArray(ka->saltMissing() ? "true" : "false");
        head += ",\"finish_read_prefetched\":{\"read\":" + CacheCommand::number(roles[0]) +
                ",\"of_release\":" + CacheCommand::number(roles[1]) +
                ",\"of_read\":" + CacheCommand::number(roles[2]) + "}";
        head += ",\"requests\":{\"count\":" + CacheCommand::number(qint64(ra->count())) +
                ",\"reads_matched\":" + CacheCommand::number(ra->readsMatched()) +
                ",\"reads_unmatched\":" + CacheCommand::number(ra->readsUnmatched()) +
                ",\"released\":" + CacheCommand::number(ra->releasedCount()) +
                ",\"cancelled\":" + CacheCommand::number(ra->cancelledCount()) +
                ",\"hit_agrees\":" + CacheCommand::number(ra->agreeCount()) +
                ",\"hit_disagrees\":" + CacheCommand::number(ra->disagreeCount()) +
                ",\"releases\":" + CacheCommand::number(ka->releaseCount()) +
                ",\"cancels\":" + CacheCommand::number(ka->cancelCount()) +
                ",\"unlinked_handles\":" + CacheCommand::number(ra->unlinkedHandles()) + "}";
        head += ",\"states\":{";
        for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
            head += (s ? "," : "") +
                    CacheCommand::string(KeyAnalysis::stateName(KeyAnalysis::State(s))) + ":" +
                    CacheCommand::number(states[size_t(s)]);
        }
        head += "},\"keys\":[";
        cmd.write(head);
        for (int id = 0; id < ka->keyCount(); ++id) {
            const KeyAnalysis::Key &k = ka->key(id);
            const KvRank r = KvRank::unpack(k.kvRank);
            QByteArray o;
            o.reserve(512);
            o += id ? ",{" : "{";
            o += "\"chunk_hash\":\"" + ka->chunkHash(id).toHex() + "\"";
            o += ",\"model_name\":" + CacheCommand::string(ka->modelName(id));
            o += ",\"kv_rank\":" + CacheCommand::number(k.kvRank);
            o += ",\"rank\":" + CacheCommand::number(qint64(r.rank));
            o += ",\"world_size\":" + CacheCommand::number(qint64(r.worldSize));
            o += ",\"object_group_id\":" +
                 (k.hasGroup ? CacheCommand::number(k.group) : QByteArray("null"));
            o += ",\"cache_salt\":" +
                 (k.salt >= 0 ? CacheCommand::string(ka->salts()[k.salt]) : QByteArray("null"));
            o += ",\"first_t_mono\":" + CacheCommand::number(k.firstT);
            o += ",\"last_t_mono\":" + CacheCommand::number(k.lastT);
            o += ",\"first_record\":" + CacheCommand::number(qint64(k.firstRecord));
            o += ",\"last_record\":" + CacheCommand::number(qint64(k.lastRecord));
            o += ",\"counts\":{\"reserve\":" + CacheCommand::number(qint64(k.reserves)) +
                 ",\"finish\":" + CacheCommand::number(qint64(k.finishes)) +
                 ",\"abort\":" + CacheCommand::number(qint64(k.aborts)) +
                 ",\"prefetch\":" + CacheCommand::number(qint64(k.prefetches)) +
                 ",\"read\":" + CacheCommand::number(qint64(k.reads())) + "}";
            o += ",\"write_latency_s\":" + CacheCommand::number(k.writeLatency);
            o += ",\"first_reuse_s\":" + CacheCommand::number(k.firstReuse);
            o += ",\"state\":\"" + KeyAnalysis::stateName(k.state).toLatin1() + "\"}";
            cmd.write(o);
        }
        cmd.write("]}\n");
        return CacheCommand::kExitOk;
    }
    QString summary =
        QStringLiteral("%1: %2, %3 in %4\n")
            .arg(TerminalText::escaped(doc->fileName()),
                 CacheCommand::counted(ka->keyCount(), "distinct key", "distinct keys"),
                 CacheCommand::counted(ka->occurrenceCount(), "key occurrence", "key occurrences"),
                 CacheCommand::counted(ka->keyRecordCount(), "record", "records"));
    for (int s = 0; s < KeyAnalysis::kStateCount; ++s) {
        summary += QStringLiteral("  %1 %2\n")
                       .arg(states[size_t(s)], 10)
                       .arg(KeyAnalysis::stateLabel(KeyAnalysis::State(s)));
    }
    if (!ka->keylessFinishes().empty()) {
        summary += QStringLiteral("  %1 without keys (not attributed)\n")
                       .arg(CacheCommand::counted(qint64(ka->keylessFinishes().size()),
                                                  "finish_write record", "finish_write records"));
    }
    if (ka->damagedRecords() > 0) {
        summary += QStringLiteral(
                       "  %1 with damaged arguments (first: record %2): only the keys "
                       "before the damage are counted\n")
                       .arg(CacheCommand::counted(ka->damagedRecords(), "record", "records"))
                       .arg(ka->firstDamagedRecord());
    }
    if (ka->alreadyStoredCount() > 0) {
        summary += QStringLiteral(
                       "  %1 already stored (reserved again after a finish_write, not finished "
                       "again: skipped by reserve_write(mode=\"new\"))\n")
                       .arg(ka->alreadyStoredCount(), 10);
    }
    if (roles[1] + roles[2] > 0 || ka->releaseCount() > 0) {
        // Also when every finish_read_prefetched was taken for a read: with releases in the
        // trace that is worth seeing (a release's nested finish counted as a read).
        summary += QStringLiteral(
                       "  finish_read_prefetched: %1, %2 of a release_prefetch_task, %3 "
                       "releasing an earlier read (no reads)\n")
                       .arg(CacheCommand::counted(roles[0], "read", "reads"))
                       .arg(roles[1])
                       .arg(roles[2]);
    }
    if (ka->saltMissing()) {
        summary += QStringLiteral("  note: ") + KeyAnalysis::saltMissingNote() +
                   QStringLiteral(" (trace_schema_version 2)\n");
    }
    summary += QStringLiteral("  %1: %2, %3 unmatched")
                   .arg(CacheCommand::counted(ra->count(), "request", "requests"),
                        CacheCommand::counted(ra->readsMatched(), "read matched", "reads matched"))
                   .arg(ra->readsUnmatched());
    if (ka->releaseCount() + ka->cancelCount() > 0) {
        summary += QStringLiteral(
                       "; %1 released, %2 cancelled; LMCache's L1 hit agrees on %3, "
                       "disagrees on %4")
                       .arg(ra->releasedCount())
                       .arg(ra->cancelledCount())
                       .arg(ra->agreeCount())
                       .arg(ra->disagreeCount());
        if (ra->unlinkedHandles() > 0) {
            summary +=
                QStringLiteral("; %1 linked to no submit")
                    .arg(CacheCommand::counted(ra->unlinkedHandles(), "release/cancel record",
                                               "release/cancel records"));
        }
    }
    summary += QLatin1Char('\n');
    cmd.write(summary + QLatin1Char('\n'));
    // The model and salt columns as wide as their widest name (escaped, in terminal columns),
    // so that a long name does not push its row's figures out of line.
    int modelWidth = 34, saltWidth = 10;
    for (const QString &m : ka->models()) {
        modelWidth = std::max(modelWidth, TerminalText::columns(TerminalText::escaped(m)));
    }
    for (const QString &salt : ka->salts()) {
        saltWidth = std::max(saltWidth, TerminalText::columns(TerminalText::escaped(salt)));
    }
    cmd.write(QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11 %12\n")
                  .arg(QStringLiteral("CHUNK HASH"), -18)
                  .arg(TerminalText::padded(QStringLiteral("MODEL"), modelWidth))
                  .arg(QStringLiteral("RANK"), -5)
                  .arg(QStringLiteral("GRP"), 3)
                  .arg(TerminalText::padded(QStringLiteral("SALT"), saltWidth))
                  .arg(QStringLiteral("FIRST"), 12)
                  .arg(QStringLiteral("LAST"), 12)
                  .arg(QStringLiteral("RSV"), 4)
                  .arg(QStringLiteral("FIN"), 4)
                  .arg(QStringLiteral("ABT"), 4)
                  .arg(QStringLiteral("PRE"), 4)
                  .arg(QStringLiteral("READ STATE")));
    for (int id = 0; id < ka->keyCount(); ++id) {
        const KeyAnalysis::Key &k = ka->key(id);
        const KvRank r = KvRank::unpack(k.kvRank);
        QByteArray line;
        line += pad(ka->hashHex(id).left(16), 18) + ' ';
        line += pad(ka->modelName(id), modelWidth) + ' ';
        line += pad(QStringLiteral("%1/%2").arg(r.rank).arg(r.worldSize), 5) + ' ';
        line += (k.hasGroup ? QString::number(k.group) : QStringLiteral("-"))
                    .rightJustified(3)
                    .toUtf8() +
                ' ';
        line += pad(k.salt >= 0 ? ka->salts()[k.salt] : QStringLiteral("-"), saltWidth) + ' ';
        line += TimeFormat::mono(k.firstT).rightJustified(12).toUtf8() + ' ';
        line += TimeFormat::mono(k.lastT).rightJustified(12).toUtf8() + ' ';
        for (quint32 c : {k.reserves, k.finishes, k.aborts, k.prefetches, k.reads()}) {
            line += QByteArray::number(c).rightJustified(4) + ' ';
        }
        line += KeyAnalysis::stateName(k.state).toLatin1() + '\n';
        cmd.write(line);
    }
    return CacheCommand::kExitOk;
}

}  // namespace lmct
