#include "trace/scanreport.h"

#include "util/plural.h"
#include "util/timeformat.h"

namespace lmct {

ScanReport::ScanReport(TraceDocument &doc, const TraceLoader::Options &opt)
    : m_doc(doc), m_opt(opt), m_store(doc.m_records), m_st(doc.m_scan) {}

void ScanReport::diag(Diagnostic::Severity s, Diagnostic::Kind k, qint64 offset,
                      const QString &msg) {
    m_doc.addDiagnostic(Diagnostic{s, k, offset, msg}, m_opt.maxDiagnostics);
}

void ScanReport::reportDamage() {
    const TraceDocument::Damage d = m_doc.damage();
    if (d.skippedBytes == 0 && d.skippedFrames == 0 && d.recoveredFrames == 0) {
        return;
    }
    diag(Diagnostic::Severity::Info, Diagnostic::Kind::Damage, -1,
         QStringLiteral("damage: %1 skipped, %2 skipped, %3 recovered "
                        "(records read right after a resync or a rewritten header)")
             .arg(Plural::counted(d.skippedBytes, "byte", "bytes"),
                  Plural::counted(d.skippedFrames, "frame", "frames"),
                  Plural::counted(d.recoveredFrames, "frame", "frames")));
}

void ScanReport::reportOrder(bool following) {
    const int n = m_store.size();
    const QString upTo =
        following
            ? QStringLiteral(" (counted while the trace was followed, up to record %1)").arg(n - 1)
            : QString();
    // (a note is added, or replaced while following when there is more to say)
    auto put = [&](int *at, qint64 *said, qint64 now, const Diagnostic &d) {
        if (!following) {
            diag(d.severity, d.kind, d.offset, d.message);
        } else if (now != *said && *at != -2) {
            *said = now;
            *at = m_doc.setDiagnostic(*at, d, m_opt.maxDiagnostics);
            if (*at < 0) {
                *at = -2;  // not listed (the list is full): not tried again
            }
        }
    };
    if (m_st.badTimes > 0) {
        const int i = m_st.firstBadTime;
        put(&m_st.timeNoteAt, &m_st.timeNoteCount, m_st.badTimes,
            Diagnostic{Diagnostic::Severity::Warning, Diagnostic::Kind::Time,
                       m_store.frameOffset(i),
                       QStringLiteral(
                           "%1 record(s) have a t_mono or t_wall that is not a finite time, or a "
                           "negative t_mono (LMCache clamps t_mono at 0); the first is record %2 "
                           "(t_mono %3, t_wall %4). They are kept; duration and time axes ignore "
                           "them.%5")
                           .arg(m_st.badTimes)
                           .arg(i)
                           .arg(m_store.tMono(i))
                           .arg(TimeFormat::fixed(m_store.tWall(i), 6))
                           .arg(upTo)});
    }
    // The format allows t_mono to step back "slightly" (records are published from several
    // threads: microseconds, a stalled thread perhaps seconds). A step back of more than an
    // hour is no reordering but time values that are not times (1.7e308 then 1.0).
    static constexpr double kPlausibleBackStep = 3600.0;
    if (m_st.backSteps > 0 && !(m_st.worstStep <= kPlausibleBackStep)) {
        put(&m_st.orderNoteAt, &m_st.orderNoteCount, m_st.backSteps,
            Diagnostic{
                Diagnostic::Severity::Warning, Diagnostic::Kind::Order,
                m_store.frameOffset(m_st.worstIndex),
                QStringLiteral(
                    "t_mono steps back by %1 s at record %2 (from %3 to %4): far more than "
                    "records published from several threads can explain (more than an "
                    "hour); the t_mono values are likely corrupt, and durations and the time "
                    "axis with them (%5 step(s) back in file order in all)%6")
                    .arg(m_st.worstStep, 0, 'g', 6)
                    .arg(m_st.worstIndex)
                    .arg(TimeFormat::mono(m_store.tMono(m_st.worstIndex) + m_st.worstStep),
                         TimeFormat::mono(m_store.tMono(m_st.worstIndex)))
                    .arg(m_st.backSteps)
                    .arg(upTo)});
    } else if (m_st.backSteps > 0) {
        put(&m_st.orderNoteAt, &m_st.orderNoteCount, m_st.backSteps,
            Diagnostic{
                Diagnostic::Severity::Info, Diagnostic::Kind::Order,
                m_store.frameOffset(m_st.worstIndex),
                QStringLiteral("t_mono steps back %1 time(s) in file order; the largest step is "
                               "%2 s, at record %3 (normal for a few microseconds: records are "
                               "published from several threads)%4")
                    .arg(m_st.backSteps)
                    .arg(m_st.worstStep, 0, 'g', 6)
                    .arg(m_st.worstIndex)
                    .arg(upTo)});
    }
}

}  // namespace lmct
