/*
 * engine_peer.c - the PeerWave scheme on CPU threads.
 *
 * Tile-rows are claimed in order from an atomic ticket, so a thread only ever waits on a row
 * that a running thread has already claimed: progress is guaranteed for any number of threads
 * and any scheduling by the OS.  After each tile a thread publishes its row's progress (steps
 * finished, monotonic, so nothing is ever reset) with a release store; the thread on the row
 * below reads it with an acquire load, which makes every cell written before the release
 * visible to it.  The cross-row rule (how far ahead the row above must be) is pw_tiling_need().
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "cpu_engines.h"
#include "team.h"
#include "tile_run.h"
#include "tile_trace.h"
#include "../core/alloc.h"

/* A wait that sees no progress of the awaited row for this long is a bug, not slowness. */
#define PW_CPU_WATCHDOG_NS (120LL * 1000000000LL)

typedef struct peer_state {
    const pw_tiling *t;
    const pw_kernel *k;
    atomic_llong next_row;
    atomic_llong *progress; /* per tile-row: steps finished */
    atomic_int failed;      /* a watchdog fired: everyone stops */
    int64_t watchdog_ns;
    int64_t stuck_row;      /* fault injection (plan.h) */
    pw_tile_trace trace;
} peer_state;

/* Wait until progress[r] >= need.  Returns 0 on success, -1 if the run was abandoned. */
static int wait_for_row(peer_state *s, int64_t r, int64_t need)
{
    long long seen = atomic_load_explicit(&s->progress[r], memory_order_acquire);
    if (seen >= need) return 0;
    unsigned round = 0;
    int64_t since = pw_now_ns();
    for (;;) {
        pw_backoff(&round);
        long long now = atomic_load_explicit(&s->progress[r], memory_order_acquire);
        if (now >= need) return 0;
        if (atomic_load_explicit(&s->failed, memory_order_relaxed)) return -1;
        if (now != seen) {
            seen = now;
            since = pw_now_ns();
        } else if ((round & 63) == 0 && pw_now_ns() - since > s->watchdog_ns) {
            atomic_store(&s->failed, 1);
            return -1;
        }
    }
}

static void peer_worker(void *arg, int worker, int team_size)
{
    (void)team_size;
    peer_state *s = arg;
    const pw_tiling *t = s->t;
    int tracing = s->trace.workers != NULL;
    for (;;) {
        int64_t r = atomic_fetch_add_explicit(&s->next_row, 1, memory_order_relaxed);
        if (r >= t->n_rows) return;
        int64_t end = pw_tiling_end_tile(t, r);
        for (int64_t c = pw_tiling_first_tile(t, r); c < end; c++) {
            int64_t wait_start = tracing ? pw_now_ns() : 0;
            if (r > 0 && wait_for_row(s, r - 1, pw_tiling_need(t, r, c)) != 0) return;
            int64_t start = tracing ? pw_now_ns() : 0;
            pw_cpu_run_tile(t, s->k, r, c, worker);
            if (r != s->stuck_row)
                atomic_store_explicit(&s->progress[r], pw_tiling_done(t, r, c), memory_order_release);
            if (tracing) pw_tile_trace_add(&s->trace, worker, r, c, wait_start, start, pw_now_ns());
        }
    }
}

pw_status pw_cpu_peer(const pw_plan *plan, const pw_kernel *kernel)
{
    const pw_tiling *t = &plan->tiling;
    peer_state s;
    s.t = t;
    s.k = kernel;
    s.watchdog_ns = plan->watchdog_ns ? plan->watchdog_ns : PW_CPU_WATCHDOG_NS;
    s.stuck_row = plan->stuck_row;
    atomic_init(&s.next_row, 0);
    atomic_init(&s.failed, 0);
    s.progress = pw_malloc(sizeof *s.progress * (size_t)t->n_rows);
    if (!s.progress) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t r = 0; r < t->n_rows; r++) atomic_init(&s.progress[r], 0);
    pw_status st = pw_tile_trace_open(&s.trace, plan->workers, plan->trace);
    if (st == PW_OK) {
        pw_team_run(plan->workers, peer_worker, &s, NULL);
        st = atomic_load(&s.failed) ? PW_ERR_TIMEOUT : PW_OK;
        pw_status tst = pw_tile_trace_close(&s.trace, plan->trace, plan->trace_user);
        if (st == PW_OK) st = tst;
    }
    free(s.progress);
    return st;
}
