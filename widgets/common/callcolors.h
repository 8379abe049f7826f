#pragma once

#include <QColor>
#include <QIcon>
#include <QString>

namespace lmct {

/**
 * Stable colours for LMCache calls, shared by the record table's chips and the timeline's lanes.
 *
 * A colour is keyed by the call's short name (Qualname::shortName: `reserve_write`,
 * `read_prefetched_results.__enter__`, `events.batch`), so the same call has the same colour in
 * every file and every session. The calls of LMCache's call flow (Qualname::callFlow) get fixed,
 * well separated colours; any other name gets one of ten more colours by a stable hash of its text
 * (FNV-1a, not qHash, which is seeded per process).
 *
 * Colours are mid-tone (neither very light nor very dark) so they read on light and dark
 * palettes alike, as fills with a thin darker outline, or as text.
 *
 * Thread-safety: color() and forQualname() are reentrant. chip() builds pixmaps and must be
 * called on the GUI thread.
 */
class CallColors {
public:
    /** The colour of a call given by its short name. */
    static QColor color(const QString &shortName);
    /** The colour of a call given by its full qualname (uses its short name). */
    static QColor forQualname(const QString &qualname);
    /**
     * A small rounded colour chip for item views, `size` logical pixels square, crisp at the
     * application's device pixel ratio. Cached per name and size.
     */
    static QIcon chip(const QString &shortName, int size = 12);
};

}  // namespace lmct
