/* task_engine.c - the task-graph engine on CPU threads (task_engine.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "task_engine.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/team.h"

#define DEFAULT_WATCHDOG_NS (120LL * 1000000000LL)

/* A growable ring of ready tasks behind a lock.  Items: a static task t >= 0, or ~payload (< 0)
 * for a spawned one. */
typedef struct ready_queue {
    pthread_mutex_t lock;
    int64_t *items;
    int64_t head, count, capacity;
} ready_queue;

static int queue_push(ready_queue *q, int64_t item)
{
    pthread_mutex_lock(&q->lock);
    if (q->count == q->capacity) {
        const int64_t cap = q->capacity ? 2 * q->capacity : 256;
        int64_t *p = pw_malloc(sizeof *p * (size_t)cap);
        if (!p) {
            pthread_mutex_unlock(&q->lock);
            return -1;
        }
        for (int64_t k = 0; k < q->count; k++) p[k] = q->items[(q->head + k) % q->capacity];
        free(q->items);
        q->items = p, q->capacity = cap, q->head = 0;
    }
    q->items[(q->head + q->count) % q->capacity] = item;
    __atomic_store_n(&q->count, q->count + 1, __ATOMIC_RELAXED); /* (read unlocked as a hint) */
    pthread_mutex_unlock(&q->lock);
    return 0;
}

/* The oldest item (first in, first out: in a wavefront the tiles that unblock the most come
 * first); 0, or -1 when empty. */
static int queue_pop(ready_queue *q, int64_t *item)
{
    if (__atomic_load_n(&q->count, __ATOMIC_RELAXED) == 0) return -1; /* (a hint; checked below) */
    pthread_mutex_lock(&q->lock);
    int got = -1;
    if (q->count > 0) {
        *item = q->items[q->head];
        q->head = (q->head + 1) % q->capacity;
        __atomic_store_n(&q->count, q->count - 1, __ATOMIC_RELAXED);
        got = 0;
    }
    pthread_mutex_unlock(&q->lock);
    return got;
}

struct pw_task_run {
    const pw_task_graph *g;
    pw_task_options opt;
    ready_queue *queues; /* workers of them (DQ) or one (CQ) */
    int n_queues;
    atomic_int *counters; /* per static task: predecessors not yet finished */
    atomic_llong remaining; /* tasks queued or running or waiting: the run ends at 0 */
    atomic_llong executed, spawned, steals;
    atomic_llong last_finish_ns;
    atomic_int running;   /* tasks being run now: a long task is no hang */
    atomic_int failed;    /* a pw_status: the first failure stops everyone */
};

static ready_queue *home_queue(pw_task_run *r, int worker) { return &r->queues[r->n_queues > 1 ? worker % r->n_queues : 0]; }

static void fail(pw_task_run *r, pw_status st)
{
    int none = 0;
    atomic_compare_exchange_strong(&r->failed, &none, (int)st);
}

static void make_ready(pw_task_run *r, int worker, int64_t item)
{
    if (queue_push(home_queue(r, worker), item)) fail(r, PW_ERR_OUT_OF_MEMORY);
}

pw_status pw_tasks_spawn(pw_task_run *r, int worker, int64_t payload)
{
    if (!r) return PW_ERR_NULL_ARGUMENT;
    if (payload < 0 || worker < 0 || worker >= r->opt.workers) return PW_ERR_INVALID_ARGUMENT;
    atomic_fetch_add(&r->remaining, 1); /* before it can run (and finish) */
    atomic_fetch_add_explicit(&r->spawned, 1, memory_order_relaxed);
    if (queue_push(home_queue(r, worker), ~payload)) {
        atomic_fetch_sub(&r->remaining, 1);
        fail(r, PW_ERR_OUT_OF_MEMORY);
        return PW_ERR_OUT_OF_MEMORY;
    }
    return PW_OK;
}

/* A ready item for this worker: its own queue first, then (DQ) the others' in turn. */
static int next_item(pw_task_run *r, int worker, int64_t *item)
{
    ready_queue *own = home_queue(r, worker);
    if (queue_pop(own, item) == 0) return 0;
    for (int k = 1; k < r->n_queues; k++) {
        if (queue_pop(&r->queues[(worker + k) % r->n_queues], item) == 0) {
            atomic_fetch_add_explicit(&r->steals, 1, memory_order_relaxed);
            return 0;
        }
    }
    return -1;
}

static void finish(pw_task_run *r, int worker, int64_t item)
{
    const pw_task_graph *g = r->g;
    if (item >= 0) {
        for (int64_t e = g->succ_at[item]; e < g->succ_at[item + 1]; e++) {
            const int64_t s = g->succ[e];
            if (atomic_fetch_sub_explicit(&r->counters[s], 1, memory_order_acq_rel) == 1) make_ready(r, worker, s);
        }
    }
    atomic_store_explicit(&r->last_finish_ns, pw_now_ns(), memory_order_relaxed);
    atomic_fetch_add_explicit(&r->executed, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&r->remaining, 1, memory_order_acq_rel); /* after its successors are queued */
}

static void task_worker(void *arg, int worker, int team_size)
{
    (void)team_size;
    pw_task_run *r = arg;
    unsigned round = 0;
    while (!atomic_load_explicit(&r->failed, memory_order_relaxed)) {
        int64_t item;
        if (next_item(r, worker, &item) == 0) {
            atomic_fetch_add_explicit(&r->running, 1, memory_order_relaxed);
            round = 0;
            const int spawned = item < 0;
            const int stop = r->g->run(r->g->ctx, r, spawned ? ~item : item, spawned, worker);
            if (!stop) finish(r, worker, item);
            atomic_fetch_sub_explicit(&r->running, 1, memory_order_relaxed);
            if (stop) {
                fail(r, PW_ERR_CANCELLED);
                return;
            }
            continue;
        }
        if (atomic_load_explicit(&r->remaining, memory_order_acquire) == 0) return;
        /* While a task runs, what it readies or spawns may come any moment (BFS's next level, the
         * tile-row below): stay in the backoff's spinning and yielding phase, never its sleeps of up
         * to 128 us -- they made each of a road grid's thousands of levels wait for a sleeper. */
        if (round >= PW_SPIN_ROUNDS + 64 && atomic_load_explicit(&r->running, memory_order_relaxed) > 0)
            round = PW_SPIN_ROUNDS;
        pw_backoff(&round);
        /* the watchdog: nothing finished for its time, and nothing is running (a task that runs
         * long -- BFS's inline levels -- is progress).  A task popped but not yet counted was
         * readied by a task that just finished (or is its spawner, still running), so the last
         * finish is recent then: no false alarm. */
        if ((round & 63) == 0 && atomic_load_explicit(&r->running, memory_order_relaxed) == 0 &&
            pw_now_ns() - atomic_load_explicit(&r->last_finish_ns, memory_order_relaxed) > r->opt.watchdog_ns) {
            pw_set_error_detail("no task finished for %lld ms while %lld remain (a dependency that is never met)",
                                (long long)(r->opt.watchdog_ns / 1000000), (long long)atomic_load(&r->remaining));
            fail(r, PW_ERR_TIMEOUT);
            return;
        }
    }
}

/* The graph's shape, which every run checks (O(tasks + edges), a run's engine reads past no
 * array because of it): successor lists in order and in range, and each counter the number of
 * tasks that name it as a successor (deps NULL: none does).  in (count entries, zeroed) gets those
 * numbers. */
static pw_status graph_shape(const pw_task_graph *g, int64_t *in)
{
    if (!g || !g->run || (g->count > 0 && !g->succ_at)) return PW_ERR_NULL_ARGUMENT;
    if (g->count < 0) return PW_ERR_INVALID_SIZE;
    if (g->count > 0 && g->succ_at[g->count] > 0 && !g->succ) return PW_ERR_NULL_ARGUMENT;
    for (int64_t t = 0; t < g->count; t++) {
        if (g->succ_at[t] < 0 || g->succ_at[t] > g->succ_at[t + 1]) {
            pw_set_error_detail("succ_at[%lld] = %lld, succ_at[%lld] = %lld: the lists must start at 0 or later and "
                                "not go back", (long long)t, (long long)g->succ_at[t], (long long)t + 1,
                                (long long)g->succ_at[t + 1]);
            return PW_ERR_INVALID_ARGUMENT;
        }
        for (int64_t e = g->succ_at[t]; e < g->succ_at[t + 1]; e++) {
            if (g->succ[e] < 0 || g->succ[e] >= g->count) {
                pw_set_error_detail("task %lld has a successor %lld outside 0..%lld", (long long)t,
                                    (long long)g->succ[e], (long long)g->count - 1);
                return PW_ERR_INVALID_ARGUMENT;
            }
            in[g->succ[e]]++;
        }
    }
    for (int64_t t = 0; t < g->count; t++)
        if (in[t] != (g->deps ? g->deps[t] : 0)) {
            pw_set_error_detail("task %lld waits for %d tasks but %lld name it as a successor", (long long)t,
                                g->deps ? g->deps[t] : 0, (long long)in[t]);
            return PW_ERR_INVALID_ARGUMENT;
        }
    return PW_OK;
}

/* graph_shape with its own counts. */
static pw_status shape_checked(const pw_task_graph *g)
{
    if (!g) return PW_ERR_NULL_ARGUMENT;
    int64_t *in = pw_calloc((size_t)(g->count > 0 ? g->count : 1), sizeof *in);
    if (!in) return PW_ERR_OUT_OF_MEMORY;
    const pw_status st = graph_shape(g, in);
    free(in);
    return st;
}

pw_status pw_tasks_check(const pw_task_graph *g)
{
    if (!g || !g->run || (g->count > 0 && (!g->succ_at || !g->deps))) return PW_ERR_NULL_ARGUMENT;
    if (g->count < 0) return PW_ERR_INVALID_SIZE;
    /* Kahn's order over the counters: every task must be reached, every counter must match */
    int32_t *left = pw_malloc(sizeof *left * (size_t)(g->count ? g->count : 1));
    int64_t *ready = pw_malloc(sizeof *ready * (size_t)(g->count ? g->count : 1));
    if (!left || !ready) {
        free(left), free(ready);
        return PW_ERR_OUT_OF_MEMORY;
    }
    int64_t *in = pw_calloc((size_t)(g->count ? g->count : 1), sizeof *in);
    pw_status st = in ? graph_shape(g, in) : PW_ERR_OUT_OF_MEMORY;
    int64_t n_ready = 0, done = 0;
    for (int64_t t = 0; st == PW_OK && t < g->count; t++)
        if ((left[t] = g->deps[t]) == 0) ready[n_ready++] = t;
    while (st == PW_OK && done < n_ready) {
        const int64_t t = ready[done++];
        for (int64_t e = g->succ_at[t]; e < g->succ_at[t + 1]; e++)
            if (--left[g->succ[e]] == 0) ready[n_ready++] = g->succ[e];
    }
    if (st == PW_OK && done < g->count) {
        int64_t stuck = 0;
        while (stuck < g->count && left[stuck] == 0) stuck++;
        pw_set_error_detail("the task graph has a cycle: %lld of %lld tasks can never run (task %lld among them)",
                            (long long)(g->count - done), (long long)g->count, (long long)stuck);
        st = PW_ERR_INVALID_ARGUMENT;
    }
    free(left), free(ready), free(in);
    return st;
}

pw_status pw_tasks_run(const pw_task_graph *g, const pw_task_options *options, pw_task_stats *stats)
{
    if (!g || !options || !g->run) return PW_ERR_NULL_ARGUMENT;
    if (options->workers < 0 || options->workers > PW_TASKS_MAX_WORKERS || (unsigned)options->queues > PW_TASKS_CENTRAL ||
        options->watchdog_ns < 0)
        return PW_ERR_INVALID_ARGUMENT;
    pw_status st = options->check_acyclic ? pw_tasks_check(g) : shape_checked(g);
    if (st != PW_OK) return st;
    pw_task_run r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.opt = *options;
    if (!r.opt.watchdog_ns) r.opt.watchdog_ns = DEFAULT_WATCHDOG_NS;
    if (!r.opt.workers) r.opt.workers = pw_cpu_count();
    r.n_queues = options->queues == PW_TASKS_CENTRAL ? 1 : r.opt.workers;
    r.queues = pw_calloc((size_t)r.n_queues, sizeof *r.queues);
    r.counters = pw_malloc(sizeof *r.counters * (size_t)(g->count ? g->count : 1));
    if (!r.queues || !r.counters) {
        free(r.queues), free(r.counters);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; k < r.n_queues; k++) pthread_mutex_init(&r.queues[k].lock, NULL);
    atomic_init(&r.remaining, g->count);
    atomic_init(&r.executed, 0), atomic_init(&r.spawned, 0), atomic_init(&r.steals, 0);
    atomic_init(&r.last_finish_ns, pw_now_ns());
    atomic_init(&r.running, 0);
    atomic_init(&r.failed, 0);
    /* the tasks that wait for nothing, dealt out over the queues */
    int64_t dealt = 0;
    for (int64_t t = 0; t < g->count; t++) {
        atomic_init(&r.counters[t], g->deps ? g->deps[t] : 0);
        if (!g->deps || g->deps[t] == 0) make_ready(&r, (int)(dealt++ % r.n_queues), t);
    }
    int team = 0;
    if (g->count > 0 && !atomic_load(&r.failed)) pw_team_run(r.opt.workers, task_worker, &r, &team);
    st = (pw_status)atomic_load(&r.failed);
    if (stats) {
        stats->executed = atomic_load(&r.executed);
        stats->spawned = atomic_load(&r.spawned);
        stats->steals = atomic_load(&r.steals);
        stats->workers = team;
    }
    for (int k = 0; k < r.n_queues; k++) {
        pthread_mutex_destroy(&r.queues[k].lock);
        free(r.queues[k].items);
    }
    free(r.queues), free(r.counters);
    return st;
}
