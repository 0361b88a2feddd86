/* dtw_batch.c - pw_dtw_search and pw_dtw_pairs: many DTW distances, a pair a CPU thread at a time
 * through pw_dtw_f64 (so every distance is the single-pair function's, bit for bit), the pairs
 * over all cores, or on the GPU a pair a warp (src/cuda/batch_dtw.cu: the same cells, the same
 * bits); the nearest records of each query kept (peerwave_batch.h). */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_batch.h"
#include "pair_options.h"
#include "batch_progress.h"
#include "top_k.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/batch_dtw.h"
#endif

static pw_status check_series(const pw_series_set *set, const char *what)
{
    if (!set || (set->count > 0 && (!set->values || !set->length))) return PW_ERR_NULL_ARGUMENT;
    if (set->count < 1) {
        pw_set_error_detail("the %s set is empty", what);
        return PW_ERR_INVALID_SIZE;
    }
    for (int64_t k = 0; k < set->count; k++) {
        if (!set->values[k]) return PW_ERR_NULL_ARGUMENT;
        if (set->length[k] < 1) {
            pw_set_error_detail("%s series %lld is empty", what, (long long)k);
            return PW_ERR_INVALID_SIZE;
        }
        for (int64_t j = 0; j < set->length[k]; j++)
            if (!isfinite(set->values[k][j])) {
                pw_set_error_detail("%s series %lld: sample %lld is not finite", what, (long long)k, (long long)j);
                return PW_ERR_BAD_INPUT;
            }
    }
    return PW_OK;
}

/* The distances of pairs (a[first + t / nb], b[t % nb]) for t < count, or (a[t], b[t]) paired. */
typedef struct dtw_work {
    const pw_series_set *a, *b;
    pw_dtw_cost cost;
    pw_options options; /* one thread a pair */
    int64_t first, count;
    int paired;
    double *out;
    pw_batch_progress progress; /* the caller's hook and cancel flag over the whole run */
    atomic_llong next;
    atomic_int failed;
    /* the first pair that failed and pw_error_detail on its thread, for the caller's thread (the
     * detail is per thread: a worker's is lost when the team ends) */
    int64_t failed_pair;
    char failed_detail[192];
    void *gpu;                  /* the GPU engine (pw_cuda_dtw_batch), or NULL: the CPU threads */
} dtw_work;

static void dtw_worker(void *arg, int worker, int team_size)
{
    (void)worker;
    (void)team_size;
    dtw_work *w = arg;
    int64_t t;
    while (!atomic_load_explicit(&w->failed, memory_order_relaxed) && (t = atomic_fetch_add(&w->next, 1)) < w->count) {
        if (pw_batch_progress_stopped(&w->progress)) {
            int none = 0; /* (a pair's failure before it stays the run's) */
            atomic_compare_exchange_strong(&w->failed, &none, PW_ERR_CANCELLED);
            break;
        }
        const int64_t i = w->paired ? t : w->first + t / w->b->count, j = w->paired ? t : t % w->b->count;
        pw_dtw_result r;
        pw_status st = pw_dtw_f64(w->a->values[i], w->a->length[i], w->b->values[j], w->b->length[j], w->cost,
                                  &w->options, &r);
        if (st != PW_OK) {
            int none = 0;
            if (atomic_compare_exchange_strong(&w->failed, &none, st)) {
                w->failed_pair = t; /* (only the one thread that set `failed` writes these) */
                snprintf(w->failed_detail, sizeof w->failed_detail, "%s", pw_error_detail());
            }
            break;
        }
        w->out[t] = r.distance;
        pw_batch_progress_add(&w->progress, w->a->length[i] * w->b->length[j]);
    }
}

/* A set's values (a search's work: every query's against every record's). */
static double set_values(const pw_series_set *set)
{
    double n = 0;
    for (int64_t k = 0; set && set->length && k < set->count; k++) n += (double)set->length[k];
    return n;
}

/* Pairs' work: series k against series k (counts checked by the caller or by check_series). */
static double pair_cells(const pw_series_set *a, const pw_series_set *b)
{
    double n = 0;
    for (int64_t k = 0; a && b && a->length && b->length && k < a->count && k < b->count; k++)
        n += (double)a->length[k] * (double)b->length[k];
    return n;
}

/* cells: the run's (a search's every pair, or pair k's alone): under AUTO a small run stays on the
 * CPU (pw_backend_small_work). */
static pw_status setup(const pw_series_set *a, const pw_series_set *b, pw_dtw_cost cost, const pw_options *options,
                       double cells, pw_batch_info *info, dtw_work *w, int *threads)
{
    if (!info) return PW_ERR_NULL_ARGUMENT;
    if ((unsigned)cost > PW_DTW_SQUARED) return PW_ERR_INVALID_ARGUMENT;
    pw_status st;
    if ((st = check_series(a, "query")) != PW_OK || (st = check_series(b, "database")) != PW_OK) return st;
    if (options && (st = pw_options_check(options)) != PW_OK) return st;
    w->options = pw_pair_options(options);
    *threads = options && options->threads ? options->threads : pw_cpu_count();
    w->a = a;
    w->b = b;
    w->cost = cost;
    memset(info, 0, sizeof *info);
    info->backend = PW_BACKEND_CPU;
    info->simd = w->options.simd;
    info->lane_bits = 64;
    w->gpu = NULL;
    /* the GPU when asked for, or (AUTO) when there is one: both sets uploaded once */
    pw_options caller = pw_options_or_defaults(options);
    pw_backend backend = PW_BACKEND_CPU;
    if ((st = pw_backend_resolve(&caller, &backend)) != PW_OK) return st;
    pw_backend_small_work(&caller, cells, *threads, &backend);
#ifdef PW_HAVE_CUDA
    if (backend == PW_BACKEND_CUDA) {
        st = pw_cuda_dtw_batch_create(&caller, a, b, (pw_cuda_dtw_batch **)&w->gpu);
        /* AUTO: the CPU threads when the GPU cannot hold the sets (or its kernel cannot run) */
        if (caller.backend == PW_BACKEND_AUTO && (st == PW_ERR_OUT_OF_MEMORY || st == PW_ERR_UNSUPPORTED)) return PW_OK;
        if (st != PW_OK) return st;
        info->backend = PW_BACKEND_CUDA;
    }
#endif
    return PW_OK;
}

static void teardown(dtw_work *w)
{
#ifdef PW_HAVE_CUDA
    pw_cuda_dtw_batch_destroy(w->gpu);
#endif
    w->gpu = NULL;
}

/* Pair t's failure in the caller's thread: which series, how long, and why. */
static pw_status pair_failed(const dtw_work *w, int64_t t, pw_status st, const char *why)
{
    const int64_t i = w->paired ? t : w->first + t / w->b->count, j = w->paired ? t : t % w->b->count;
    pw_set_error_detail("query %lld (%lld samples) against record %lld (%lld samples): %s", (long long)i,
                        (long long)w->a->length[i], (long long)j, (long long)w->b->length[j], why);
    return st;
}

static pw_status run_pairs(dtw_work *w, int threads)
{
#ifdef PW_HAVE_CUDA
    if (w->gpu) {
        pw_status st = pw_cuda_dtw_batch_run(w->gpu, w->cost, w->first, w->count, w->paired, w->out, &w->progress);
        /* an infinite distance is pw_dtw_f64's PW_ERR_OVERFLOW: the same status on either backend */
        for (int64_t t = 0; st == PW_OK && t < w->count; t++)
            if (!isfinite(w->out[t]))
                st = pair_failed(w, t, PW_ERR_OVERFLOW, "the distance passed the type's range (an infinity): use smaller values");
        return st;
    }
#endif
    atomic_init(&w->next, 0);
    atomic_init(&w->failed, 0);
    w->failed_pair = -1;
    int used;
    pw_team_run(threads, dtw_worker, w, &used);
    const pw_status st = (pw_status)atomic_load(&w->failed);
    /* (a cancelled run says so itself: pw_batch_progress_finish) */
    return st != PW_OK && w->failed_pair >= 0 ? pair_failed(w, w->failed_pair, st, w->failed_detail) : st;
}

typedef struct distance_view {
    const double *d;
} distance_view;

/* record a is nearer than b: the smaller distance, then the smaller index */
static int nearer(int64_t a, int64_t b, const void *ctx)
{
    const double *d = ((const distance_view *)ctx)->d;
    if (d[a] != d[b]) return d[a] < d[b];
    return a < b;
}

pw_status pw_dtw_search(const pw_series_set *queries, const pw_series_set *db, pw_dtw_cost cost,
                        const pw_options *options, int top, pw_dtw_hit *hits, pw_batch_info *info)
{
    const int64_t t0 = pw_now_ns();
    if (!hits) return PW_ERR_NULL_ARGUMENT;
    if (top < 1) return PW_ERR_INVALID_ARGUMENT;
    dtw_work w;
    int threads;
    pw_status st = setup(queries, db, cost, options, set_values(queries) * set_values(db), info, &w, &threads);
    if (st != PW_OK) return st;
    /* queries in chunks whose distances fit in about 256 MB */
    int64_t chunk = ((int64_t)1 << 25) / db->count;
    chunk = chunk < 1 ? 1 : chunk > queries->count ? queries->count : chunk;
    double *d = pw_malloc(sizeof *d * (size_t)(chunk * db->count));
    int64_t *pick = pw_malloc(sizeof *pick * (size_t)top);
    if (!d || !pick) st = PW_ERR_OUT_OF_MEMORY;
    int64_t db_samples = 0, q_samples = 0;
    for (int64_t k = 0; k < db->count; k++) db_samples += db->length[k];
    for (int64_t k = 0; k < queries->count; k++) q_samples += queries->length[k];
    pw_batch_progress_init(&w.progress, options, q_samples * db_samples);
    const int64_t t1 = pw_now_ns();
    for (int64_t q0 = 0; st == PW_OK && q0 < queries->count; q0 += chunk) {
        const int64_t nq = queries->count - q0 < chunk ? queries->count - q0 : chunk;
        w.first = q0;
        w.count = nq * db->count;
        w.paired = 0;
        w.out = d;
        st = run_pairs(&w, threads);
        for (int64_t k = 0; st == PW_OK && k < nq; k++) {
            const distance_view v = {d + k * db->count};
            const int64_t got = pw_top_k(db->count, top, nearer, &v, pick);
            for (int64_t t = 0; t < top; t++)
                hits[(q0 + k) * top + t] = t < got ? (pw_dtw_hit){q0 + k, pick[t], v.d[pick[t]]} : (pw_dtw_hit){q0 + k, -1, 0};
        }
    }
    st = pw_batch_progress_finish(&w.progress, st);
    info->pairs = queries->count * db->count;
    info->cells = q_samples * db_samples;
    info->seconds = (double)(pw_now_ns() - t1) * 1e-9;
    info->total_seconds = (double)(pw_now_ns() - t0) * 1e-9;
    teardown(&w);
    free(d);
    free(pick);
    return st;
}

pw_status pw_dtw_pairs(const pw_series_set *a, const pw_series_set *b, pw_dtw_cost cost, const pw_options *options,
                       pw_dtw_hit *hits, pw_batch_info *info)
{
    const int64_t t0 = pw_now_ns();
    if (!hits || !a || !b) return PW_ERR_NULL_ARGUMENT;
    if (a->count != b->count) {
        pw_set_error_detail("pairs: %lld series against %lld", (long long)a->count, (long long)b->count);
        return PW_ERR_INVALID_SIZE;
    }
    dtw_work w;
    int threads;
    pw_status st = setup(a, b, cost, options, pair_cells(a, b), info, &w, &threads);
    if (st != PW_OK) return st;
    double *d = pw_malloc(sizeof *d * (size_t)a->count);
    if (!d) {
        teardown(&w);
        return PW_ERR_OUT_OF_MEMORY;
    }
    w.first = 0;
    w.count = a->count;
    w.paired = 1;
    w.out = d;
    for (int64_t k = 0; k < a->count; k++) info->cells += a->length[k] * b->length[k];
    pw_batch_progress_init(&w.progress, options, info->cells);
    const int64_t t1 = pw_now_ns();
    st = run_pairs(&w, threads);
    st = pw_batch_progress_finish(&w.progress, st);
    for (int64_t k = 0; k < a->count; k++) hits[k] = (pw_dtw_hit){k, k, st == PW_OK ? d[k] : 0};
    info->pairs = a->count;
    info->seconds = (double)(pw_now_ns() - t1) * 1e-9;
    info->total_seconds = (double)(pw_now_ns() - t0) * 1e-9;
    teardown(&w);
    free(d);
    return st;
}
