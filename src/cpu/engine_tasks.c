/*
 * engine_tasks.c - a wavefront as a task graph on CPU threads (PW_STRATEGY_TASKS; issue 31): a
 * tile is a task (core/tile_graph.h: the graph, shared with the GPU engine), and any ready tile
 * runs on any free worker (src/cpu/task_engine.h).  Distributed queues with stealing by default;
 * the plan's task_queues_central (PEERWAVE_TASK_QUEUES=central) runs the centralized queue (the
 * dissertation's CQ, for the comparison).  Several in-place sweeps run pipelined in one graph (tile_graph.h), as on the peer
 * and barrier engines.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_engines.h"
#include "team.h"
#include "tile_run.h"
#include "tile_trace.h"
#include "../core/tile_graph.h"
#include "task_engine.h"

typedef struct tile_tasks {
    const pw_tiling *t;
    const pw_kernel *k;
    pw_tile_graph g;
    pw_cpu_monitor *monitor;
    pw_tile_trace trace;
} tile_tasks;

static int run_tile(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker)
{
    (void)run;
    (void)spawned;
    tile_tasks *tt = ctx;
    int64_t r, c;
    pw_tile_graph_tile(tt->t, &tt->g, task, &r, &c);
    const int64_t start = tt->trace.workers ? pw_now_ns() : 0;
    pw_cpu_run_tile(tt->t, tt->k, r, c, worker);
    if (tt->trace.workers) /* (rows as the peer engine's tickets: sweep-major) */
        pw_tile_trace_add(&tt->trace, worker, task / tt->g.per_sweep * tt->t->n_rows + r, c, start, start, pw_now_ns());
    return pw_cpu_monitor_tiles(tt->monitor, 1);
}

pw_status pw_cpu_tasks(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor)
{
    tile_tasks tt = {&plan->tiling, kernel, {0}, monitor, {0}};
    pw_status st = pw_tile_graph_build_sweeps(&plan->tiling, sweeps, &tt.g);
    if (st == PW_OK) st = pw_tile_trace_open(&tt.trace, plan->workers, plan->trace);
    if (st == PW_OK) {
        pw_task_options o = {plan->workers, plan->task_queues_central ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED,
                             plan->watchdog_ns, 0};
        pw_task_graph tg = {tt.g.count, tt.g.deps, tt.g.succ_at, tt.g.succ, run_tile, &tt};
        st = pw_tasks_run(&tg, &o, NULL);
        pw_status tst = pw_tile_trace_close(&tt.trace, plan->trace, plan->trace_user);
        if (st == PW_OK) st = tst;
    }
    pw_tile_graph_free(&tt.g);
    return st;
}
