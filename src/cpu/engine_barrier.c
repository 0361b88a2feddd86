/*
 * engine_barrier.c - the global-barrier baseline on CPU threads (GS and GS+HT).
 *
 * Tile (R, c) belongs to tile diagonal c + R*(lag+1) (pw_tiling_diagonal): with square tiles
 * that is the classic anti-diagonal of tiles; with hyper tiles a row must run lag tiles behind
 * the row above, exactly the rule the peer engine enforces with counters.  All threads split one
 * diagonal, then wait at a barrier for the next.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "cpu_engines.h"
#include "team.h"
#include "tile_run.h"
#include "tile_trace.h"

typedef struct barrier_state {
    const pw_tiling *t;
    const pw_kernel *k;
    int64_t n_diagonals;
    pthread_barrier_t barrier;
    pthread_mutex_t init_lock;
    int barrier_ready;
    pw_tile_trace trace;
    pw_cpu_monitor *monitor;
    atomic_llong stop_diagonal; /* the first diagonal in which a worker was told to stop */
} barrier_state;

/* The team size is known only once the team runs; the first member to arrive sizes the barrier. */
static void ensure_barrier(barrier_state *s, int team_size)
{
    pthread_mutex_lock(&s->init_lock);
    if (!s->barrier_ready) {
        pthread_barrier_init(&s->barrier, NULL, (unsigned)team_size);
        s->barrier_ready = 1;
    }
    pthread_mutex_unlock(&s->init_lock);
}

static void barrier_worker(void *arg, int worker, int team_size)
{
    barrier_state *s = arg;
    const pw_tiling *t = s->t;
    int tracing = s->trace.workers != NULL;
    ensure_barrier(s, team_size);
    for (int64_t d = 0; d < s->n_diagonals; d++) {
        int64_t diag_start = tracing ? pw_now_ns() : 0;
        /* Rows on diagonal d, from the highest candidate row down (c grows as R falls). */
        int64_t r = d / (t->lag + 1);
        if (r > t->n_rows - 1) r = t->n_rows - 1;
        int64_t index = 0;
        for (; r >= 0; r--) {
            int64_t c = d - r * (t->lag + 1);
            if (c < pw_tiling_first_tile(t, r)) continue;
            if (c >= pw_tiling_end_tile(t, r)) {
                if (r < t->n_rows - 1) break; /* end_tile only shrinks going up, but for the last row */
                continue;
            }
            if (index++ % team_size != worker) continue;
            int64_t start = tracing ? pw_now_ns() : 0;
            pw_cpu_run_tile(t, s->k, r, c, worker);
            if (tracing) pw_tile_trace_add(&s->trace, worker, r, c, diag_start, start, pw_now_ns());
            if (pw_cpu_monitor_tiles(s->monitor, 1)) {
                long long first = atomic_load(&s->stop_diagonal);
                while (d < first && !atomic_compare_exchange_weak(&s->stop_diagonal, &first, d)) {}
                break;
            }
        }
        pthread_barrier_wait(&s->barrier);
        /* A stop asked for in diagonal d was asked before its barrier, so every worker sees it
         * here and leaves after the same barrier (one asked for in d + 1 by a worker already
         * past this barrier is > d: nobody leaves early). */
        if (atomic_load(&s->stop_diagonal) <= d) return;
    }
}

pw_status pw_cpu_barrier(const pw_plan *plan, const pw_kernel *kernel, pw_cpu_monitor *monitor)
{
    barrier_state s;
    s.monitor = monitor;
    atomic_init(&s.stop_diagonal, INT64_MAX);
    s.t = &plan->tiling;
    s.k = kernel;
    s.n_diagonals = pw_tiling_diagonal_count(s.t);
    s.barrier_ready = 0;
    pthread_mutex_init(&s.init_lock, NULL);
    pw_status st = pw_tile_trace_open(&s.trace, plan->workers, plan->trace);
    if (st == PW_OK) {
        pw_team_run(plan->workers, barrier_worker, &s, NULL);
        st = pw_tile_trace_close(&s.trace, plan->trace, plan->trace_user);
    }
    if (s.barrier_ready) pthread_barrier_destroy(&s.barrier);
    pthread_mutex_destroy(&s.init_lock);
    return st;
}
