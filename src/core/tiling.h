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

/* What a cell of a later in-place sweep reads of the previous sweep: vectors (di, dj) from the
 * cell to the cell it reads, besides its own (tiling_geometry.h, "several in-place sweeps"); after
 * pw_tiling_init, whose default is the stencils' (1, 0), (0, 1).  PW_ERR_ILLEGAL_DEPENDENCE for a
 * read before the cell in the skewed order (di < 0 or dj + skew di < 0): this sweep's value. */
pw_status pw_tiling_set_sweep_reads(pw_tiling *t, const pw_dep *reads, int n);

/* Global-barrier schedule: the number of tile diagonals (pw_tiling_diagonal). */
int64_t pw_tiling_diagonal_count(const pw_tiling *t);

/* Pipelined in-place sweeps on the global-barrier schedule: the least L such that running tile
 * (R, c) of sweep s at barrier step pw_tiling_diagonal(R, c) + s L puts every tile of sweep s - 1
 * that it waits for (pw_tiling_need_prev: the cells it reads of sweep s - 1, whose readers there
 * it overwrites) at an earlier step; the peer engine waits for exactly those.  Found by looking at every tile once. */
int64_t pw_tiling_sweep_lag(const pw_tiling *t);

/* Tiles in `sweeps` sweeps of the tiling (what the progress monitors count: core/monitor.h). */
int64_t pw_tiling_tile_count(const pw_tiling *t, int64_t sweeps);

#ifdef __cplusplus
}
#endif

#endif
