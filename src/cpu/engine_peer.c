/*
 * engine_peer.c - the PeerWave scheme on CPU threads.
 *
 * Tile-rows are claimed in order from an atomic ticket, so a thread only ever waits on a row
 * that a running thread has already claimed: progress is guaranteed for any number of threads
 * and any scheduling by the OS.  After each tile a thread publishes its row's progress (steps
 * finished, monotonic, so nothing is ever reset) with a release store; the thread on the row
 * below reads it with an acquire load, which makes every cell written before the release
 * visible to it.  The cross-row rule (how far ahead the row above must be) is pw_tiling_need().
 *
 * Several in-place sweeps (HEAT, SOR) run pipelined in one team, as on the GPU: tickets and
 * counters follow the one work decomposition (core/work.h), and a tile of a later sweep also
 * waits until the previous sweep has computed the cells it reads there (its own tile-row's and
 * those of the rows below that it reads: pw_tiling_need_prev), the rule the GPU's
 * pw_row_wait_steps applies (there for the stencils' reads, one row below).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "cpu_engines.h"
#include "team.h"
#include "tile_run.h"
#include "tile_trace.h"
#include "../core/alloc.h"
#include "../core/work.h"

/* A wait that sees no progress of the awaited row for this long is a bug, not slowness. */
#define PW_CPU_WATCHDOG_NS (120LL * 1000000000LL)

typedef struct peer_state {
    const pw_tiling *t;
    const pw_kernel *k;
    pw_work work;
    atomic_llong next_ticket;
    atomic_llong *progress; /* per ticket (tile-row and sweep): steps finished */
    atomic_int failed;      /* a watchdog fired or the monitor said stop: everyone stops */
    pw_cpu_monitor *monitor;
    int64_t watchdog_ns;
    int64_t stuck_row;      /* fault injection (plan.h) */
    const pw_band_edges *edges; /* NULL, or the band's neighbours (core/band.h) */
    int64_t edge_sweep0;
    int64_t edge_cols, edge_rows_below; /* plan.h */
    pw_tile_trace trace;
} peer_state;

/* Abandon the run: every wait gives up, and a band's link tells the other bands (its waits too). */
static void peer_fail(peer_state *s)
{
    if (atomic_exchange(&s->failed, 1) == 0 && s->edges && s->edges->abandon) s->edges->abandon(s->edges->ctx);
}

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
            peer_fail(s);
            return -1;
        }
    }
}

/* Wait until tile c of the ticket's tile-row may run: the row above in this sweep, and in a
 * later sweep the previous sweep's same row and the rows below it that the cells read
 * (pw_tiling_need_prev).  0, or -1: abandoned. */
static int wait_for_tile(peer_state *s, int64_t q, const pw_ticket *k, int64_t c)
{
    const pw_tiling *t = s->t;
    const int64_t r = k->row, per_sweep = pw_work_sweep_stride(&s->work);
    if (r > 0 && wait_for_row(s, q - 1, pw_tiling_need(t, r, c)) != 0) return -1;
    if (k->sweep == 0) return 0;
    for (int64_t m = 0; m <= pw_tiling_sweep_rows_below(t) && r + m < t->n_rows; m++) {
        const int64_t need = pw_tiling_need_prev(t, r, m, c);
        if (need > 0 && wait_for_row(s, q - per_sweep + m, need) != 0) return -1;
    }
    return 0;
}

/* A band of a larger run (core/band.h): the neighbours' columns that tile c of the ticket's
 * tile-row reads, and how far down the band's own edge columns are final after it.  Rows of the
 * tile-row: [r*h, r*h + lanes); the step at which lane k reaches column j is j + k for hyper tiles,
 * j for square ones (tiling_geometry.h). */
static int64_t lane_step(const pw_tiling *t, int64_t lane, int64_t j)
{
    return t->shape == PW_TILING_HYPER ? j + lane : j;
}

/* The band's first and last edge columns (plan.edge_cols, at least 1, at most the band). */
static int64_t edge_cols(const peer_state *s)
{
    const int64_t w = s->edge_cols > 0 ? s->edge_cols : 1;
    return w < s->t->cols ? w : s->t->cols;
}

/* Before tile c: the left neighbour's columns (read from column 0 on, by every lane and by the
 * row below the tile-row's last one as its diagonal: the first tile waits for the whole
 * tile-row's rows), and, from the tile where lane 0 reaches the first of the last edge columns,
 * the right neighbour's (down to the rows below the tile-row that its cells read there).
 * 0, or -1: abandoned. */
static int wait_for_edges(peer_state *s, const pw_ticket *k, int64_t c)
{ /* (skew 0: run_engine refuses bands of skewed tilings) */
    const pw_band_edges *e = s->edges;
    const pw_tiling *t = s->t;
    const int64_t r = k->row, sweep = s->edge_sweep0 + k->sweep;
    const int64_t rows_end = r * t->h + pw_tiling_lanes(t, r);
    if (c == pw_tiling_first_tile(t, r) && e->wait_left && e->wait_left(e->ctx, sweep, rows_end) != 0) return -1;
    if (e->wait_right) {
        const int64_t reach = lane_step(t, 0, t->cols - edge_cols(s)); /* lane 0's step at the first of them */
        const int64_t below = rows_end + s->edge_rows_below < t->rows ? rows_end + s->edge_rows_below : t->rows;
        if (c == reach / t->w && e->wait_right(e->ctx, sweep, below) != 0) return -1;
    }
    return 0;
}

/* After tile c: the first edge columns are final once the last lane has passed the last of them,
 * the last ones once the tile-row is done. */
static void report_edges(peer_state *s, const pw_ticket *k, int64_t c)
{
    const pw_band_edges *e = s->edges;
    const pw_tiling *t = s->t;
    const int64_t r = k->row, sweep = s->edge_sweep0 + k->sweep, lanes = pw_tiling_lanes(t, r);
    const int64_t rows_end = r * t->h + lanes;
    if (e->first_done) {
        const int64_t reach = lane_step(t, lanes - 1, edge_cols(s) - 1); /* the last lane's step there */
        if (c == reach / t->w) e->first_done(e->ctx, sweep, rows_end);
    }
    if (e->last_done && c == pw_tiling_end_tile(t, r) - 1) e->last_done(e->ctx, sweep, rows_end);
}

static void peer_worker(void *arg, int worker, int team_size)
{
    (void)team_size;
    peer_state *s = arg;
    const pw_tiling *t = s->t;
    const int64_t tickets = pw_work_tickets(&s->work);
    int tracing = s->trace.workers != NULL;
    for (;;) {
        const int64_t q = atomic_fetch_add_explicit(&s->next_ticket, 1, memory_order_relaxed);
        if (q >= tickets || atomic_load_explicit(&s->failed, memory_order_relaxed)) return;
        const pw_ticket k = pw_work_decode(&s->work, q);
        const int64_t r = k.row, end = pw_tiling_end_tile(t, r);
        for (int64_t c = pw_tiling_first_tile(t, r); c < end; c++) {
            int64_t wait_start = tracing ? pw_now_ns() : 0;
            if (wait_for_tile(s, q, &k, c) != 0 || (s->edges && wait_for_edges(s, &k, c) != 0)) {
                peer_fail(s);
                return;
            }
            int64_t start = tracing ? pw_now_ns() : 0;
            pw_cpu_run_tile(t, s->k, r, c, worker);
            if (q != s->stuck_row) {
                atomic_store_explicit(&s->progress[q], pw_tiling_done(t, r, c), memory_order_release);
                if (s->edges) report_edges(s, &k, c);
            }
            if (tracing) pw_tile_trace_add(&s->trace, worker, q, c, wait_start, start, pw_now_ns());
            if (pw_cpu_monitor_tiles(s->monitor, 1)) { /* cancelled: the waits below give up */
                peer_fail(s);
                return;
            }
        }
    }
}

pw_status pw_cpu_peer(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor)
{
    const pw_tiling *t = &plan->tiling;
    peer_state s;
    if (sweeps < 1) return PW_ERR_UNSUPPORTED;
    s.t = t;
    s.k = kernel;
    s.work = pw_work_make(t->n_rows, sweeps);
    s.watchdog_ns = plan->watchdog_ns ? plan->watchdog_ns : PW_CPU_WATCHDOG_NS;
    s.stuck_row = plan->stuck_row;
    s.edges = plan->edges;
    s.edge_sweep0 = plan->edge_sweep0;
    s.edge_cols = plan->edge_cols;
    s.edge_rows_below = plan->edge_rows_below;
    s.monitor = monitor;
    atomic_init(&s.next_ticket, 0);
    atomic_init(&s.failed, 0);
    const int64_t tickets = pw_work_tickets(&s.work);
    s.progress = pw_malloc(sizeof *s.progress * (size_t)tickets);
    if (!s.progress) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t q = 0; q < tickets; q++) atomic_init(&s.progress[q], 0);
    pw_status st = pw_tile_trace_open(&s.trace, plan->workers, plan->trace);
    if (st == PW_OK) {
        pw_team_run(plan->workers, peer_worker, &s, NULL);
        st = pw_cpu_monitor_stopped(monitor) ? PW_ERR_CANCELLED : atomic_load(&s.failed) ? PW_ERR_TIMEOUT : PW_OK;
        pw_status tst = pw_tile_trace_close(&s.trace, plan->trace, plan->trace_user);
        if (st == PW_OK) st = tst;
    }
    free(s.progress);
    return st;
}
