/*
 * stencil_warp_proc.cuh - the register/shuffle tile processor for HEAT and SOR on hyper
 * tiles of a row-major grid (skew 0): a block of three warps per tile-row (below), whose steps
 * warp holds R = ceil(h / 32) rows (lanes) per thread, no block barrier per step.
 *
 * Why: a Gauss-Seidel sweep is a wavefront of about rows + cols anti-diagonal steps, so a sweep
 * is as fast as one step is short.  FullProc and the window processor put a block barrier and
 * shared- or global-memory round trips between consecutive steps (measured: 1.8-3.2% of copy
 * bandwidth on the H200).  Here a step is register work plus two shuffles; memory traffic runs
 * beside the steps, asynchronously, in coalesced rows.
 *
 * Lane L = k * R + q (thread k) holds interior row i = r * h + L and computes column x = s - L
 * at step s.  Its operands at step s:
 *   left  = its own value of step s - 1 (prev[q]);
 *   up    = lane L - 1's value of step s - 1 (same column x): prev[q - 1], or thread k - 1's
 *           last lane through __shfl_up_sync, or for thread 0 the row above (new values, from
 *           the tile-row above, staged in shared memory);
 *   self  = the old value at x (SOR), carried from the previous step's right;
 *   right = the old value at x + 1, from this tile's staged copy of the lane's row;
 *   down  = the old value of row i + 1 at x = lane L + 1's right at this step: right[q + 1],
 *           or thread k + 1's right[0] through __shfl_down_sync, or for the last thread the
 *           staged row below the tile-row.
 * The cells are the shared pw_heat_step / pw_sor_step with the same operands as the sequential
 * engine: results are bit-identical.
 *
 * Memory: a tile's steps run in chunks of 32, each in a shared-memory buffer that three warps
 * pass round (BUFFERS of them, named barriers READY, DONE, FREE per buffer):
 *   - the loads warp, once the stores warp has emptied chunk m's buffer (FREE), starts chunk
 *     m's copies (the tile-row's rows, the row below) straight into it with cp.async, one
 *     warp-wide coalesced 128-byte row per instruction (thread t takes column t); then it
 *     finishes chunk m - LOOKAHEAD: waits for its copies, waits for its row above (below) and
 *     says READY.  So LOOKAHEAD chunks' copies are in flight while it waits;
 *   - the steps warp runs chunk n's steps (the values' new values go back into the buffer),
 *     hands the chunk's last row to the row below (the edge words, one store a lane) and says
 *     DONE;
 *   - the stores warp stores the chunk to the grid row by row, coalesced, publishes progress for
 *     the next sweep if there is one, and says FREE.
 * Why three warps: with one warp doing all of it (to 8215477), a chunk's 65 row loads, 65
 * shared stores and 64 row stores took about as long as its 32 steps (ncu source counters), and
 * a sweep's critical path is (rows / h) tile-row lags + one row, both made of chunk times.  The
 * edge goes out from the steps warp as soon as a chunk is done: from the stores warp it waited
 * behind the previous chunk's 64 grid stores (HEAT 16384^2, h = 64, H100: 2.14 against 2.07 ms).
 * Why cp.async: with loads into registers (to f967e93) the loads warp held a chunk's 65 values
 * (168 registers a thread, so pipelined sweeps lost blocks) and could not start chunk m + 1's
 * loads before chunk m's had landed: one memory round trip a chunk, which under a sweep's load
 * made a tile-row 1.5x slower than alone (0.98 against 0.64 ms at 16384^2, h = 64, H100).  A buffer row is 33 values plus one per 32 rows
 * (row_base), so the 32 threads of a step, reading the same position of rows R apart, hit 32
 * different banks.
 *
 * The row above (peer schedule): the tile-row above writes its last row, chunk by chunk as it is
 * computed, to its edge words (handover.cuh: each value in a 64-bit word with the writer's counter
 * index q + 1), and loads-warp thread k loads word sn + k of chunk m with the chunk's rows
 * and loads it again until it carries the tag it expects: no counter, no fence, so a tile-row
 * follows the one above about h + 32 steps behind (a chunk's last column) whatever the tile width.  With counters
 * (a release store after each chunk's grid stores, an acquire before the next chunk's loads, the
 * rows loaded only after the wait) the lag was h + 96 steps plus a fence and a poll round trip:
 * 23 us a tile-row at h = 64 on the H100 where 64 + 32 steps take ~8 us.  One sweep keeps one row
 * of edge words (a tile-row overwrites a word only after it has read it); pipelined sweeps keep
 * a row per tile-row, since tile-row r - 1 of sweep t + 1 waits for row r of sweep t, not for row
 * r + 1, which may not have read one shared row yet.  (Row r of sweep t + 1 overwrites row r's
 * own edge only after row r + 1 of sweep t got past that column: it waits for it.)  The waits on
 * the previous sweep (rows r and r + 1, for the lanes' own rows and the row below) stay on the
 * progress counters, published per chunk.  The ordered schedules read the row above from the
 * grid.
 *
 * Why plain (weak) loads stay correct with no fence: the row below a tile-row holds old values
 * that the next tile-row overwrites, and nothing orders that overwrite after our load but the
 * dependence chain itself -- our load feeds the cell whose edge word the next tile-row waits for
 * before it computes (and stores) that column.  A load reading a store that depends on the load's
 * own value is the self-satisfying cycle the PTX memory model's "no thin air" axiom forbids (the
 * SW bus relies on the same).  Here the chain runs from the loads warp's copy (complete at its
 * cp.async wait) through the buffer and the READY barrier to the steps warp's edge word: still
 * our load's value.
 *
 * Why L1 cannot hand the copies stale values (cp.async of a 4- or 8-byte cell is .ca, it may
 * keep lines in L1): within a sweep no block reads a cell that another block has changed since
 * the launch (the row below is read ahead of the tile-row below, which alone writes it), so a
 * line kept from an earlier chunk is stale only in cells nobody reads again; a later sweep's
 * copies follow the acquire of its waits (wait_chunk), which empties L1.
 */
#ifndef PW_DEVICE_STENCIL_WARP_PROC_CUH
#define PW_DEVICE_STENCIL_WARP_PROC_CUH

#include "handover.cuh"
#include "layouts.cuh"
#include "proc_shapes.h"
#include "schedules.cuh"
#include "tile_steps.cuh"

/* Cell: __device__ F operator()(F self, F up, F left, F down, F right) const. */
template <class F, class Cell, int R>
struct StencilWarpProc {
    F *grid;        /* (rows + 2) x (cols + 2) with its fixed border; interior (i, j) at grid (i + 1, j + 1) */
    pw_row_major lay; /* the grid storage: row-major (layouts.cuh), which its row walks need */
    Cell cell;
    pw_edge<F> edge;    /* peer schedule: the tile-rows' last rows, edge_rows x cols words (NULL: not peer) */
    int64_t edge_rows;  /* 1 (one sweep a launch) or n_rows (pipelined sweeps): see above */

    /* It syncs inside its tiles (pw_row_wait_steps, pw_row_publish; the edge words) and takes the
     * peer schedule's tile-row whole, in one stream of chunks (run_row).  In a band of a larger
     * run it trades the band's edges per chunk (band_edges): the loads warp waits for the right
     * neighbour's column just before the chunk whose copies reach it, and the stores warp
     * reports the first column once the chunk in which the last lane passed it is stored -- at
     * the tile-row's start and end, as the schedule would, each band's next sweep waited about
     * two band crossings a tile-row (docs/DISTRIBUTED.md).  Launch needs (proc_shapes.h): three
     * warps, the buffers. */
    static constexpr pw_proc_policy policy = {true, true, false, 0, 0, false, true};

    /* 16-step chunks (a tile-row's lag h + 16 steps instead of h + 32) ran HEAT 16384^2 at 3.00
     * against 2.02 ms (H100, 204bbcb): a chunk's fixed costs (three barriers, the staging ring's
     * fill, the edge store) came twice as often and a lone tile-row took 0.82 against 0.61 ms.
     * Handing the row above over in parts of a chunk (the loads warp settling 16 or 8 of its 32
     * words at a time, the steps warp waiting for each part and storing its edge per part: a
     * lag of h + 16 or h + 8 steps) was slower too (H100, 4fe9b49 / 7c31e81, HEAT 16384^2
     * 2.02 ms whole, 2.19 / 2.65 ms in 2 / 4 parts with a fenced count in shared memory, 2.39 /
     * 2.99 with a barrier rendezvous a part; a lone tile-row 0.48 against 0.61-0.73 ms): a
     * wait inside the chunk (the ring's refill, the extra edge store, the fence or barrier)
     * costs every chunk, while the steps it saves come off the lag once a tile-row. */
    enum { LANES = 32 * R, CHUNK = PW_STENCIL_WARP_CHUNK, PITCH = PW_STENCIL_WARP_PITCH };
    enum { BELOW = LANES, ABOVE = LANES + 1 }; /* buffer rows after the lanes' own (row `lanes` is below when lanes < LANES) */
    /* A chunk's copies from the grid: buffer rows 0 .. LANES (own rows, the row below).  The row
     * above comes on its own (issue_above, settle_above).  The steps run STEP_PARTS times
     * PART_STEPS steps, unrolled. */
    enum { COPIES = LANES + 1 };
    enum { STEP_PARTS = R > 2 ? R / 2 : 1, PART_STEPS = CHUNK / STEP_PARTS };
    /* The loads warp has chunks m - LOOKAHEAD + 1 .. m on their way while it finishes chunk
     * m - LOOKAHEAD.  (Bringing chunk m + 1 into L2 as well, prefetch.global.L2, made HEAT
     * 16384^2 3% slower: 2.11 against 2.05 ms, H100, d0a6fc2.) */
    enum { LOOKAHEAD = PW_STENCIL_WARP_LOOKAHEAD };
    /* The block's three warps (see the header) and the chunk buffers they pass round: chunk n
     * lives in buffer n % BUFFERS (the steps' chunk, the stores', and LOOKAHEAD in the loads
     * warp's hands); named barriers READY + b (loads -> steps), DONE + b (steps -> stores) and
     * FREE + b (stores -> loads), each between two warps (64 threads); 0 is __syncthreads'. */
    enum { STEPS_WARP = 0, LOADS_WARP = 1, STORES_WARP = 2, BUFFERS = PW_STENCIL_WARP_BUFFERS };
    enum { READY = 1, DONE = READY + BUFFERS, FREE = DONE + BUFFERS };

    __device__ static int lane() { return (int)(threadIdx.x & 31); }
    /* Its shared memory (proc_shapes.h): the buffers, then the first column's values (prev and
     * self of every lane), then a word a buffer saying whether its chunk was abandoned. */
    __device__ static int64_t row_base(int64_t row) { return pw_stencil_warp_row_base(row); }
    __device__ static int64_t buffer_elems() { return pw_stencil_warp_buffer_elems(R); }
    __device__ static size_t seeds_offset() { return pw_stencil_warp_seeds_offset(R, (int)sizeof(F)); }
    __device__ static size_t status_offset() { return pw_stencil_warp_status_offset(R, (int)sizeof(F)); }

    __device__ static void bar_sync(int id) { asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }
    __device__ static void bar_arrive(int id) { asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory"); }

    /* Grid value (grid row gr, grid column gc), or 0 outside the grid's columns. */
    __device__ F grid_at(int64_t gr, int64_t gc, int64_t gcols) const
    {
        return gc >= 0 && gc < gcols ? pw_load_cg(grid + gr * lay.stride + gc) : (F)0;
    }

    /* The copies of one chunk (steps [sn, sn + steps)).  Copy i <= LANES is buffer row i: grid
     * row top + i + 1, position p = interior column sn - i + p (the row above, buffer row ABOVE,
     * has position p = interior column sn + p - 1).  A chunk needs positions
     * 1 .. steps (position 0 is the previous chunk's last, carried in registers); thread k
     * takes position k + 1 of every row: coalesced rows.  The copies are cp.async.ca (see the
     * header for why no L1 line they read can be stale); the first column's seeds and the
     * ordered schedules' row above are ld.cg (grid_at). */
    struct Chunk {
        int64_t sn;
        int steps;
        bool fast; /* every copy inside the grid, all lanes */
    };

    __device__ Chunk chunk_at(int64_t s0, int64_t s1, int64_t m, int64_t lanes, int64_t gcols) const
    {
        Chunk ch;
        ch.sn = s0 + m * CHUNK;
        ch.steps = chunk_steps(s0, s1, m);
        ch.fast = lanes == LANES && ch.steps == CHUNK && ch.sn - LANES + 2 >= 0 && ch.sn + 2 + CHUNK - 1 < gcols;
        return ch;
    }

    /* Rows j of [lo, hi] (clamped to the loop's [0, n)): the valid ones of a checked copy. */
    struct Rows {
        int lo, hi;
    };
    __device__ static Rows rows_between(int64_t lo, int64_t hi, int n)
    {
        return Rows{(int)(lo < 0 ? 0 : lo > n ? n : lo), (int)(hi < -1 ? -1 : hi >= n ? n - 1 : hi)};
    }

    /* Start a chunk's copies into its buffer: walk the rows down-left by pointer, one coalesced
     * cp.async a row; a checked chunk (an end of the row, a short tile-row) copies only cells
     * inside the grid (0 elsewhere) -- the same walk, predicated, since the row's first chunks
     * are on the critical path.  Positions past the chunk's steps are left alone. */
    __device__ void copy_chunk(const Chunk &ch, int64_t top, int64_t lanes, int64_t gcols, F *buf) const
    {
        const int k = lane();
        if (k >= ch.steps) return;
        const F *src = grid + (top + 1) * lay.stride + ch.sn + 2 + k; /* copy j: src + j * (stride - 1) */
        F *dst = buf + k + 1;                                     /* copy j: dst + row_base(j) */
        if (ch.fast) {
#pragma unroll
            for (int j = 0; j < COPIES; j++, src += lay.stride - 1) pw_copy_async(dst + row_base(j), src, true);
            return;
        }
        const int64_t c0 = ch.sn + 2 + k; /* grid column of copy j: c0 - j */
        /* inside: column c0 - j in [0, gcols) and copy j <= lanes */
        const Rows in = rows_between(c0 - gcols + 1, c0 < lanes ? c0 : lanes, COPIES);
#pragma unroll
        for (int j = 0; j < COPIES; j++, src += lay.stride - 1) {
            const bool inside = j >= in.lo && j <= in.hi;
            pw_copy_async(dst + row_base(j), inside ? src : grid, inside);
        }
    }

    /* Store a chunk's new values (positions 0 .. steps - 1 of the lanes' rows), row by row
     * coalesced; a checked chunk stores only cells inside the grid (the same walk, predicated). */
    __device__ void store_chunk(const F *buf, int64_t top, int64_t lanes, int64_t sn, int steps, int64_t cols) const
    {
        const int k = lane();
        F *dst = grid + (top + 1) * lay.stride + 1 + sn + k; /* row L: dst + L * (stride - 1) */
        if (lanes == LANES && steps == CHUNK && sn - LANES + 1 >= 0 && sn + CHUNK - 1 < cols) {
#pragma unroll 1
            for (int g = 0; g < R; g++) {
                const F *src = buf + row_base(32 * g) + k;
#pragma unroll
                for (int j = 0; j < 32; j++, dst += lay.stride - 1) *dst = src[j * PITCH];
            }
            return;
        }
#pragma unroll 1
        for (int g = 0; g < R; g++) {
            const F *src = buf + row_base(32 * g) + k;
            /* row L = 32 g + j, column x0 - j in [0, cols), L < lanes, position k < steps */
            const int64_t x0 = sn + k - 32 * g, last = lanes - 1 - 32 * g;
            const Rows in = k < steps ? rows_between(x0 - cols + 1, x0 < last ? x0 : last, 32) : Rows{0, -1};
#pragma unroll
            for (int j = 0; j < 32; j++, dst += lay.stride - 1)
                if (j >= in.lo && j <= in.hi) *dst = src[j * PITCH];
        }
    }

    /* Thread k's value of the row above for a chunk (position k + 1, interior column sn + k):
     * issue_above starts its load, settle_above waits until it carries the tag of the tile-row
     * above (peer schedule, tile-rows after the first, interior columns: the edge words; the top
     * border, the side borders and the ordered schedules read the grid, ready at once) and puts
     * it in the chunk's buffer.  false: the run is abandoned. */
    __device__ bool above_from_edge(const pw_tiling &t, const Chunk &ch, int64_t r, const pw_row_sync &sync) const
    {
        const int64_t x = ch.sn + lane();
        return pw_edge<F>::through_words(sync, true) && r > 0 && lane() < ch.steps && x >= 0 && x < t.cols;
    }
    __device__ pw_ll<F> *edge_at(const pw_tiling &t, int64_t r, int64_t x) const
    {
        return edge.words + (edge_rows == 1 ? 0 : r) * t.cols + x;
    }
    __device__ pw_ll<F> issue_above(const pw_tiling &t, const Chunk &ch, int64_t r, const pw_row_sync &sync) const
    {
        const int64_t x = ch.sn + lane();
        if (above_from_edge(t, ch, r, sync)) return edge.load(edge_at(t, r - 1, x));
        return pw_ll_pack(lane() < ch.steps ? grid_at(r * t.h, x + 1, t.cols + 2) : (F)0, pw_tag_awaited_by(sync.q));
    }
    __device__ bool settle_above(const pw_tiling &t, const Chunk &ch, int64_t r, const pw_row_sync &sync,
                                 pw_ll<F> *word, F *buf) const
    {
        const int k = lane();
        const bool ok = !above_from_edge(t, ch, r, sync) || edge.settle(sync, edge_at(t, r - 1, ch.sn + k), word);
        if (k < ch.steps) buf[row_base(ABOVE) + k + 1] = pw_ll_value(*word);
        return __all_sync(0xffffffffu, ok);
    }

    /* The last row of the chunk stored in `buf` (steps [sn, sn + steps)) to the tile-row's edge
     * words, tagged q + 1 (the row below reads them; the last tile-row has none below, and a
     * stuck tile-row, plan.h's fault injection, never hands over). */
    __device__ void store_edge(const F *buf, const pw_tiling &t, int64_t r, int64_t lanes, int64_t sn, int steps,
                               const pw_row_sync &sync) const
    {
        if (!pw_edge<F>::through_words(sync, true) || r + 1 >= t.n_rows) return;
        const int k = lane();
        const int64_t x = sn - (lanes - 1) + k;
        if (k < steps && x >= 0 && x < t.cols) edge.send(sync, edge_at(t, r, x), buf[row_base(lanes - 1) + k]);
    }

    /* A chunk's new values (in `buf`) out (the steps warp sent its edge): the grid, then its
     * progress for the next sweep's waits (none after the last sweep of a launch: lane 0's
     * release store would be a fence on every chunk for nobody). */
    __device__ void store_done(const F *buf, const pw_tiling &t, int64_t r, int64_t lanes, int64_t sn, int steps,
                               const pw_row_sync &sync) const
    {
        store_chunk(buf, r * t.h, lanes, sn, steps, t.cols);
        if (sync.a && sync.sweep + 1 < sync.a->work.sweeps) {
            __syncwarp();
            if (lane() == 0) pw_row_publish(sync, sn + steps);
        }
    }

    /* A later sweep: lane 0 waits until the previous sweep's rows let the steps of chunk m run
     * (pw_row_wait_steps; the row above is the edge words' business); every lane learns the
     * outcome.  false: the run is abandoned. */
    __device__ bool wait_chunk(const pw_row_sync &sync, pw_row_seen *seen, int64_t s0, int64_t s1, int64_t m) const
    {
        if (!sync.a || sync.sweep == 0) return true;
        bool ok = true;
        if (lane() == 0) ok = pw_row_wait_steps(sync, seen, s0 + m * CHUNK + chunk_steps(s0, s1, m) - 1, false);
        ok = __shfl_sync(0xffffffffu, ok, 0);
        __syncwarp(); /* lane 0's acquire orders every lane's loads after it */
        return ok;
    }

    /* Tile c of tile-row r (the ordered schedules: sync.a == NULL). */
    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem, const pw_row_sync &sync) const
    {
        return run_row(t, r, c, c + 1, smem, sync);
    }

    /* Tiles c0 .. c1 - 1 of tile-row r as one stream of chunks (the peer schedule: the whole
     * tile-row, so the loads warp's chunks in flight never drain at a tile's end; the widths are
     * whole chunks, so a chunk never spans two tiles).  Each warp runs its part of the chunk
     * loop (see the header).  false: the run is abandoned, which every warp learns through the
     * chunk's status word and leaves by. */
    __device__ bool run_row(const pw_tiling &t, int64_t r, int64_t c0, int64_t c1, unsigned char *smem,
                            const pw_row_sync &sync) const
    {
        const int64_t lanes = pw_tiling_lanes(&t, r);
        int64_t s0, s1, unused;
        pw_tile_steps(t, r, c0, lanes, &s0, &unused);
        pw_tile_steps(t, r, c1 - 1, lanes, &unused, &s1);
        const int64_t chunks = s1 > s0 ? (s1 - s0 + CHUNK - 1) / CHUNK : 0;
        const int warp = (int)(threadIdx.x / 32);
        if (warp == STEPS_WARP) return run_steps(t, r, smem, sync, lanes, s0, s1, chunks);
        if (warp == LOADS_WARP) return run_loads(t, r, smem, sync, lanes, s0, s1, chunks);
        return run_stores(t, r, c0, smem, sync, lanes, s0, s1, chunks);
    }

    __device__ static F *buffer_of(unsigned char *smem, int64_t n) { return (F *)smem + (n % BUFFERS) * buffer_elems(); }
    __device__ static volatile int *status_of(unsigned char *smem, int64_t n) { return (volatile int *)(smem + status_offset()) + n % BUFFERS; }

    /* The loads warp.  Round m starts chunk m's copies (issue_chunk) and finishes chunk
     * m - LOOKAHEAD: waits for its copies (all but the LOOKAHEAD newest groups, one group a
     * round, empty past the last chunk), for its row above, and says READY.  On a failed wait it
     * says so in the oldest unfinished chunk's status word (the other warps stop there), lets its
     * copies land (none may write the buffers after the block moves on) and leaves; every
     * barrier arrival before that was matched in order. */
    __device__ bool run_loads(const pw_tiling &t, int64_t r, unsigned char *smem, const pw_row_sync &sync, int64_t lanes,
                              int64_t s0, int64_t s1, int64_t chunks) const
    {
        const int64_t gcols = t.cols + 2;
        pw_row_seen seen; /* lane 0's */
        bool ok = true, right_here = !(sync.banded && sync.a->band.right_ready); /* (band_edges) */
        pw_ll<F> above = issue_above(t, chunk_at(s0, s1, 0, lanes, gcols), r, sync); /* the next chunk to finish's */
        for (int64_t m = 0; m < chunks + LOOKAHEAD; m++) {
            if (ok && m < chunks) ok = issue_chunk(t, r, smem, sync, &seen, &right_here, lanes, s0, s1, m);
            pw_copy_async_commit();
            const int64_t j = m - LOOKAHEAD;
            if (j < 0) continue;
            const Chunk ch = chunk_at(s0, s1, j, lanes, gcols);
            F *buf = buffer_of(smem, j);
            pw_copy_async_wait<LOOKAHEAD>();
            ok = ok && settle_above(t, ch, r, sync, &above, buf);
            if (lane() == 0) *status_of(smem, j) = !ok;
            bar_arrive(READY + (int)(j % BUFFERS));
            if (!ok) {
                pw_copy_async_wait<0>();
                return false;
            }
            if (j + 1 < chunks) above = issue_above(t, chunk_at(s0, s1, j + 1, lanes, gcols), r, sync);
        }
        return true;
    }

    /* A band's right neighbour's column (its previous sweep's values) holds the tile-row's rows:
     * lane 0 waits (band_edges), every lane learns the outcome; its acquire orders the copies
     * after it, as wait_chunk's does. */
    __device__ bool wait_right(const pw_tiling &t, int64_t r, int64_t lanes, const pw_row_sync &sync) const
    {
        bool ok = true;
        if (lane() == 0) ok = pw_band_wait_right(*sync.a, sync.sweep, r * t.h + lanes);
        ok = __shfl_sync(0xffffffffu, ok, 0);
        __syncwarp();
        return ok;
    }

    /* Chunk m's copies on their way into its buffer once the stores warp has emptied it (and,
     * for the first, every lane's first column, loaded at once); in a band, the right
     * neighbour's column first where the copies reach it (*right_here: it is there).  false: the
     * run is abandoned. */
    __device__ bool issue_chunk(const pw_tiling &t, int64_t r, unsigned char *smem, const pw_row_sync &sync,
                                pw_row_seen *seen, bool *right_here, int64_t lanes, int64_t s0, int64_t s1, int64_t m) const
    {
        const int64_t top = r * t.h, gcols = t.cols + 2;
        if (!wait_chunk(sync, seen, s0, s1, m)) return false;
        /* (copy 0 reaches grid column sn + 33: the halo column, cols + 1, from sn = cols - 32 on;
         * the wait comes a 128-byte line earlier, so that no copy issued before it -- still in
         * flight, cp.async.ca through L1 -- can bring the halo's line into L1 after the wait's
         * acquire has invalidated it, for a later copy to hit stale) */
        if (!*right_here && s0 + m * CHUNK + 32 + 128 / (int64_t)sizeof(F) >= t.cols) {
            if (!wait_right(t, r, lanes, sync)) return false;
            *right_here = true;
        }
        if (m >= BUFFERS) bar_sync(FREE + (int)(m % BUFFERS));
        if (m == 0) {
            F *seeds = (F *)(smem + seeds_offset());
#pragma unroll
            for (int q = 0; q < R; q++) {
                const int64_t L = (int64_t)lane() * R + q, x = s0 - L; /* the lane's first column */
                seeds[L] = L < lanes ? grid_at(top + L + 1, x, gcols) : (F)0;             /* interior x - 1 */
                seeds[LANES + L] = L < lanes ? grid_at(top + L + 1, x + 1, gcols) : (F)0; /* interior x */
            }
        }
        copy_chunk(chunk_at(s0, s1, m, lanes, gcols), top, lanes, gcols, buffer_of(smem, m));
        return true;
    }

    /* The steps warp: each chunk once READY, its edge words, then DONE; no other memory traffic
     * but its buffer. */
    __device__ bool run_steps(const pw_tiling &t, int64_t r, unsigned char *smem, const pw_row_sync &sync, int64_t lanes,
                              int64_t s0, int64_t s1, int64_t chunks) const
    {
        const int64_t gcols = t.cols + 2;
        F prev[R], self[R];
        for (int64_t n = 0; n < chunks; n++) {
            const int b = (int)(n % BUFFERS);
            bar_sync(READY + b);
            if (*status_of(smem, n)) {
                bar_arrive(DONE + b); /* the stores warp learns it from the same word */
                return false;
            }
            if (n == 0) {
                const F *seeds = (const F *)(smem + seeds_offset());
#pragma unroll
                for (int q = 0; q < R; q++) {
                    prev[q] = seeds[lane() * R + q];
                    self[q] = seeds[LANES + lane() * R + q];
                }
            }
            const Chunk ch = chunk_at(s0, s1, n, lanes, gcols);
            F *buf = buffer_of(smem, n);
            /* Every lane's cell inside the grid at every step: no checks.  Otherwise (the row's
             * ends, a short tile-row) the same unrolled steps keep a lane's old value by a select
             * where its cell is outside: a tile-row waits on the first chunks of the row above,
             * so they are on the sweep's critical path (as a loop: 20 us a tile-row at h = 64,
             * H100).  Only a tile's last chunk can be short. */
            const bool interior = lanes == LANES && ch.sn - (LANES - 1) >= 0 && ch.sn + ch.steps - 1 < t.cols;
            const Keep keep = keep_window(ch.sn, lanes, t.cols);
            if (ch.steps == CHUNK && interior) run_chunk<false>(keep, buf, prev, self);
            else if (ch.steps == CHUNK) run_chunk<true>(keep, buf, prev, self);
            else chunk_steps_run<true, 0>(buf, 0, ch.steps, keep, prev, self);
            __syncwarp(); /* the last row's lane wrote it */
            store_edge(buf, t, r, lanes, ch.sn, ch.steps, sync);
            bar_arrive(DONE + b);
        }
        return true;
    }

    /* The stores warp: each chunk once DONE -- the grid, then its progress -- and FREE for the
     * loads warp.  In a traced peer run it records each tile (c0 on) as its last chunk is
     * stored, from the previous tile's end (the waits are inside, so wait = start). */
    __device__ bool run_stores(const pw_tiling &t, int64_t r, int64_t c0, unsigned char *smem, const pw_row_sync &sync,
                               int64_t lanes, int64_t s0, int64_t s1, int64_t chunks) const
    {
        const bool traced = sync.a && sync.a->trace.records && lane() == 0;
        long long start_ns = traced ? pw_globaltimer() : 0;
        int64_t c = c0;
        /* (band_edges) the band's first column to report: lane L is at column 0 at step L */
        bool first_due = sync.banded && (sync.a->band.first_done || sync.a->band.push_first.ready);
        for (int64_t n = 0; n < chunks; n++) {
            const int b = (int)(n % BUFFERS);
            const int64_t sn = s0 + n * CHUNK;
            const int steps = chunk_steps(s0, s1, n);
            bar_sync(DONE + b);
            if (*status_of(smem, n)) return false;
            store_done(buffer_of(smem, n), t, r, lanes, sn, steps, sync);
            if (n + BUFFERS < chunks) bar_arrive(FREE + b);
            if (first_due && sn + steps >= lanes) { /* (after FREE: it reads the grid, not the buffer) */
                pw_band_report_first_warp(*sync.a, sync.sweep, r * t.h, r * t.h + lanes);
                first_due = false;
            }
            if (traced && sn + steps >= pw_tiling_done(&t, r, c)) {
                pw_trace_tile(sync.a->trace, sync.q, c++, start_ns, start_ns);
                start_ns = pw_globaltimer();
            }
        }
        return true;
    }

    __device__ static int chunk_steps(int64_t s0, int64_t s1, int64_t n)
    {
        const int64_t left = s1 - s0 - n * CHUNK;
        return (int)(left < CHUNK ? left : CHUNK);
    }

    /* What a step reads from the chunk buffer: each lane's right value, and the staged rows
     * (every lane loads; where the staged row is not its neighbour's it reads its own row, so
     * the choice is a select, not a branch). */
    struct Staged {
        F right[R], below, above;
    };
    enum { AHEAD = 4 }; /* unrolled chunks load a step's operands this many steps early */

    __device__ __forceinline__ static Staged stage(F *const (&row)[R], const F *below_row, const F *above_row, int o)
    {
        Staged st;
#pragma unroll
        for (int q = 0; q < R; q++) st.right[q] = row[q][o + 1];
        st.below = below_row[o + 1];
        st.above = above_row[o + 1];
        return st;
    }

    /* Which steps of a chunk keep each of this thread's lanes' cells: steps o with the lane's
     * column sn + o - L in [0, cols) (none for a lane past the tile-row). */
    struct Keep {
        pw_step_window cells[R];
    };
    __device__ static Keep keep_window(int64_t sn, int64_t lanes, int64_t cols)
    {
        Keep kw;
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t L = (int64_t)lane() * R + q, first = L - sn, end = first + cols; /* columns 0 and cols */
            const int64_t lo = first < 0 ? 0 : first > CHUNK ? CHUNK : first, hi = end > CHUNK ? CHUNK : end;
            kw.cells[q] = pw_step_window{(int32_t)lo, L < lanes && hi > lo ? (uint32_t)(hi - lo) : 0u};
        }
        return kw;
    }

    /* A whole chunk's steps, PART_STEPS fully unrolled steps at a time. */
    template <bool Checked>
    __device__ __forceinline__ void run_chunk(const Keep &keep, F *buf, F (&prev)[R], F (&self)[R]) const
    {
#pragma unroll 1
        for (int part = 0; part < STEP_PARTS; part++) chunk_steps_run<Checked, PART_STEPS>(buf, part * PART_STEPS, PART_STEPS, keep, prev, self);
    }

    /* Steps [o0, o0 + steps) of one chunk.  Checked: a lane keeps its old value outside its keep
     * window (lanes past `lanes`, columns outside [0, cols); a lane's value at column -1 is then
     * the left border, its next left).  Fixed > 0: exactly Fixed steps, fully unrolled, each
     * step's operands loaded AHEAD steps early: the compiler cannot prove the loads independent
     * of the previous steps' stores (other rows of the same buffer), so without this every step
     * waits out a shared-memory load. */
    template <bool Checked, int Fixed>
    __device__ __forceinline__ void chunk_steps_run(F *buf, int o0, int steps, const Keep &keep, F (&prev)[R], F (&self)[R]) const
    {
        const int k = lane();
        F *row[R];
#pragma unroll
        for (int q = 0; q < R; q++) row[q] = buf + row_base((int64_t)k * R + q);
        const F *below_row = k == 31 ? buf + row_base(BELOW) : row[0], *above_row = k == 0 ? buf + row_base(ABOVE) : row[0];
        if constexpr (Fixed > 0) {
            static_assert(Fixed > AHEAD, "a run longer than the look-ahead");
            Staged ring[AHEAD];
#pragma unroll
            for (int d = 0; d < AHEAD; d++) ring[d] = stage(row, below_row, above_row, o0 + d);
#pragma unroll
            for (int o = 0; o < Fixed; o++) {
                const Staged now = ring[o % AHEAD];
                if (o + AHEAD < Fixed) ring[o % AHEAD] = stage(row, below_row, above_row, o0 + o + AHEAD);
                step<Checked>(now, row, o0 + o, keep, prev, self);
            }
        } else {
#pragma unroll 1
            for (int o = o0; o < o0 + steps; o++) step<Checked>(stage(row, below_row, above_row, o), row, o, keep, prev, self);
        }
    }

    /* Step o of the chunk for every lane of this thread. */
    template <bool Checked>
    __device__ __forceinline__ void step(const Staged &st, F *const (&row)[R], int o, const Keep &keep, F (&prev)[R],
                                         F (&self)[R]) const
    {
        const int k = lane();
        const F below_lane = __shfl_down_sync(0xffffffffu, st.right[0], 1), in_lane = __shfl_up_sync(0xffffffffu, prev[R - 1], 1);
        const F below = k == 31 ? st.below : below_lane, in = k == 0 ? st.above : in_lane;
#pragma unroll
        for (int q = R - 1; q >= 0; q--) { /* last lane first: prev[q - 1] is still step s - 1's */
            const F up = q > 0 ? prev[q - 1] : in, down = q < R - 1 ? st.right[q + 1] : below;
            F v = cell(self[q], up, prev[q], down, st.right[q]);
            if (Checked && !keep.cells[q].has(o)) v = self[q];
            row[q][o] = v;
            prev[q] = v;
            self[q] = st.right[q];
        }
    }
};

#endif
