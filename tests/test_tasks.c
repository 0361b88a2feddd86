/*
 * test_tasks.c - the task-graph engine on CPU threads (src/cpu/task_engine.h): random DAGs on
 * distributed and central queues and 1..8 workers, each task checking inside itself that every
 * predecessor has finished (and seeing its writes), each run exactly once; tasks that spawn tasks
 * (a tree); cycles and counters that do not match refused before anything runs; a task that says
 * stop; a counter that never reaches zero caught by the watchdog.  The wavefront strategy built on
 * it (PW_STRATEGY_TASKS) is checked bit-exact in test_engines, test_reference and test_cells.
 */
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "peerwave_tasks.h"

typedef struct dag {
    int64_t n;
    int32_t *deps;
    int64_t *succ_at, *succ;
    int64_t *pred_at, *pred; /* the same edges, by successor */
    atomic_int *runs;
    int64_t *value;          /* written by each task, read by its successors */
    atomic_int bad;          /* a task saw a predecessor unfinished or its value missing */
    int stop_at;             /* this task returns 1 (-1: none) */
} dag;

/* A random DAG: edges from a lower to a higher position of a random order. */
static void make_dag(dag *g, int64_t n, int max_edges)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    int64_t *order = malloc(sizeof *order * (size_t)n);
    for (int64_t k = 0; k < n; k++) order[k] = k;
    for (int64_t k = n - 1; k > 0; k--) {
        int64_t r = (int64_t)(test_rand() % (uint64_t)(k + 1)), t = order[k];
        order[k] = order[r], order[r] = t;
    }
    /* edges (order[a], order[b]) with a < b */
    int64_t cap = n * max_edges + 1, m = 0;
    int64_t *from = malloc(sizeof *from * (size_t)cap), *to = malloc(sizeof *to * (size_t)cap);
    for (int64_t b = 1; b < n; b++) {
        int e = (int)(test_rand() % (uint64_t)(max_edges + 1));
        for (int k = 0; k < e; k++) {
            from[m] = order[test_rand() % (uint64_t)b];
            to[m] = order[b];
            m++;
        }
    }
    g->deps = calloc((size_t)n, sizeof *g->deps);
    g->succ_at = calloc((size_t)n + 1, sizeof *g->succ_at);
    g->pred_at = calloc((size_t)n + 1, sizeof *g->pred_at);
    g->succ = malloc(sizeof *g->succ * (size_t)(m + 1));
    g->pred = malloc(sizeof *g->pred * (size_t)(m + 1));
    for (int64_t e = 0; e < m; e++) g->succ_at[from[e] + 1]++, g->pred_at[to[e] + 1]++, g->deps[to[e]]++;
    for (int64_t k = 0; k < n; k++) g->succ_at[k + 1] += g->succ_at[k], g->pred_at[k + 1] += g->pred_at[k];
    int64_t *fs = malloc(sizeof *fs * (size_t)n), *fp = malloc(sizeof *fp * (size_t)n);
    for (int64_t k = 0; k < n; k++) fs[k] = g->succ_at[k], fp[k] = g->pred_at[k];
    for (int64_t e = 0; e < m; e++) g->succ[fs[from[e]]++] = to[e], g->pred[fp[to[e]]++] = from[e];
    g->runs = calloc((size_t)n, sizeof *g->runs);
    g->value = calloc((size_t)n, sizeof *g->value);
    g->stop_at = -1;
    free(order), free(from), free(to), free(fs), free(fp);
}

static void free_dag(dag *g)
{
    free(g->deps), free(g->succ_at), free(g->succ), free(g->pred_at), free(g->pred), free(g->runs), free(g->value);
}

static int dag_task(void *ctx, pw_task_run *run, int64_t t, int spawned, int worker)
{
    (void)run, (void)worker;
    dag *g = ctx;
    if (spawned) atomic_store(&g->bad, 1);
    atomic_fetch_add(&g->runs[t], 1);
    int64_t sum = 1;
    for (int64_t e = g->pred_at[t]; e < g->pred_at[t + 1]; e++) {
        const int64_t p = g->pred[e];
        if (atomic_load(&g->runs[p]) != 1 || g->value[p] == 0) atomic_store(&g->bad, 1);
        sum += g->value[p] % 1000003;
    }
    g->value[t] = sum; /* plain write: the engine's ordering must make it visible to successors */
    return t == g->stop_at;
}

static pw_task_graph graph_of(dag *g)
{
    return (pw_task_graph){g->n, g->deps, g->succ_at, g->succ, dag_task, g};
}

static void random_dags(void)
{
    for (int trial = 0; trial < 60; trial++) {
        dag g;
        const int64_t n = test_range(1, trial < 50 ? 400 : 20000);
        make_dag(&g, n, (int)test_range(0, 4));
        pw_task_options o = {(int)test_range(1, 8), trial % 2 ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED, 0, trial % 3 == 0};
        pw_task_graph tg = graph_of(&g);
        pw_task_stats stats;
        pw_status st = pw_tasks_run(&tg, &o, &stats);
        int once = 1;
        for (int64_t t = 0; t < n; t++) once &= atomic_load(&g.runs[t]) == 1;
        CHECK(st == PW_OK && once && !atomic_load(&g.bad) && stats.executed == n,
              "dag %d: %lld tasks, %d workers, %s: %s, once %d, bad %d, executed %lld", trial, (long long)n, o.workers,
              o.queues ? "central" : "distributed", pw_status_str(st), once, atomic_load(&g.bad), (long long)stats.executed);
        CHECK(pw_tasks_check(&tg) == PW_OK, "dag %d: the check refused an acyclic graph", trial);
        free_dag(&g);
    }
}

/* A cycle, and counters that do not match the edges: refused before any task runs. */
static void bad_graphs(void)
{
    dag g;
    make_dag(&g, 50, 3);
    /* close a cycle: the last task of some chain back to a task that leads to it -- simplest,
     * a two-task cycle on tasks 0 and 1 added by hand */
    int64_t succ_at[4] = {0, 1, 2, 2}, succ[2] = {1, 0};
    int32_t deps[3] = {1, 1, 0};
    pw_task_graph cyc = {3, deps, succ_at, succ, dag_task, &g};
    pw_task_options o = {4, PW_TASKS_DISTRIBUTED, 0, 1};
    CHECK(pw_tasks_run(&cyc, &o, NULL) == PW_ERR_INVALID_ARGUMENT, "a cycle ran");
    CHECK(strstr(pw_error_detail(), "cycle") != NULL, "the cycle's message: %s", pw_error_detail());
    CHECK(atomic_load(&g.runs[2]) == 0, "a task of a refused graph ran");
    int32_t wrong[3] = {1, 2, 0};
    pw_task_graph mis = {3, wrong, succ_at, succ, dag_task, &g};
    CHECK(pw_tasks_check(&mis) == PW_ERR_INVALID_ARGUMENT, "counters that do not match");
    int64_t out_of_range[2] = {1, 7};
    pw_task_graph oor = {3, deps, succ_at, out_of_range, dag_task, &g};
    CHECK(pw_tasks_check(&oor) == PW_ERR_INVALID_ARGUMENT, "a successor outside the graph");
    /* the same counter mismatch without the acyclic check: refused too (every run checks the
     * graph's shape: counters, successors in range, lists in order), none of it runs */
    int64_t s2_at[3] = {0, 0, 0};
    int32_t d2[2] = {0, 1}; /* task 1 waits for a task that never names it */
    pw_task_graph never = {2, d2, s2_at, succ, dag_task, &g};
    pw_task_options quick = {3, PW_TASKS_CENTRAL, 50 * 1000000LL, 0};
    CHECK(pw_tasks_run(&never, &quick, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "waits for"),
          "a counter that never reaches zero: %s", pw_error_detail());
    int32_t d3[3] = {0, 0, 1}; /* a counter too low: task 1 would run before task 0 */
    pw_task_graph early = {3, d3, succ_at, succ, dag_task, &g};
    CHECK(pw_tasks_run(&early, &quick, NULL) == PW_ERR_INVALID_ARGUMENT, "a counter too low ran");
    int64_t back_at[4] = {0, 1, 0, 2}; /* lists going back */
    pw_task_graph back = {3, deps, back_at, succ, dag_task, &g};
    CHECK(pw_tasks_run(&back, &quick, NULL) == PW_ERR_INVALID_ARGUMENT, "succ_at going back ran");
    pw_task_graph no_succ = {3, deps, succ_at, NULL, dag_task, &g};
    CHECK(pw_tasks_check(&no_succ) == PW_ERR_NULL_ARGUMENT && pw_tasks_run(&no_succ, &quick, NULL) == PW_ERR_NULL_ARGUMENT,
          "successors NULL");
    pw_task_options crowd = {PW_TASKS_MAX_WORKERS + 1, PW_TASKS_CENTRAL, 0, 0};
    CHECK(pw_tasks_run(&never, &crowd, NULL) == PW_ERR_INVALID_ARGUMENT, "more workers than allowed");
    o.check_acyclic = 0;
    CHECK(pw_tasks_run(NULL, &o, NULL) == PW_ERR_NULL_ARGUMENT, "no graph");
    o.workers = -1;
    pw_task_graph tg = graph_of(&g);
    CHECK(pw_tasks_run(&tg, &o, NULL) == PW_ERR_INVALID_ARGUMENT, "a negative worker count");
    o.workers = 0; /* every core */
    pw_task_stats stats;
    CHECK(pw_tasks_run(&tg, &o, &stats) == PW_OK && stats.workers >= 1, "workers 0: every core");
    free_dag(&g);
}

/* A task that runs longer than the watchdog is progress, not a hang. */
static int slow_task(void *ctx, pw_task_run *run, int64_t t, int spawned, int worker)
{
    (void)ctx, (void)run, (void)spawned, (void)worker;
    if (t == 1) usleep(150 * 1000);
    return 0;
}

static void long_task(void)
{
    int32_t deps[3] = {0, 0, 1};
    int64_t succ_at[4] = {0, 0, 1, 1}, succ[1] = {2};
    pw_task_graph g = {3, deps, succ_at, succ, slow_task, NULL};
    pw_task_options o = {3, PW_TASKS_DISTRIBUTED, 30 * 1000000LL, 1};
    CHECK(pw_tasks_run(&g, &o, NULL) == PW_OK, "a task longer than the watchdog ended the run: %s", pw_error_detail());
}

/* A task that says stop ends the run (the rest need not run), on both queue kinds. */
static void stopping(void)
{
    for (int q = 0; q < 2; q++) {
        dag g;
        make_dag(&g, 3000, 2);
        g.stop_at = 1234;
        pw_task_options o = {4, (pw_task_queues)q, 0, 0};
        pw_task_graph tg = graph_of(&g);
        CHECK(pw_tasks_run(&tg, &o, NULL) == PW_ERR_CANCELLED, "a task said stop (%s)", q ? "central" : "distributed");
        free_dag(&g);
    }
}

/* Tasks that create tasks: a binary tree of the given depth, each node spawning its children. */
typedef struct tree {
    int depth;
    atomic_int *runs;
} tree;

static int tree_task(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker)
{
    tree *tr = ctx;
    const int64_t node = spawned ? task : 0; /* the one static task is the root */
    atomic_fetch_add(&tr->runs[node], 1);
    if (node < ((int64_t)1 << tr->depth) - 1) { /* not a leaf: children 2n + 1, 2n + 2 */
        if (pw_tasks_spawn(run, worker, 2 * node + 1) != PW_OK || pw_tasks_spawn(run, worker, 2 * node + 2) != PW_OK)
            return 1;
    }
    return 0;
}

static void spawning(void)
{
    for (int trial = 0; trial < 8; trial++) {
        tree tr = {(int)test_range(0, 14), NULL};
        const int64_t nodes = ((int64_t)1 << (tr.depth + 1)) - 1;
        tr.runs = calloc((size_t)nodes, sizeof *tr.runs);
        int32_t deps[1] = {0};
        int64_t succ_at[2] = {0, 0}, succ[1] = {0};
        pw_task_graph g = {1, deps, succ_at, succ, tree_task, &tr};
        pw_task_options o = {(int)test_range(1, 8), trial % 2 ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED, 0, 1};
        pw_task_stats stats;
        pw_status st = pw_tasks_run(&g, &o, &stats);
        int once = 1;
        for (int64_t k = 0; k < nodes; k++) once &= atomic_load(&tr.runs[k]) == 1;
        CHECK(st == PW_OK && once && stats.executed == nodes && stats.spawned == nodes - 1,
              "tree of depth %d: %s, once %d, executed %lld, spawned %lld", tr.depth, pw_status_str(st), once,
              (long long)stats.executed, (long long)stats.spawned);
        pw_task_run *none = NULL;
        CHECK(pw_tasks_spawn(none, 0, 1) == PW_ERR_NULL_ARGUMENT, "spawn without a run");
        free(tr.runs);
    }
}

/* The k-th allocation failing (PEERWAVE_DEBUG_FAIL_ALLOC): PW_ERR_OUT_OF_MEMORY, never a hang or
 * a half-run graph reported as done; nothing leaked (the sanitizer build). */
void pw_debug_alloc_reset(void);
long pw_debug_alloc_count(void);

static void failing_allocations(void)
{
    for (int k = 1; k <= 12; k++) {
        dag g;
        make_dag(&g, 2000, 2);
        char env[8];
        snprintf(env, sizeof env, "%d", k);
        setenv("PEERWAVE_DEBUG_FAIL_ALLOC", env, 1);
        pw_debug_alloc_reset();
        pw_task_options o = {3, k % 2 ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED, 0, k % 3 == 0};
        pw_task_graph tg = graph_of(&g);
        pw_task_stats stats;
        const pw_status st = pw_tasks_run(&tg, &o, &stats);
        const long made = pw_debug_alloc_count();
        unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
        int once = 1;
        for (int64_t t = 0; t < g.n; t++) once &= atomic_load(&g.runs[t]) == 1;
        /* (an allocation the engine can do without -- a thread of the team -- may fail and the run
         * still succeed, on fewer threads) */
        CHECK(k <= made ? st == PW_ERR_OUT_OF_MEMORY || (st == PW_OK && once) : st == PW_OK && once,
              "allocation %d of %ld failing: %s (every task once: %d)", k, made, pw_status_str(st), once);
        free_dag(&g);
    }
}

int main(void)
{
    test_seed(31);
    random_dags();
    bad_graphs();
    stopping();
    long_task();
    spawning();
    failing_allocations();
    return test_finish();
}
