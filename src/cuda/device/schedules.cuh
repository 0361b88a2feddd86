/*
 * schedules.cuh - the four schedules and their kernels, all driving the same tile processor:
 *   peer:     persistent blocks claim tile-rows from a ticket and sync through counters or edge
 *             words (sync.cuh, handover.cuh); its band form (pw_band_kernel) also waits for and
 *             reports the edge columns of a band of a larger run (another GPU or rank);
 *   barrier:  a cooperative launch, one tile diagonal at a time (of each of the pipelined sweeps),
 *             a grid barrier between them;
 *   diagonal: one launch per tile diagonal (the host loops);
 *   tasks:    a tile is a task of the GPU task engine (task_queue.cuh): persistent blocks take
 *             any ready tile from per-SM queues (or one queue), the graph is core/tile_graph.h.
 *
 * A tile processor computes tile c of tile-row r; the schedule owns which block runs it and
 * when.  What a schedule needs to know about a processor is in its policy (no detection of
 * members: a processor says what it is):
 *   syncs_in_tile  its run_tile(t, r, c, smem, sync) waits and publishes inside the tile and
 *                  returns false when the run is abandoned; otherwise run_tile(t, r, c, smem)
 *                  runs a tile the schedule has already waited for, and the schedule publishes;
 *   runs_rows      (with syncs_in_tile) run_row(t, r, c_first, c_end, smem, sync) takes the
 *                  peer schedule's tile-row whole (a pipeline that each tile's end would drain)
 *                  and records each tile in the trace itself;
 *   stages_block   begin_block() stages what all its tiles read (SW's score table) once a block;
 *   bound_threads, bound_blocks  compile its kernels under __launch_bounds__ (0: unbounded);
 *   per_sweep      (without syncs_in_tile) run_tile_sweep(t, r, c, smem, sweep) is told which
 *                  sweep of the run the tile belongs to (a 3-D cell's plane: user_cell.cuh);
 *   band_edges     (with runs_rows) in a band of a larger run, run_row itself waits for the right
 *                  neighbour's column just before the chunk that reads it and reports (pushes)
 *                  the band's first column once the last lane has passed it, as the CPU's peer
 *                  engine does per tile; the schedule waits only for the left column before the
 *                  tile-row and reports only the last one after it;
 *   face_tiles     (with runs_rows) its tickets are tiles of a 3-D face (core/work.h), not
 *                  tile-rows: in a band the schedule neither waits nor reports, run_row trades
 *                  both edges (Warp3Proc).
 * How many threads and how much shared memory a block needs is host data (kernel_desc.h).
 *
 * This header and everything it includes compile under NVRTC (no include path, no C library),
 * so a kernel compiled at run time is these very schedules.
 */
#ifndef PW_DEVICE_SCHEDULES_CUH
#define PW_DEVICE_SCHEDULES_CUH

#include "sync.cuh"
#include "task_queue.cuh"
#include "trace_device.cuh"

struct pw_proc_policy {
    bool syncs_in_tile, runs_rows, stages_block;
    int bound_threads, bound_blocks; /* 0: no __launch_bounds__ */
    bool per_sweep;                  /* last, so that the others' five-value policies stay as written */
    bool band_edges;
    /* Its tickets are tiles of a 3-D face (core/work.h), not tile-rows: in a band the schedule
     * neither waits for nor reports edge rows (the processor trades both edges itself). */
    bool face_tiles;
    /* With several sweeps a launch its peer-schedule waits look at every row of the previous
     * sweep that a later sweep's reads reach (pw_wait_tile: rows r + 2 .. r + M of
     * pw_tiling_sweep_rows_below), not only the next tile-row.  Only FullProc<App, true>, a user
     * grid cell's kernel where M > 1: the loop, even never run, cost the built-in FullProc
     * kernels 1.7-1.9% (kernel_desc.h's deep_sweep_reads; launch.cu refuses M > 1 without it). */
    bool deep_sweep_reads;
};

/* A tile the schedule has waited for, of sweep `sweep` of the whole run (a.sweep_base onwards). */
template <class Proc>
__device__ __forceinline__ void pw_run_plain_tile(const Proc &proc, const pw_tiling &t, int64_t r, int64_t c,
                                                  unsigned char *smem, int64_t sweep)
{
    if constexpr (Proc::policy.per_sweep) proc.run_tile_sweep(t, r, c, smem, sweep);
    else proc.run_tile(t, r, c, smem);
}

template <class Proc>
__device__ __forceinline__ void pw_begin_proc_block(const Proc &proc)
{
    if constexpr (Proc::policy.stages_block) {
        proc.begin_block();
        __syncthreads();
    }
}

/* Run tile (r, c) of the launch's sweep `sweep` in an ordered schedule (barrier, launch, tasks:
 * the schedule has ordered it; only the barrier runs more than one sweep a launch). */
template <class Proc>
__device__ __forceinline__ void pw_run_ordered_tile(const Proc &proc, const pw_engine_args &a, int64_t r, int64_t c,
                                                    unsigned char *smem, int64_t sweep = 0)
{
    if constexpr (Proc::policy.syncs_in_tile) proc.run_tile(a.t, r, c, smem, pw_row_sync{NULL, 0, sweep, r, false});
    else pw_run_plain_tile(proc, a.t, r, c, smem, a.sweep_base + sweep);
}

/* A band of a larger run (sync.cuh, pw_device_band): thread 0 waits until the left neighbour's
 * column holds the tile-row's rows of its sweep (system scope: the neighbour may be another GPU).
 * false: abandoned. */
__device__ __forceinline__ bool pw_band_wait_left(const pw_engine_args &a, int64_t sweep, int64_t rows_end)
{
    const pw_counter *word = a.band.left_ready + a.sweep_base + sweep;
    return pw_poll(a, [&](pw_counter *seen) { return (*seen = pw_load_acquire_sys(word)) >= (pw_counter)rows_end; });
}

/* ... and until the right neighbour's column holds what the sweep reads there: the sweep
 * before's values (sweep 0 reads the initial ones, there from the start). */
__device__ __forceinline__ bool pw_band_wait_right(const pw_engine_args &a, int64_t sweep, int64_t rows_end)
{
    if (a.sweep_base + sweep == 0) return true;
    const pw_counter *word = a.band.right_ready + a.sweep_base + sweep - 1;
    const int64_t below = rows_end + a.band.right_below, need = below < a.band.rows ? below : a.band.rows;
    return pw_poll(a, [&](pw_counter *seen) { return (*seen = pw_load_acquire_sys(word)) >= (pw_counter)need; });
}

/* Rows [i0, i1) of the band's edge column into the neighbour's storage, the copy shared by
 * `count` threads (this one is `me`, count <= 1024).  The copy's words are numbered in 32 bits,
 * in passes of at most 2^31 words (one pass in practice: a tile-row's rows times the planes):
 * with 64-bit numbers, their divisions inlined in the band kernels made the prefix-sum ones spill
 * (SAT f32 184 -> 24 bytes, INTHIST u8 212 -> 32, SAT u8 64 -> 0, at their 128-register bound)
 * and took registers from the others. */
__device__ __forceinline__ void pw_band_copy_rows(const pw_device_band &b, const pw_band_push &p, int64_t i0, int64_t i1,
                                                  int me, int count)
{
    /* an element is elem_bytes / 4 words of 4 bytes (SW's affine cell is 12 bytes: H, E, F); a
     * push is set up only for a multiple of 4 bytes (gpu_band.cuh, pw_gpu_band_direct_ok) and
     * planes >= 1, so a row has a word at least */
    const uint32_t words = (uint32_t)b.elem_bytes / 4, row_words = (uint32_t)b.planes * words;
    const int64_t pass_rows = 0x7fffffffu / row_words;
    for (int64_t r0 = i0; r0 < i1; r0 += pass_rows) {
        const uint32_t n = (uint32_t)(i1 - r0 < pass_rows ? i1 - r0 : pass_rows), total = n * row_words;
        for (uint32_t k = (uint32_t)me; k < total; k += (uint32_t)count) {
            const uint32_t kw = k / words, w = k - kw * words, plane = kw / n;
            const int64_t i = r0 + (kw - plane * n);
            const unsigned v = ((const unsigned *)(p.src.at[0] + i * p.src.row_bytes + plane * p.src.plane_bytes))[w];
            for (int t = 0; t < 2; t++) {
                const int64_t row = i + p.dst.shift[t];
                if (!p.dst.at[t] || row >= b.rows) continue;
                ((unsigned *)(p.dst.at[t] + row * p.dst.row_bytes + plane * p.dst.plane_bytes))[w] = v;
            }
        }
    }
}

/* After the copy (its stores ordered before by a barrier), one thread: the neighbour's word for
 * the sweep, behind a system-wide fence (the stores before the word, on whichever GPU they land).
 * One writer at a time (the pushes are in order), so a release store, not an atomic: peers over
 * PCIe may have no native atomics. */
__device__ __forceinline__ void pw_band_pushed(const pw_band_push &p, int64_t sweep, int64_t i1)
{
    __threadfence_system();
    pw_store_release_sys(p.ready + sweep, (pw_counter)i1);
    pw_store_release(p.pushed + sweep, (pw_counter)i1);
}

/* Every thread of the block, after a tile-row: rows [i0, i1) of the band's edge column into the
 * neighbour's storage, then (thread 0) the neighbour's word for the sweep. */
__device__ __forceinline__ void pw_band_push_rows(const pw_engine_args &a, const pw_band_push &p, int64_t sweep,
                                                  int64_t i0, int64_t i1)
{
    __shared__ int abandoned;
    if (threadIdx.x == 0) /* the tile-rows above pushed first (their words must not claim rows not there) */
        abandoned = !pw_poll(a, [&](pw_counter *seen) { return (*seen = pw_load_acquire(p.pushed + sweep)) >= (pw_counter)i0; });
    __syncthreads();
    const int gave_up = abandoned;
    __syncthreads(); /* (everyone has read it before a second push's thread 0 writes it again) */
    if (gave_up) return; /* (the run is given up: nothing waits for the rows any more) */
    pw_band_copy_rows(a.band, p, i0, i1, (int)threadIdx.x, (int)blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0) pw_band_pushed(p, sweep, i1);
}

/* The same from one warp (a processor's stores warp: band_edges), every lane in step. */
__device__ __forceinline__ void pw_band_push_rows_warp(const pw_engine_args &a, const pw_band_push &p, int64_t sweep,
                                                       int64_t i0, int64_t i1)
{
    const int lane = (int)(threadIdx.x & 31);
    int ok = 1;
    if (lane == 0) ok = pw_poll(a, [&](pw_counter *seen) { return (*seen = pw_load_acquire(p.pushed + sweep)) >= (pw_counter)i0; });
    if (!__shfl_sync(0xffffffffu, ok, 0)) return;
    pw_band_copy_rows(a.band, p, i0, i1, lane, 32);
    __syncwarp();
    if (lane == 0) pw_band_pushed(p, sweep, i1);
}

/* One warp (band_edges), once the band's first column holds rows [i0, rows_end) of the launch's
 * sweep `sweep` in the grid, its stores by this warp: pushed to the left neighbour where the
 * hand-over is direct, else said to the host. */
__device__ __forceinline__ void pw_band_report_first_warp(const pw_engine_args &a, int64_t sweep, int64_t i0, int64_t rows_end)
{
    const int64_t s = a.sweep_base + sweep;
    __syncwarp(); /* the warp's stores of the column before what follows */
    if (a.band.push_first.ready) {
        pw_band_push_rows_warp(a, a.band.push_first, s, i0, rows_end);
    } else if (a.band.first_done && (threadIdx.x & 31) == 0) {
        __threadfence();
        atomicMax(a.band.first_done + s, (pw_counter)rows_end);
    }
}

/* Every thread of the block, once the tile holding the band's first column for the tile-row's last
 * lane is done (its stores behind a __syncthreads): that column's rows [i0, rows_end), pushed to
 * the left neighbour where the hand-over is direct, else said to the host -- without waiting for
 * the rest of the tile-row (pw_band_first_tile). */
__device__ __forceinline__ void pw_band_report_first(const pw_engine_args &a, int64_t sweep, int64_t i0, int64_t rows_end)
{
    const int64_t s = a.sweep_base + sweep;
    if (a.band.push_first.ready) {
        pw_band_push_rows(a, a.band.push_first, s, i0, rows_end);
    } else if (a.band.first_done && threadIdx.x == 0) {
        __threadfence();
        atomicMax(a.band.first_done + s, (pw_counter)rows_end);
    }
}

/* The tile of tile-row r after which the band's first column (skewed column 0: in-place sweeps
 * have skew 0) holds the tile-row's rows: hyper tiles reach it at step `lanes - 1` (lane k at step
 * k), square tiles in their first; a first edge of first_cols columns (a user grid cell's reach)
 * is done first_cols - 1 steps or columns later; -1 when the tile-row reports it at its end (a band's left
 * neighbour reads that column in its next sweep: reporting it early lets that sweep start a
 * tile-row's crossing sooner -- a generic processor's band, 2 H200s at 0dbbe91, ran a grid cell's
 * 8 sweeps at 0.89x one GPU when every tile-row reported at its end).  Safe as early as this: the
 * left neighbour has finished this sweep's tile-row r (this one waited for it: left_ready), the
 * last that reads the column's old values of these rows. */
__device__ __forceinline__ int64_t pw_band_first_tile(const pw_engine_args &a, const pw_tiling &t, int64_t r)
{
    if ((!a.band.first_done && !a.band.push_first.ready) || t.skew != 0) return -1;
    const int64_t last = (a.band.first_cols > 1 ? a.band.first_cols : 1) - 1; /* the edge's last column */
    const int64_t c = t.shape == PW_TILING_HYPER ? (pw_tiling_lanes(&t, r) - 1 + last) / t.w : last / t.w;
    const int64_t end = pw_tiling_end_tile(&t, r);
    return c < end ? c : end - 1;
}

/* After a tile-row (its stores behind a __syncthreads): its rows of the last (and first) column
 * are final -- pushed to the neighbours where the hand-over is direct, and said to the host. */
__device__ __forceinline__ void pw_band_report(const pw_engine_args &a, int64_t sweep, int64_t i0, int64_t rows_end,
                                               bool first = true) /* (false: the processor reported it: band_edges) */
{
    const int64_t s = a.sweep_base + sweep;
    if (a.band.push_last.ready) pw_band_push_rows(a, a.band.push_last, s, i0, rows_end);
    if (first && a.band.push_first.ready) pw_band_push_rows(a, a.band.push_first, s, i0, rows_end);
    const bool first_word = first && a.band.first_done;
    if (threadIdx.x != 0 || (!a.band.last_done && !first_word)) return;
    __threadfence(); /* the block's stores (ordered by the barrier) before the words the host reads */
    if (a.band.last_done) atomicMax(a.band.last_done + s, (pw_counter)rows_end);
    if (first_word) atomicMax(a.band.first_done + s, (pw_counter)rows_end);
}

/* The dynamic shared memory's base, taken once where the peer, barrier and tasks schedules start
 * (a block of theirs runs many tiles or a whole tile-row).  LLVM takes `pw_smem`'s
 * address afresh in every basic block that uses it, and ptxas, for sm_90, builds the shared
 * window's base again for each (S2UR SR_CgaCtaId; UMOV; ULEA): in the HEAT/SOR stencil warps
 * that came every chunk, after each warp's named barrier, with the thread index read again
 * beside it (SOR 16384^2 PW+HT 1.04x dcad950's time on an H200, PERFORMANCE.md sessions 26-27).
 * An offset that LLVM cannot see is zero (a plain, non-volatile asm: free to be hoisted and
 * merged) makes the base one value, held from the start.  (Laundering the pointer itself
 * through an asm, or its shared-window address through cvta, cost 8 registers and 1.2x.)  It
 * rests on what ptxas does with the zero today (it keeps it a value): a later ptxas that folds it
 * brings the per-chunk base back, which counting S2UR in the kernel's text shows
 * (PERFORMANCE.md session 27). */
__device__ __forceinline__ unsigned char *pw_dynamic_smem()
{
    extern __shared__ unsigned char pw_smem[];
    unsigned zero;
    asm("mov.u32 %0, 0;" : "=r"(zero));
    return pw_smem + zero;
}

/* The peer schedule.  Banded: the run may be a band of a larger one (a.band set), so the
 * schedule waits for the neighbours' columns and reports its own; a plain run's kernel has none
 * of that code (Banded false), since the band's waits, pushes and early reports, inlined, held
 * values across the tile loop that made the prefix-sum kernels at their 128-register bound spill
 * (INTHIST u8: 0 bytes at c5cf2b8, 308 with the bands; 1.37x slower on an H200 at 16384^2). */
template <class Proc, bool Banded>
__device__ __forceinline__ void pw_peer_schedule(const Proc &proc, const pw_engine_args &a)
{
    unsigned char *const smem = pw_dynamic_smem();
    __shared__ long long row;
    __shared__ int abandon;
    const pw_tiling &t = a.t;
    const int64_t tickets = pw_work_tickets(&a.work);
    __shared__ pw_block_monitor mon; /* thread 0's (monitor_device.cuh: why not registers) */
    if (threadIdx.x == 0) mon = pw_block_monitor{0, 0};
    pw_begin_proc_block(proc);
    for (;;) {
        if (threadIdx.x == 0) {
            row = (long long)atomicAdd(a.ticket, 1ULL);
            /* watched runs can be cancelled: a block between tile-rows need not wait to learn it */
            if (a.monitor.words && *(volatile int *)a.error) row = tickets;
        }
        __syncthreads();
        const int64_t q = row; /* the ticket, and its counter's index */
        if (q >= tickets) {
            if (threadIdx.x == 0) pw_monitor_leave(a.monitor, mon);
            return;
        }
        const pw_ticket k = pw_work_decode(&a.work, q);
        const int64_t sweep = k.sweep, r = k.row;
        const pw_row_sync sync{&a, q, sweep, r, Banded};
        const int64_t first = pw_tiling_first_tile(&t, r), end = pw_tiling_end_tile(&t, r);
        const int64_t rows_end = r * t.h + pw_tiling_lanes(&t, r);
        if (Banded && !Proc::policy.face_tiles && (a.band.left_ready || a.band.right_ready)) { /* a band: the neighbours' columns first (the tile-row reads them) */
            if (threadIdx.x == 0)
                abandon = (a.band.left_ready && !pw_band_wait_left(a, sweep, rows_end)) ||
                          (!Proc::policy.band_edges && a.band.right_ready && !pw_band_wait_right(a, sweep, rows_end));
            __syncthreads();
            if (abandon) return;
        }
        /* (the first column reported after its tile, not at the tile-row's end: processors that
         * report it themselves, band_edges, and those that run whole rows excepted) */
        const int64_t first_col_tile = !Banded || Proc::policy.band_edges || Proc::policy.runs_rows ? -1 : pw_band_first_tile(a, t, r);
        if constexpr (Proc::policy.runs_rows) {
            /* (the row's tile count waits in shared memory: held in registers across the row,
             * `first` and `end` took the stencil processor from dcad950's 56 registers to 64.
             * Not the cause of SOR's 1.04x against dcad950 though: at 56 it stayed 1.04x; the
             * shared base made again every chunk was, pw_dynamic_smem) */
            if (threadIdx.x == 0) mon.row_tiles = end - first;
            if (!proc.run_row(t, r, first, end, smem, sync)) return;
            __syncthreads();
            if (threadIdx.x == 0) pw_monitor_tiles(a.monitor, mon, mon.row_tiles);
        } else for (int64_t c = first; c < end; c++) {
            if constexpr (Proc::policy.syncs_in_tile) { /* waits are inside: a trace shows them as busy */
                const long long start_ns = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
                if (!proc.run_tile(t, r, c, smem, sync)) return;
                __syncthreads();
                if (Banded && c == first_col_tile) pw_band_report_first(a, sweep, r * t.h, rows_end);
                if (threadIdx.x == 0 && a.trace.records) pw_trace_tile(a.trace, q, c, start_ns, start_ns);
                if (threadIdx.x == 0) pw_monitor_tiles(a.monitor, mon, 1);
            } else {
                long long wait_ns = 0, start_ns = 0; /* thread 0's, when tracing */
                if (threadIdx.x == 0) {
                    if (a.trace.records) wait_ns = pw_globaltimer();
                    abandon = !pw_wait_tile<Proc::policy.deep_sweep_reads>(a, q, sweep, r, c);
                    if (a.trace.records) start_ns = pw_globaltimer();
                }
                __syncthreads();
                if (abandon) return;
                pw_run_plain_tile(proc, t, r, c, smem, a.sweep_base + sweep);
                __syncthreads();
                /* (before the tile's progress: the tile-row below reports its own first rows
                 * after this one's, which its wait on this progress keeps in order) */
                if (Banded && c == first_col_tile) pw_band_report_first(a, sweep, r * t.h, rows_end);
                if (threadIdx.x == 0 && a.trace.records) pw_trace_tile(a.trace, q, c, wait_ns, start_ns);
                if (threadIdx.x == 0) {
                    pw_tile_publish(sync, pw_tiling_done(&t, r, c));
                    pw_monitor_tiles(a.monitor, mon, 1);
                }
            }
        }
        __syncthreads(); /* everyone has read `row` before thread 0 claims the next */
        if (Banded && !Proc::policy.face_tiles &&
            (a.band.last_done || a.band.first_done || a.band.push_last.ready || a.band.push_first.ready))
            pw_band_report(a, sweep, r * t.h, rows_end, !Proc::policy.band_edges && first_col_tile < 0); /* (every thread: a direct hand-over copies) */
    }
}

/* The highest tile-row with a tile on diagonal d (the barrier schedules' candidate 0). */
__device__ __forceinline__ int64_t pw_diagonal_top_row(const pw_tiling &t, int64_t d)
{
    const int64_t r = d / (t.lag + 1);
    return r < t.n_rows - 1 ? r : t.n_rows - 1;
}

/* Tile (r, c) of diagonal d for candidate k: rows fall from the top row r_hi
 * (pw_diagonal_top_row).  Returns 1 = run it, 0 = skip, -1 = no further candidate can lie on the
 * diagonal.  No division: a barrier step runs it between two grid barriers, on every block's
 * path, where the tiling's first and end tiles cost a 64-bit division each (DTW 65536^2 GS+HT
 * 3.8% slower than dcad950's with one more; ncu, PERFORMANCE.md session 25). */
__device__ __forceinline__ int pw_diagonal_tile(const pw_tiling &t, int64_t d, int64_t r_hi, int64_t k, int64_t *r_out,
                                                int64_t *c_out)
{
    const int64_t r = r_hi - k;
    if (r < 0) return -1;
    const int64_t c = d - r * (t.lag + 1); /* >= 0: r <= d / (lag + 1) */
    /* c >= first_tile = floor(first_step / w) iff first_step < (c + 1) w; c < end_tile =
     * ceil(end_step / w) iff c w < end_step */
    if (pw_tiling_first_step(&t, r) >= (c + 1) * t.w) return 0;
    if (c * t.w >= pw_tiling_end_step(&t, r)) return r < t.n_rows - 1 ? -1 : 0;
    *r_out = r;
    *c_out = c;
    return 1;
}

/* The global barrier: a grid barrier between barrier steps; at step g every sweep s with a
 * diagonal d = g - s L there runs it (L = a.sweep_lag, core/tiling.c's pw_tiling_sweep_lag:
 * every tile of sweep s - 1 that a tile of sweep s waits for lies on an earlier step), so S
 * in-place sweeps take diagonals + (S - 1) L barriers, not S times the diagonals -- the CPU's
 * barrier engine's rule (src/cpu/engine_barrier.c).  A step's candidate tiles, sweep after sweep
 * (the latest first), are dealt to the blocks round-robin as one list. */
template <class Proc>
__device__ __forceinline__ void pw_barrier_schedule(const Proc &proc, const pw_engine_args &a, int64_t n_diagonals)
{
    unsigned char *const smem = pw_dynamic_smem();
    /* Tracing: a tile's "wait" is everything since this block's previous tile ended (the
     * barriers in between), so busy + wait covers the block's whole run. */
    long long last_end = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
    __shared__ pw_block_monitor mon; /* thread 0's */
    if (threadIdx.x == 0) mon = pw_block_monitor{0, 0};
    pw_begin_proc_block(proc);
    const pw_tiling &t = a.t;
    const int64_t sweeps = a.work.sweeps, lag = a.sweep_lag, steps = n_diagonals + (sweeps - 1) * lag;
    const int64_t block = blockIdx.x, blocks = gridDim.x; /* (one sweep: no 64-bit division beyond the diagonal's) */
    for (int64_t g = 0; g < steps; g++) {
        int64_t base = 0; /* the step's candidates before this sweep's */
        for (int64_t sweep = sweeps == 1 ? 0 : g / lag < sweeps - 1 ? g / lag : sweeps - 1; sweep >= 0; sweep--) {
            const int64_t d = g - sweep * lag;
            if (d >= n_diagonals) break; /* (earlier sweeps are further on: past their end too) */
            const int64_t r_hi = pw_diagonal_top_row(t, d), n = r_hi + 1;
            /* this block's candidates k of the list, k = blockIdx.x mod gridDim.x */
            for (int64_t k = base == 0 ? block : base + (block - base % blocks + blocks) % blocks; k < base + n; k += blocks) {
                int64_t r, c;
                const int what = pw_diagonal_tile(t, d, r_hi, k - base, &r, &c);
                if (what < 0) break;
                if (what == 0) continue;
                const long long start_ns = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
                pw_run_ordered_tile(proc, a, r, c, smem, sweep);
                __syncthreads();
                if (threadIdx.x == 0 && a.trace.records) { /* (rows as the peer schedule's tickets: sweep-major) */
                    pw_trace_tile(a.trace, sweep * t.n_rows + r, c, last_end, start_ns);
                    last_end = pw_globaltimer();
                }
                if (threadIdx.x == 0) pw_monitor_tiles(a.monitor, mon, 1);
            }
            base += n;
        }
        if (!pw_grid_barrier(a)) return;
    }
    if (threadIdx.x == 0) pw_monitor_leave(a.monitor, mon);
}

/* (One tile a block and launch: the buffer's symbol as it is, not pw_dynamic_smem -- with it, one
 * of these kernels, SAT f64 -> i32, went from no spill to 132 bytes, and the launch-a-diagonal
 * baseline has no chunks of a tile-row to save the window base in.) */
template <class Proc>
__device__ __forceinline__ void pw_diagonal_schedule(const Proc &proc, const pw_engine_args &a, int64_t d)
{
    extern __shared__ unsigned char pw_smem[];
    int64_t r, c;
    if (pw_diagonal_tile(a.t, d, pw_diagonal_top_row(a.t, d), blockIdx.x, &r, &c) != 1) return; /* the whole block */
    pw_begin_proc_block(proc);
    pw_run_ordered_tile(proc, a, r, c, pw_smem);
}

/* The tasks schedule's tiles (core/tile_graph.h, in device memory): task k is tile k' = k mod
 * per_sweep of sweep k / per_sweep, and tile k' is (tile_row[k'], first tile of that row + k' -
 * row_at[tile_row[k']]).  In-place sweeps run pipelined as one graph, the CPU's (its edges
 * between sweeps, tile_graph.h). */
struct pw_tile_tasks {
    const long long *tile_row, *row_at;
    long long per_sweep;
};

/* A tile as a task: run in the ordered form (the graph has waited for it), traced and counted. */
template <class Proc>
struct pw_tile_task_body {
    const Proc &proc;
    const pw_engine_args &a;
    const pw_tile_tasks &g;
    pw_block_monitor &mon; /* shared */
    long long *last_end;   /* thread 0's, when tracing: the block's previous tile's end */
    __device__ __forceinline__ bool run(const pw_task_state &, int, long long task, bool, unsigned char *smem) const
    {
        const long long sweep = g.per_sweep == 0 || task < g.per_sweep ? 0 : task / g.per_sweep, k = task - sweep * g.per_sweep;
        const int64_t r = g.tile_row[k], c = pw_tiling_first_tile(&a.t, r) + k - g.row_at[r];
        const long long start_ns = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
        pw_run_ordered_tile(proc, a, r, c, smem, sweep);
        __syncthreads();
        if (threadIdx.x == 0 && a.trace.records) { /* "wait": since the block's previous tile (rows sweep-major) */
            pw_trace_tile(a.trace, sweep * a.t.n_rows + r, c, *last_end, start_ns);
            *last_end = pw_globaltimer();
        }
        if (threadIdx.x == 0) pw_monitor_tiles(a.monitor, mon, 1);
        return true;
    }
};

template <class Proc>
__device__ __forceinline__ void pw_tasks_schedule(const Proc &proc, const pw_engine_args &a, const pw_task_state &s,
                                                  const pw_tile_tasks &g)
{
    unsigned char *const smem = pw_dynamic_smem();
    __shared__ pw_block_monitor mon; /* thread 0's */
    long long last_end = a.trace.records && threadIdx.x == 0 ? pw_globaltimer() : 0;
    if (threadIdx.x == 0) mon = pw_block_monitor{0, 0};
    pw_begin_proc_block(proc);
    pw_task_worker(pw_tile_task_body<Proc>{proc, a, g, mon, &last_end}, s, smem);
    if (threadIdx.x == 0) pw_monitor_leave(a.monitor, mon);
}

/* The kernels, unbounded and under the processor's register budget (its policy picks one form:
 * pw_kernels in launch.cuh, or the name a run-time compilation asks for).  A band of a larger run
 * takes the peer schedule's band form, pw_band_kernel. */
template <class Proc>
__global__ void pw_peer_kernel(Proc proc, pw_engine_args a) { pw_peer_schedule<Proc, false>(proc, a); }
template <class Proc>
__global__ void pw_band_kernel(Proc proc, pw_engine_args a) { pw_peer_schedule<Proc, true>(proc, a); }
template <class Proc>
__global__ void pw_barrier_kernel(Proc proc, pw_engine_args a, int64_t n) { pw_barrier_schedule(proc, a, n); }
template <class Proc>
__global__ void pw_diagonal_kernel(Proc proc, pw_engine_args a, int64_t d) { pw_diagonal_schedule(proc, a, d); }

template <class Proc>
__global__ void pw_tasks_kernel(Proc proc, pw_engine_args a, pw_task_state s, pw_tile_tasks g)
{
    pw_tasks_schedule(proc, a, s, g);
}

template <class Proc>
__global__ void __launch_bounds__(Proc::policy.bound_threads, Proc::policy.bound_blocks)
pw_peer_kernel_bounded(Proc proc, pw_engine_args a) { pw_peer_schedule<Proc, false>(proc, a); }
template <class Proc>
__global__ void __launch_bounds__(Proc::policy.bound_threads, Proc::policy.bound_blocks)
pw_band_kernel_bounded(Proc proc, pw_engine_args a) { pw_peer_schedule<Proc, true>(proc, a); }
template <class Proc>
__global__ void __launch_bounds__(Proc::policy.bound_threads, Proc::policy.bound_blocks)
pw_barrier_kernel_bounded(Proc proc, pw_engine_args a, int64_t n) { pw_barrier_schedule(proc, a, n); }
template <class Proc>
__global__ void __launch_bounds__(Proc::policy.bound_threads, Proc::policy.bound_blocks)
pw_diagonal_kernel_bounded(Proc proc, pw_engine_args a, int64_t d) { pw_diagonal_schedule(proc, a, d); }
template <class Proc>
__global__ void __launch_bounds__(Proc::policy.bound_threads, Proc::policy.bound_blocks)
pw_tasks_kernel_bounded(Proc proc, pw_engine_args a, pw_task_state s, pw_tile_tasks g) { pw_tasks_schedule(proc, a, s, g); }

#endif
