/*
 * work.h - the one decomposition of a run into work tickets, shared by the CPU peer engine and
 * the GPU peer schedule (and compiled by NVRTC).
 *
 * A run is `problems` independent problems (a batch; 1 today), each `sweeps` in-place sweeps
 * (HEAT, SOR; 1 for the others), each sweep the `bands` bands of rows that hand their last row on
 * to the next band (1 today: bands of rows on other GPUs or ranks are issue 29's), each band
 * `n_rows` tile-rows.  Workers claim tickets in increasing order from one atomic counter, and
 * ticket t is also the index of the progress counter its tile-row publishes.  Every wait of a
 * ticket is on a smaller one (the row above: t - 1; the previous sweep's same row and the row
 * below it: t - s and t - s + 1, s = bands * n_rows tickets a sweep), so a worker only ever waits on tickets already
 * claimed by running workers: forward progress with any number of workers, in any order of
 * scheduling (DESIGN.md section 3).
 */
#ifndef PW_WORK_H
#define PW_WORK_H

#include "fixed_width.h"
#include "hd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_work {
    int64_t n_rows;   /* tile-rows of a band (the tiling's) */
    int64_t bands;    /* >= 1 */
    int64_t sweeps;   /* >= 1 */
    int64_t problems; /* >= 1 */
} pw_work;

typedef struct pw_ticket {
    int64_t problem, sweep, band, row; /* row: the tile-row in its band */
} pw_ticket;

PW_HD static inline pw_work pw_work_make(int64_t n_rows, int64_t sweeps)
{
    pw_work w = {n_rows, 1, sweeps, 1};
    return w;
}

/* The number of tickets: one per tile-row of every band, sweep and problem. */
PW_HD static inline int64_t pw_work_tickets(const pw_work *w)
{
    return w->problems * w->sweeps * w->bands * w->n_rows;
}

/* Tickets a sweep: ticket t's tile-row in the previous sweep is t - pw_work_sweep_stride (and the
 * row below it the next ticket). */
PW_HD static inline int64_t pw_work_sweep_stride(const pw_work *w) { return w->bands * w->n_rows; }

/* What ticket t (0 <= t < pw_work_tickets) is: tile-rows fastest, then bands, sweeps, problems. */
PW_HD static inline pw_ticket pw_work_decode(const pw_work *w, int64_t t)
{
    pw_ticket k;
    k.row = t % w->n_rows;
    t /= w->n_rows;
    k.band = t % w->bands;
    t /= w->bands;
    k.sweep = t % w->sweeps;
    k.problem = t / w->sweeps;
    return k;
}

#ifdef __cplusplus
}
#endif

#endif
