/* sw.c - pw_sw(): Smith-Waterman-Gotoh in linear space on any engine. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/alloc.h"
#include "band_apps.h"
#include "linear_orient.h"
#include "checks.h"
#include "../src/core/auto_width.h"
#include "../src/core/best_cell.h"
#include "sw_gpus.h"
#include "../src/cuda/kernel_desc.h"
#include "../src/core/exec.h"
#include "../src/core/linear_buffers.h"
#include "../src/core/status_detail.h"
#include "scoring.h"
#include "sw_cell.h"
#include "sw_simd.h"
#include "sw_saving.h"
#include "sw_striped.h"
#include "../src/cpu/simd/simd_isa.h"
#include "../src/cpu/simd/simd_plan.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

/* Best cell so far; ties go to the smallest i, then the smallest j. */
typedef struct sw_best {
    int32_t score;
    int64_t i, j;
} sw_best;

static int sw_better(sw_best a, sw_best b) { return pw_best_cell_better(a.score, a.i, a.j, b.score, b.i, b.j); }

typedef struct sw_ctx {
    pw_sw_cell *bus, *left, *diag;
    const uint8_t *a, *b;
    const int32_t *scores;
    int alphabet;
    int32_t gap_open, gap_extend;
    sw_best *best; /* one per worker */
    atomic_int *best_seen; /* NULL, or one per worker: its best score for the progress hook */
    int workers;
} sw_ctx;

/* The progress hook's best score so far (core/monitor.h): the workers' latest flushes. */
static int sw_best_so_far(void *p, void *stream, int64_t *best)
{
    (void)stream;
    const sw_ctx *ctx = p;
    int32_t b = 0;
    for (int w = 0; w < ctx->workers; w++) {
        int32_t v = atomic_load_explicit(&ctx->best_seen[w], memory_order_relaxed);
        if (v > b) b = v;
    }
    *best = b;
    return 1;
}

static inline pw_sw_cell sw_cell_at(const sw_ctx *ctx, int64_t i, int64_t j, pw_sw_cell up,
                                    pw_sw_cell left, pw_sw_cell diag)
{
    int32_t s = ctx->scores[ctx->a[i] * ctx->alphabet + ctx->b[j]];
    return pw_sw_step(s, ctx->gap_open, ctx->gap_extend, up, left, diag);
}

/* Within a segment j only grows, so a strict > keeps the smallest j of the row's maximum. */
#define SW_ACC_INIT(ctx, acc) ((acc).score = 0, (acc).i = -1, (acc).j = -1)
#define SW_ACC_ADD(acc, ii, jj, v) \
    if ((v).h > (acc).score) { (acc).score = (v).h; (acc).i = (ii); (acc).j = (jj); }
#define SW_ACC_FLUSH(ctx, worker, acc)                                                            \
    if ((acc).score > 0 && sw_better((acc), (ctx)->best[worker])) {                                \
        (ctx)->best[worker] = (acc);                                                               \
        if ((ctx)->best_seen)                                                                      \
            atomic_store_explicit(&(ctx)->best_seen[worker], (acc).score, memory_order_relaxed);   \
    }

/* A vector processor's best cell of one lane in one pass (sw_simd.h), kept like a segment's. */
static void sw_offer(void *p, int worker, int32_t score, int64_t i, int64_t j)
{
    sw_ctx *ctx = p;
    sw_best acc = {score, i, j};
    SW_ACC_FLUSH(ctx, worker, acc);
}

static int32_t sw_threshold(void *p, int worker)
{
    const sw_ctx *ctx = p;
    return ctx->best[worker].i < 0 ? 1 : ctx->best[worker].score; /* no cell yet: any score > 0 */
}

/* The vector processor when the plan allows it: the widest set up to the plan's whose 16-bit
 * passes hold these scores (sw_simd.h), on tiles fitted to it (simd_plan.h).  Else k->tile stays
 * NULL: the scalar cells, also when the processor's own arrays cannot be had (they are larger). */
static pw_status sw_simd_setup(pw_plan *plan, const pw_options *options, const uint8_t *ea, int64_t n,
                               const uint8_t *eb, int64_t m, const pw_score_table *table,
                               const pw_sw_params *params, sw_ctx *ctx, pw_sw_simd *k)
{
    k->tile = NULL;
    pw_simd simd = plan->simd;
    while (simd > PW_SIMD_SCALAR &&
           !pw_sw_simd_pass_max(table->scores, table->size, params->gap_open, params->gap_extend,
                                pw_simd_lanes16(simd)))
        simd = (pw_simd)(simd - 1); /* narrower vectors allow longer passes */
    if (simd == PW_SIMD_SCALAR) return PW_OK;
    int use;
    pw_status st = pw_simd_fit_plan(plan, options, pw_simd_lanes16(simd), pw_sw_simd_rows(simd), &use);
    if (st != PW_OK || !use) return st;
    st = pw_sw_simd_init(k, simd, plan->workers, &plan->tiling, ea, n, eb, m, table->scores, table->size, params->gap_open,
                         params->gap_extend, sw_offer, sw_threshold, ctx);
    if (st == PW_OK) plan->simd = simd;
    return st == PW_ERR_UNSUPPORTED || st == PW_ERR_OUT_OF_MEMORY ? PW_OK : st;
}

/* A band of a distributed run on the vector processor (core/band.h): the left neighbour's last
 * column as H and E (row -1's 0 before it, the padding rows' boundary after it), this band's own
 * last column as the kernel records it (sw_simd.h).  On the wire a row is a pw_sw_cell, as the
 * scalar cells' linear buffers send it (F is not read across an edge). */
typedef struct sw_simd_band {
    int32_t *left, *last; /* h then e, each rows + 1 + padding (left) or rows (last) */
    int64_t rows;
} sw_simd_band;

static void sw_simd_put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    const sw_simd_band *b = app;
    const pw_sw_cell *cell = src;
    const int64_t stride = b->rows + 1 + PW_SW_SIMD_LEFT_PAD;
    for (int64_t i = i0; i < i1; i++) b->left[1 + i] = cell[i - i0].h, b->left[stride + 1 + i] = cell[i - i0].e;
}

static void sw_simd_get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    const sw_simd_band *b = app;
    pw_sw_cell *cell = dst;
    for (int64_t i = i0; i < i1; i++) cell[i - i0] = (pw_sw_cell){b->last[i], b->last[b->rows + i], PW_SW_NEG_INF};
}

/* The vector processor k as a band: its left and last columns and the link's io. */
static pw_status sw_simd_band_open(sw_simd_band *b, pw_sw_simd *k, const pw_band *band, int64_t n, pw_band_io *io)
{
    const int64_t stride = n + 1 + PW_SW_SIMD_LEFT_PAD;
    b->rows = n;
    b->left = band->col0 > 0 ? pw_malloc(sizeof *b->left * 2 * (size_t)stride) : NULL;
    b->last = band->col0 + band->cols < band->total_cols ? pw_malloc(sizeof *b->last * 2 * (size_t)n) : NULL;
    if ((band->col0 > 0 && !b->left) || (band->col0 + band->cols < band->total_cols && !b->last)) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; b->left && i < stride; i++) b->left[i] = 0, b->left[stride + i] = PW_SW_NEG_INF; /* (row -1, padding) */
    k->left_h = b->left ? b->left + 1 : NULL;
    k->left_e = b->left ? b->left + stride + 1 : NULL;
    k->last_h = b->last;
    k->last_e = b->last ? b->last + n : NULL;
    *io = (pw_band_io){.app = b, .bytes_per_row = sizeof(pw_sw_cell), .put_left = sw_simd_put_left,
                       .get_last = sw_simd_get_last};
    return PW_OK;
}

static void sw_simd_band_free(sw_simd_band *b)
{
    free(b->left);
    free(b->last);
}

#define PW_SEG_NAME sw_segment
#define PW_SEG_CTX sw_ctx
#define PW_SEG_T pw_sw_cell
#define PW_SEG_CELL sw_cell_at
#define PW_SEG_BOUNDARY(ctx, i, j) pw_sw_boundary()
#define PW_SEG_ACC_T sw_best
#define PW_SEG_ACC_INIT SW_ACC_INIT
#define PW_SEG_ACC_ADD SW_ACC_ADD
#define PW_SEG_ACC_FLUSH SW_ACC_FLUSH
#include "../src/core/segment3.h"

pw_status pw_sw_check(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                      const void *result, pw_score_table *table)
{
    if (!a || !b || !params || !result) return PW_ERR_NULL_ARGUMENT;
    if (n < 1 || m < 1) {
        pw_set_error_detail("sequences of %lld and %lld letters: each needs at least one", (long long)n, (long long)m);
        return PW_ERR_INVALID_SIZE;
    }
    pw_status st = pw_score_table_make(params, table);
    if (st != PW_OK) return st;
    /* H <= min(n, m) * max score: refuse before any work if that could pass 32 bits. */
    int64_t shorter = n < m ? n : m;
    if (table->max_score > 0 && shorter > (INT32_MAX - PW_MAX_SCORE_MAGNITUDE) / table->max_score) {
        pw_set_error_detail("the best score could pass 32 bits: %lld letters of the shorter sequence x the largest "
                            "score %d (the limit keeps %d of room below 2^31)",
                            (long long)shorter, (int)table->max_score, (int)PW_MAX_SCORE_MAGNITUDE);
        return PW_ERR_OVERFLOW;
    }
    return PW_OK;
}

/* The CUDA tile height when the caller leaves it to us: 128 for many rows at the model's width,
 * the case measured (apps/checks.h), else 64; the model's training corners run at it too
 * (pw_run_with_width's cuda_tile_h), so the model fits the tiles that run. */
static int sw_cuda_tile_h(const pw_options *options, int64_t rows, int64_t cols)
{
    pw_options o;
    if (options) o = *options;
    else pw_options_init(&o);
    return rows >= PW_SW_TALL_ROWS && pw_width_from_model(&o, rows, cols) ? PW_SW_TALL_CUDA_TILE_H
                                                                           : PW_LINEAR_CUDA_TILE_H;
}

/* Does one core of the striped engine (sw_striped.h) beat the tile engines on the plan's threads?
 * 0 no, 1 yes (giving up where its extra work grows too large), 2 asked for, -1 a bad switch (the
 * detail set) ($PEERWAVE_SW_CPU_ENGINE
 * =striped; =tiles: never; tests and benchmarks; the default strategy only, even then).  Measured on a Zen 5 core (bench/cpu_simd.c,
 * 20000^2 random proteins, BLOSUM62, 11/1): one striped core 11.2 GCUPS, level with parasail's
 * striped 16-bit code; the tiles 5.8 on one core (their profile read a block at a time and
 * transposed) and 10.5 on two.  So one thread only.  On similar sequences the lazy passes follow
 * long gap chains and every row brings a new best to look up: 6 kb protein pairs with 20% of their
 * letters kept took the striped engine 0.6 passes' extra work and 1.13x the tiles' time, at 30%
 * 2.3 and 1.5x, at 90% 12.9 and 6.9x (lazy passes alone), unrelated ones 0.1 and 0.52x; so the run gives up for the
 * tiles once the lazy passes' extra work passes 80% of the first passes' (checked every 64 rows; 40%
 * with the new bests' row scans counted made unrelated 1024 x 1024 proteins give up: 281 us against
 * 181, while pairs of 20-30% identity take 5-6% longer at 80, 50-90% identity alike: a Zen 5 core,
 * 2026-11-30).  With match/mismatch scoring the tiles compare codes
 * (10.2 GCUPS a core): striped code runs unrelated DNA faster (13.9) but every related pair slower
 * (8 kb pairs at about 50-90% identity: 1.2-1.5x the tiles' time; 20 kb at 99%: 7x), and the tiles
 * are 2x parasail there: never.  The default
 * strategy only (peer): the sequential loop stays the reference, and an asked-for barrier or task
 * run is what it says. */
static int sw_striped_worth(const pw_plan *plan, const pw_score_table *table, const pw_sw_params *params, int64_t n,
                            int64_t m)
{
    const char *ask = getenv("PEERWAVE_SW_CPU_ENGINE");
    if (ask && !*ask) ask = NULL;
    if (plan->backend == PW_BACKEND_CPU && ask && strcmp(ask, "tiles") && strcmp(ask, "striped")) {
        pw_set_error_detail("PEERWAVE_SW_CPU_ENGINE=%s: expected striped or tiles (or unset)", ask);
        return -1; /* (a misspelt switch is not the default engine, silently) */
    }
    if (plan->backend != PW_BACKEND_CPU || plan->simd == PW_SIMD_SCALAR || plan->trace || plan->monitor.fn ||
        n < 1 || m < 1 || !pw_sw_striped_fits(table->scores, table->size, params->gap_open, params->gap_extend))
        return 0;
    if (plan->strategy != PW_STRATEGY_PEER) return 0; /* (asked for too: the reference stays itself) */
    if (ask && !strcmp(ask, "tiles")) return 0;
    if (ask && !strcmp(ask, "striped")) return 2;
    /* short rows: the tiles at least as fast (a Zen 5 core, BLOSUM62 11/1, random proteins: 256^2
     * 36 us striped and tiles alike, related ones 102 against 36; 512^2 80 against 90-98, related
     * 334 against 97), so the striped engine only from 1024 columns (unrelated 188 against 262-276,
     * 2048: 497 against 860), where a related pair's first 64 rows before it gives up are a
     * sixteenth of it or less */
    return plan->workers == 1 && m >= 1024 && !pw_sw_simd_is_equality(table->scores, table->size);
}

/* The striped engine's run into *result: PW_OK; PW_ERR_CANCELLED; anything else (16 bits
 * saturated, gaps too large for them) leaves the run to the tile engines. */
static pw_status sw_run_striped(const pw_plan *plan, const pw_options *options, const uint8_t *ea, int64_t n,
                                const uint8_t *eb, int64_t m, const pw_score_table *table, const pw_sw_params *params,
                                int forced, pw_sw_result *result)
{
    const pw_sw_striped_job job = {ea, eb, n, m, table->scores, table->size, params->gap_open, params->gap_extend,
                                   options ? options->cancel : NULL, forced ? 0 : 80};
    const double t0 = pw_seconds_now();
    pw_status st = pw_sw_striped(&job, plan->simd, &result->score, &result->end_a, &result->end_b);
    if (st == PW_ERR_CANCELLED) pw_set_error_detail("cancelled (the cancel flag)");
    if (st != PW_OK) return st;
    pw_run_info *info = &result->info;
    pw_run_info_clear(info);
    info->backend = PW_BACKEND_CPU;
    info->strategy = PW_STRATEGY_SEQUENTIAL; /* (one thread, in striped rows: no tiles) */
    info->shape = PW_TILE_HYPER;
    info->tile_h = 1;
    info->tile_w = m;
    info->threads = info->threads_available = 1;
    info->cells = n * m;
    info->seconds = pw_seconds_now() - t0;
    info->simd = plan->simd;
    info->lane_bits = 16;
    return PW_OK;
}

/* pw_sw with the options' width as it is (the whole run, or a training corner: auto_width.h); or
 * (band not NULL) one band of columns of a distributed run, b being the band's letters. */
/* The CPU's part of sw_run over encoded letters (st: the caller's status so far); save (NULL
 * otherwise): the alignment search's store, kept by the vector tiles (PW_ERR_UNSUPPORTED where
 * they cannot: no vector processor, or tiles whose height does not divide save->every). */
typedef struct sw_save {
    int32_t *h, *f;
    int64_t every, slots;
} sw_save;

static pw_status sw_run_cpu(pw_plan *plan, const pw_options *options, const uint8_t *ea, int64_t n,
                            const uint8_t *eb, int64_t m, const pw_score_table *table, const pw_sw_params *params,
                            const pw_band *band, const sw_save *save, pw_sw_result *result)
{
    pw_status st = PW_OK;
    sw_ctx ctx = {0};
    pw_linear_buffers buf = {0};
    pw_sw_simd vec = {0};
    sw_simd_band simd_band = {0};
    /* CPU only from here: one core's striped rows where they beat the threads' tiles */
    const int striped = st == PW_OK && !band && !save ? sw_striped_worth(plan, table, params, n, m) : 0;
    if (striped < 0) return PW_ERR_INVALID_ARGUMENT;
    double striped_seconds = 0; /* (a run handed to the tiles counts the striped attempt too) */
    if (striped) {
        const double t0 = pw_seconds_now();
        st = sw_run_striped(plan, options, ea, n, eb, m, table, params, striped == 2, result);
        striped_seconds = pw_seconds_now() - t0;
        if (st == PW_OK || st == PW_ERR_CANCELLED) return st;
        st = PW_OK; /* (16 bits saturated, or long gap chains: the tiles below) */
    }
    /* the vector processor when the plan allows it (it may re-cut the tiles), else the scalar
     * cells' row buffers; one best cell per worker thread. */
    if (st == PW_OK) st = sw_simd_setup(plan, options, ea, n, eb, m, table, params, &ctx, &vec);
    if (st == PW_OK && save) {
        if (!vec.tile || save->every % plan->tiling.h != 0) {
            if (vec.tile) pw_sw_simd_free(&vec);
            return PW_ERR_UNSUPPORTED;
        }
        vec.save_h = save->h, vec.save_f = save->f;
        vec.save_every = save->every, vec.save_slots = save->slots;
    }
    if (st == PW_OK && !vec.tile) st = pw_linear_buffers_alloc(&buf, sizeof(pw_sw_cell), n, m);
    if (st == PW_OK && !(ctx.best = pw_malloc(sizeof *ctx.best * (size_t)plan->workers)))
        st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK && plan->monitor.fn) {
        if (!(ctx.best_seen = pw_malloc(sizeof *ctx.best_seen * (size_t)plan->workers))) st = PW_ERR_OUT_OF_MEMORY;
        for (int w = 0; st == PW_OK && w < plan->workers; w++) atomic_init(&ctx.best_seen[w], 0);
        ctx.workers = plan->workers;
        plan->monitor.best = sw_best_so_far;
        plan->monitor.best_ctx = &ctx;
    }
    if (st == PW_OK) {
        ctx.bus = buf.bus;
        ctx.left = buf.left;
        ctx.diag = buf.diag;
        ctx.a = ea;
        ctx.b = eb;
        ctx.scores = table->scores;
        ctx.alphabet = table->size;
        ctx.gap_open = params->gap_open;
        ctx.gap_extend = params->gap_extend;
        for (int w = 0; w < plan->workers; w++) SW_ACC_INIT(ctx, ctx.best[w]);
        pw_kernel kernel = {.segment = sw_segment, .ctx = &ctx};
        if (vec.tile) { /* (no segment: only tiles may be handed the vector context) */
            kernel = (pw_kernel){.tile = pw_sw_simd_tile, .ctx = &vec, .simd = plan->simd};
        } else {
            sw_segment_init(&ctx, n, m);
        }
        pw_band_io io;
        pw_band_edges edges;
        if (band && vec.tile) st = sw_simd_band_open(&simd_band, &vec, band, n, &io);
        else if (band) pw_linear_band_io(&buf, &io);
        if (band && st == PW_OK) {
            st = band->attach(band->ctx, &io, &edges);
            plan->edges = &edges;
        }
        pw_run_info_clear(&result->info);
        if (st == PW_OK) st = pw_execute(plan, &kernel, &result->info);
        result->info.seconds += striped_seconds;
        if (band) band->detach(band->ctx, st);
    }
    sw_simd_band_free(&simd_band);
    if (st == PW_OK) {
        sw_best best;
        SW_ACC_INIT(ctx, best);
        for (int w = 0; w < plan->workers; w++)
            if (ctx.best[w].score > 0 && sw_better(ctx.best[w], best)) best = ctx.best[w];
        result->score = best.score;
        result->end_a = best.i;
        result->end_b = best.j;
    }
    pw_linear_buffers_free(&buf);
    if (vec.tile) pw_sw_simd_free(&vec);
    free(ctx.best);
    free(ctx.best_seen);
    return st;
}

static pw_status sw_run(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                        const pw_options *options, int cuda_tile_h, const pw_band *band, pw_sw_result *result)
{
    pw_score_table table;
    pw_status st = pw_sw_check(a, n, b, m, params, result, &table);
    if (st != PW_OK) return st;
    pw_plan plan;
    st = pw_plan_make_app(options, n, m, 0, cuda_tile_h, &plan);
    if (st != PW_OK) return st;

    uint8_t *ea = pw_malloc((size_t)n), *eb = pw_malloc((size_t)m);
    if (!ea || !eb) st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK) st = pw_score_encode(&table, a, n, ea);
    if (st == PW_OK) st = pw_score_encode(&table, b, m, eb);
#ifdef PW_HAVE_CUDA
    if (st == PW_OK && plan.backend == PW_BACKEND_CUDA) {
        plan.band = band; /* (a band: the glue attaches to it, cuda/linear_apps.cu) */
        pw_run_info_clear(&result->info);
        st = pw_cuda_sw(&plan, ea, n, eb, m, table.scores, table.size, params->gap_open,
                        params->gap_extend, &result->score, &result->end_a, &result->end_b,
                        &result->info);
        free(ea);
        free(eb);
        return st;
    }
#endif
    if (st == PW_OK) st = sw_run_cpu(&plan, options, ea, n, eb, m, &table, params, band, NULL, result);
    free(ea);
    free(eb);
    return st;
}

pw_status pw_sw_cpu_saving(const uint8_t *ea, int64_t n, const uint8_t *eb, int64_t m, const int32_t *scores,
                           int alphabet, int32_t gap_open, int32_t gap_extend, const pw_options *options, int64_t every,
                           int64_t slots, int32_t *save_h, int32_t *save_f, pw_sw_result *result)
{
    if (alphabet < 1 || alphabet > PW_SCORING_MAX_ALPHABET || every < 1) return PW_ERR_UNSUPPORTED;
    pw_score_table table = {0};
    table.size = alphabet;
    memcpy(table.scores, scores, sizeof *scores * (size_t)alphabet * (size_t)alphabet);
    pw_sw_params params;
    pw_sw_params_init(&params);
    params.gap_open = gap_open, params.gap_extend = gap_extend;
    pw_options o;
    pw_status st = pw_options_cpu_tiles(options, &o);
    pw_plan plan;
    if (st == PW_OK) st = pw_plan_make_app(&o, n, m, 0, 0, &plan);
    const sw_save save = {save_h, save_f, every, slots};
    if (st == PW_OK) st = sw_run_cpu(&plan, &o, ea, n, eb, m, &table, &params, NULL, &save, result);
    return st;
}

typedef struct sw_part {
    const char *a, *b;
    const pw_sw_params *params;
    int cuda_tile_h;
    pw_sw_result *result;
} sw_part;

/* The first rows letters of a against the first cols of b (auto_width.h). */
static pw_status sw_part_run(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    sw_part *x = p;
    pw_sw_result r = {0};
    pw_status st = sw_run(x->a, rows, x->b, cols, x->params, o, x->cuda_tile_h, NULL, &r);
    *x->result = r; /* the whole run comes last */
    if (info) *info = r.info;
    return st;
}

/* Will the GPU run this pair on the warp-rows engine, which has no tile width to choose? */
static int sw_on_warp_rows(const pw_options *options, int64_t n, int64_t m, const pw_sw_params *params,
                           const pw_score_table *table, int cuda_tile_h)
{
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    return pw_plan_make_app(options, n, m, 0, cuda_tile_h, &plan) == PW_OK && plan.backend == PW_BACKEND_CUDA &&
           pw_cuda_sw_rows_takes(&plan, n, m, table->scores, table->size, params->gap_open, params->gap_extend);
#else
    (void)options, (void)n, (void)m, (void)params, (void)table, (void)cuda_tile_h;
    return 0;
#endif
}

/* pw_sw as given: a down the rows. */
static pw_status sw_as_given(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                             const pw_options *options, const pw_score_table *table, pw_sw_result *result)
{
    sw_part x = {a, b, params, sw_cuda_tile_h(options, n, m), result};
    /* (no width model trained or looked up for a run that uses no tile width) */
    pw_options o = pw_options_or_defaults(options);
    pw_plan plan;
    if (pw_width_from_model(&o, n, m) &&
        (sw_on_warp_rows(&o, n, m, params, table, x.cuda_tile_h) ||
         (pw_plan_make_app(&o, n, m, 0, x.cuda_tile_h, &plan) == PW_OK && sw_striped_worth(&plan, table, params, n, m))))
        return sw_run(a, n, b, m, params, options, x.cuda_tile_h, NULL, result);
    return pw_run_with_width("sw", options, x.cuda_tile_h, sw_part_run, &x, n, m, &result->info);
}

static int sw_table_symmetric(const pw_score_table *t)
{
    for (int x = 0; x < t->size; x++)
        for (int y = 0; y < x; y++)
            if (t->scores[x * t->size + y] != t->scores[y * t->size + x]) return 0;
    return 1;
}

/* pw_sw with b down the rows (linear_orient.h): the same score where the table is symmetric,
 * and the same end cell once found again by a's rule (the smallest end_a, then end_b):
 *   1. The swapped run gives the best score S and, of the cells reaching it, the one with the
 *      smallest end_b (b is its rows), then the smallest end_a.
 *   2. A cell reaching S with a smaller end_a lies within a's first end_a letters, and b against
 *      them holds the same cells (a cell's values depend on the prefixes alone): run that, and
 *      again on what it finds, until no cell of the prefix reaches S.  Each prefix is shorter
 *      than the last, and each cell found has a larger end_b than the last (the earlier runs saw
 *      it and preferred a smaller one), so there are at most m + 1 runs.
 *   3. The last cell found is the rule's: no smaller end_a reaches S, and every cell of its
 *      end_a that reaches S lay in the last prefix, whose run gave the smallest end_b.
 * The prefix runs cost, on average, half the first (the cell's end_a falls anywhere in a), but
 * pairs built to tie (b's pieces planted along a in falling order) would take one run each: once
 * they have computed n x m cells, a's first end_a + 1 letters (which hold the rule's cell) run
 * as given instead, so the whole costs at most about twice the pair as given.  info.seconds
 * holds every run, info.cells the pair's n x m cells; the progress hook sees the first run alone
 * (the cancel flag stops them all), and the prefix runs keep its tile width (no model trained
 * again; where the first was the striped engine's, one thread, its width is the whole row). */
static pw_status sw_swapped(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                            const pw_options *options, const pw_score_table *table, pw_sw_result *result)
{
    pw_sw_result r;
    pw_status st = sw_as_given(b, m, a, n, params, options, table, &r);
    if (st != PW_OK) return st;
    int64_t end_a = r.end_b, end_b = r.end_a;
    double seconds = r.info.seconds, cells = 0;
    pw_options quiet = *options, quiet_as_given = *options; /* (the latter: its own width, for its own shape) */
    quiet.progress = quiet_as_given.progress = NULL;
    if (quiet.tile_w == 0) quiet.tile_w = r.info.tile_w;
    while (r.score > 0 && end_a > 0) {
        pw_sw_result prefix;
        cells += (double)end_a * (double)m;
        const int as_given = cells > (double)n * (double)m;
        st = as_given ? sw_as_given(a, end_a + 1, b, m, params, &quiet_as_given, table, &prefix)
                      : sw_as_given(b, m, a, end_a, params, &quiet, table, &prefix);
        if (st != PW_OK) return st;
        seconds += prefix.info.seconds;
        if (as_given) { /* (its best is S, at the rule's cell) */
            end_a = prefix.end_a, end_b = prefix.end_b;
            break;
        }
        if (prefix.score < r.score) break;
        end_a = prefix.end_b, end_b = prefix.end_a;
    }
    result->score = r.score;
    result->end_a = end_a;
    result->end_b = end_b;
    result->info = r.info;
    result->info.seconds = seconds;
    result->info.transposed = 1;
    return PW_OK;
}

pw_status pw_sw(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                const pw_options *options, pw_sw_result *result)
{
    pw_score_table table;
    pw_status st = pw_sw_check(a, n, b, m, params, result, &table);
    if (st != PW_OK) return st;
    pw_options o = pw_options_or_defaults(options);
    pw_linear_auto_backend(&o, n, m, PW_SW_GPU_STEP_S, PW_SW_CPU_CORE_CELLS_S);
    /* (the GPU's warp-rows engine chooses its own orientation, ties in a's terms) */
    if (pw_linear_run_swapped(&o, n, m, PW_SW_SWAP_RATIO_CPU, PW_SW_SWAP_RATIO_GPU) && sw_table_symmetric(&table) &&
        !sw_on_warp_rows(&o, n, m, params, &table, sw_cuda_tile_h(&o, n, m)))
        return sw_swapped(a, n, b, m, params, &o, &table, result);
    return sw_as_given(a, n, b, m, params, &o, &table, result);
}

pw_status pw_sw_on_gpus(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                        const pw_options *options, const int *devices, int n_devices, pw_sw_result *result)
{
    /* Where the warp-rows engine takes the pair on one GPU (or is asked for); PEERWAVE_SW_ENGINE=
     * tiles, or a pair it leaves, is PW_ERR_UNSUPPORTED with nothing done (the bands run).  On 2
     * H200s the genomes took 3.76 s this way against 6.55 s on one (the bands: 6.67 s). */
    if (!devices || n_devices < 2) return PW_ERR_UNSUPPORTED;
    pw_score_table table;
    pw_status st = pw_sw_check(a, n, b, m, params, result, &table);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_options o;
    if (options) o = *options;
    else pw_options_init(&o);
    o.backend = PW_BACKEND_CUDA;
    o.device = devices[0];
    pw_plan plan;
    st = pw_plan_make_app(&o, n, m, 0, sw_cuda_tile_h(&o, n, m), &plan);
    if (st != PW_OK) return st;
    uint8_t *ea = pw_malloc((size_t)n), *eb = pw_malloc((size_t)m);
    if (!ea || !eb) st = PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK) st = pw_score_encode(&table, a, n, ea);
    if (st == PW_OK) st = pw_score_encode(&table, b, m, eb);
    if (st == PW_OK) {
        pw_run_info_clear(&result->info);
        st = pw_cuda_sw_warp_rows_gpus(&plan, devices, n_devices, ea, n, eb, m, table.scores, table.size,
                                       params->gap_open, params->gap_extend, &result->score, &result->end_a,
                                       &result->end_b, &result->info);
    }
    free(ea);
    free(eb);
    return st;
#else
    (void)options, (void)devices;
    return PW_ERR_UNSUPPORTED;
#endif
}

pw_status pw_sw_band_tiles(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                           pw_backend backend, pw_options *options, pw_run_info *width)
{
    pw_score_table table;
    pw_sw_result scratch = {0};
    pw_status st = pw_sw_check(a, n, b, m, params, &scratch, &table);
    if (st != PW_OK) return st;
    if (backend == PW_BACKEND_CUDA && options->tile_h == 0) options->tile_h = sw_cuda_tile_h(options, n, m);
    sw_part x = {a, b, params, (int)options->tile_h, &scratch};
    return pw_choose_width("sw", options, x.cuda_tile_h, sw_part_run, &x, n, m, width);
}

pw_status pw_sw_band(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                     const pw_options *options, const pw_band *band, pw_sw_result *result)
{
    return sw_run(a, n, b, m, params, options, PW_LINEAR_CUDA_TILE_H, band, result);
}
