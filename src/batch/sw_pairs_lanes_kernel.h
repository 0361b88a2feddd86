/*
 * sw_pairs_lanes_kernel.h - the CPU pairs kernel (sw_pairs_lanes.h), written once against the
 * 16-bit lane operations of src/cpu/simd/ops16_<set>.h and compiled once per set by
 * sw_pairs_lanes_<set>.c, which defines SW_PAIRS_LANES_FN and includes its ops header first.
 * Strips of PW_BATCH_STRIP columns as sw_batch_lanes_kernel.h (four F chains interleaved; H, E
 * and the row's best loaded and stored once a strip).
 */
#include "sw_batch_lanes.h" /* PW_BATCH_STRIP */
#include "sw_pairs_lanes.h"
#include "sw_lanes_cell.h"

void SW_PAIRS_LANES_FN(const sw_pairs_lanes *job)
{
    enum { S = PW_BATCH_STRIP };
    const int64_t n = job->rows;
    const v16 zero = v_set1(0), neg = v_set1(-32768), go = v_set1(job->gap_open), ge = v_set1(job->gap_extend);
    const v16 match = v_set1(job->match), mismatch = v_set1(job->mismatch);
    int16_t *restrict h = job->h, *restrict e = job->e, *restrict rb = job->row_best, *restrict rc = job->row_col;
    for (int64_t i = 0; i < n; i++) {
        v_store16(h + i * V_LANES, zero);  /* H(i, -1) = 0 */
        v_store16(e + i * V_LANES, neg);   /* E(i, -1) = -infinity */
        v_store16(rb + i * V_LANES, zero); /* (a row's best: cells above 0 only) */
        v_store16(rc + i * V_LANES, zero);
    }
    for (int64_t j = 0; j < job->columns; j += S) { /* columns: a multiple of S (padded) */
        v16 bcode[S], col[S];
        for (int c = 0; c < S; c++) bcode[c] = v_load16(job->b + (j + c) * V_LANES), col[c] = v_set1((int)(j + c));
        v16 f[S], up[S], corner = zero; /* row -1: H = 0, F = -infinity; corner: H(i - 1, j - 1) */
        for (int c = 0; c < S; c++) f[c] = neg, up[c] = zero;
        for (int64_t i = 0; i < n; i++) {
            const v16 acode = v_load16(job->a + i * V_LANES), left = v_load16(h + i * V_LANES);
            v16 ei = v_load16(e + i * V_LANES), hl = left, diag = corner;
            v16 best = v_load16(rb + i * V_LANES), at = v_load16(rc + i * V_LANES);
#pragma GCC unroll 8
            for (int c = 0; c < S; c++) {
                const v16 s = v_blend(v_eq(acode, bcode[c]), mismatch, match);
                const v16 hc = sw_lanes_cell(&ei, &f[c], &up[c], &diag, &hl, s, go, ge, zero);
                const vmask better = v_gt(hc, best); /* (strictly: the first column keeps a tie) */
                best = v_blend(better, best, hc);
                at = v_blend(better, at, col[c]);
            }
            corner = left;
            v_store16(h + i * V_LANES, hl);
            v_store16(e + i * V_LANES, ei);
            v_store16(rb + i * V_LANES, best);
            v_store16(rc + i * V_LANES, at);
        }
    }
}
