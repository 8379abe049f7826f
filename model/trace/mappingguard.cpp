#include "trace/mappingguard.h"

#include <atomic>
#include <cstdint>
#include <mutex>

#ifdef Q_OS_LINUX
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace lmct {

namespace {

struct Slot {
    std::atomic<bool> used{false};
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};  // 0: not active
    std::atomic<std::uintptr_t> fault{UINTPTR_MAX};
};

Slot g_slots[MappingGuard::kMaxRanges];
std::atomic<quint64> g_faults{0};
std::atomic<bool> g_installed{false};
std::uintptr_t g_pageSize = 4096;

static_assert(std::atomic<std::uintptr_t>::is_always_lock_free,
              "the handler needs lock-free "
              "atomics");

#ifdef Q_OS_LINUX
struct sigaction g_previous;

void chain(int sig, siginfo_t *info, void *context) {
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction) {
            g_previous.sa_sigaction(sig, info, context);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    // Default action (an ignored SIGBUS from a fault is not survivable either): restore it; a
    // fault happens again when the instruction is retried, a sent signal is raised again.
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    if (!info || info->si_code <= 0) {
        ::raise(sig);
    }
}

void onSigbus(int sig, siginfo_t *info, void *context) {
    const std::uintptr_t a = info ? std::uintptr_t(info->si_addr) : 0;
    if (a != 0 && info->si_code > 0) {  // a fault, not a signal sent by kill()
        for (Slot &s : g_slots) {
            const std::uintptr_t e = s.end.load(std::memory_order_acquire);
            if (e == 0 || a >= e) {
                continue;
            }
            const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
            if (a < b) {
                continue;
            }
            // The file ends before this page, so every page after it in the range is gone too:
            // one zero mapping from here to the range's end. (A page per fault split the file
            // mapping once per page read: a big trace cut short while its records were read
            // exhausted vm.max_map_count, and the next fault killed the process.)
            const std::uintptr_t page = a & ~(g_pageSize - 1);
            const std::uintptr_t rangeEnd = (e + g_pageSize - 1) & ~(g_pageSize - 1);
            void *p = ::mmap(reinterpret_cast<void *>(page), rangeEnd - page, PROT_READ,
                             MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) {
                p = ::mmap(reinterpret_cast<void *>(page), g_pageSize, PROT_READ,
                           MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            }
            if (p == MAP_FAILED) {
                break;  // cannot help: behave as without us
            }
            const std::uintptr_t off = page - b;
            std::uintptr_t cur = s.fault.load(std::memory_order_relaxed);
            while (off < cur &&
                   !s.fault.compare_exchange_weak(cur, off, std::memory_order_release)) {
            }
            g_faults.fetch_add(1, std::memory_order_release);
            return;  // the read is retried and finds zeros
        }
    }
    chain(sig, info, context);
}

void install() {
    static std::once_flag once;
    std::call_once(once, [] {
        g_pageSize = std::uintptr_t(::sysconf(_SC_PAGESIZE));
        struct sigaction sa = {};
        sa.sa_sigaction = onSigbus;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        if (::sigaction(SIGBUS, &sa, &g_previous) == 0) {
            g_installed.store(true, std::memory_order_release);
        }
    });
}
#endif

}  // namespace

int MappingGuard::add(const void *begin, qint64 length) {
#ifdef Q_OS_LINUX
    if (!begin || length <= 0) {
        return -1;
    }
    install();
    for (int i = 0; i < kMaxRanges; ++i) {
        bool expected = false;
        if (g_slots[i].used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
            Slot &s = g_slots[i];
            s.fault.store(UINTPTR_MAX, std::memory_order_relaxed);
            s.begin.store(std::uintptr_t(begin), std::memory_order_release);
            s.end.store(std::uintptr_t(begin) + std::uintptr_t(length), std::memory_order_release);
            return i;
        }
    }
#else
    Q_UNUSED(begin);
    Q_UNUSED(length);
#endif
    return -1;
}

void MappingGuard::remove(int slot) {
    if (slot < 0 || slot >= kMaxRanges) {
        return;
    }
    Slot &s = g_slots[slot];
    s.end.store(0, std::memory_order_release);
    s.begin.store(0, std::memory_order_release);
    s.used.store(false, std::memory_order_release);
}

qint64 MappingGuard::faultOffset(int slot) {
    if (slot < 0 || slot >= kMaxRanges) {
        return -1;
    }
    const std::uintptr_t f = g_slots[slot].fault.load(std::memory_order_acquire);
    return f == UINTPTR_MAX ? -1 : qint64(f);
}

quint64 MappingGuard::faultCount() {
    return g_faults.load(std::memory_order_acquire);
}

bool MappingGuard::installed() {
    return g_installed.load(std::memory_order_acquire);
}

}  // namespace lmct
