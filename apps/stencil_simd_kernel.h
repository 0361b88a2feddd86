/*
 * stencil_simd_kernel.h - the HEAT/SOR vector tile processor (stencil_simd.h), written once with
 * the compiler's vector extensions.  Define VBYTES, SK_T (float, double), SK_SUF (f32, f64),
 * SK_LANES (VBYTES / sizeof(SK_T)), SK_GROUPS (1 or 2: the set's PW_STENCIL_SIMD_GROUPS_*) and
 * SK_NAME, then include.
 */
#include <string.h>

#include "stencil_simd.h"
#include "../src/cpu/simd/antidiag.h"
#include "../src/cpu/simd/lane_shift.h"
#include "../src/cpu/simd/transpose.h"

#define SK_CAT2(a, b) a##b
#define SK_CAT(a, b) SK_CAT2(a, b)
#define SK_F(name) SK_CAT(name, SK_SUF)
#define SK_INLINE static inline __attribute__((always_inline))
#define SKV SK_F(stencil_vec_)

#define SK_TRANSPOSE SK_CAT(PW_TRANSPOSE_, SK_LANES)

typedef SK_T SKV __attribute__((vector_size(VBYTES)));

#define SK_SHIFT PW_LANE_SHIFT(SK_LANES)

SK_INLINE SKV SK_F(sk_load_)(const SK_T *p)
{
    SKV v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* One cell, as the scalar cell computes it (stencil_cell.h; / 4 as * 0.25, the same number). */
SK_INLINE SK_T SK_F(sk_cell_)(const pw_stencil_simd *k, SK_T self, SK_T up, SK_T left, SK_T down, SK_T right)
{
    SK_T sum = ((down + right) + left) + up;
    return k->sor ? (SK_T)k->keep * self + (SK_T)k->relax * sum : sum * (SK_T)0.25;
}

/* The block's cells one by one, in the vector's order (steps, then the set's lanes): edges and short
 * groups.  `lanes`: the set's rows (its groups' valid rows in a row). */
static void SK_F(sk_block_cells_)(const pw_stencil_simd *k, int64_t i0, int64_t j0, int lanes)
{
    SK_T *g = k->grid;
    const int64_t s = k->stride;
    for (int t = 0; t < SK_LANES; t++)
        for (int l = 0; l < lanes; l++) {
            const int64_t i = i0 + l, j = j0 + t - l;
            if (j < 0 || j >= k->cols) continue;
            SK_T *p = g + i * s + j;
            *p = SK_F(sk_cell_)(k, *p, p[-s], p[-1], p[s], p[1]);
        }
}

/* A whole block of V steps of G groups in lockstep (all lanes inside the grid): row segments in,
 * one vector a step and group, row segments out.  G and sor as constants. */
SK_INLINE void SK_F(sk_block_)(const pw_stencil_simd *k, int64_t i0, int64_t j0, const int G, const int sor)
{
    SK_T *g = k->grid;
    const int64_t s = k->stride;
    SKV down[SK_GROUPS][SK_LANES], right[SK_GROUPS][SK_LANES], self[SK_GROUPS][SK_LANES], h[SK_GROUPS];
    for (int q = 0; q < G; q++) {
        SK_T first[SK_LANES];
        for (int l = 0; l < SK_LANES; l++) {
            const int64_t L = (int64_t)q * SK_LANES + l; /* the set's lane */
            SK_T *row = g + (i0 + L) * s + (j0 - L); /* lane L's columns of this block start here */
            down[q][l] = SK_F(sk_load_)(row + s);
            right[q][l] = SK_F(sk_load_)(row + 1);
            if (sor) self[q][l] = SK_F(sk_load_)(row);
            first[l] = row[-1]; /* its left neighbour: the cell it computed last, already new */
        }
        memcpy(&h[q], first, sizeof h[q]);
        SK_TRANSPOSE(down[q]);
        SK_TRANSPOSE(right[q]);
        if (sor) SK_TRANSPOSE(self[q]);
    }
    const SK_T *above = g + (i0 - 1) * s + j0; /* the first lane's up values, new, one a step */
    const SK_T keep = (SK_T)k->keep, relax = (SK_T)k->relax;
    SKV out[SK_GROUPS][SK_LANES];
    for (int t = 0; t < SK_LANES; t++) {
        SKV up[SK_GROUPS];
        for (int q = 0; q < G; q++) /* group q's lane 0 takes group q-1's last lane of the step before */
            up[q] = __builtin_shufflevector(h[q], q == 0 ? (SKV){0} + above[t] : h[q - 1], SK_SHIFT);
        for (int q = 0; q < G; q++) {
            const SKV sum = ((down[q][t] + right[q][t]) + h[q]) + up[q];
            h[q] = sor ? keep * self[q][t] + relax * sum : sum * (SK_T)0.25;
            out[q][t] = h[q];
        }
    }
    for (int q = 0; q < G; q++) {
        SK_TRANSPOSE(out[q]);
        for (int l = 0; l < SK_LANES; l++) {
            const int64_t L = (int64_t)q * SK_LANES + l;
            memcpy(g + (i0 + L) * s + (j0 - L), &out[q][l], sizeof out[q][l]);
        }
    }
}

SK_INLINE void SK_F(sk_set_)(const pw_stencil_simd *k, const pw_ad_set *set, const int G)
{
    int lanes = 0;
    for (int q = 0; q < G; q++) lanes += set->valid[q];
    for (int64_t blk = set->b0; blk < set->b1; blk += SK_LANES) {
        const int64_t j0 = blk - set->g; /* the first lane's column at the block's first step */
        if (pw_ad_block_is_edge(j0, G, set->valid[G - 1], SK_LANES, k->cols))
            SK_F(sk_block_cells_)(k, set->i0, j0, lanes);
        else if (k->sor)
            SK_F(sk_block_)(k, set->i0, j0, G, 1);
        else
            SK_F(sk_block_)(k, set->i0, j0, G, 0);
    }
}

void SK_NAME(const pw_stencil_simd *k, int64_t r, int64_t c, int worker)
{
    (void)worker;
    pw_ad_set set;
    int64_t g = 0;
    while (pw_ad_next_set(k->t, r, c, k->cols, SK_LANES, SK_GROUPS, &g, &set)) {
#if SK_GROUPS > 1
        if (set.groups == 2) {
            SK_F(sk_set_)(k, &set, 2);
            continue;
        }
#endif
        SK_F(sk_set_)(k, &set, 1);
    }
}

#undef SK_T
#undef SK_SUF
#undef SK_LANES
#undef SK_NAME
#undef SK_SHIFT
#undef SKV
#undef SK_TRANSPOSE
#undef SK_GROUPS
