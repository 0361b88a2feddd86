/*
 * bfs.c - breadth-first search (peerwave_tasks.h): the textbook queue, and the task engine's
 * form (seed 001 §5.4: tasks created at run time, irregular).
 *
 * Task form: level L's frontier is an array of vertices, cut into groups; a task takes a group,
 * and for every edge v -> w whose w has no level yet, claims w with a compare-and-swap of its
 * level (-1 -> L + 1) -- exactly one task wins each vertex -- and appends it to the next frontier.
 * The level's tasks count down a counter; the task that brings it to zero (acquire-release: it
 * sees every append of the level) swaps the frontiers and spawns the next level's tasks (a level
 * of fewer than SMALL_FRONTIER vertices it expands itself first).  So the levels are the textbook
 * ones exactly, and no worker ever waits at a barrier.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_tasks.h"
#include "../cpu/task_engine.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

static pw_status check_graph(const pw_graph *g, int64_t source, int32_t *level)
{
    if (!g || !level || !g->offsets || (!g->targets && g->vertices > 0)) return PW_ERR_NULL_ARGUMENT;
    if (g->vertices < 1) return PW_ERR_INVALID_SIZE;
    if (source < 0 || source >= g->vertices) {
        pw_set_error_detail("source %lld outside the vertices 0..%lld", (long long)source, (long long)g->vertices - 1);
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (g->offsets[0] != 0) {
        pw_set_error_detail("offsets[0] is %lld, not 0", (long long)g->offsets[0]);
        return PW_ERR_BAD_INPUT;
    }
    /* every offset before any target: offsets that go down after a larger one would have sent
     * the targets' check past the end of the array (offsets[vertices] is its length) */
    for (int64_t v = 0; v < g->vertices; v++)
        if (g->offsets[v + 1] < g->offsets[v]) {
            pw_set_error_detail("the offsets go down at vertex %lld", (long long)v);
            return PW_ERR_BAD_INPUT;
        }
    for (int64_t v = 0; v < g->vertices; v++) {
        for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
            if (g->targets[e] < 0 || g->targets[e] >= g->vertices) {
                pw_set_error_detail("vertex %lld has an edge to %lld, outside 0..%lld", (long long)v,
                                    (long long)g->targets[e], (long long)g->vertices - 1);
                return PW_ERR_BAD_INPUT;
            }
    }
    return PW_OK;
}

/* The textbook queue. */
static pw_status bfs_sequential(const pw_graph *g, int64_t source, const volatile int *cancel, int32_t *level,
                                pw_bfs_info *info)
{
    int64_t *queue = pw_malloc(sizeof *queue * (size_t)g->vertices);
    if (!queue) return PW_ERR_OUT_OF_MEMORY;
    int64_t head = 0, tail = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        if (cancel && *cancel && (head & 1023) == 0) {
            free(queue);
            return PW_ERR_CANCELLED;
        }
        const int64_t v = queue[head++];
        for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
            const int64_t w = g->targets[e];
            if (level[w] < 0) {
                level[w] = level[v] + 1;
                queue[tail++] = w;
            }
        }
        info->edges += g->offsets[v + 1] - g->offsets[v];
    }
    info->reached = tail;
    info->depth = level[queue[tail - 1]];
    free(queue);
    return PW_OK;
}

typedef struct bfs_tasks {
    const pw_graph *g;
    int32_t *level;
    int64_t *frontier[2];
    int cur;                /* frontier[cur] is the level being expanded */
    int64_t cur_count, group;
    int32_t depth;          /* the level being expanded */
    int workers;
    atomic_llong next_count;
    atomic_llong tasks_left;
    atomic_llong edges, reached;
    const volatile int *cancel;
} bfs_tasks;

static int64_t group_size(int64_t frontier, int workers)
{
    int64_t g = frontier / (4 * (int64_t)workers); /* a few tasks a worker, for balance */
    return g < 64 ? 64 : g > 4096 ? 4096 : g;
}

/* Expand frontier[cur][lo, hi): claim each unlevelled neighbour, append it to the next frontier. */
static void expand(bfs_tasks *b, int64_t lo, int64_t hi)
{
    const pw_graph *g = b->g;
    const int64_t *cur = b->frontier[b->cur];
    int64_t *next = b->frontier[b->cur ^ 1];
    const int32_t next_level = b->depth + 1;
    int64_t edges = 0;
    for (int64_t k = lo; k < hi; k++) {
        const int64_t v = cur[k];
        for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
            const int64_t w = g->targets[e];
            int32_t expected = -1;
            if (__atomic_load_n(&b->level[w], __ATOMIC_RELAXED) == -1 &&
                __atomic_compare_exchange_n(&b->level[w], &expected, next_level, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                next[atomic_fetch_add_explicit(&b->next_count, 1, memory_order_relaxed)] = w;
        }
        edges += g->offsets[v + 1] - g->offsets[v];
    }
    atomic_fetch_add_explicit(&b->edges, edges, memory_order_relaxed);
}

/* A level's last task moves on to the next level: 0, or (the frontier is empty) -1. */
static int next_level(bfs_tasks *b)
{
    const int64_t found = atomic_load_explicit(&b->next_count, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->reached, found, memory_order_relaxed);
    if (found == 0) return -1;
    b->cur ^= 1;
    b->cur_count = found;
    b->depth++;
    atomic_store_explicit(&b->next_count, 0, memory_order_relaxed);
    return 0;
}

/* Below this many vertices a level is expanded by the task that finished the level before,
 * without spawning: a road network's levels are a few thousand vertices for thousands of levels,
 * and a level's tasks would cost more to hand out than to run. */
#define SMALL_FRONTIER 2048

static int bfs_task(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker)
{
    (void)spawned;
    bfs_tasks *b = ctx;
    if (b->cancel && *b->cancel) return 1;
    const int64_t lo = task * b->group;
    expand(b, lo, lo + b->group < b->cur_count ? lo + b->group : b->cur_count);
    if (atomic_fetch_sub_explicit(&b->tasks_left, 1, memory_order_acq_rel) != 1) return 0;
    /* the level's last task: every append of the level is visible here; small levels it expands
     * itself, then it spawns the first large level's tasks */
    if (next_level(b)) return 0;
    while (b->cur_count < SMALL_FRONTIER) {
        if (b->cancel && *b->cancel) return 1;
        expand(b, 0, b->cur_count);
        if (next_level(b)) return 0;
    }
    b->group = group_size(b->cur_count, b->workers);
    const int64_t tasks = (b->cur_count + b->group - 1) / b->group;
    atomic_store_explicit(&b->tasks_left, tasks, memory_order_relaxed);
    for (int64_t t = 0; t < tasks; t++)
        if (pw_tasks_spawn(run, worker, t) != PW_OK) return 1; /* (out of memory: the run fails) */
    return 0;
}

pw_status pw_bfs(const pw_graph *graph, int64_t source, pw_bfs_engine engine, const pw_options *options,
                 int32_t *level, pw_bfs_info *info)
{
    pw_status st = check_graph(graph, source, level);
    if (st != PW_OK) return st;
    if ((unsigned)engine > PW_BFS_LEVELS) return PW_ERR_INVALID_ARGUMENT;
    pw_options o = pw_options_or_defaults(options);
    if ((st = pw_options_check(&o)) != PW_OK) return st;
    pw_bfs_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    /* the textbook queue is the CPU reference; the others run on the GPU where there is one */
    pw_options resolve = o;
    if (engine == PW_BFS_SEQUENTIAL) resolve.strategy = PW_STRATEGY_SEQUENTIAL;
    pw_backend backend;
    if ((st = pw_backend_resolve(&resolve, &backend)) != PW_OK) return st;
    if (backend == PW_BACKEND_CUDA && engine == PW_BFS_SEQUENTIAL) {
        pw_set_error_detail("the sequential search is the CPU reference: use --backend cpu or auto");
        return PW_ERR_UNSUPPORTED;
    }
    if (backend == PW_BACKEND_CPU && engine == PW_BFS_LEVELS) {
        pw_set_error_detail("the levels engine (one kernel launch a level) is the GPU baseline: it needs the CUDA backend");
        return PW_ERR_UNSUPPORTED;
    }
#ifdef PW_HAVE_CUDA
    if (backend == PW_BACKEND_CUDA)
        return pw_cuda_bfs(graph, source, engine, o.device, o.watchdog_ms > 0 ? o.watchdog_ms * 1000000 : 10000000000LL,
                           level, info);
#endif
    for (int64_t v = 0; v < graph->vertices; v++) level[v] = -1;
    const int workers = engine == PW_BFS_SEQUENTIAL ? 1 : o.threads ? o.threads : pw_cpu_count();
    info->threads = workers;
    const int64_t t0 = pw_now_ns();
    if (engine == PW_BFS_SEQUENTIAL) {
        st = bfs_sequential(graph, source, o.cancel, level, info);
    } else {
        bfs_tasks b;
        memset(&b, 0, sizeof b);
        b.g = graph, b.level = level, b.cur_count = 1, b.group = 64, b.workers = workers;
        b.frontier[0] = pw_malloc(sizeof(int64_t) * (size_t)graph->vertices);
        b.frontier[1] = pw_malloc(sizeof(int64_t) * (size_t)graph->vertices);
        if (!b.frontier[0] || !b.frontier[1]) st = PW_ERR_OUT_OF_MEMORY;
        atomic_init(&b.next_count, 0), atomic_init(&b.tasks_left, 1);
        atomic_init(&b.edges, 0), atomic_init(&b.reached, 1);
        b.cancel = o.cancel;
        if (st == PW_OK) {
            level[source] = 0;
            b.frontier[0][0] = source;
            /* one static task (level 0's only group); the rest are spawned level by level */
            int32_t deps[1] = {0};
            int64_t succ_at[2] = {0, 0}, succ[1] = {0};
            pw_task_graph tg = {1, deps, succ_at, succ, bfs_task, &b};
            pw_task_options to = {workers, engine == PW_BFS_TASKS_CENTRAL ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED,
                                  o.watchdog_ms * 1000000, 0};
            pw_task_stats ts = {0};
            st = pw_tasks_run(&tg, &to, &ts);
            info->tasks = ts.executed, info->steals = ts.steals, info->threads = ts.workers;
            info->reached = atomic_load(&b.reached);
            info->edges = atomic_load(&b.edges);
            info->depth = b.depth;
        }
        free(b.frontier[0]), free(b.frontier[1]);
    }
    info->seconds = (double)(pw_now_ns() - t0) * 1e-9;
    return st;
}
