/*
 * poll.cuh - the bounded poll every wait goes through: the peer engines' waits (sync.cuh, pw_poll)
 * and the tagged words (handover.cuh): one spin, one back-off, one watchdog, one way to abandon a
 * run.  A warp-wide form (pw_poll_warp_counters) serves the SW warp-rows kernels, whose waits
 * are on plain counters and take the whole warp.
 *
 * A wait on the wavefront's critical path is usually short and each poll is already an L2 round
 * trip, so the first spin_polls polls do not sleep (a __nanosleep back-off from the first poll
 * cost ~1 us a hand-off: bench/handoff.cu, H200); after them a back-off up to max_sleep_ns keeps
 * long waits, such as a tile-row's first one while the pipeline fills, off the memory system.  The
 * abandon words and the watchdog are looked at every 16th poll (tens of microseconds apart at
 * most: __nanosleep may sleep up to twice what it is asked).  One thread polls; run by two threads
 * of a warp in the warp-rows kernels, this loop measured slower there than their own warp-wide
 * one, pw_poll_warp_counters below.
 */
#ifndef PW_DEVICE_POLL_CUH
#define PW_DEVICE_POLL_CUH

#include "memory.cuh"

struct pw_poll_limits {
    int *error;            /* the run's abandon word: set by anyone, every waiter leaves; a
                              watchdog timeout sets it to PW_CUDA_ERROR_TIMEOUT */
    const int *stop;       /* a second word that, set, also means leave (NULL: none) */
    long long watchdog_ns; /* what `seen` may stay unchanged for */
    unsigned spin_polls;   /* polls before it sleeps between them */
    unsigned max_sleep_ns; /* the back-off's ceiling (it doubles from 32 ns) */
};

/* Poll until poll(&seen) says ready; false when the run is abandoned (an abandon word set, or
 * what poll reports in `seen` unchanged for the watchdog interval: it then sets *error).  Nothing
 * but the poll (and the back-off) runs until the 16th failed poll: the clock is read only at the
 * checks, so the watchdog interval starts at the first check, 16 polls late. */
template <class Counter, class Poll>
__device__ __forceinline__ bool pw_poll_bounded(const pw_poll_limits &l, Counter seen, Poll poll)
{
    if (poll(&seen)) return true;
    Counter checked = seen; /* what the watchdog saw last */
    long long since = 0;
    unsigned ns = 32;
    for (unsigned polls = 1;; polls++) {
        const bool sleeping = polls > l.spin_polls;
        if (sleeping) {
            __nanosleep(ns);
            if (ns < l.max_sleep_ns) ns *= 2;
        }
        if (poll(&seen)) return true;
        if (polls % 16 != 0) continue;
        if (*(volatile int *)l.error | (l.stop ? *(volatile const int *)l.stop : 0)) return false;
        const bool moved = seen != checked;
        checked = seen;
        const long long now = pw_globaltimer();
        if (polls == 16 || moved) {
            since = now;
        } else if (now - since > l.watchdog_ns) {
            pw_raise_error(l.error, PW_CUDA_ERROR_TIMEOUT);
            return false;
        }
    }
}

/* The warp-wide form on two counters at once (the SW warp-rows kernels, sw_warp_rows_proc.cuh):
 * thread 0 polls p0 until it reaches need0 and thread 31 polls p31 until need31 (a NULL counter
 * holds already; SYS0: p0 is written or read by another GPU: system-scope acquire), and the warp
 * leaves together.  The abandon words are pw_poll_limits' error and stop (stop required), and
 * every poll after the first sleeps 64 ns (no spin, no doubling).  Same rules otherwise: a check
 * every 16th poll, the first reason kept (pw_raise_error).  Its own loop, not pw_poll_bounded run
 * by two threads: through that, the genomes ran 6.60 s against 6.51, and 6.68 against 6.52 once
 * the poll read its clock only at its checks (H200, bench/sw_warp_rows_ab.sh, 2026-11-29): at
 * the warp-rows kernels' 80-register cap the inlined wait moves the hot loop's allocation.  The
 * words and the interval come by reference, to be read where the loop reads them (kernel
 * parameters, at the checks): taken by value, as a pw_poll_limits, they were loaded before the
 * loop and the kernels' code changed (pw_swr_kernel R = 12: 2696 -> 2704 instructions). */
template <bool SYS0 = false>
__device__ __forceinline__ bool pw_poll_warp_counters(int *const &error_word, const int *const &stop_word, const long long &watchdog_ns,
                                                      int k, const unsigned *p0, unsigned need0, const unsigned *p31,
                                                      unsigned need31)
{
    unsigned seen = 0, checked = 0;
    long long since = 0;
    for (unsigned polls = 0;; polls++) {
        bool ok = true;
        if (k == 0 && p0) ok = (seen = SYS0 ? pw_load_acquire_sys_u32(p0) : pw_load_acquire_u32(p0)) >= need0;
        if (k == 31 && p31) ok = (seen = pw_load_acquire_u32(p31)) >= need31;
        if (__all_sync(0xffffffffu, ok)) return true;
        if (polls % 16 == 0) {
            const bool moved = __any_sync(0xffffffffu, seen != checked);
            checked = seen;
            const long long now = __shfl_sync(0xffffffffu, pw_globaltimer(), 0);
            if (polls == 0 || moved) since = now;
            int error = k == 0 ? *(volatile int *)error_word | *(volatile const int *)stop_word : 0;
            if (!error && now - since > watchdog_ns) {
                if (k == 0) pw_raise_error(error_word, PW_CUDA_ERROR_TIMEOUT);
                error = 1;
            }
            if (__shfl_sync(0xffffffffu, error, 0)) return false;
        }
        __nanosleep(64);
    }
}

#endif
