/*
 * dtw_simd.h - DTW on the CPU with vector tile processors (SSE4.1, AVX2, AVX-512), f32 and f64,
 * run by the same peer and barrier engines as the scalar cells.
 *
 * The layout is SW's (src/cpu/simd/antidiag.h, docs/DESIGN-NOTES.md): lane l of a group holds row
 * i0 + l at column s - l on the hyper-tile's anti-diagonal, groups in lockstep, the row above in
 * and the last row out through a FIFO register, the bus and b reversed.  Lanes are the element
 * type itself (no base: floats), and each cell does the scalar cell's operations in the scalar
 * cell's order (cost, then the minimum of left and diagonal, then of up, then the sum: dtw_cell.h),
 * so results are bit for bit the sequential reference's.  The distance, D(n-1, m-1), is taken
 * from the lane that computes it.
 */
#ifndef PW_DTW_SIMD_H
#define PW_DTW_SIMD_H

#include <stdint.h>

#include "peerwave.h"
#include "../src/core/tiling.h"

/* Groups each processor runs in lockstep (measured: docs/PERFORMANCE.md). */
#define PW_DTW_SIMD_GROUPS 4

typedef struct pw_dtw_simd {
    const pw_tiling *t;
    int64_t n, m;
    int lanes;               /* V: of the element type */
    int squared;
    int64_t pad;             /* columns of padding each side of the reversed arrays */
    void *bus;               /* reversed: column j at pad + m - 1 - j */
    void *b;                 /* b reversed the same way (0 in the padding) */
    void *a;                 /* n + V rows (0 past the end) */
    void *carry_h, *carry_d; /* per row: the last cell's D and the D above it */
    double *distance;        /* D(n-1, m-1), written by the tile that computes it */
    /* A band of a distributed run (NULL otherwise): left, the left neighbour's last column, row i
     * at [i] for i = -1 .. n + PW_DTW_SIMD_LEFT_PAD (row -1 and the padding rows: +inf); last,
     * this band's last column, row i at [i] (n rows), written as lanes pass it. */
    const void *left;
    void *last;
    /* The warping path's store (src/align/dtw_strips.c; NULL otherwise): rows every - 1,
     * 2 every - 1, ... (save_slots of m elements), copied from the bus where a tile-row's last set
     * writes it; `every` a multiple of the tile height. */
    void *save;
    int64_t save_every, save_slots;
    void (*tile)(const struct pw_dtw_simd *k, int64_t r, int64_t c, int worker);
} pw_dtw_simd;

/* Rows a set may run past the last row: the band's left column has them. */
#define PW_DTW_SIMD_LEFT_PAD 256

/* Rows a processor of that set runs together for elements of `size` bytes (lanes x groups): the
 * automatic tile height. */
int pw_dtw_simd_rows(pw_simd simd, int size);

/* Set up k for a (n) against b (m) of elements of `size` bytes (4 or 8) on tiling t (hyper tiles,
 * skew 0, h a multiple of the lanes or one tile-row) with the vector set simd (not SCALAR).
 * PW_ERR_OUT_OF_MEMORY. */
pw_status pw_dtw_simd_init(pw_dtw_simd *k, pw_simd simd, int size, const pw_tiling *t, const void *a, int64_t n,
                           const void *b, int64_t m, int squared, double *distance);
void pw_dtw_simd_free(pw_dtw_simd *k);

/* The kernel's tile function (exec.h): ctx is the pw_dtw_simd. */
void pw_dtw_simd_tile(void *ctx, int64_t r, int64_t c, int worker);

/* One per vector set and type, each compiled for its set (dtw_simd_<set>.c). */
#define PW_DTW_SIMD_DECLARE(SET)                                                               \
    void pw_dtw_simd_tile_f32_##SET(const pw_dtw_simd *k, int64_t r, int64_t c, int worker); \
    void pw_dtw_simd_tile_f64_##SET(const pw_dtw_simd *k, int64_t r, int64_t c, int worker);
PW_DTW_SIMD_DECLARE(sse41)
PW_DTW_SIMD_DECLARE(avx2)
PW_DTW_SIMD_DECLARE(avx512)

#endif
