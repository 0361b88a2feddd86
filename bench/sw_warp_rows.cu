/*
 * sw_warp_rows.cu - an experiment for issue 28: one long Smith-Waterman pair (affine gaps, DNA)
 * computed the way the database search computes its many short ones (src/cuda/device/
 * batch_sw_proc.cuh), to see what that way gives on one huge matrix before the library is changed.
 *
 * A warp owns a tile-row of 32 R rows (R a thread, in registers) and streams every column through
 * it: at step s thread k computes column s - k, taking H and F of the row above its first from
 * thread k - 1 by a shuffle.  Persistent warps take tile-rows t = w, w + W, w + 2W, ... (W warps
 * in the grid, all resident: a cooperative launch).  A tile-row's last row goes to the next
 * tile-row's warp through global memory, published in chunks of 32 columns:
 *   prod[w], cons[w]: round * (m + 1) + columns written (thread 31) / read (thread 0) by the
 *     tile-row warp w holds in that round (t = round * W + w); monotone, release stores and
 *     acquire loads at GPU scope.
 *   ring[w][RING]: (H, F) of warp w's tile-row's last row, by column mod RING; the writer waits
 *     until the reader has read the column RING before -- and, for its first columns, until the
 *     reader has entered this round (it may still be reading the last round's columns from the
 *     ring: a race a review found, which the Python model now covers).  Both are in the same
 *     round, so neither waits on a later round.
 *   full[round % 2][m (+ D with --pairs)]: the last warp's tile-row hands over to warp 0's tile-row of the next
 *     round, which starts only when warp 0 has finished its current one: a whole row, no flow
 *     control (a ring there would hold every warp of the round back: each may run only RING
 *     columns ahead of the next).
 * The cell is the search's SHARED form (both gaps leaving a cell from one H - gap_open): with
 * 32-bit lanes five DPX instructions and a byte permute a cell.  The query's letters are a
 * profile of signed bytes per tile-row in shared memory; rows past the query score -128.
 *
 * What it tells: the rate this way reaches on one pair (GCUPS by CUDA events), against the peer
 * engine's 1.17 TCUPS on the genomes (H200).  Not the library's: no end cell, DNA only.  With
 * --pairs, 16-bit pairs: two tile-rows a warp, W apart, the second D columns behind (below).
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -Ibench [-DPW_R=16] [-DPW_BLOCKS_PER_SM=3] -o sw_warp_rows bench/sw_warp_rows.cu
 *   sw_warp_rows --shapes 40                      random shapes against a CPU Gotoh (the check;
 *                                                 a third on one or two blocks: several rounds)
 *   sw_warp_rows --random 262144 262144 [--runs 3]  random DNA, median of the runs
 *   sw_warp_rows A.fa B.fa [--match 1 --mismatch -3 --gap-open 5 --gap-extend 2]
 *   (--pairs: the 16-bit pairs kernel for any of these, below; --balance: the fewest warps for the
 *   rounds the whole GPU needs, so that no round runs a few tile-rows alone)
 * Scores as pw_sw's DNA scoring and bench/sw_reference.cu: A C G T (any case, U = T) match each
 * other, every other letter matches nothing; a gap of length L costs gap_open + (L - 1) gap_extend.
 */
#include <cuda/atomic>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "fasta_first.h"

#define CHECK(x) CUDA_CHECK("sw_warp_rows", x)

#ifndef PW_R /* rows a thread: -DPW_R=8 or 4 for more tile-rows on a shorter query (a multiple of 4) */
#define PW_R 16
#endif
enum { R = PW_R, ROWS = 32 * R, LETTERS = 6, PAD = 5, WORDS = R / 4, THREADS = 256, BLOCK_WARPS = THREADS / 32, RING = 2048 };
#define FULL 0xffffffffu
#ifndef PW_BLOCKS_PER_SM /* -DPW_BLOCKS_PER_SM=2 gives a thread 128 registers (3: 80, some spilled) */
#define PW_BLOCKS_PER_SM 3
#endif

struct run_args {
    const uint32_t *profile; /* [tile-row][letter][WORDS][32] words of four signed bytes (rows) */
    const uint8_t *b;        /* the columns' letters, 0 .. 4 */
    int tile_rows;
    int m;
    int gap_open, gap_extend;
    int warps;               /* W */
    int2 *ring;              /* [W][RING] */
    int2 *full;              /* [2][m + lag] */
    unsigned *prod, *cons;   /* [W]; rounds x (m + 1) stays below 2^32 (the host checks) */
    int *best;
    int lag;                 /* pairs: D, the columns the high halves run behind the low ones */
    int limit16;             /* pairs: a best above this may have wrapped (*overflow set) */
    int *overflow;
};

__device__ __forceinline__ unsigned load_acquire(const unsigned *p)
{
    return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*const_cast<unsigned *>(p))
        .load(cuda::memory_order_acquire);
}

__device__ __forceinline__ void store_release(unsigned *p, unsigned v)
{
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_release);
}

/* Row b (0..3) of a profile word, sign-extended (PRMT with the sign-replicate bit). */
__device__ __forceinline__ int32_t score_of(uint32_t word, int b)
{
    const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b | 8) << 8 | (uint32_t)(b | 8) << 12;
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(word), "r"(0u), "r"(s));
    return (int32_t)r;
}

/* The warp waits until thread 0's and thread 31's conditions hold (each polls its own counter;
 * a NULL counter holds already). */
__device__ __forceinline__ void wait_both(int k, const unsigned *p0, unsigned need0, const unsigned *p31, unsigned need31)
{
    for (;;) {
        bool ok = true;
        if (k == 0 && p0) ok = load_acquire(p0) >= need0;
        if (k == 31 && p31) ok = load_acquire(p31) >= need31;
        if (__all_sync(FULL, ok)) return;
        __nanosleep(64);
    }
}

/* The lane arithmetic of the two kernels: 32-bit lanes (one cell a value), 16-bit pairs (two). */
struct lanes32 {
    typedef int32_t V;
    __device__ static V add(V a, V b) { return a + b; }
    __device__ static V sub(V a, V b) { return a - b; }
    __device__ static V max3_relu(V a, V b, V c) { return __vimax3_s32_relu(a, b, c); }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s32(a, b, c); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s32(a, b, c); }
    __device__ static V score(uint32_t lo, uint32_t, int b) { return score_of(lo, b); }
};
struct pairs16 {
    typedef uint32_t V;
    __device__ static V add(V a, V b) { return __vadd2(a, b); }
    __device__ static V sub(V a, V b) { return __vsub2(a, b); }
    __device__ static V max3_relu(V a, V b, V c) { return __vimax3_s16x2_relu(a, b, c); }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s16x2(a, b, c); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s16x2(a, b, c); }
    __device__ static V score(uint32_t lo, uint32_t hi, int b); /* (below: score_pair) */
};

/* One column through a thread's R rows (the search's SHARED form: both gaps leaving a cell from
 * one H - gap_open): lo_words / hi_words are the profile words of this column's letters (the
 * same for 32-bit lanes); f comes in as the first row's F and leaves as the next thread's;
 * returns the last row's H. */
template <class Ops>
__device__ __forceinline__ typename Ops::V cell_column(typename Ops::V (&h)[R], typename Ops::V (&e)[R],
                                                      typename Ops::V &f, typename Ops::V diag, typename Ops::V &best,
                                                      const uint32_t *lo_words, const uint32_t *hi_words,
                                                      typename Ops::V go, typename Ops::V minus_ge)
{
    typedef typename Ops::V V;
#pragma unroll
    for (int q = 0; q < WORDS; q++) {
        const uint32_t wl = lo_words[q * 32], wh = hi_words[q * 32];
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int r = 4 * q + b;
            const V hn = Ops::max3_relu(Ops::add(diag, Ops::score(wl, wh, b)), e[r], f);
            const V h_go = Ops::sub(hn, go);
            e[r] = Ops::add_max(e[r], minus_ge, h_go);
            f = Ops::add_max(f, minus_ge, h_go);
            diag = h[r];
            h[r] = hn;
            if (b & 1) best = Ops::max3(best, h[r - 1], hn);
        }
    }
    return h[R - 1];
}

__global__ void __launch_bounds__(THREADS, PW_BLOCKS_PER_SM) sw_warp_rows_kernel(run_args a)
{
    __shared__ uint32_t profile[BLOCK_WARPS][LETTERS * WORDS * 32];
    const int k = threadIdx.x & 31, wb = threadIdx.x / 32;
    const int w = blockIdx.x * BLOCK_WARPS + wb, W = a.warps, m = a.m;
    const unsigned span = (unsigned)m + 1;
    const int32_t go = a.gap_open, minus_ge = -a.gap_extend;
    int32_t best = 0;
    uint32_t *prof = profile[wb];
    for (int t = w; t < a.tile_rows; t += W) {
        const unsigned base = (unsigned)(t / W) * span; /* this round's counter values start here */
        const bool has_above = t > 0, has_below = t + 1 < a.tile_rows, wrap = w == W - 1;
        /* the row above: the previous tile-row's storage (a ring, or the whole-row buffer after a
         * round's last warp), read at column & mask */
        const int above_w = has_above ? (t - 1) % W : 0;
        const unsigned above_base = has_above ? (unsigned)((t - 1) / W) * span : 0;
        const bool above_full = has_above && above_w == W - 1;
        const int2 *above = !has_above ? a.ring
                            : above_full ? a.full + (size_t)(((t - 1) / W) % 2) * m
                                         : a.ring + (size_t)above_w * RING;
        const int above_mask = above_full ? 0x7fffffff : RING - 1;
        int2 *below = wrap ? a.full + (size_t)((t / W) % 2) * m : a.ring + (size_t)w * RING;
        const int below_mask = wrap ? 0x7fffffff : RING - 1;
        /* the whole-row buffer of this round's parity was read by warp 0 a round ago: done? */
        if (has_below && wrap && t / W >= 2) wait_both(k, nullptr, 0, &a.cons[0], base - 1); /* (round - 1) span + m */
        for (int i = k; i < LETTERS * WORDS * 32; i += 32) prof[i] = a.profile[(size_t)t * LETTERS * WORDS * 32 + i];
        __syncwarp();
        int32_t h[R], e[R];
#pragma unroll
        for (int r = 0; r < R; r++) h[r] = 0, e[r] = -go;
        int32_t out_h = 0, out_f = -go, prev_up = 0;
        /* thread 0 reads a column ahead: its letter and the row above's (H, F) */
        uint32_t next = k == 0 && m > 0 ? a.b[0] : 0;
        int2 pre = make_int2(0, -go);
        for (int s = 0; s < m + 31; s++) {
            if ((s & 31) == 0) { /* a chunk: publish, then wait for what the next 32 steps need */
                if (k == 31 && has_below) store_release(&a.prod[w], base + (unsigned)min(m, max(0, s - 31)));
                if (k == 0 && has_above) store_release(&a.cons[w], base + (unsigned)min(m, s));
                /* thread 0 reads columns s .. s + 32 (one ahead); thread 31 writes s - 31 .. s, over
                 * the ring's column s - RING */
                const int free_from = s - RING + 1;
                wait_both(k, has_above ? &a.prod[above_w] : nullptr, above_base + (unsigned)min(m, s + 33),
                          has_below && !wrap ? &a.cons[(w + 1) % W] : nullptr, base + (unsigned)max(0, free_from));
                if (k == 0 && has_above && s == 0) pre = __ldcg(&above[0]); /* the first column's */
            }
            const int j = s - k;
            int32_t up = __shfl_up_sync(FULL, out_h, 1), f = __shfl_up_sync(FULL, out_f, 1);
            const uint32_t letter = next;
            next = __shfl_up_sync(FULL, letter, 1);
            if (k == 0) {
                up = has_above ? pre.x : 0;
                f = has_above ? pre.y : -go;
                next = j + 1 < m ? a.b[j + 1] : 0;
                if (has_above && j + 1 < m) pre = __ldcg(&above[(j + 1) & above_mask]);
            }
            if (j >= 0 && j < m) {
                const uint32_t *words = prof + letter * (WORDS * 32) + k;
                const int32_t diag = prev_up;
                prev_up = up;
                out_h = cell_column<lanes32>(h, e, f, diag, best, words, words, go, minus_ge);
                out_f = f;
                if (k == 31 && has_below) __stcg(&below[j & below_mask], make_int2(out_h, out_f));
            }
        }
        if (k == 31 && has_below) store_release(&a.prod[w], base + (unsigned)m);
        if (k == 0 && has_above) store_release(&a.cons[w], base + (unsigned)m);
        __syncwarp();
    }
    for (int d = 16; d > 0; d /= 2) best = max(best, __shfl_xor_sync(FULL, best, d));
    if (k == 0) atomicMax(a.best, best);
}

/* ---- 16-bit pairs: two tile-rows a warp ------------------------------------------------------ *
 * Each 32-bit value holds two 16-bit lanes (Hopper's DPX s16x2 instructions): in round r warp w
 * runs tile-row tl = 2 W r + w in the low halves and th = tl + W in the high halves, the high ones
 * D columns behind (step-column c: low column c, high column c - D; columns outside the matrix are
 * a padding letter scoring -128, which leaves a lane at the border's values).  Warp w + 1 reads
 * warp w's packed last rows as before.  Warp 0's row above comes in two halves from warp W - 1's
 * whole-row buffers: its low half (tile-row tl - 1, warp W - 1's high half a round ago, complete)
 * and its high half (tile-row th - 1, warp W - 1's low half this round, D columns back); the low
 * half of warp 0's step-column c is matrix column c, which warp W - 1's high half made at its
 * step-column c + D.  Warp
 * W - 1 lags warp 0 by 64 columns a warp or more when it must (each reads the row above 33 ahead,
 * published every 32 steps), so D = 64 W + 256 keeps warp 0 from waiting on a warp that waits on
 * it.  Scores past 16 bits wrap: a best above limit16 sets *overflow (rerun with 32-bit lanes). */
__device__ __forceinline__ uint32_t splat16(int32_t x) { return (uint32_t)(x & 0xffff) * 0x10001u; }

/* [score(row b, low letter) | score(row b, high letter)], each sign-extended to 16 bits. */
__device__ __forceinline__ uint32_t score_pair(uint32_t lo, uint32_t hi, int b)
{
    const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b + 4) << 8 | (uint32_t)((b + 4) | 8) << 12;
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}

__device__ __forceinline__ uint32_t pairs16::score(uint32_t lo, uint32_t hi, int b) { return score_pair(lo, hi, b); }

/* Warp 0's row above at step-column c: the low halves from a round ago's high halves at
 * step-column c + D (matrix column c), the high halves from this round's low halves at c - D
 * (matrix column c - D); the border outside the matrix or in round 0. */
__device__ __forceinline__ int2 wrap_above(const run_args &a, int r, int c, bool hi_real, int2 border)
{
    const int M = a.m + a.lag;
    const int2 old = r > 0 && c + a.lag < M ? __ldcg(&a.full[(size_t)((r - 1) % 2) * M + c + a.lag]) : border;
    /* (a high half past the last tile-row reads nothing: no warp makes the row above it) */
    const int2 now = c - a.lag >= 0 && hi_real ? __ldcg(&a.full[(size_t)(r % 2) * M + c - a.lag]) : border;
    return make_int2((int)__byte_perm((uint32_t)old.x, (uint32_t)now.x, 0x5432),
                     (int)__byte_perm((uint32_t)old.y, (uint32_t)now.y, 0x5432));
}

__global__ void __launch_bounds__(THREADS, PW_BLOCKS_PER_SM) sw_warp_rows_pairs_kernel(run_args a)
{
    __shared__ uint32_t profile[BLOCK_WARPS][2][LETTERS * WORDS * 32];
    const int k = threadIdx.x & 31, wb = threadIdx.x / 32;
    const int w = blockIdx.x * BLOCK_WARPS + wb, W = a.warps, m = a.m, D = a.lag, M = m + D;
    const unsigned span = (unsigned)M + 1;
    const uint32_t go = splat16(a.gap_open), minus_ge = splat16(-a.gap_extend), border = splat16(-a.gap_open);
    const int2 border_pair = make_int2(0, (int)border);
    uint32_t best = 0;
    for (int r = 0; 2 * W * r + w < a.tile_rows; r++) {
        const int tl = 2 * W * r + w, th = tl + W;
        const unsigned base = (unsigned)r * span;
        const bool has_below = tl + 1 < a.tile_rows, wrap = w == W - 1;
        int2 *below = wrap ? a.full + (size_t)(r % 2) * M : a.ring + (size_t)w * RING;
        const int below_mask = wrap ? 0x7fffffff : RING - 1;
        const int2 *above = w > 0 ? a.ring + (size_t)(w - 1) * RING : a.full;
        /* the whole-row buffer of this round's parity was read by warp 0 a round ago: done? */
        if (has_below && wrap && r >= 2) wait_both(k, nullptr, 0, &a.cons[0], base - 1);
        for (int i = k; i < LETTERS * WORDS * 32; i += 32) {
            profile[wb][0][i] = a.profile[(size_t)tl * LETTERS * WORDS * 32 + i];
            profile[wb][1][i] = th < a.tile_rows ? a.profile[(size_t)th * LETTERS * WORDS * 32 + i] : 0x80808080u;
        }
        __syncwarp();
        uint32_t h[R], e[R];
#pragma unroll
        for (int q = 0; q < R; q++) h[q] = 0, e[q] = border;
        uint32_t out_h = 0, out_f = border, prev_up = 0;
        /* thread 0 reads a step-column ahead: both letters and the row above */
        uint32_t next = 0;
        if (k == 0) next = (m > 0 ? a.b[0] : PAD) | (uint32_t)(D == 0 && m > 0 ? a.b[0] : PAD) << 8;
        int2 pre = border_pair;
        for (int s = 0; s < M + 31; s++) {
            if ((s & 31) == 0) {
                if (k == 31 && has_below) store_release(&a.prod[w], base + (unsigned)min(M, max(0, s - 31)));
                if (k == 0) store_release(&a.cons[w], base + (unsigned)min(M, s));
                const int free_from = s - RING + 1;
                /* thread 0: warp w - 1 this round, or (warp 0) warp W - 1 this round D back (which
                 * also means its last round is complete), else warp W - 1 a round ago D ahead */
                const unsigned *p0 = nullptr;
                unsigned need0 = 0;
                if (w > 0) p0 = &a.prod[w - 1], need0 = base + (unsigned)min(M, s + 33);
                else if (s + 33 - D > 0 && th < a.tile_rows) p0 = &a.prod[W - 1], need0 = base + (unsigned)min(M, s + 33 - D);
                else if (r > 0) p0 = &a.prod[W - 1], need0 = base - span + (unsigned)min(M, s + 33 + D);
                wait_both(k, p0, need0, has_below && !wrap ? &a.cons[w + 1] : nullptr, base + (unsigned)max(0, free_from));
                if (k == 0 && s == 0) pre = w > 0 ? __ldcg(&above[0]) : wrap_above(a, r, 0, th < a.tile_rows, border_pair);
            }
            const int c = s - k; /* this thread's step-column */
            uint32_t up = __shfl_up_sync(FULL, out_h, 1), f = __shfl_up_sync(FULL, out_f, 1);
            const uint32_t letters = next;
            next = __shfl_up_sync(FULL, letters, 1);
            if (k == 0) {
                up = (uint32_t)pre.x;
                f = (uint32_t)pre.y;
                const int lo = c + 1, hi = c + 1 - D;
                next = (lo < m ? a.b[lo] : PAD) | (uint32_t)(hi >= 0 && hi < m ? a.b[hi] : PAD) << 8;
                if (c + 1 < M) pre = w > 0 ? __ldcg(&above[(c + 1) & (RING - 1)]) : wrap_above(a, r, c + 1, th < a.tile_rows, border_pair);
            }
            if (c >= 0 && c < M) {
                const uint32_t *lo_words = profile[wb][0] + (letters & 0xff) * (WORDS * 32) + k;
                const uint32_t *hi_words = profile[wb][1] + (letters >> 8) * (WORDS * 32) + k;
                const uint32_t diag = prev_up;
                prev_up = up;
                out_h = cell_column<pairs16>(h, e, f, diag, best, lo_words, hi_words, go, minus_ge);
                out_f = f;
                if (k == 31 && has_below) __stcg(&below[c & below_mask], make_int2((int)out_h, (int)out_f));
            }
        }
        if (k == 31 && has_below) store_release(&a.prod[w], base + (unsigned)M);
        if (k == 0) store_release(&a.cons[w], base + (unsigned)M);
        __syncwarp();
    }
    for (int d = 16; d > 0; d /= 2) best = __vmaxs2(best, __shfl_xor_sync(FULL, best, d));
    const int lo = (int16_t)(best & 0xffff), hi = (int16_t)(best >> 16), top = max(lo, hi);
    if (k == 0) {
        atomicMax(a.best, top);
        if (top > a.limit16) atomicExch(a.overflow, 1);
    }
}

/* ---- host ---------------------------------------------------------------------------------- */

typedef struct params { int match, mismatch, open, extend; } params;

static int pair_score(const params *p, uint8_t x, uint8_t y) { return x < 4 && x == y ? p->match : p->mismatch; }

/* The textbook Gotoh in linear space (rows of a, columns of b): the best score. */
static int cpu_best(const uint8_t *a, int n, const uint8_t *b, int m, const params *p)
{
    int *H = (int *)calloc((size_t)m + 1, sizeof(int)), *F = (int *)malloc(sizeof(int) * ((size_t)m + 1));
    for (int j = 0; j <= m; j++) F[j] = -(1 << 29);
    int best = 0;
    for (int i = 1; i <= n; i++) {
        int diag = 0, left = 0, E = -(1 << 29);
        for (int j = 1; j <= m; j++) {
            E = (E - p->extend > left - p->open) ? E - p->extend : left - p->open;
            F[j] = (F[j] - p->extend > H[j] - p->open) ? F[j] - p->extend : H[j] - p->open;
            int h = diag + pair_score(p, a[i - 1], b[j - 1]);
            h = h > E ? h : E;
            h = h > F[j] ? h : F[j];
            h = h > 0 ? h : 0;
            diag = H[j];
            H[j] = h;
            left = h;
            best = h > best ? h : best;
        }
    }
    free(H);
    free(F);
    return best;
}

typedef struct device_run {
    int warps, grid;
    uint32_t *profile;
    uint8_t *b;
    int2 *ring, *full;
    unsigned *prod, *cons;
    int *best, *overflow;
} device_run;

/* The profile of a (its rows in tile-rows of ROWS, the kernel's layout). */
static uint32_t *make_profile(const uint8_t *a, int n, const params *p, int64_t tile_rows)
{
    const size_t words = (size_t)tile_rows * LETTERS * WORDS * 32;
    uint32_t *prof = (uint32_t *)malloc(words * sizeof(uint32_t));
    for (int64_t t = 0; t < tile_rows; t++)
        for (int c = 0; c < LETTERS; c++)
            for (int q = 0; q < WORDS; q++)
                for (int k = 0; k < 32; k++) {
                    uint32_t word = 0;
                    for (int b = 0; b < 4; b++) {
                        const int64_t row = t * ROWS + (int64_t)k * R + 4 * q + b;
                        const int s = row < n && c != PAD ? pair_score(p, a[row], (uint8_t)c) : -128;
                        word |= (uint32_t)(uint8_t)(int8_t)s << (8 * b);
                    }
                    prof[(((size_t)t * LETTERS + c) * WORDS + q) * 32 + k] = word;
                }
    return prof;
}

/* One run: the best score, and the kernel's seconds (CUDA events). */
static int max_blocks; /* --blocks B: at most B blocks (the shape check's rounds); 0: as many as fit */

static int balance;    /* --balance: as few warps as give the same rounds (every round full) */
static int last_warps, last_rounds; /* the last run's W and rounds, for the report */
static int pairs;      /* --pairs: the 16-bit pairs kernel (two tile-rows a warp) */
static int overflowed; /* the last pairs run's best may have wrapped */

static int run_gpu(const uint8_t *a, int n, const uint8_t *b, int m, const params *p, double *seconds)
{
    const int64_t tile_rows = (n + ROWS - 1) / ROWS;
    const void *kernel = pairs ? (const void *)sw_warp_rows_pairs_kernel : (const void *)sw_warp_rows_kernel;
    int dev = 0, sms = 0, per_sm = 0, coop = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    /* (pairs: a warp takes two tile-rows a round) */
    const int64_t warps_needed = pairs ? (tile_rows + 1) / 2 : tile_rows;
    int64_t grid = (int64_t)sms * per_sm, need = (warps_needed + BLOCK_WARPS - 1) / BLOCK_WARPS;
    if (grid > need) grid = need;
    if (max_blocks > 0 && grid > max_blocks) grid = max_blocks;
    if (grid < 1) grid = 1;
    if (balance) { /* the rounds the full grid needs, then the fewest blocks that still need no more */
        const int64_t per_warp = pairs ? 2 : 1, full_rounds = (tile_rows + per_warp * grid * BLOCK_WARPS - 1) /
                                                             (per_warp * grid * BLOCK_WARPS);
        grid = (tile_rows + per_warp * full_rounds * BLOCK_WARPS - 1) / (per_warp * full_rounds * BLOCK_WARPS);
    }
    device_run d;
    d.grid = (int)grid;
    d.warps = d.grid * BLOCK_WARPS;
    uint32_t *prof = make_profile(a, n, p, tile_rows);
    const size_t prof_words = (size_t)tile_rows * LETTERS * WORDS * 32;
    CHECK(cudaMalloc(&d.profile, prof_words * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d.profile, prof, prof_words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    free(prof);
    CHECK(cudaMalloc(&d.b, (size_t)m + 1));
    CHECK(cudaMemcpy(d.b, b, (size_t)m, cudaMemcpyHostToDevice));
    const int lag = pairs ? 64 * d.warps + 256 : 0; /* (bench/sw_warp_rows.cu, pairs: D) */
    const int64_t columns = (int64_t)m + lag;       /* step-columns */
    CHECK(cudaMalloc(&d.ring, sizeof(int2) * (size_t)d.warps * RING));
    CHECK(cudaMalloc(&d.full, sizeof(int2) * 2 * ((size_t)columns + 1)));
    CHECK(cudaMalloc(&d.prod, sizeof(unsigned) * (size_t)d.warps));
    CHECK(cudaMalloc(&d.cons, sizeof(unsigned) * (size_t)d.warps));
    CHECK(cudaMalloc(&d.best, sizeof(int)));
    CHECK(cudaMalloc(&d.overflow, sizeof(int)));
    CHECK(cudaMemset(d.overflow, 0, sizeof(int)));
    CHECK(cudaMemset(d.prod, 0, sizeof(unsigned) * (size_t)d.warps));
    CHECK(cudaMemset(d.cons, 0, sizeof(unsigned) * (size_t)d.warps));
    CHECK(cudaMemset(d.best, 0, sizeof(int)));
    const int64_t per_round = (pairs ? 2 : 1) * (int64_t)d.warps, rounds = (tile_rows + per_round - 1) / per_round;
    if ((rounds + 1) * (columns + 1) >= (int64_t)1 << 32 || tile_rows > INT32_MAX || columns > INT32_MAX / 2) {
        fprintf(stderr, "sw_warp_rows: %d x %d is too large for the counters\n", n, m);
        exit(1);
    }
    const int top_score = p->match > p->mismatch ? p->match : p->mismatch;
    const int limit16 = 32767 - (top_score > 0 ? top_score : 0);
    last_warps = d.warps, last_rounds = (int)rounds;
    run_args args = {d.profile, d.b, (int)tile_rows, m, p->open, p->extend, d.warps, d.ring, d.full, d.prod, d.cons,
                     d.best, lag, limit16, d.overflow};
    void *params_list[] = {&args};
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    if (!coop) { /* (every warp must be resident: a warp waits on its neighbours) */
        fprintf(stderr, "sw_warp_rows: the GPU has no cooperative launch\n");
        exit(1);
    }
    CHECK(cudaLaunchCooperativeKernel(kernel, dim3(d.grid), dim3(THREADS), params_list, 0, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    *seconds = ms / 1e3;
    int best = 0;
    CHECK(cudaMemcpy(&best, d.best, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&overflowed, d.overflow, sizeof(int), cudaMemcpyDeviceToHost));
    cudaFree(d.profile), cudaFree(d.b), cudaFree(d.ring), cudaFree(d.full), cudaFree(d.prod), cudaFree(d.cons);
    cudaFree(d.best), cudaFree(d.overflow);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    return best;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* A random pair: b random DNA, a copies stretches of b with mutations (so scores grow), or random. */
static void random_pair(uint8_t *a, int n, uint8_t *b, int m, int related)
{
    for (int j = 0; j < m; j++) b[j] = (uint8_t)(next_rand() % 4);
    for (int i = 0; i < n; i++) {
        if (related && m > 0 && next_rand() % 20) a[i] = b[(i + 7) % m];
        else a[i] = (uint8_t)(next_rand() % 5 == 4 && next_rand() % 16 == 0 ? 4 : next_rand() % 4);
    }
}

static int by_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    params p = {2, -1, 1, 1};
    int shapes = 0, runs = 1, n = 0, m = 0;
    const char *files[2] = {NULL, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) max_blocks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pairs")) pairs = 1;
        else if (!strcmp(argv[i], "--balance")) balance = 1;
        else if (!strcmp(argv[i], "--random") && i + 2 < argc) n = atoi(argv[++i]), m = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--match") && i + 1 < argc) p.match = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mismatch") && i + 1 < argc) p.mismatch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gap-open") && i + 1 < argc) p.open = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gap-extend") && i + 1 < argc) p.extend = atoi(argv[++i]);
        else if (!files[0]) files[0] = argv[i];
        else if (!files[1]) files[1] = argv[i];
        else {
            fprintf(stderr, "usage: sw_warp_rows --shapes N | --random N M [--runs K] | A.fa B.fa [scores] [--blocks B]\n");
            return 2;
        }
    }
    if (p.match > 127 || p.match < -128 || p.mismatch > 127 || p.mismatch < -127 || p.open < p.extend || p.extend < 0 ||
        p.open + p.extend > 8000) {
        fprintf(stderr, "sw_warp_rows: scores must fit a signed byte, gap open >= gap extend >= 0, open + extend <= 8000\n");
        return 2;
    }
    if (shapes > 0) { /* random shapes against the CPU: awkward sizes (1, primes, around 512) */
        static const int sizes[] = {1, 2, 31, 32, 33, 97, 511, 512, 513, 1000, 1031, 2047, 2048, 2049, 4099, 6007};
        const int count = (int)(sizeof sizes / sizeof sizes[0]);
        int bad = 0;
        for (int k = 0; k < shapes; k++) {
            int sn = k < count ? sizes[k] : sizes[next_rand() % count] + (int)(next_rand() % 300);
            const int sm = sizes[next_rand() % count] + (int)(next_rand() % 3000) + (k % 4 == 3 ? 9000 : 0);
            max_blocks = k % 3 == 2 ? 1 + (int)(next_rand() % 2) : 0; /* rounds, the wrap buffers, ring reuse */
            /* (pairs take two tile-rows a warp a round: rows for more than two rounds of 8 or 16 warps) */
            if (pairs && max_blocks) sn += 2 * 2 * BLOCK_WARPS * max_blocks * ROWS + (int)(next_rand() % ROWS);
            uint8_t *a = (uint8_t *)malloc((size_t)sn + 1), *b = (uint8_t *)malloc((size_t)sm + 1);
            random_pair(a, sn, b, sm, (int)(next_rand() % 2));
            params q = p;
            if (k % 3 == 1) q = (params){1, -3, 5, 2};
            double sec;
            const int got = run_gpu(a, sn, b, sm, &q, &sec), want = cpu_best(a, sn, b, sm, &q);
            if (got != want || (pairs && overflowed)) {
                bad++;
                printf("FAIL shape %d x %d (scores %d/%d/%d/%d, %d blocks): %d%s, the CPU %d\n", sn, sm, q.match,
                       q.mismatch, q.open, q.extend, max_blocks, got, pairs && overflowed ? " (flagged)" : "", want);
            }
            free(a);
            free(b);
        }
        max_blocks = 0;
        if (pairs) { /* a score past 16 bits must be flagged: a pair of equal sequences of 20000 */
            const int len = 20000;
            uint8_t *a = (uint8_t *)malloc(len), *b = (uint8_t *)malloc(len);
            random_pair(a, len, b, len, 0);
            memcpy(a, b, len);
            double sec;
            const params equal = {2, -1, 1, 1}; /* (the score is 40000, whatever the command line says) */
            run_gpu(a, len, b, len, &equal, &sec);
            const int want = cpu_best(a, len, b, len, &equal);
            shapes++;
            if (!(overflowed && want > 32767 - equal.match)) {
                bad++;
                printf("FAIL 20000 equal letters (score %d): overflow %sflagged\n", want, overflowed ? "" : "not ");
            }
            free(a);
            free(b);
        }
        printf("%d shapes: %d passed, %d failed\n", shapes, shapes - bad, bad);
        return bad ? 1 : 0;
    }
    uint8_t *a, *b;
    if (files[0] && files[1]) {
        int64_t la = 0, lb = 0;
        a = read_fasta(files[0], &la);
        b = read_fasta(files[1], &lb);
        if (!a || !b || la > INT32_MAX || lb > INT32_MAX) {
            fprintf(stderr, "sw_warp_rows: cannot read %s and %s (or one is longer than 2^31 letters)\n", files[0], files[1]);
            return 1;
        }
        n = (int)la, m = (int)lb;
    } else if (n > 0 && m > 0) {
        a = (uint8_t *)malloc((size_t)n + 1);
        b = (uint8_t *)malloc((size_t)m + 1);
        random_pair(a, n, b, m, 0);
    } else {
        fprintf(stderr, "usage: sw_warp_rows --shapes N | --random N M [--runs K] | A.fa B.fa [scores]\n");
        return 2;
    }
    double *t = (double *)malloc(sizeof(double) * (size_t)(runs > 0 ? runs : 1));
    int score = 0;
    for (int r = 0; r < runs; r++) score = run_gpu(a, n, b, m, &p, &t[r]);
    qsort(t, (size_t)runs, sizeof *t, by_double);
    const double median = t[runs / 2];
    printf("sw_warp_rows (R = %d, %s, %d warps, %d rounds): %d x %d, scores %d/%d/%d/%d: score %d%s, kernel %.3f s "
           "(median of %d), %.1f GCUPS\n",
           R, pairs ? "16-bit pairs" : "32-bit lanes", last_warps, last_rounds, n, m, p.match, p.mismatch, p.open, p.extend, score,
           pairs && overflowed ? " (16 bits may have wrapped: rerun without --pairs)" : "", median, runs,
           (double)n * m / median / 1e9);
    free(a);
    free(b);
    free(t);
    return 0;
}
