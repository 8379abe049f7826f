#pragma once

#include <QtGlobal>

namespace lmct {

/**
 * Survives a mapped file being truncated by another process while it is read.
 *
 * Reading a page of a file mapping that lies wholly beyond the file's current end raises SIGBUS,
 * which kills the process by default. A trace may be truncated under us (LMCache restarted with
 * the same --trace-output, a user's `: > file`, log rotation) while `lmct` reads it or the viewer
 * follows it, so TraceFile registers every mapping it makes here.
 *
 * Design: one process-wide SIGBUS handler (sigaction, SA_SIGINFO | SA_ONSTACK), installed once,
 * on the first add(). For a fault whose address lies in a registered range it maps anonymous
 * zero-filled pages over the faulting page and the rest of the range after it (the file ends
 * before that page, so all of them are gone: one mmap MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS,
 * which replaces only those pages of the file mapping; the faulting page alone if that fails),
 * records the fault and returns: the faulting instruction is executed again and reads zeros, and
 * so do later reads past it, without another fault (a mapping per faulting page exhausted
 * vm.max_map_count on a big trace). Any other SIGBUS goes to the handler that was
 * installed before ours (chained: its SA_SIGINFO or plain handler is called; a default action is
 * restored and the signal raised again, so the process still dies as it would have). Under
 * AddressSanitizer (whose default handle_sigbus=1 lets a program install its own handler) the
 * previous handler is ASan's, which then reports foreign faults as before.
 *
 * Callers must then not trust what they read from a range with a fault (faultOffset() >= 0): the
 * zeros are not the file's bytes. TraceFile turns this into TraceFile::shrunkTo(); the loader and
 * TraceDocument::args() check it and report a diagnostic instead of damage.
 *
 * Registration is async-signal-safe towards the handler: a fixed array of kMaxRanges slots of
 * atomic begin/end addresses, read lock-free by the handler. A range that finds no free slot is
 * not guarded (add() returns -1), and a fault in it is passed on as before. A handler installed
 * after ours (a later sigaction(SIGBUS)) replaces it unless it chains to it, as Qt Test's and
 * ASan's do when installed first.
 *
 * Linux only (elsewhere add() does nothing and returns -1). Thread-safety: every function may be
 * called from any thread.
 */
class MappingGuard {
public:
    /** Ranges that can be guarded at once (each TraceFile mapping takes one). */
    static constexpr int kMaxRanges = 4096;

    /**
     * Guards the mapped range [begin, begin + length) (bytes). Installs the handler on first use.
     * Returns the slot to pass to remove() and faultOffset(), or -1 when not guarded.
     */
    static int add(const void *begin, qint64 length);
    /** Stops guarding a slot; call before the range is unmapped. -1 is ignored. */
    static void remove(int slot);
    /**
     * Lowest offset (bytes from the range's begin, rounded down to a page) at which a read of
     * the slot's range faulted and was replaced by zeros; -1 when none (or slot -1).
     */
    static qint64 faultOffset(int slot);
    /** Faults absorbed in any range since the process started (cheap check before a scan). */
    static quint64 faultCount();
    /** Whether the handler is installed (after the first add()). */
    static bool installed();
};

}  // namespace lmct
