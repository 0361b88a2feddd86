/*
 * work.h - the one decomposition of a run into work tickets, shared by the CPU peer engine and
 * the GPU peer schedule (and compiled by NVRTC).
 *
 * A run is `problems` independent problems (a batch; 1 today), each `sweeps` in-place sweeps
 * (HEAT, SOR; 1 for the others), each sweep the `bands` bands of rows that hand their last row on
 * to the next band (1 today: bands of rows on other GPUs or ranks are issue 29's), each band
 * `n_rows` tiles, each walked along the run's pipelined axis by one worker:
 *   2-D: the band's tile-rows, top to bottom (tiles_k = 1);
 *   3-D: the tiles of the (j, k) face, tiles_j x tiles_k of them, each walked down every row i
 *        (the 3-D processor, warp3_proc.cuh): in anti-diagonal order of the face (J + K = d, then
 *        J ascending), so that the tiles a tile waits for, (J - 1, K) and (J, K - 1), come before.
 * Workers claim tickets in increasing order from one atomic counter, and ticket t is also the
 * index of the progress counter its tile publishes.  Every wait of a ticket is on a smaller one
 * (the row above: t - 1, or the face neighbours; the previous sweep's same row and the rows below
 * it that the tile reads: t - s + m, m = 0 .. M, s = bands * n_rows tickets a sweep), so a worker
 * only ever waits on tickets already claimed by running workers: forward progress with any number
 * of workers, in any order of scheduling (DESIGN.md section 3).
 */
#ifndef PW_WORK_H
#define PW_WORK_H

#include "fixed_width.h"
#include "hd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_work {
    int64_t n_rows;   /* tiles of a band: its tile-rows (2-D, the tiling's), its face's tiles (3-D) */
    int64_t bands;    /* >= 1 */
    int64_t sweeps;   /* >= 1 */
    int64_t problems; /* >= 1 */
    int64_t tiles_j;  /* 3-D: the face's tiles along j and along k (n_rows = tiles_j x tiles_k); */
    int64_t tiles_k;  /*      2-D: n_rows and 1 */
} pw_work;

typedef struct pw_ticket {
    int64_t problem, sweep, band, row; /* row: the tile in its band (2-D: the tile-row) */
} pw_ticket;

/* 2-D: n_rows tile-rows a band, one band, one problem. */
PW_HD static inline pw_work pw_work_make(int64_t n_rows, int64_t sweeps)
{
    pw_work w = {n_rows, 1, sweeps, 1, n_rows, 1};
    return w;
}

/* 3-D: a face of tiles_j x tiles_k tiles, one band, one problem. */
PW_HD static inline pw_work pw_work_make_face(int64_t tiles_j, int64_t tiles_k, int64_t sweeps)
{
    pw_work w = {tiles_j * tiles_k, 1, sweeps, 1, tiles_j, tiles_k};
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

/* ---- 3-D: a band's tiles in anti-diagonal order of its tiles_j x tiles_k face ---- */

/* The first J on diagonal d, and the diagonal's length. */
PW_HD static inline int64_t pw_face_diagonal_first_j(int64_t d, int64_t nk) { return d - nk + 1 > 0 ? d - nk + 1 : 0; }
PW_HD static inline int64_t pw_face_diagonal_length(int64_t d, int64_t nj, int64_t nk)
{
    const int64_t last = d < nj - 1 ? d : nj - 1;
    return last - pw_face_diagonal_first_j(d, nk) + 1;
}

/* Tile (tj, tk)'s place in its band (0 <= tj < tiles_j, 0 <= tk < tiles_k).  (A walk
 * over the diagonals before: a tile's ticket is decoded once, and the face has few diagonals.) */
PW_HD static inline int64_t pw_work_face_row(const pw_work *w, int64_t tj, int64_t tk)
{
    const int64_t nj = w->tiles_j, nk = w->tiles_k;
    int64_t row = 0;
    for (int64_t d = 0; d < tj + tk; d++) row += pw_face_diagonal_length(d, nj, nk);
    return row + tj - pw_face_diagonal_first_j(tj + tk, nk);
}

/* The tile (tj, tk) at place `row` of its band: pw_work_face_row's inverse. */
PW_HD static inline void pw_work_face_tile(const pw_work *w, int64_t row, int64_t *tj, int64_t *tk)
{
    const int64_t nj = w->tiles_j, nk = w->tiles_k;
    int64_t d = 0;
    while (row >= pw_face_diagonal_length(d, nj, nk)) row -= pw_face_diagonal_length(d++, nj, nk);
    *tj = pw_face_diagonal_first_j(d, nk) + row;
    *tk = d - *tj;
}

#ifdef __cplusplus
}
#endif

#endif
