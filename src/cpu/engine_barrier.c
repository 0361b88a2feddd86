/*
 * engine_barrier.c - the global-barrier baseline on CPU threads (GS and GS+HT).
 *
 * Tile (R, c) belongs to tile diagonal c + R*(lag+1) (pw_tiling_diagonal): with square tiles
 * that is the classic anti-diagonal of tiles; with hyper tiles a row must run lag tiles behind
 * the row above, exactly the rule the peer engine enforces with counters.  All threads split one
 * diagonal, then wait at a barrier for the next.
 *
 * Several in-place sweeps (HEAT, SOR) run pipelined, as on the peer engine: sweep s's diagonal d
 * runs at barrier step d + s L (pw_tiling_sweep_lag: every tile of sweep s - 1 it waits for is
 * at an earlier step), so a run of S sweeps takes diagonals + (S - 1) L barriers instead of S
 * times the diagonals, and the sweeps' fill and drain overlap.
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
    int64_t sweeps, sweep_lag; /* sweep s's diagonal d runs at step d + s * sweep_lag */
    int64_t n_steps;
    pthread_barrier_t barrier;
    pthread_mutex_t init_lock;
    int barrier_ready;
    pw_tile_trace trace;
    pw_cpu_monitor *monitor;
    atomic_llong stop_step; /* the first barrier step in which a worker was told to stop */
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
    for (int64_t g = 0; g < s->n_steps; g++) {
        int64_t step_start = tracing ? pw_now_ns() : 0, index = 0;
        int stop = 0;
        /* the sweeps with a diagonal at this step, the latest first (the order does not matter:
         * nothing at one step waits on anything else there) */
        int64_t sweep = g / s->sweep_lag < s->sweeps - 1 ? g / s->sweep_lag : s->sweeps - 1;
        for (; sweep >= 0 && !stop; sweep--) {
            const int64_t d = g - sweep * s->sweep_lag;
            if (d >= s->n_diagonals) break; /* (earlier sweeps are further on: past their end too) */
            /* Rows on diagonal d, from the highest candidate row down (c grows as R falls). */
            int64_t r = d / (t->lag + 1);
            if (r > t->n_rows - 1) r = t->n_rows - 1;
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
                if (tracing) /* (rows as the peer engine's tickets: sweep-major) */
                    pw_tile_trace_add(&s->trace, worker, sweep * t->n_rows + r, c, step_start, start, pw_now_ns());
                if (pw_cpu_monitor_tiles(s->monitor, 1)) {
                    long long first = atomic_load(&s->stop_step);
                    while (g < first && !atomic_compare_exchange_weak(&s->stop_step, &first, g)) {}
                    stop = 1;
                    break;
                }
            }
        }
        pthread_barrier_wait(&s->barrier);
        /* A stop asked for in step g was asked before its barrier, so every worker sees it here
         * and leaves after the same barrier (one asked for in g + 1 by a worker already past this
         * barrier is > g: nobody leaves early). */
        if (atomic_load(&s->stop_step) <= g) return;
    }
}

pw_status pw_cpu_barrier(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor)
{
    if (sweeps < 1) return PW_ERR_UNSUPPORTED;
    barrier_state s;
    s.monitor = monitor;
    atomic_init(&s.stop_step, INT64_MAX);
    s.t = &plan->tiling;
    s.k = kernel;
    s.n_diagonals = pw_tiling_diagonal_count(s.t);
    s.sweeps = sweeps;
    s.sweep_lag = sweeps > 1 ? pw_tiling_sweep_lag(s.t) : 1;
    if (sweeps - 1 > (INT64_MAX - s.n_diagonals) / s.sweep_lag) return PW_ERR_SIZE_OVERFLOW; /* (exec.c batches far below) */
    s.n_steps = s.n_diagonals + (sweeps - 1) * s.sweep_lag;
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
