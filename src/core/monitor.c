/* monitor.c - progress reports and the cancel flag (monitor.h). */
#include <time.h>

#include "monitor.h"

int64_t pw_monitor_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t add_saturated(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

void pw_monitor_init(pw_monitor *m, pw_monitor_state *state, const pw_options *o, int64_t cells)
{
    m->fn = o ? o->progress : NULL;
    m->user = o ? o->progress_user : NULL;
    m->cancel = o ? o->cancel : NULL;
    const int64_t ms = o && o->progress_interval_ms ? o->progress_interval_ms : PW_MONITOR_DEFAULT_INTERVAL_MS;
    m->interval_ns = ms * 1000000;
    m->cells = cells;
    m->start_ns = pw_monitor_now_ns();
    m->best = NULL;
    m->best_ctx = NULL;
    m->state = state;
    m->hold_final = 0;
    state->next_ns = add_saturated(m->start_ns, m->interval_ns);
    state->busy = 0;
}

int pw_monitor_due(const pw_monitor *m)
{
    return m->fn && pw_monitor_now_ns() >= __atomic_load_n(&m->state->next_ns, __ATOMIC_RELAXED);
}

int64_t pw_monitor_cells_done(int64_t base, int64_t cells, int64_t tiles, int64_t tiles_done)
{
    if (tiles <= 0 || tiles_done >= tiles) return base + cells;
    if (tiles_done <= 0) return base;
    return base + (int64_t)((double)cells * ((double)tiles_done / (double)tiles)); /* no 64-bit product */
}

static int call_hook(const pw_monitor *m, int64_t done, int final, void *stream)
{
    if (!m->fn) return 0;
    pw_progress p = {0};
    p.cells = m->cells;
    p.cells_done = done < 0 ? 0 : done > m->cells ? m->cells : done;
    p.fraction = m->cells > 0 ? (double)p.cells_done / (double)m->cells : 1.0;
    p.seconds = 1e-9 * (double)(pw_monitor_now_ns() - m->start_ns);
    p.cells_per_second = p.seconds > 0 ? (double)p.cells_done / p.seconds : 0;
    p.eta_seconds = p.cells_done > 0 && p.cells_per_second > 0 ? (double)(p.cells - p.cells_done) / p.cells_per_second : -1;
    p.final = final;
    if (m->best) p.has_best = m->best(m->best_ctx, stream, &p.best);
    return m->fn(m->user, &p);
}

int pw_monitor_tick(const pw_monitor *m, int64_t (*cells_done)(const void *ctx), const void *ctx, void *stream)
{
    if (pw_monitor_cancel_set(m)) return 1;
    if (!pw_monitor_due(m) || __atomic_exchange_n(&m->state->busy, 1, __ATOMIC_ACQUIRE)) return 0;
    const int stop = call_hook(m, cells_done(ctx), 0, stream) != 0;
    /* the next is due an interval after this one ended: a slow hook is not called back to back */
    __atomic_store_n(&m->state->next_ns, add_saturated(pw_monitor_now_ns(), m->interval_ns), __ATOMIC_RELAXED);
    __atomic_store_n(&m->state->busy, 0, __ATOMIC_RELEASE);
    return stop || pw_monitor_cancel_set(m);
}

void pw_monitor_finish(const pw_monitor *m, int64_t cells_done, void *stream)
{
    if (cells_done >= m->cells && !m->hold_final) call_hook(m, m->cells, 1, stream);
}
