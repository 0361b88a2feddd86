/*
 * myers_miller.c - the least-cost global alignment of a rectangle in linear space, with affine
 * gaps (E. W. Myers and W. Miller, "Optimal alignments in linear space", CABIOS 4, 1988).
 *
 * Costs: a pair costs -score, a gap of k letters g + h k.  A rectangle of rows letters of a and
 * cols of b is split at its middle row mid = rows / 2:
 *   - a forward pass over rows [0, mid) gives, for each node (mid, j), CC[j] (least cost from the
 *     start) and DD[j] (least cost among paths ending with a letter of a against a gap);
 *   - a reverse pass over rows [mid, rows) gives RR[j] and SS[j] (the same to the end);
 *   - the alignment crosses row mid at the j minimising CC[j] + RR[j] (type 1) or, inside a run
 *     of a-only columns, DD[j] + SS[j] - g (type 2: the run's opening was counted twice).
 * Type 1 recurses on (rows [0, mid), cols [0, j)) and (rows [mid, rows), cols [j, cols)); type 2
 * puts a[mid - 1] and a[mid] against gaps and recurses on the rows above and below them, whose
 * runs touching the split then cost h a letter (tb, te = 0: they continue the split's run).
 *
 * Ties: the smallest j of type 1; type 2 only when strictly cheaper, then its smallest j.  One
 * row: the a-letter against a gap first (when that is cheapest), else the smallest j.  These
 * rules are the library's tie rule (peerwave_align.h); every pass computes exact integers, so
 * the CPU and the GPU pass give the same alignment.
 *
 * Work: about twice the rectangle's cells.  Parallel: the forward and reverse passes of a large
 * split run on two threads, and so do the two halves after it (each writes its operations into
 * its own part of the output, compacted at the end).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "align_internal.h"
#include "../core/alloc.h"
#include "../core/plan.h"

#define MM_PARALLEL_CELLS ((int64_t)1 << 22) /* below this a second thread is not worth it */

typedef struct mm_state {
    const pw_mm_job *job;
    int32_t g, h;
} mm_state;

pw_status pw_mm_pass_cpu(void *scoring, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                         int32_t tb, int32_t *cc, int32_t *dd)
{
    const pw_align_scoring *s = scoring;
    const int32_t g = s->gap_open - s->gap_extend, h = s->gap_extend;
    cc[0] = 0;
    int32_t t = g;
    for (int64_t j = 1; j <= cols; j++) {
        cc[j] = t = t + h;
        dd[j] = t + g;
    }
    t = tb;
    for (int64_t i = 1; i <= rows; i++) {
        const int32_t *w = s->scores + (size_t)a[i - 1] * (size_t)s->alphabet;
        int32_t sdiag = cc[0];
        int32_t c = t = t + h;
        cc[0] = c;
        int32_t e = t + g;
        for (int64_t j = 1; j <= cols; j++) {
            int32_t open = c + g;
            e = (open < e ? open : e) + h;
            open = cc[j] + g;
            int32_t d = (open < dd[j] ? open : dd[j]) + h;
            c = sdiag - w[b[j - 1]];
            if (e < c) c = e;
            if (d < c) c = d;
            sdiag = cc[j];
            cc[j] = c;
            dd[j] = d;
        }
    }
    dd[0] = cc[0];
    return PW_OK;
}

static pw_status run_pass(const mm_state *st, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                          int32_t tb, int32_t *cc, int32_t *dd)
{
    const pw_mm_passes *p = &st->job->passes;
    if (p->big && rows * cols >= p->big_cells) return p->big(p->big_ctx, a, rows, b, cols, tb, cc, dd);
    return pw_mm_pass_cpu((void *)&st->job->scoring, a, rows, b, cols, tb, cc, dd);
}

typedef struct pass_args {
    const mm_state *st;
    const uint8_t *a, *b;
    int64_t rows, cols;
    int32_t tb;
    int32_t *cc, *dd;
    pw_status status;
} pass_args;

static void *pass_thread(void *p)
{
    pass_args *x = p;
    x->status = run_pass(x->st, x->a, x->rows, x->b, x->cols, x->tb, x->cc, x->dd);
    return NULL;
}

int pw_align_threads(const pw_options *o)
{
    return o && o->threads > 0 ? o->threads : pw_cpu_count(); /* (the engines' count: core/plan.h) */
}

void pw_align_share_threads(int parallel, int threads, int *first, int *second)
{
    *first = parallel ? (threads + 1) / 2 : threads;
    *second = parallel ? threads - *first : threads;
}

void pw_align_run_both(int parallel, void *(*fn)(void *), void *first, void *second)
{
    pthread_t t;
    if (parallel && pthread_create(&t, NULL, fn, first) == 0) {
        fn(second);
        pthread_join(t, NULL);
        return;
    }
    fn(first);
    fn(second);
}

static void emit(char *ops, int64_t *at, char op, int64_t k)
{
    memset(ops + *at, op, (size_t)k);
    *at += k;
}

typedef struct part {
    const mm_state *st;
    int64_t a0, rows, b0, cols; /* the rectangle in whole-sequence coordinates */
    int32_t tb, te;
    char *ops;                  /* room for rows + cols; unused room is left as 0 */
    int threads;                /* threads this part may use */
    int64_t cells;
    pw_status status;
} part;

static void *part_thread(void *p);

/* One letter of a (rows == 1) against cols >= 1 letters of b. */
static void one_row(part *x)
{
    const mm_state *st = x->st;
    const pw_align_scoring *s = &st->job->scoring;
    const uint8_t a = st->job->a[x->a0], *b = st->job->b + x->b0;
    int32_t g = st->g, h = st->h, n = (int32_t)x->cols;
    int32_t tb = x->tb < x->te ? x->tb : x->te;
    int64_t best = (int64_t)tb + h + g + (int64_t)h * n, at = 0; /* a against a gap, b inserted */
    int64_t best_j = -1;
    for (int64_t j = 0; j < x->cols; j++) {
        int64_t c = -(int64_t)s->scores[a * s->alphabet + b[j]];
        if (j > 0) c += g + (int64_t)h * j;
        if (j < x->cols - 1) c += g + (int64_t)h * (x->cols - 1 - j);
        if (c < best) {
            best = c;
            best_j = j;
        }
    }
    if (best_j < 0) {
        /* The a-letter joins the run it continues (the one above when tb is free). */
        if (x->tb <= x->te) {
            emit(x->ops, &at, PW_OP_A_ONLY, 1);
            emit(x->ops, &at, PW_OP_B_ONLY, x->cols);
        } else {
            emit(x->ops, &at, PW_OP_B_ONLY, x->cols);
            emit(x->ops, &at, PW_OP_A_ONLY, 1);
        }
        return;
    }
    emit(x->ops, &at, PW_OP_B_ONLY, best_j);
    emit(x->ops, &at, PW_OP_PAIR, 1);
    emit(x->ops, &at, PW_OP_B_ONLY, x->cols - 1 - best_j);
}

static void solve(part *x)
{
    const mm_state *st = x->st;
    const pw_mm_job *job = st->job;
    int64_t at = 0;
    if (job->cancel && *job->cancel) {
        x->status = PW_ERR_CANCELLED;
        return;
    }
    if (x->cols == 0) {
        emit(x->ops, &at, PW_OP_A_ONLY, x->rows);
        return;
    }
    if (x->rows == 0) {
        emit(x->ops, &at, PW_OP_B_ONLY, x->cols);
        return;
    }
    if (x->rows == 1) {
        one_row(x);
        return;
    }
    int64_t mid = x->rows / 2, n = x->cols;
    int32_t *buf = pw_malloc(sizeof *buf * 4 * (size_t)(n + 1));
    if (!buf) {
        x->status = PW_ERR_OUT_OF_MEMORY;
        return;
    }
    int32_t *cc = buf, *dd = buf + (n + 1), *rr = buf + 2 * (n + 1), *ss = buf + 3 * (n + 1);
    /* Forward over a[a0, a0 + mid); reverse over a[a0 + mid, a0 + rows) read backwards, which
     * is ra from n - (a0 + rows), against b[b0, b0 + n) backwards: rb from m - (b0 + n). */
    pass_args fwd = {st, job->a + x->a0, job->b + x->b0, mid, n, x->tb, cc, dd, PW_OK};
    pass_args rev = {st, job->ra + (job->n - (x->a0 + x->rows)), job->rb + (job->m - (x->b0 + n)),
                     x->rows - mid, n, x->te, rr, ss, PW_OK};
    int parallel = x->threads > 1 && x->rows * n >= MM_PARALLEL_CELLS;
    pw_align_run_both(parallel, pass_thread, &fwd, &rev);
    x->cells += x->rows * n;
    if (fwd.status != PW_OK || rev.status != PW_OK) {
        x->status = fwd.status != PW_OK ? fwd.status : rev.status;
        free(buf);
        return;
    }
    /* rr[k] is the cost from node (mid, n - k) to the end. */
    int64_t best1 = INT64_MAX, best2 = INT64_MAX, j1 = 0, j2 = 0;
    for (int64_t j = 0; j <= n; j++) {
        int64_t c = (int64_t)cc[j] + rr[n - j];
        if (c < best1) {
            best1 = c;
            j1 = j;
        }
        c = (int64_t)dd[j] + ss[n - j] - st->g;
        if (c < best2) {
            best2 = c;
            j2 = j;
        }
    }
    free(buf);
    int type2 = best2 < best1;
    int64_t j = type2 ? j2 : j1;
    part top = {st, x->a0, type2 ? mid - 1 : mid, x->b0, j, x->tb, type2 ? 0 : st->g, x->ops, 1, 0, PW_OK};
    int64_t top_room = top.rows + top.cols;
    char *bottom_ops = x->ops + top_room + (type2 ? 2 : 0);
    part bottom = {st, x->a0 + mid + (type2 ? 1 : 0), x->rows - mid - (type2 ? 1 : 0), x->b0 + j, n - j,
                   type2 ? 0 : st->g, x->te, bottom_ops, 1, 0, PW_OK};
    if (type2) x->ops[top_room] = x->ops[top_room + 1] = PW_OP_A_ONLY;
    parallel = x->threads > 1 && top.rows * top.cols >= MM_PARALLEL_CELLS &&
               bottom.rows * bottom.cols >= MM_PARALLEL_CELLS;
    pw_align_share_threads(parallel, x->threads, &top.threads, &bottom.threads);
    pw_align_run_both(parallel, part_thread, &top, &bottom);
    x->cells += top.cells + bottom.cells;
    x->status = top.status != PW_OK ? top.status : bottom.status;
}

static void *part_thread(void *p)
{
    solve(p);
    return NULL;
}

pw_status pw_myers_miller(const pw_mm_job *job, int64_t a0, int64_t rows, int64_t b0, int64_t cols,
                          int open_top, int open_bottom, char *ops, int64_t *count, int64_t *cells)
{
    mm_state st = {job, job->scoring.gap_open - job->scoring.gap_extend, job->scoring.gap_extend};
    memset(ops, 0, (size_t)(rows + cols));
    part whole = {&st, a0, rows, b0, cols, open_top ? st.g : 0, open_bottom ? st.g : 0, ops,
                  job->threads > 0 ? job->threads : 1, 0, PW_OK};
    solve(&whole);
    *cells += whole.cells;
    if (whole.status != PW_OK) return whole.status;
    int64_t k = 0;
    for (int64_t i = 0; i < rows + cols; i++)
        if (ops[i]) ops[k++] = ops[i];
    *count = k;
    return PW_OK;
}
