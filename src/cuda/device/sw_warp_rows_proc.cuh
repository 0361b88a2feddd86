/*
 * sw_warp_rows_proc.cuh - one long Smith-Waterman-Gotoh pair the way the database search runs
 * many short ones (batch_sw_proc.cuh): the engine pw_sw takes on the GPU for pairs long enough to
 * fill it (src/cuda/sw_warp_rows.cu says when), measured at 2.4 TCUPS on the whole-genome pair
 * against the tile engines' 1.17 (docs/PERFORMANCE.md, issue 28).
 *
 * A warp owns a tile-row of 32 R rows (R a thread, in registers) and streams every column
 * through it: at step s thread k computes column s - k, taking H and F of the row above its
 * first from thread k - 1 by a shuffle.  Persistent warps take tile-rows t = w, w + W, w + 2W, ...
 * (W warps, all resident: a cooperative launch).  A tile-row's last row goes to the next
 * tile-row's warp through global memory, published in chunks of 32 columns:
 *   prod[w], cons[w]: round * (m + 1) + columns written (thread 31) / read (thread 0) by the
 *     tile-row warp w holds in that round; monotone, release stores and acquire loads at GPU
 *     scope (memory.cuh).
 *   ring[w][RING]: (H, F) of warp w's tile-row's last row, by column mod RING; the writer waits
 *     until the reader has read the column RING before -- and, for its first columns, until the
 *     reader has entered this round (tools/sim_warp_rows.py plays the protocol out).
 *   full[round % 2][columns]: the last warp's tile-row hands over to warp 0's tile-row of the
 *     next round, which starts only when warp 0 has finished its current one: a whole row, no
 *     flow control (a ring there would hold every warp of a round back).
 * Every wait is bounded: a warp that sees no progress for the watchdog interval sets *error and
 * leaves, and so do the warps that wait on it (the host returns PW_ERR_TIMEOUT).
 *
 * The cell is the search's SHARED form (both gaps leaving a cell from one H - gap_open):
 *   H = max(0, Hdiag + s, E, F),  E' = max(E - ge, H - go),  F' = max(F - ge, H - go),
 * the textbook Gotoh's values (E and F of a cell are computed from its left and upper cells'
 * H, E, F: the same numbers, one step earlier).  The query's letters are a profile of signed
 * bytes per tile-row in shared memory (letters x R/4 words a thread); the padding letter and rows
 * past the query score -128.
 *
 * 16-bit pairs (PwSwrPairs): each 32-bit value holds two 16-bit lanes (Hopper's DPX s16x2): in
 * round r warp w runs tile-row tl = 2 W r + w in the low halves and th = tl + W in the high halves,
 * the high ones D columns behind (step-column c: low column c, high column c - D; columns outside
 * the matrix are the padding letter, which leaves a lane at the border's values).  Warp 0's row
 * above comes in two halves from warp W - 1's whole-row buffers: its low half (tile-row tl - 1,
 * warp W - 1's high half a round ago, complete) and its high half (tile-row th - 1, warp W - 1's
 * low half this round, D columns back).  Warp W - 1 lags warp 0 by 64 columns a warp or more when
 * it must (each reads the row above 33 ahead, published every 32 steps), so D = 64 W + 256 keeps
 * warp 0 from waiting on a warp that waits on it.
 *
 * The pairs keep every value offset by floor16 = -32768 + K (K = max(128, gap_open + gap_extend)):
 * a true 0 is stored as floor16, so H reaches 65535 - K - top before it can wrap, twice the plain
 * signed range (the genome pair's 49383 at 2/-3/5/2 fits).  H = max(diag + s, floor16, E, F) is
 * exact: diag >= floor16 and s >= -128 keep diag + s above -32768; E and F are not clamped, as in
 * the 32-bit cell, and stay >= floor16 - gap_open (tools/ and docs/DESIGN-NOTES.md: the algebra
 * checked against Gotoh).  A stored value above limit16 (32767 - top) may wrap a step later: it
 * sets *overflow, every warp leaves within 1024 columns, and the host runs the pair again with
 * 32-bit lanes.
 *
 * The end cell: a thread keeps its best (score, row, column) in the caller's coordinates (the
 * host may give the longer sequence the rows: `transposed`), ties to the smallest row, then the
 * smallest column (pw_sw's rule).  Each column's maximum over the thread's rows costs what the
 * bare score's running maximum did; only a column whose maximum reaches the thread's best looks
 * for the row (rare once a best is found).  Padding rows and columns never count.
 */
#ifndef PW_DEVICE_SW_WARP_ROWS_PROC_CUH
#define PW_DEVICE_SW_WARP_ROWS_PROC_CUH

#include "../../core/best_cell.h"
#include "../../core/fixed_width.h"
#include "memory.cuh"
#include "poll.cuh"

#define PW_SWR_THREADS 256
#define PW_SWR_BLOCK_WARPS (PW_SWR_THREADS / 32)
#define PW_SWR_RING 2048
#define PW_SWR_MAX_LETTERS 8 /* the alphabet and the padding letter (the profile in shared memory) */
#define PW_SWR_FULL 0xffffffffu
#define PW_SWR_FEED 32 /* columns a warp's feed holds: a chunk */
#ifndef PW_SWR_BLOCKS_PER_SM /* three blocks an SM: 80 registers a thread (bench/sw_warp_rows.cu tries 2) */
#define PW_SWR_BLOCKS_PER_SM 3
#endif

struct pw_swr_args {
    const uint32_t *profile; /* [tile-row][letter][R/4][32] words of four signed bytes (rows) */
    const uint8_t *b;        /* the columns' letter codes */
    int tile_rows;
    int n, m;                /* rows (those past n are padding) and columns */
    int letters;             /* the alphabet + 1: letter letters - 1 is the padding one */
    int gap_open, gap_extend;
    int warps;               /* W */
    int lag;                 /* pairs: D (0 for 32-bit lanes) */
    int2 *ring;              /* [W][RING] */
    int2 *full;              /* [2][m + lag] */
    unsigned *prod, *cons;   /* [W]; rounds x (m + lag + 1) stays below 2^32 (the host checks) */
    int transposed;          /* our rows are the caller's columns */
    int limit16;             /* pairs: a stored value above this may wrap a step later (*overflow set) */
    int floor16;             /* pairs: how a true 0 is stored (-32768 + K); 0 for 32-bit lanes */
    int *overflow;           /* (also looked at by the waits and every 1024 columns: set -- by a pairs
                                warp past its range, or by the host to cancel -- every warp leaves) */
    int4 *warp_best;         /* [W]: a warp's best (score, caller's row, caller's column) */
    int *error;              /* PW_CUDA_ERROR_TIMEOUT: every warp leaves */
    long long watchdog_ns;
    /* The alignment search's score pass (src/align/sw_strips.c, never transposed): H and F of rows
     * every - 1, 2 every - 1, ... (the first `slots`), slot k at k m; every a multiple of 32 R,
     * so each is a tile-row's last row, which thread 31 holds.  F is the tile engines' (the
     * vertical gap state of the cell itself), or linear_f for linear gaps (their cell keeps
     * none).  saved_h NULL: none. */
    int32_t *saved_h, *saved_f;
    int every, slots;
    int linear;
    int32_t linear_f;
    /* Several GPUs (the MULTI kernels; docs/DESIGN-NOTES.md, "Over several GPUs"): global round g
     * runs on GPU g mod gpus, this one being `gpu`; counters count global rounds.  in_full
     * ([2][m + lag], by this GPU's round parity) and *in_prod: the last round's row (the pairs: its
     * high halves), written by the previous GPU's wrap warp; out_full, out_prod: the next GPU's;
     * down_cons0: the next GPU's cons[0].  overflow and error are GPU 0's, for all. */
    int gpus, gpu;
    int2 *in_full, *out_full;
    unsigned *in_prod, *out_prod;
    const unsigned *down_cons0;
};

/* A block's dynamic shared memory: each warp's profile of its tile-row (the pairs: of two) and its
 * feed (pw_swr_feed_fill); the feeds follow the profiles. */
__host__ __device__ inline size_t pw_swr_smem_bytes(int letters, int r, bool pairs)
{
    return ((pairs ? 2 : 1) * (size_t)letters * (r / 4) * 32 * sizeof(uint32_t) + PW_SWR_FEED * sizeof(int4)) *
           PW_SWR_BLOCK_WARPS;
}

/* Thread 0's input a step, for the chunk of 32 columns from s (column s + q at q): the column's
 * letters and the row above's (H, F), as int4 (letters, H, F, 0), filled by the whole warp at
 * once (lane q the column s + q: coalesced loads, once a chunk) after the chunk's wait, and read
 * by thread 0 with one shared load a step.  Thread 0 loaded them itself a column ahead before:
 * about 15 instructions of every warp step (ncu: 200 a step, 78 the cell) and 3 live registers
 * in a loop at the 80-register cap (75 now); the genomes 6.55 -> 6.31 s on an H200 (2026-11-30,
 * bench/sw_warp_rows_ab.sh, two rounds). */
template <class Column>
__device__ __forceinline__ void pw_swr_feed_fill(int4 *feed, int k, int s, Column column)
{
    __syncwarp(); /* (thread 0 has read the last chunk's) */
    feed[k] = column(s + k);
    __syncwarp();
}

/* The warp waits until thread 0's and thread 31's counters reach what they need (poll.cuh's
 * warp-wide form; SYS0: thread 0's is written or read by another GPU).  false: the run is
 * abandoned -- no progress for the watchdog interval, here or in a warp this one waits on through
 * the error word, or the overflow word raised (the pairs' run is then over, or the host cancels). */
template <bool SYS0 = false>
__device__ __forceinline__ bool pw_swr_wait(const pw_swr_args &a, int k, const unsigned *p0, unsigned need0,
                                            const unsigned *p31, unsigned need31)
{
    return pw_poll_warp_counters<SYS0>(a.error, a.overflow, a.watchdog_ns, k, p0, need0, p31, need31);
}

/* The largest 16-bit value of either half of the warp's `seen` (every H it has made). */
__device__ __forceinline__ int pw_swr_warp_top16(uint32_t seen)
{
    for (int d = 16; d > 0; d /= 2) seen = __vmaxs2(seen, __shfl_xor_sync(PW_SWR_FULL, seen, d));
    return max((int)(int16_t)(seen & 0xffff), (int)(int16_t)(seen >> 16));
}

/* The pairs' overflow check, every 1024 step-columns: a warp whose values passed 16 bits raises the
 * flag; has any warp raised it (the pairs' run is then over)?  (A value grows by at most the top
 * score a step, so the first past limit16 has not wrapped yet, and `seen` keeps it; every padding
 * value is below a real one.)  Checked here
 * rather than where a column reaches the best: that form, with the best's threshold kept in a
 * register, cost 15% on the genomes (7.76 s against 6.77: bench/sw_warp_rows_ab.sh). */
__device__ __forceinline__ bool pw_swr_stopped(const pw_swr_args &a, int k, int s, uint32_t seen)
{
    if (s & 1023) return false;
    const int top = pw_swr_warp_top16(seen);
    if (k == 0 && top > a.limit16) atomicExch(a.overflow, 1);
    return __shfl_sync(PW_SWR_FULL, k == 0 ? *(volatile int *)a.overflow : 0, 0) != 0;
}

/* The 32-bit lanes' look at the overflow word every 1024 step-columns: the host raises it to cancel
 * (the pairs look at it in pw_swr_stopped). */
__device__ __forceinline__ bool pw_swr_flagged(const pw_swr_args &a, int k, int s)
{
    if (s & 1023) return false;
    return __shfl_sync(PW_SWR_FULL, k == 0 ? *(volatile int *)a.overflow : 0, 0) != 0;
}

/* Row b (0..3) of a profile word, sign-extended (PRMT with the sign-replicate bit). */
__device__ __forceinline__ int32_t pw_swr_score(uint32_t word, int b)
{
    const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b | 8) << 8 | (uint32_t)(b | 8) << 12;
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(word), "r"(0u), "r"(s));
    return (int32_t)r;
}

/* [score(row b, low letter) | score(row b, high letter)], each sign-extended to 16 bits. */
__device__ __forceinline__ uint32_t pw_swr_score_pair(uint32_t lo, uint32_t hi, int b)
{
    const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b + 4) << 8 | (uint32_t)((b + 4) | 8) << 12;
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));
    return r;
}

/* The lane arithmetic of the two kernels: 32-bit lanes (one cell a value), 16-bit pairs (two). */
struct PwSwr32 {
    typedef int32_t V;
    __device__ static V sub(V a, V b) { return a - b; }
    /* H = max(diag + s, 0, e, f) */
    __device__ static V cell(V diag, V s, V e, V f, V) { return __vimax3_s32_relu(diag + s, e, f); }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s32(a, b, c); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s32(a, b, c); }
    __device__ static V score(uint32_t lo, uint32_t, int b) { return pw_swr_score(lo, b); }
};
struct PwSwrPairs {
    typedef uint32_t V;
    __device__ static V sub(V a, V b) { return __vsub2(a, b); }
    /* H = max(diag + s, floor, e, f), every value stored offset by the floor (never wraps: above) */
    __device__ static V cell(V diag, V s, V e, V f, V floor)
    {
        return __vimax3_s16x2(__viaddmax_s16x2(diag, s, floor), e, f);
    }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s16x2(a, b, c); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s16x2(a, b, c); }
    __device__ static V score(uint32_t lo, uint32_t hi, int b) { return pw_swr_score_pair(lo, hi, b); }
};

__device__ __forceinline__ uint32_t pw_swr_splat16(int32_t x) { return (uint32_t)(x & 0xffff) * 0x10001u; }

/* One column through a thread's R rows: lo_words / hi_words are the profile words of this
 * column's letters (the same for 32-bit lanes); f comes in as the first row's F and leaves as the
 * next thread's; colmax receives the column's largest H (and the floor: a true 0), f_last the last
 * row's own F; returns the last row's H. */
template <class Ops, int R>
__device__ __forceinline__ typename Ops::V pw_swr_column(typename Ops::V (&h)[R], typename Ops::V (&e)[R],
                                                        typename Ops::V &f, typename Ops::V diag,
                                                        typename Ops::V &colmax, typename Ops::V &f_last,
                                                        const uint32_t *lo_words, const uint32_t *hi_words,
                                                        typename Ops::V go, typename Ops::V minus_ge,
                                                        typename Ops::V floor)
{
    typedef typename Ops::V V;
    colmax = floor;
#pragma unroll
    for (int q = 0; q < R / 4; q++) {
        const uint32_t wl = lo_words[q * 32], wh = hi_words[q * 32];
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int r = 4 * q + b;
            if (r == R - 1) f_last = f; /* (the last row's own F: the saved rows') */
            const V hn = Ops::cell(diag, Ops::score(wl, wh, b), e[r], f, floor);
            const V h_go = Ops::sub(hn, go);
            e[r] = Ops::add_max(e[r], minus_ge, h_go);
            f = Ops::add_max(f, minus_ge, h_go);
            diag = h[r];
            h[r] = hn;
            if (b & 1) colmax = Ops::max3(colmax, h[r - 1], hn);
        }
    }
    return h[R - 1];
}

/* The linear gap's column (gap_open == gap_extend == g): E of a cell is exactly its left H - g
 * and F its upper H - g (the shared form with go == ge: H >= E, F), so a thread keeps H alone and
 * a row's chain down the column is one instruction, H = max(up - g, x), x = max(diag + s, floor,
 * left - g) made off the chain; up comes in as the first row's upper H and the last row's H
 * leaves.  Three instructions a value and the score's permute, against the shared form's six
 * and a chain of three (bench/sw_warp_rows.cu --linear-cell measures both). */
template <class Ops, int R>
__device__ __forceinline__ typename Ops::V pw_swr_column_linear(typename Ops::V (&h)[R], typename Ops::V up,
                                                               typename Ops::V diag, typename Ops::V &colmax,
                                                               const uint32_t *lo_words, const uint32_t *hi_words,
                                                               typename Ops::V minus_g, typename Ops::V floor)
{
    typedef typename Ops::V V;
    colmax = floor;
#pragma unroll
    for (int q = 0; q < R / 4; q++) {
        const uint32_t wl = lo_words[q * 32], wh = hi_words[q * 32];
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int r = 4 * q + b;
            const V x = Ops::add_max(h[r], minus_g, Ops::add_max(diag, Ops::score(wl, wh, b), floor));
            const V hn = Ops::add_max(up, minus_g, x);
            diag = h[r];
            h[r] = hn;
            up = hn;
            if (b & 1) colmax = Ops::max3(colmax, h[r - 1], hn);
        }
    }
    return h[R - 1];
}

/* A thread's best cell so far, in the caller's coordinates. */
struct PwSwrBest {
    int32_t score;
    int32_t i, j;
    __device__ bool takes(int32_t s, int32_t ci, int32_t cj) const { return PW_BEST_CELL_BETTER(s, ci, cj, score, i, j); }
    __device__ void offer(int32_t s, int32_t ci, int32_t cj)
    {
        if (takes(s, ci, cj)) score = s, i = ci, j = cj;
    }
};

/* A column whose largest H (of one lane: `half` 0 the low 16 bits, 1 the high, -1 32-bit lanes)
 * reached the thread's best: its first row holding that H, if a real row, is offered.  top is the
 * true value, stored in h as top + bias (the pairs' floor16). */
template <int R, class V>
__device__ __forceinline__ void pw_swr_offer(PwSwrBest &best, const V (&h)[R], int half, int32_t top, int32_t bias,
                                             int row0, int n, int col, int transposed)
{
    int found = -1;
#pragma unroll
    for (int r = R - 1; r >= 0; r--) {
        const int32_t v = half < 0 ? (int32_t)h[r] : half ? (int32_t)(int16_t)((uint32_t)h[r] >> 16)
                                                          : (int32_t)(int16_t)((uint32_t)h[r] & 0xffff);
        if (v == top + bias && row0 + r < n) found = r;
    }
    if (found < 0) return;
    const int row = row0 + found;
    best.offer(top, transposed ? col : row, transposed ? row : col);
}

/* The saved-row slot tile-row t's last row goes to, or -1. */
template <int R>
__device__ __forceinline__ int pw_swr_slot(const pw_swr_args &a, int t)
{
    if (!a.saved_h || t >= a.tile_rows) return -1;
    const long long end = (long long)(t + 1) * 32 * R; /* its last row + 1 */
    return end % a.every == 0 && end / a.every - 1 < a.slots ? (int)(end / a.every - 1) : -1;
}

/* Thread 31's save of (H, F) at column j of slot `slot` (the last row of its tile-row). */
__device__ __forceinline__ void pw_swr_save(const pw_swr_args &a, int slot, int j, int32_t h, int32_t f)
{
    a.saved_h[(size_t)slot * a.m + j] = h;
    a.saved_f[(size_t)slot * a.m + j] = a.linear ? a.linear_f : f;
}

/* The warp's best by pw_sw's rule into warp_best[w]. */
__device__ __forceinline__ void pw_swr_publish_best(const pw_swr_args &a, int w, int k, PwSwrBest best)
{
    for (int d = 16; d > 0; d /= 2) {
        const int32_t s = __shfl_xor_sync(PW_SWR_FULL, best.score, d), i = __shfl_xor_sync(PW_SWR_FULL, best.i, d),
                      j = __shfl_xor_sync(PW_SWR_FULL, best.j, d);
        best.offer(s, i, j);
    }
    if (k == 0) a.warp_best[w] = make_int4(best.score, best.i, best.j, 0);
}

/* Loads tile-row t's profile (letters x R/4 x 32 words) into this warp's shared copy; past the
 * last tile-row, the padding letter's words everywhere. */
template <int R>
__device__ __forceinline__ void pw_swr_load_profile(const pw_swr_args &a, int t, int k, uint32_t *prof)
{
    const int words = a.letters * (R / 4) * 32;
    for (int i = k; i < words; i += 32) prof[i] = t < a.tile_rows ? a.profile[(size_t)t * words + i] : 0x80808080u;
}

/* A release store of a counter: at system scope where another GPU reads it. */
template <bool MULTI>
__device__ __forceinline__ void pw_swr_publish(unsigned *p, unsigned v, bool remote)
{
    if (MULTI && remote) pw_store_release_sys_u32(p, v);
    else pw_store_release_u32(p, v);
}

template <int R, bool SAVE = false, bool MULTI = false, bool LINEAR = false>
__global__ void __launch_bounds__(PW_SWR_THREADS, PW_SWR_BLOCKS_PER_SM) pw_swr_kernel(pw_swr_args a)
{
    /* (a linear run's ring and whole-row buffers carry no F: only linear kernels may read them) */
    static_assert(!(LINEAR && (SAVE || MULTI)), "the linear cell is for one GPU's score kernels");
    extern __shared__ uint32_t pw_swr_smem[];
    const int k = threadIdx.x & 31, wb = threadIdx.x / 32;
    const int w = blockIdx.x * PW_SWR_BLOCK_WARPS + wb, W = a.warps, m = a.m;
    const unsigned span = (unsigned)m + 1;
    const int32_t go = a.gap_open, minus_ge = -a.gap_extend;
    PwSwrBest best = {0, INT32_MAX, INT32_MAX};
    uint32_t *prof = pw_swr_smem + (size_t)wb * a.letters * (R / 4) * 32;
    int4 *feed = (int4 *)(pw_swr_smem + (size_t)PW_SWR_BLOCK_WARPS * a.letters * (R / 4) * 32) + wb * PW_SWR_FEED;
    const int G = MULTI ? a.gpus : 1; /* (rounds g = gpu, gpu + G, ...: global; one GPU: all) */
    for (int g = MULTI ? a.gpu : 0; (long long)g * W + w < a.tile_rows; g += G) {
        const int t = g * W + w;
        const unsigned base = (unsigned)g * span; /* this round's counter values start here */
        const bool has_above = t > 0, has_below = t + 1 < a.tile_rows, wrap = w == W - 1;
        /* the row above: the warp above's ring, or (warp 0) the last round's whole-row buffer --
         * on several GPUs this GPU's in_full, which the previous GPU's wrap warp writes -- read
         * at column & mask */
        const bool above_full = has_above && w == 0;
        const unsigned above_base = w > 0 ? base : base - span;
        const unsigned *above_prod = !has_above ? nullptr : w > 0 ? &a.prod[w - 1] : MULTI ? a.in_prod : &a.prod[W - 1];
        const int2 *above = !has_above  ? a.ring
                            : !above_full ? a.ring + (size_t)(w - 1) * PW_SWR_RING
                            : MULTI       ? a.in_full + (size_t)((g / G) % 2) * m
                                          : a.full + (size_t)((g - 1) % 2) * m;
        const int above_mask = above_full ? 0x7fffffff : PW_SWR_RING - 1;
        /* below: the next warp's ring, or (the wrap warp) the next round's whole-row buffer: its
         * reader's, by the reader's round parity */
        int2 *below = !wrap ? a.ring + (size_t)w * PW_SWR_RING
                      : MULTI ? a.out_full + (size_t)(((g + 1) / G) % 2) * m
                              : a.full + (size_t)(g % 2) * m;
        unsigned *below_prod = MULTI && wrap ? a.out_prod : &a.prod[w];
        const int below_mask = wrap ? 0x7fffffff : PW_SWR_RING - 1;
        /* that whole-row buffer was read by its warp 0 in round g + 1 - 2G: done? */
        if (has_below && wrap && g >= 2 * G) {
            const bool ok = MULTI ? pw_swr_wait<true>(a, k, a.down_cons0, (unsigned)(g + 2 - 2 * G) * span - 1, nullptr, 0)
                                  : pw_swr_wait(a, k, nullptr, 0, &a.cons[0], base - 1);
            if (!ok) return;
        }
        pw_swr_load_profile<R>(a, t, k, prof);
        __syncwarp();
        const int row0 = t * 32 * R + k * R, slot = SAVE ? pw_swr_slot<R>(a, t) : -1;
        int32_t h[R], e[R];
#pragma unroll
        for (int r = 0; r < R; r++) h[r] = 0, e[r] = -go;
        int32_t out_h = 0, out_f = -go, prev_up = 0;
        uint32_t letter = 0; /* this thread's column's letter (thread 0: from the feed) */
        /* Unrolled 8 times as the pairs' loop below (why: there): the genomes in 32-bit lanes
         * 8.57 -> 8.03 s on an H200 (bench/sw_warp_rows_ab.sh, 2026-11-30; 80 registers, no
         * spill); the SAVE kernels stay rolled. */
#pragma unroll(SAVE ? 1 : 8)
        for (int s = 0; s < m + 31; s++) {
            if ((s & 31) == 0) { /* a chunk: publish, then wait for what the next 32 steps need */
                if (pw_swr_flagged(a, k, s)) return;
                if (k == 31 && has_below) pw_swr_publish<MULTI>(below_prod, base + (unsigned)min(m, max(0, s - 31)), wrap);
                if (k == 0 && has_above) pw_swr_publish<MULTI>(&a.cons[w], base + (unsigned)min(m, s), w == 0);
                /* thread 0 reads columns s .. s + 32 (one ahead); thread 31 writes s - 31 .. s, over
                 * the ring's column s - RING */
                const int free_from = s - PW_SWR_RING + 1;
                const unsigned need0 = above_base + (unsigned)min(m, s + 33), need31 = base + (unsigned)max(0, free_from);
                const unsigned *p31 = has_below && !wrap ? &a.cons[w + 1] : nullptr;
                if (!(MULTI && w == 0 ? pw_swr_wait<true>(a, k, above_prod, need0, p31, need31)
                                      : pw_swr_wait(a, k, above_prod, need0, p31, need31)))
                    return;
                pw_swr_feed_fill(feed, k, s, [&](int c) {
                    const int2 p = has_above && c < m ? __ldcg(&above[c & above_mask]) : make_int2(0, -go);
                    return make_int4(c < m ? (int)a.b[c] : 0, p.x, p.y, 0);
                });
            }
            const int j = s - k;
            int32_t up = __shfl_up_sync(PW_SWR_FULL, out_h, 1), f = LINEAR ? 0 : __shfl_up_sync(PW_SWR_FULL, out_f, 1);
            letter = __shfl_up_sync(PW_SWR_FULL, letter, 1); /* (thread k - 1's column a step ago) */
            if (k == 0) {
                const int4 v = feed[s & (PW_SWR_FEED - 1)];
                letter = (uint32_t)v.x, up = v.y, f = v.z;
            }
            if (j >= 0 && j < m) {
                const uint32_t *words = prof + letter * ((R / 4) * 32) + k;
                const int32_t diag = prev_up;
                prev_up = up;
                int32_t colmax, f_last = 0; /* (linear: the saved rows' F is a.linear_f) */
                if constexpr (LINEAR) {
                    out_h = pw_swr_column_linear<PwSwr32, R>(h, up, diag, colmax, words, words, minus_ge, 0);
                } else {
                    out_h = pw_swr_column<PwSwr32, R>(h, e, f, diag, colmax, f_last, words, words, go, minus_ge, 0);
                    out_f = f;
                }
                if (k == 31 && has_below) __stcg(&below[j & below_mask], make_int2(out_h, out_f));
                if (SAVE && k == 31 && slot >= 0) pw_swr_save(a, slot, j, out_h, f_last);
                if (colmax >= max(best.score, 1)) { /* (kept in a register instead: 0.9% slower) */
                    pw_swr_offer<R>(best, h, -1, colmax, 0, row0, a.n, j, a.transposed);
                }
            }
        }
        if (k == 31 && has_below) pw_swr_publish<MULTI>(below_prod, base + (unsigned)m, wrap);
        if (k == 0 && has_above) pw_swr_publish<MULTI>(&a.cons[w], base + (unsigned)m, w == 0);
        __syncwarp();
    }
    pw_swr_publish_best(a, w, k, best);
}

/* Warp 0's row above at step-column c: the low halves from a round ago's high halves at
 * step-column c + D (matrix column c: old_row, NULL in round 0), the high halves from this round's
 * low halves at c - D (matrix column c - D: now_row); the border outside the matrix. */
__device__ __forceinline__ int2 pw_swr_wrap_above(const pw_swr_args &a, const int2 *old_row, const int2 *now_row, int c,
                                                  bool hi_real, int2 border)
{
    const int M = a.m + a.lag;
    const int2 old = old_row && c + a.lag < M ? __ldcg(&old_row[c + a.lag]) : border;
    /* (a high half past the last tile-row reads nothing: no warp makes the row above it) */
    const int2 now = c - a.lag >= 0 && hi_real ? __ldcg(&now_row[c - a.lag]) : border;
    return make_int2((int)__byte_perm((uint32_t)old.x, (uint32_t)now.x, 0x5432),
                     (int)__byte_perm((uint32_t)old.y, (uint32_t)now.y, 0x5432));
}

template <int R, bool SAVE = false, bool MULTI = false, bool LINEAR = false>
__global__ void __launch_bounds__(PW_SWR_THREADS, PW_SWR_BLOCKS_PER_SM) pw_swr_pairs_kernel(pw_swr_args a)
{
    static_assert(!(LINEAR && (SAVE || MULTI)), "the linear cell is for one GPU's score kernels");
    extern __shared__ uint32_t pw_swr_smem[];
    const int k = threadIdx.x & 31, wb = threadIdx.x / 32;
    const int w = blockIdx.x * PW_SWR_BLOCK_WARPS + wb, W = a.warps, m = a.m, D = a.lag, M = m + D;
    const int pad = a.letters - 1, words = a.letters * (R / 4) * 32;
    const unsigned span = (unsigned)M + 1;
    /* (every value stored offset by floor16: a true 0 is `floor`) */
    const uint32_t go = pw_swr_splat16(a.gap_open), minus_ge = pw_swr_splat16(-a.gap_extend),
                   floor = pw_swr_splat16(a.floor16), border = pw_swr_splat16(a.floor16 - a.gap_open);
    const int2 border_pair = make_int2((int)floor, (int)border);
    uint32_t *prof_lo = pw_swr_smem + (size_t)wb * 2 * words, *prof_hi = prof_lo + words;
    int4 *feed = (int4 *)(pw_swr_smem + (size_t)PW_SWR_BLOCK_WARPS * 2 * words) + wb * PW_SWR_FEED;
    PwSwrBest best = {0, INT32_MAX, INT32_MAX};
    uint32_t seen = floor; /* every H's largest, lane by lane: for the overflow check */
    const int G = MULTI ? a.gpus : 1; /* (rounds g = gpu, gpu + G, ...: global; one GPU: all) */
    for (int g = MULTI ? a.gpu : 0; 2LL * W * g + w < a.tile_rows; g += G) {
        const int r = MULTI ? g / G : g; /* this GPU's round: its whole-row buffers' parity */
        const int tl = 2 * W * g + w, th = tl + W;
        const unsigned base = (unsigned)g * span;
        const bool has_below = tl + 1 < a.tile_rows, wrap = w == W - 1;
        int2 *below = wrap ? a.full + (size_t)(r % 2) * M : a.ring + (size_t)w * PW_SWR_RING;
        const int below_mask = wrap ? 0x7fffffff : PW_SWR_RING - 1;
        /* several GPUs: the wrap warp's high halves go to the next GPU too (the next round's) */
        int2 *below_next = MULTI && wrap && has_below ? a.out_full + (size_t)(((g + 1) / G) % 2) * M : nullptr;
        const int2 *above = w > 0 ? a.ring + (size_t)(w - 1) * PW_SWR_RING : a.full;
        /* warp 0's row above: the last round's high halves (old_row; on several GPUs the previous
         * GPU wrote them into in_full) and this round's low halves (now_row) */
        const int2 *old_row = g == 0 ? nullptr
                              : MULTI ? a.in_full + (size_t)(r % 2) * M
                                      : a.full + (size_t)((r - 1) % 2) * M;
        const int2 *now_row = a.full + (size_t)(r % 2) * M;
        /* the whole-row buffer of this round's parity was read by warp 0 a round ago (several
         * GPUs: two rounds of this GPU ago), and the next GPU's by its warp 0: done? */
        if (has_below && wrap && r >= 2) {
            bool ok = pw_swr_wait(a, k, nullptr, 0, &a.cons[0], MULTI ? (unsigned)(g - 2 * G + 1) * span - 1 : base - 1);
            if (MULTI && ok) ok = pw_swr_wait<true>(a, k, a.down_cons0, (unsigned)(g + 2 - 2 * G) * span - 1, nullptr, 0);
            if (!ok) return;
        }
        pw_swr_load_profile<R>(a, tl, k, prof_lo);
        pw_swr_load_profile<R>(a, th, k, prof_hi);
        __syncwarp();
        /* (a high half past the last tile-row has no rows: its row number is never formed, it could
         * pass 2^31 on the longest pairs) */
        const bool hi_real = th < a.tile_rows;
        const int row_lo = tl * 32 * R + k * R, row_hi = hi_real ? th * 32 * R + k * R : 0;
        const int slot_lo = SAVE ? pw_swr_slot<R>(a, tl) : -1, slot_hi = SAVE && hi_real ? pw_swr_slot<R>(a, th) : -1;
        uint32_t h[R], e[R];
#pragma unroll
        for (int q = 0; q < R; q++) h[q] = floor, e[q] = border;
        uint32_t out_h = floor, out_f = border, prev_up = floor;
        uint32_t letters = 0; /* this thread's step-column's two letters (thread 0: from the feed) */
        /* Unrolled: the new H of a row cannot take its old register (the row below still reads
         * the old one as its diagonal), so a rolled loop moves every H back at its end; unrolled,
         * the registers alternate instead.  The genomes 7.08 -> 6.52 s on an H200 unrolled 4 times
         * (bench/sw_warp_rows_ab.sh); with the feed, 8 times: 6.33 -> 5.72 s (80 registers, no
         * spill; 2 times: 6.45 s).  The alignment's SAVE kernels (R = 16) stay rolled: unrolled
         * they spill. */
#pragma unroll(SAVE ? 1 : 8)
        for (int s = 0; s < M + 31; s++) {
            if ((s & 31) == 0) {
                if (pw_swr_stopped(a, k, s, seen)) return;
                if (k == 31 && has_below) {
                    pw_store_release_u32(&a.prod[w], base + (unsigned)min(M, max(0, s - 31)));
                    if (MULTI && below_next) pw_store_release_sys_u32(a.out_prod, base + (unsigned)min(M, max(0, s - 31)));
                }
                if (k == 0) pw_swr_publish<MULTI>(&a.cons[w], base + (unsigned)min(M, s), w == 0);
                const int free_from = s - PW_SWR_RING + 1;
                /* thread 0: warp w - 1 this round, or (warp 0) warp W - 1 this round D back (which
                 * on one GPU also means its last round is complete), else warp W - 1 a round ago D
                 * ahead; on several GPUs the last round's writer is the previous GPU's: waited on
                 * first, whenever there is one */
                if (MULTI && w == 0 && g > 0 &&
                    !pw_swr_wait<true>(a, k, a.in_prod, base - span + (unsigned)min(M, s + 33 + D), nullptr, 0))
                    return;
                const unsigned *p0 = nullptr;
                unsigned need0 = 0;
                if (w > 0) p0 = &a.prod[w - 1], need0 = base + (unsigned)min(M, s + 33);
                else if (s + 33 - D > 0 && hi_real) p0 = &a.prod[W - 1], need0 = base + (unsigned)min(M, s + 33 - D);
                else if (!MULTI && r > 0) p0 = &a.prod[W - 1], need0 = base - span + (unsigned)min(M, s + 33 + D);
                if (!pw_swr_wait(a, k, p0, need0, has_below && !wrap ? &a.cons[w + 1] : nullptr,
                                 base + (unsigned)max(0, free_from)))
                    return;
                /* step-column c: the low letter column c's, the high one column c - D's */
                pw_swr_feed_fill(feed, k, s, [&](int c) {
                    const int hi = c - D;
                    const uint32_t two = (c < m ? a.b[c] : pad) | (uint32_t)(hi >= 0 && hi < m ? a.b[hi] : pad) << 8;
                    const int2 p = c >= M  ? border_pair
                                   : w > 0 ? __ldcg(&above[c & (PW_SWR_RING - 1)])
                                           : pw_swr_wrap_above(a, old_row, now_row, c, hi_real, border_pair);
                    return make_int4((int)two, p.x, p.y, 0);
                });
            }
            const int c = s - k; /* this thread's step-column */
            uint32_t up = __shfl_up_sync(PW_SWR_FULL, out_h, 1), f = LINEAR ? 0u : __shfl_up_sync(PW_SWR_FULL, out_f, 1);
            letters = __shfl_up_sync(PW_SWR_FULL, letters, 1); /* (thread k - 1's step-column a step ago) */
            if (k == 0) {
                const int4 v = feed[s & (PW_SWR_FEED - 1)];
                letters = (uint32_t)v.x, up = (uint32_t)v.y, f = (uint32_t)v.z;
            }
            if (c >= 0 && c < M) {
                const uint32_t *lo_words = prof_lo + (letters & 0xff) * ((R / 4) * 32) + k;
                const uint32_t *hi_words = prof_hi + (letters >> 8) * ((R / 4) * 32) + k;
                const uint32_t diag = prev_up;
                prev_up = up;
                uint32_t colmax, f_last = 0; /* (linear: the saved rows' F is a.linear_f) */
                if constexpr (LINEAR) {
                    out_h = pw_swr_column_linear<PwSwrPairs, R>(h, up, diag, colmax, lo_words, hi_words, minus_ge, floor);
                } else {
                    out_h = pw_swr_column<PwSwrPairs, R>(h, e, f, diag, colmax, f_last, lo_words, hi_words, go, minus_ge,
                                                          floor);
                    out_f = f;
                }
                if (k == 31 && has_below) __stcg(&below[c & below_mask], make_int2((int)out_h, (int)out_f));
                if (MULTI && k == 31 && below_next) __stcg(&below_next[c], make_int2((int)out_h, (int)out_f));
                if (SAVE && k == 31 && slot_lo >= 0 && c < m)
                    pw_swr_save(a, slot_lo, c, (int16_t)(out_h & 0xffff) - a.floor16, (int16_t)(f_last & 0xffff) - a.floor16);
                if (SAVE && k == 31 && slot_hi >= 0 && c - D >= 0 && c - D < m)
                    pw_swr_save(a, slot_hi, c - D, (int16_t)(out_h >> 16) - a.floor16, (int16_t)(f_last >> 16) - a.floor16);
                seen = __vmaxs2(seen, colmax);
                if (__vcmpges2(colmax, pw_swr_splat16(max(best.score, 1) + a.floor16))) { /* a lane reached the best */
                    const int32_t lo = (int16_t)(colmax & 0xffff) - a.floor16, hi = (int16_t)(colmax >> 16) - a.floor16;
                    if (lo >= max(best.score, 1) && c < m)
                        pw_swr_offer<R>(best, h, 0, lo, a.floor16, row_lo, a.n, c, a.transposed);
                    if (hi >= max(best.score, 1) && hi_real && c - D >= 0 && c - D < m)
                        pw_swr_offer<R>(best, h, 1, hi, a.floor16, row_hi, a.n, c - D, a.transposed);
                }
            }
        }
        if (k == 31 && has_below) {
            pw_store_release_u32(&a.prod[w], base + (unsigned)M);
            if (MULTI && below_next) pw_store_release_sys_u32(a.out_prod, base + (unsigned)M);
        }
        if (k == 0) pw_swr_publish<MULTI>(&a.cons[w], base + (unsigned)M, w == 0);
        __syncwarp();
    }
    const int top = pw_swr_warp_top16(seen); /* (the last columns since a check) */
    if (k == 0 && top > a.limit16) atomicExch(a.overflow, 1);
    pw_swr_publish_best(a, w, k, best);
}

/* The profile: word ((t letters + c) R/4 + q) 32 + k holds, byte b, the score of row
 * t 32 R + k R + 4 q + b against letter c (-128 for the padding letter and rows past n).
 * table: [a's letter][b's letter], alphabet = letters - 1. */
template <int R>
__global__ void pw_swr_profile_kernel(const uint8_t *a, int n, const int32_t *table, int letters, int tile_rows,
                                      uint32_t *profile)
{
    const int64_t words = (int64_t)tile_rows * letters * (R / 4) * 32;
    for (int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; x < words; x += (int64_t)gridDim.x * blockDim.x) {
        const int k = (int)(x % 32), q = (int)(x / 32 % (R / 4)), c = (int)(x / (32 * (R / 4)) % letters);
        const int64_t t = x / (32 * (R / 4) * letters);
        uint32_t word = 0;
        for (int b = 0; b < 4; b++) {
            const int64_t row = t * 32 * R + k * R + 4 * q + b;
            const int s = c == letters - 1 || row >= n ? -128 : table[a[row] * (letters - 1) + c];
            word |= (uint32_t)(s & 0xff) << (8 * b);
        }
        profile[x] = word;
    }
}

#endif
