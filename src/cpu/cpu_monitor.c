/* cpu_monitor.c - progress and cancel on the CPU engines (cpu_monitor.h). */
#include "cpu_monitor.h"

void pw_cpu_monitor_open(pw_cpu_monitor *cm, const pw_monitor *m, const pw_tiling *t, int64_t sweeps, int64_t base)
{
    cm->m = m && pw_monitor_on(m) ? m : NULL;
    cm->base = base;
    cm->cells = t->rows * t->cols * sweeps;
    cm->tiles = cm->m ? pw_tiling_tile_count(t, sweeps) : 0;
    atomic_init(&cm->tiles_done, 0);
    atomic_init(&cm->stop, 0);
    atomic_init(&cm->next_ns, cm->m ? pw_monitor_now_ns() + cm->m->interval_ns : 0);
}

int pw_cpu_monitor_tiles(pw_cpu_monitor *cm, int64_t tiles)
{
    if (!cm->m) return 0;
    const int64_t done = atomic_fetch_add_explicit(&cm->tiles_done, tiles, memory_order_relaxed) + tiles;
    int stop = pw_monitor_cancel_set(cm->m);
    if (!stop && cm->m->fn) {
        /* Whoever passes the time first reports (so reports go on while any worker works), one
         * at a time: the compare-exchange moves the time on before the hook runs. */
        const int64_t now = pw_monitor_now_ns();
        long long next = atomic_load_explicit(&cm->next_ns, memory_order_relaxed);
        if (now >= next && atomic_compare_exchange_strong(&cm->next_ns, &next, now + cm->m->interval_ns))
            stop = pw_monitor_report(cm->m, pw_monitor_cells_done(cm->base, cm->cells, cm->tiles, done), 0, NULL);
    }
    if (stop) atomic_store_explicit(&cm->stop, 1, memory_order_relaxed);
    return stop || atomic_load_explicit(&cm->stop, memory_order_relaxed);
}
