/*
 * stencil_warp_processor.cuh - the register/shuffle tile processor for HEAT and SOR on hyper
 * tiles of a row-major grid (skew 0): one warp per tile-row, R = ceil(h / 32) rows (lanes) per
 * thread, no block barrier per step.
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
 * Memory: a tile's steps run in chunks of 32.  For chunk n every row (the tile-row's rows, the
 * row below, the row above) is loaded with ld.cg, one warp-wide coalesced 128-byte row per
 * instruction (thread t takes column t), into registers while chunk n - 1's steps run, and
 * stored to a shared-memory buffer (two buffers) when they are done.  The steps write their new
 * values into the chunk's buffer, and when the chunk is done the warp stores it back row by
 * row, coalesced.  A buffer row is 33 values plus one per 32 rows (row_base), so the 32 threads
 * of a step, reading the same position of rows R apart, hit 32 different banks.
 *
 * Waits are per chunk, inside the tile (engine.cuh, pw_row_wait_steps; tiling.h, the step
 * forms): a chunk's rows are loaded only after lane 0 has seen the counters allow its steps,
 * and each chunk stored is published at once, so a tile-row follows the one above about h + 64
 * steps behind whatever the tile width.  Lane 0 remembers the counter values it saw, so most
 * waits cost no load.  The loads are L2-only (ld.cg), which is what makes that memory safe: an
 * L1-cached copy (cp.async.ca, the only 4-byte asynchronous copy) could keep a line holding a
 * neighbour's columns from before they were written, and without a fresh acquire per chunk
 * nothing would drop it.  (First version: cp.async.ca copies two chunks ahead with an acquire
 * load per chunk; measured no faster, and its safety leaned on the acquire invalidating L1.)
 */
#ifndef PW_STENCIL_WARP_PROCESSOR_CUH
#define PW_STENCIL_WARP_PROCESSOR_CUH

#include <stdint.h>

#include "../core/tiling.h"
#include "engine.cuh"
#include "tile_processors.cuh"

/* Cell: __device__ F operator()(F self, F up, F left, F down, F right) const. */
template <class F, class Cell, int R>
struct StencilWarpProc {
    F *grid;        /* (rows + 2) x (cols + 2) with its fixed border; interior (i, j) at grid (i + 1, j + 1) */
    int64_t stride;
    Cell cell;
    int publish_every; /* publish progress every this many chunks inside a tile (0: at its end only) */

    static constexpr bool waits_in_tile = true; /* engine.cuh: pw_row_wait_steps, pw_row_publish */

    enum { LANES = 32 * R, CHUNK = 32, PITCH = 33 };
    enum { BELOW = LANES, ABOVE = LANES + 1 }; /* buffer rows after the lanes' own (row `lanes` is below when lanes < LANES) */
    /* A chunk's copies: buffer rows 0 .. LANES (own rows, the row below) and the row above, in
     * PARTS parts of PART_ROWS values a thread, each held in registers across 32 / PARTS steps. */
    enum { COPIES = LANES + 2, PARTS = R > 2 ? R / 2 : 1, PART_ROWS = (COPIES + PARTS - 1) / PARTS, PART_STEPS = CHUNK / PARTS };

    static int block_threads(int64_t) { return 32; }
    __host__ __device__ static int64_t row_base(int64_t row) { return row * PITCH + row / 32; }
    __host__ __device__ static int64_t buffer_elems() { return row_base(ABOVE + 1); }
    static size_t smem_bytes() { return 2 * (size_t)buffer_elems() * sizeof(F); }

    /* Grid value (grid row gr, grid column gc), or 0 outside the grid's columns. */
    __device__ F grid_at(int64_t gr, int64_t gc, int64_t gcols) const
    {
        return gc >= 0 && gc < gcols ? pw_load_cg(grid + gr * stride + gc) : (F)0;
    }

    /* The copies of one chunk (steps [sn, sn + steps)).  Copy i <= LANES is buffer row i: grid
     * row top + i + 1, position p = interior column sn - i + p; copy LANES + 1 is the row above
     * (grid row top), position p = interior column sn + p - 1.  A chunk needs positions
     * 1 .. steps (position 0 is the previous chunk's last, carried in registers); thread k
     * takes position k + 1 of every row: coalesced rows.  Loads are ld.cg (L2): the data comes
     * from other blocks, and no L1 line can be stale. */
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

    __device__ void load_part(F (&v)[PART_ROWS], const Chunk &ch, int part, int64_t top, int64_t lanes, int64_t gcols) const
    {
        const int k = threadIdx.x;
        const int first = part * PART_ROWS;
        if (ch.fast) { /* walk the rows down-left by pointer */
            const F *src = grid + (top + 1 + first) * stride + ch.sn + 2 + k - first;
#pragma unroll
            for (int j = 0; j < PART_ROWS; j++, src += stride - 1) {
                const int i = first + j;
                if (i <= LANES) v[j] = pw_load_cg(src);
                else if (i == ABOVE) v[j] = pw_load_cg(grid + top * stride + ch.sn + 1 + k);
            }
            return;
        }
#pragma unroll
        for (int j = 0; j < PART_ROWS; j++) {
            const int i = first + j;
            v[j] = (F)0;
            if (k >= ch.steps) continue;
            if (i <= lanes) v[j] = grid_at(top + i + 1, ch.sn - i + 2 + k, gcols);
            else if (i == ABOVE) v[j] = grid_at(top, ch.sn + 1 + k, gcols);
        }
    }

    __device__ void store_part(const F (&v)[PART_ROWS], const Chunk &ch, int part, F *buf) const
    {
        const int k = threadIdx.x;
        if (k >= ch.steps) return;
#pragma unroll
        for (int j = 0; j < PART_ROWS; j++) {
            const int i = part * PART_ROWS + j;
            if (i < COPIES) buf[row_base(i) + k + 1] = v[j];
        }
    }

    /* Store chunk n's new values (positions 0 .. steps - 1 of the lanes' rows), coalesced. */
    __device__ void store_chunk(const F *buf, int64_t top, int64_t lanes, int64_t sn, int steps, int64_t cols) const
    {
        const int k = threadIdx.x;
        F *dst = grid + (top + 1) * stride + 1 + sn + k; /* row L: dst + L * (stride - 1) */
        if (lanes == LANES && steps == CHUNK && sn - LANES + 1 >= 0 && sn + CHUNK - 1 < cols) {
#pragma unroll 1
            for (int g = 0; g < R; g++) {
                const F *src = buf + row_base(32 * g) + k;
#pragma unroll
                for (int j = 0; j < 32; j++, dst += stride - 1) *dst = src[j * PITCH];
            }
            return;
        }
        if (k >= steps) return;
        for (int64_t L = 0; L < lanes; L++, dst += stride - 1) {
            const int64_t x = sn - L + k;
            if (x >= 0 && x < cols) *dst = buf[row_base(L) + k];
        }
    }

    /* Lane 0 waits until the steps of chunk m may run (pw_row_wait_steps); every lane learns
     * the outcome.  false: the run is abandoned. */
    __device__ bool wait_chunk(const pw_row_sync &sync, pw_row_seen *seen, int64_t s0, int64_t s1, int64_t m) const
    {
        bool ok = true;
        if (threadIdx.x == 0) ok = pw_row_wait_steps(sync, seen, s0 + m * CHUNK + chunk_steps(s0, s1, m) - 1);
        ok = __shfl_sync(0xffffffffu, ok, 0);
        __syncwarp(); /* lane 0's acquire orders every lane's loads after it */
        return ok;
    }

    /* Steps < done are stored: lane 0 publishes (a gpu-scope fence and release store). */
    __device__ void publish(const pw_row_sync &sync, int64_t done) const
    {
        __syncwarp();
        if (threadIdx.x == 0) pw_row_publish(sync, done);
    }

    /* Tile c of tile-row r; sync: the peer schedule's counters (sync.a == NULL in the ordered
     * schedules).  Chunk n + 1's rows are loaded into registers while chunk n's steps run (in
     * PARTS parts) after the wait for chunk n + 1, and the progress of every chunk stored is
     * published at once, so the tile-row below follows about h + 2 chunks of steps behind.
     * false: the run is abandoned. */
    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem, const pw_row_sync &sync) const
    {
        F *bufs = (F *)smem;
        const int k = threadIdx.x;
        const int64_t lanes = pw_tiling_lanes(&t, r), top = r * t.h, gcols = t.cols + 2;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        const int64_t chunks = (s1 - s0 + CHUNK - 1) / CHUNK;
        pw_row_seen seen; /* lane 0's */
        if (!wait_chunk(sync, &seen, s0, s1, 0)) return false;
        F prev[R], self[R], v[PART_ROWS];
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t L = (int64_t)k * R + q, x = s0 - L; /* first column */
            prev[q] = L < lanes ? grid_at(top + L + 1, x, gcols) : (F)0;     /* interior x - 1 */
            self[q] = L < lanes ? grid_at(top + L + 1, x + 1, gcols) : (F)0; /* interior x */
        }
        {
            const Chunk first = chunk_at(s0, s1, 0, lanes, gcols);
            for (int part = 0; part < PARTS; part++) {
                load_part(v, first, part, top, lanes, gcols);
                store_part(v, first, part, bufs);
            }
        }
        for (int64_t n = 0; n < chunks; n++) {
            const Chunk ch = chunk_at(s0, s1, n, lanes, gcols);
            F *buf = bufs + (n & 1) * buffer_elems(), *next_buf = bufs + ((n + 1) & 1) * buffer_elems();
            if (n > 0) {
                __syncwarp();
                store_chunk(next_buf, top, lanes, ch.sn - CHUNK, CHUNK, t.cols); /* chunk n - 1 */
                publish(sync, ch.sn);
            }
            const bool more = n + 1 < chunks;
            if (more && !wait_chunk(sync, &seen, s0, s1, n + 1)) return false;
            __syncwarp(); /* chunk n's rows are in `buf`; `next_buf` is free */
            const Chunk next = more ? chunk_at(s0, s1, n + 1, lanes, gcols) : ch;
            const bool interior = lanes == LANES && ch.sn - (LANES - 1) >= 0 && ch.sn + ch.steps - 1 < t.cols;
            if (interior && ch.steps == CHUNK) {
#pragma unroll 1
                for (int part = 0; part < PARTS; part++) { /* the next chunk's loads fly over these steps */
                    if (more) load_part(v, next, part, top, lanes, gcols);
                    chunk_steps_run<false, PART_STEPS>(buf, ch.sn, part * PART_STEPS, PART_STEPS, lanes, t.cols, prev, self);
                    if (more) store_part(v, next, part, next_buf);
                }
            } else {
                chunk_steps_run<true, 0>(buf, ch.sn, 0, ch.steps, lanes, t.cols, prev, self);
                for (int part = 0; part < PARTS && more; part++) {
                    load_part(v, next, part, top, lanes, gcols);
                    store_part(v, next, part, next_buf);
                }
            }
        }
        __syncwarp();
        store_chunk(bufs + ((chunks - 1) & 1) * buffer_elems(), top, lanes, s0 + (chunks - 1) * CHUNK,
                    chunk_steps(s0, s1, chunks - 1), t.cols);
        publish(sync, s1);
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

    /* The steps of one chunk.  Checked: lanes past `lanes` and columns outside [0, cols) keep
     * their old value (a lane's value at column -1 is then the left border, its next left).
     * Fixed > 0: exactly Fixed steps, fully unrolled, each step's operands loaded AHEAD steps
     * early: the compiler cannot prove the loads independent of the previous steps' stores (other
     * rows of the same buffer), so without this every step waits out a shared-memory load. */
    template <bool Checked, int Fixed>
    __device__ __forceinline__ void chunk_steps_run(F *buf, int64_t sn, int o0, int steps, int64_t lanes, int64_t cols,
                                                    F (&prev)[R], F (&self)[R]) const
    {
        const int k = threadIdx.x;
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
                step<Checked>(now, row, o0 + o, sn, lanes, cols, prev, self);
            }
        } else {
#pragma unroll 1
            for (int o = o0; o < o0 + steps; o++) step<Checked>(stage(row, below_row, above_row, o), row, o, sn, lanes, cols, prev, self);
        }
    }

    /* Step sn + o of every lane of this thread. */
    template <bool Checked>
    __device__ __forceinline__ void step(const Staged &st, F *const (&row)[R], int o, int64_t sn, int64_t lanes,
                                         int64_t cols, F (&prev)[R], F (&self)[R]) const
    {
        const int k = threadIdx.x;
        const F below_lane = __shfl_down_sync(0xffffffffu, st.right[0], 1), in_lane = __shfl_up_sync(0xffffffffu, prev[R - 1], 1);
        const F below = k == 31 ? st.below : below_lane, in = k == 0 ? st.above : in_lane;
#pragma unroll
        for (int q = R - 1; q >= 0; q--) { /* last lane first: prev[q - 1] is still step s - 1's */
            const F up = q > 0 ? prev[q - 1] : in, down = q < R - 1 ? st.right[q + 1] : below;
            F v = cell(self[q], up, prev[q], down, st.right[q]);
            if (Checked) {
                const int64_t L = (int64_t)k * R + q, x = sn + o - L;
                if (!(L < lanes && x >= 0 && x < cols)) v = self[q];
            }
            row[q][o] = v;
            prev[q] = v;
            self[q] = st.right[q];
        }
    }
};

#endif
