/*
 * sw_striped_kernel.h - the striped SW kernel (sw_striped.h), written once against the 16-bit lane
 * operations of src/cpu/simd/ops16_<set>.h and compiled once per set by sw_striped_<set>.c, which
 * includes its ops header first and defines SW_STRIPED_FN.
 *
 * Lane l, segment t of a row vector is column j = l S + t.  Values: H >= 0; E and F are -32768
 * ("minus infinity": saturating subtraction keeps it there) or >= -gap_open; the boundary row and
 * column are H = 0, E = F = -infinity, as pw_sw_step's.
 */
#include "sw_striped.h"

#define NEG16 (-32768)

/* The largest lane of v. */
static inline int16_t striped_hmax(v16 v)
{
    int16_t lanes[V_LANES], top = NEG16;
    v_store16(lanes, v);
    for (int l = 0; l < V_LANES; l++) top = lanes[l] > top ? lanes[l] : top;
    return top;
}

/* The smallest column j < m whose H in the row h (S segments) is `value`. */
static int64_t striped_first_column(const int16_t *h, int64_t S, int64_t m, int16_t value)
{
    const v16 want = v_set1(value);
    int64_t first = INT64_MAX;
    for (int64_t t = 0; t < S; t++) {
        if (!v_any(v_eq(v_load16(h + t * V_LANES), want))) continue;
        for (int l = 0; l < V_LANES; l++) {
            const int64_t j = l * S + t;
            if (h[t * V_LANES + l] == value && j < m && j < first) first = j;
        }
    }
    return first;
}

int SW_STRIPED_FN(const pw_sw_striped_run *r, int32_t *score, int64_t *end_a, int64_t *end_b)
{
    const pw_sw_striped_job *job = r->job;
    const int64_t S = r->segments, n = job->n, m = job->m;
    const v16 zero = v_set1(0), neg = v_set1(NEG16), go = v_set1(job->gap_open), ge = v_set1(job->gap_extend),
              g_min = v_set1(job->gap_open < job->gap_extend ? job->gap_open : job->gap_extend);
    const int16_t limit = (int16_t)(32767 - r->top); /* a row maximum at or past it may saturate next */
    int16_t *hp = r->h0, *hc = r->h1, *fv = r->f;
    for (int64_t t = 0; t < S; t++) {
        v_store16(hp + t * V_LANES, zero); /* row -1: H = 0 */
        v_store16(fv + t * V_LANES, neg);  /* F(-1, j) - gap_extend: minus infinity */
    }
    int16_t best = 0;
    /* extra: segments the lazy passes walked beyond the first passes (the scans of rows whose
     * maximum is a new best are not counted: a random protein pair finds most of its new bests in
     * its first rows, and counted, they made 1024 x 1024 pairs give up at row 64: 280 us against
     * the 188 that the striped run takes, a Zen 5 core) */
    int64_t best_i = -1, best_j = -1, extra = 0;
    /* go >= ge (every usual scoring): a lane whose E raises its H also passes the lazy passes' E
     * test, and the chain after it is E - ge alone (below) */
    const int open_dearer = job->gap_open >= job->gap_extend;
    for (int64_t i = 0; i < n; i++) {
        /* (every row where rows are long: a few rows of a long b must still see the flag) */
        if (((i & 63) == 0 || S >= 4096) && job->cancel && *job->cancel) return 2;
        if ((i & 63) == 0 && i > 0 && job->extra_limit_pct > 0 && 100 * extra > job->extra_limit_pct * i * S) return 3;
        const int16_t *p = r->profile + (int64_t)job->a[i] * S * V_LANES;
        v16 e = neg, top = zero;
        /* the diagonal of segment 0: lane l's column l S - 1 is lane l - 1's last segment; lane 0's
         * is the boundary column (H = 0) */
        v16 diag = v_shift_in(v_load16(hp + (S - 1) * V_LANES), zero);
        /* E(i, j + 1) = max(E - ge, H - go) with H = max(x, E), x = max(diag + s, F, 0), is
         * max(E - min(go, ge), x - go): the chain from one segment's E to the next is a
         * subtraction and a max, not four operations through H (the loop waits on that chain).
         * F(i, j) = max(F(i - 1, j) - ge, H(i - 1, j) - go) is made here from the row above's final
         * H (which the segment loads anyway: it is the next segment's diagonal) and the stored
         * F(i - 1, j) - ge, so that the lazy passes, which raise H, need not raise F too: they
         * stored F before, 4 of their 13 operations a segment, and on random proteins (BLOSUM62
         * 11/1) they walk about 0.8 segments for every segment of the first passes. */
        for (int64_t t = 0; t < S; t++) {
            const v16 above = v_load16(hp + t * V_LANES);
            const v16 f = v_max(v_load16(fv + t * V_LANES), v_subs(above, go));
            const v16 x = v_max(v_max(v_adds(diag, v_load16(p + t * V_LANES)), f), zero);
            const v16 h = v_max(x, e);
            diag = above;
            v_store16(hc + t * V_LANES, h);
            top = v_max(top, h);
            v_store16(fv + t * V_LANES, v_subs(f, ge));                 /* F(i, j) - ge */
            e = v_max(v_subs(e, g_min), v_subs(x, go));                 /* E(i, j + 1) */
        }
        /* The lazy passes: each lane's E chain enters the next lane at segment 0 and runs on while
         * it still raises an H or would raise an E beyond what the first pass had from H alone
         * (E(j + 1) >= H(j) - gap_open there): both tested, so any gap_open, gap_extend >= 0 is
         * exact, linear gaps and extension dearer than opening too. */
        for (int pass = 0; pass <= V_LANES; pass++) {
            e = v_shift_in(e, neg);
            int64_t t = 0;
            if (open_dearer) {
                /* E > H implies E - ge > H - go, and where E raised H the new H's gap, H - go =
                 * E - go, is below E - ge: the chain carries E - ge alone */
                for (; t < S; t++) {
                    const v16 h = v_load16(hc + t * V_LANES), e_next = v_subs(e, ge);
                    if (!v_any(v_gt(e_next, v_subs(h, go)))) break;
                    const v16 hn = v_max(h, e);
                    v_store16(hc + t * V_LANES, hn);
                    top = v_max(top, hn);
                    e = e_next;
                }
            } else {
                for (; t < S; t++) {
                    const v16 h = v_load16(hc + t * V_LANES);
                    const vmask raises_h = v_gt(e, h), raises_e = v_gt(v_subs(e, ge), v_subs(h, go));
                    if (!v_any(raises_h) && !v_any(raises_e)) break;
                    const v16 hn = v_max(h, e);
                    v_store16(hc + t * V_LANES, hn);
                    top = v_max(top, hn);
                    /* the chain carries only what the first pass lacked: the incoming E decayed,
                     * and where it raised H, that H's new gap (H(j) - gap_open from an H the first
                     * pass had is in its E already: carried again, the chain would never die out) */
                    e = v_max(v_subs(e, ge), v_blend(raises_h, neg, v_subs(hn, go)));
                }
            }
            extra += t < S ? t + 1 : S;
            if (t < S) break;
        }
        /* The row's maximum only where a lane passed the best (rare once a best is found, and a
         * lane at the limit has passed it: best < limit): a scalar maximum over the lanes every
         * row was as much work as the row itself for short rows (a 256-column row is 8 segments
         * of 32 lanes), about half of a 256 x 256 protein pair's time (a Zen 5 core, 2026-11-30). */
        if (!v_any(v_gt(top, v_set1(best)))) goto next_row;
        const int16_t row_top = striped_hmax(top);
        if (row_top >= limit) return 1;
        if (row_top > best) { /* (strictly: an equal maximum on a later row loses to the earlier) */
            best = row_top;
            best_i = i;
            best_j = striped_first_column(hc, S, m, row_top);
            if (best_j == INT64_MAX) return 1; /* (cannot happen: padding never passes a real H; the
                                                  32-bit engines would answer all the same) */
        }
    next_row:;
        int16_t *swap = hp;
        hp = hc;
        hc = swap;
    }
    *score = best;
    *end_a = best_i;
    *end_b = best_j;
    return 0;
}
