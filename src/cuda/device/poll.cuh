/*
 * poll.cuh - the bounded poll every wait goes through: the peer engines' waits (sync.cuh, pw_poll)
 * and the tagged words (handover.cuh): one spin, one back-off, one watchdog, one way to abandon a
 * run.  (The SW warp-rows kernels keep their own warp-wide loop, pw_swr_wait: through this one
 * they ran the genomes 1.3% and 2.4% slower, sw_warp_rows_proc.cuh says more.)
 *
 * A wait on the wavefront's critical path is usually short and each poll is already an L2 round
 * trip, so the first spin_polls polls do not sleep (a __nanosleep back-off from the first poll
 * cost ~1 us a hand-off: bench/handoff.cu, H200); after them a back-off up to max_sleep_ns keeps
 * long waits, such as a tile-row's first one while the pipeline fills, off the memory system.  The
 * abandon words and the watchdog are looked at every 16th poll (tens of microseconds apart at
 * most: __nanosleep may sleep up to twice what it is asked).  One thread polls (a warp-wide form,
 * the warp-rows kernels' wait, measured slower there and was taken out again).
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

#endif
