/*
 * sw_simd.h - Smith-Waterman-Gotoh on the CPU with vector tile processors (SSE4.1, AVX2,
 * AVX-512BW), run by the same peer and barrier engines as the scalar cells.
 *
 * Design (docs/PERFORMANCE.md has the measurements behind it).  A vector holds V consecutive
 * rows of a tile-row ("a group"), one cell of each, on an anti-diagonal: at step s lane l computes
 * column s - g - l (g = the group's first lane in its tile-row), which is exactly the hyper-tile
 * of the tiling (tiling_geometry.h), so the engines' tiles, progress rule and hand-over stay as
 * they are.  Up and diagonal come from the lane above one and two steps earlier (one lane shift
 * a step), left from the lane itself; lane 0's row above arrives, and the last lane's row leaves,
 * through a FIFO vector that is loaded and stored once every V steps, so the bus (the row
 * between groups and tile-rows) is touched by whole vectors.  The bus is kept in reversed column
 * order so that those loads and stores need no lane reversal.  Scores come from a profile of b
 * (one row of the score table per letter, also reversed): a lane's V steps of a block are V
 * contiguous words of its letter's row, so a block loads V of them and transposes (V x V, in
 * ops16_<set>.h); tables that only tell equal letters from unequal ones (DNA) compare codes
 * instead, a load, a compare and a blend a step.
 *
 * Lanes are 16 bits, relative to a base, so any score fits (no wider recomputation is ever
 * needed): neighbouring cells differ by at most d = gap_open + gap_extend + max |score|
 * (|H(i,j) - H(i-1,j)| <= gap_open + max score, and so along rows: the proof is in
 * docs/DESIGN-NOTES.md, "SW on CPU vectors"), so within a pass of P steps every real value is
 * within (P + 2GV + 2) d of the base cell (G groups in lockstep; the base is a cell the pass
 * computes from, or the boundary's 0 at a set's first pass) (one of the pass's own cells).  Passes are cut to keep that
 * under 32000; -32768 stands for -infinity (saturating arithmetic keeps it there), and values
 * leave a pass as 32-bit absolute numbers.  Parameters that leave a pass shorter than V steps
 * (d of about 110 and more at 32 lanes, 220 at 16, 430 at 8) take the widest narrower set whose
 * passes hold them, or the scalar cells.
 */
#ifndef PW_SW_SIMD_H
#define PW_SW_SIMD_H

#include <stdint.h>

#include "peerwave.h"
#include "../src/core/tiling.h"

typedef void (*pw_sw_offer_fn)(void *ctx, int worker, int32_t score, int64_t i, int64_t j);
/* The score of the worker's best cell so far (cells below it need no position). */
typedef int32_t (*pw_sw_threshold_fn)(void *ctx, int worker);

/* The longest pass, in steps: bounds the per-block state a pass keeps (sw_simd_kernel.h), which
 * lives in a per-worker scratch of PW_SW_SIMD_SCRATCH bytes (not on the stack: it is 40-74 KB). */
#define PW_SW_SIMD_MAX_PASS 2048
#define PW_SW_SIMD_SCRATCH (80 * 1024)
/* Groups of V rows each processor runs in lockstep (its SW_GROUPS), measured on an AMD EPYC
 * (Zen 5, family 26) with bench_cpu_simd: AVX-512 2 -> 4 groups 13.3 -> 16.5 GCUPS a core, AVX2 1 -> 4
 * 3.3 -> 6.7, SSE4.1 1 -> 2 2.5 -> 3.7 (16 registers: more spill). */
#define PW_SW_SIMD_GROUPS_SSE41 2
#define PW_SW_SIMD_GROUPS_AVX2 4
#define PW_SW_SIMD_GROUPS_AVX512 4
#define PW_SW_SIMD_MAX_GROUPS 4
/* Rows a set may run past the last row (its lanes of padding): the band's left column has them. */
#define PW_SW_SIMD_LEFT_PAD (32 * PW_SW_SIMD_MAX_GROUPS)

typedef struct pw_sw_simd {
    const pw_tiling *t;
    int64_t n, m;
    int lanes;                /* V */
    int64_t pass_max;         /* steps a pass may take (a multiple of V) */
    int16_t gap_open, gap_extend;
    int affine;               /* 0: gap_open == gap_extend, H alone */
    int64_t pad;              /* columns of padding each side of the reversed arrays */
    int32_t *bus_h, *bus_f;   /* reversed: column j at pad + m - 1 - j */
    int32_t *carry_h, *carry_e, *carry_f, *carry_d; /* per row: the last cell's H, E, F, and its up H */
    int eq;                   /* the table is match / mismatch on equal codes (DNA): compare codes */
    int16_t match, mismatch;
    int16_t *b_codes;         /* eq: b's codes reversed like the bus (-2 for letters that match
                                 nothing, -3 in the padding) */
    int16_t *profile;         /* not eq: size x plen, score of letter x against b_j, reversed */
    int64_t plen;
    int size;                 /* alphabet */
    int16_t *a_codes;         /* n + V rows' codes (eq: -1 for letters that match nothing);
                                 padding rows are never counted */
    /* A band of a distributed run (NULL otherwise): left_h / left_e, H and E of the left
     * neighbour's last column, row i at [i] for i = -1 .. n + lanes x groups (row -1 and the
     * padding rows: 0 and -infinity); last_h / last_e, H and E of this band's last column, row i
     * at [i], written as lanes pass it. */
    const int32_t *left_h, *left_e; /* (PW_SW_SIMD_LEFT_PAD padding rows after the n) */
    int32_t *last_h, *last_e;
    /* The alignment search's store (src/align/sw_strips.c; NULL otherwise): H and F (linear gaps:
     * -infinity) of rows every - 1, 2 every - 1, ... (slots of them, m columns each), copied from
     * the bus where a tile-row's last set writes it; `every` is a multiple of the tile height. */
    int32_t *save_h, *save_f;
    int64_t save_every, save_slots;
    unsigned char *scratch;   /* workers x PW_SW_SIMD_SCRATCH bytes, 64-byte aligned */
    void *scratch_block;      /* its allocation */
    pw_sw_offer_fn offer;     /* a lane's best cell of a pass, when it may matter */
    pw_sw_threshold_fn threshold;
    void *offer_ctx;
    void (*tile)(const struct pw_sw_simd *k, int64_t r, int64_t c, int worker);
} pw_sw_simd;

/* Steps a pass may take with these scores at V lanes (a multiple of V), or 0 when even V steps
 * could leave 16 bits: then there is no vector processor for them. */
int64_t pw_sw_simd_pass_max(const int32_t *scores, int size, int32_t gap_open, int32_t gap_extend, int lanes);

/* Rows a processor of that set runs together (lanes x groups): the automatic tile height. */
int pw_sw_simd_rows(pw_simd simd);

/* Does the processor score this table by comparing codes (match/mismatch), not from a profile? */
int pw_sw_simd_is_equality(const int32_t *scores, int size);

/* Is the table "match on equal codes of real letters, mismatch otherwise" (size at most
 * PW_SCORING_MAX_ALPHABET)?  match and mismatch as 16 bits (the caller checks they fit);
 * real[x] says which letters match themselves. */
int pw_sw_equality_table(const int32_t *scores, int size, int16_t *match, int16_t *mismatch, int *real);

/* Set up k for a_codes (n) against b_codes (m) on tiling t with the vector set simd (not
 * SCALAR; t's h a multiple of its lanes, t hyper-tiled with skew 0), for workers 0 .. workers-1.
 * PW_ERR_OUT_OF_MEMORY. */
pw_status pw_sw_simd_init(pw_sw_simd *k, pw_simd simd, int workers, const pw_tiling *t, const uint8_t *a_codes, int64_t n,
                          const uint8_t *b_codes, int64_t m, const int32_t *scores, int size, int32_t gap_open,
                          int32_t gap_extend, pw_sw_offer_fn offer, pw_sw_threshold_fn threshold,
                          void *offer_ctx);
void pw_sw_simd_free(pw_sw_simd *k);

/* The kernel's tile function (exec.h): ctx is the pw_sw_simd. */
void pw_sw_simd_tile(void *ctx, int64_t r, int64_t c, int worker);

/* One per vector set, each compiled for its set (sw_simd_<set>.c). */
void pw_sw_simd_tile_sse41(const pw_sw_simd *k, int64_t r, int64_t c, int worker);
void pw_sw_simd_tile_avx2(const pw_sw_simd *k, int64_t r, int64_t c, int worker);
void pw_sw_simd_tile_avx512(const pw_sw_simd *k, int64_t r, int64_t c, int worker);

#endif
