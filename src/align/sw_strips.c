/*
 * sw_strips.c - the optimal local alignment through rows saved by the score pass
 * (MASA-CUDAlign's special rows and crosspoints, for Smith-Waterman-Gotoh).
 *
 * Nodes: (i, j) is the point after a[0, i) and b[0, j); H(i, j) the best score of a local
 * alignment ending there, F(i, j) the best ending with a letter of a against a gap (the vertical
 * gap state the score pass hands down).  A run of k letters against gaps costs g + h k
 * (g = gap_open - gap_extend, h = gap_extend).
 *
 *   1. The score pass (the built-in SW kernel on the GPU, app_sw.cuh's ForPath; a plain loop on
 *      the CPU) also keeps H and F of node rows K, 2K, ... (the store).
 *   2. From the end node upwards, one strip at a time.  The anchor (ia, ja) is a node of the
 *      alignment, the alignment below it known; T its prefix's best score (S at the end).  R is
 *      the saved row above it (0: the boundary, H = 0).  A reverse pass from the anchor over rows
 *      [R, ia) and a window of columns [c0, ja) (cells/sw_strip.c on the GPU, strip_pass_cpu
 *      here) gives Hrev(R, c), Frev(R, c) (best scores from node (R, c) to the anchor; Frev: those
 *      going down first), the best Hrev of the whole strip and its node, and Hrev along column
 *      c0.  Then, in this order:
 *        - the start is in the strip when the best Hrev is T (the nearest such node: the
 *          largest row, then the largest column);
 *        - else the alignment crosses row R at the smallest c with H(R, c) + Hrev(R, c) = T,
 *          which becomes the next anchor (T = H(R, c));
 *        - else at the smallest c with F(R, c) + Frev(R, c) + g = T: inside a run of a-letters
 *          against gaps (the run's opening was counted twice).  a[R - 1] and a[R] are put
 *          against gaps and the next anchor is (R - 1, c), with that run going on below it
 *          (tb = 0) and T = F(R, c) + g + h.
 *      The window must hold every optimal path: one entering it from the left at node (i, c0)
 *      scores at most max(0, max_c H(R, c) - h max(0, c0 - 1 - c - (ia - R))) (it crossed row R
 *      at c < c0, or started after it) + max(0, best pair score) (i - R + 1) (the rows it can have
 *      gained in since) + g (a run that goes on across) + Hrev(i, c0).  When that bound is not
 *      below T the window doubles; c0 = 0 always holds.
 *   3. The parts between consecutive crossings are global alignments, solved in parallel by
 *      Myers-Miller (myers_miller.c, its large passes on the GPU) with the run states at their
 *      ends.
 *
 * Work: the score pass (with a store every K rows), strips of about K x (K + the path's drift)
 * cells each, parts twice their areas.  The same integers on both backends, so the CPU's search
 * (forced by $PEERWAVE_PATH_ROWS, as the tests do) finds the GPU's alignment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align_internal.h"
#include "gpu_passes.h"
#include "../core/alloc.h"
#include "../core/exec.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../../apps/checks.h"
#include "../../apps/sw_cell.h"
#include "../../apps/sw_saving.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

#define NONE ((int64_t)PW_SW_NEG_INF)

/* The saved node rows (k + 1) every, k < slots: on the host, or on the GPU. */
typedef struct sw_store {
    int32_t *h, *f; /* host: slots x m, node columns 1 .. m */
#ifdef PW_HAVE_CUDA
    pw_cuda_sw_store *gpu;
#endif
    int64_t every, slots, m;
} sw_store;

static pw_status store_read(const sw_store *s, int64_t k, int64_t j0, int64_t count, int32_t *h, int32_t *f)
{
#ifdef PW_HAVE_CUDA
    if (s->gpu) return pw_cuda_sw_store_read(s->gpu, k, j0, count, h, f);
#endif
    memcpy(h, s->h + k * s->m + j0, sizeof *h * (size_t)count);
    if (f) memcpy(f, s->f + k * s->m + j0, sizeof *f * (size_t)count);
    return PW_OK;
}

/* A bound on the prefixes that reach column c0 - 1 from saved row k within `slack` rows: the
 * largest H(R, c) - h max(0, (c0 - 1 - c) - slack) over node columns 1 <= c < c0 (NONE when
 * c0 <= 1).  Such a prefix has c0 - 1 - c letters of b and at most slack of a, so all but slack of
 * those b-letters go against gaps, h each at least.  Exact over the last slack + 1 columns; further
 * left, on the GPU, by each 1024 columns' largest H less its nearest column's penalty. */
static pw_status store_left_bound(const sw_store *s, int64_t k, int64_t c0, int64_t slack, int64_t h, int64_t *out)
{
    /* stored index x = c - 1 in [0, c0 - 1); penalty h max(0, c0 - 2 - x - slack) */
    const int64_t to = c0 - 1, near = c0 - 2 - slack > 0 ? c0 - 2 - slack : 0;
    int64_t best = NONE, from = 0;
#ifdef PW_HAVE_CUDA
    if (s->gpu) {
        const int64_t chunks = (s->m + PW_CUDA_SW_CHUNK - 1) / PW_CUDA_SW_CHUNK;
        const int32_t *cm = pw_cuda_sw_store_chunk_max(s->gpu) + k * chunks;
        for (; from + PW_CUDA_SW_CHUNK <= near; from += PW_CUDA_SW_CHUNK) {
            const int64_t v = cm[from / PW_CUDA_SW_CHUNK] - h * (c0 - 2 - (from + PW_CUDA_SW_CHUNK - 1) - slack);
            best = v > best ? v : best;
        }
    }
#endif
    if (to > from) {
        int32_t *part = pw_malloc(sizeof *part * (size_t)(to - from));
        if (!part) return PW_ERR_OUT_OF_MEMORY;
        pw_status st = store_read(s, k, from, to - from, part, NULL);
        for (int64_t x = from; st == PW_OK && x < to; x++) {
            const int64_t v = part[x - from] - (x < near ? h * (c0 - 2 - x - slack) : 0);
            best = v > best ? v : best;
        }
        free(part);
        if (st != PW_OK) return st;
    }
    *out = best;
    return PW_OK;
}

static void store_free(sw_store *s)
{
#ifdef PW_HAVE_CUDA
    pw_cuda_sw_store_free(s->gpu);
#endif
    free(s->h);
    free(s->f);
}

/* The score pass on the CPU keeping the store: the vector tiles on all threads where they can
 * (apps/sw_saving.h), else one row after the other (pw_sw_step, the engines' cell); the best cell
 * by pw_sw's rule (the smallest row, then column) either way. */
static pw_status forward_cpu(const pw_mm_job *job, const pw_options *options, int tiles_only, sw_store *s,
                             pw_sw_result *res)
{
    const pw_align_scoring *sc = &job->scoring;
    const int64_t n = job->n, m = job->m;
    const int linear = sc->gap_open == sc->gap_extend; /* no F kept: the GPU's linear cell has none */
    s->h = pw_malloc(sizeof *s->h * (size_t)(s->slots * m + 1));
    s->f = pw_malloc(sizeof *s->f * (size_t)(s->slots * m + 1));
    if (!s->h || !s->f) return tiles_only ? PW_ERR_UNSUPPORTED : pw_align_store_failed(s->slots, m, s->every, 0);
    pw_status st = pw_sw_cpu_saving(job->a, n, job->b, m, sc->scores, sc->alphabet, sc->gap_open, sc->gap_extend,
                                    options, s->every, s->slots, s->h, s->f, res);
    if (st != PW_ERR_UNSUPPORTED || tiles_only) return st;
    pw_sw_cell *row = pw_malloc(sizeof *row * (size_t)m);
    if (!row) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t j = 0; j < m; j++) row[j] = pw_sw_boundary();
    res->score = 0;
    res->end_a = res->end_b = -1;
    for (int64_t i = 0; i < n; i++) {
        if (job->cancel && *job->cancel) {
            free(row);
            return PW_ERR_CANCELLED;
        }
        const int32_t *w = sc->scores + (size_t)job->a[i] * (size_t)sc->alphabet;
        pw_sw_cell left = pw_sw_boundary(), diag = pw_sw_boundary();
        for (int64_t j = 0; j < m; j++) {
            pw_sw_cell up = row[j];
            pw_sw_cell v = pw_sw_step(w[job->b[j]], sc->gap_open, sc->gap_extend, up, left, diag);
            if (v.h > res->score) {
                res->score = v.h;
                res->end_a = i;
                res->end_b = j;
            }
            diag = up;
            left = row[j] = v;
        }
        if ((i + 1) % s->every == 0 && (i + 1) / s->every <= s->slots) {
            const int64_t k = (i + 1) / s->every - 1;
            for (int64_t j = 0; j < m; j++) {
                s->h[k * m + j] = row[j].h;
                s->f[k * m + j] = linear ? PW_SW_NEG_INF : row[j].f;
            }
        }
    }
    free(row);
    return PW_OK;
}

/* The score pass on the GPU's SW kernel; *done = 0 where it cannot run (the CPU's then). */
static pw_status forward_gpu(const pw_mm_job *job, const pw_options *options, sw_store *s, pw_sw_result *res,
                             int *done)
{
    *done = 0;
#ifdef PW_HAVE_CUDA
    pw_options o = pw_options_or_defaults(options);
    o.backend = PW_BACKEND_CUDA;
    o.trace = NULL;
    pw_plan plan;
    pw_status st = pw_plan_make_app(&o, job->n, job->m, 0, PW_LINEAR_CUDA_TILE_H, &plan);
    pw_run_info_clear(&res->info);
    int store_failed = 0;
    if (st == PW_OK)
        st = pw_cuda_sw_rows(&plan, job->a, job->n, job->b, job->m, job->scoring.scores, job->scoring.alphabet,
                             job->scoring.gap_open, job->scoring.gap_extend, s->every, &s->gpu, &res->score,
                             &res->end_a, &res->end_b, &res->info, &store_failed);
    if (st == PW_ERR_UNSUPPORTED) return PW_OK; /* the tile height does not divide K */
    if (store_failed) return pw_align_store_failed(s->slots, job->m, s->every, 1);
    *done = st == PW_OK;
    return st;
#else
    (void)job, (void)options, (void)s, (void)res;
    return PW_OK;
#endif
}

/* cells/sw_strip.c on the CPU: the same integers, the same tie rule for the best. */
static void strip_pass_cpu(const pw_align_scoring *s, const uint8_t *a, int64_t rows, const uint8_t *b,
                           int64_t cols, int32_t tb, pw_strip_out *out, int32_t *hrow, int32_t *frow)
{
    const int32_t g = s->gap_open - s->gap_extend, h = s->gap_extend;
    for (int64_t j = 0; j < cols; j++) {
        hrow[j] = -(g + h * (int32_t)(j + 1));
        frow[j] = PW_SW_NEG_INF;
    }
    out->best = PW_SW_NEG_INF;
    out->best_i = out->best_j = -1;
    for (int64_t i = 0; i < rows; i++) {
        const int32_t *w = s->scores + (size_t)a[i] * (size_t)s->alphabet;
        int32_t lh = -(tb + h * (int32_t)(i + 1)), le = PW_SW_NEG_INF;
        int32_t dh = i == 0 ? 0 : -(tb + h * (int32_t)i);
        for (int64_t j = 0; j < cols; j++) {
            int32_t e = pw_max32(le - h, lh - g - h);
            int32_t f = pw_max32(frow[j] - h, hrow[j] - g - h);
            int32_t v = pw_max32(pw_max32(dh + w[b[j]], e), f);
            if (v > out->best) {
                out->best = v;
                out->best_i = i;
                out->best_j = j;
            }
            dh = hrow[j];
            hrow[j] = lh = v;
            frow[j] = f;
            le = e;
        }
        out->col_h[i] = lh;
    }
    memcpy(out->last_h, hrow, sizeof *hrow * (size_t)cols);
    memcpy(out->last_f, frow, sizeof *frow * (size_t)cols);
}

/* A part between crossings: rows [r0, r0 + rows) of a, columns [c0, c0 + cols) of b. */
typedef struct sw_part {
    pw_mm_job job; /* the whole search's, with this part's share of the threads */
    int64_t r0, rows, c0, cols;
    int open_top, open_bottom;
    char *ops;
    int64_t count, cells;
    pw_status status;
} sw_part;

typedef struct sw_walk {
    const pw_mm_job *job;
    const sw_store *store;
    pw_align_gpu *gpu; /* the strips' passes, or NULL */
    int64_t gpu_cells;
    sw_part *parts;    /* from the bottom */
    int64_t count, cap;
    int64_t strips, cells, widened;
} sw_walk;

static pw_status add_part(sw_walk *w, int64_t r0, int64_t r1, int64_t c0, int64_t c1, int open_top, int open_bottom)
{
    if (w->count == w->cap) {
        int64_t cap = w->cap * 2 + 16;
        sw_part *p = realloc(w->parts, sizeof *p * (size_t)cap);
        if (!p) return PW_ERR_OUT_OF_MEMORY;
        w->parts = p;
        w->cap = cap;
    }
    w->parts[w->count++] = (sw_part){*w->job, r0, r1 - r0, c0, c1 - c0, open_top, open_bottom, NULL, 0, 0, PW_OK};
    return PW_OK;
}

/* The reverse pass of a strip: rows [r, ia) and columns [c0, ja) read backwards from the anchor. */
static pw_status strip_pass(sw_walk *w, int64_t r, int64_t ia, int64_t c0, int64_t ja, int32_t tb, pw_strip_out *out,
                            int32_t *work)
{
    const pw_mm_job *job = w->job;
    const int64_t rows = ia - r, cols = ja - c0;
    const uint8_t *ra = job->ra + (job->n - ia), *rb = job->rb + (job->m - ja);
    w->cells += rows * cols;
    if (w->gpu && rows * cols >= w->gpu_cells) return pw_align_gpu_sw_strip_pass(w->gpu, ra, rows, rb, cols, tb, out);
    strip_pass_cpu(&job->scoring, ra, rows, rb, cols, tb, out, work, work + cols);
    return PW_OK;
}

typedef struct anchor {
    int64_t i, j; /* node */
    int32_t tb;   /* g, or 0 inside a run of a-letters going on below */
    int64_t t;    /* the best score of an alignment's prefix ending here (in that run: + g) */
} anchor;

/* One strip above anchor x: the next anchor, or the start (*started). */
static pw_status strip(sw_walk *w, anchor *x, int64_t *si, int64_t *sj, int *started)
{
    const pw_mm_job *job = w->job;
    const pw_align_scoring *sc = &job->scoring;
    const int32_t g = sc->gap_open - sc->gap_extend, h = sc->gap_extend;
    const int64_t every = w->store->every;
    int64_t k = (x->i - 1) / every - 1; /* the saved row strictly above the anchor */
    if (k >= w->store->slots) k = w->store->slots - 1;
    const int64_t r = k >= 0 ? (k + 1) * every : 0, rows = x->i - r;
    int64_t width = rows + 64; /* the bound needs about rows / 2 beyond the path (gap extend >= 1) */
    if (width > x->j) width = x->j;
    /* the pass's outputs, its CPU work rows and the saved row's window, each up to ja + 1 long */
    const size_t len = (size_t)(x->j + 1);
    int32_t *buf = pw_malloc(sizeof *buf * (6 * len + (size_t)rows));
    if (!buf) return PW_ERR_OUT_OF_MEMORY;
    int32_t *fwd_h = buf + 4 * len, *fwd_f = buf + 5 * len;
    pw_strip_out out = {buf, buf + len, buf + 6 * len, 0, 0, 0};
    pw_status st = PW_OK;
    for (;;) {
        const int64_t c0 = x->j - width;
        st = strip_pass(w, r, x->i, c0, x->j, x->tb, &out, buf + 2 * len);
        if (st != PW_OK) break;
        /* the bound on paths entering the window from the left (the file's comment) */
        int proven = c0 == 0;
        if (!proven) {
            /* entering at node (i, c0): gain (i - r + 1) + Hrev(i, c0); node (ia, c0) first */
            const int64_t gain = sc->max_score > 0 ? sc->max_score : 0;
            int64_t left = 0, edge = gain * (rows + 1) - (g + h * (x->j - c0));
            if (k >= 0) st = store_left_bound(w->store, k, c0, rows, h, &left);
            if (st != PW_OK) break;
            for (int64_t y = 0; y < rows; y++) {
                const int64_t e = gain * (rows - y) + out.col_h[y]; /* node (ia - 1 - y, c0) */
                edge = e > edge ? e : edge;
            }
            proven = (left > 0 ? left : 0) + g + edge < x->t;
        }
        if (!proven) {
            width = 2 * width < x->j ? 2 * width : x->j;
            w->widened++;
            if (job->cancel && *job->cancel) {
                st = PW_ERR_CANCELLED;
                break;
            }
            continue;
        }
        if (out.best == x->t) { /* the start: node (ia - 1 - best_i, ja - 1 - best_j) */
            *si = x->i - 1 - out.best_i;
            *sj = x->j - 1 - out.best_j;
            *started = 1;
            st = add_part(w, *si, x->i, *sj, x->j, 1, x->tb != 0);
            break;
        }
        if (k < 0) { /* row 0 holds only starts: the search went wrong */
            pw_set_error_detail("the alignment's search found no start above row %lld", (long long)x->i);
            st = PW_ERR_INTERNAL;
            break;
        }
        /* the saved row over the window's node columns c0 .. ja (node c is stored at c - 1) */
        const int64_t lo = c0 > 0 ? c0 : 1;
        st = store_read(w->store, k, lo - 1, x->j - lo + 1, fwd_h, fwd_f);
        if (st != PW_OK) break;
        const int64_t end = -(int64_t)(x->tb + h * rows); /* Hrev = Frev at node (r, ja): a run down */
        int64_t c1 = -1, c2 = -1;
        for (int64_t c = c0; c <= x->j && c1 < 0; c++) {
            const int64_t fh = c == 0 ? 0 : fwd_h[c - lo], ff = c == 0 ? NONE : fwd_f[c - lo];
            const int64_t rh = c == x->j ? end : out.last_h[x->j - 1 - c];
            const int64_t rf = c == x->j ? end : out.last_f[x->j - 1 - c];
            if (fh + rh == x->t) c1 = c;
            else if (c2 < 0 && ff > NONE && rf > NONE && ff + rf + g == x->t) c2 = c;
        }
        if (c1 >= 0) {
            st = add_part(w, r, x->i, c1, x->j, 1, x->tb != 0);
            *x = (anchor){r, c1, g, c1 == 0 ? 0 : fwd_h[c1 - lo]};
        } else if (c2 >= 0) {
            st = add_part(w, r + 1, x->i, c2, x->j, 0, x->tb != 0);
            if (st == PW_OK) st = add_part(w, r - 1, r + 1, c2, c2, 0, 0); /* a[r - 1], a[r] against gaps */
            *x = (anchor){r - 1, c2, 0, (int64_t)fwd_f[c2 - lo] + g + h};
        } else {
            pw_set_error_detail("the alignment's search found no crossing of row %lld", (long long)r);
            st = PW_ERR_INTERNAL;
        }
        break;
    }
    free(buf);
    return st;
}

static void solve_part(void *p)
{
    sw_part *x = p;
    x->status = pw_myers_miller(&x->job, x->r0, x->rows, x->c0, x->cols, x->open_top, x->open_bottom, x->ops, &x->count,
                                &x->cells);
}

pw_status pw_sw_by_strips(const pw_mm_job *job, const pw_options *options, int use_gpu, int cpu_tiles_only,
                          pw_sw_result *res, int64_t *start_a, int64_t *start_b, char *ops, int64_t *count,
                          pw_strips_stats *stats)
{
    sw_store store = {0};
    store.every = pw_align_strip_rows(job->n, job->m, PW_SW_STRIPS);
    store.slots = (job->n - 1) / store.every;
    store.m = job->m;
    int on_gpu = 0;
    pw_status st = PW_OK;
    double t0 = pw_seconds_now();
    if (use_gpu) st = forward_gpu(job, options, &store, res, &on_gpu);
    if (st == PW_OK && !on_gpu) {
        pw_run_info_clear(&res->info);
        st = forward_cpu(job, options, cpu_tiles_only, &store, res);
        if (st == PW_ERR_UNSUPPORTED) {
            store_free(&store);
            return st;
        }
        res->info.backend = PW_BACKEND_CPU;
        res->info.seconds = pw_seconds_now() - t0;
        res->info.cells = job->n * job->m;
    }
    double t1 = pw_seconds_now();
    sw_walk w = {job, &store, NULL, INT64_MAX, NULL, 0, 0, 0, 0, 0};
    if (st == PW_OK && on_gpu) st = pw_align_gpu_open(PW_ALIGN_PASS_SW_STRIP, &job->scoring, 0, 0, options, &w.gpu);
    /* A strip's pass waits for nothing else (the search is one strip after another), so the GPU
     * pays from smaller passes than the parts' (2^18 cells by default: a 1024-row strip's CPU
     * pass took 4.4 ms on the H100's host) */
    if (w.gpu) w.gpu_cells = (pw_align_gpu_min_cells(w.gpu) + 15) / 16;
    *count = 0;
    if (st == PW_OK && res->score > 0) {
        anchor x = {res->end_a + 1, res->end_b + 1, job->scoring.gap_open - job->scoring.gap_extend, res->score};
        int started = 0;
        while (st == PW_OK && !started) {
            st = job->cancel && *job->cancel ? PW_ERR_CANCELLED : strip(&w, &x, start_a, start_b, &started);
            w.strips++;
        }
    }
    pw_run_info strip_info;
    pw_run_info_clear(&strip_info);
    pw_align_gpu_info(w.gpu, &strip_info);
    pw_align_gpu_close(w.gpu);
    store_free(&store);
    double t2 = pw_seconds_now();
    int64_t strip_cells = w.cells;
    if (st == PW_OK && w.count > 0) {
        /* top to bottom, each part's operations after the one above's */
        int64_t at = 0;
        for (int64_t x = 0; x < w.count / 2; x++) {
            sw_part p = w.parts[x];
            w.parts[x] = w.parts[w.count - 1 - x];
            w.parts[w.count - 1 - x] = p;
        }
        for (int64_t x = 0; x < w.count; x++) {
            w.parts[x].ops = ops + at;
            at += w.parts[x].rows + w.parts[x].cols;
        }
        const int threads = job->threads > 0 ? job->threads : 1;
        const int64_t workers = threads < w.count ? threads : w.count;
        for (int64_t x = 0; x < w.count; x++) w.parts[x].job.threads = (int)(threads / workers);
        pw_align_pool_run(w.parts, sizeof *w.parts, w.count, threads, solve_part);
        at = 0;
        for (int64_t x = 0; x < w.count && st == PW_OK; x++) {
            memmove(ops + at, w.parts[x].ops, (size_t)w.parts[x].count);
            at += w.parts[x].count;
            w.cells += w.parts[x].cells;
            st = w.parts[x].status;
        }
        *count = at;
    }
    free(w.parts);
    *stats = (pw_strips_stats){t1 - t0, t2 - t1, strip_cells, w.cells - strip_cells};
    if (getenv("PEERWAVE_PATH_TIMES"))
        fprintf(stderr, "align: rows every %lld; score pass %.4f s (%s); %lld strips %.4f s (%lld cells, %lld "
                        "windows doubled, GPU %.4f s); %lld parts %.4f s (%lld cells)\n",
                (long long)store.every, t1 - t0, on_gpu ? "GPU" : "CPU", (long long)w.strips, t2 - t1,
                (long long)strip_cells, (long long)w.widened, strip_info.seconds, (long long)w.count,
                pw_seconds_now() - t2, (long long)(w.cells - strip_cells));
    return st;
}
