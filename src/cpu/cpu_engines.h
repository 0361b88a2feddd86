/*
 * cpu_engines.h - the four CPU engines.  Each runs one sweep of a plan's tiling by calling the
 * kernel's segment function; none knows anything about the recurrence.
 */
#ifndef PW_CPU_ENGINES_H
#define PW_CPU_ENGINES_H

#include "../core/exec.h"
#include "cpu_monitor.h"

/* Every engine counts finished tiles into `monitor` (cpu_monitor.h) and stops early when it says
 * so (the caller turns that into PW_ERR_CANCELLED). */

/* The plain loop nest: rows in order, each whole, on the calling thread.  The reference. */
pw_status pw_cpu_sequential(const pw_plan *plan, const pw_kernel *kernel, pw_cpu_monitor *monitor);

/* Peer engine: threads claim tile-rows in order from an atomic ticket and wait only on the
 * release/acquire progress counters of the tile-row above (and, for sweeps > 1, pipelined
 * in-place sweeps, of the previous sweep's rows that the tile reads: core/work.h,
 * pw_tiling_need_prev). */
pw_status pw_cpu_peer(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor);

/* Global-barrier engine: all threads run the tiles of one tile diagonal, then meet at a barrier
 * (sweeps > 1: pipelined in-place sweeps, sweep s's diagonals pw_tiling_sweep_lag steps after
 * sweep s - 1's). */
pw_status pw_cpu_barrier(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor);

/* Task-graph engine: a tile is a task that waits for its left neighbour and for the tile of the
 * row above that the peer rule names (sweeps > 1: and for the previous sweep's tiles the peer
 * rule names, core/tile_graph.h); ready tiles run on any free worker (engine_tasks.c). */
pw_status pw_cpu_tasks(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_cpu_monitor *monitor);

#endif
