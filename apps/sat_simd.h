/*
 * sat_simd.h - the vector tile processor for summed-area tables of integers and for integral
 * histograms on the CPU (SSE4.1, AVX2, AVX-512).
 *
 * A SAT row is a row prefix sum plus the row above: S(i, j) = P(i, j) + S(i-1, j), where P is the
 * row's running sum.  The processor runs a tile's rows one after another, each as vectors: the
 * in-register prefix over a vector's lanes, the running carry broadcast from the last lane, and the
 * row above.  Integer sums are exact in any order, and every partial sum is a sum over a
 * sub-rectangle (a row prefix, or a whole SAT entry), so no value that the scalar cell could hold
 * without overflow overflows here.  (Float outputs keep the scalar cells: their sums depend on the
 * order, and the scalar order along a row is a chain.)
 *
 * A SAT moves 5 to 16 bytes a pixel and computes one add, so its speed is the memory's.  Two things
 * make it so (measured in docs/PERFORMANCE.md, 2026-11-25):
 *   - the row above comes from a per-worker copy of the tile's previous row (L1/L2), not from the
 *     table: only a tile's first row reads the table;
 *   - a large table is written with non-temporal stores (whole aligned cache lines; the partial
 *     lines at a segment's ends by plain stores), so the table's lines are not read before they
 *     are written.  The tile ends with a store fence, so its cells are visible before the engine
 *     publishes the tile (the engines' release stores do not order non-temporal stores).
 * An integral histogram is a SAT per bin of the indicator [bin(x) == b]: the same rows, every
 * bin's row after the other while the bin indices of the row are in L1.
 *
 * Float tables (f32 -> f32, f64 -> f64) must be the scalar cells' bits, (x + (up - diag)) + left
 * in that order, so a row cannot be a vector prefix sum, and one row at a time is a chain of
 * dependent adds.  Their processor is SW's, DTW's and HEAT's walk (src/cpu/simd/antidiag.h): lane
 * l of a vector holds row i0 + l at column s - l, so at each step every lane does one cell, its
 * up is the lane above's cell of the step before (a lane shift), its diag its up of the step
 * before and its left its own cell of the step before.  A block of V steps reads each lane's V
 * inputs as a row segment and turns them into one vector a step by a register transpose
 * (src/cpu/simd/transpose.h); the V x V results go back the same way (sat_float_simd_kernel.h),
 * into the table or, for a large one, into a stage streamed out by lines as the integers are.
 * (A scalar form with 8 rows in flight measured slower than one row at a time: each lane waits
 * three adds for the lane above, and that skew outran the out-of-order window.)
 */
#ifndef PW_SAT_SIMD_H
#define PW_SAT_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "peerwave.h"
#include "../src/core/tiling.h"

/* The context of every scalar SAT segment (sat.c, sat_full.h). */
typedef struct sat_ctx {
    const void *in;
    int64_t in_stride;
    void *out;
    int64_t out_stride;
    const void *left; /* NULL, or a band of a distributed run: column -1 (rows values of out's type) */
} sat_ctx;

/* Tables of at least this many bytes are written with non-temporal stores (they do not fit the
 * caches that plain stores would fill; smaller ones stay cached for the caller). */
#define PW_SAT_SIMD_STREAM_BYTES ((size_t)16 << 20)

typedef struct pw_sat_simd {
    const pw_tiling *t;
    const void *in;        /* SAT: the image; INTHIST: int32 bin indices (-1: no bin) */
    int64_t in_stride;
    void *out;             /* plane 0's table */
    int64_t out_stride;
    int64_t plane_stride;  /* elements from one plane's table to the next (INTHIST) */
    int planes;            /* 1 (SAT), or the bins (INTHIST: plane b counts bin b) */
    int stream;            /* non-temporal stores */
    const void *left;      /* NULL, or a band of a distributed run: column -1 of each plane, the
                              left neighbour's last column (plane p's row i at p * left_rows + i) */
    int64_t left_rows;
    void *scratch;         /* per worker, scratch_bytes each: the last tile's (r, c) (64 bytes), then
                              its rows' prefix sums (planes x h) and last cells (planes x h, twice:
                              by the tile's parity), then, from
                              buf_offset, a row of cells a plane (scratch_elems each) */
    size_t scratch_bytes, buf_offset;
    int64_t scratch_elems; /* the tile's column span, rounded to a cache line */
    void (*tile)(const struct pw_sat_simd *k, int64_t r, int64_t c, int worker);
    void *scratch_block;   /* the allocation scratch points into */
} pw_sat_simd;

/* Groups of V rows the float processor runs in lockstep (its cells and the V x V tile of a group
 * take V registers; two groups of 16 do not fit AVX-512's 32). */
#define PW_SAT_FLOAT_SIMD_GROUPS_SSE41 2
#define PW_SAT_FLOAT_SIMD_GROUPS_AVX2 2
#define PW_SAT_FLOAT_SIMD_GROUPS_AVX512 1

/* A large float table is written through a per-worker stage: a set's blocks land there, and
 * every PW_SAT_FLOAT_STAGE_BLOCKS blocks (and before an edge block) its lanes' row segments go to
 * the table by non-temporal stores (whole lines; partial ones by plain stores). */
#define PW_SAT_FLOAT_STAGE_BLOCKS 64

/* The float processor's stages (k->stream set): rows x PW_SAT_FLOAT_STAGE_BLOCKS x lanes elements a
 * worker.  Returns 0 (k->stream cleared: plain stores) when there is no memory for them. */
int pw_sat_float_simd_stages(pw_sat_simd *k, int workers, int lanes, int rows, size_t elem_size);

/* Set k up for the plan's tiling and workers: the tile function of the plan's set for this pair
 * (bins 0: a SAT, in: u8, u16, i32; out: i32, i64; bins > 0: an integral histogram, in the i32
 * bin indices, out i32, a plane a bin), and the per-worker scratch.  The caller fills in the
 * data fields (in ... plane_stride, stream).  Returns 1 when set up; 0 when there is no vector processor for the
 * pair and set (the scalar cells), and -1 when the scratch could not be allocated: k untouched. */
int pw_sat_simd_setup(pw_sat_simd *k, const pw_tiling *t, int workers, pw_simd simd, pw_dtype in, pw_dtype out,
                      int bins);
void pw_sat_simd_free(pw_sat_simd *k);

/* Should a table of table_bytes at out (all planes) be streamed (k->stream)?  Large ones, whose
 * elements are aligned (a row's cache lines are then whole elements). */
int pw_sat_simd_streams(const void *out, size_t table_bytes, size_t elem_size);

/* The float processor for a table of `type` (f32, f64: the input's type too) on that set, and the
 * lanes and rows (lanes x groups) it runs, for pw_simd_fit_plan; NULL if there is none. */
void (*pw_sat_float_simd(pw_simd simd, pw_dtype type, int *lanes, int *rows))(const pw_sat_simd *, int64_t, int64_t,
                                                                               int);

/* The kernel's tile function (exec.h): ctx is the pw_sat_simd. */
void pw_sat_simd_tile(void *ctx, int64_t r, int64_t c, int worker);

/* One per set, input and output type (sat_simd_<set>.c); in: u8, u16, i32; out: i32, i64; the
 * integral histogram's planes; and the float tables. */
#define PW_SAT_SIMD_DECLARE_ONE(NAME) void NAME(const pw_sat_simd *k, int64_t r, int64_t c, int worker);
#define PW_SAT_SIMD_DECLARE(SET)                          \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_u8_i32_##SET)     \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_u8_i64_##SET)     \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_u16_i32_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_u16_i64_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_i32_i32_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_i32_i64_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_inthist_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_f32_f32_##SET)    \
    PW_SAT_SIMD_DECLARE_ONE(pw_sat_simd_f64_f64_##SET)
PW_SAT_SIMD_DECLARE(sse41)
PW_SAT_SIMD_DECLARE(avx2)
PW_SAT_SIMD_DECLARE(avx512)

#endif
