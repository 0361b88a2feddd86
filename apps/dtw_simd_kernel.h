/*
 * dtw_simd_kernel.h - the DTW vector tile processor (dtw_simd.h), written once with the
 * compiler's vector extensions and compiled per instruction set (the file's flags) and element
 * type.  Define DS_T (float, double), DS_I (the integer of its width), DS_SUF (f32, f64),
 * DS_LANES (lanes a vector), VBYTES (vector bytes) and DS_NAME (the tile function), then include.
 */
#include <math.h>
#include <string.h>

#include "dtw_simd.h"
#include "../src/cpu/simd/antidiag.h"
#include "../src/cpu/simd/lane_shift.h"

#define DS_CAT2(a, b) a##b
#define DS_CAT(a, b) DS_CAT2(a, b)
#define DS_F(name) DS_CAT(name, DS_SUF)
#define DS_INLINE static inline __attribute__((always_inline))
#define DSV DS_F(dtw_vec_)
#define DSI DS_F(dtw_ivec_)

typedef DS_T DSV __attribute__((vector_size(VBYTES)));
typedef DS_I DSI __attribute__((vector_size(VBYTES)));

/* shift_in(a, b) = (b's last lane, a's lanes 0 .. V-2); the lanes' indices */
#define DS_SHIFT PW_LANE_SHIFT(DS_LANES)
#define DS_INDEX PW_LANE_INDEX(DS_LANES)

DS_INLINE DSV DS_F(ds_load_)(const DS_T *p)
{
    DSV v;
    memcpy(&v, p, sizeof v);
    return v;
}

DS_INLINE void DS_F(ds_store_)(DS_T *p, DSV v) { memcpy(p, &v, sizeof v); }

/* m ? b : a, lane by lane */
DS_INLINE DSV DS_F(ds_select_)(DSI m, DSV a, DSV b) { return (DSV)(((DSI)b & m) | ((DSI)a & ~m)); }

/* the scalar cell's min: a < b ? a : b (dtw_cell.h), which is exactly what x86's MINPS/MINPD
 * compute (the second operand unless the first is less); the compiler does not see that in a
 * select, so the instruction is named */
#include <immintrin.h>
#if DS_LANES * 4 == VBYTES /* float */
#define DS_MIN_OF(bits) _mm##bits##_min_ps
#else
#define DS_MIN_OF(bits) _mm##bits##_min_pd
#endif
#if VBYTES == 64
#define DS_MIN DS_MIN_OF(512)
#elif VBYTES == 32
#define DS_MIN DS_MIN_OF(256)
#else
#define DS_MIN DS_MIN_OF()
#endif
DS_INLINE DSV DS_F(ds_min_)(DSV a, DSV b) { return (DSV)DS_MIN(a, b); }

/* One step of G groups: lane l of group q computes column c0 - qV - l of row i0 + qV + l;
 * b_at: b's reversed array at lane 0 of group 0.  `edge`: lanes left of column 0 are set to
 * the boundary (+inf), and the distance is taken when its cell is in this step. */
DS_INLINE void DS_F(ds_step_)(const pw_dtw_simd *k, DSV *h, DSV *d, DSV *bh, const DSV *a, const DS_T *b_at,
                              const int G, const int squared, const int edge, int64_t c0, int64_t i0, const DSV *left)
{
    DSV up[PW_AD_MAX_GROUPS];
    for (int q = 0; q < G; q++) up[q] = __builtin_shufflevector(h[q], q == 0 ? *bh : h[q - 1], DS_SHIFT);
    for (int q = 0; q < G; q++) {
        const DSV diff = a[q] - DS_F(ds_load_)(b_at + q * DS_LANES);
        const DSV cost = squared ? diff * diff : DS_F(ds_select_)(diff < 0, diff, -diff);
        DSV v = cost + DS_F(ds_min_)(up[q], DS_F(ds_min_)(h[q], d[q]));
        if (edge) {
            const DSI lane = {DS_INDEX};
            const int64_t cq = c0 - (int64_t)q * DS_LANES;
            v = DS_F(ds_select_)(lane > (DS_I)(cq < -1 ? -1 : cq > DS_LANES ? DS_LANES : cq), v, left[q]);
            const int64_t lf = k->n - 1 - (i0 + (int64_t)q * DS_LANES); /* the last row's lane */
            if (lf >= 0 && lf < DS_LANES && cq - lf == k->m - 1) *k->distance = (double)v[lf];
            const int64_t ll = cq - (k->m - 1), row = i0 + (int64_t)q * DS_LANES + ll; /* the lane at column m - 1 */
            if (k->last && ll >= 0 && ll < DS_LANES && row < k->n) ((DS_T *)k->last)[row] = v[ll];
        }
        d[q] = up[q];
        h[q] = v;
    }
    *bh = __builtin_shufflevector(*bh, h[G - 1], DS_SHIFT);
}

/* reversed arrays: column j at index pad + m - 1 - j */
DS_INLINE int64_t DS_F(ds_rev_)(const pw_dtw_simd *k, int64_t j) { return k->pad + k->m - 1 - j; }


/* A set's steps [b0, b1) in this tile, G and the cost as constants; save_slot: pw_ad_saved_slot's. */
DS_INLINE void DS_F(ds_set_)(const pw_dtw_simd *k, const pw_ad_set *s, int64_t save_slot, const int G,
                             const int squared)
{
    DS_T *bus = k->bus, *carry_h = k->carry_h, *carry_d = k->carry_d;
    const DS_T *b = k->b, *a_rows = k->a;
    DSV h[PW_AD_MAX_GROUPS], d[PW_AD_MAX_GROUPS], a[PW_AD_MAX_GROUPS], left[PW_AD_MAX_GROUPS], bh;
    const DS_T *band_left = (const DS_T *)k->left;
    for (int q = 0; q < G; q++) {
        const int64_t i = s->i0 + (int64_t)q * DS_LANES;
        a[q] = DS_F(ds_load_)(a_rows + i);
        /* left of column 0: the boundary, or a band's left neighbour's column */
        left[q] = band_left ? DS_F(ds_load_)(band_left + i) : (DSV){0} + (DS_T)INFINITY;
        if (s->b0 == s->g && band_left) { /* a band's set's first step: the row's and the row above's */
            h[q] = left[q];
            d[q] = DS_F(ds_load_)(band_left + i - 1);
        } else if (s->b0 == s->g) { /* the set's first step: left of column 0 is the boundary */
            h[q] = d[q] = (DSV){0} + (DS_T)INFINITY;
            if (q == 0 && s->i0 == 0) d[0][0] = 0; /* D(-1, -1), the diagonal of (0, 0) */
        } else {
            h[q] = DS_F(ds_load_)(carry_h + i);
            d[q] = DS_F(ds_load_)(carry_d + i);
        }
    }
    for (int64_t blk = s->b0; blk < s->b1; blk += DS_LANES) {
        const int64_t j0 = blk - s->g; /* the first group's lane 0 column at the block's first step */
        bh = DS_F(ds_load_)(bus + DS_F(ds_rev_)(k, j0 + DS_LANES - 1));
        const DS_T *b_at = b + DS_F(ds_rev_)(k, j0);
        /* (a band's last column is recorded on the edge path: also the block whose last step
         * brings lane 0 to column m - 1) */
        if (pw_ad_block_is_edge(j0, G, s->valid[G - 1], DS_LANES, k->last ? k->m - 1 : k->m)) {
            for (int t = 0; t < DS_LANES; t++) DS_F(ds_step_)(k, h, d, &bh, a, b_at - t, G, squared, 1, j0 + t, s->i0, left);
        } else {
            for (int t = 0; t < DS_LANES; t++) DS_F(ds_step_)(k, h, d, &bh, a, b_at - t, G, squared, 0, j0 + t, s->i0, left);
        }
        DS_F(ds_store_)(bus + DS_F(ds_rev_)(k, j0 - (int64_t)(G - 1) * DS_LANES), bh);
        if (save_slot >= 0) /* (the block's finished columns of a saved row, into the store) */
            for (int q = 0; q < DS_LANES; q++) {
                const int64_t p = DS_F(ds_rev_)(k, j0 - (int64_t)(G - 1) * DS_LANES) + q, j = k->pad + k->m - 1 - p;
                if (j >= 0 && j < k->m) ((DS_T *)k->save)[save_slot * k->m + j] = bus[p];
            }
    }
    for (int q = 0; q < G; q++) {
        const int64_t i = s->i0 + (int64_t)q * DS_LANES;
        DS_F(ds_store_)(carry_h + i, h[q]);
        DS_F(ds_store_)(carry_d + i, d[q]);
    }
}

DS_INLINE void DS_F(ds_set_cost_)(const pw_dtw_simd *k, const pw_ad_set *s, int64_t save_slot, const int G)
{
    if (k->squared) DS_F(ds_set_)(k, s, save_slot, G, 1);
    else DS_F(ds_set_)(k, s, save_slot, G, 0);
}

void DS_NAME(const pw_dtw_simd *k, int64_t r, int64_t c, int worker)
{
    (void)worker;
    pw_ad_set set;
    int64_t g = 0;
    while (pw_ad_next_set(k->t, r, c, k->m, DS_LANES, PW_DTW_SIMD_GROUPS, &g, &set)) {
        if (set.b0 >= set.b1) continue;
        const int64_t save_slot = k->save ? pw_ad_saved_slot(k->t, r, &set, DS_LANES, k->save_every, k->save_slots) : -1;
        switch (set.groups) { /* as constants: the groups' loops unroll */
        case 1: DS_F(ds_set_cost_)(k, &set, save_slot, 1); break;
        case 2: DS_F(ds_set_cost_)(k, &set, save_slot, 2); break;
        case 3: DS_F(ds_set_cost_)(k, &set, save_slot, 3); break;
        default: DS_F(ds_set_cost_)(k, &set, save_slot, 4); break;
        }
    }
}

#undef DS_T
#undef DS_I
#undef DS_SUF
#undef DS_LANES
#undef DS_NAME
#undef DS_SHIFT
#undef DS_INDEX
#undef DSV
#undef DSI
#undef DS_MIN
#undef DS_MIN_OF
