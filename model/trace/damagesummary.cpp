#include "trace/damagesummary.h"

#include "trace/tracedocument.h"
#include "util/plural.h"

#include <QStringList>
#include <algorithm>

namespace lmct {

QString DamageSummary::sentence(const QString &who) const {
    if (!isDamaged()) {
        return QString();
    }
    QStringList parts;
    if (badArgsRecords > 0) {
        parts << Plural::counted(badArgsRecords, "record", "records") +
                     QStringLiteral(" with damaged arguments");
    }
    const QString bytes = Plural::counted(skippedBytes, "byte", "bytes");
    if (skippedFrames > 0) {
        parts << QStringLiteral("%1 skipped%2 (%3)")
                     .arg(Plural::counted(skippedFrames, "frame", "frames"),
                          tailCut ? QStringLiteral(" and its last record cut short") : QString(),
                          bytes);
    } else if (tailCut) {
        parts << QStringLiteral("its last record cut short (%1 skipped)").arg(bytes);
    } else if (skippedBytes > 0) {
        parts << bytes + QStringLiteral(" skipped");
    }
    if (recoveredFrames > 0) {
        parts << Plural::counted(recoveredFrames, "record", "records") +
                     QStringLiteral(" recovered after a resync");
    }
    if (shrunkTo >= 0) {
        parts << QStringLiteral("the file shrank to %1 while it was read%2")
                     .arg(Plural::counted(shrunkTo, "byte", "bytes"),
                          lostRecords > 0
                              ? QStringLiteral(" (the last %1 read %2 gone)")
                                    .arg(Plural::counted(lostRecords, "record", "records"),
                                         lostRecords == 1 ? QStringLiteral("is")
                                                          : QStringLiteral("are"))
                              : QString());
    }
    return QStringLiteral("%1 is damaged: %2; its figures cover the %3 read")
        .arg(who, parts.join(QStringLiteral(", ")), Plural::counted(records, "record", "records"));
}

DamageSummary DamageSummary::of(const TraceDocument &doc, qint64 covered) {
    DamageSummary s;
    const RecordStore &rs = doc.records();
    const int n = rs.size();
    s.shrunkTo = doc.shrunkTo();
    // The records past where a shrunk file ends are in no figure: not counted as read.
    const qint64 within = s.shrunkTo >= 0 ? doc.recordsWithin(s.shrunkTo) : n;
    s.records = covered >= 0 ? std::min<qint64>(covered, n) : within;
    s.lostRecords = s.shrunkTo >= 0 ? n - s.records : 0;
    for (int i = 0; i < s.records; ++i) {
        s.badArgsRecords += (rs.flags(i) & RecordStore::BadArgs) ? 1 : 0;
    }
    const TraceDocument::Damage d = doc.damage();
    s.skippedFrames = d.skippedFrames;
    s.skippedBytes = d.skippedBytes;
    s.recoveredFrames = d.recoveredFrames;
    for (const Diagnostic &diag : doc.diagnostics()) {
        s.tailCut = s.tailCut || diag.kind == Diagnostic::Kind::Truncated;
    }
    s.argsChecked = doc.argsChecked();
    return s;
}

}  // namespace lmct
