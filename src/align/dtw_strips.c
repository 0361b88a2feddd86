/*
 * dtw_strips.c - a warping path through saved rows (MASA-CUDAlign's special rows, for DTW).
 *
 * Hirschberg alone (dtw_path.c) computes about twice the matrix's cells, most of them in large
 * passes one after the other.  Here one forward pass computes the matrix once, as the distance
 * does, and keeps every K-th row (rows K - 1, 2K - 1, ...: the store, on the GPU when the pass
 * ran there).  The path is then found from its end upwards, one strip of K rows at a time:
 *
 *   - anchor (ra, ca): a cell of the path, the path below it known.  The strip is rows
 *     rho + 1 .. ra, rho the saved row above.  A reverse pass over the strip's rows and a
 *     window of columns [clo, ca] gives R(rho + 1, j): the least cost from (rho + 1, j) to the
 *     anchor.  The path leaves row rho at the j (clo <= j <= ca) minimising F(rho, j) +
 *     R(rho + 1, j) (straight down) or F(rho, j) + R(rho + 1, j + 1) (diagonally), F the saved
 *     row (ties: the smallest j, then straight down: Hirschberg's rule).
 *   - The window is enough when that least total is below every total left of it.  A path that
 *     leaves row rho left of clo enters column clo at some row i of the strip, and costs are
 *     never negative, so it costs at least min F(rho, .) + min_i R(i, clo).  The second term is
 *     one more column in the same pass: column clo - 1 with cells of cost 0 (free_last), whose
 *     last-row value is exactly min_i R(i, clo).  Not enough: the window doubles (the work of a
 *     strip is then at most twice its last window's).  clo = 0 is always enough.  (Starting
 *     from the strip below's width instead was measured worse: 3.5x the cells at 262144².)
 *   - The crossing becomes the next anchor; the rectangle from the crossing's lower cell to the
 *     old anchor is a part solved by Hirschberg later.
 *
 * The parts are independent and are solved in parallel.  Work: the forward pass (the matrix
 * once), the strips (about rows x 2K for a path near the diagonal) and the parts (twice the sum
 * of their areas, about rows x 2K again).  Memory: the store, (n - 1) / K rows of m doubles,
 * which bounds K from below ($PEERWAVE_PATH_STORE_MB, 4096 by default).
 *
 * The forward pass sums in double on either backend (f32 series: float costs, as pw_dtw_f32
 * gives each cell), cell for cell the same values, so the GPU and the CPU find the same path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtw_path.h"
#include "align_internal.h"
#include "../core/alloc.h"
#include "../core/exec.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../../apps/checks.h"
#include "../../apps/dtw_saving.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

#define STRIP_ROWS_MIN 1024          /* a multiple of every tile height the GPU pass takes */
#define STORE_MB_DEFAULT 4096

int64_t pw_align_strip_rows(int64_t n, int64_t m, int64_t strips)
{
    int64_t forced = pw_align_env_int("PEERWAVE_PATH_ROWS", 0);
    if (forced > 0) return forced;
    int64_t k = (n / strips + STRIP_ROWS_MIN - 1) / STRIP_ROWS_MIN * STRIP_ROWS_MIN;
    if (k < STRIP_ROWS_MIN) k = STRIP_ROWS_MIN;
    /* the store's cap: (n / k) rows of m doubles */
    double cap = (double)pw_align_env_int("PEERWAVE_PATH_STORE_MB", STORE_MB_DEFAULT) * 1048576.0;
    while ((double)(n / k) * (double)m * sizeof(double) > cap) k += STRIP_ROWS_MIN;
    return k;
}

int64_t pw_align_strip_tile_h(void) { return pw_align_env_int("PEERWAVE_PATH_STRIP_H", PW_STRIP_TILE_H); }

pw_status pw_align_store_failed(int64_t slots, int64_t m, int64_t every, int gpu)
{
    pw_set_error_detail("no room for the saved rows (%.0f MB, one every %lld rows) in the %s's memory: set "
                        "PEERWAVE_PATH_STORE_MB lower (now %lld) to save fewer",
                        (double)slots * (double)m * 8.0 / 1048576.0, (long long)every, gpu ? "GPU" : "host",
                        (long long)pw_align_env_int("PEERWAVE_PATH_STORE_MB", STORE_MB_DEFAULT));
    return PW_ERR_OUT_OF_MEMORY;
}

/* The saved rows: on the host, or on the GPU. */
typedef struct row_store {
    double *host;          /* slots x m, or NULL */
    double *row_min;       /* host: per slot, its least value */
#ifdef PW_HAVE_CUDA
    pw_cuda_rows *gpu;     /* the saved rows and the series on the GPU, or NULL */
    pw_options options;    /* the GPU's passes' (each plans its own rectangle) */
#endif
    int64_t every, slots, m;
} row_store;

static pw_status store_read(const row_store *s, int64_t k, int64_t j0, int64_t count, double *out)
{
#ifdef PW_HAVE_CUDA
    if (s->gpu) return pw_cuda_rows_read(s->gpu, k, j0, count, out);
#endif
    memcpy(out, s->host + k * s->m + j0, sizeof *out * (size_t)count);
    return PW_OK;
}

static double store_min(const row_store *s, int64_t k)
{
#ifdef PW_HAVE_CUDA
    if (s->gpu) return pw_cuda_rows_min(s->gpu)[k];
#endif
    return s->row_min[k];
}

static void store_free(row_store *s)
{
#ifdef PW_HAVE_CUDA
    pw_cuda_rows_free(s->gpu);
#endif
    free(s->host);
    free(s->row_min);
}

/* The forward pass on the CPU saving rows every - 1, 2 every - 1, ...: f64 series on the vector
 * tiles over all threads where they can (apps/dtw_saving.h; the whole matrix, for the same values),
 * else one row after the other (f32 series always: their sums here are in double, the f32 tiles'
 * in float). */
static pw_status forward_cpu(const path_job *job, const pw_options *options, row_store *s, int64_t *cells)
{
    const int64_t m = job->m;
    s->host = pw_malloc(sizeof *s->host * (size_t)(s->slots * m));
    s->row_min = pw_malloc(sizeof *s->row_min * (size_t)(s->slots > 0 ? s->slots : 1));
    if (!s->host || !s->row_min) return s->host ? PW_ERR_OUT_OF_MEMORY : pw_align_store_failed(s->slots, m, s->every, 0);
    double distance = 0;
    pw_status st = job->f32 ? PW_ERR_UNSUPPORTED
                            : pw_dtw_f64_saving(job->a, job->n, job->b, m, job->squared ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE,
                                                options, s->every, s->slots, s->host, &distance);
    if (st == PW_OK) {
        for (int64_t k = 0; k < s->slots; k++) {
            const double *row = s->host + k * m;
            double low = row[0];
            for (int64_t j = 1; j < m; j++) low = row[j] < low ? row[j] : low;
            s->row_min[k] = low;
        }
        *cells += job->n * m;
    }
    if (st != PW_ERR_UNSUPPORTED && st != PW_ERR_OVERFLOW) return st; /* (an infinite distance: as before) */
    double *row = pw_malloc(sizeof *row * (size_t)m);
    if (!row) return PW_ERR_OUT_OF_MEMORY;
    const int64_t rows = s->slots * s->every; /* the last saved row is rows - 1 */
    double acc = 0;
    for (int64_t j = 0; j < m; j++) row[j] = acc += pw_path_cell_cost(job, job->a[0], job->b[j]);
    for (int64_t i = 0; i < rows; i++) {
        if (i > 0) {
            if (job->cancel && *job->cancel) {
                free(row);
                return PW_ERR_CANCELLED;
            }
            double diag = row[0];
            row[0] += pw_path_cell_cost(job, job->a[i], job->b[0]);
            for (int64_t j = 1; j < m; j++) {
                double up = row[j];
                row[j] = pw_dtw_combine_f64(pw_path_cell_cost(job, job->a[i], job->b[j]), up, row[j - 1], diag);
                diag = up;
            }
        }
        if ((i + 1) % s->every == 0) {
            int64_t k = (i + 1) / s->every - 1;
            double low = row[0];
            for (int64_t j = 1; j < m; j++) low = row[j] < low ? row[j] : low;
            memcpy(s->host + k * m, row, sizeof *row * (size_t)m);
            s->row_min[k] = low;
        }
    }
    *cells += rows * m;
    free(row);
    return PW_OK;
}

/* The forward pass on the GPU's DTW kernel; *done = 0 where it cannot run (the CPU's then). */
static pw_status forward_gpu(const path_job *job, const pw_options *options, row_store *s, int64_t *cells,
                             pw_run_info *info, int *done)
{
    *done = 0;
#ifdef PW_HAVE_CUDA
    const int64_t n = job->n, m = job->m;
    pw_options o = pw_options_or_defaults(options);
    o.backend = PW_BACKEND_CUDA;
    o.progress = NULL;
    o.trace = NULL;
    double *series = pw_malloc(sizeof *series * 2 * (size_t)(n + m)); /* a, b, a reversed, b reversed */
    if (!series) return PW_ERR_OUT_OF_MEMORY;
    memcpy(series, job->a, sizeof *series * (size_t)n);
    memcpy(series + n, job->b, sizeof *series * (size_t)m);
    memcpy(series + n + m, job->ra, sizeof *series * (size_t)n);
    memcpy(series + 2 * n + m, job->rb, sizeof *series * (size_t)m);
    s->options = o;
    s->options.tile_h = (int)pw_align_strip_tile_h();
    pw_plan plan;
    pw_status st = pw_plan_make_app(&o, n, m, 0, PW_LINEAR_CUDA_TILE_H, &plan);
    double distance = 0;
    int store_failed = 0;
    if (st == PW_OK)
        st = pw_cuda_dtw_rows(&plan, series, n, m, job->squared, job->f32, s->every, &s->gpu, &distance, info,
                              &store_failed);
    free(series);
    if (st == PW_ERR_UNSUPPORTED) return PW_OK; /* the tile height does not divide K */
    if (store_failed) return pw_align_store_failed(s->slots, m, s->every, 1);
    if (st == PW_OK) {
        *done = 1;
        *cells += n * m;
    }
    return st;
#else
    (void)job, (void)options, (void)s, (void)cells, (void)info;
    return PW_OK;
#endif
}

/* A strip's reverse pass (pw_path_pass over the reversed series from row n - 1 - ra, column
 * m - 1 - ca): on the GPU's DTW kernel where the store is there and the pass is large. */
static pw_status strip_pass(const path_job *job, const row_store *s, int64_t ra, int64_t rows, int64_t ca,
                            int64_t cols, int free_last, double *rev)
{
#ifdef PW_HAVE_CUDA
    if (s->gpu && rows * cols >= job->gpu_cells) {
        pw_plan plan;
        pw_status st = pw_plan_make_app(&s->options, rows, cols, 0, PW_LINEAR_CUDA_TILE_H, &plan);
        if (st != PW_OK) return st;
        return pw_cuda_rows_pass(&plan, s->gpu, 1, job->n - 1 - ra, rows, job->m - 1 - ca, cols, free_last, rev);
    }
#else
    (void)s;
#endif
    return pw_path_pass(job, job->ra + (job->n - 1 - ra), rows, job->rb + (job->m - 1 - ca), cols, free_last, rev);
}

typedef struct strip_walk {
    const path_job *job;
    const row_store *store;
    path_part *parts;  /* filled from the bottom: parts[count - 1] is the top one */
    int64_t count;
    int64_t cells;
    int64_t widened; /* windows doubled */
} strip_walk;

/* The crossing of saved row k (row rho) by the path to the anchor (ra, ca): *bj on row rho,
 * *bk on row rho + 1 (bj or bj + 1). */
static pw_status cross(strip_walk *w, int64_t k, int64_t ra, int64_t ca, int64_t *bj, int64_t *bk)
{
    const path_job *job = w->job;
    const int64_t rho = (k + 1) * w->store->every - 1, rows = ra - rho;
    int64_t width = 2 * rows > 32 ? 2 * rows : 32;
    if (width > ca + 1) width = ca + 1;
    double *buf = pw_malloc(sizeof *buf * 2 * (size_t)(ca + 2));
    if (!buf) return PW_ERR_OUT_OF_MEMORY;
    for (;;) {
        const int64_t clo = ca - width + 1, sentinel = clo > 0, cols = width + sentinel;
        double *rev = buf, *fwd = buf + (ca + 2); /* rev[x]: R(rho + 1, ca - x); fwd[j - clo]: F(rho, j) */
        pw_status st = strip_pass(job, w->store, ra, rows, ca, cols, (int)sentinel, rev);
        if (st == PW_OK) st = store_read(w->store, k, clo, width, fwd);
        w->cells += rows * cols;
        if (st != PW_OK) {
            free(buf);
            return st;
        }
        double best = INFINITY;
        *bj = *bk = clo;
        for (int64_t j = clo; j <= ca; j++) {
            double down = fwd[j - clo] + rev[ca - j];
            if (down < best) {
                best = down;
                *bj = *bk = j;
            }
            if (j < ca) {
                double diag = fwd[j - clo] + rev[ca - j - 1];
                if (diag < best) {
                    best = diag;
                    *bj = j;
                    *bk = j + 1;
                }
            }
        }
        /* Paths leaving row rho left of clo cost at least this (the file's comment). */
        if (!sentinel || best < store_min(w->store, k) + rev[cols - 1]) break;
        width = 2 * width < ca + 1 ? 2 * width : ca + 1;
        w->widened++;
        if (job->cancel && *job->cancel) {
            free(buf);
            return PW_ERR_CANCELLED;
        }
    }
    free(buf);
    return PW_OK;
}

static void solve_part(void *part) { pw_path_solve(part); }

static void solve_parts(path_part *parts, int64_t count, int threads)
{
    int workers = threads < count ? threads : (int)count;
    int inner = threads / (workers > 0 ? workers : 1);
    for (int64_t k = 0; k < count; k++) parts[k].threads = inner > 0 ? inner : 1;
    pw_align_pool_run(parts, sizeof *parts, count, threads, solve_part);
}

pw_status pw_path_by_strips(const path_job *job, const pw_options *options, int threads, int64_t *cells,
                            pw_run_info *info)
{
    row_store store = {0};
    store.every = pw_align_strip_rows(job->n, job->m, PW_DTW_STRIPS);
    store.slots = (job->n - 1) / store.every;
    store.m = job->m;
    pw_run_info forward_info;
    pw_run_info_clear(&forward_info);
    int on_gpu = 0;
    pw_status st = PW_OK;
    double t0 = pw_seconds_now();
    if (job->gpu && job->n * job->m >= job->gpu_cells)
        st = forward_gpu(job, options, &store, cells, &forward_info, &on_gpu);
    if (st == PW_OK && !on_gpu) st = forward_cpu(job, options, &store, cells);
    double t1 = pw_seconds_now();
    strip_walk w = {job, &store, NULL, 0, 0, 0};
    if (st == PW_OK && !(w.parts = pw_malloc(sizeof *w.parts * (size_t)(store.slots + 1)))) st = PW_ERR_OUT_OF_MEMORY;
    int64_t ra = job->n - 1, ca = job->m - 1;
    for (int64_t k = store.slots - 1; st == PW_OK && k >= 0; k--) {
        int64_t bj = 0, bk = 0, rho = (k + 1) * store.every - 1;
        st = cross(&w, k, ra, ca, &bj, &bk);
        if (st != PW_OK) break;
        w.parts[w.count++] = (path_part){job, rho + 1, ra, bk, ca, 0, 1, 0, PW_OK};
        ra = rho;
        ca = bj;
    }
    store_free(&store);
    double t2 = pw_seconds_now();
    int64_t strip_cells = w.cells;
    if (st == PW_OK) {
        w.parts[w.count++] = (path_part){job, 0, ra, 0, ca, 0, 1, 0, PW_OK};
        /* top to bottom, each part's cells after the one above's */
        for (int64_t x = 0; x < w.count / 2; x++) {
            path_part p = w.parts[x];
            w.parts[x] = w.parts[w.count - 1 - x];
            w.parts[w.count - 1 - x] = p;
        }
        int64_t out = 0;
        for (int64_t x = 0; x < w.count; x++) {
            w.parts[x].out = out;
            out += (w.parts[x].r1 - w.parts[x].r0) + (w.parts[x].c1 - w.parts[x].c0) + 1;
        }
        solve_parts(w.parts, w.count, threads);
        for (int64_t x = 0; x < w.count && st == PW_OK; x++) {
            w.cells += w.parts[x].cells;
            st = w.parts[x].status;
        }
    }
    free(w.parts);
    *cells += w.cells;
    /* $PEERWAVE_PATH_TIMES: where the time went, a tuning aid (stderr) */
    if (getenv("PEERWAVE_PATH_TIMES"))
        fprintf(stderr, "path: rows every %lld; forward %.4f s (%s); %lld strips %.4f s (%lld cells, %lld windows "
                        "doubled); %lld parts %.4f s (%lld cells)\n",
                (long long)store.every, t1 - t0, on_gpu ? "GPU" : "CPU", (long long)store.slots, t2 - t1,
                (long long)strip_cells, (long long)w.widened, (long long)w.count, pw_seconds_now() - t2,
                (long long)(w.cells - strip_cells));
    /* the run information: the forward pass's, with the GPU passes' cells and time added */
    pw_run_info passes;
    pw_run_info_clear(&passes);
    pw_align_gpu_info(job->gpu, &passes);
    *info = on_gpu ? forward_info : passes;
    if (on_gpu) {
        info->cells += passes.cells;
        info->seconds += passes.seconds;
    }
    return st;
}
