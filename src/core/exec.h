/*
 * exec.h - the contract between applications and engines.
 *
 * An application supplies a *segment function*: compute cells (i, j_begin) .. (i, j_end - 1) of
 * row i, left to right.  It is generated from the app's cell definition by the template headers
 * (linear_segment.h, or a short loop for full storage).  The engines decide which segments run
 * where and when: that is scheduling and synchronisation, written once for every app.
 */
#ifndef PW_EXEC_H
#define PW_EXEC_H

#include "peerwave.h"
#include "plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* worker: 0 .. plan->workers - 1, for per-worker reductions without locks. */
typedef void (*pw_segment_fn)(void *ctx, int64_t i, int64_t j_begin, int64_t j_end, int worker);

/* A whole tile (r, c) of the plan's tiling at once, for tile processors that work on several rows
 * together (the CPU's vector processors: src/cpu/simd/).  Optional: engines call it instead of the
 * tile's segments when it is set; the sequential reference always runs segments. */
typedef void (*pw_tile_fn)(void *ctx, int64_t r, int64_t c, int worker);

typedef struct pw_kernel {
    pw_segment_fn segment;
    void *ctx;
    pw_tile_fn tile; /* NULL: the tile's lanes as segments */
    pw_simd simd;    /* the vector set segment or tile use (pw_run_info.simd); 0 (AUTO) = none */
} pw_kernel;

/* Run one sweep of the plan.  Fills info's backend, strategy, tile and worker fields and ADDS the
 * sweep's cells and seconds to info->cells and info->seconds (so several sweeps accumulate). */
pw_status pw_execute(const pw_plan *plan, const pw_kernel *kernel, pw_run_info *info);

/* Run `sweeps` in-place sweeps of the plan (HEAT, SOR, grid cells): the peer, barrier and tasks
 * strategies pipeline them in one team of workers (a sweep's tile starts once the previous sweep
 * has computed what it reads: the tiling's sweep reads, tiling_geometry.h; core/work.h), the
 * sequential one runs them one after another.  Adds like pw_execute. */
pw_status pw_execute_sweeps(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_run_info *info);

/* The sweeps pw_execute_sweeps runs pipelined in one run of the plan's engine (1: one at a time). */
int64_t pw_execute_sweeps_a_run(const pw_plan *plan);

/* A monotonic clock in seconds (timings of host work: runs, training, compiling). */
double pw_seconds_now(void);

/* Zero an info struct before the first pw_execute. */
void pw_run_info_clear(pw_run_info *info);

#ifdef __cplusplus
}
#endif

#endif
