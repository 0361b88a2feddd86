/*
 * dist_apps.c - pw_dist_sw, pw_dist_dtw_*, pw_dist_sat, pw_dist_inthist, pw_dist_run (peerwave_dist.h): each
 * is its arguments' checks and signature, its band run (apps/band_apps.h) and how its ranks'
 * results combine; the steps themselves are dist_run.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_run.h"
#include "dist_turns.h"
#include "../core/alloc.h"
#include "../core/auto_width.h"
#include "../core/best_cell.h"
#include "../core/image.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"
#include "../../apps/band_apps.h"
#include "../../apps/checks.h"
#include "../../apps/sat_sum.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

/* One band's run: args are the app's, result the bytes this rank contributes. */
typedef pw_status (*band_run_fn)(void *args, const pw_options *options, const pw_band *band, void *result);
/* The band's tiles where the caller left them to us (band_apps.h's *_band_tiles), before the
 * ranks agree to start: a rank that trains the width model keeps none of its neighbours waiting on
 * the link (and their watchdogs).  NULL: the apps' fixed tiles. */
typedef pw_status (*band_tiles_fn)(void *args, pw_backend backend, pw_options *options);

/* What this rank runs on, for pw_dist_agree: "" for the CPU, else the GPU's model and SM count.
 * PEERWAVE_DEBUG_DEVICE_MODEL stands in for it on any backend (docs/RELIABILITY.md: the check of
 * mixed models, tested under mpirun without GPUs). */
static void rank_device(pw_backend backend, int device, char *buf, size_t size)
{
    const char *fake = getenv("PEERWAVE_DEBUG_DEVICE_MODEL");
    buf[0] = 0;
    if (fake) {
        snprintf(buf, size, "%s", fake);
        return;
    }
#ifdef PW_HAVE_CUDA
    if (backend == PW_BACKEND_CUDA && pw_cuda_describe(device, buf, size) != PW_OK) snprintf(buf, size, "cuda:device %d", device);
#else
    (void)backend, (void)device;
#endif
}

/* Agree, run this rank's band of columns [col0, col0 + cols) with its link, conclude: every rank's
 * `bytes` result bytes in all.  in_place: the band's halo columns go both ways (no turns);
 * span_s (or NULL): the run's span (dist_turns.h). */
static pw_status run_band(pw_comm *comm, pw_status local, const dist_signature *sig, const pw_options *options,
                          int64_t rows, int64_t sweeps, int64_t col0, int64_t cols, int64_t total_cols, int in_place,
                          band_tiles_fn tiles, band_run_fn fn, void *args, void *mine, void *all, size_t bytes,
                          double *span_s)
{
    pw_options o;
    int64_t watchdog_ns = 0;
    if (local == PW_OK) local = pw_dist_band_options(options, &o, &watchdog_ns);
    /* every rank's engine the same (a CPU and a GPU band keep their edge columns in other forms) */
    dist_signature agreed = *sig;
    pw_backend backend = PW_BACKEND_CPU;
    if (local == PW_OK) local = pw_backend_resolve(&o, &backend); /* (a rank without its GPU says so) */
    if (local == PW_OK) agreed.word[DIST_SIGNATURE_WORDS - 2] = backend + 1;
    /* The width model on GPU bands only: CPU ranks of one host share its cores, so corners
     * trained at once would time each other (and the CPU's bands run on the vector processors'
     * own tiles). */
    /* Turns (pw_comm_set_turns): the ranks before and after this one on its device; those that
     * train the width model (GPU bands) train one after another too, so that no corner's timing
     * shares the GPU with another's (a chain's ranks share a device: the same backend) */
    int turn_prev = -1, turn_next = -1, token = 1;
    pw_status turn_st = pw_dist_turn_peers(comm, local, backend, local == PW_OK ? o.device : 0, in_place,
                                        pw_dist_start_timeout_ns(options), &turn_prev, &turn_next);
    if (local == PW_OK) local = turn_st;
    const int train_in_turn = tiles && backend == PW_BACKEND_CUDA;
    if (train_in_turn && turn_prev >= 0) {
        pw_status st = pw_dist_message(comm, 0, turn_prev, PW_TAG_TRAIN, &token, sizeof token);
        if (st != PW_OK && local == PW_OK) local = st;
    }
    if (local == PW_OK && tiles && backend == PW_BACKEND_CUDA) local = tiles(args, backend, &o);
    else o.width_model = -1;
    if (train_in_turn && turn_next >= 0) {
        pw_status st = pw_dist_message(comm, 1, turn_next, PW_TAG_TRAIN, &token, sizeof token);
        if (st != PW_OK && local == PW_OK) local = st;
    }
    char device[DIST_DEVICE_BYTES];
    rank_device(local == PW_OK ? backend : PW_BACKEND_CPU, local == PW_OK ? o.device : 0, device, sizeof device);
    pw_status st = pw_dist_agree(comm, local, &agreed, device);
    if (st != PW_OK) return st;
    const int64_t agreed_ns = pw_now_ns(); /* (the span's times count from here: dist_turns.h) */
    /* PEERWAVE_DEBUG_BANDS=1: each rank's band and tiles on stderr (a device run's check) */
    if (getenv("PEERWAVE_DEBUG_BANDS"))
        fprintf(stderr, "peerwave band: rank %d of %d: columns %lld +%lld of %lld, tile_w %lld, tile_h %lld\n",
                comm->rank, comm->size, (long long)col0, (long long)cols, (long long)total_cols, (long long)o.tile_w,
                (long long)o.tile_h);
    /* GPU bands' chunks over NCCL (pw_comm_use_nccl): its communicators on this rank's GPU, made
     * by every rank at once (collective: every rank agreed on the backend; one status on all) */
    if (backend == PW_BACKEND_CUDA && comm->data_ops && (st = comm->data_ops->open(comm->data_ctx, comm, o.device)) != PW_OK)
        return st;
    pw_band band;
    pw_band_link *link;
    int remote = 0;
    int64_t times[3] = {0, 0, 0}; /* this rank's engine began, ended (pw_band_link_times), and whether it did */
    st = pw_band_link_start(comm, rows, sweeps, watchdog_ns, backend == PW_BACKEND_CUDA, turn_prev, turn_next, col0, cols,
                            total_cols, &band, &link);
    if (st == PW_OK) {
        const pw_status app = fn(args, &o, &band, mine);
        char detail[256];
        snprintf(detail, sizeof detail, "%s", pw_error_detail()); /* (finish may write its own) */
        pw_band_link_times(link, &times[0], &times[1]);
        times[2] = times[0] && times[1];
        times[0] -= agreed_ns, times[1] -= agreed_ns;
        const pw_status link_st = pw_band_link_finish(link, app, &remote);
        /* an engine whose link gave up ends in PW_ERR_TIMEOUT: then the link's reason is the
         * rank's; any other failure of the app is its own */
        if (link_st != PW_OK && (app == PW_OK || app == PW_ERR_TIMEOUT)) {
            st = link_st;
        } else {
            st = app;
            remote = 0;
            pw_set_error_detail("%s", detail);
        }
    }
    st = pw_dist_conclude(comm, st, remote, mine, all, bytes);
    if (st == PW_OK && span_s) st = pw_dist_run_span(comm, times, span_s);
    return st;
}

static pw_status check_comm(const pw_comm *comm) { return comm ? PW_OK : PW_ERR_NULL_ARGUMENT; }

/* info's seconds become the run's span where there is one: from the first band's start to the
 * last one's end, which counts the pipeline's start (a band's kernel starts once its left
 * column's first rows are there) and, with turns, every band a GPU runs; at least the band's own
 * time (SAT, INTHIST, HEAT and SOR: this rank's; SW and DTW: the longest band's). */
static void band_span_info(pw_run_info *info, double span_s)
{
    if (getenv("PEERWAVE_DEBUG_BANDS"))
        fprintf(stderr, "peerwave bands: span %.6f s, band %.6f s\n", span_s, info->seconds);
    if (span_s > info->seconds) info->seconds = span_s;
}

/* An SW or DTW result's info is this rank's run but for the whole run's cells and its span (or
 * the longest band's seconds), so that cells / seconds is the run's rate (peerwave_dist.h). */
static void whole_run_info(pw_run_info *info, int64_t rows, int64_t cols, double longest_seconds, double span_s)
{
    info->cells = rows * cols;
    info->seconds = longest_seconds;
    band_span_info(info, span_s);
}

/* ---- SW ---------------------------------------------------------------------------------------- */

typedef struct sw_args {
    const char *a, *b;
    int64_t n, col0, cols;
    const pw_sw_params *params;
    pw_run_info info, width; /* width: the band's tile-width choice (sw_band_tiles) */
} sw_args;

typedef struct sw_share {
    int64_t score, end_a, end_b; /* end_b in the whole matrix */
    double seconds;              /* the band's kernel time */
} sw_share;

static pw_status sw_band_tiles(void *p, pw_backend backend, pw_options *o)
{
    sw_args *x = p;
    return pw_sw_band_tiles(x->a, x->n, x->b + x->col0, x->cols, x->params, backend, o, &x->width);
}

static pw_status sw_band_run(void *p, const pw_options *o, const pw_band *band, void *result)
{
    sw_args *x = p;
    pw_sw_result r = {0};
    pw_status st = pw_sw_band(x->a, x->n, x->b + x->col0, x->cols, x->params, o, band, &r);
    *(sw_share *)result = (sw_share){r.score, r.end_a, r.end_b < 0 ? -1 : r.end_b + x->col0, r.info.seconds};
    x->info = r.info;
    pw_width_info_copy(&x->width, &x->info);
    return st;
}

/* The best of the bands' best cells by pw_sw's tie rule: the smallest end_a, then end_b. */
static int sw_share_better(const sw_share *a, const sw_share *b)
{
    return pw_best_cell_better(a->score, a->end_a, a->end_b, b->score, b->end_a, b->end_b);
}

pw_status pw_dist_sw(pw_comm *comm, const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                     const pw_options *options, pw_sw_result *result)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_score_table table;
    pw_status local = pw_sw_check(a, n, b, m, params, result, &table);
    sw_args x = {a, b, n, 0, 0, params, {0}, {0}};
    if (local == PW_OK) local = pw_dist_split(comm, comm->rank, m, &x.col0, &x.cols);
    dist_signature sig = {{1, n, m}};
    if (local == PW_OK) {
        /* (the scores as pw_sw_check resolved them: a matrix pointer differs between processes) */
        sig.word[3] = (int64_t)pw_dist_hash(table.scores, sizeof table.scores[0] * (size_t)table.size * (size_t)table.size,
                                         (uint64_t)table.size);
        sig.word[6] = params->gap_open;
        sig.word[7] = params->gap_extend;
        sig.word[4] = (int64_t)pw_dist_hash(a, (size_t)n, 1);
        sig.word[5] = (int64_t)pw_dist_hash(b, (size_t)m, 2);
    }
    sw_share mine = {0, -1, -1, 0};
    double span = 0;
    sw_share *all = pw_comm_results(comm); /* (the comm's scratch: no allocation to fail on one rank) */
    st = run_band(comm, local, &sig, options, n, 1, x.col0, x.cols, m, 0, sw_band_tiles, sw_band_run, &x, &mine, all,
                  sizeof mine, &span);
    if (st == PW_OK) {
        sw_share best = {0, -1, -1, 0};
        double longest = 0;
        for (int k = 0; k < comm->size; k++) {
            if (all[k].score > 0 && (best.end_a < 0 || sw_share_better(&all[k], &best))) best = all[k];
            if (all[k].seconds > longest) longest = all[k].seconds;
        }
        result->score = (int32_t)best.score;
        result->end_a = best.end_a;
        result->end_b = best.end_b;
        result->info = x.info;
        whole_run_info(&result->info, n, m, longest, span);
    }
    return st;
}

/* ---- DTW --------------------------------------------------------------------------------------- */

typedef struct dtw_args {
    const void *a, *b;
    int64_t n, col0, cols;
    pw_dtw_cost cost;
    int f64;
    pw_run_info info, width; /* width: the band's tile-width choice (dtw_band_tiles) */
} dtw_args;

typedef struct dtw_share {
    double distance; /* the band's last cell */
    double seconds;  /* the band's kernel time */
} dtw_share;

static pw_status dtw_band_tiles(void *p, pw_backend backend, pw_options *o)
{
    dtw_args *x = p;
    (void)backend;
    return x->f64 ? pw_dtw_band_tiles_f64(x->a, x->n, (const double *)x->b + x->col0, x->cols, x->cost, o, &x->width)
                  : pw_dtw_band_tiles_f32(x->a, x->n, (const float *)x->b + x->col0, x->cols, x->cost, o, &x->width);
}

static pw_status dtw_band_run(void *p, const pw_options *o, const pw_band *band, void *result)
{
    dtw_args *x = p;
    pw_dtw_result r = {0};
    pw_status st = x->f64 ? pw_dtw_band_f64(x->a, x->n, (const double *)x->b + x->col0, x->cols, x->cost, o, band, &r)
                          : pw_dtw_band_f32(x->a, x->n, (const float *)x->b + x->col0, x->cols, x->cost, o, band, &r);
    *(dtw_share *)result = (dtw_share){r.distance, r.info.seconds};
    x->info = r.info;
    pw_width_info_copy(&x->width, &x->info);
    return st;
}

static pw_status dist_dtw(pw_comm *comm, const void *a, int64_t n, const void *b, int64_t m, pw_dtw_cost cost,
                          int f64, const pw_options *options, pw_dtw_result *result)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_status local = pw_dtw_check(a, n, b, m, cost, result);
    dtw_args x = {a, b, n, 0, 0, cost, f64, {0}, {0}};
    if (local == PW_OK) local = pw_dist_split(comm, comm->rank, m, &x.col0, &x.cols);
    const size_t size = f64 ? sizeof(double) : sizeof(float);
    dist_signature sig = {{2, n, m, cost, f64}};
    if (local == PW_OK) {
        sig.word[5] = (int64_t)pw_dist_hash(a, (size_t)n * size, 1);
        sig.word[6] = (int64_t)pw_dist_hash(b, (size_t)m * size, 2);
    }
    dtw_share mine = {INFINITY, 0}, *all = pw_comm_results(comm);
    double span = 0;
    st = run_band(comm, local, &sig, options, n, 1, x.col0, x.cols, m, 0, dtw_band_tiles, dtw_band_run, &x, &mine, all,
                  sizeof mine, &span);
    if (st == PW_OK) {
        double longest = 0;
        for (int k = 0; k < comm->size; k++)
            if (all[k].seconds > longest) longest = all[k].seconds;
        result->distance = all[comm->size - 1].distance; /* (the last band holds the last cell) */
        result->info = x.info;
        whole_run_info(&result->info, n, m, longest, span);
    }
    return st;
}

pw_status pw_dist_dtw_f32(pw_comm *comm, const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result)
{
    return dist_dtw(comm, a, n, b, m, cost, 0, options, result);
}

pw_status pw_dist_dtw_f64(pw_comm *comm, const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result)
{
    return dist_dtw(comm, a, n, b, m, cost, 1, options, result);
}

/* ---- user recurrences (pw_run, linear storage) -------------------------------------------------- */

typedef struct run_args {
    const pw_problem *p;
    int64_t col0, cols;
    pw_run_info info;
} run_args;

static pw_status generic_band_run(void *x, const pw_options *o, const pw_band *band, void *result)
{
    run_args *r = x;
    pw_problem p = *r->p;
    p.cols = r->cols;
    p.last_row = r->p->last_row ? (char *)r->p->last_row + (size_t)r->col0 * r->p->cell_size : NULL;
    p.last_col = band->col0 + band->cols == band->total_cols ? r->p->last_col : NULL; /* (the last band's) */
    const pw_status st = pw_run_band(&p, o, band, &r->info);
    *(double *)result = r->info.seconds;
    return st;
}

/* pw_dist_run, or (failed not PW_OK) this rank's part in it after its caller failed: every rank
 * then ends with that status (pw_dist_agree reports it). */
static pw_status dist_run(pw_comm *comm, const pw_problem *p, const pw_options *options, pw_run_info *info,
                          pw_status failed, int64_t extra)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_status local = failed;
    if (local != PW_OK) p = NULL;
    else if (!p) local = PW_ERR_NULL_ARGUMENT;
    else if (p->rows < 1 || p->cols < 1) local = PW_ERR_INVALID_SIZE;
    else if (p->storage != PW_STORAGE_LINEAR) {
        pw_set_error_detail("a distributed run of a user recurrence needs linear storage (the band's edge is its last "
                            "column of cells)");
        local = PW_ERR_UNSUPPORTED;
    } else if (!p->cell || !p->boundary) local = PW_ERR_NULL_ARGUMENT;
    else if (p->cell_size < 1 || p->cell_size > PW_MAX_CELL_SIZE) local = PW_ERR_INVALID_ARGUMENT;
    else if (options && options->backend == PW_BACKEND_CUDA) {
        pw_set_error_detail("a user recurrence's callbacks are host code: its bands run on the CPU");
        local = PW_ERR_UNSUPPORTED;
    }
    pw_options cpu = pw_options_or_defaults(options);
    cpu.backend = PW_BACKEND_CPU;
    run_args x = {p, 0, 0, {0}};
    if (local == PW_OK) local = pw_dist_split(comm, comm->rank, p->cols, &x.col0, &x.cols);
    dist_signature sig = {{7}};
    if (p) { /* (the callbacks differ between processes: the shape is what must agree, and the caller's word) */
        sig.word[1] = p->rows, sig.word[2] = p->cols, sig.word[3] = (int64_t)p->cell_size, sig.word[4] = p->storage;
        sig.word[5] = p->last_row != NULL, sig.word[6] = p->last_col != NULL, sig.word[7] = extra;
    }
    double mine = 0, *all = pw_comm_results(comm);
    st = run_band(comm, local, &sig, &cpu, p && local == PW_OK ? p->rows : 1, 1, x.col0, x.cols, p ? p->cols : 1, 0, NULL,
                  generic_band_run, &x, &mine, all, sizeof mine, NULL);
    /* every rank ends with the whole last row and column, as pw_run writes them */
    if (st == PW_OK && p->last_row) st = pw_dist_gather_columns(comm, p->last_row, p->cell_size, 1, p->cols, 1, 0, p->cols);
    if (st == PW_OK && p->last_col) st = pw_dist_from_last_rank(comm, p->last_col, (size_t)p->rows * p->cell_size);
    if (st == PW_OK && info) {
        double longest = 0;
        for (int k = 0; k < comm->size; k++)
            if (all[k] > longest) longest = all[k];
        *info = x.info;
        whole_run_info(info, p->rows, p->cols, longest, 0);
    }
    return st;
}

pw_status pw_dist_run(pw_comm *comm, const pw_problem *p, const pw_options *options, pw_run_info *info)
{
    return dist_run(comm, p, options, info, PW_OK, 0);
}

pw_status pw_dist_run_signed(pw_comm *comm, const pw_problem *p, const pw_options *options, pw_run_info *info, int64_t word)
{
    return dist_run(comm, p, options, info, PW_OK, word);
}

pw_status pw_dist_run_failed(pw_comm *comm, pw_status failed)
{
    return dist_run(comm, NULL, NULL, NULL, failed, 0);
}

/* A band of a caller's own run (a user cell: src/jit/cell_cpu.c's stencil bands, cell_bands.c's
 * GPU bands): its columns split by pw_dist_split, run by fn with the band's link. */
typedef struct user_band {
    dist_band_fn fn;
    void *args;
    int64_t col0, cols;
    pw_run_info info;
} user_band;

static pw_status user_band_run(void *x, const pw_options *o, const pw_band *band, void *result)
{
    user_band *u = x;
    const pw_status st = u->fn(u->args, o, band, &u->info);
    *(double *)result = u->info.seconds;
    return st;
}

/* The CPU link's chunk of rows for bands whose columns hold many cells each (a grid3 cell's j
 * slabs of planes): the default (a 256th of the rows, at least 64: band_link.c) suits 2-D bands,
 * whose rows are a few thousand cells, but a grid3 band's row is a whole (j, k) slab of the band:
 * 64 of its 192 rows made the next band start a third of the way through (lu_like.c at 192^3 on
 * 4 ranks, 2026-11-30: 0.48x one process).  At least 2^16 cells a chunk instead, from the even
 * split's width (every rank the same chunk: the neighbours' chunks must agree). */
static int64_t slab_chunk_rows(const pw_comm *comm, int64_t rows, int64_t cols, int64_t cells_per_col)
{
    const int64_t row_cells = (cols / comm->size > 0 ? cols / comm->size : 1) * cells_per_col;
    const int64_t least = ((int64_t)1 << 16) / row_cells + 1, part = (rows + 255) / 256;
    const int64_t chunk = part > least ? part : least;
    return chunk < 64 ? chunk : 64;
}

pw_status pw_dist_run_user_band(pw_comm *comm, pw_status local, const pw_options *options, int64_t rows, int64_t cols,
                                int64_t cells_per_col, int64_t sweeps, int in_place, int64_t word, dist_band_fn fn, void *args,
                                pw_run_info *info)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    user_band u = {fn, args, 0, 0, {0}};
    if (local == PW_OK && (rows < 1 || cols < 1 || sweeps < 0)) local = PW_ERR_INVALID_SIZE;
    if (local == PW_OK) local = pw_dist_split(comm, comm->rank, cols, &u.col0, &u.cols);
    dist_signature sig = {{8, rows, cols, sweeps, word, in_place}};
    double mine = 0, *all = pw_comm_results(comm);
    const int64_t asked = comm->chunk; /* (the caller's pw_comm_set_chunk stays theirs) */
    if (!asked && cells_per_col > 1 && rows > 0 && cols > 0) comm->chunk = slab_chunk_rows(comm, rows, cols, cells_per_col);
    st = run_band(comm, local, &sig, options, local == PW_OK ? rows : 1, sweeps, u.col0, u.cols, cols > 0 ? cols : 1, in_place,
                  NULL, user_band_run, &u, &mine, all, sizeof mine, NULL);
    comm->chunk = asked;
    if (st == PW_OK && info) {
        double longest = 0;
        for (int k = 0; k < comm->size; k++)
            if (all[k] > longest) longest = all[k];
        *info = u.info;
        info->cells = rows * cols * cells_per_col * (sweeps > 0 ? sweeps : 1);
        info->seconds = longest;
    }
    return st;
}

/* ---- SAT and INTHIST: bands the caller cut --------------------------------------------------- */

/* Where this rank's band starts, and the whole width: from every rank's band width (gathered
 * before anything else, so that every rank takes part whatever its own checks said). */
typedef struct band_place {
    int64_t cols, sum; /* this rank's width; its integer input's sum of |x| (SAT), -1: past the limit */
} band_place;

static pw_status place_band(pw_comm *comm, const pw_options *options, band_place mine, int64_t *col0, int64_t *total,
                            int64_t *sum)
{
    band_place *all = pw_comm_results(comm); /* (no allocation: every rank takes part) */
    pw_status st = pw_dist_start_gather(comm, pw_dist_start_timeout_ns(options), &mine, all, sizeof mine); /* (the run's first) */
    *col0 = *total = *sum = 0;
    for (int k = 0; st == PW_OK && k < comm->size; k++) {
        if (k < comm->rank) *col0 += all[k].cols;
        *total += all[k].cols;
        int64_t next;
        *sum = all[k].sum < 0 || *sum < 0 || __builtin_add_overflow(*sum, all[k].sum, &next) ? -1 : next;
    }
    return st;
}

typedef struct image_args {
    const pw_image *in;
    pw_image *out;
    int32_t *hist;
    int bins;
    double lo, hi;
    pw_run_info *info;
} image_args;

static pw_status sat_band_run(void *p, const pw_options *o, const pw_band *band, void *result)
{
    (void)result;
    image_args *x = p;
    return pw_sat_band(x->in, x->out, o, band, x->info);
}

pw_status pw_dist_sat(pw_comm *comm, const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_status local = pw_sat_check(in, out);
    /* the overflow guard over the whole input: its sum of |x| fits or not (pw_sum_abs_fits) */
    const uint64_t limit = local == PW_OK ? pw_sum_abs_limit(out->type) : 0;
    band_place mine = {local == PW_OK ? in->cols : 0, 0};
    uint64_t sum = 0;
    if (limit && !pw_sum_abs_upto(in, limit, &sum)) mine.sum = -1;
    else mine.sum = (int64_t)sum;
    int64_t col0, total, total_sum;
    st = place_band(comm, options, mine, &col0, &total, &total_sum);
    if (st != PW_OK) return st;
    if (local == PW_OK && limit && (total_sum < 0 || (uint64_t)total_sum > limit)) {
        pw_set_error_detail("sums over this image could pass %s: a wider output type", pw_dtype_name(out->type));
        local = PW_ERR_OVERFLOW;
    }
    dist_signature sig = {{3, local == PW_OK ? in->rows : 0, local == PW_OK ? in->type : 0, local == PW_OK ? out->type : 0}};
    pw_run_info local_info;
    image_args x = {in, out, NULL, 0, 0, 0, info ? info : &local_info};
    char none;
    double span = 0;
    st = run_band(comm, local, &sig, options, local == PW_OK ? in->rows : 0, 1, col0, mine.cols, total, 0, NULL, sat_band_run, &x,
                  &none, &none, 0, &span);
    if (st == PW_OK) band_span_info(x.info, span), x.info->cells = in->rows * total;
    return st;
}

static pw_status inthist_band_run(void *p, const pw_options *o, const pw_band *band, void *result)
{
    (void)result;
    image_args *x = p;
    return pw_inthist_band(x->in, x->bins, x->lo, x->hi, x->hist, o, band, x->info);
}

pw_status pw_dist_inthist(pw_comm *comm, const pw_image *in, int bins, double lo, double hi, int32_t *out,
                          const pw_options *options, pw_run_info *info)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_status local = pw_inthist_check(in, bins, lo, hi, out);
    band_place mine = {local == PW_OK ? in->cols : 0, 0};
    int64_t col0, total, sum;
    st = place_band(comm, options, mine, &col0, &total, &sum);
    if (st != PW_OK) return st;
    /* (a count of the whole table must fit the i32 planes, as pw_inthist requires) */
    if (local == PW_OK && (total > INT32_MAX / in->rows)) {
        pw_set_error_detail("%lld x %lld pixels: a count could pass the int32 planes", (long long)in->rows, (long long)total);
        local = PW_ERR_OVERFLOW;
    }
    dist_signature sig = {{4, local == PW_OK ? in->rows : 0, local == PW_OK ? in->type : 0, bins}};
    memcpy(&sig.word[4], &lo, sizeof lo);
    memcpy(&sig.word[5], &hi, sizeof hi);
    pw_run_info local_info;
    image_args x = {in, NULL, out, bins, lo, hi, info ? info : &local_info};
    char none;
    double span = 0;
    st = run_band(comm, local, &sig, options, local == PW_OK ? in->rows : 0, 1, col0, mine.cols, total, 0, NULL, inthist_band_run,
                  &x, &none, &none, 0, &span);
    if (st == PW_OK) band_span_info(x.info, span), x.info->cells = in->rows * total;
    return st;
}

/* ---- HEAT and SOR: bands of interior columns with a halo column each side --------------------- */

typedef struct stencil_args {
    pw_image *grid;
    int64_t sweeps;
    int sor;
    double omega;
    pw_run_info *info;
} stencil_args;

static pw_status stencil_band_run(void *p, const pw_options *o, const pw_band *band, void *result)
{
    (void)result;
    stencil_args *x = p;
    return pw_stencil_band(x->grid, x->sweeps, x->sor, x->omega, o, band, x->info);
}

#define CHAIN_ROWS 1024 /* rows a message of the chain: the ranks sum at once, a chunk apart */

/* The whole grid's residual in pw_heat's order (stencil_cell.h): each rank continues its left
 * neighbour's row sums over its own columns; the last one adds the rows in order. */
static pw_status chain_residual(pw_comm *c, const pw_image *grid, int64_t total_cols, double *sums, double *residual)
{
    const int64_t rows = grid->rows - 2;
    double total = 0;
    pw_status st = PW_OK;
    const size_t size = pw_dtype_size(grid->type);
    for (int64_t i0 = 0; i0 < rows && st == PW_OK; i0 += CHAIN_ROWS) {
        const int64_t i1 = i0 + CHAIN_ROWS < rows ? i0 + CHAIN_ROWS : rows;
        const size_t bytes = sizeof *sums * (size_t)(i1 - i0);
        if (c->rank > 0) st = pw_dist_message(c, 0, c->rank - 1, PW_TAG_CHAIN, sums + i0, bytes);
        else for (int64_t i = i0; i < i1; i++) sums[i] = 0;
        if (st != PW_OK) break;
        pw_image part = *grid; /* interior rows i0 .. i1 - 1 and the rows around them */
        part.data = (char *)grid->data + (size_t)(i0 * pw_image_stride(grid)) * size;
        part.rows = i1 - i0 + 2;
        part.stride = pw_image_stride(grid);
        pw_stencil_residual_sums(&part, sums + i0);
        if (c->rank + 1 < c->size) st = pw_dist_message(c, 1, c->rank + 1, PW_TAG_CHAIN, sums + i0, bytes);
        else for (int64_t i = i0; i < i1; i++) total += sums[i];
    }
    *residual = sqrt(total / ((double)rows * (double)total_cols));
    return st;
}

static pw_status dist_stencil(pw_comm *comm, pw_image *grid, int64_t sweeps, int sor, double omega,
                              const pw_options *options, double *residual, pw_run_info *info)
{
    pw_status st = check_comm(comm);
    if (st != PW_OK) return st;
    pw_status local = pw_stencil_check(grid, sweeps);
    if (local == PW_OK && sor) local = pw_sor_omega_check(omega);
    band_place mine = {local == PW_OK ? grid->cols - 2 : 0, 0};
    int64_t col0, total, sum;
    st = place_band(comm, options, mine, &col0, &total, &sum);
    if (st != PW_OK) return st;
    /* (as pw_heat: NaN, values past a quarter of the range; the cell named in the whole grid, whose
     * column col0 is the band's first) */
    if (local == PW_OK) local = pw_stencil_values_check(grid, col0);
    dist_signature sig = {{5, local == PW_OK ? grid->rows : 0, local == PW_OK ? grid->type : 0, sweeps, sor}};
    memcpy(&sig.word[5], &omega, sizeof omega);
    sig.word[6] = residual != NULL;
    /* the residual's row sums, allocated before the agreement: a rank without them must not miss the chain */
    double *sums = local == PW_OK && residual ? pw_malloc(sizeof *sums * (size_t)(grid->rows - 2)) : NULL;
    if (local == PW_OK && residual && !sums) local = PW_ERR_OUT_OF_MEMORY;
    pw_run_info local_info;
    stencil_args x = {grid, sweeps, sor, omega, info ? info : &local_info};
    char none;
    double span = 0;
    st = run_band(comm, local, &sig, options, local == PW_OK ? grid->rows - 2 : 0, sweeps, col0, mine.cols, total,
                  1, NULL, stencil_band_run, &x, &none, &none, 0, &span);
    if (st == PW_OK) band_span_info(x.info, span), x.info->cells = (grid->rows - 2) * total * sweeps;
    if (st != PW_OK || !residual) {
        free(sums);
        return st;
    }
    /* every rank is here (the run succeeded everywhere): the chain, then the last rank's sum for all */
    double r = 0, *all = pw_comm_results(comm);
    pw_status chain = chain_residual(comm, grid, total, sums, &r);
    free(sums);
    st = pw_dist_conclude(comm, chain, 0, &r, all, sizeof r);
    if (st == PW_OK) *residual = all[comm->size - 1];
    return pw_stencil_residual_check(st, residual); /* (the same on every rank: the residual is the whole grid's) */
}

pw_status pw_dist_heat(pw_comm *comm, pw_image *band, int64_t sweeps, const pw_options *options, double *residual,
                       pw_run_info *info)
{
    return dist_stencil(comm, band, sweeps, 0, 1.0, options, residual, info);
}

pw_status pw_dist_sor(pw_comm *comm, pw_image *band, int64_t sweeps, double omega, const pw_options *options,
                      double *residual, pw_run_info *info)
{
    return dist_stencil(comm, band, sweeps, 1, omega, options, residual, info);
}
