/*
 * pairs_sw_proc.cuh - many Smith-Waterman-Gotoh pairs at once, each its own query and record
 * (pw_sw_pairs, `peerwave sw --query Q --db DB --pairs` on the GPU): one warp scores one pair and
 * finds its end cell.
 *
 * The walk of batch_sw_proc.cuh (the query's rows down the warp, R a thread, segments of 32R
 * rows, the record streaming through, H and F of the row above by shuffles, a segment's last row
 * to the next through the warp's row of `bottom`), but with 32-bit cells only and no profile: a
 * pair has a query of its own, so a cell's score is read from the substitution table in shared
 * memory.  The cells are pw_sw_batch_score32's (src/batch/sw_batch.c):
 *   E(i,j) = max(E(i,j-1) - ge, H(i,j-1) - go),  F(i,j) = max(F(i-1,j) - ge, H(i-1,j) - go),
 *   H(i,j) = max(0, H(i-1,j-1) + s(a_i, b_j), E(i,j), F(i,j)),
 * and the end cell is pw_sw's: the best score, ties to the smallest row, then the smallest column
 * (no cell when the best is 0).
 */
#ifndef PW_DEVICE_PAIRS_SW_PROC_CUH
#define PW_DEVICE_PAIRS_SW_PROC_CUH

#include "../../core/best_cell.h"
#include "../../core/fixed_width.h"
#include "pairs_sw_args.h"

#define PW_PAIRS_SW_NEG (INT32_MIN / 2) /* E and F of column -1 and row -1 (apps/sw_cell.h's) */

/* A chunk's letters, gathered by the host as they are, turned into the table's codes in place
 * (every letter was checked before any work): the host's table lookups were most of its time a
 * chunk (PERFORMANCE.md, session 19). */
__global__ void pw_pairs_encode_kernel(uint8_t *bytes, int64_t n, const uint8_t *code)
{
    __shared__ uint8_t to[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) to[i] = code[i];
    __syncthreads();
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        bytes[i] = to[bytes[i]];
}

template <int R>
__global__ void __launch_bounds__(128) pw_pairs_sw_kernel(pw_pairs_sw_args args)
{
    __shared__ int32_t table[PW_PAIRS_SW_MAX_ALPHABET * PW_PAIRS_SW_MAX_ALPHABET];
    for (int k = threadIdx.x; k < args.size * args.size; k += blockDim.x) table[k] = args.table[k];
    __syncthreads();
    const unsigned full = 0xffffffffu;
    const int k = (int)(threadIdx.x % 32);
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
    int32_t *bottom_h = args.bottom + warp * 2 * args.bottom_stride, *bottom_f = bottom_h + args.bottom_stride;
    const int32_t go = args.gap_open, ge = args.gap_extend;
    for (int64_t at = warp; at < args.count; at += warps) {
        const int64_t t = args.order ? args.order[at] : at;
        const uint8_t *a = args.a + args.a_at[t], *b = args.b + args.b_at[t];
        const int64_t n = args.a_at[t + 1] - args.a_at[t], m = args.b_at[t + 1] - args.b_at[t];
        int32_t best = 0;
        int64_t best_i = -1, best_j = -1;
        for (int64_t r0 = 0; r0 < n; r0 += 32 * R) {
            const bool first_segment = r0 == 0, last_segment = r0 + 32 * R >= n;
            int row_at[R]; /* the row's letter times size: its row of the table (-1: past the query) */
            int32_t h[R], e[R];
            for (int q = 0; q < R; q++) {
                const int64_t row = r0 + (int64_t)k * R + q;
                row_at[q] = row < n ? (int)a[row] * args.size : -1;
                h[q] = 0;                /* H(i, -1) */
                e[q] = PW_PAIRS_SW_NEG;  /* E(i, -1) */
            }
            int32_t out_h = 0, out_f = PW_PAIRS_SW_NEG; /* this thread's last row, made one step ago */
            int32_t prev_up = 0;                        /* H of the row above the first, one column back */
            for (int64_t s = 0; s < m + 31; s++) {
                const int64_t j = s - k;
                /* the row above: thread k - 1's last row, made one step ago for this column */
                int32_t up = __shfl_up_sync(full, out_h, 1), f = __shfl_up_sync(full, out_f, 1);
                if (k == 0) {
                    const bool top = first_segment || j < 0 || j >= m;
                    up = top ? 0 : bottom_h[j];
                    f = top ? PW_PAIRS_SW_NEG : bottom_f[j];
                }
                if (j < 0 || j >= m) continue; /* (the shuffles above are every thread's, every step) */
                const int c = b[j];
                int32_t diag = prev_up;
                prev_up = up;
#pragma unroll
                for (int q = 0; q < R; q++) {
                    const int32_t s_q = row_at[q] >= 0 ? table[row_at[q] + c] : 0;
                    const int32_t from_left = h[q] - go, from_up = up - go;
                    e[q] = max(e[q] - ge, from_left);
                    f = max(f - ge, from_up);
                    int32_t v = max(diag + s_q, 0);
                    v = max(v, e[q]);
                    v = max(v, f);
                    diag = h[q];
                    h[q] = v;
                    up = v;
                    const int64_t row = r0 + (int64_t)k * R + q;
                    if (row_at[q] >= 0 && v > 0 && PW_BEST_CELL_BETTER(v, row, j, best, best_i, best_j))
                        best = v, best_i = row, best_j = j;
                }
                out_h = up;
                out_f = f;
                /* the segment's last row (thread 31's last) for the next segment, whose thread 0
                 * reads column j at step j: 31 steps before this write (batch_sw_proc.cuh's order) */
                if (k == 31 && !last_segment) {
                    bottom_h[j] = out_h;
                    bottom_f[j] = out_f;
                }
            }
            __syncwarp(); /* (the bottom row's writes before the next segment's reads) */
        }
        /* the warp's best cell by the same rule */
        for (int d = 16; d > 0; d /= 2) {
            const int32_t os = __shfl_xor_sync(full, best, d);
            const int64_t oi = __shfl_xor_sync(full, best_i, d), oj = __shfl_xor_sync(full, best_j, d);
            if (os > 0 && PW_BEST_CELL_BETTER(os, oi, oj, best, best_i, best_j)) best = os, best_i = oi, best_j = oj;
        }
        if (k == 0) {
            args.score[t] = best;
            args.end_a[t] = best > 0 ? (int32_t)best_i : -1;
            args.end_b[t] = best > 0 ? (int32_t)best_j : -1;
        }
    }
}

#endif
