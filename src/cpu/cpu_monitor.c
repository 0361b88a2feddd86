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
}

static int64_t cells_done(const void *p)
{
    const pw_cpu_monitor *cm = p;
    return pw_monitor_cells_done(cm->base, cm->cells, cm->tiles, atomic_load_explicit(&cm->tiles_done, memory_order_relaxed));
}

int pw_cpu_monitor_tiles(pw_cpu_monitor *cm, int64_t tiles)
{
    if (!cm->m) return 0;
    atomic_fetch_add_explicit(&cm->tiles_done, tiles, memory_order_relaxed);
    /* whoever finishes a tile once a report is due makes it (one at a time: monitor.c) */
    if (pw_monitor_tick(cm->m, cells_done, cm, NULL)) atomic_store_explicit(&cm->stop, 1, memory_order_relaxed);
    return atomic_load_explicit(&cm->stop, memory_order_relaxed);
}
