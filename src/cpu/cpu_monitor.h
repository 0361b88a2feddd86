/*
 * cpu_monitor.h - one CPU execution's side of the progress hook and cancel flag (core/monitor.h):
 * every worker counts its finished tiles and looks at the cancel flag after each; the first worker
 * to finish a tile once a report is due calls the hook (one at a time, on the run's clock:
 * core/monitor.h).  With nothing watching
 * (pw_monitor_on false) a tile costs one predictable branch.
 */
#ifndef PW_CPU_MONITOR_H
#define PW_CPU_MONITOR_H

#include <stdatomic.h>

#include "../core/monitor.h"
#include "../core/tiling.h"

typedef struct pw_cpu_monitor {
    const pw_monitor *m; /* NULL: nothing watches */
    int64_t base;        /* cells of the run's earlier executions */
    int64_t cells;       /* cells of this execution */
    int64_t tiles;       /* tiles of this execution */
    atomic_llong tiles_done;
    atomic_int stop;     /* the hook or the flag said stop */
} pw_cpu_monitor;

/* An execution of `sweeps` sweeps of the tiling, after `base` cells of the run. */
void pw_cpu_monitor_open(pw_cpu_monitor *cm, const pw_monitor *m, const pw_tiling *t, int64_t sweeps, int64_t base);

/* After `tiles` more tiles finished by the calling worker: 1 when the run must stop. */
int pw_cpu_monitor_tiles(pw_cpu_monitor *cm, int64_t tiles);

/* Has a stop been asked for (by any worker's check)? */
static inline int pw_cpu_monitor_stopped(pw_cpu_monitor *cm)
{
    return cm->m && atomic_load_explicit(&cm->stop, memory_order_relaxed);
}

#endif
