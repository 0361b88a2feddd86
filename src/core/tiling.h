/*
 * tiling.h - the host side of the tile geometry: building a pw_tiling from a problem and the
 * tile-diagonal count.  The geometry itself (struct and per-tile queries, shared with the device
 * code and with kernels compiled at run time) is in tiling_geometry.h.
 */
#ifndef PW_TILING_H
#define PW_TILING_H

#include "peerwave.h"
#include "tiling_geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill *t; h and w must be >= 1 (PW_ERR_INVALID_TILE otherwise).  w larger than the steps of a
 * row is allowed (one tile per row). */
pw_status pw_tiling_init(pw_tiling *t, int64_t rows, int64_t cols, int skew, pw_tile_shape shape,
                         int64_t h, int64_t w);

/* Global-barrier schedule: the number of tile diagonals (pw_tiling_diagonal). */
int64_t pw_tiling_diagonal_count(const pw_tiling *t);

/* Pipelined in-place sweeps on the global-barrier schedule (skew 0, the stencils'): the least L
 * such that running tile (R, c) of sweep s at barrier step pw_tiling_diagonal(R, c) + s L puts
 * every tile of sweep s - 1 that it waits for (pw_tiling_need_prev_same / _below: the cells right
 * of and below its own, which it overwrites and sweep s - 1 still reads) at an earlier step; the
 * peer engine waits for exactly those.  Found by looking at every tile once. */
int64_t pw_tiling_sweep_lag(const pw_tiling *t);

/* Tiles in `sweeps` sweeps of the tiling (what the progress monitors count: core/monitor.h). */
int64_t pw_tiling_tile_count(const pw_tiling *t, int64_t sweeps);

#ifdef __cplusplus
}
#endif

#endif
