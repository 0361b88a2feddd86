/*
 * monitor.h - the progress hook and cancel flag of a run (pw_options.progress, .cancel), the part
 * every engine shares: what a report says and when the run must stop.
 *
 * A run is one or more executions (sweeps run one at a time, a bin of INTHIST, a GPU launch).
 * Each execution counts its tiles as they finish: the CPU engines in an atomic counter
 * (src/cpu/cpu_monitor.h), the GPU blocks in mapped host memory (src/cuda/gpu_monitor.cuh).  An
 * execution of C cells with T tiles, F of them finished, after B cells of earlier executions
 * reports B + C * F / T cells done; the run's cells are the plan's monitor.cells.  The fraction is
 * exact at the end of the run and within a tile's cells before.
 */
#ifndef PW_MONITOR_H
#define PW_MONITOR_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The best score so far (pw_progress.best) of an app that has one: 1 and *best when known.
 * stream: a CUDA stream of the monitor's (cudaStream_t, not blocking the run's) to copy on; NULL
 * on the CPU.  Called from the thread that reports. */
typedef int (*pw_best_fn)(void *ctx, void *stream, int64_t *best);

/* What the reports of one run share, whatever executions and threads make them: when the next is
 * due, and a flag held while the hook runs (one call at a time).  The plan holds it; the monitor
 * points to it, so copies of a plan share it. */
typedef struct pw_monitor_state {
    int64_t next_ns; /* atomic (GCC builtins: this header is also C++) */
    int busy;        /* atomic */
} pw_monitor_state;

typedef struct pw_monitor {
    pw_progress_fn fn;          /* NULL: no reports */
    void *user;
    const volatile int *cancel; /* NULL: no flag */
    int64_t interval_ns;        /* between reports */
    int64_t cells;              /* cells of the whole run (apps with sweeps or bins set it) */
    int64_t start_ns;           /* when the run began (the plan was made) */
    pw_best_fn best;            /* NULL: none */
    void *best_ctx;
    pw_monitor_state *state;    /* the run's: when the next report is due */
    int hold_final;             /* 1: pw_monitor_finish says nothing.  For an execution whose result
                                   may be thrown away and computed again (a grid3 cell's pipelined
                                   sweeps that read past their halo: jit/cell_cpu.c, cuda/user_cells.cu):
                                   the hook must hear "done" once, from the run that gives the result,
                                   so the caller finishes the monitor itself.  The thrown-away run's
                                   interim reports stand; the run again reports from 0. */
} pw_monitor;

#define PW_MONITOR_DEFAULT_INTERVAL_MS 500

/* From the options (NULL: none) for a run of `cells` cells, sharing `state` (the plan's). */
void pw_monitor_init(pw_monitor *m, pw_monitor_state *state, const pw_options *options, int64_t cells);

/* a * b for counts >= 0, INT64_MAX when it would not fit (a run's cells for the hook). */
static inline int64_t pw_monitor_mul(int64_t a, int64_t b)
{
    return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b;
}

/* Is anything watching: a hook or a cancel flag?  Engines do no monitor work at all otherwise. */
static inline int pw_monitor_on(const pw_monitor *m) { return m->fn != NULL || m->cancel != NULL; }

/* Has the caller's cancel flag been set? */
static inline int pw_monitor_cancel_set(const pw_monitor *m) { return m->cancel != NULL && *m->cancel != 0; }

/* Cells done by an execution of `cells` cells and `tiles` tiles with `tiles_done` finished,
 * after `base` cells of earlier executions. */
int64_t pw_monitor_cells_done(int64_t base, int64_t cells, int64_t tiles, int64_t tiles_done);

/* Is a report due now (the run's interval has passed since the last one ended)? */
int pw_monitor_due(const pw_monitor *m);

/* Call the hook with cells_done (a function: it is only worked out when a report is due) if a
 * report is due and no other thread is in the hook.  stream: for the best function (see
 * pw_best_fn).  1 when the run must stop (the hook asked, or the cancel flag is set). */
int pw_monitor_tick(const pw_monitor *m, int64_t (*cells_done)(const void *ctx), const void *ctx, void *stream);

/* After a successful execution that brought the run to cells_done: the final report when that is
 * the whole run (what the hook returns then is ignored: the work is done). */
void pw_monitor_finish(const pw_monitor *m, int64_t cells_done, void *stream);

/* A monotonic clock in nanoseconds. */
int64_t pw_monitor_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif
