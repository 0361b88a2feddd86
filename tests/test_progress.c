/*
 * test_progress.c - the progress hook and the cancel flag (pw_options.progress, .cancel) on every
 * app, every strategy and the runtime API's cell forms.
 *
 * For every watched run: the result equals the unwatched run's bit for bit; the reports' cells
 * never go down and stay within [0, cells]; exactly one report is final, it is the last, and its
 * cells are the run's (pw_run_info.cells, which the engines count independently); SW's best so
 * far never passes the final score and equals it at the end.  Then cancelling: a hook that says
 * stop, a flag set before the run, and a flag the hook sets (as another thread would) each end
 * the run in PW_ERR_CANCELLED with no final report, on the peer, barrier and (CPU) task-graph
 * engines (a barrier run that stopped unevenly would hang: the CTest timeout catches it).
 *
 * Default: the CPU backend.  --gpu: the CUDA backend (exit 77 where there is none), with sizes
 * whose kernels run long enough for reports while they run.
 */
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "peerwave_batch.h"
#include "peerwave_runtime.h"
#include "test_util.h"

static int on_gpu;

typedef struct watch {
    int calls, finals, final_last, monotonic, in_range, stop_at; /* stop_at: return 1 on that call (0: never) */
    int calls_after_stop;
    int64_t last_done, final_cells, cells, best_max;
    int64_t final_best;
    int has_best;
    double first_fraction;
    volatile int *flag_to_set; /* set it on the first call (a caller's other thread would) */
} watch;

static int hook(void *user, const pw_progress *p)
{
    watch *w = user;
    if (w->stop_at && w->calls >= w->stop_at) w->calls_after_stop++;
    w->calls++;
    if (w->calls == 1) w->first_fraction = p->fraction;
    if (p->cells_done < w->last_done) w->monotonic = 0;
    if (p->cells_done < 0 || p->cells_done > p->cells || p->fraction < 0 || p->fraction > 1) w->in_range = 0;
    w->last_done = p->cells_done;
    w->cells = p->cells;
    w->final_last = p->final;
    if (p->final) {
        w->finals++;
        w->final_cells = p->cells_done;
        w->final_best = p->best;
    }
    if (p->has_best) {
        w->has_best = 1;
        if (p->best > w->best_max) w->best_max = p->best;
    }
    if (w->flag_to_set) *w->flag_to_set = 1;
    return w->stop_at && w->calls >= w->stop_at;
}

static void watch_init(watch *w)
{
    memset(w, 0, sizeof *w);
    w->monotonic = w->in_range = 1;
}

static pw_options watched(pw_strategy strategy, watch *w)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.strategy = strategy;
    o.threads = on_gpu ? 0 : 3;
    o.progress = hook;
    o.progress_user = w;
    o.progress_interval_ms = 1;
    /* the scalar cells on the CPU: the reports-while-running checks need runs longer than a few
     * intervals, and the vector processors do these sizes in a fraction of one (test_sw checks
     * them too, for the final report) */
    o.simd = PW_SIMD_SCALAR;
    return o;
}

static pw_options plain(pw_strategy strategy)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.strategy = strategy;
    o.threads = on_gpu ? 0 : 3;
    return o;
}

static void check_watch(const char *what, const watch *w, int64_t info_cells)
{
    CHECK(w->finals == 1 && w->final_last, "%s: %d final reports (last final: %d)", what, w->finals, w->final_last);
    CHECK(w->final_cells == info_cells && w->cells == info_cells, "%s: final cells %" PRId64 " of %" PRId64 ", run %" PRId64,
          what, w->final_cells, w->cells, info_cells);
    CHECK(w->monotonic && w->in_range, "%s: cells went down (%d) or out of range (%d)", what, !w->monotonic, !w->in_range);
}

static const pw_strategy strategies_cpu[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_SEQUENTIAL,
                                             PW_STRATEGY_TASKS};
static const pw_strategy strategies_gpu[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_LAUNCH};
static const char *const strategy_names[] = {"peer", "sequential", "barrier", "launch", "tasks"};

static char *random_dna(int64_t n)
{
    char *s = malloc((size_t)n);
    for (int64_t i = 0; i < n; i++) s[i] = "ACGT"[test_rand() % 4];
    return s;
}

static void test_sw(pw_strategy st, int64_t n, int64_t m, int affine)
{
    char *a = random_dna(n), *b = random_dna(m);
    pw_sw_params p;
    pw_sw_params_init(&p);
    if (affine) p.gap_open = 3;
    pw_options o = plain(st);
    pw_sw_result ref, got;
    watch w;
    watch_init(&w);
    pw_status s1 = pw_sw(a, n, b, m, &p, &o, &ref);
    o = watched(st, &w);
    pw_status s2 = pw_sw(a, n, b, m, &p, &o, &got);
    char what[96];
    snprintf(what, sizeof what, "sw %s %" PRId64 "x%" PRId64 " %s", strategy_names[st], n, m, affine ? "affine" : "linear");
    CHECK(s1 == PW_OK && s2 == PW_OK, "%s: %s / %s", what, pw_status_str(s1), pw_status_str(s2));
    CHECK(got.score == ref.score && got.end_a == ref.end_a && got.end_b == ref.end_b, "%s: watched %d, plain %d", what,
          got.score, ref.score);
    check_watch(what, &w, got.info.cells);
    /* the large run takes several intervals: reports came while it ran (else the checks above
     * only saw the final one) */
    if (n * m > 1000000 && st != PW_STRATEGY_LAUNCH) /* (the launch baseline reports at its end only) */
        CHECK(w.calls >= 2, "%s: %d reports in %.3f s", what, w.calls, got.info.seconds);
    CHECK(w.has_best && w.best_max <= got.score && w.final_best == got.score,
          "%s: best so far %d, max %" PRId64 ", final %" PRId64 " (score %d)", what, w.has_best, w.best_max,
          w.final_best, got.score);
    if (!on_gpu && st != PW_STRATEGY_SEQUENTIAL) { /* the vector processor's runs report too */
        watch_init(&w);
        o = watched(st, &w);
        o.simd = PW_SIMD_AUTO;
        s2 = pw_sw(a, n, b, m, &p, &o, &got);
        CHECK(s2 == PW_OK && got.score == ref.score && got.end_a == ref.end_a && got.end_b == ref.end_b,
              "%s, vectors: %d, plain %d", what, got.score, ref.score);
        check_watch(what, &w, got.info.cells);
        CHECK(w.has_best && w.final_best == got.score, "%s, vectors: final best %" PRId64, what, w.final_best);
    }
    free(a);
    free(b);
}

static void test_dtw(pw_strategy st, int64_t n, int64_t m)
{
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
    for (int64_t i = 0; i < n; i++) a[i] = sin((double)i / 7.0);
    for (int64_t j = 0; j < m; j++) b[j] = cos((double)j / 5.0);
    pw_options o = plain(st);
    pw_dtw_result ref, got;
    watch w;
    watch_init(&w);
    pw_status s1 = pw_dtw_f64(a, n, b, m, PW_DTW_ABSOLUTE, &o, &ref);
    o = watched(st, &w);
    pw_status s2 = pw_dtw_f64(a, n, b, m, PW_DTW_ABSOLUTE, &o, &got);
    char what[96];
    snprintf(what, sizeof what, "dtw %s %" PRId64 "x%" PRId64, strategy_names[st], n, m);
    CHECK(s1 == PW_OK && s2 == PW_OK && got.distance == ref.distance, "%s: %s %s %g %g", what, pw_status_str(s1),
          pw_status_str(s2), got.distance, ref.distance);
    check_watch(what, &w, got.info.cells);
    if (n * m > 1000000 && st != PW_STRATEGY_LAUNCH)
        CHECK(w.calls >= 2, "%s: %d reports in %.3f s", what, w.calls, got.info.seconds);
    CHECK(!w.has_best, "%s: a best score where there is none", what);
    free(a);
    free(b);
}

static void test_sat_inthist(pw_strategy st, int64_t rows, int64_t cols)
{
    const size_t cells = (size_t)(rows * cols);
    uint8_t *px = malloc(cells);
    for (size_t k = 0; k < cells; k++) px[k] = (uint8_t)test_rand();
    int64_t *s_ref = malloc(cells * 8), *s_got = malloc(cells * 8);
    pw_image in = {PW_U8, rows, cols, 0, px}, o1 = {PW_I64, rows, cols, 0, s_ref}, o2 = {PW_I64, rows, cols, 0, s_got};
    pw_options o = plain(st);
    pw_run_info i1, i2;
    watch w;
    watch_init(&w);
    pw_status r1 = pw_sat(&in, &o1, &o, &i1);
    o = watched(st, &w);
    pw_status r2 = pw_sat(&in, &o2, &o, &i2);
    char what[96];
    snprintf(what, sizeof what, "sat %s %" PRId64 "x%" PRId64, strategy_names[st], rows, cols);
    CHECK(r1 == PW_OK && r2 == PW_OK && !memcmp(s_ref, s_got, cells * 8), "%s: %s %s or different sums", what,
          pw_status_str(r1), pw_status_str(r2));
    check_watch(what, &w, i2.cells);

    const int bins = 5;
    int32_t *h_ref = malloc(cells * 4 * bins), *h_got = malloc(cells * 4 * bins);
    watch_init(&w);
    o = plain(st);
    r1 = pw_inthist(&in, bins, 0, 256, h_ref, &o, &i1);
    o = watched(st, &w);
    r2 = pw_inthist(&in, bins, 0, 256, h_got, &o, &i2);
    snprintf(what, sizeof what, "inthist %s %" PRId64 "x%" PRId64, strategy_names[st], rows, cols);
    CHECK(r1 == PW_OK && r2 == PW_OK && !memcmp(h_ref, h_got, cells * 4 * bins), "%s: %s %s or different counts", what,
          pw_status_str(r1), pw_status_str(r2));
    check_watch(what, &w, i2.cells);
    free(px);
    free(s_ref);
    free(s_got);
    free(h_ref);
    free(h_got);
}

static void test_stencil(pw_strategy st, int64_t rows, int64_t cols, int64_t sweeps, int sor)
{
    const size_t cells = (size_t)(rows * cols);
    double *g1 = malloc(cells * 8), *g2 = malloc(cells * 8);
    for (size_t k = 0; k < cells; k++) g1[k] = g2[k] = (double)(test_rand() % 1000) / 10.0;
    pw_image a = {PW_F64, rows, cols, 0, g1}, b = {PW_F64, rows, cols, 0, g2};
    pw_options o = plain(st);
    pw_run_info i1, i2;
    watch w;
    watch_init(&w);
    pw_status r1 = sor ? pw_sor(&a, sweeps, 1.5, &o, NULL, &i1) : pw_heat(&a, sweeps, &o, NULL, &i1);
    o = watched(st, &w);
    pw_status r2 = sor ? pw_sor(&b, sweeps, 1.5, &o, NULL, &i2) : pw_heat(&b, sweeps, &o, NULL, &i2);
    char what[96];
    snprintf(what, sizeof what, "%s %s %" PRId64 "x%" PRId64 " x %" PRId64, sor ? "sor" : "heat", strategy_names[st],
             rows, cols, sweeps);
    CHECK(r1 == PW_OK && r2 == PW_OK && !memcmp(g1, g2, cells * 8), "%s: %s %s or different grids", what,
          pw_status_str(r1), pw_status_str(r2));
    check_watch(what, &w, i2.cells);
    free(g1);
    free(g2);
}

static char *read_cell(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/cells/%s", PW_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    text[n] = 0;
    fclose(f);
    return text;
}

/* An example cell, parsed (NULL, with a failed check, when it is not there or does not parse). */
static pw_cell *load_cell(const char *name)
{
    char *text = read_cell(name);
    pw_cell *cell = NULL;
    CHECK(text && pw_cell_create(text, name, &cell) == PW_OK, "%s: %s", name, pw_error_detail());
    free(text);
    return cell;
}

/* Run the cell unwatched, then watched (into grid2 for the grid forms, else in place of the
 * same args); the outputs compared are `a` and `b` (bytes each): they must be equal, the
 * watched run's reports right.  r2: the watched run's result. */
static void run_cell_twice(pw_cell *cell, pw_cell_args *args, void *grid2, const void *a, const void *b, size_t bytes,
                           pw_strategy st, const char *what, pw_cell_result *r2)
{
    pw_cell_result r1;
    watch w;
    watch_init(&w);
    pw_options o = plain(st);
    pw_status s1 = pw_cell_run(cell, args, &o, &r1);
    if (grid2) args->grid = grid2;
    o = watched(st, &w);
    pw_status s2 = pw_cell_run(cell, args, &o, r2);
    if (!a) a = r1.last, b = r2->last; /* the linear form: its last value */
    CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(a, b, bytes), "%s: %s %s, or different results", what,
          pw_status_str(s1), pw_status_str(s2));
    check_watch(what, &w, r2->info.cells);
}

/* The runtime API: a linear cell, a stencil cell over sweeps, a 3-D cell. */
static void test_cells(pw_strategy st)
{
    char what[96];
    pw_cell_result r;
    pw_cell *cell = load_cell("levenshtein.c");
    if (cell) {
        const int64_t n = on_gpu ? 3000 : 700, m = on_gpu ? 2500 : 600;
        char *a = random_dna(n), *b = random_dna(m);
        const void *inputs[] = {a, b};
        pw_cell_args args = {.rows = n, .cols = m, .inputs = inputs};
        snprintf(what, sizeof what, "cell levenshtein %s", strategy_names[st]);
        run_cell_twice(cell, &args, NULL, NULL, NULL, 4, st, what, &r);
        free(a);
        free(b);
        pw_cell_free(cell);
    }

    if ((cell = load_cell("heat.c"))) {
        const int64_t rows = 123, cols = 97, sweeps = 6;
        const size_t cells = (size_t)((rows + 2) * (cols + 2));
        float *g1 = malloc(cells * 4), *g2 = malloc(cells * 4);
        for (size_t k = 0; k < cells; k++) g1[k] = g2[k] = (float)(test_rand() % 100);
        pw_cell_args args = {.rows = rows, .cols = cols, .grid = g1, .sweeps = sweeps};
        snprintf(what, sizeof what, "cell heat %s x %" PRId64, strategy_names[st], sweeps);
        run_cell_twice(cell, &args, g2, g1, g2, cells * 4, st, what, &r);
        free(g1);
        free(g2);
        pw_cell_free(cell);
    }

    if ((cell = load_cell("demonstrator3d.c"))) {
        const int64_t n = on_gpu ? 96 : 29, cells = (n + 2) * (n + 2) * (n + 2);
        float *g1 = calloc((size_t)cells, 4), *g2 = calloc((size_t)cells, 4);
        for (int64_t k = 0; k < cells; k++) g1[k] = g2[k] = (float)(test_rand() % 7);
        const double params[] = {1000};
        pw_cell_args args = {.rows = n, .cols = n, .planes = n, .grid = g1, .params = params};
        snprintf(what, sizeof what, "cell 3-D %s %" PRId64 "^3", strategy_names[st], n);
        run_cell_twice(cell, &args, g2, g1, g2, (size_t)cells * 4, st, what, &r);
        CHECK(r.info.cells == n * n * n, "%s: %" PRId64 " cells reported", what, r.info.cells);
        free(g1);
        free(g2);
        pw_cell_free(cell);
    }
}

/* A run of many short executions (sweeps one at a time on the sequential engine, and on the GPU's
 * barrier; the CPU's barrier pipelines them into one execution, reported the same) still reports
 * every interval: the clock is the run's, not each execution's. */
static void test_reports_across_executions(void)
{
    for (int k = 0; k < (on_gpu ? 1 : 2); k++) { /* (the sequential reference is the CPU's) */
        const pw_strategy st = k ? PW_STRATEGY_SEQUENTIAL : PW_STRATEGY_GLOBAL_BARRIER;
        const int64_t side = 64, sweeps = 3000;
        double *g = calloc((size_t)(side * side), sizeof *g);
        g[0] = 1;
        pw_image img = {PW_F64, side, side, 0, g};
        watch w;
        watch_init(&w);
        pw_options o = watched(st, &w);
        pw_run_info info;
        pw_status s = pw_heat(&img, sweeps, &o, NULL, &info);
        CHECK(s == PW_OK && w.finals == 1 && w.final_cells == info.cells, "heat %s x %" PRId64 ": %s", strategy_names[st],
              sweeps, pw_status_str(s));
        printf("heat %s x %" PRId64 ": %d reports in %.3f s\n", strategy_names[st], sweeps, w.calls, info.seconds);
        if (info.seconds > 0.02)
            CHECK(w.calls >= 3, "heat %s x %" PRId64 ": %d reports in %.3f s (sweep by sweep)", strategy_names[st], sweeps,
                  w.calls, info.seconds);
        free(g);
    }
}

/* One hook call at a time, however slow the hook and however many threads (CPU). */
static atomic_int inside, most_inside;
static int slow_hook(void *user, const pw_progress *p)
{
    (void)user, (void)p;
    int now = atomic_fetch_add(&inside, 1) + 1;
    int seen = atomic_load(&most_inside);
    while (now > seen && !atomic_compare_exchange_weak(&most_inside, &seen, now)) {}
    struct timespec ts = {0, 3000000};
    nanosleep(&ts, NULL);
    atomic_fetch_sub(&inside, 1);
    return 0;
}

static void test_one_call_at_a_time(void)
{
    char *a = random_dna(3000), *b = random_dna(3000);
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o = plain(PW_STRATEGY_PEER);
    o.threads = 4;
    o.progress = slow_hook;
    o.progress_interval_ms = 1;
    pw_sw_result r;
    atomic_store(&most_inside, 0);
    pw_status s = pw_sw(a, 3000, b, 3000, &p, &o, &r);
    CHECK(s == PW_OK && atomic_load(&most_inside) == 1, "a slow hook ran %d at once (%s)", atomic_load(&most_inside),
          pw_status_str(s));
    free(a);
    free(b);
}

/* Stop a run three ways; it must say PW_ERR_CANCELLED and give no final report. */
static void test_cancel(pw_strategy st)
{
    const int64_t n = on_gpu ? 200000 : 6000, m = on_gpu ? 200000 : 6000;
    char *a = random_dna(n), *b = random_dna(m);
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_result res;
    char what[64];
    snprintf(what, sizeof what, "cancel %s", strategy_names[st]);

    watch w; /* the hook says stop on its first call */
    watch_init(&w);
    w.stop_at = 1;
    pw_options o = watched(st, &w);
    pw_status s = pw_sw(a, n, b, m, &p, &o, &res);
    CHECK(s == PW_ERR_CANCELLED && w.finals == 0 && w.calls >= 1 && w.first_fraction < 1,
          "%s by the hook: %s, %d calls, %d final, first at %.3f", what, pw_status_str(s), w.calls, w.finals,
          w.first_fraction);

    volatile int flag = 1; /* a flag set before the run, no hook */
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.strategy = st;
    o.cancel = &flag;
    s = pw_sw(a, n, b, m, &p, &o, &res);
    CHECK(s == PW_ERR_CANCELLED, "%s by a flag set before: %s", what, pw_status_str(s));

    flag = 0; /* a flag set while it runs (by the hook here: another thread of the caller's) */
    watch_init(&w);
    w.flag_to_set = &flag;
    o = watched(st, &w);
    o.cancel = &flag;
    s = pw_sw(a, n, b, m, &p, &o, &res);
    CHECK(s == PW_ERR_CANCELLED && w.finals == 0, "%s by a flag set during the run: %s, %d final", what,
          pw_status_str(s), w.finals);

    /* and the status has its own words */
    CHECK(strstr(pw_status_str(PW_ERR_CANCELLED), "cancel") != NULL, "status text: %s", pw_status_str(PW_ERR_CANCELLED));
    free(a);
    free(b);
}

/* The batch runs (peerwave_batch.h): one report stream over the whole search, its final cells the
 * run's (pw_batch_info.cells), results equal to the unwatched run's; a flag set before the run and
 * a hook that says stop end it in PW_ERR_CANCELLED without a final report. */
static void test_batches(void)
{
    enum { NQ = 3, NDB = 1500 };
    char *seq[NQ + NDB];
    int64_t len[NQ + NDB];
    double *val[NQ + NDB];
    for (int k = 0; k < NQ + NDB; k++) {
        len[k] = k < NQ ? test_range(150, 400) : test_range(20, 300);
        seq[k] = random_dna(len[k]);
        val[k] = malloc(sizeof(double) * (size_t)len[k]);
        for (int64_t j = 0; j < len[k]; j++) val[k][j] = (double)(test_rand() % 100);
    }
    const pw_seq_set q = {NQ, (const char *const *)seq, len}, db = {NDB, (const char *const *)seq + NQ, len + NQ};
    const pw_seq_set pa = {NQ, (const char *const *)seq, len}, pb = {NQ, (const char *const *)seq + NQ, len + NQ};
    const pw_series_set sq = {NQ, (const double *const *)val, len}, sdb = {NDB, (const double *const *)val + NQ, len + NQ};
    const pw_series_set sa = {NQ, (const double *const *)val, len}, sb = {NQ, (const double *const *)val + NQ, len + NQ};
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = 3;
    enum { TOP = 4 };
    for (int kind = 0; kind < 4; kind++) {
        static const char *const names[] = {"sw search", "sw pairs", "dtw search", "dtw pairs"};
        pw_sw_hit sh[2][NQ * TOP];
        pw_dtw_hit dh[2][NQ * TOP];
        pw_batch_info info[2];
        pw_status st[2];
        watch w;
        watch_init(&w);
        for (int watched_run = 0; watched_run < 2; watched_run++) {
            pw_options o = watched_run ? watched(PW_STRATEGY_PEER, &w) : plain(PW_STRATEGY_PEER);
            o.simd = PW_SIMD_AUTO;
            switch (kind) {
            case 0: st[watched_run] = pw_sw_search(&q, &db, &p, &o, NULL, TOP, sh[watched_run], &info[watched_run]); break;
            case 1: st[watched_run] = pw_sw_pairs(&pa, &pb, &p, &o, sh[watched_run], &info[watched_run]); break;
            case 2: st[watched_run] = pw_dtw_search(&sq, &sdb, PW_DTW_ABSOLUTE, &o, TOP, dh[watched_run], &info[watched_run]); break;
            default: st[watched_run] = pw_dtw_pairs(&sa, &sb, PW_DTW_ABSOLUTE, &o, dh[watched_run], &info[watched_run]); break;
            }
        }
        CHECK(st[0] == PW_OK && st[1] == PW_OK, "%s: %s / %s", names[kind], pw_status_str(st[0]), pw_status_str(st[1]));
        const size_t n = kind == 1 || kind == 3 ? NQ : NQ * TOP;
        int same = 1; /* field by field: the structs have padding */
        for (size_t k = 0; k < n; k++) {
            if (kind < 2)
                same &= sh[0][k].query == sh[1][k].query && sh[0][k].record == sh[1][k].record &&
                        sh[0][k].score == sh[1][k].score && sh[0][k].end_query == sh[1][k].end_query &&
                        sh[0][k].end_record == sh[1][k].end_record;
            else
                same &= dh[0][k].query == dh[1][k].query && dh[0][k].record == dh[1][k].record &&
                        dh[0][k].distance == dh[1][k].distance;
        }
        CHECK(same, "%s: the watched run's hits differ", names[kind]);
        check_watch(names[kind], &w, info[1].cells);
        /* a flag set before the run; a hook that stops at its first report */
        for (int how = 0; how < 2; how++) {
            volatile int flag = 1;
            watch_init(&w);
            w.stop_at = 1;
            pw_options o = watched(PW_STRATEGY_PEER, &w);
            o.simd = PW_SIMD_AUTO;
            if (how == 0) o.cancel = &flag;
            else o.progress_interval_ms = 1;
            pw_status got;
            switch (kind) {
            case 0: got = pw_sw_search(&q, &db, &p, &o, NULL, TOP, sh[0], &info[0]); break;
            case 1: got = pw_sw_pairs(&pa, &pb, &p, &o, sh[0], &info[0]); break;
            case 2: got = pw_dtw_search(&sq, &sdb, PW_DTW_ABSOLUTE, &o, TOP, dh[0], &info[0]); break;
            default: got = pw_dtw_pairs(&sa, &sb, PW_DTW_ABSOLUTE, &o, dh[0], &info[0]); break;
            }
            /* a run that ends before its first report is due finishes normally: then the hook
             * had no chance to stop it (only the final report, whose answer is ignored) */
            if (how == 0 || w.calls > w.finals)
                CHECK(got == PW_ERR_CANCELLED && w.finals == 0, "%s: %s: %s, %d final reports", names[kind],
                      how ? "the hook said stop" : "the flag was set", pw_status_str(got), w.finals);
        }
    }
    for (int k = 0; k < NQ + NDB; k++) free(seq[k]), free(val[k]);
}

/* Many short pairs (on the GPU: many chunks, each staging slot and device lane used several
 * times): the watched run's reports and results, and a hook that says stop at its first report
 * ends the run between chunks in PW_ERR_CANCELLED. */
static void test_many_pairs(void)
{
    enum { N = 24000 };
    char **seq = malloc(sizeof *seq * 2 * N);
    int64_t *len = malloc(sizeof *len * 2 * N);
    for (int k = 0; k < 2 * N; k++) len[k] = test_range(20, 90), seq[k] = random_dna(len[k]);
    const pw_seq_set a = {N, (const char *const *)seq, len}, b = {N, (const char *const *)seq + N, len + N};
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_hit *h0 = malloc(sizeof *h0 * N), *h1 = malloc(sizeof *h1 * N);
    pw_batch_info i0, i1;
    watch w;
    watch_init(&w);
    pw_options o = watched(PW_STRATEGY_PEER, &w), q = plain(PW_STRATEGY_PEER);
    o.simd = q.simd = PW_SIMD_AUTO;
    const pw_status s0 = pw_sw_pairs(&a, &b, &p, &q, h0, &i0), s1 = pw_sw_pairs(&a, &b, &p, &o, h1, &i1);
    CHECK(s0 == PW_OK && s1 == PW_OK, "many pairs: %s / %s", pw_status_str(s0), pw_status_str(s1));
    int same = s0 == PW_OK && s1 == PW_OK;
    for (int k = 0; same && k < N; k++)
        same = h0[k].score == h1[k].score && h0[k].end_query == h1[k].end_query && h0[k].end_record == h1[k].end_record;
    CHECK(same, "many pairs: the watched run's hits differ");
    check_watch("many pairs", &w, i1.cells);
    watch_init(&w);
    w.stop_at = 1;
    o = watched(PW_STRATEGY_PEER, &w);
    o.simd = PW_SIMD_AUTO;
    const pw_status got = pw_sw_pairs(&a, &b, &p, &o, h1, &i1);
    if (w.calls > w.finals) /* (a run over before its first report could not be stopped) */
        CHECK(got == PW_ERR_CANCELLED && w.finals == 0, "many pairs: the hook said stop: %s, %d final reports",
              pw_status_str(got), w.finals);
    for (int k = 0; k < 2 * N; k++) free(seq[k]);
    free(seq), free(len), free(h0), free(h1);
}

int main(int argc, char **argv)
{
    on_gpu = argc > 1 && !strcmp(argv[1], "--gpu");
    test_seed(24);
    if (on_gpu) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        pw_sw_result r;
        pw_sw_params p;
        pw_sw_params_init(&p);
        if (pw_sw("A", 1, "A", 1, &p, &o, &r) != PW_OK) {
            printf("SKIP: no CUDA backend or device (%s)\n", pw_error_detail());
            return 77;
        }
    }
    {
        pw_options o; /* the interval is checked like the other options */
        pw_options_init(&o);
        o.progress_interval_ms = -1;
        pw_sw_result r;
        pw_sw_params p;
        pw_sw_params_init(&p);
        CHECK(pw_sw("A", 1, "A", 1, &p, &o, &r) == PW_ERR_INVALID_ARGUMENT, "a negative interval is refused");
    }
    const pw_strategy *strategies = on_gpu ? strategies_gpu : strategies_cpu;
    const int64_t big = on_gpu ? 20000 : 1500;
    for (int k = 0; k < (on_gpu ? 3 : 4); k++) {
        const pw_strategy st = strategies[k];
        test_sw(st, big + 7, big - 3, 1);
        test_sw(st, 1, 257, 0);
        test_sw(st, 3001, 2, 1);
        test_dtw(st, big - 11, big + 5);
        test_sat_inthist(st, on_gpu ? 1500 : 301, on_gpu ? 1700 : 257);
        test_stencil(st, on_gpu ? 1024 : 131, on_gpu ? 1000 : 97, 5, 0);
        test_stencil(st, 3, 7, 2, 1);
        test_cells(st);
    }
    test_reports_across_executions();
    if (!on_gpu) test_one_call_at_a_time();
    test_cancel(PW_STRATEGY_PEER);
    test_cancel(PW_STRATEGY_GLOBAL_BARRIER);
    if (!on_gpu) test_cancel(PW_STRATEGY_TASKS);
    test_batches();
    test_many_pairs();
    return test_finish();
}
