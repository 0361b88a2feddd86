/*
 * pairs_sw16_proc.cuh - many Smith-Waterman-Gotoh pairs at once in 16-bit lanes: one warp scores
 * two pairs, one in the low 16 bits of every value and one in the high (Hopper's DPX s16x2), and
 * finds both end cells.  The 32-bit kernel (pairs_sw_proc.cuh) scores a pair a warp, reading each
 * cell's score from the table in shared memory; this one does what the database search does
 * (batch_sw_proc.cuh): signed-byte profile words, four rows a word, turned into a row's two scores
 * by one byte-permute.  A pair has a query of its own, so each warp builds its two queries'
 * profiles for a segment in its own slice of shared memory before the segment's columns run.
 *
 * The walk is the search's: thread k holds rows kR .. kR + R - 1 of a segment of 32R rows (H and E
 * in registers), the records stream through (at step s thread k computes column s - k), H and F of
 * the row above come from thread k - 1 by shuffles, and a segment's last row goes to the next
 * through the warp's row of `bottom`.  The cell is the search's SHARED form (both gaps leaving a
 * cell from one H - gap_open): the textbook Gotoh's values; a thread's column of R rows is the
 * warp-rows engine's (pw_swr_column in 16-bit pairs, with its floor at 0).
 *
 * The two pairs of a warp need not be alike: the warp runs the more segments and the more columns
 * of the two, and the other's rows and columns past its ends are padding (the profile scores -128
 * there: a padding cell's H is the max of 0, E and F, which only fall from cells before it, so it
 * never exceeds the best real cell; equal only with both gaps 0, and then the real cell wins the
 * tie: a smaller row or column).  The host sorts a launch's pairs by segments, then columns, so
 * that a warp's two are about the same size and long ones go first.
 *
 * The end cell: a thread keeps each half's best (score, row, column).  A column whose largest H
 * (over the thread's rows, padding included: no padding value passes the best, above) reaches a
 * half's best (at least 1: a zero never counts) looks for that H's first real row (rare once a
 * best is found); the warp's best by pw_sw's rule (best_cell.h) at the end.
 *
 * 16-bit lanes wrap (DPX arithmetic is modular), so, as in the search, values stay in range
 * (H >= 0, E and F >= -(gap open + gap extend) from at least -gap open) and a value passes 32767
 * only from a cell whose diagonal H exceeds 32767 - top (the table's largest score); that H is a
 * real cell's or below the real best, so the pair's best then exceeds limit16 = 32767 - top and
 * the pair is reported as -1, for the host to score again with the 32-bit kernel.  The host takes
 * this kernel only for tables within signed bytes and gap_open + gap_extend <= 16384.
 */
#ifndef PW_DEVICE_PAIRS_SW16_PROC_CUH
#define PW_DEVICE_PAIRS_SW16_PROC_CUH

#include "pairs_sw_proc.cuh"     /* pw_pairs_sw_args, PW_PAIRS_SW_MAX_ALPHABET */
#include "sw_warp_rows_proc.cuh" /* pw_swr_column<PwSwrPairs>: a thread's R rows of a column in 16-bit pairs */

#define PW_PAIRS16_THREADS 128 /* 4 warps a block */

/* A block's dynamic shared memory: the table, then each warp's two profiles of (size + 1)
 * letters (the last the padding letter) x R / 4 words x 32 threads. */
__host__ __device__ inline size_t pw_pairs16_profile_words(int size, int r) { return (size_t)(size + 1) * (r / 4) * 32; }
__host__ __device__ inline size_t pw_pairs16_smem_bytes(int size, int r)
{
    return sizeof(uint32_t) * ((size_t)size * size + (PW_PAIRS16_THREADS / 32) * 2 * pw_pairs16_profile_words(size, r));
}

/* One half's best cell: pw_sw's rule (best_cell.h). */
struct pw_pairs16_best {
    int32_t score, i, j;
    __device__ void offer(int32_t s, int32_t ci, int32_t cj)
    {
        if (PW_BEST_CELL_BETTER(s, ci, cj, score, i, j)) score = s, i = ci, j = cj;
    }
    __device__ void warp_reduce()
    {
        for (int d = 16; d > 0; d /= 2) {
            const int32_t s = __shfl_xor_sync(0xffffffffu, score, d), ci = __shfl_xor_sync(0xffffffffu, i, d),
                          cj = __shfl_xor_sync(0xffffffffu, j, d);
            if (s > 0) offer(s, ci, cj);
        }
    }
};

/* A half's H at row r (sign-extended). */
__device__ __forceinline__ int32_t pw_pairs16_half(uint32_t v, int half)
{
    return (int32_t)(int16_t)(half ? v >> 16 : v & 0xffff);
}

/* Lane k's profile words of one query for one segment (rows row0 .. row0 + R - 1, those from n on
 * padding), letter c's at [c][w][k]; the padding letter (c = size) scores -128 everywhere. */
template <int R>
__device__ __forceinline__ void pw_pairs16_profile(uint32_t *prof, const int32_t *table, int size, const uint8_t *q,
                                                   int n, int row0, int k)
{
#pragma unroll
    for (int w = 0; w < R / 4; w++) {
        int at[4]; /* the rows' letters times size: their rows of the table (-1: padding) */
#pragma unroll
        for (int b = 0; b < 4; b++) at[b] = row0 + 4 * w + b < n ? (int)q[row0 + 4 * w + b] * size : -1;
        for (int c = 0; c <= size; c++) {
            uint32_t word = 0;
#pragma unroll
            for (int b = 0; b < 4; b++) {
                const int32_t s = at[b] >= 0 && c < size ? table[at[b] + c] : -128;
                word |= (uint32_t)(s & 0xff) << (8 * b);
            }
            prof[(c * (R / 4) + w) * 32 + k] = word;
        }
    }
}

/* The pair a warp's half holds: its sequences and lengths (n = m = 0 where the half is empty). */
struct pw_pairs16_pair {
    int64_t t; /* the launch's pair index, -1: none */
    const uint8_t *a, *b;
    int n, m;
};
__device__ __forceinline__ pw_pairs16_pair pw_pairs16_pair_of(const pw_pairs_sw_args &args, int64_t at)
{
    pw_pairs16_pair p = {-1, args.a, args.b, 0, 0};
    if (at >= args.count) return p;
    p.t = args.order ? args.order[at] : at;
    p.a = args.a + args.a_at[p.t];
    p.b = args.b + args.b_at[p.t];
    p.n = (int)(args.a_at[p.t + 1] - args.a_at[p.t]);
    p.m = (int)(args.b_at[p.t + 1] - args.b_at[p.t]);
    return p;
}

template <int R>
__global__ void __launch_bounds__(PW_PAIRS16_THREADS) pw_pairs_sw16_kernel(pw_pairs_sw_args args)
{
    typedef uint32_t V;
    static_assert(R % 4 == 0, "four rows a profile word");
    extern __shared__ uint32_t pw_pairs16_smem[];
    const int size = args.size;
    int32_t *table = (int32_t *)pw_pairs16_smem;
    for (int i = threadIdx.x; i < size * size; i += blockDim.x) table[i] = args.table[i];
    __syncthreads();
    const int k = (int)(threadIdx.x % 32);
    const int words = (int)pw_pairs16_profile_words(size, R);
    uint32_t *prof_lo = pw_pairs16_smem + size * size + (threadIdx.x / 32) * 2 * words, *prof_hi = prof_lo + words;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
    uint32_t *bottom_h = (uint32_t *)args.bottom + warp * 2 * args.bottom_stride, *bottom_f = bottom_h + args.bottom_stride;
    const V go = pw_swr_splat16(args.gap_open), minus_ge = pw_swr_splat16(-args.gap_extend), zero = 0;
    const V border_gap = pw_swr_splat16(-args.gap_open); /* E(t, 0) and F(0, j) from the zero border: SHARED's, made ahead */
    const uint32_t pad = (uint32_t)size;
    for (int64_t item = warp; 2 * item < args.count; item += warps) {
        const pw_pairs16_pair lo = pw_pairs16_pair_of(args, 2 * item), hi = pw_pairs16_pair_of(args, 2 * item + 1);
        const int ncol = max(lo.m, hi.m), seg_rows = 32 * R;
        const int segments = (max(lo.n, hi.n) + seg_rows - 1) / seg_rows;
        pw_pairs16_best best_lo = {0, INT32_MAX, INT32_MAX}, best_hi = {0, INT32_MAX, INT32_MAX};
        V reach = pw_swr_splat16(1); /* each half's best, at least 1: a column reaching it looks for its row */
        for (int g = 0; g < segments; g++) {
            const int row0 = g * seg_rows + k * R;
            __syncwarp(); /* (the last segment's profile reads before these writes) */
            pw_pairs16_profile<R>(prof_lo, table, size, lo.a, lo.n, row0, k);
            pw_pairs16_profile<R>(prof_hi, table, size, hi.a, hi.n, row0, k);
            __syncwarp();
            V h[R], e[R];
#pragma unroll
            for (int t = 0; t < R; t++) h[t] = zero, e[t] = border_gap;
            V out_h = zero, out_f = border_gap, prev_up = zero;
            /* column j's letters, the low pair's in bits 0-7 and the high's in 8-15 (padding past an end) */
            auto letters_of = [&](int j) -> uint32_t {
                return (j < lo.m ? (uint32_t)lo.b[j] : pad) | (j < hi.m ? (uint32_t)hi.b[j] : pad) << 8;
            };
            uint32_t next = k == 0 ? letters_of(0) : 0;
            for (int s = 0; s < ncol + 31; s++) {
                const int j = s - k;
                V up = __shfl_up_sync(0xffffffffu, out_h, 1), f = __shfl_up_sync(0xffffffffu, out_f, 1);
                const uint32_t lt = next; /* thread k's column now is thread k - 1's a step ago */
                next = __shfl_up_sync(0xffffffffu, lt, 1);
                if (k == 0) {
                    up = g == 0 || j >= ncol ? zero : bottom_h[j];
                    f = g == 0 || j >= ncol ? border_gap : bottom_f[j];
                    next = j + 1 < ncol ? letters_of(j + 1) : pad | pad << 8;
                }
                if (j < 0 || j >= ncol) continue; /* (the shuffles above are every thread's, every step) */
                const uint32_t *wl = prof_lo + (lt & 0xff) * (R / 4) * 32 + k, *wh = prof_hi + (lt >> 8) * (R / 4) * 32 + k;
                V colmax, f_last; /* (f_last: the saved rows' of the warp-rows engine, unused here) */
                const V diag = prev_up;
                prev_up = up;
                /* the warp-rows engine's column, its floor 0: H = max(diag + s, 0, E, F) */
                pw_swr_column<PwSwrPairs, R>(h, e, f, diag, colmax, f_last, wl, wh, go, minus_ge, zero);
                out_h = h[R - 1];
                out_f = f;
                if (k == 31 && g + 1 < segments) { /* the next segment's thread 0 reads it 31 steps on */
                    bottom_h[j] = out_h;
                    bottom_f[j] = out_f;
                }
                const uint32_t reached = __vcmpges2(colmax, reach);
                if (reached) { /* rare once the bests are found */
#pragma unroll
                    for (int half = 0; half < 2; half++) {
                        const pw_pairs16_pair &p = half ? hi : lo;
                        pw_pairs16_best &bh = half ? best_hi : best_lo;
                        if (!(half ? reached >> 16 : reached & 0xffff) || j >= p.m) continue;
                        const int32_t v = pw_pairs16_half(colmax, half);
                        int found = -1;
#pragma unroll
                        for (int r = R - 1; r >= 0; r--)
                            if (pw_pairs16_half(h[r], half) == v && row0 + r < p.n) found = r;
                        if (found >= 0) bh.offer(v, row0 + found, j);
                    }
                    reach = (uint32_t)max(best_lo.score, 1) & 0xffff | (uint32_t)max(best_hi.score, 1) << 16;
                }
            }
            __syncwarp(); /* (the bottom row's writes before the next segment's reads) */
        }
        best_lo.warp_reduce();
        best_hi.warp_reduce();
        /* thread 0 writes the low pair's, thread 1 the high one's (fields picked by value: a
         * reference picked by k put both bests in local memory) */
        const int64_t t = k ? hi.t : lo.t;
        const int32_t score = k ? best_hi.score : best_lo.score, bi = k ? best_hi.i : best_lo.i, bj = k ? best_hi.j : best_lo.j;
        if (k < 2 && t >= 0) {
            const bool wrapped = score > args.limit16;
            args.score[t] = wrapped ? -1 : score;
            args.end_a[t] = score > 0 && !wrapped ? bi : -1;
            args.end_b[t] = score > 0 && !wrapped ? bj : -1;
        }
    }
}

#endif
