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
 * row below, the row above) is copied global -> shared with cp.async, one warp-wide coalesced
 * 128-byte row per instruction (thread t takes column t), BUFFERS - 1 chunks ahead of the steps,
 * without registers.  The steps write their new values into the same chunk buffer, and when the
 * chunk is done the warp stores it back row by row, coalesced.  A chunk buffer row is 33 values
 * plus one per 32 rows (row_base), so the 32 threads of a step, reading the same position of
 * rows R apart, hit 32 different banks.
 *
 * Loads stay inside the tile's steps: what a tile may read is only known once the runtime has
 * waited for it (tiling.h: the row above this sweep, the previous sweep's rows), so the first
 * chunk of every tile waits for its copies.  The copies are cp.async.ca (4-byte copies have no
 * L2-only form); L1 holds no stale line of another block's data because the runtime's wait is a
 * gpu-scope acquire (ld.acquire.gpu, which invalidates the SM's L1) followed by a block barrier
 * before any copy is issued, the PTX memory model's guarantee that weak reads after an acquire
 * see what the releasing block wrote.
 */
#ifndef PW_STENCIL_WARP_PROCESSOR_CUH
#define PW_STENCIL_WARP_PROCESSOR_CUH

#include <cuda_pipeline.h>
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

    enum { LANES = 32 * R, CHUNK = 32, BUFFERS = 3, PITCH = 33 };
    enum { BELOW = LANES, ABOVE = LANES + 1 }; /* buffer rows after the lanes' own (row `lanes` is below when lanes < LANES) */

    static int block_threads(int64_t) { return 32; }
    __host__ __device__ static int64_t row_base(int64_t row) { return row * PITCH + row / 32; }
    __host__ __device__ static int64_t buffer_elems() { return row_base(ABOVE + 1); }
    static size_t smem_bytes() { return BUFFERS * (size_t)buffer_elems() * sizeof(F); }

    /* Grid value (grid row gr, grid column gc), or 0 outside the grid's columns. */
    __device__ F grid_at(int64_t gr, int64_t gc, int64_t gcols) const
    {
        return gc >= 0 && gc < gcols ? pw_load_cg(grid + gr * stride + gc) : (F)0;
    }

    /* Thread k's part of one buffer row: position k + 1 <- grid (gr, gc1 + k), zero outside. */
    __device__ void copy_position(F *dst_row, int64_t gr, int64_t gc1, int64_t gcols, int k) const
    {
        const int64_t gc = gc1 + k;
        const bool in = gc >= 0 && gc < gcols;
        __pipeline_memcpy_async(dst_row + k + 1, in ? grid + gr * stride + gc : grid, sizeof(F), in ? 0 : sizeof(F));
    }

    /* Issue the copies of chunk n (steps [sn, sn + steps)).  Row L's position p holds interior
     * column sn - L + p; a chunk needs positions 1 .. steps (position 0 is the previous chunk's
     * last, carried in registers).  The row above is lane -1's frame shifted: position p holds
     * interior column sn + p - 1. */
    __device__ void load_chunk(F *buf, int64_t top, int64_t lanes, int64_t sn, int steps, int64_t gcols) const
    {
        const int k = threadIdx.x;
        if (lanes == LANES && steps == CHUNK && sn - LANES + 2 >= 0 && sn + 2 + CHUNK - 1 < gcols) {
            /* every copy inside the grid: walk the rows down-left by pointer (the steps are
             * instruction-bound; the generic path costs about 20 instructions a row) */
            const F *src = grid + (top + 1) * stride + sn + 2 + k;
#pragma unroll 1
            for (int g = 0; g < R; g++) {
                F *dst = buf + row_base(32 * g) + k + 1;
#pragma unroll
                for (int j = 0; j < 32; j++, src += stride - 1) __pipeline_memcpy_async(dst + j * PITCH, src, sizeof(F));
            }
            __pipeline_memcpy_async(buf + row_base(BELOW) + k + 1, src, sizeof(F));
            __pipeline_memcpy_async(buf + row_base(ABOVE) + k + 1, grid + top * stride + sn + 1 + k, sizeof(F));
            return;
        }
        if (k >= steps) return;
        for (int64_t L = 0; L <= lanes; L++) /* own rows and the row below (buffer row `lanes`) */
            copy_position(buf + row_base(L), top + L + 1, sn - L + 2, gcols, k);
        copy_position(buf + row_base(ABOVE), top, sn + 1, gcols, k);
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
    __device__ bool wait_chunk(const pw_row_sync &sync, int64_t s0, int64_t s1, int64_t m) const
    {
        bool ok = true;
        if (threadIdx.x == 0) ok = pw_row_wait_steps(sync, s0 + m * CHUNK + chunk_steps(s0, s1, m) - 1);
        ok = __shfl_sync(0xffffffffu, ok, 0);
        __syncwarp(); /* lane 0's acquire orders every lane's copies after it */
        if (!ok) __pipeline_wait_prior(0);
        return ok;
    }

    /* Steps < done are stored: lane 0 publishes (a gpu-scope fence and release store). */
    __device__ void publish(const pw_row_sync &sync, int64_t done) const
    {
        __syncwarp();
        if (threadIdx.x == 0) pw_row_publish(sync, done);
    }

    /* Tile c of tile-row r; sync: the peer schedule's counters (sync.a == NULL in the ordered
     * schedules).  Chunk m's copies are issued after its wait, BUFFERS - 1 chunks ahead of its
     * steps, and the progress of every chunk stored is published at once, so the tile-row below
     * follows about h + 3 chunks of steps behind.  false: the run is abandoned. */
    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem, const pw_row_sync &sync) const
    {
        F *bufs = (F *)smem;
        const int k = threadIdx.x;
        const int64_t lanes = pw_tiling_lanes(&t, r), top = r * t.h, gcols = t.cols + 2;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        const int64_t chunks = (s1 - s0 + CHUNK - 1) / CHUNK;
        if (!wait_chunk(sync, s0, s1, 0)) return false;
        F prev[R], self[R];
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t L = (int64_t)k * R + q, x = s0 - L; /* first column */
            prev[q] = L < lanes ? grid_at(top + L + 1, x, gcols) : (F)0;     /* interior x - 1 */
            self[q] = L < lanes ? grid_at(top + L + 1, x + 1, gcols) : (F)0; /* interior x */
        }
        for (int b = 0; b < BUFFERS - 1; b++) {
            if (b < chunks) {
                if (b > 0 && !wait_chunk(sync, s0, s1, b)) return false;
                load_chunk(bufs + b * buffer_elems(), top, lanes, s0 + b * CHUNK, chunk_steps(s0, s1, b), gcols);
            }
            __pipeline_commit();
        }
        for (int64_t n = 0; n < chunks; n++) {
            const int64_t sn = s0 + n * CHUNK;
            const int steps = chunk_steps(s0, s1, n);
            if (n > 0) {
                __syncwarp();
                store_chunk(bufs + ((n - 1) % BUFFERS) * buffer_elems(), top, lanes, sn - CHUNK, CHUNK, t.cols);
                if (publish_every && n % publish_every == 0) publish(sync, sn);
            }
            __syncwarp(); /* the buffer just stored is free for chunk n + BUFFERS - 1 */
            const int64_t ahead = n + BUFFERS - 1;
            if (ahead < chunks) {
                if (!wait_chunk(sync, s0, s1, ahead)) return false;
                load_chunk(bufs + (ahead % BUFFERS) * buffer_elems(), top, lanes, s0 + ahead * CHUNK,
                           chunk_steps(s0, s1, ahead), gcols);
            }
            __pipeline_commit();
            __pipeline_wait_prior(BUFFERS - 1); /* chunk n's copies (this thread's) are in */
            __syncwarp();                       /* and everyone's */
            F *buf = bufs + (n % BUFFERS) * buffer_elems();
            const bool interior = lanes == LANES && sn - (LANES - 1) >= 0 && sn + steps - 1 < t.cols;
            if (interior && steps == CHUNK) chunk_steps_run<false, CHUNK>(buf, sn, CHUNK, lanes, t.cols, prev, self);
            else chunk_steps_run<true, 0>(buf, sn, steps, lanes, t.cols, prev, self);
        }
        __syncwarp();
        store_chunk(bufs + ((chunks - 1) % BUFFERS) * buffer_elems(), top, lanes, s0 + (chunks - 1) * CHUNK,
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
    __device__ __forceinline__ void chunk_steps_run(F *buf, int64_t sn, int steps, int64_t lanes, int64_t cols,
                                                    F (&prev)[R], F (&self)[R]) const
    {
        const int k = threadIdx.x;
        F *row[R];
#pragma unroll
        for (int q = 0; q < R; q++) row[q] = buf + row_base((int64_t)k * R + q);
        const F *below_row = k == 31 ? buf + row_base(BELOW) : row[0], *above_row = k == 0 ? buf + row_base(ABOVE) : row[0];
        if constexpr (Fixed > 0) {
            static_assert(Fixed > AHEAD, "a chunk longer than the look-ahead");
            Staged ring[AHEAD];
#pragma unroll
            for (int d = 0; d < AHEAD; d++) ring[d] = stage(row, below_row, above_row, d);
#pragma unroll
            for (int o = 0; o < Fixed; o++) {
                const Staged now = ring[o % AHEAD];
                if (o + AHEAD < Fixed) ring[o % AHEAD] = stage(row, below_row, above_row, o + AHEAD);
                step<Checked>(now, row, o, sn, lanes, cols, prev, self);
            }
        } else {
#pragma unroll 1
            for (int o = 0; o < steps; o++) step<Checked>(stage(row, below_row, above_row, o), row, o, sn, lanes, cols, prev, self);
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
