/*
 * stencil_simd.h - Gauss-Seidel HEAT and SOR sweeps on the CPU with vector tile processors (SSE4.1,
 * AVX2, AVX-512), f32 and f64, in place, run by the same peer and barrier engines (and pipelined
 * sweeps) as the scalar cells.
 *
 * The walk is SW's and DTW's (src/cpu/simd/antidiag.h): lane l of a group holds interior row
 * i0 + l at column s - l, so the new up and left values come from the lane above and the lane
 * itself.  The old down and right values, and the results, live in the row-major grid: a block of
 * V steps loads, for each lane, the V down values and the V right values it will use as one
 * contiguous row segment (lane l's columns for the block are j0 - l .. j0 - l + V - 1, so the skew
 * is in the addresses), turns those V x V tiles into one vector a step with a register transpose
 * (src/cpu/simd/transpose.h), computes the V steps, and transposes the results back to be stored
 * as row segments.  Every value read before the block is still the old one when it is used (lane
 * l + 1 overwrites column c a step after lane l reads it).  Blocks that touch the grid's edges, or a
 * group of fewer than V rows, run the same cells one by one in the same anti-diagonal order.  Each
 * cell does the scalar cell's operations in its order (stencil_cell.h), with the division by 4 as a
 * multiplication by 0.25 (the same number: both scale by a power of two, rounded once), so grids
 * are the sequential reference's bits.
 */
#ifndef PW_STENCIL_SIMD_H
#define PW_STENCIL_SIMD_H

#include <stdint.h>

#include "peerwave.h"
#include "../src/core/tiling.h"

/* Groups of V rows each set runs in lockstep (1 or 2; the automatic tile height is V x this).
 * Measured (bench_cpu_stencil 4096, one core, HEAT f64 / f32 against the scalar cells): SSE4.1
 * 1.1x / 2.2x with one group, 2.0x / 3.5x with two; AVX2 1.7x / 3.4x and 2.4x / 3.2x; AVX-512
 * 3.2x / 4.0x and 3.3x / 3.0x (two groups' 16 x 16 tiles no longer fit the registers). */
#define PW_STENCIL_SIMD_GROUPS_SSE41 2
#define PW_STENCIL_SIMD_GROUPS_AVX2 2
#define PW_STENCIL_SIMD_GROUPS_AVX512 1

typedef struct pw_stencil_simd {
    const pw_tiling *t;
    void *grid;            /* the grid's interior (0, 0): row i at grid + i * stride */
    int64_t stride;
    int64_t rows, cols;    /* the interior */
    int sor;
    double keep, relax;    /* SOR, rounded to the element type by the kernel */
    void (*tile)(const struct pw_stencil_simd *k, int64_t r, int64_t c, int worker);
} pw_stencil_simd;

/* Lanes of a vector of that set for elements of `size` bytes (4 or 8). */
int pw_stencil_simd_lanes(pw_simd simd, int size);

/* Rows that set runs together (lanes x groups): the automatic tile height. */
int pw_stencil_simd_rows(pw_simd simd, int size);

/* The tile function of that set and element size (NULL without vector processors). */
void (*pw_stencil_simd_kernel(pw_simd simd, int size))(const pw_stencil_simd *, int64_t, int64_t, int);

/* The kernel's tile function (exec.h): ctx is the pw_stencil_simd. */
void pw_stencil_simd_tile(void *ctx, int64_t r, int64_t c, int worker);

#define PW_STENCIL_SIMD_DECLARE(SET)                                                                  \
    void pw_stencil_simd_tile_f32_##SET(const pw_stencil_simd *k, int64_t r, int64_t c, int worker); \
    void pw_stencil_simd_tile_f64_##SET(const pw_stencil_simd *k, int64_t r, int64_t c, int worker);
PW_STENCIL_SIMD_DECLARE(sse41)
PW_STENCIL_SIMD_DECLARE(avx2)
PW_STENCIL_SIMD_DECLARE(avx512)

#endif
