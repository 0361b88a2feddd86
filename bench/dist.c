/*
 * dist.c - one wavefront over several ranks on the CPU (issue 29): R ranks of T threads each (the
 * ranks are threads of this process: pw_comm_local) against one process of R x T threads, same
 * engines.  SW (DNA, affine), HEAT f32 (8 pipelined sweeps) and SAT u8 -> i64; each the median
 * of 3 runs, every distributed result checked against the single process's (SW's best cell,
 * HEAT's residual, SAT's whole table) bit for bit.
 *
 *   bench_dist [--ranks R] [--threads T] [--sw N] [--grid N] [--gpus G [--blocks B] [--sw-blocks B] [--direct 0|1]]
 *              [--turns 0|1] [--sat-f32 1] [--only sw|heat|sat] [--no-reference 1] [--runs 1..3]
 *
 * --turns 1: ranks that share a device run their one-way bands one after another
 * (pw_comm_set_turns): with R = K x G ranks on G GPUs, K narrower bands a GPU in a cyclic split of
 * the columns (docs/DISTRIBUTED.md, "Cyclic bands").
 *
 * --weights w0,w1,...: the ranks' shares of the columns (pw_comm_share_weight: band k's width in
 * proportion to wk), to measure an uneven split; else even.
 *
 * --runs N (default 3): the median of N runs of each (1 for the largest grids, whose inputs and
 * checks alone take a while; on GPUs, fewer than 3 runs start with an untimed warm-up on a small
 * grid).
 *
 * --no-reference 1 (with --only sat, u8 -> i64): the bands only, one run, no one-GPU reference (a
 * grid larger than one GPU's memory); the table is checked exactly on its own (each row's
 * differences from the row above are its input's running sums).
 *
 * --gpus G: the ranks on the GPUs instead (rank k on device k mod G, the CUDA engines) against one
 * GPU; --blocks B caps each rank's persistent blocks of HEAT and SAT, --sw-blocks B of SW (a warp
 * a block: 1056 fill an H100), for ranks sharing a GPU (they need disjoint SM shares: HEAT's
 * bands wait on each other both ways); --direct 0 hands the columns over through the host
 * (pw_comm_set_direct).  Besides the wall clock (inputs up and results down
 * included) it reports the kernels' time: one GPU's (CUDA events), and the ranks' (each rank's
 * pw_run_info.seconds, the run's span since 2026-11-29 for every app: from the first band's
 * launch to the last one's end; before, for SAT and HEAT, the longest band's kernel).
 *
 * What it shows: the cost of the bands themselves (the hand-over, one chunk of rows of fill per
 * rank) and, for SW and SAT, that the bands run the scalar cells while one process runs the
 * vector processors (docs/DISTRIBUTED.md, "Not done yet").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peerwave_dist.h"
#include "../apps/sat_accuracy.h"
#include "../src/core/fnv1a.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* fn over [0, n) in 16 slices on threads of their own: the largest grids' inputs, copies and
 * hashes (a 125952^2 grid is 16e9 cells; one thread took minutes over them). */
typedef void (*slice_fn)(size_t lo, size_t hi, void *ctx);
typedef struct slice {
    slice_fn fn;
    void *ctx;
    size_t lo, hi;
} slice;
static void *slice_main(void *p)
{
    slice *s = p;
    s->fn(s->lo, s->hi, s->ctx);
    return NULL;
}
static void in_parallel(size_t n, slice_fn fn, void *ctx)
{
    enum { SLICES = 16 };
    slice s[SLICES];
    pthread_t ids[SLICES];
    int started[SLICES] = {0};
    for (int t = 0; t < SLICES; t++) {
        s[t] = (slice){fn, ctx, n * (size_t)t / SLICES, n * (size_t)(t + 1) / SLICES};
        started[t] = pthread_create(&ids[t], NULL, slice_main, &s[t]) == 0;
        if (!started[t]) slice_main(&s[t]); /* (no thread: this one does it) */
    }
    for (int t = 0; t < SLICES; t++)
        if (started[t]) pthread_join(ids[t], NULL);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { APP_SW, APP_HEAT, APP_SAT };
static const char *const app_names[] = {"sw", "heat", "sat"};

typedef struct problem {
    int app;
    char *a, *b;
    int64_t n;       /* SW: letters of each; HEAT/SAT: the grid's side */
    float *grid0;    /* HEAT: the initial grid */
    uint8_t *image;  /* SAT u8 -> i64 */
    float *fimage;   /* SAT f32 -> f32 (--sat-f32) */
    int threads;
} problem;

static int gpus, blocks, sw_blocks, direct = 1, turns; /* --gpus, --blocks, --sw-blocks, --direct, --turns */
static int sat_f32;                               /* --sat-f32: SAT f32 -> f32 instead of u8 -> i64 */
static const char *only;                          /* --only sw|heat|sat */
static double weights[64];                        /* --weights w0,w1,...: each rank's share (pw_comm_share_weight) */

typedef struct rank_run {
    pw_comm *comm;
    const problem *p;
    pw_status st;
    double kernel_s;   /* the engine's own time (pw_run_info.seconds) */
    int64_t result[3]; /* SW: score, end_a, end_b; HEAT: the residual's bits */
    float *grid;       /* HEAT: this rank's copy */
    void *out;         /* SAT: the whole table (i64, or f32 with --sat-f32); each rank fills its band */
    char detail[256];  /* pw_error_detail() of a failed run, taken on the rank's own thread (it is per thread) */
} rank_run;

static pw_options options_for(const problem *p, int threads, int rank)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = gpus ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.threads = threads;
    o.width_model = -1;
    if (gpus) o.device = rank % gpus, o.max_blocks = p->app == APP_SW ? sw_blocks : blocks;
    return o;
}

static void sw_params(pw_sw_params *params)
{
    pw_sw_params_init(params);
    params->gap_open = 5, params->gap_extend = 2;
}

/* One rank's part (comm NULL: the single process). */
static void *rank_main(void *arg)
{
    rank_run *r = arg;
    const problem *p = r->p;
    const int rank = r->comm ? pw_comm_rank(r->comm) : 0;
    pw_options o = options_for(p, p->threads, rank);
    if (!r->comm) o.max_blocks = 0; /* (one GPU: all of it) */
    pw_run_info info = {0};
    int64_t first = 0, count = 0;
    if (r->comm && weights[0] > 0 && (r->st = pw_comm_share_weight(r->comm, weights[rank])) != PW_OK) {
        snprintf(r->detail, sizeof r->detail, "%s", pw_error_detail());
        return NULL;
    }
    if (p->app == APP_SW) {
        pw_sw_params params;
        sw_params(&params);
        pw_sw_result sw = {0};
        r->st = r->comm ? pw_dist_sw(r->comm, p->a, p->n, p->b, p->n, &params, &o, &sw)
                        : pw_sw(p->a, p->n, p->b, p->n, &params, &o, &sw);
        r->result[0] = sw.score, r->result[1] = sw.end_a, r->result[2] = sw.end_b;
        info = sw.info;
    } else if (p->app == APP_HEAT) {
        double residual = 0;
        if (r->comm) {
            pw_dist_split(r->comm, rank, p->n - 2, &first, &count);
            pw_image band = {PW_F32, p->n, count + 2, p->n, r->grid + first};
            r->st = pw_dist_heat(r->comm, &band, 8, &o, &residual, &info);
        } else {
            pw_image g = {PW_F32, p->n, p->n, 0, r->grid};
            r->st = pw_heat(&g, 8, &o, &residual, &info);
        }
        memcpy(&r->result[0], &residual, sizeof residual);
    } else if (r->comm) {
        pw_dist_split(r->comm, rank, p->n, &first, &count);
        /* (the band's columns of the whole table, a view with its stride: no copy of the band) */
        const size_t elem = sat_f32 ? sizeof(float) : sizeof(int64_t);
        pw_image in = sat_f32 ? (pw_image){PW_F32, p->n, count, p->n, p->fimage + first}
                              : (pw_image){PW_U8, p->n, count, p->n, p->image + first};
        pw_image out = {sat_f32 ? PW_F32 : PW_I64, p->n, count, p->n, (char *)r->out + elem * (size_t)first};
        r->st = pw_dist_sat(r->comm, &in, &out, &o, &info);
    } else {
        pw_image in = sat_f32 ? (pw_image){PW_F32, p->n, p->n, 0, p->fimage} : (pw_image){PW_U8, p->n, p->n, 0, p->image};
        pw_image out = {sat_f32 ? PW_F32 : PW_I64, p->n, p->n, 0, r->out};
        r->st = pw_sat(&in, &out, &o, &info);
    }
    r->kernel_s = info.seconds;
    if (r->st != PW_OK) snprintf(r->detail, sizeof r->detail, "%s", pw_error_detail());
    return NULL;
}

/* --no-reference: the table of a SAT u8 -> i64 checked without a one-GPU run (a grid larger than
 * one GPU): every row's differences from the row above must be the running sums of its input
 * row, exactly.  Rows split over threads. */
typedef struct sat_check {
    const uint8_t *in;
    const int64_t *out;
    int64_t n, row0, row1, bad;
} sat_check;

static void *sat_check_rows(void *arg)
{
    sat_check *c = arg;
    for (int64_t i = c->row0; i < c->row1 && !c->bad; i++) {
        int64_t sum = 0;
        for (int64_t j = 0; j < c->n; j++) {
            sum += c->in[i * c->n + j];
            const int64_t above = i ? c->out[(i - 1) * c->n + j] : 0;
            if (c->out[i * c->n + j] - above != sum) c->bad = 1;
        }
    }
    return NULL;
}

static int sat_table_right(const uint8_t *in, const int64_t *out, int64_t n)
{
    enum { CHECKERS = 16 };
    sat_check c[CHECKERS];
    pthread_t ids[CHECKERS];
    for (int t = 0; t < CHECKERS; t++) {
        c[t] = (sat_check){in, out, n, n * t / CHECKERS, n * (t + 1) / CHECKERS, 0};
        pthread_create(&ids[t], NULL, sat_check_rows, &c[t]);
    }
    int right = 1;
    for (int t = 0; t < CHECKERS; t++) {
        pthread_join(ids[t], NULL);
        right &= !c[t].bad;
    }
    return right;
}

static int no_reference; /* --no-reference 1 */
/* SAT f32: the bands' table is bit for bit one GPU's when every band starts on a multiple of the
 * scan's 128-column chunk; else only within sat_accuracy.h's bound.  run() measures the bands'
 * error ratio to that bound when want_bound is set (once: it is a pass over the table in double). */
static int want_bound;
static int run_failed; /* a rank's status was not PW_OK in some run */
static double bound_ratio = -1;

/* The inputs, cell k from k alone (so that slices fill them in any order). */
static void fill_heat(size_t lo, size_t hi, void *p)
{
    for (size_t k = lo; k < hi; k++) ((float *)p)[k] = (float)(k % 97) / 97.0f;
}
static void fill_sat_f32(size_t lo, size_t hi, void *p)
{
    for (size_t k = lo; k < hi; k++) ((float *)p)[k] = (float)((uint32_t)(k * 2654435761u) >> 24) / 255.0f;
}
static void fill_sat_u8(size_t lo, size_t hi, void *p)
{
    for (size_t k = lo; k < hi; k++) ((uint8_t *)p)[k] = (uint8_t)(k * 2654435761u >> 24);
}

/* A hash of a table's bits: FNV-1a over each of 64 slices, then over the slices' hashes (only
 * compared between runs of this process: any fixed rule does). */
typedef struct table_hash {
    const void *out;
    size_t cells;
    uint64_t part[64];
} table_hash;
static void hash_parts(size_t lo, size_t hi, void *p)
{
    table_hash *h = p;
    for (size_t q = lo; q < hi; q++) {
        uint64_t v = PW_FNV1A_BASIS;
        for (size_t k = h->cells * q / 64; k < h->cells * (q + 1) / 64; k++) {
            uint64_t x = 0;
            if (sat_f32) memcpy(&x, (const float *)h->out + k, sizeof(float));
            else x = (uint64_t)((const int64_t *)h->out)[k];
            v = pw_fnv1a_step(v, x);
        }
        h->part[q] = v;
    }
}

typedef struct copies {
    float *to;
    const float *from;
    size_t cells;
    int count;
} copies;
static void copy_grids(size_t lo, size_t hi, void *p)
{
    const copies *c = p;
    for (int k = 0; k < c->count; k++) memcpy(c->to + c->cells * (size_t)k + lo, c->from + lo, sizeof(float) * (hi - lo));
}

/* One run on `ranks` ranks (1: the single process): seconds; *result its answer (SAT: a hash of
 * the table, HEAT: the residual, SW: the best cell). */
static double run(const problem *p, int ranks, int64_t result[3], double *kernel_s)
{
    const size_t cells = (size_t)(p->n * p->n);
    float *grids = p->app == APP_HEAT ? malloc(sizeof(float) * cells * (size_t)ranks) : NULL;
    void *out = p->app == APP_SAT ? malloc((sat_f32 ? sizeof(float) : sizeof(int64_t)) * cells) : NULL;
    if (grids) {
        copies c = {grids, p->grid0, cells, ranks};
        in_parallel(cells, copy_grids, &c);
    }
    pw_comm *comms[64] = {0};
    if (ranks > 1) pw_comm_local(ranks, comms);
    for (int k = 0; ranks > 1 && k < ranks; k++) pw_comm_set_direct(comms[k], direct), pw_comm_set_turns(comms[k], turns);
    rank_run runs[64];
    pthread_t ids[64];
    const double t0 = now();
    for (int k = 0; k < ranks; k++) {
        runs[k] = (rank_run){comms[k], p, PW_OK, 0, {0}, grids ? grids + cells * (size_t)k : NULL, out, ""};
        if (ranks == 1) rank_main(&runs[k]);
        else pthread_create(&ids[k], NULL, rank_main, &runs[k]);
    }
    for (int k = 0; ranks > 1 && k < ranks; k++) pthread_join(ids[k], NULL);
    const double t = now() - t0;
    for (int k = 0; k < ranks; k++) {
        if (runs[k].st != PW_OK) {
            fprintf(stderr, "rank %d: %s (%s)\n", k, pw_status_str(runs[k].st), runs[k].detail);
            run_failed = 1;
        }
        pw_comm_free(comms[k]);
    }
    memcpy(result, runs[0].result, sizeof runs[0].result);
    *kernel_s = 0; /* the longest rank's */
    for (int k = 0; k < ranks; k++)
        if (runs[k].kernel_s > *kernel_s) *kernel_s = runs[k].kernel_s;
    if (out && sat_f32 && ranks > 1 && want_bound && !run_failed) {
        const pw_image in = {PW_F32, p->n, p->n, 0, p->fimage}, table = {PW_F32, p->n, p->n, 0, out};
        bound_ratio = pw_sat_error_ratio(&in, &table);
    }
    if (out && no_reference) result[0] = sat_table_right(p->image, out, p->n);
    else if (out) { /* a hash of the table's bits (floats too: see want_bound) */
        static table_hash th; /* (64 words: not on the stack of a thread) */
        th.out = out, th.cells = cells;
        in_parallel(64, hash_parts, &th);
        uint64_t h = PW_FNV1A_BASIS;
        for (int q = 0; q < 64; q++) h = pw_fnv1a_step(h, th.part[q]);
        result[0] = (int64_t)h;
    }
    free(grids);
    free(out);
    return t;
}

/* The app's inputs at side (or length) n; nonzero when the host has no memory for them. */
static int problem_make(problem *p, int app, int64_t n, int threads, uint64_t *s)
{
    *p = (problem){app, NULL, NULL, n, NULL, NULL, NULL, threads};
    const size_t cells = (size_t)(n * n);
    if (app == APP_SW) {
        p->a = malloc((size_t)n), p->b = malloc((size_t)n);
        if (!p->a || !p->b) return 1;
        for (int64_t k = 0; k < n; k++) {
            *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
            p->a[k] = "ACGT"[*s & 3], p->b[k] = "ACGT"[(*s >> 8) & 3];
        }
    } else if (app == APP_HEAT) {
        p->grid0 = malloc(sizeof(float) * cells);
        if (p->grid0) in_parallel(cells, fill_heat, p->grid0);
    } else if (sat_f32) {
        p->fimage = malloc(sizeof(float) * cells);
        if (p->fimage) in_parallel(cells, fill_sat_f32, p->fimage);
    } else {
        p->image = malloc(cells);
        if (p->image) in_parallel(cells, fill_sat_u8, p->image);
    }
    return app != APP_SW && !p->grid0 && !p->fimage && !p->image;
}

static void problem_free(problem *p) { free(p->a), free(p->b), free(p->grid0), free(p->image), free(p->fimage); }

/* With fewer than 3 runs (the largest grids: one), the median cannot drop a first run's costs:
 * the first launch of each kernel (CUDA loads modules lazily) and the GPUs' peer set-up.  So one
 * GPU and the ranks first run the app once on a small grid, untimed (the same kernels).  (SAT f32
 * 125952^2 measured 37.9 ms on one GPU and 75.7 ms in bands in one run without it, 2026-11-29.) */
static void warm_up(int app, int ranks, int threads, uint64_t *s)
{
    problem w;
    want_bound = 0;
    int64_t result[3];
    double kernel_s;
    if (!problem_make(&w, app, app == APP_SW ? 20000 : 4096, ranks * threads, s)) {
        run(&w, 1, result, &kernel_s);
        w.threads = threads;
        run(&w, ranks, result, &kernel_s);
    }
    problem_free(&w);
    run_failed = 0; /* (a warm-up's failure shows again in the timed runs) */
}

int main(int argc, char **argv)
{
    int ranks = 4, threads = 4, runs = 3;
    int64_t sw_n = 40000, grid_n = 8192;
    for (int k = 1; k + 1 < argc; k += 2) {
        if (!strcmp(argv[k], "--ranks")) ranks = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--threads")) threads = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--sw")) sw_n = atoll(argv[k + 1]);
        else if (!strcmp(argv[k], "--grid")) grid_n = atoll(argv[k + 1]);
        else if (!strcmp(argv[k], "--gpus")) gpus = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--blocks")) blocks = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--direct")) direct = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--turns")) turns = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--sw-blocks")) sw_blocks = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--sat-f32")) sat_f32 = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--only")) only = argv[k + 1];
        else if (!strcmp(argv[k], "--no-reference")) no_reference = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--runs")) runs = atoi(argv[k + 1]);
        else if (!strcmp(argv[k], "--weights")) {
            char *at = argv[k + 1];
            for (int q = 0; q < 64 && *at; q++) {
                weights[q] = strtod(at, &at);
                if (*at == ',') at++;
            }
        }
    }
    if (only && strcmp(only, "sw") && strcmp(only, "heat") && strcmp(only, "sat")) {
        fprintf(stderr, "bench_dist: --only sw, heat or sat\n");
        return 2;
    }
    if (no_reference && (sat_f32 || !only || strcmp(only, "sat") != 0)) {
        fprintf(stderr, "bench_dist: --no-reference checks SAT u8 -> i64 only (--only sat)\n");
        return 2;
    }
    for (int q = 0; weights[0] > 0 && q < ranks; q++)
        if (!(weights[q] > 0)) {
            fprintf(stderr, "bench_dist: --weights needs a positive weight for each of the %d ranks\n", ranks);
            return 2;
        }
    if (ranks < 2 || ranks > 64 || threads < 1 || gpus < 0 || blocks < 0 || runs < 1 || runs > 3) {
        fprintf(stderr, "usage: bench_dist [--ranks 2..64] [--threads T] [--sw N] [--grid N] [--gpus G [--blocks B] [--sw-blocks B] [--direct 0|1]] [--turns 0|1] [--sat-f32 0|1] [--only sw|heat|sat] [--no-reference 1] [--runs 1..3] [--weights w0,w1,...]\n");
        return 2;
    }
    if (gpus)
        printf("ranks %d on %d GPU(s)%s%s, hand-over %s, against one GPU (CUDA engines)\n", ranks, gpus,
               blocks ? ", each rank's blocks capped" : "", turns ? ", ranks sharing a GPU in turns" : "",
               direct ? "direct (where possible)" : "through the host");
    else
        printf("ranks %d x %d threads against one process of %d threads (CPU engines)\n", ranks, threads, ranks * threads);
    printf("%-6s %10s %12s %12s %8s %12s %12s %8s  %s\n", "app", "size", "one_s", "ranks_s", "ratio", "one_kern_s",
           "ranks_kern_s", "ratio", "check");
    uint64_t s = 12345;
    int failures = 0;
    for (int app = 0; app < 3; app++) {
        if (only && strcmp(only, app_names[app]) != 0) continue;
        problem p;
        if (problem_make(&p, app, app == APP_SW ? sw_n : grid_n, ranks * threads, &s)) {
            fprintf(stderr, "bench_dist: no host memory for a %lld^2 grid\n", (long long)p.n);
            return 1;
        }
        if (gpus && runs < 3 && !no_reference) warm_up(app, ranks, threads, &s);
        int64_t ref[3], got[3];
        double one[3] = {0}, many[3] = {0}, one_k[3] = {0}, many_k[3] = {0};
        int ok = 1, same = 1;
        for (int k = 0; k < runs; k++) {
            p.threads = ranks * threads;
            if (no_reference) { /* (a grid larger than one GPU: the bands alone, once, checked on their own) */
                p.threads = threads;
                many[0] = many[1] = many[2] = run(&p, ranks, got, &many_k[0]);
                many_k[1] = many_k[2] = many_k[0];
                ok = got[0] == 1;
                break;
            }
            one[k] = run(&p, 1, ref, &one_k[k]);
            p.threads = threads;
            want_bound = app == APP_SAT && sat_f32 && k == 0;
            many[k] = run(&p, ranks, got, &many_k[k]);
            same &= memcmp(ref, got, sizeof ref) == 0;
        }
        if (!no_reference) /* (float SAT: equal bits, or the bands within the stated bound) */
            ok = same || (app == APP_SAT && sat_f32 && bound_ratio >= 0 && bound_ratio <= 1);
        const int failed = run_failed;
        ok &= !failed;
        failures += !ok;
        run_failed = 0;
        const int m = no_reference ? 1 : runs, mid = m / 2; /* (the median of the runs made) */
        qsort(one, (size_t)m, sizeof one[0], cmp_double);
        qsort(many, (size_t)m, sizeof many[0], cmp_double);
        qsort(one_k, (size_t)m, sizeof one_k[0], cmp_double);
        qsort(many_k, (size_t)m, sizeof many_k[0], cmp_double);
        printf("%-6s %10lld %12.3f %12.3f %8.3f %12.4f %12.4f %8.3f  %s\n", app == APP_SAT && sat_f32 ? "satf32" : app_names[app], (long long)p.n, one[mid], many[mid],
               one[mid] / many[mid], one_k[mid], many_k[mid], many_k[mid] > 0 ? one_k[mid] / many_k[mid] : 0.0,
               failed ? "FAILED" : no_reference ? (ok ? "right" : "WRONG") : same ? "equal" : ok ? "within the bound" : "DIFFERENT");
        problem_free(&p);
    }
    return failures ? 1 : 0;
}
