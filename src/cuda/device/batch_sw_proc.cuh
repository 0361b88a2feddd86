/*
 * batch_sw_proc.cuh - many small Smith-Waterman-Gotoh matrices at once (the database search,
 * include/peerwave_batch.h): one warp scores one query against one record (32-bit lanes) or
 * against two records at once (16-bit halves of a 32-bit word, Hopper's DPX s16x2 instructions).
 *
 * The query's rows go down the warp: thread k holds rows kR .. kR + R - 1 of a segment of 32R
 * rows in registers (H and E of each), and the record streams through it: at step s thread k
 * computes column s - k, taking H and F of the row above its first from thread k - 1 (a shuffle
 * of what that thread made one step earlier) and running F down its own R rows.  A segment takes
 * columns + 31 steps; a longer query takes several segments, the last row of one going to the
 * next through a per-warp buffer in global memory (bottom).  No shared state between warps: the
 * query's profile is read-only (staged once a block in shared memory where it fits).
 *
 * Scores come from the profile: for each letter c (the alphabet and a padding code) and each
 * query row, the signed byte score(row, c), four rows a 32-bit word, laid out [letter][segment]
 * [word of the thread's R rows][thread] so that a warp's 32 reads of a word are 32 banks.  One
 * byte-permute (PRMT, with sign replication) turns a word into a row's score -- or, for two
 * records, the row's scores against both letters, packed as two 16-bit halves.
 *
 * 16-bit halves wrap (DPX s16x2 arithmetic is modular), so they are used only where nothing else
 * can: every value stays above -16384 - (gap open + gap extend + 128) (E and F fall from at least
 * -gap_open), and a value passes 32767 only from a cell whose diagonal H exceeds 32767 - max
 * score, which is then a best score above args.limit16: such a record is reported as -1 and
 * scored again with 32-bit cells by the host.  The padding code scores -128 against every row:
 * a padding cell's H is the max of 0, E and F, which only fall from cells before it.
 */
#ifndef PW_DEVICE_BATCH_SW_PROC_CUH
#define PW_DEVICE_BATCH_SW_PROC_CUH

#ifndef PW_BATCH_UNROLL /* the column loop's unroll, 0: the compiler's (bench/batch_unroll.sh measures it) */
#define PW_BATCH_UNROLL 0
#endif
static constexpr int pw_batch_unroll = PW_BATCH_UNROLL; /* (a pragma's argument is not macro-expanded) */

#include "../../core/fixed_width.h"
#include "prmt.cuh"

struct pw_batch_sw_args {
    const uint32_t *profile; /* (letters) x segments x (R / 4) x 32 words of signed byte scores */
    int64_t profile_words;
    int stage;               /* 1: copy the profile into shared memory first (it fits; the host
                              * then launches the Staged kernel) */
    int segments;
    int64_t letter_words;    /* words a letter: segments x R / 4 x 32 */
    const uint8_t *codes;    /* the records' letter codes, back to back */
    const int64_t *rec_at;   /* per record: its first code; item i holds records lanes i .. */
    const int32_t *rec_len;  /* per record: its length (longest first: an item's first is its longest) */
    int64_t records;
    int64_t items;           /* records / lanes, rounded up */
    uint32_t pad;            /* the padding code (a record shorter than its item's first) */
    int32_t gap_open, gap_extend;
    uint32_t *bottom;        /* per warp of the grid: H then F of a segment's last row, 2 x stride */
    int64_t bottom_stride;
    int32_t *scores;         /* per item x lanes: the best score (16-bit: -1 where it may have wrapped) */
    int32_t limit16;         /* 16-bit lanes: a best above this may have wrapped */
};

/* One 32-bit value a cell: a warp an alignment. */
struct pw_batch_lanes32 {
    typedef int32_t V;
    static constexpr int lanes = 1;
    __device__ static V splat(int32_t x) { return x; }
    __device__ static V neg_inf() { return -(1 << 29); }
    __device__ static V add(V a, V b) { return a + b; }
    __device__ static V sub(V a, V b) { return a - b; }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s32(a, b, c); }  /* max(a + b, c) */
    __device__ static V max3_relu(V a, V b, V c) { return __vimax3_s32_relu(a, b, c); } /* max(a, b, c, 0) */
    __device__ static V max_relu(V a, V b) { return __vimax_s32_relu(a, b); }            /* max(a, b, 0) */
    __device__ static V max(V a, V b) { return a > b ? a : b; }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s32(a, b, c); }
    /* the letter codes of column j: the record's */
    __device__ static uint32_t letters(const uint8_t *ra, const uint8_t *, int, int j, uint32_t)
    {
        return ra[j];
    }
    __device__ static uint32_t letter(uint32_t l, int) { return l; }
    /* row b's score (b = 0..3 in the word), sign-extended: PRMT with the sign-replicate bit */
    __device__ static V score(uint32_t wa, uint32_t, int b)
    {
        const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b | 8) << 8 | (uint32_t)(b | 8) << 12;
        return (V)pw_prmt(wa, 0, s);
    }
    __device__ static V warp_max(V v)
    {
        for (int d = 16; d > 0; d /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
        return v;
    }
    __device__ static int32_t lane_score(V v, int) { return v; }
};

/* Two 16-bit values a word: a warp two alignments (two records of about the same length). */
struct pw_batch_lanes16x2 {
    typedef uint32_t V;
    static constexpr int lanes = 2;
    __device__ static V splat(int32_t x) { return (uint32_t)(x & 0xffff) * 0x10001u; }
    __device__ static V neg_inf() { return splat(-16384); }
    __device__ static V add(V a, V b) { return __vadd2(a, b); }
    __device__ static V sub(V a, V b) { return __vsub2(a, b); }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s16x2(a, b, c); }
    __device__ static V max3_relu(V a, V b, V c) { return __vimax3_s16x2_relu(a, b, c); }
    __device__ static V max_relu(V a, V b) { return __vimax_s16x2_relu(a, b); }
    __device__ static V max(V a, V b) { return __vmaxs2(a, b); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s16x2(a, b, c); }
    /* both records' letters of column j (the second: padding past its end), a byte each */
    __device__ static uint32_t letters(const uint8_t *ra, const uint8_t *rb, int lb, int j, uint32_t pad)
    {
        return (uint32_t)ra[j] | (j < lb ? (uint32_t)rb[j] : pad) << 8;
    }
    __device__ static uint32_t letter(uint32_t l, int half) { return half ? l >> 8 : l & 0xff; }
    /* [score(row b, a's letter), score(row b, b's letter)], each sign-extended to 16 bits */
    __device__ static V score(uint32_t wa, uint32_t wb, int b)
    {
        const uint32_t s = (uint32_t)b | (uint32_t)(b | 8) << 4 | (uint32_t)(b + 4) << 8 | (uint32_t)((b + 4) | 8) << 12;
        return pw_prmt(wa, wb, s);
    }
    __device__ static V warp_max(V v)
    {
        for (int d = 16; d > 0; d /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
        return v;
    }
    __device__ static int32_t lane_score(V v, int half) { return (int32_t)(int16_t)(half ? v >> 16 : v & 0xffff); }
};

/* How a cell's gaps are computed (the host's choice; measured in PERFORMANCE.md):
 *
 * PW_BATCH_FORM_SHARED: both gaps leaving a cell come from one H - gap_open, made once the cell's
 *   H is known: E(t, j+1) = max(E(t, j) - ge, H(t, j) - go) and F(t+1, j) = max(F(t, j) - ge,
 *   H(t, j) - go).  Five instructions a word of two cells (H, H - go, E, F, half the best), the
 *   fewest: the chain down a thread's rows is three (H, H - go, F).
 * PW_BATCH_FORM_SHORT (gap_open >= gap_extend only): a row's F from the row above's M = max(D, E,
 *   0) (D = diagonal + score) instead of its H: F_t = max(F_{t-1} - ge, H_{t-1} - go) and H_{t-1} =
 *   max(M_{t-1}, F_{t-1}) give F_t = max(F_{t-1} - ge, M_{t-1} - go, F_{t-1} - go), and F_{t-1} - go
 *   <= F_{t-1} - ge.  M does not wait on F, so the chain down a thread's rows is one instruction a
 *   row, for seven a word.
 * (A third form, each gap from its own H - go before the cell's H, measured slower than both at
 * every query length: docs/bench/batch_forms_h200_2026-11-28_8c6ecaf.txt.)  On an H200 SHARED and
 * SHORT are level (within 4% either way by query length); SHARED is the default.
 *
 * SHARED hands the next row its F already made (thread k + 1 and the bottom row get F(t + 1, j));
 * the others hand over F(t, j). */
enum { PW_BATCH_FORM_SHORT = 1, PW_BATCH_FORM_SHARED = 2 };

/* The query's profile staged in shared memory (pw_batch_sw_args.stage). */
extern __shared__ uint32_t pw_batch_profile[];

/* Offsets into the profile: 32-bit where it is staged (it fits in shared memory), so that a
 * step's loads are shared-memory loads from a 32-bit address and an immediate; else 64-bit. */
template <bool Staged> struct pw_batch_offset { typedef int64_t type; };
template <> struct pw_batch_offset<true> { typedef int32_t type; };

/* One item (a record, or two) against the whole query, by one warp.  Columns are ints (a record
 * the kernels take has at most PW_BATCH_GPU_MAX_COLUMNS), so the step's bounds are 32-bit tests. */
template <class L, int R, int Form, bool Staged>
__device__ __forceinline__ void pw_batch_sw_item(const pw_batch_sw_args &a, int64_t item, uint32_t *bottom)
{
    typedef typename pw_batch_offset<Staged>::type Off;
    typedef typename L::V V;
    static_assert(R % 4 == 0, "four rows a profile word");
    const bool shared_form = Form == PW_BATCH_FORM_SHARED;
    const int k = threadIdx.x & 31;
    /* the item's records: the first is the longest (its length is the item's columns) */
    const int64_t r0 = item * L::lanes;
    const int ncol = a.rec_len[r0];
    const uint8_t *ra = a.codes + a.rec_at[r0];
    const bool second = L::lanes == 2 && r0 + 1 < a.records;
    const uint8_t *rb = second ? a.codes + a.rec_at[r0 + 1] : ra;
    const int lb = second ? a.rec_len[r0 + 1] : 0;
    const V go = L::splat(a.gap_open), minus_ge = L::splat(-a.gap_extend), zero = L::splat(0), neg = L::neg_inf();
    /* the gaps of row 0 and column 0 from the zero border: -go (SHARED's are made ahead), else -inf */
    const V border_gap = shared_form ? L::splat(-a.gap_open) : neg;
    V best = zero;
    for (int g = 0; g < a.segments; g++) {
        const Off seg = (Off)g * (R / 4) * 32 + k, letter_words = (Off)a.letter_words;
        V h[R], e[R];
#pragma unroll
        for (int t = 0; t < R; t++) {
            h[t] = zero; /* H(row, -1) */
            e[t] = border_gap;
        }
        V out_h = zero, out_f = border_gap; /* this thread's last row at its latest column */
        V prev_up = zero;                   /* H of the row above the first, one column back */
        uint32_t next = k == 0 ? L::letters(ra, rb, lb, 0, a.pad) : 0;
        /* (PW_BATCH_UNROLL: the column loop unrolled, so a row's new H and its old one, still the
         * next row's diagonal, alternate registers instead of R moves a column -- 8% on the
         * warp-rows engine's genomes; R = 16 stays rolled, where it spills) */
#if PW_BATCH_UNROLL > 0
#pragma unroll(R >= 16 ? 1 : pw_batch_unroll)
#endif
        for (int s = 0; s < ncol + 31; s++) {
            const int j = s - k;
            /* the row above: thread k - 1's last row, made one step ago for this column */
            V up = __shfl_up_sync(0xffffffffu, out_h, 1), f = __shfl_up_sync(0xffffffffu, out_f, 1);
            /* the letters travel down the warp with the values: thread k's column now is thread
             * k - 1's one step ago; thread 0 reads the next one ahead */
            const uint32_t lt = next;
            next = __shfl_up_sync(0xffffffffu, lt, 1);
            if (k == 0) {
                up = g == 0 || j >= ncol ? zero : (V)bottom[j];
                f = g == 0 || j >= ncol ? border_gap : (V)bottom[a.bottom_stride + j];
                next = j + 1 < ncol ? L::letters(ra, rb, lb, j + 1, a.pad) : 0;
            }
            if (j >= 0 && j < ncol) {
                const Off wa_at = seg + (Off)L::letter(lt, 0) * letter_words;
                const Off wb_at = seg + (Off)L::letter(lt, 1) * letter_words;
                V diag = prev_up, m_go = zero; /* m_go: the row above's M - gap_open (SHORT) */
                prev_up = up;
#pragma unroll
                for (int w = 0; w < R / 4; w++) {
                    const uint32_t wa = Staged ? pw_batch_profile[wa_at + w * 32] : __ldg(&a.profile[wa_at + w * 32]);
                    const uint32_t wb =
                        L::lanes == 2 ? (Staged ? pw_batch_profile[wb_at + w * 32] : __ldg(&a.profile[wb_at + w * 32])) : 0;
#pragma unroll
                    for (int b = 0; b < 4; b++) {
                        const int t = 4 * w + b;
                        const V s_t = L::score(wa, wb, b);
                        V hn;
                        if (Form == PW_BATCH_FORM_SHARED) {
                            hn = L::max3_relu(L::add(diag, s_t), e[t], f); /* f, e[t]: this cell's */
                            const V h_go = L::sub(hn, go);
                            e[t] = L::add_max(e[t], minus_ge, h_go); /* E(t, j + 1) */
                            f = L::add_max(f, minus_ge, h_go);       /* F(t + 1, j) */
                        } else { /* SHORT */
                            e[t] = L::add_max(e[t], minus_ge, L::sub(h[t], go));
                            const V m = L::max_relu(L::add(diag, s_t), e[t]);
                            f = L::add_max(f, minus_ge, t == 0 ? L::sub(up, go) : m_go);
                            m_go = L::sub(m, go);
                            hn = L::max(m, f);
                        }
                        diag = h[t];
                        h[t] = hn;
                        up = hn;
                        if (b & 1) best = L::max3(best, h[t - 1], hn); /* two rows an instruction */
                    }
                }
                out_h = up;
                out_f = f;
                if (k == 31 && g + 1 < a.segments) {
                    bottom[j] = (uint32_t)out_h;
                    bottom[a.bottom_stride + j] = (uint32_t)out_f;
                }
            }
        }
        __syncwarp(); /* the segment's last row (bottom) before the next segment reads it */
    }
    best = L::warp_max(best);
    if (k < L::lanes) {
        const int32_t v = L::lane_score(best, k);
        a.scores[item * L::lanes + k] = L::lanes == 2 && v > a.limit16 ? -1 : v;
    }
}

/* Items are claimed by warps in order (longest first: the host sorts them), a grid-stride loop. */
/* 256 threads, three blocks an SM: at most 80 registers a thread (82 left two blocks, 16 warps,
 * and the scheduler idle a third of the time: ncu, H100). */
template <class L, int R, int Form, bool Staged>
__global__ void __launch_bounds__(256, 3) pw_batch_sw_kernel(pw_batch_sw_args a)
{
    if (Staged) {
        for (int i = threadIdx.x; i < a.profile_words; i += blockDim.x) pw_batch_profile[i] = a.profile[i];
        __syncthreads();
    }
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
    uint32_t *bottom = a.bottom + warp * 2 * a.bottom_stride;
    for (int64_t item = warp; item < a.items; item += warps) pw_batch_sw_item<L, R, Form, Staged>(a, item, bottom);
}

#endif
