/*
 * test_band_edges.c - the CPU peer engine's side of a band (core/band.h), checked against the
 * cells it runs, without a link: every wait must come before the cells that read what it waits
 * for, and every report after the cells it reports.  A link moves a neighbour's edge whenever it
 * likes, so a report made one tile early, or a wait for too few rows, gives a wrong answer only
 * when the link's thread happens to copy in that window (test_dist, with real links, sees it
 * rarely); here each is seen at once.
 *
 * A band of rows x cols cells whose first and last `edge` columns are its edges, and whose cells
 * read `below` rows under their own in the right neighbour's halo (plan.edge_cols,
 * plan.edge_rows_below):
 *   wait_left(s, n)   before any cell (i, j) of sweep s: n > i;
 *   wait_right(s, n)  before any cell (i, j >= cols - edge) of sweep s: n >= min(i + 1 + below, rows);
 *   first_done(s, n)  every cell (i < n, j < edge) has run sweep s;
 *   last_done(s, n)   every cell (i < n, j >= cols - edge) has run sweep s.
 * The cells count how often they ran (so a cell's sweep is its count), the callbacks record the
 * largest n they were given a sweep; random shapes, tiles, threads, and both ways of running
 * sweeps (pipelined in one run of the engine, one run a sweep).
 */
#include <stdatomic.h>
#include <string.h>

#include "../src/core/band.h"
#include "../src/core/exec.h"
#include "../src/core/plan.h"
#include "test_util.h"

#define MAX_SWEEPS 4

typedef struct band_check {
    int64_t rows, cols, edge, below, sweep0;
    atomic_int *runs;                     /* rows x cols: sweeps each cell has run */
    atomic_llong left[MAX_SWEEPS], right[MAX_SWEEPS]; /* the largest n waited for, a sweep */
    atomic_int bad_wait, bad_report;      /* first offence only counts */
    char what[200];
} band_check;

static void note(band_check *b, atomic_int *flag, const char *fmt, long long x, long long y, long long z)
{
    if (atomic_exchange(flag, 1) == 0) snprintf(b->what, sizeof b->what, fmt, x, y, z);
}

static void atomic_max(atomic_llong *a, int64_t v)
{
    long long seen = atomic_load(a);
    while (seen < v && !atomic_compare_exchange_weak(a, &seen, v)) {}
}

/* The edge as the engine takes it: at most the band. */
static int64_t edge_of(const band_check *b) { return b->edge < b->cols ? b->edge : b->cols; }

static void segment(void *ctx, int64_t i, int64_t j0, int64_t j1, int worker)
{
    (void)worker;
    band_check *b = ctx;
    for (int64_t j = j0; j < j1; j++) {
        const int s = atomic_fetch_add(&b->runs[i * b->cols + j], 1); /* this run's sweep (from sweep0) */
        if (s >= MAX_SWEEPS) continue;
        if (atomic_load(&b->left[s]) <= i)
            note(b, &b->bad_wait, "cell (%lld, %lld) ran before the left edge's rows reached it (sweep %lld)", i, j, s);
        const int64_t need = i + 1 + b->below < b->rows ? i + 1 + b->below : b->rows;
        if (j >= b->cols - edge_of(b) && atomic_load(&b->right[s]) < need)
            note(b, &b->bad_wait, "cell (%lld, %lld) ran before the right edge's rows below it came (sweep %lld)", i, j, s);
    }
}

static int wait_left(void *ctx, int64_t sweep, int64_t rows)
{
    band_check *b = ctx;
    atomic_max(&b->left[sweep - b->sweep0], rows);
    return 0;
}

static int wait_right(void *ctx, int64_t sweep, int64_t rows)
{
    band_check *b = ctx;
    atomic_max(&b->right[sweep - b->sweep0], rows);
    return 0;
}

/* Every cell of rows [0, rows) and columns [j0, j1) has run sweep `sweep`. */
static void check_done(band_check *b, int64_t sweep, int64_t rows, int64_t j0, int64_t j1, const char *which)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = j0; j < j1; j++)
            if (atomic_load(&b->runs[i * b->cols + j]) <= sweep - b->sweep0) {
                note(b, &b->bad_report, which[0] == 'f' ? "first edge reported through row %lld before cell (%lld, %lld) ran"
                                                         : "last edge reported through row %lld before cell (%lld, %lld) ran",
                     rows, i, j);
                return;
            }
}

static void first_done(void *ctx, int64_t sweep, int64_t rows)
{
    band_check *b = ctx;
    check_done(b, sweep, rows, 0, edge_of(b), "first");
}

static void last_done(void *ctx, int64_t sweep, int64_t rows)
{
    band_check *b = ctx;
    check_done(b, sweep, rows, b->cols - edge_of(b), b->cols, "last");
}

static void one_case(int k)
{
    band_check b;
    memset(&b, 0, sizeof b);
    b.rows = test_range(1, 40);
    b.cols = test_range(1, 40);
    b.edge = test_range(1, 6); /* (wider than the band too: the engine takes the band then) */
    b.below = test_range(0, 3);
    const int64_t sweeps = test_range(1, MAX_SWEEPS), pipelined = test_range(0, 1);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.strategy = PW_STRATEGY_PEER;
    o.threads = (int)test_range(1, 4);
    o.tile_h = (int)test_range(1, 8);
    o.tile_w = test_range(1, 9);
    o.shape = test_range(0, 1) ? PW_TILE_HYPER : PW_TILE_SQUARE;
    o.width_model = -1;
    pw_plan plan;
    pw_status st = pw_plan_make(&o, b.rows, b.cols, 0, &plan);
    CHECK(st == PW_OK, "case %d: plan %s", k, pw_status_str(st));
    if (st != PW_OK) return;
    b.runs = calloc((size_t)(b.rows * b.cols), sizeof *b.runs);
    /* a middle band, or the first (no left neighbour) or the last (no right one) */
    const int place = (int)test_range(0, 2);
    pw_band_edges edges = {.ctx = &b, .wait_left = wait_left, .wait_right = wait_right, .first_done = first_done,
                           .last_done = last_done};
    if (place == 1) edges.wait_left = NULL, edges.first_done = NULL;
    if (place == 2) edges.wait_right = NULL, edges.last_done = NULL;
    for (int s = 0; s < MAX_SWEEPS; s++) { /* (a side with no neighbour waits for nothing) */
        if (!edges.wait_left) atomic_store(&b.left[s], b.rows);
        if (!edges.wait_right) atomic_store(&b.right[s], b.rows);
    }
    plan.edges = &edges;
    plan.edge_cols = b.edge;
    plan.edge_rows_below = b.below;
    pw_kernel kernel = {.segment = segment, .ctx = &b};
    pw_run_info info;
    pw_run_info_clear(&info);
    if (pipelined) {
        st = pw_execute_sweeps(&plan, &kernel, sweeps, &info);
    } else {
        for (int64_t s = 0; s < sweeps && st == PW_OK; s++) {
            plan.edge_sweep0 = s; /* (the band counts sweeps over the whole run: b.sweep0 stays 0) */
            st = pw_execute(&plan, &kernel, &info);
        }
    }
    int all_ran = 1;
    for (int64_t q = 0; q < b.rows * b.cols; q++) all_ran &= atomic_load(&b.runs[q]) == sweeps;
    CHECK(st == PW_OK && all_ran && !b.bad_wait && !b.bad_report,
          "case %d: %lldx%lld, edge %lld, below %lld, %lld sweeps %s, tiles %dx%lld %s, %d threads: %s%s%s",
          k, (long long)b.rows, (long long)b.cols, (long long)b.edge, (long long)b.below, (long long)sweeps,
          pipelined ? "pipelined" : "one a run", o.tile_h, (long long)o.tile_w, o.shape == PW_TILE_HYPER ? "hyper" : "square",
          o.threads, pw_status_str(st), all_ran ? "" : ", not every cell ran every sweep", b.what);
    free(b.runs);
}

int main(void)
{
    test_seed(20261130);
    for (int k = 0; k < 3000; k++) one_case(k);
    return test_finish();
}
