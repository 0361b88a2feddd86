/*
 * warp_processor.cuh - the register/shuffle tile processor for the linear apps (SW, DTW) on
 * hyper tiles: one warp per tile-row, R = h / 32 rows (lanes) per thread, no __syncthreads().
 *
 * Lane L = 32-thread index k * R + q computes column x = s - L at step s (hyper tiles, skew 0).
 * Its up value and column datum (b[x]) are what lane L - 1 held after step s - 1: for q > 0 a
 * register of the same thread (prev[q - 1]), for q = 0 thread k - 1's last lane, moved by
 * __shfl_up_sync, and for thread 0 the row above's bus, staged 32 columns at a time in shared
 * memory.  The R cells of a thread in one step are independent (they use the previous step's
 * values), so a step is R-way instruction-level parallel; the warp never waits on the rest of
 * the block.  Compared with LinearProc (one lane per thread, a shared-memory slot and a block
 * barrier per step, three global loads per SW cell), each cell here costs one L1 load (the
 * substitution score) and register work.
 *
 * Interior tiles (every lane valid at every step) take the unchecked path; tiles at the ends of
 * a row and a short last tile-row take the checked one (pw_lane_column per lane).
 *
 * In the peer schedule the processor waits and publishes inside its tiles (engine.cuh,
 * waits_in_tile): before staging the bus for steps s .. s + 31, thread 0 waits for exactly the
 * steps of the row above those columns need (tiling.h, pw_tiling_need_at), and once the steps of
 * a chunk are done it publishes them, so the tile-row below follows about h + 32 steps behind
 * whatever the tile width (a tile wait put it 2 tiles behind at w = h).
 *
 * App (linear) adds to LinearProc's interface: typedef Row, Col;
 *   __device__ Row row_load(int64_t i) const;   per-row datum (SW: a[i]'s score-table row)
 *   __device__ Col col_load(int64_t j) const;   per-column datum (SW: b[j])
 *   __device__ T cell_rc(Row, Col, T up, T left, T diag) const;
 */
#ifndef PW_WARP_PROCESSOR_CUH
#define PW_WARP_PROCESSOR_CUH

#include "tile_processors.cuh"

/* Shuffle a value of whole 32-bit words one thread up the warp. */
template <class V>
__device__ __forceinline__ V pw_shfl_up(const V &v)
{
    static_assert(sizeof(V) % 4 == 0, "whole 32-bit words");
    V out;
    const int *src = (const int *)&v;
    int *dst = (int *)&out;
#pragma unroll
    for (int w = 0; w < (int)(sizeof(V) / 4); w++) dst[w] = __shfl_up_sync(0xffffffffu, src[w], 1);
    return out;
}

/* The narrowest tile the glue gives it in the peer schedule (linear_apps.cu). */
#define PW_WARP_PEER_MIN_W 128

template <class App, int R>
struct WarpProc {
    App app;
    int publish_every; /* publish progress every this many chunks inside a tile (0: at its end only) */
    typedef typename App::T T;
    typedef typename App::Col Col;
    typedef typename App::Row Row;
    static constexpr bool waits_in_tile = true; /* engine.cuh: pw_row_wait_steps, pw_row_publish */
    static int block_threads(int64_t) { return 32; }
    /* the staged bus chunk: 32 values and 32 column data */
    static size_t smem_bytes(int64_t) { return 32 * (sizeof(T) + sizeof(Col)); }

    __device__ bool run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *smem, const pw_row_sync &sync) const
    {
        const int64_t lanes = pw_tiling_lanes(&t, r);
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        const bool interior = lanes == t.h && s0 - (t.h - 1) >= 0 && s1 - 1 < t.cols;
        if (interior) return steps<false>(t, r, s0, s1, lanes, smem, sync);
        return steps<true>(t, r, s0, s1, lanes, smem, sync);
    }

    template <bool Checked>
    __device__ __forceinline__ bool steps(const pw_tiling &t, int64_t r, int64_t s0, int64_t s1, int64_t lanes,
                                          unsigned char *smem, const pw_row_sync &sync) const
    {
        pw_row_seen seen; /* thread 0's */
        T *chunk_val = (T *)smem;
        Col *chunk_col = (Col *)(chunk_val + 32);
        const int k = threadIdx.x;
        const int64_t first = r * t.h + (int64_t)k * R; /* row of lane q = 0 */
        const int last_thread = (int)((lanes - 1) / R), last_q = (int)((lanes - 1) % R);
        T left[R], diag[R], prev[R];
        Col prev_col[R];
        Row row[R];
        typename App::Acc acc[R];
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)k * R + q, i = first + q;
            if (!Checked || lane < lanes) {
                left[q] = pw_load_cg(app.left + i);
                diag[q] = pw_load_cg(app.diag + i);
                acc[q] = app.acc_load(i);
                row[q] = app.row_load(i);
                prev[q] = left[q]; /* the lane's value at step s0 - 1 */
                const int64_t x = s0 - 1 - lane; /* -1 for the last lane of an interior tile */
                if (x >= 0 && x < t.cols) prev_col[q] = app.col_load(x);
            }
        }
        for (int64_t s = s0; s < s1; s++) {
            const int64_t offset = (s - s0) & 31;
            if (offset == 0) { /* stage the next 32 bus values for thread 0 */
                const int64_t chunk_last = s + 31 < s1 ? s + 31 : s1 - 1;
                const bool ok = k == 0 ? pw_row_wait_steps(sync, &seen, chunk_last) : true;
                if (!__all_sync(0xffffffffu, ok)) return false;
                __syncwarp(); /* orders thread 0's acquire before the loads, the last chunk's reads before the stores */
                const int64_t x = s + k;
                if (x < s1 && x < t.cols && x >= 0) {
                    chunk_val[k] = pw_load_cg(app.bus + x);
                    chunk_col[k] = app.col_load(x);
                }
                __syncwarp();
            }
            T in_val = pw_shfl_up(prev[R - 1]);
            Col in_col = pw_shfl_up(prev_col[R - 1]);
            if (k == 0) {
                in_val = chunk_val[offset];
                in_col = chunk_col[offset];
            }
            /* Last lane first: lane q reads lane q - 1's previous-step value before it changes. */
#pragma unroll
            for (int q = R - 1; q >= 0; q--) {
                const int64_t lane = (int64_t)k * R + q, j = s - lane;
                if (Checked && !(lane < lanes && j >= 0 && j < t.cols)) continue;
                const T up = q > 0 ? prev[q - 1] : in_val;
                const Col col = q > 0 ? prev_col[q - 1] : in_col;
                const T v = app.cell_rc(row[q], col, up, left[q], diag[q]);
                diag[q] = up;
                left[q] = v;
                prev[q] = v;
                prev_col[q] = col;
                app.acc_add(acc[q], first + q, j, v);
                if (k == last_thread && q == last_q) app.bus[j] = v;
            }
            const bool publish = s == s1 - 1 || (offset == 31 && publish_every && ((s - s0) / 32 + 1) % publish_every == 0);
            if (sync.a && publish) { /* the chunk's bus values, then its progress */
                __syncwarp();
                if (k == 0) pw_row_publish(sync, s + 1);
            }
        }
#pragma unroll
        for (int q = 0; q < R; q++) {
            const int64_t lane = (int64_t)k * R + q, i = first + q;
            if (!Checked || lane < lanes) {
                app.left[i] = left[q];
                app.diag[i] = diag[q];
                app.acc_store(i, acc[q]);
            }
        }
        return true;
    }
};

#endif
