/*
 * engine_tasks.c - a wavefront as a task graph on CPU threads (PW_STRATEGY_TASKS; issue 31): a
 * tile is a task, and any ready tile runs on any free worker (src/cpu/task_engine.h).
 *
 * Tile (R, c) waits for (R, c - 1) -- a row's tiles run left to right, as on every engine -- and
 * for the tile of row R - 1 that brings that row's progress to pw_tiling_need(R, c): the first
 * tile c' with pw_tiling_done(R - 1, c') >= need, the same rule the peer engine waits on with
 * counters (a later tile of row R needs a later c', so one edge a tile is enough).  Distributed
 * queues with stealing by default; PEERWAVE_TASK_QUEUES=central runs the centralized queue (the
 * dissertation's CQ, for the comparison).  One sweep a run (exec.c runs sweeps one after another).
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_engines.h"
#include "team.h"
#include "tile_run.h"
#include "tile_trace.h"
#include "../core/alloc.h"
#include "task_engine.h"

typedef struct tile_graph {
    const pw_tiling *t;
    const pw_kernel *k;
    int64_t *row_at;   /* tiles of rows before R: task index of (R, first_tile(R)) */
    int64_t *tile_row; /* per task */
    pw_cpu_monitor *monitor;
    pw_tile_trace trace;
} tile_graph;

static int run_tile(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker)
{
    (void)run;
    (void)spawned;
    tile_graph *g = ctx;
    const int64_t r = g->tile_row[task], c = pw_tiling_first_tile(g->t, r) + task - g->row_at[r];
    const int64_t start = g->trace.workers ? pw_now_ns() : 0;
    pw_cpu_run_tile(g->t, g->k, r, c, worker);
    if (g->trace.workers) pw_tile_trace_add(&g->trace, worker, r, c, start, start, pw_now_ns());
    return pw_cpu_monitor_tiles(g->monitor, 1);
}

/* The task of row r - 1 that tile (r, c) waits for. */
static int64_t above(const tile_graph *g, int64_t r, int64_t c)
{
    const pw_tiling *t = g->t;
    const int64_t first = pw_tiling_first_tile(t, r - 1), end = pw_tiling_end_tile(t, r - 1);
    int64_t cp = (pw_tiling_need(t, r, c) + t->w - 1) / t->w - 1;
    cp = cp < first ? first : cp >= end ? end - 1 : cp;
    return g->row_at[r - 1] + cp - first;
}

pw_status pw_cpu_tasks(const pw_plan *plan, const pw_kernel *kernel, pw_cpu_monitor *monitor)
{
    const pw_tiling *t = &plan->tiling;
    tile_graph g = {t, kernel, NULL, NULL, monitor, {0}};
    const int64_t rows = t->n_rows;
    g.row_at = pw_malloc(sizeof *g.row_at * (size_t)(rows + 1));
    if (!g.row_at) return PW_ERR_OUT_OF_MEMORY;
    g.row_at[0] = 0;
    for (int64_t r = 0; r < rows; r++) g.row_at[r + 1] = g.row_at[r] + pw_tiling_end_tile(t, r) - pw_tiling_first_tile(t, r);
    const int64_t n = g.row_at[rows];
    int32_t *deps = pw_calloc((size_t)(n ? n : 1), sizeof *deps);
    int64_t *succ_at = pw_calloc((size_t)n + 2, sizeof *succ_at), *succ = pw_malloc(sizeof *succ * (size_t)(2 * n + 1));
    int64_t *up = pw_malloc(sizeof *up * (size_t)(n ? n : 1)); /* (R, c)'s task above, or -1 */
    g.tile_row = pw_malloc(sizeof *g.tile_row * (size_t)(n ? n : 1));
    pw_status st = deps && succ_at && succ && up && g.tile_row ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    /* edges: left to right in a row, and from above; successors counted, then placed (CSR) */
    for (int64_t r = 0; st == PW_OK && r < rows; r++)
        for (int64_t i = g.row_at[r]; i < g.row_at[r + 1]; i++) {
            const int64_t c = pw_tiling_first_tile(t, r) + i - g.row_at[r];
            g.tile_row[i] = r;
            up[i] = r > 0 ? above(&g, r, c) : -1;
            if (i > g.row_at[r]) deps[i]++, succ_at[i - 1 + 1]++;
            if (up[i] >= 0) deps[i]++, succ_at[up[i] + 1]++;
        }
    for (int64_t i = 0; st == PW_OK && i < n; i++) succ_at[i + 1] += succ_at[i];
    if (st == PW_OK) {
        int64_t *fill = pw_malloc(sizeof *fill * (size_t)(n ? n : 1));
        if (!fill) st = PW_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; st == PW_OK && i < n; i++) fill[i] = succ_at[i];
        for (int64_t r = 0; st == PW_OK && r < rows; r++)
            for (int64_t i = g.row_at[r]; i < g.row_at[r + 1]; i++) {
                if (i > g.row_at[r]) succ[fill[i - 1]++] = i;
                if (up[i] >= 0) succ[fill[up[i]]++] = i;
            }
        free(fill);
    }
    if (st == PW_OK) st = pw_tile_trace_open(&g.trace, plan->workers, plan->trace);
    if (st == PW_OK) {
        const char *q = getenv("PEERWAVE_TASK_QUEUES");
        pw_task_options o = {plan->workers, q && !strcmp(q, "central") ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED,
                             plan->watchdog_ns, 0};
        pw_task_graph tg = {n, deps, succ_at, succ, run_tile, &g};
        st = pw_tasks_run(&tg, &o, NULL);
        pw_status tst = pw_tile_trace_close(&g.trace, plan->trace, plan->trace_user);
        if (st == PW_OK) st = tst;
    }
    free(deps), free(succ_at), free(succ), free(up), free(g.tile_row), free(g.row_at);
    return st;
}
