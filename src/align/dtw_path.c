/*
 * dtw_path.c - pw_dtw_path_f64 / _f32: an optimal warping path in linear space (Hirschberg).
 * Large searches first cut the path at saved rows of one forward pass (dtw_strips.c), then solve
 * each strip's rectangle as below.
 *
 * A part is a rectangle of rows [r0, r1] and columns [c0, c1] whose path runs from (r0, c0) to
 * (r1, c1).  With two or more rows it is split at mid = r0 + (r1 - r0) / 2:
 *   - forward pass over rows r0 .. mid: F[j], the least cost from (r0, c0) to (mid, j);
 *   - reverse pass over rows r1 .. mid + 1 (the reversed series): R[j], the least cost from
 *     (mid + 1, j) to (r1, c1);
 *   - the path leaves row mid from (mid, j) to (mid + 1, j) or (mid + 1, j + 1): the least of
 *     F[j] + R[j] and F[j] + R[j + 1] (ties: the smallest j, then straight down);
 * and the two parts are solved the same way (on two threads while large), down to parts of at
 * most 2^23 cells ($PEERWAVE_PATH_FULL_CELLS), solved by a full matrix and a traceback.  Both ends' costs are
 * inside F and R, so each cell is counted once.  All in double: f32 series give each cell the
 * cost pw_dtw_f32 computes (in float), summed in double.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_align.h"
#include "../../apps/checks.h"
#include "../../apps/dtw_cell.h"
#include "align_internal.h"
#include "dtw_path.h"
#include "../core/alloc.h"
#include "../core/checked.h"
#include "../core/status_detail.h"
#include "../core/exec.h"

#define PATH_PARALLEL_CELLS ((int64_t)1 << 22)
#define PATH_FULL_CELLS ((int64_t)1 << 23) /* parts this small: a full matrix (1 byte a cell) */

pw_status pw_path_pass(const path_job *job, const double *a, int64_t rows, const double *b, int64_t cols,
                       int free_last, double *last)
{
    if (job->gpu && rows * cols >= job->gpu_cells)
        return pw_align_gpu_dtw_pass(job->gpu, a, rows, b, cols, free_last, last);
    const int64_t costed = free_last ? cols - 1 : cols; /* columns with their true cost */
    double acc = 0;
    for (int64_t j = 0; j < cols; j++) last[j] = acc += j < costed ? pw_path_cell_cost(job, a[0], b[j]) : 0.0;
    for (int64_t i = 1; i < rows; i++) {
        double diag = last[0];
        last[0] += costed > 0 ? pw_path_cell_cost(job, a[i], b[0]) : 0.0;
        for (int64_t j = 1; j < cols; j++) {
            double up = last[j];
            double c = j < costed ? pw_path_cell_cost(job, a[i], b[j]) : 0.0;
            last[j] = pw_dtw_combine_f64(c, up, last[j - 1], diag);
            diag = up;
        }
    }
    return PW_OK;
}

typedef struct path_pass_args {
    const path_job *job;
    const double *a, *b;
    int64_t rows, cols;
    double *last;
    pw_status status;
} path_pass_args;

static void *pass_thread(void *p)
{
    path_pass_args *x = p;
    x->status = pw_path_pass(x->job, x->a, x->rows, x->b, x->cols, 0, x->last);
    return NULL;
}


static void *part_thread(void *p);

/* A part of few cells: the whole matrix of the part with each cell's best predecessor, then
 * the traceback from its end, preferring left, then diagonal, then up where they tie (so each
 * row, from the bottom, is entered at its smallest column).  Half Hirschberg's work. */
static pw_status solve_full(path_part *x)
{
    const path_job *job = x->job;
    const int64_t rows = x->r1 - x->r0 + 1, cols = x->c1 - x->c0 + 1;
    const double *a = job->a + x->r0, *b = job->b + x->c0;
    unsigned char *from = pw_malloc((size_t)(rows * cols)); /* 0 up, 1 left, 2 diagonal */
    double *row = pw_malloc(sizeof *row * (size_t)cols);
    if (!from || !row) {
        free(from);
        free(row);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t i = 0; i < rows; i++) {
        double diag = i == 0 ? 0 : INFINITY; /* D(i - 1, j - 1); D(-1, -1) = 0 */
        for (int64_t j = 0; j < cols; j++) {
            double up = i ? row[j] : INFINITY, left = j ? row[j - 1] : INFINITY, best = left;
            unsigned char f = 1;
            if (diag < best) best = diag, f = 2;
            if (up < best) best = up, f = 0;
            from[i * cols + j] = f;
            row[j] = pw_dtw_combine_f64(pw_path_cell_cost(job, a[i], b[j]), up, left, diag);
            diag = up;
        }
    }
    free(row);
    int64_t i = rows - 1, j = cols - 1, len = 0;
    for (;;) { /* the path backwards from the end, then turned around */
        job->pi[x->out + len] = x->r0 + i;
        job->pj[x->out + len++] = x->c0 + j;
        if (i == 0 && j == 0) break;
        unsigned char f = from[i * cols + j];
        i -= f != 1;
        j -= f != 0;
    }
    for (int64_t k = 0; k < len / 2; k++) {
        int64_t *p = job->pi + x->out, *q = job->pj + x->out, t = p[k];
        p[k] = p[len - 1 - k], p[len - 1 - k] = t;
        t = q[k], q[k] = q[len - 1 - k], q[len - 1 - k] = t;
    }
    x->cells += rows * cols;
    free(from);
    return PW_OK;
}

static int64_t full_cells(void)
{
    return pw_align_env_int("PEERWAVE_PATH_FULL_CELLS", PATH_FULL_CELLS);
}

void pw_path_solve(path_part *x)
{
    const path_job *job = x->job;
    if (job->cancel && *job->cancel) {
        x->status = PW_ERR_CANCELLED;
        return;
    }
    if (x->r0 == x->r1 || x->c0 == x->c1) {
        int64_t k = x->out;
        for (int64_t i = x->r0; i <= x->r1; i++)
            for (int64_t j = x->c0; j <= x->c1; j++) {
                job->pi[k] = i;
                job->pj[k++] = j;
            }
        return;
    }
    if ((x->r1 - x->r0 + 1) * (x->c1 - x->c0 + 1) <= full_cells()) {
        x->status = solve_full(x);
        return;
    }
    int64_t mid = x->r0 + (x->r1 - x->r0) / 2, cols = x->c1 - x->c0 + 1;
    double *buf = pw_malloc(sizeof *buf * 2 * (size_t)cols);
    if (!buf) {
        x->status = PW_ERR_OUT_OF_MEMORY;
        return;
    }
    double *fwd = buf, *rev = buf + cols; /* rev[k]: from (mid + 1, c1 - k) to the end */
    path_pass_args f = {job, job->a + x->r0, job->b + x->c0, mid - x->r0 + 1, cols, fwd, PW_OK};
    path_pass_args r = {job, job->ra + (job->n - 1 - x->r1), job->rb + (job->m - 1 - x->c1), x->r1 - mid, cols, rev, PW_OK};
    pw_align_run_both(x->threads > 1 && (x->r1 - x->r0 + 1) * cols >= PATH_PARALLEL_CELLS, pass_thread, &f, &r);
    x->cells += (x->r1 - x->r0 + 1) * cols;
    if (f.status != PW_OK || r.status != PW_OK) {
        x->status = f.status != PW_OK ? f.status : r.status;
        free(buf);
        return;
    }
    double best = INFINITY;
    int64_t bj = x->c0, bk = x->c0;
    for (int64_t j = x->c0; j <= x->c1; j++) {
        double down = fwd[j - x->c0] + rev[x->c1 - j];
        if (down < best) {
            best = down;
            bj = bk = j;
        }
        if (j < x->c1) {
            double diag = fwd[j - x->c0] + rev[x->c1 - j - 1];
            if (diag < best) {
                best = diag;
                bj = j;
                bk = j + 1;
            }
        }
    }
    free(buf);
    path_part top = {job, x->r0, mid, x->c0, bj, x->out, 1, 0, PW_OK};
    path_part bottom = {job, mid + 1, x->r1, bk, x->c1, x->out + (mid - x->r0) + (bj - x->c0) + 1, 1, 0, PW_OK};
    int parallel = x->threads > 1 && (mid - x->r0 + 1) * (bj - x->c0 + 1) >= PATH_PARALLEL_CELLS &&
                   (x->r1 - mid) * (x->c1 - bk + 1) >= PATH_PARALLEL_CELLS;
    pw_align_share_threads(parallel, x->threads, &top.threads, &bottom.threads);
    pw_align_run_both(parallel, part_thread, &top, &bottom);
    x->cells += top.cells + bottom.cells;
    x->status = top.status != PW_OK ? top.status : bottom.status;
}

static void *part_thread(void *p)
{
    pw_path_solve(p);
    return NULL;
}

void pw_warp_path_free(pw_warp_path *path)
{
    if (!path) return;
    free(path->i);
    free(path->j);
    path->i = path->j = NULL;
}


/* The path of series already in double (f32: their values are floats). */
static pw_status path_of(const double *a, int64_t n, const double *b, int64_t m, int squared, int f32,
                         const pw_options *options, pw_warp_path *out)
{
    double t0 = pw_seconds_now();
    int64_t room = n + m - 1;
    double *rev = pw_malloc(sizeof *rev * (size_t)(n + m));
    int64_t *pi = pw_malloc(sizeof *pi * (size_t)room), *pj = pw_malloc(sizeof *pj * (size_t)room);
    if (!rev || !pi || !pj) {
        free(rev);
        free(pi);
        free(pj);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t k = 0; k < n; k++) rev[k] = a[n - 1 - k];
    for (int64_t k = 0; k < m; k++) rev[n + k] = b[m - 1 - k];
    for (int64_t k = 0; k < room; k++) pi[k] = -1;
    path_job job = {a, b, rev, rev + n, n, m, squared, f32, pi, pj, NULL, 0, options ? options->cancel : NULL};
    int threads = pw_align_threads(options);
    int use_gpu = 0;
    pw_status st = pw_align_gpu_wanted(options, &use_gpu);
    if (st == PW_OK && use_gpu) st = pw_align_gpu_open(PW_ALIGN_PASS_DTW, NULL, squared, f32, options, &job.gpu);
    if (job.gpu) job.gpu_cells = pw_align_gpu_min_cells(job.gpu);
    path_part whole = {&job, 0, n - 1, 0, m - 1, 0, threads, 0, st};
    if (st == PW_OK && (n - 1) / pw_align_strip_rows(n, m, PW_DTW_STRIPS) >= 1)
        whole.status = pw_path_by_strips(&job, options, threads, &whole.cells, &out->info);
    else if (st == PW_OK) {
        pw_path_solve(&whole);
        pw_align_gpu_info(job.gpu, &out->info);
    }
    pw_align_gpu_close(job.gpu);
    free(rev);
    if (whole.status != PW_OK) {
        free(pi);
        free(pj);
        return whole.status;
    }
    int64_t len = 0;
    double total = 0;
    for (int64_t k = 0; k < room; k++)
        if (pi[k] >= 0) {
            pi[len] = pi[k];
            pj[len] = pj[k];
            total += pw_path_cell_cost(&job, a[pi[len]], b[pj[len]]);
            len++;
        }
    if (!isfinite(total)) { /* (as pw_dtw refuses such a distance) */
        free(pi);
        free(pj);
        pw_set_error_detail("the path's cost passes the largest double (samples such as 1e308 and -1e308)");
        return PW_ERR_OVERFLOW;
    }
    out->i = pi;
    out->j = pj;
    out->length = len;
    out->distance = total;
    out->cells = whole.cells;
    out->seconds = pw_seconds_now() - t0;
    return PW_OK;
}

/* Check as pw_dtw does (finite samples), convert to double, find the path. */
#define DTW_PATH_DEFINE(T, SUFFIX)                                                                \
    pw_status pw_dtw_path_##SUFFIX(const T *a, int64_t n, const T *b, int64_t m, pw_dtw_cost cost, \
                                   const pw_options *options, pw_warp_path *out)                  \
    {                                                                                             \
        if (!out) return PW_ERR_NULL_ARGUMENT;                                                    \
        memset(out, 0, sizeof *out);                                                              \
        pw_status st = options ? pw_options_check(options) : PW_OK; /* (threads -3 ran before) */ \
        if (st == PW_OK) st = pw_dtw_check(a, n, b, m, cost, out);                                \
        if (st == PW_OK) st = pw_align_env_check();                                               \
        if (st != PW_OK) return st;                                                               \
        int64_t cells;                                                                            \
        size_t bytes;                                                                             \
        if (n > INT64_MAX - m || !pw_checked_bytes(n + m, 1, sizeof(double), &bytes) ||           \
            !pw_checked_cells(n, m, &cells)) {                                                    \
            pw_set_error_detail("%lld x %lld samples: more than this machine can count", (long long)n, \
                                (long long)m);                                                    \
            return PW_ERR_SIZE_OVERFLOW;                                                          \
        }                                                                                         \
        double *d = pw_malloc(bytes);                                                             \
        if (!d) return PW_ERR_OUT_OF_MEMORY;                                                      \
        for (int64_t k = 0; k < n + m; k++) {                                                     \
            d[k] = (double)(k < n ? a[k] : b[k - n]);                                             \
            if (!isfinite(d[k])) {                                                                \
                free(d);                                                                          \
                return PW_ERR_BAD_INPUT;                                                          \
            }                                                                                     \
        }                                                                                         \
        st = path_of(d, n, d + n, m, cost == PW_DTW_SQUARED, sizeof(T) == sizeof(float), options, out); \
        free(d);                                                                                  \
        return st;                                                                                \
    }

DTW_PATH_DEFINE(double, f64)
DTW_PATH_DEFINE(float, f32)
