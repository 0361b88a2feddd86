/*
 * sat_float_simd_kernel.h - the float SAT vector tile processor (sat_simd.h, "Float tables"),
 * written once with the compiler's vector extensions.  sat_simd_set.h includes it for float and
 * double with VBYTES, SF_T, SF_SUF (f32, f64: the cell of sat_cell.h), SF_LANES (VBYTES /
 * sizeof(SF_T)), SF_GROUPS (1 or 2) and SF_NAME.
 */
#include <string.h>

#include "sat_simd.h"
#include "sat_cell.h"
#include "../src/cpu/simd/antidiag.h"
#include "../src/cpu/simd/lane_shift.h"
#include "../src/cpu/simd/transpose.h"

#define SF_CAT2(a, b) a##b
#define SF_CAT(a, b) SF_CAT2(a, b)
#define SF_F(name) SF_CAT(name, SF_NAME)
#define SF_INLINE static inline __attribute__((always_inline))
#define SFV SF_F(sf_vec_)
#define SF_TRANSPOSE SF_CAT(PW_TRANSPOSE_, SF_LANES)
#define SF_SHIFT PW_LANE_SHIFT(SF_LANES)
#define SF_CELL SF_CAT(pw_sat_step_, SF_SUF)

typedef SF_T SFV __attribute__((vector_size(VBYTES)));

/* S(i, j), 0 outside the table (row -1, column -1); a band's column -1 is its left neighbour's */
SF_INLINE SF_T SF_F(sf_at_)(const pw_sat_simd *k, int64_t i, int64_t j)
{
    if (i >= 0 && j >= 0) return ((const SF_T *)k->out)[i * k->out_stride + j];
    return i >= 0 && j == -1 && k->left ? ((const SF_T *)k->left)[i] : (SF_T)0;
}

/* The block's cells one by one, in the vector's order (steps, then the set's lanes): edges and
 * short groups.  `lanes`: the set's rows (its groups' valid rows in a row). */
static void SF_F(sf_block_cells_)(const pw_sat_simd *k, int64_t i0, int64_t j0, int lanes, int64_t cols)
{
    for (int t = 0; t < SF_LANES; t++)
        for (int l = 0; l < lanes; l++) {
            const int64_t i = i0 + l, j = j0 + t - l;
            if (j < 0 || j >= cols) continue;
            const SF_T x = ((const SF_T *)k->in)[i * k->in_stride + j];
            ((SF_T *)k->out)[i * k->out_stride + j] =
                SF_CELL(x, SF_F(sf_at_)(k, i - 1, j), SF_F(sf_at_)(k, i, j - 1), SF_F(sf_at_)(k, i - 1, j - 1));
        }
}

/* A whole block of V steps of G groups in lockstep (every lane inside the table): each lane's V
 * inputs in as a row segment, turned into one vector a step by a register transpose; the steps;
 * the results transposed back and stored as row segments, lane L's at dst + L * dst_lane (the
 * table: its row i0 + L at column j0 - L; or the stage).  Lane l's up is lane l-1's cell of the
 * step before (a lane shift, lane 0 from the row above the set), its diag its up of the step
 * before, its left its own cell of the step before: left and diag come in from the block before
 * and go out to the next. */
SF_INLINE void SF_F(sf_block_)(const pw_sat_simd *k, int64_t i0, int64_t j0, const int G, SFV *left, SFV *diag,
                               SF_T *dst, int64_t dst_lane)
{
    const int64_t is = k->in_stride;
    SFV cell[SF_GROUPS][SF_LANES];
    for (int q = 0; q < G; q++) {
        for (int l = 0; l < SF_LANES; l++) {
            const int64_t L = (int64_t)q * SF_LANES + l;
            memcpy(&cell[q][l], (const SF_T *)k->in + (i0 + L) * is + (j0 - L), sizeof cell[q][l]);
        }
        SF_TRANSPOSE(cell[q]);
    }
    const SF_T *above = i0 > 0 ? (const SF_T *)k->out + (i0 - 1) * k->out_stride + j0 : NULL; /* the set's row above */
    for (int t = 0; t < SF_LANES; t++) {
        SFV up[SF_GROUPS];
        for (int q = 0; q < G; q++) /* group q's lane 0 takes group q-1's last lane of the step before */
            up[q] = __builtin_shufflevector(left[q], q == 0 ? (SFV){0} + (above ? above[t] : (SF_T)0) : left[q - 1],
                                            SF_SHIFT);
        for (int q = 0; q < G; q++) {
            left[q] = (cell[q][t] + (up[q] - diag[q])) + left[q]; /* SF_CELL's order */
            diag[q] = up[q];
            cell[q][t] = left[q];
        }
    }
    for (int q = 0; q < G; q++) {
        SF_TRANSPOSE(cell[q]);
        for (int l = 0; l < SF_LANES; l++) {
            const int64_t L = (int64_t)q * SF_LANES + l;
            memcpy(dst + L * dst_lane, &cell[q][l], sizeof cell[q][l]);
        }
    }
}

/* left and diag of every lane before its cell at column j0 - L, from the table. */
SF_INLINE void SF_F(sf_load_edges_)(const pw_sat_simd *k, int64_t i0, int64_t j0, const int G, SFV *left, SFV *diag)
{
    for (int q = 0; q < G; q++) {
        SF_T first_left[SF_LANES], first_diag[SF_LANES];
        for (int l = 0; l < SF_LANES; l++) {
            const int64_t L = (int64_t)q * SF_LANES + l, i = i0 + L, j = j0 - L;
            first_left[l] = SF_F(sf_at_)(k, i, j - 1);
            first_diag[l] = SF_F(sf_at_)(k, i - 1, j - 1);
        }
        memcpy(&left[q], first_left, sizeof left[q]);
        memcpy(&diag[q], first_diag, sizeof diag[q]);
    }
}

/* Copy the stage's blocks (lane L's cells of columns j0 - L .. j0 - L + n - 1) into the table:
 * whole aligned lines by non-temporal stores, a row's partial lines at both ends by plain ones. */
static void SF_F(sf_flush_)(const pw_sat_simd *k, int64_t i0, int64_t j0, int64_t n, int lanes, const SF_T *stage,
                            int64_t stage_lane)
{
    const int line = 64 / (int)sizeof(SF_T);
    for (int L = 0; L < lanes; L++) {
        SF_T *row = (SF_T *)k->out + (i0 + L) * k->out_stride + (j0 - L);
        const SF_T *src = stage + L * stage_lane;
        int64_t a = (int64_t)((64 - (uintptr_t)row % 64) % 64 / sizeof(SF_T));
        if (a > n) a = n;
        memcpy(row, src, (size_t)a * sizeof(SF_T));
        int64_t j = a;
        for (; j + line <= n; j += line)
            for (int v = 0; v < line; v += SF_LANES) {
                SFV x;
                memcpy(&x, src + j + v, sizeof x);
                SS_STREAM(row + j + v, x);
            }
        memcpy(row + j, src + j, (size_t)(n - j) * sizeof(SF_T));
    }
}

/* Blocks a stage holds before it is flushed (its lanes' rows are PW_SAT_FLOAT_STAGE_BLOCKS x V
 * cells long: sat_simd.c sizes the scratch the same way). */
#define SF_STAGE_BLOCKS PW_SAT_FLOAT_STAGE_BLOCKS

SF_INLINE void SF_F(sf_set_)(const pw_sat_simd *k, const pw_ad_set *set, const int G, SF_T *stage)
{
    const int64_t cols = k->t->cols, stage_lane = SF_STAGE_BLOCKS * SF_LANES;
    int lanes = 0;
    for (int q = 0; q < G; q++) lanes += set->valid[q];
    SFV left[SF_GROUPS], diag[SF_GROUPS];
    int64_t run = -1, staged = 0; /* run: j0 of the first block since the edges were loaded (-1: none) */
    for (int64_t blk = set->b0; blk < set->b1; blk += SF_LANES) {
        const int64_t j0 = blk - set->g; /* the first lane's column at the block's first step */
        if (pw_ad_block_is_edge(j0, G, set->valid[G - 1], SF_LANES, cols)) {
            if (staged) SF_F(sf_flush_)(k, set->i0, j0 - staged * SF_LANES, staged * SF_LANES, lanes, stage, stage_lane);
            staged = 0;
            run = -1;
            SF_F(sf_block_cells_)(k, set->i0, j0, lanes, cols);
            continue;
        }
        if (run < 0) {
            SF_F(sf_load_edges_)(k, set->i0, j0, G, left, diag);
            run = j0;
        }
        if (!k->stream) {
            SF_F(sf_block_)(k, set->i0, j0, G, left, diag, (SF_T *)k->out + set->i0 * k->out_stride + j0,
                            k->out_stride - 1);
            continue;
        }
        SF_F(sf_block_)(k, set->i0, j0, G, left, diag, stage + staged * SF_LANES, stage_lane);
        if (++staged == SF_STAGE_BLOCKS) {
            SF_F(sf_flush_)(k, set->i0, j0 - (staged - 1) * SF_LANES, staged * SF_LANES, lanes, stage, stage_lane);
            staged = 0;
        }
    }
    if (staged) {
        const int64_t end = set->b1 - set->g; /* j0 after the last block */
        SF_F(sf_flush_)(k, set->i0, end - staged * SF_LANES, staged * SF_LANES, lanes, stage, stage_lane);
    }
}

void SF_NAME(const pw_sat_simd *k, int64_t r, int64_t c, int worker)
{
    SF_T *stage = k->stream ? (SF_T *)(void *)((unsigned char *)k->scratch + (size_t)worker * k->scratch_bytes) : NULL;
    pw_ad_set set;
    int64_t g = 0;
    while (pw_ad_next_set(k->t, r, c, k->t->cols, SF_LANES, SF_GROUPS, &g, &set)) {
#if SF_GROUPS > 1
        if (set.groups == 2) {
            SF_F(sf_set_)(k, &set, 2, stage);
            continue;
        }
#endif
        SF_F(sf_set_)(k, &set, 1, stage);
    }
    if (k->stream) SS_FENCE(); /* the tile's streamed cells before the engine publishes it */
}

#undef SF_T
#undef SF_SUF
#undef SF_LANES
#undef SF_GROUPS
#undef SF_NAME
#undef SF_F
#undef SFV
#undef SF_TRANSPOSE
#undef SF_SHIFT
#undef SF_CELL
#undef SF_INLINE
#undef SF_STAGE_BLOCKS
