/*
 * sync.cuh - how blocks wait for each other: the run's shared words (pw_engine_args), pw_poll (the
 * bounded poll of poll.cuh with the run's limits) that every wait goes through, progress
 * counters, the per-step waits of a tile-row and the grid barrier of the global-barrier schedule.
 *
 * Peer protocol (DESIGN.md section 3):
 *   - tile-rows are claimed in order from an atomic ticket, so a block only ever waits on a row
 *     already claimed by a running block: forward progress without relying on block order;
 *   - progress[q] counts the steps counter q (sweep * n_rows + tile-row) has finished (monotonic;
 *     zeroed by the host before each launch, never in the kernel);
 *   - producer: a barrier over the block's stores, then one thread's release store;
 *   - consumer: one thread polls with acquire loads (pw_poll), then a barrier; data written by
 *     other blocks is then read with ld.cg (L2), never a stale L1 line;
 *   - every wait is bounded (%globaltimer): a wait that sees no progress for the watchdog interval
 *     sets *error and every block leaves; the host returns PW_ERR_TIMEOUT.
 * Tagged words (handover.cuh) wait through the same pw_poll (poll.cuh: the bounded poll).
 */
#ifndef PW_DEVICE_SYNC_CUH
#define PW_DEVICE_SYNC_CUH

#include "../../core/tiling_geometry.h"
#include "../../core/work.h"
#include "memory.cuh"
#include "monitor_device.cuh"
#include "poll.cuh"
#include "trace_device.cuh"


/* A column of a band's storage (a band's edge column, or where a neighbour's goes): row i of
 * plane p at at[t] + (i + shift[t]) * row_bytes + p * plane_bytes for each target t with at[t]
 * (SW and DTW keep the left neighbour's column twice: a row's left value and the next row's
 * diagonal). */
struct pw_band_column {
    char *at[2];
    int64_t shift[2];
    int64_t row_bytes, plane_bytes;
};

/* A direct hand-over (gpu_band.cuh): after each tile-row the block copies its rows of the band's
 * edge column (src, laid out as a pw_band_column's target 0) into the neighbour's storage (dst,
 * on this GPU or a peer) and raises the neighbour's per-sweep word.  ready NULL: none.  The
 * tile-rows push in order (`pushed`): the next tile-row may finish while this one still copies,
 * and its word must not claim this one's rows. */
struct pw_band_push {
    pw_band_column src, dst;
    pw_counter *ready;
    pw_counter *pushed; /* this band's, a word a sweep: rows pushed so far (pushes go in row order) */
};

/* A band of columns of a larger run (core/band.h), as the kernel sees it.  Words, one a sweep:
 * left_ready[s] rows of the left neighbour's column in place for sweep s (NULL: no left
 * neighbour); last_done[s] rows of the band's last column final (NULL: no right neighbour).
 * In-place sweeps (HEAT, SOR) also read the right neighbour's first column as the sweep before
 * left it and hand their first column back: right_ready and first_done, the same way (NULL: no
 * such neighbour, or a one-way wavefront).  The ready words are written by the link's copies
 * (host) or by the neighbour's kernel (push_last / push_first of the neighbour: a direct
 * hand-over); the done words are read by the host. */
struct pw_device_band {
    const pw_counter *left_ready;
    pw_counter *last_done;
    const pw_counter *right_ready;
    pw_counter *first_done;
    pw_band_push push_last, push_first;
    int64_t rows;
    int planes, elem_bytes; /* of the edge columns */
    /* A user grid cell's reach (docs/DISTRIBUTED.md, "Grid and grid3 cells of any reach"): the
     * band's first first_cols columns are its first edge (0: 1), and its cells read the right
     * neighbour's down to right_below rows under their own. */
    int64_t first_cols, right_below;
};

struct pw_engine_args {
    pw_tiling t;
    pw_counter *progress;       /* one counter per ticket (tile-row and sweep) */
    pw_counter *ticket;         /* next tile-row to claim */
    unsigned *grid_barrier;     /* the global-barrier schedule's arrival word (zeroed) */
    int *error;                 /* 0, PW_CUDA_ERROR_TIMEOUT or _CANCELLED: every block leaves */
    long long watchdog_ns;
    long long stuck_row;        /* fault injection (plan.h): never hands over; -1 = none */
    pw_work work;               /* peer: the tickets (tile-rows of pipelined sweeps: core/work.h) */
    int64_t sweep_base;         /* the run's sweep that this launch's first sweep is */
    int64_t sweep_lag;          /* barrier: sweep s's diagonal d at barrier step d + s sweep_lag (1: one sweep) */
    unsigned spin_polls;        /* pw_poll: polls before it sleeps between them */
    pw_gpu_trace trace;         /* trace.records == NULL: tracing off */
    pw_gpu_monitor monitor;     /* monitor.words == NULL: no progress hook, no cancel flag */
    pw_device_band band;        /* band.left_ready and band.last_done NULL: the whole problem */
};

/* Poll until poll(&seen) says ready; false when the run is abandoned: the engines' bounded poll
 * (poll.cuh) with the run's abandon word, watchdog and spin count, sleeps of up to ~1 us. */
template <class Poll>
__device__ __forceinline__ bool pw_poll(const pw_engine_args &a, Poll poll)
{
    const pw_poll_limits limits = {a.error, nullptr, a.watchdog_ns, a.spin_polls, 1024};
    return pw_poll_bounded(limits, (pw_counter)0, poll);
}

/* Thread 0 of a block: wait until progress[q] >= need.  false when the run is abandoned.
 * *latest (if given) receives the value seen, which may pass `need`.  The polls are acquire
 * loads: relaxed polls with one acquire fence after the last were tried (an acquire load also
 * invalidates the SM's L1, CCTL.IVALL, on every poll) and were no faster on SW/DTW, and one
 * hand-off took 1.23 us against 0.97 (bench/handoff.cu, H200; the fence is a MEMBAR.ALL.GPU). */
__device__ __forceinline__ bool pw_wait_progress(const pw_engine_args &a, int64_t q, pw_counter need,
                                                 pw_counter *latest = NULL)
{
    const pw_counter *p = a.progress + q;
    pw_counter now = 0;
    const bool ok = pw_poll(a, [&](pw_counter *seen) {
        now = *seen = pw_load_acquire(p);
        return now >= need;
    });
    if (ok && latest) *latest = now;
    return ok;
}

/* ---- waits and publishes by step, for processors that sync inside their tiles ----------------
 * Such a processor gets run_tile(t, r, c, smem, sync) from the peer schedule with no wait before
 * the tile and no publish after it: it calls pw_row_wait_steps before it reads what a step range
 * needs and pw_row_publish as its steps are stored, so the tile-row below can follow a few steps
 * behind instead of a whole tile (tiling_geometry.h, the step forms).  The barrier and launch
 * schedules pass sync.a == NULL: nothing to wait for. */
struct pw_row_sync {
    const pw_engine_args *a; /* NULL: the schedule already ordered the tile */
    int64_t q, sweep, r;     /* counter index, sweep, tile-row (a 3-D face's: the tile's place in its band) */
    /* the run may be a band of a larger one (the peer schedule's band kernel): a constant where
     * the schedule builds it, so a processor's band code folds away in the other kernels */
    bool banded;
};

/* plan.h's fault injection: a stuck tile-row never publishes or sends anything, so the row
 * below must end in PW_ERR_TIMEOUT. */
__device__ __forceinline__ bool pw_row_stuck(const pw_row_sync &s) { return s.a && s.q == s.a->stuck_row; }

/* Thread 0's latest values of the counters it waits on (above; previous sweep same, below): a
 * wait they already satisfy costs no load.  They were read with acquire, so what they promise
 * is visible. */
struct pw_row_seen {
    pw_counter above = 0, same = 0, below = 0;
};

__device__ __forceinline__ bool pw_wait_cached(const pw_engine_args &a, int64_t q, pw_counter need, pw_counter *seen)
{
    return *seen >= need || pw_wait_progress(a, q, need, seen);
}

/* Thread 0: wait until steps up to `last` of the tile-row may run: the row above in this sweep
 * (unless `above` is false: a processor that hands that row over by other means), and for a
 * later sweep the previous sweep's rows r and r + 1 far enough on (tiling_geometry.h, the step
 * forms and "several in-place sweeps").  false: the run is abandoned. */
__device__ __forceinline__ bool pw_row_wait_steps(const pw_row_sync &s, pw_row_seen *seen, int64_t last, bool above = true)
{
    if (!s.a) return true;
    const pw_engine_args &a = *s.a;
    const pw_tiling &t = a.t;
    if (above && s.r > 0 && !pw_wait_cached(a, s.q - 1, (pw_counter)pw_tiling_need_at(&t, s.r, last), &seen->above)) return false;
    if (s.sweep == 0) return true;
    const int64_t prev = s.q - pw_work_sweep_stride(&a.work); /* this tile-row in the previous sweep */
    if (!pw_wait_cached(a, prev, (pw_counter)pw_tiling_need_prev_same_at(&t, s.r, last), &seen->same)) return false;
    if (s.r + 1 < t.n_rows) {
        int64_t below = pw_tiling_need_prev_below_at(&t, s.r, last);
        if (below > 0 && !pw_wait_cached(a, prev + 1, (pw_counter)below, &seen->below)) return false;
    }
    return true;
}

/* Thread 0: wait until tile c of tile-row r may run in sweep `sweep` (counter q = sweep * n_rows
 * + r): the step-form wait at the tile's last step, which is the tile rule of tiling_geometry.h
 * (test_tiling checks the two agree), and, where a later sweep reads the previous one further
 * down than the next tile-row (a user grid cell's sweep reads), rows r + 2 .. r + M too.  (The
 * processors that wait a tile at a time come here: FullProc, LinearProc, StencilWindowProc;
 * launch.cu lets only FullProc take a skewed tiling with several sweeps, and only
 * FullProc<App, true>, a user grid cell's, such reads.) */
/* (The loop only where DeepReads (pw_proc_policy.deep_sweep_reads): compiled into every FullProc
 * kernel it made HEAT's and SOR's 1.017-1.019x slower on an H200 with one sweep, where it never
 * runs -- code generation; out of line and handed values, 1.04x (the call's ABI); and a
 * reference to the kernel parameter handed to an out-of-line function puts the whole parameter
 * in local memory.) */
template <bool DeepReads>
__device__ __forceinline__ bool pw_wait_tile(const pw_engine_args &a, int64_t q, int64_t sweep, int64_t r, int64_t c)
{
    pw_row_seen seen;
    const pw_tiling &t = a.t;
    const int64_t last = pw_tiling_last_step(&t, r, c);
    if (!pw_row_wait_steps(pw_row_sync{&a, q, sweep, r, false}, &seen, last)) return false;
    if constexpr (DeepReads) {
        if (sweep == 0) return true;
        const int64_t prev = q - pw_work_sweep_stride(&a.work);
        for (int64_t m = 2; m <= pw_tiling_sweep_rows_below(&t) && r + m < t.n_rows; m++) {
            const int64_t need = pw_tiling_need_prev_at(&t, r, m, last);
            pw_counter seen_m = 0;
            if (need > 0 && !pw_wait_progress(a, prev + m, (pw_counter)need, &seen_m)) return false;
        }
    }
    return true;
}

/* Thread 0, after the block's stores of every step < done and a barrier over them: a release
 * store (cumulative over the writes the barrier ordered before it, which is all the consumer's
 * acquire needs). */
__device__ __forceinline__ void pw_row_publish(const pw_row_sync &s, int64_t done)
{
    if (s.a && !pw_row_stuck(s)) pw_store_release(s.a->progress + s.q, (pw_counter)done);
}

/* The same after a whole tile of a processor that does not sync inside its tiles.  The fence
 * first: a tile's stores are plain weak stores from every thread of the block. */
__device__ __forceinline__ void pw_tile_publish(const pw_row_sync &s, int64_t done)
{
    if (!s.a || pw_row_stuck(s)) return;
    __threadfence();
    pw_store_release(s.a->progress + s.q, (pw_counter)done);
}

/* Every block of a cooperative launch (all co-resident): wait until all have arrived.  The
 * algorithm and instructions of cooperative_groups' grid.sync() on sm_70+ (block 0 adds 2^31 -
 * (blocks - 1), the others 1, so the top bit flips when the last arrives; the arrival a release
 * atomic, the polls acquire loads), on a word of our own so that the device code needs no CUDA
 * header.  Like grid.sync() it spins without sleeping and without fences of its own: a barrier
 * is on the critical path of every tile diagonal, and a first version (pw_poll's back-off, then
 * __threadfence() around a relaxed atomic) made HEAT's barrier schedule 1.3x slower (16384^2,
 * square 64 x 64 tiles, H100: 49.3 against 37.5 ms).  The watchdog and the abandon flag are
 * looked at every 1024 polls; the abandon flag reaches every thread by __syncthreads_or.  (Relaxed
 * polls with one fence after them made GS+HT 7% slower; the word's place, its own 64 KB or next
 * to the run's other words, made no difference: H100, HEAT 16384^2.)  false: abandoned. */
__device__ __forceinline__ bool pw_grid_barrier(const pw_engine_args &a)
{
    int abandoned = 0; /* thread 0's; every thread learns it from the closing __syncthreads_or */
    __syncthreads();
    /* A watched run may have been cancelled: a block that leaves here leaves the others waiting
     * at this barrier, where they look at the same word. */
    if (threadIdx.x == 0 && a.monitor.words && *(volatile int *)a.error) abandoned = 1;
    else if (threadIdx.x == 0) {
        const unsigned add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1) : 1u;
        const unsigned before = pw_atomic_add_release_u32(a.grid_barrier, add);
        unsigned seen = before, checked = before;
        long long since = 0;
        for (unsigned polls = 1; ((before ^ (seen = pw_load_acquire_u32(a.grid_barrier))) & 0x80000000u) == 0; polls++) {
            if (polls % 1024) continue;
            if (*(volatile int *)a.error) {
                abandoned = 1;
                break;
            }
            const long long now = pw_globaltimer();
            if (seen != checked || !since) {
                checked = seen;
                since = now;
            } else if (now - since > a.watchdog_ns) {
                pw_raise_error(a.error, PW_CUDA_ERROR_TIMEOUT);
                abandoned = 1;
                break;
            }
        }
    }
    return !__syncthreads_or(abandoned);
}

#endif
