/*
 * engine.cuh - the CUDA runtime: one persistent peer kernel, the cooperative global-barrier
 * kernel and the one-launch-per-diagonal baseline, all driving the same *tile processor*.
 *
 * A tile processor (tile_processors.cuh) computes tile c of tile-row r with one thread per row
 * (lane), walking diagonal steps with a __syncthreads() between steps.  The runtime owns
 * everything else: which block runs which tile-row, the progress counters, the watchdog.
 *
 * Peer protocol (DESIGN.md section 3):
 *   - tile-rows are claimed in order from an atomic ticket, so a block only ever waits on a row
 *     already claimed by a running block: forward progress without relying on block order;
 *   - progress[r] counts the steps row r has finished (monotonic; reset by the host with a
 *     memset before each launch, never in the kernel);
 *   - producer: __syncthreads(); thread 0: __threadfence(); release store (st.release.gpu);
 *   - consumer: thread 0 polls with acquire loads (spinning, then a __nanosleep back-off: pw_poll); __syncthreads();
 *     data written by other blocks is then read with ld.cg (L2), never a stale L1 line
 *     (the SW/DTW warp processor needs no counters: its bus words carry their writer's tile-row,
 *     warp_processor.cuh);
 *   - every wait is bounded (%globaltimer): a wait that sees no progress for the watchdog
 *     interval sets *error and every block leaves; the host returns PW_ERR_TIMEOUT.
 * Internal C++ (templates over the tile processor) stays inside src/cuda; the API is C.
 */
#ifndef PW_ENGINE_CUH
#define PW_ENGINE_CUH

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <type_traits>

#include "../core/plan.h"
#include "../core/tiling.h"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "gpu_trace.cuh"

#define PW_CUDA_WATCHDOG_NS (10LL * 1000000000LL)
#define PW_CUDA_ERROR_TIMEOUT 1

typedef unsigned long long pw_counter;

struct pw_engine_args {
    pw_tiling t;
    pw_counter *progress;       /* n_rows counters */
    pw_counter *ticket;         /* next tile-row to claim */
    int *error;                 /* 0, or PW_CUDA_ERROR_TIMEOUT */
    long long watchdog_ns;
    long long stuck_row;        /* fault injection (plan.h): never published; -1 = none */
    int64_t sweeps;             /* peer: in-place sweeps pipelined in this launch (>= 1) */
    unsigned spin_polls;        /* pw_wait_progress: polls before it sleeps between them */
    pw_gpu_trace trace;         /* trace.records == NULL: tracing off */
};

/* Polls a wait makes back to back before it starts sleeping between them (the default of
 * pw_engine_args::spin_polls; PEERWAVE_SPIN_POLLS sets it, for measuring). */
#define PW_SPIN_POLLS 64

/* Poll until poll(&seen) says ready; false when the run is abandoned (the abandon flag set, or
 * what poll reports in `seen` unchanged for the watchdog interval: it then sets the flag).
 * The first poll is made by the caller's poll before any timer is read.
 *
 * A wait on the wavefront's critical path is usually short and each poll is already an L2 round
 * trip, so the first spin_polls polls do not sleep (a __nanosleep back-off from the first poll
 * cost ~1 us a hand-off: bench/handoff.cu, H200); after them a back-off up to ~1 us keeps long
 * waits, such as a tile-row's first one while the pipeline fills, off the memory system.  The
 * abandon flag and the watchdog are looked at every 16th poll while spinning. */
template <class Poll>
__device__ __forceinline__ bool pw_poll(const pw_engine_args &a, Poll poll)
{
    pw_counter seen = 0;
    if (poll(&seen)) return true;
    pw_counter checked = seen; /* what the watchdog saw last */
    long long since = pw_globaltimer();
    unsigned ns = 32;
    for (unsigned polls = 1;; polls++) {
        const bool sleeping = polls > a.spin_polls;
        if (sleeping) {
            __nanosleep(ns);
            if (ns < 1024) ns *= 2;
        }
        if (poll(&seen)) return true;
        if (!sleeping && polls % 16 != 0) continue;
        if (*(volatile int *)a.error) return false;
        if (seen != checked) {
            checked = seen;
            since = pw_globaltimer();
        } else if (pw_globaltimer() - since > a.watchdog_ns) {
            atomicExch(a.error, PW_CUDA_ERROR_TIMEOUT);
            return false;
        }
    }
}

/* Thread 0 of a block: wait until progress[r] >= need.  false when the run is abandoned.
 * *latest (if given) receives the value seen, which may pass `need`.  The polls are acquire
 * loads: relaxed polls with one acquire fence after the last were tried (an acquire load also
 * invalidates the SM's L1, CCTL.IVALL, on every poll) and were no faster on SW/DTW, and one
 * hand-off took 1.23 us against 0.97 (bench/handoff.cu, H200; the fence is a MEMBAR.ALL.GPU). */
__device__ __forceinline__ bool pw_wait_progress(const pw_engine_args &a, int64_t r, pw_counter need,
                                                 pw_counter *latest = NULL)
{
    cuda::atomic_ref<pw_counter, cuda::thread_scope_device> p(a.progress[r]);
    pw_counter now = 0;
    const bool ok = pw_poll(a, [&](pw_counter *seen) {
        now = *seen = p.load(cuda::memory_order_acquire);
        return now >= need;
    });
    if (ok && latest) *latest = now;
    return ok;
}

/* ---- processors that wait and publish inside their tiles (peer schedule) -------------------
 * A processor declaring `static constexpr bool waits_in_tile = true` gets run_tile(t, r, c, smem,
 * sync) from the peer schedule with no wait before the tile and no publish after it: it calls
 * pw_row_wait_steps before it reads what a step range needs and pw_row_publish as its steps are
 * stored, so the tile-row below can follow a few steps behind instead of a whole tile (tiling.h,
 * the step forms).  The barrier and launch schedules pass sync.a == NULL: nothing to wait for. */
struct pw_row_sync {
    const pw_engine_args *a; /* NULL: the schedule already ordered the tile */
    int64_t q, sweep, r;     /* counter index, sweep, tile-row */
};

/* Thread 0's latest values of the counters it waits on (above; previous sweep same, below): a
 * wait they already satisfy costs no load.  They were read with acquire, so what they promise
 * is visible. */
struct pw_row_seen {
    pw_counter above = 0, same = 0, below = 0;
};

__device__ __forceinline__ bool pw_wait_cached(const pw_engine_args &a, int64_t r, pw_counter need, pw_counter *seen)
{
    return *seen >= need || pw_wait_progress(a, r, need, seen);
}

/* Thread 0: wait until steps up to `last` of the tile-row may run: the row above in this sweep
 * (unless `above` is false: a processor that hands that row over by other means), and for a
 * later sweep the previous sweep's rows r and r + 1 far enough on (tiling.h, the step forms and
 * "several in-place sweeps").  false: the run is abandoned. */
__device__ __forceinline__ bool pw_row_wait_steps(const pw_row_sync &s, pw_row_seen *seen, int64_t last, bool above = true)
{
    if (!s.a) return true;
    const pw_engine_args &a = *s.a;
    const pw_tiling &t = a.t;
    if (above && s.r > 0 && !pw_wait_cached(a, s.q - 1, (pw_counter)pw_tiling_need_at(&t, s.r, last), &seen->above)) return false;
    if (s.sweep == 0) return true;
    if (!pw_wait_cached(a, s.q - t.n_rows, (pw_counter)pw_tiling_need_prev_same_at(&t, s.r, last), &seen->same)) return false;
    if (s.r + 1 < t.n_rows) {
        int64_t below = pw_tiling_need_prev_below_at(&t, s.r, last);
        if (below > 0 && !pw_wait_cached(a, s.q - t.n_rows + 1, (pw_counter)below, &seen->below)) return false;
    }
    return true;
}

/* Thread 0: wait until tile c of tile-row r may run in sweep `sweep` (counter q = sweep * n_rows
 * + r): the step-form wait at the tile's last step, which is the tile rule of tiling.h
 * (test_tiling checks the two agree). */
__device__ __forceinline__ bool pw_wait_tile(const pw_engine_args &a, int64_t q, int64_t sweep, int64_t r, int64_t c)
{
    pw_row_seen seen;
    return pw_row_wait_steps(pw_row_sync{&a, q, sweep, r}, &seen, pw_tiling_last_step(&a.t, r, c));
}

__device__ __forceinline__ void pw_publish_progress(const pw_engine_args &a, int64_t r, pw_counter v)
{
    __threadfence();
    cuda::atomic_ref<pw_counter, cuda::thread_scope_device> p(a.progress[r]);
    p.store(v, cuda::memory_order_release);
}

/* Thread 0, after the block's stores of every step < done and a barrier over them.  A release
 * store alone (fence.acq_rel + store): it is cumulative over the writes the barrier ordered
 * before it, which is all the consumer's acquire needs; pw_publish_progress's extra sequentially
 * consistent fence would double the cost of a publish that runs every 32 steps here. */
__device__ __forceinline__ void pw_row_publish(const pw_row_sync &s, int64_t done)
{
    if (!s.a || s.q == s.a->stuck_row) return;
    cuda::atomic_ref<pw_counter, cuda::thread_scope_device> p(s.a->progress[s.q]);
    p.store((pw_counter)done, cuda::memory_order_release);
}

template <class Proc, class = void>
struct pw_waits_in_tile : std::false_type {};
template <class Proc>
struct pw_waits_in_tile<Proc, std::void_t<decltype(Proc::waits_in_tile)>> : std::bool_constant<Proc::waits_in_tile> {};

/* A processor that waits in its tiles and declares `static constexpr bool runs_rows = true` gets
 * the peer schedule's tile-row whole: run_row(t, r, c_first, c_end, smem, sync) runs its tiles
 * as one stream (a pipeline that each tile's end would drain: the HEAT/SOR warp processor keeps
 * chunks in flight) and records each tile in the trace itself as it finishes. */
template <class Proc, class = void>
struct pw_runs_rows : std::false_type {};
template <class Proc>
struct pw_runs_rows<Proc, std::void_t<decltype(Proc::runs_rows)>> : std::bool_constant<Proc::runs_rows> {};

/* x.begin_block() where x has one, nothing where not.  A processor with one gets it called by
 * every thread of a block before the block's first tile, then a barrier: what all its tiles
 * read (SW's score table, in shared memory) is staged once a block, not once a tile. */
template <class X, class = void>
struct pw_has_begin_block : std::false_type {};
template <class X>
struct pw_has_begin_block<X, std::void_t<decltype(std::declval<const X &>().begin_block())>> : std::true_type {};

template <class X>
__device__ __forceinline__ void pw_begin_block(const X &x)
{
    if constexpr (pw_has_begin_block<X>::value) x.begin_block();
}

template <class Proc>
__device__ __forceinline__ void pw_begin_proc_block(const Proc &proc)
{
    if constexpr (pw_has_begin_block<Proc>::value) {
        proc.begin_block();
        __syncthreads();
    }
}

/* The peer grid of a processor of one-warp blocks that declares `static constexpr int
 * peer_warps_per_scheduler` (WarpProc): each SM's four warp schedulers get the same number of
 * warps, at most that many.  A wavefront moves at its slowest row's pace, and a warp sharing
 * its scheduler with one more warp than the others is that row; more warps a scheduler also
 * slow every one of them (H100, bench/occupancy.sh, SW and DTW: with 2048 and 4096 tile-rows
 * 1056 blocks, 2 a scheduler, ran 1.2-2.2x faster than 792, 1320 or the 2112 that fit; with
 * 1024 tile-rows 528 ran 1.2-1.3x faster than all 1024). */
template <class Proc, class = void>
struct pw_peer_warps_per_scheduler : std::integral_constant<int, 0> {};
template <class Proc>
struct pw_peer_warps_per_scheduler<Proc, std::void_t<decltype(Proc::peer_warps_per_scheduler)>>
    : std::integral_constant<int, Proc::peer_warps_per_scheduler> {};

static inline int64_t pw_even_peer_grid(int64_t grid, int64_t sms, int warps_per_scheduler)
{
    if (warps_per_scheduler < 1) return grid;
    const int64_t wave = 4 * sms; /* a warp on every scheduler */
    if (grid > wave * warps_per_scheduler) grid = wave * warps_per_scheduler;
    return grid >= wave ? grid - grid % wave : grid; /* fewer tile-rows than schedulers: all */
}

/* Run tile (r, c) in the barrier or launch schedule (already ordered there). */
template <class Proc>
__device__ __forceinline__ void pw_run_ordered_tile(const Proc &proc, const pw_tiling &t, int64_t r, int64_t c,
                                                    unsigned char *smem)
{
    if constexpr (pw_waits_in_tile<Proc>::value) proc.run_tile(t, r, c, smem, pw_row_sync{NULL, 0, 0, r});
    else proc.run_tile(t, r, c, smem);
}

/* ---- the three schedules -------------------------------------------------------------- */

template <class Proc>
__device__ __forceinline__ void pw_peer_schedule(const Proc &proc, const pw_engine_args &a)
{
    extern __shared__ unsigned char pw_smem[];
    __shared__ long long row;
    __shared__ int abandon;
    const pw_tiling &t = a.t;
    pw_begin_proc_block(proc);
    for (;;) {
        if (threadIdx.x == 0) row = (long long)atomicAdd(a.ticket, 1ULL);
        __syncthreads();
        const int64_t q = row, sweep = q / t.n_rows, r = q - sweep * t.n_rows; /* q: counter index */
        if (sweep >= a.sweeps) return;
        const int64_t first = pw_tiling_first_tile(&t, r), end = pw_tiling_end_tile(&t, r);
        if constexpr (pw_runs_rows<Proc>::value) {
            if (!proc.run_row(t, r, first, end, pw_smem, pw_row_sync{&a, q, sweep, r})) return;
            __syncthreads();
        } else for (int64_t c = first; c < end; c++) {
            if constexpr (pw_waits_in_tile<Proc>::value) { /* waits are inside: a trace shows them as busy */
                const long long start_ns = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
                if (!proc.run_tile(t, r, c, pw_smem, pw_row_sync{&a, q, sweep, r})) return;
                __syncthreads();
                if (threadIdx.x == 0 && a.trace.records) pw_trace_tile(a.trace, q, c, start_ns, start_ns);
            } else {
                long long wait_ns = 0, start_ns = 0; /* thread 0's, when tracing */
                if (threadIdx.x == 0) {
                    if (a.trace.records) wait_ns = pw_globaltimer();
                    abandon = !pw_wait_tile(a, q, sweep, r, c);
                    if (a.trace.records) start_ns = pw_globaltimer();
                }
                __syncthreads();
                if (abandon) return;
                proc.run_tile(t, r, c, pw_smem);
                __syncthreads();
                if (threadIdx.x == 0 && a.trace.records) pw_trace_tile(a.trace, q, c, wait_ns, start_ns);
                if (threadIdx.x == 0 && q != a.stuck_row)
                    pw_publish_progress(a, q, (pw_counter)pw_tiling_done(&t, r, c));
            }
        }
        __syncthreads(); /* everyone has read `row` before thread 0 claims the next */
    }
}

/* Tile (r, c) of diagonal d for candidate k: rows fall from the highest candidate.  Returns
 * 1 = run it, 0 = skip, -1 = no further candidate can lie on the diagonal. */
__device__ __forceinline__ int pw_diagonal_tile(const pw_tiling &t, int64_t d, int64_t k, int64_t *r_out,
                                                int64_t *c_out)
{
    int64_t r_hi = d / (t.lag + 1);
    if (r_hi > t.n_rows - 1) r_hi = t.n_rows - 1;
    int64_t r = r_hi - k;
    if (r < 0) return -1;
    int64_t c = d - r * (t.lag + 1);
    if (c < pw_tiling_first_tile(&t, r)) return 0;
    if (c >= pw_tiling_end_tile(&t, r)) return r < t.n_rows - 1 ? -1 : 0;
    *r_out = r;
    *c_out = c;
    return 1;
}

template <class Proc>
__device__ __forceinline__ void pw_barrier_schedule(const Proc &proc, const pw_engine_args &a, int64_t n_diagonals)
{
    extern __shared__ unsigned char pw_smem[];
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    /* Tracing: a tile's "wait" is everything since this block's previous tile ended (the
     * barriers in between), so busy + wait covers the block's whole run. */
    long long last_end = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
    pw_begin_proc_block(proc);
    for (int64_t d = 0; d < n_diagonals; d++) {
        for (int64_t k = blockIdx.x;; k += gridDim.x) {
            int64_t r, c;
            int what = pw_diagonal_tile(a.t, d, k, &r, &c);
            if (what < 0) break;
            if (what == 1) {
                long long start_ns = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
                pw_run_ordered_tile(proc, a.t, r, c, pw_smem);
                __syncthreads();
                if (threadIdx.x == 0 && a.trace.records) {
                    pw_trace_tile(a.trace, r, c, last_end, start_ns);
                    last_end = pw_globaltimer();
                }
            }
        }
        grid.sync();
    }
}

template <class Proc>
__device__ __forceinline__ void pw_diagonal_schedule(const Proc &proc, const pw_engine_args &a, int64_t d)
{
    extern __shared__ unsigned char pw_smem[];
    int64_t r, c;
    if (pw_diagonal_tile(a.t, d, blockIdx.x, &r, &c) != 1) return; /* the whole block */
    pw_begin_proc_block(proc);
    pw_run_ordered_tile(proc, a.t, r, c, pw_smem);
}

/* The kernels.  A processor that declares bound_threads and bound_blocks (the most threads a
 * block of it has, and blocks per SM to allow for) gets kernels compiled under that register
 * budget (__launch_bounds__); the others are compiled unconstrained.  Both forms run the same
 * schedules above. */
template <class Proc>
__global__ void pw_peer_kernel(Proc proc, pw_engine_args a) { pw_peer_schedule(proc, a); }
template <class Proc>
__global__ void pw_barrier_kernel(Proc proc, pw_engine_args a, int64_t n) { pw_barrier_schedule(proc, a, n); }
template <class Proc>
__global__ void pw_diagonal_kernel(Proc proc, pw_engine_args a, int64_t d) { pw_diagonal_schedule(proc, a, d); }

template <class Proc>
__global__ void __launch_bounds__(Proc::bound_threads, Proc::bound_blocks)
pw_peer_kernel_bounded(Proc proc, pw_engine_args a) { pw_peer_schedule(proc, a); }
template <class Proc>
__global__ void __launch_bounds__(Proc::bound_threads, Proc::bound_blocks)
pw_barrier_kernel_bounded(Proc proc, pw_engine_args a, int64_t n) { pw_barrier_schedule(proc, a, n); }
template <class Proc>
__global__ void __launch_bounds__(Proc::bound_threads, Proc::bound_blocks)
pw_diagonal_kernel_bounded(Proc proc, pw_engine_args a, int64_t d) { pw_diagonal_schedule(proc, a, d); }

template <class Proc, class = void>
struct pw_is_bounded : std::false_type {};
template <class Proc>
struct pw_is_bounded<Proc, std::void_t<decltype(Proc::bound_threads)>> : std::true_type {};

/* The three kernels for Proc. */
template <class Proc>
struct pw_kernels {
    void (*peer)(Proc, pw_engine_args);
    void (*barrier)(Proc, pw_engine_args, int64_t);
    void (*diagonal)(Proc, pw_engine_args, int64_t);
    pw_kernels()
    {
        if constexpr (pw_is_bounded<Proc>::value) {
            peer = pw_peer_kernel_bounded<Proc>, barrier = pw_barrier_kernel_bounded<Proc>;
            diagonal = pw_diagonal_kernel_bounded<Proc>;
        } else {
            peer = pw_peer_kernel<Proc>, barrier = pw_barrier_kernel<Proc>, diagonal = pw_diagonal_kernel<Proc>;
        }
    }
};

/* ---- host side ----------------------------------------------------------------------- */

/* A measuring switch of the processors that publish inside their tiles: publish every N chunks
 * (environment variable `name`; unset, empty, negative or garbage: 1; 0: at tile ends only). */
/* A measuring switch's count: unset, empty, negative or not a number gives the default. */
static inline int pw_env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v && atoi(v) >= 0 ? atoi(v) : fallback;
}

/* *plan with its tiles re-cut to width w (same rows, skew, shape and height), for a processor
 * that waits inside its tiles or works in whole chunks of steps, where the width is its own
 * business; info then reports the width used. */
static inline pw_status pw_plan_rewidth(const pw_plan *plan, int64_t w, pw_plan *out)
{
    const pw_tiling *t = &plan->tiling;
    *out = *plan;
    return pw_tiling_init(&out->tiling, t->rows, t->cols, t->skew, t->shape, t->h, w);
}

/* Candidate rows of diagonal d (an upper bound on the tiles it holds): rows r_hi down to the
 * first row whose c passes the widest row's last tile. */
static inline int64_t pw_diagonal_candidates(const pw_tiling *t, int64_t d, int64_t max_end_tile)
{
    int64_t r_hi = d / (t->lag + 1);
    if (r_hi > t->n_rows - 1) r_hi = t->n_rows - 1;
    int64_t r_lo = (d - max_end_tile + 1 + t->lag) / (t->lag + 1);
    if (d - max_end_tile + 1 <= 0) r_lo = 0;
    return r_hi - r_lo + 1;
}

/* Run `sweeps` sweeps of the plan with processor proc (smem bytes of dynamic shared memory per
 * block): in one launch, pipelined, on the peer strategy (in-place stencils, skew 0: tiling.h);
 * the other strategies take sweeps == 1.  Adds kernel time (CUDA events) to info->seconds and
 * fills the other info fields. */
template <class Proc>
static pw_status pw_cuda_run_sweeps(const pw_plan *plan, const Proc &proc, size_t smem, int64_t sweeps,
                                    pw_run_info *info)
{
    const pw_tiling *t = &plan->tiling;
    int threads = Proc::block_threads(t->h); /* the glue checked that h suits the processor */
    pw_status st = PW_OK;
    pw_counter *progress = NULL, *ticket = NULL;
    int *error = NULL, host_error = 0, sms = 0, per_sm = 0;
    int64_t grid = 0, available = 0;
    float ms = 0;
    cudaEvent_t start = NULL, stop = NULL;
    pw_engine_args a;
    cudaStream_t stream = pw_plan_stream(plan);
    /* The one-launch-per-diagonal baseline has no persistent blocks to draw lanes for. */
    const bool traced = plan->trace && plan->strategy != PW_STRATEGY_LAUNCH;
    const pw_kernels<Proc> k;
    const int64_t counters = t->n_rows * sweeps;
    if (sweeps < 1 || (sweeps > 1 && (plan->strategy != PW_STRATEGY_PEER || t->skew != 0))) return PW_ERR_UNSUPPORTED;
    a.trace.records = NULL;
    a.trace.count = NULL;
    if (traced) {
        st = pw_trace_open(plan, sweeps, &a.trace, stream);
        if (st != PW_OK) goto done;
    }
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&progress, sizeof(pw_counter) * (size_t)counters, stream), done);
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&ticket, sizeof(pw_counter), stream), done);
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&error, sizeof(int), stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(progress, 0, sizeof(pw_counter) * (size_t)counters, stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(ticket, 0, sizeof(pw_counter), stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(error, 0, sizeof(int), stream), done);
    PW_CUDA_TRY(st, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, plan->device), done);
    PW_CUDA_TRY(st, cudaEventCreate(&start), done);
    PW_CUDA_TRY(st, cudaEventCreate(&stop), done);
    a.t = *t;
    a.progress = progress;
    a.ticket = ticket;
    a.error = error;
    a.watchdog_ns = plan->watchdog_ns ? plan->watchdog_ns : PW_CUDA_WATCHDOG_NS;
    a.stuck_row = plan->stuck_row;
    a.sweeps = sweeps;
    a.spin_polls = (unsigned)pw_env_int("PEERWAVE_SPIN_POLLS", PW_SPIN_POLLS);

    if (smem > 48 * 1024) { /* dynamic shared memory past 48 KB is opt-in, per kernel */
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.peer, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.barrier, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.diagonal, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
    }
    if (plan->strategy == PW_STRATEGY_PEER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.peer, threads, smem), done);
        grid = available = (int64_t)per_sm * sms;
        if (grid > counters) grid = counters;
        grid = pw_even_peer_grid(grid, sms, pw_peer_warps_per_scheduler<Proc>::value);
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; } /* block does not fit on an SM */
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        k.peer<<<(unsigned)grid, threads, smem, stream>>>(proc, a);
        PW_CUDA_TRY(st, cudaGetLastError(), done);
    } else if (plan->strategy == PW_STRATEGY_GLOBAL_BARRIER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.barrier, threads, smem), done);
        grid = available = (int64_t)per_sm * sms; /* cooperative launch: at most co-resident capacity */
        if (grid > t->n_rows) grid = t->n_rows;
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; }
        {
            int64_t n_diag = pw_tiling_diagonal_count(t);
            Proc p = proc;
            void *args[] = {&p, &a, &n_diag};
            PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
            PW_CUDA_TRY(st, cudaLaunchCooperativeKernel((const void *)k.barrier, dim3((unsigned)grid),
                                                        dim3(threads), args, smem, stream), done);
        }
    } else if (plan->strategy == PW_STRATEGY_LAUNCH) {
        int64_t n_diag = pw_tiling_diagonal_count(t), max_end = 0;
        for (int64_t r = t->n_rows > 2 ? t->n_rows - 2 : 0; r < t->n_rows; r++)
            if (pw_tiling_end_tile(t, r) > max_end) max_end = pw_tiling_end_tile(t, r);
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        for (int64_t d = 0; d < n_diag; d++) {
            int64_t blocks = pw_diagonal_candidates(t, d, max_end);
            if (blocks < 1) continue; /* e.g. lag > 0 and one tile per row: some diagonals are empty */
            if (blocks > grid) grid = blocks;
            k.diagonal<<<(unsigned)blocks, threads, smem, stream>>>(proc, a, d);
        }
        PW_CUDA_TRY(st, cudaGetLastError(), done);
    } else {
        st = PW_ERR_UNSUPPORTED;
        goto done;
    }
    PW_CUDA_TRY(st, cudaEventRecord(stop, stream), done);
    PW_CUDA_TRY(st, cudaEventSynchronize(stop), done);
    PW_CUDA_TRY(st, cudaGetLastError(), done);
    PW_CUDA_TRY(st, cudaEventElapsedTime(&ms, start, stop), done);
    PW_CUDA_TRY(st, cudaMemcpyAsync(&host_error, error, sizeof(int), cudaMemcpyDeviceToHost, stream), done);
    PW_CUDA_TRY(st, cudaStreamSynchronize(stream), done);
    if (host_error) st = PW_ERR_TIMEOUT;
    if (info) {
        info->backend = PW_BACKEND_CUDA;
        info->strategy = plan->strategy;
        info->shape = t->shape;
        info->tile_h = (int)t->h;
        info->tile_w = t->w;
        info->threads = (int)grid;
        info->threads_available = (int)(available ? available : grid);
        info->skew = t->skew;
        info->cells += t->rows * t->cols * sweeps;
        info->seconds += ms / 1e3;
    }
done:
    if (traced) {
        pw_status tst = pw_trace_close(plan, &a.trace, stream, st == PW_OK);
        if (st == PW_OK) st = tst;
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    pw_cuda_free(progress, stream);
    pw_cuda_free(ticket, stream);
    pw_cuda_free(error, stream);
    return st;
}

template <class Proc>
static pw_status pw_cuda_run(const pw_plan *plan, const Proc &proc, size_t smem, pw_run_info *info)
{
    return pw_cuda_run_sweeps(plan, proc, smem, 1, info);
}

#endif
