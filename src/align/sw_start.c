/*
 * sw_start.c - where an optimal local alignment starts, given where it ends and its score.
 *
 * Read backwards from its end pair (end_a, end_b), the alignment is a global alignment anchored
 * at that pair: over the reversed prefixes ra' = a[end_a], a[end_a - 1], ... and rb' likewise,
 *   E(i,j) = max(E(i,j-1) - ge, H(i,j-1) - go)          (a letter of b against a gap)
 *   F(i,j) = max(F(i-1,j) - ge, H(i-1,j) - go)          (a letter of a against a gap)
 *   H(i,j) = max(H(i-1,j-1) + s(ra'_i, rb'_j), E, F)
 * with H(-1,-1) = 0 and the boundaries of a global alignment; the alignment starts at the pair
 * (end_a - i, end_b - j) of the first cell, in row order, where H reaches the score.
 *
 * Pruning, exact: a value v of any state is dropped (-inf) when
 *   - v < 0: every tail of an optimal local alignment (cut anywhere, a cut gap charged its
 *     opening) scores >= 0, else the rest alone would score more than the optimum; or
 *   - v + max_score * (letters left in the shorter sequence) < score: it cannot reach the score.
 * Each row is computed only between the first and last live cell of the row above (plus a run
 * to the right while a gap stays alive), so the pass costs the band of cells near the alignment,
 * not the whole rectangle, for dissimilar and for near-identical sequences alike.
 */
#include <stdlib.h>

#include "../../apps/sw_cell.h" /* PW_SW_NEG_INF, pw_max32 */
#include "align_internal.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"

typedef struct start_pass {
    const pw_align_scoring *s;
    int64_t rows, cols; /* end_a + 1, end_b + 1 */
    int32_t score;
} start_pass;

/* v, or -inf when it cannot be on the alignment (the two rules above). */
static inline int32_t prune(const start_pass *p, int64_t i, int64_t j, int32_t v)
{
    if (v < 0) return PW_SW_NEG_INF;
    int64_t left_a = p->rows - 1 - i, left_b = p->cols - 1 - j;
    int64_t left = left_a < left_b ? left_a : left_b;
    int64_t best = (int64_t)v + (p->s->max_score > 0 ? p->s->max_score * left : 0);
    return best < p->score ? PW_SW_NEG_INF : v;
}

/* H of the boundary cell (i, -1) or (-1, j) (k letters against a gap; k = 0 is the corner). */
static inline int32_t boundary_h(const pw_align_scoring *s, int64_t k)
{
    if (k == 0) return 0;
    int64_t v = -(int64_t)s->gap_open - (k - 1) * (int64_t)s->gap_extend;
    return v < PW_SW_NEG_INF ? PW_SW_NEG_INF : (int32_t)v;
}

pw_status pw_sw_find_start(const pw_align_scoring *s, const uint8_t *ra, int64_t n, const uint8_t *rb,
                           int64_t m, int64_t end_a, int64_t end_b, int32_t score, int64_t *start_a,
                           int64_t *start_b, int64_t *cells, const volatile int *cancel)
{
    start_pass p = {s, end_a + 1, end_b + 1, score};
    const uint8_t *a = ra + (n - 1 - end_a), *b = rb + (m - 1 - end_b); /* ra'_i = a[i] */
    int32_t *h = pw_malloc(sizeof *h * (size_t)p.cols), *f = pw_malloc(sizeof *f * (size_t)p.cols);
    if (!h || !f) {
        free(h);
        free(f);
        return PW_ERR_OUT_OF_MEMORY;
    }
    /* Row -1 (the boundary): pruned like any other row; f is -inf there. */
    int64_t lo = -1, hi = -2;
    for (int64_t j = 0; j < p.cols; j++) {
        h[j] = prune(&p, -1, j, boundary_h(s, j + 1));
        f[j] = PW_SW_NEG_INF;
        if (h[j] != PW_SW_NEG_INF) {
            if (lo < 0) lo = j;
            hi = j;
        }
    }
    int64_t done = 0;
    pw_status st = PW_ERR_INTERNAL;
    for (int64_t i = 0; i < p.rows; i++) {
        if (cancel && *cancel && (i & 255) == 0) {
            st = PW_ERR_CANCELLED;
            goto out;
        }
        /* Column -1 of rows i - 1 and i: the only cells left of the band that can be alive. */
        int32_t h_left = prune(&p, i, -1, boundary_h(s, i + 1));
        int32_t diag = prune(&p, i - 1, -1, boundary_h(s, i));
        int64_t j = 0;
        if (h_left == PW_SW_NEG_INF && diag == PW_SW_NEG_INF) {
            if (lo < 0) break; /* nothing alive, and the boundary further down is lower still */
            j = lo;
            diag = j > 0 ? h[j - 1] : diag; /* -inf: left of the band */
        }
        int32_t e = PW_SW_NEG_INF;
        int64_t new_lo = -1, new_hi = -2, first = j;
        for (; j < p.cols && (j <= hi + 1 || diag != PW_SW_NEG_INF || h_left != PW_SW_NEG_INF || e != PW_SW_NEG_INF); j++) {
            int32_t up = h[j], up_f = f[j]; /* -inf outside the band above (see below) */
            int32_t sub = s->scores[a[i] * s->alphabet + b[j]];
            e = prune(&p, i, j, pw_max32(e - s->gap_extend, h_left - s->gap_open));
            int32_t fv = prune(&p, i, j, pw_max32(up_f - s->gap_extend, up - s->gap_open));
            int32_t hv = prune(&p, i, j, pw_max32(diag == PW_SW_NEG_INF ? PW_SW_NEG_INF : diag + sub, pw_max32(e, fv)));
            diag = up;
            h[j] = hv;
            f[j] = fv;
            h_left = hv;
            if (hv != PW_SW_NEG_INF || fv != PW_SW_NEG_INF || e != PW_SW_NEG_INF) {
                if (new_lo < 0) new_lo = j;
                new_hi = j;
            }
            if (hv == score) {
                *start_a = end_a - i;
                *start_b = end_b - j;
                done += j - first + 1;
                st = PW_OK;
                goto out;
            }
        }
        done += j - first;
        /* Cells of the row that were not computed keep -inf: the band above lay inside
         * [first, j), and everything outside the band is -inf already. */
        lo = new_lo;
        hi = new_hi;
    }
    pw_set_error_detail("the start of the alignment ending at %lld, %lld with score %d was not found",
                        (long long)end_a + 1, (long long)end_b + 1, (int)score);
out:
    *cells += done;
    free(h);
    free(f);
    return st;
}
