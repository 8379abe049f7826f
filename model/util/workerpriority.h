#pragma once

namespace lmct {

/**
 * The scheduling weight of the threads that do background work (loading, argument checks,
 * filters, statistics, analyses, the timeline index), so that the GUI thread keeps its share of
 * the CPU while they keep every core busy.
 *
 * Why: on a 2-core machine, with the loader's threads and the compute pool all runnable, the
 * viewer's GUI thread waited up to 144 ms for a CPU while a 10 M record trace loaded (its own
 * work took under 50 ms); with the workers at nice 10 the longest wait was about 50 ms and the
 * load took as long (bench_gui_open, docs/performance.md). A worker at nice 10 still gets the
 * CPU the GUI thread leaves idle.
 *
 * setWorkerNice() chooses the nice value (0, the default, changes nothing: the `lmct` CLI leaves
 * it); `lmct-viewer` sets kViewerNice at start-up. Every background job calls
 * applyToCurrentThread() first (ParallelChunks::run does for its helpers): the calling thread
 * takes the nice value unless it is the application's main thread. Linux only (setpriority() on
 * one thread id: Linux keeps a nice value per thread); elsewhere nothing happens. Raising a
 * thread's nice value back needs privileges: a failure is ignored (the thread stays as it is).
 *
 * Thread-safety: both functions may be called from any thread.
 */
class WorkerPriority {
public:
    /** The nice value `lmct-viewer` gives its worker threads. */
    static constexpr int kViewerNice = 10;

    /** The nice value worker threads take from now on (their next applyToCurrentThread()). */
    static void setWorkerNice(int nice);
    static int workerNice();

    /**
     * Gives the calling thread the worker nice value when it has not got it yet (one
     * thread_local comparison otherwise); nothing on the main thread or when it is 0 and the
     * thread was never changed.
     */
    static void applyToCurrentThread();
};

}  // namespace lmct
