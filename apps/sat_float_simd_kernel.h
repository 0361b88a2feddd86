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

/* S(i, j), 0 outside the table (row -1, column -1) */
SF_INLINE SF_T SF_F(sf_at_)(const pw_sat_simd *k, int64_t i, int64_t j)
{
    return i >= 0 && j >= 0 ? ((const SF_T *)k->out)[i * k->out_stride + j] : (SF_T)0;
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
 * the results transposed back and stored as row segments.  Lane l's up is lane l-1's cell of the
 * step before (a lane shift, lane 0 from the row above the set), its diag its up of the step
 * before, its left its own cell of the step before. */
SF_INLINE void SF_F(sf_block_)(const pw_sat_simd *k, int64_t i0, int64_t j0, const int G)
{
    const int64_t is = k->in_stride, os = k->out_stride;
    SFV cell[SF_GROUPS][SF_LANES], left[SF_GROUPS], diag[SF_GROUPS];
    for (int q = 0; q < G; q++) {
        SF_T first_left[SF_LANES], first_diag[SF_LANES];
        for (int l = 0; l < SF_LANES; l++) {
            const int64_t L = (int64_t)q * SF_LANES + l, i = i0 + L, j = j0 - L; /* lane L's first column */
            memcpy(&cell[q][l], (const SF_T *)k->in + i * is + j, sizeof cell[q][l]);
            first_left[l] = SF_F(sf_at_)(k, i, j - 1);
            first_diag[l] = SF_F(sf_at_)(k, i - 1, j - 1);
        }
        memcpy(&left[q], first_left, sizeof left[q]);
        memcpy(&diag[q], first_diag, sizeof diag[q]);
        SF_TRANSPOSE(cell[q]);
    }
    const SF_T *above = i0 > 0 ? (const SF_T *)k->out + (i0 - 1) * os + j0 : NULL; /* the set's row above */
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
            memcpy((SF_T *)k->out + (i0 + L) * os + (j0 - L), &cell[q][l], sizeof cell[q][l]);
        }
    }
}

SF_INLINE void SF_F(sf_set_)(const pw_sat_simd *k, const pw_ad_set *set, const int G)
{
    const int64_t cols = k->t->cols;
    int lanes = 0;
    for (int q = 0; q < G; q++) lanes += set->valid[q];
    for (int64_t blk = set->b0; blk < set->b1; blk += SF_LANES) {
        const int64_t j0 = blk - set->g; /* the first lane's column at the block's first step */
        if (pw_ad_block_is_edge(j0, G, set->valid[G - 1], SF_LANES, cols))
            SF_F(sf_block_cells_)(k, set->i0, j0, lanes, cols);
        else
            SF_F(sf_block_)(k, set->i0, j0, G);
    }
}

void SF_NAME(const pw_sat_simd *k, int64_t r, int64_t c, int worker)
{
    (void)worker;
    pw_ad_set set;
    int64_t g = 0;
    while (pw_ad_next_set(k->t, r, c, k->t->cols, SF_LANES, SF_GROUPS, &g, &set)) {
#if SF_GROUPS > 1
        if (set.groups == 2) {
            SF_F(sf_set_)(k, &set, 2);
            continue;
        }
#endif
        SF_F(sf_set_)(k, &set, 1);
    }
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
