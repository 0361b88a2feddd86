/*
 * tile_graph.h - a wavefront's tiles as a task graph (the tasks strategy, issue 31), one
 * construction for the CPU task engine (src/cpu/engine_tasks.c) and the GPU one (launch.cu).
 *
 * Task k is tile (tile_row[k], pw_tiling_first_tile(tile_row[k]) + k - row_at[tile_row[k]]):
 * tiles numbered row by row.  Tile (R, c) waits for (R, c - 1) -- a row's tiles run left to right,
 * as on every engine -- and for the tile of row R - 1 that brings that row's progress to
 * pw_tiling_need(R, c): the first tile c' with pw_tiling_done(R - 1, c') >= need, the rule the
 * peer engines wait on with counters (a later tile of row R needs a later c', so one edge a tile
 * is enough).  So every order the graph allows, the peer schedule allows too.
 *
 * Several in-place sweeps (skew 0; the CPU engine pipelines them): tasks sweep by sweep, each
 * sweep's tiles as above, and a tile of sweep s > 0 also waits for sweep s - 1's tiles of its own
 * row and of the row below that bring those rows to pw_tiling_need_prev_same / _below (the cells
 * right of and below its own, which it overwrites and sweep s - 1 still reads), again one edge
 * each since a row's later tiles need later ones.
 */
#ifndef PW_TILE_GRAPH_H
#define PW_TILE_GRAPH_H

#include <stdint.h>

#include "peerwave.h"
#include "tiling.h"

typedef struct pw_tile_graph {
    int64_t count;     /* tasks: per_sweep tiles times the sweeps */
    int64_t per_sweep; /* tiles of one sweep */
    int64_t *row_at;   /* n_rows + 1: the task index of row R's first tile (in sweep 0) */
    int64_t *tile_row; /* per_sweep: the tile-row of task k (of sweep 0; k % per_sweep in any) */
    int32_t *deps;     /* count: how many tasks k waits for (0 to 3 + the previous sweep's rows it reads) */
    int64_t *succ_at;  /* count + 1: k's successors are succ[succ_at[k] .. succ_at[k + 1]) */
    int64_t *succ;
} pw_tile_graph;

#ifdef __cplusplus
extern "C" {
#endif

/* One sweep's graph.  PW_OK or PW_ERR_OUT_OF_MEMORY (g then holds nothing to free). */
pw_status pw_tile_graph_build(const pw_tiling *t, pw_tile_graph *g);
/* `sweeps` pipelined in-place sweeps (the tiling's sweep reads: tiling_geometry.h); PW_ERR_SIZE_OVERFLOW
 * or PW_ERR_OUT_OF_MEMORY for graphs too large. */
pw_status pw_tile_graph_build_sweeps(const pw_tiling *t, int64_t sweeps, pw_tile_graph *g);
void pw_tile_graph_free(pw_tile_graph *g);

#ifdef __cplusplus
}
#endif

/* The tile of task k (in its sweep, k / per_sweep). */
static inline void pw_tile_graph_tile(const pw_tiling *t, const pw_tile_graph *g, int64_t k, int64_t *r, int64_t *c)
{
    k %= g->per_sweep;
    *r = g->tile_row[k];
    *c = pw_tiling_first_tile(t, *r) + k - g->row_at[*r];
}

#endif
