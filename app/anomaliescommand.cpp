#include "anomaliescommand.h"

#include "cache/anomalyreport.h"
#include "cachecommand.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"

namespace lmct {

int AnomaliesCommand::run(const QStringList &args) {
    CacheCommand cmd(
        QStringLiteral("anomalies"),
        QStringLiteral(
            "What looks wrong in a storage trace, in file order, with the record indices:\n"
            "  finish_without_reserve  finish_write of a key with no open reservation\n"
            "  reserve_without_finish  keys still reserved at the end (no finish/abort)\n"
            "  exit_without_enter      __exit__ with no open __enter__ of the same keys\n"
            "  enter_without_exit      __enter__ never closed by an __exit__\n"
            "  read_never_written      keys read before any finish_write of them\n"
            "  time_backwards          t_mono below the previous record's\n"
            "  gap                     silences over 20x the median inter-arrival while a\n"
            "                          reservation or a read is open (idle time is none)\n"
            "  hit_disagrees           requests whose PrefetchHandle (release/cancel) tells\n"
            "                          another L1 prefix hit than the calls\n"
            "Keys reserved again after a finish_write (reserve_write(mode=\"new\") skips\n"
            "them: already stored) are counted, not reported.\n"
            "Exit 0 ok (whether or not anomalies were found), 1 usage error, 2 unreadable."));
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
    const auto report = AnomalyReport::build(*doc, ka);
    if (cmd.json()) {
        QByteArray o = "{\"counts\":{";
        for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
            const auto kind = AnomalyReport::Kind(k);
            o += (k ? "," : "") + CacheCommand::string(AnomalyReport::kindName(kind)) + ":" +
                 CacheCommand::number(report->count(kind));
        }
        o += "},\"items\":[";
        cmd.write(o);
        bool first = true;
        for (const AnomalyReport::Item &it : report->items()) {
            QByteArray line = first ? "{" : ",{";
            first = false;
            line += "\"kind\":" + CacheCommand::string(AnomalyReport::kindName(it.kind));
            line += ",\"records\":[" + QByteArray::number(it.record);
            if (it.record2 >= 0) {
                line += "," + QByteArray::number(it.record2);
            }
            line += "],\"t_mono\":" + CacheCommand::number(it.t);
            line += ",\"message\":" + CacheCommand::string(report->message(it)) + "}";
            cmd.write(line);
        }
        o = "],\"truncated\":[";
        bool any = false;
        for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
            const auto kind = AnomalyReport::Kind(k);
            if (report->truncated(kind)) {
                o += (any ? "," : "") + CacheCommand::string(AnomalyReport::kindName(kind));
                any = true;
            }
        }
        o += "],\"keyless_finish_writes\":" + CacheCommand::number(report->keylessFinishes());
        o += ",\"damaged_records\":{\"count\":" +
             CacheCommand::number(report->keys()->damagedRecords()) + ",\"first_record\":" +
             (report->keys()->firstDamagedRecord() >= 0
                  ? CacheCommand::number(qint64(report->keys()->firstDamagedRecord()))
                  : QByteArray("null")) +
             "}";
        o += ",\"already_stored\":" + CacheCommand::number(report->alreadyStored());
        o += ",\"median_inter_arrival_s\":" + CacheCommand::number(report->medianInterArrival());
        o += ",\"gap_threshold_s\":" + CacheCommand::number(report->gapThreshold()) + "}\n";
        cmd.write(o);
        return CacheCommand::kExitOk;
    }
    QString s = QStringLiteral("%1: %2 in %3\n")
                    .arg(TerminalText::escaped(doc->fileName()),
                         CacheCommand::counted(report->totalCount(), "anomaly", "anomalies"),
                         CacheCommand::counted(report->keys()->recordCount(), "record", "records"));
    for (int k = 0; k < AnomalyReport::kKindCount; ++k) {
        const auto kind = AnomalyReport::Kind(k);
        s += QStringLiteral("  %1 %2  %3%4\n")
                 .arg(report->count(kind), 8)
                 .arg(AnomalyReport::kindName(kind), -22)
                 .arg(AnomalyReport::kindDescription(kind))
                 .arg(report->truncated(kind) ? QStringLiteral(" (items cut)") : QString());
    }
    if (report->keylessFinishes() > 0) {
        s += QStringLiteral("  %1 without keys: %2 before %3 not reported\n")
                 .arg(CacheCommand::counted(report->keylessFinishes(), "finish_write record",
                                            "finish_write records"),
                      CacheCommand::counted(report->suppressedReservations(), "open reservation",
                                            "open reservations"),
                      report->keylessFinishes() == 1 ? QStringLiteral("it")
                                                     : QStringLiteral("them"));
    }
    if (report->keys()->damagedRecords() > 0) {
        s += QStringLiteral(
                 "  %1 with damaged arguments (first: record %2): the keys after the "
                 "damage are not seen, anomalies of theirs may be wrong%3\n")
                 .arg(CacheCommand::counted(report->keys()->damagedRecords(), "record", "records"))
                 .arg(report->keys()->firstDamagedRecord())
                 .arg(report->keylessFinishes() == 0 && report->suppressedReservations() > 0
                          ? QStringLiteral("; %1 before a damaged finish_write not reported")
                                .arg(CacheCommand::counted(report->suppressedReservations(),
                                                           "open reservation", "open reservations"))
                          : QString());
    }
    if (report->alreadyStored() > 0) {
        s += QStringLiteral(
                 "  %1 already stored (reserved again after a finish_write: skipped, not "
                 "reported)\n")
                 .arg(CacheCommand::counted(report->alreadyStored(), "key", "keys"));
    }
    cmd.write(s + QLatin1Char('\n'));
    for (const AnomalyReport::Item &it : report->items()) {
        QString line = QStringLiteral("#%1").arg(it.record);
        if (it.record2 >= 0) {
            line += QStringLiteral(",#%1").arg(it.record2);
        }
        cmd.write(QStringLiteral("%1 %2  %3  %4\n")
                      .arg(line, -18)
                      .arg(TimeFormat::mono(it.t), 12)
                      .arg(AnomalyReport::kindName(it.kind), -22)
                      .arg(TerminalText::escaped(report->message(it))));  // one line each
    }
    return CacheCommand::kExitOk;
}

}  // namespace lmct
