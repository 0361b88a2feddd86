/*
 * tiling_geometry.h - geometry of the tiled, skewed iteration space (backend independent).
 *
 * Compiled by the C compiler, by nvcc and by NVRTC (run-time compiled kernels): it includes
 * nothing but fixed_width.h and hd.h, and declares no host function (those are in tiling.h).
 *
 * Work in skewed coordinates: x = j + f*i, where f is the skew from pw_deps_skew().  There every
 * dependence (di, dj) becomes (di, dj + f*di) with both parts >= 0, so axis-aligned tiles are
 * legal and every cell only waits on cells up and to the left.
 *
 * Tile-row R holds rows R*h .. R*h + lanes(R) - 1.  Its cells are visited in *steps*:
 *   - hyper tiles: lane k at step s computes skewed column x = s - k (an anti-diagonal), so every
 *     step of a tile of w steps is full;
 *   - square tiles: step s is skewed column x = s for all lanes.
 * Tile c of a tile-row covers steps [c*w, (c+1)*w).  Step numbers are absolute (shared by all
 * tile-rows), which is what makes the cross-row rule a single comparison:
 *
 *   progress(R) = count of steps finished: all steps < progress are done.
 *   tile c of row R may start once progress(R-1) >= min(need(c), end_step(R-1)), where
 *     need(c) = (c+1)*w + h - 1  for hyper tiles: lane 0 of R at skewed column x reads lane h-1
 *               of R-1 at column <= x, which R-1 finishes at step x + h - 1;
 *     need(c) = (c+1)*w          for square tiles.
 *   So a hyper-tile-row runs about h/w tiles behind the row above, not one tile as the paper's
 *   listing suggests (DESIGN.md section 3).  The global-barrier schedule uses the same rule:
 *   tile (R, c) runs in tile diagonal c + R*(lag+1) with lag = ceil((need(c) - (c+1)w) / w).
 *
 * Inside one tile, visiting lanes in order, each over its columns left to right, is legal for
 * both shapes (lane k's columns need lane k-1 only at columns <= x, all inside this tile or an
 * earlier one); the CPU engines use that order, a GPU tile processor walks steps instead.
 */
#ifndef PW_TILING_GEOMETRY_H
#define PW_TILING_GEOMETRY_H

#include "fixed_width.h"
#include "hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tile shapes as the geometry stores them: the values of peerwave.h's pw_tile_shape, which
 * this header cannot include (NVRTC); tiling.c checks that they agree. */
#define PW_TILING_HYPER 0
#define PW_TILING_SQUARE 1

typedef struct pw_tiling {
    int64_t rows, cols;   /* H, W */
    int skew;             /* f */
    int shape;            /* a pw_tile_shape: PW_TILING_HYPER (= PW_TILE_HYPER) or square */
    int64_t h, w;         /* tile height (lanes) and width (steps) */
    int64_t n_rows;       /* number of tile-rows */
    int64_t lag;          /* extra tiles row R-1 must be ahead (global-barrier schedule) */
    /* What a cell of a later in-place sweep reads of the previous sweep's values, in skewed
     * coordinates (see "several in-place sweeps" below; pw_tiling_set_sweep_reads): */
    int64_t sweep_rows;   /* the most rows below its own (di) */
    int64_t sweep_same;   /* hyper: the largest di + dx of a read; square: the largest dx */
    int64_t sweep_below;  /* the same over the reads in rows below (di >= 1) */
} pw_tiling;

/* Lanes (rows) of tile-row R. */
PW_HD static inline int64_t pw_tiling_lanes(const pw_tiling *t, int64_t r)
{
    int64_t left = t->rows - r * t->h;
    return left < t->h ? left : t->h;
}

/* Absolute steps of tile-row R: [first_step, end_step). */
PW_HD static inline int64_t pw_tiling_first_step(const pw_tiling *t, int64_t r)
{
    return (int64_t)t->skew * r * t->h;
}

PW_HD static inline int64_t pw_tiling_end_step(const pw_tiling *t, int64_t r)
{
    int64_t lanes = pw_tiling_lanes(t, r);
    int64_t last_row = r * t->h + lanes - 1;
    int64_t end = (int64_t)t->skew * last_row + t->cols;
    return t->shape == PW_TILING_HYPER ? end + lanes - 1 : end;
}

/* Tiles of tile-row R: indices [first_tile, end_tile). */
PW_HD static inline int64_t pw_tiling_first_tile(const pw_tiling *t, int64_t r)
{
    return pw_tiling_first_step(t, r) / t->w;
}

PW_HD static inline int64_t pw_tiling_end_tile(const pw_tiling *t, int64_t r)
{
    return (pw_tiling_end_step(t, r) + t->w - 1) / t->w;
}

/* Progress value tile-row R publishes once tile c is finished. */
PW_HD static inline int64_t pw_tiling_done(const pw_tiling *t, int64_t r, int64_t c)
{
    int64_t done = (c + 1) * t->w, end = pw_tiling_end_step(t, r);
    return done < end ? done : end;
}

/* Progress tile-row R-1 must have published before tile c of row R (R >= 1) may start. */
PW_HD static inline int64_t pw_tiling_need(const pw_tiling *t, int64_t r, int64_t c)
{
    int64_t need = (c + 1) * t->w + (t->shape == PW_TILING_HYPER ? t->h - 1 : 0);
    int64_t end = pw_tiling_end_step(t, r - 1);
    return need < end ? need : end;
}

/* Several in-place sweeps in one run (HEAT, SOR, grid cells: DESIGN.md section 5, end).  Sweep
 * t's cell (i, j) reads sweep t-1's values of some cells (i + di, j + dj) at or after it (its own
 * old value; Gauss-Seidel's (i + 1, j) and (i, j + 1); a grid cell's declared dependences, read
 * the other way; a 3-D cell's downwind halo), and overwrites a value that sweep t-1's cells
 * (i - di, j - dj) read, which come before those cells in sweep t-1.  So before a tile of
 * tile-row R runs in sweep t, sweep t-1 must have computed, for every cell of the tile, every
 * cell it reads.  In skewed coordinates a read is (di, dx), dx = dj + f di, both >= 0; lane k's
 * cell at skewed column x runs at step x + k (hyper) or x (square).  For a tile whose last step
 * is e (so x + k <= e, hyper, or x <= e, square), the read lands in tile-row R + m,
 * m = (k + di) / h, at lane k + di - m h, and that row reaches it at step
 *   hyper:  x + dx + k + di - m h <= e + (di + dx) - m h,
 *   square: x + dx                <= e + dx,
 * so rows R .. R + M of sweep t-1, M = (h - 1 + max di) / h, must have published
 *   need_prev(m) = e + 1 + S - (hyper ? m h : 0),
 * S the largest di + dx (hyper) or dx (square) over the reads, those with di >= 1 for m >= 1
 * (sweep_same, sweep_below).  For the stencils' reads (0, 0), (1, 0), (0, 1) that is e + 2 in
 * row R and e - h + 2 (hyper) or e + 1 (square) in R + 1, the defaults of pw_tiling_init.
 * Progress of square tiles moves a whole tile at a time, so ">=" waits for the tile holding the
 * step.  Each need is clamped to its row's end, and one <= 0 is no wait. */
PW_HD static inline int64_t pw_tiling_last_step(const pw_tiling *t, int64_t r, int64_t c)
{
    int64_t e = (c + 1) * t->w, end = pw_tiling_end_step(t, r);
    return (e < end ? e : end) - 1;
}

/* M: the tile-rows below its own whose previous sweep a tile-row waits for. */
PW_HD static inline int64_t pw_tiling_sweep_rows_below(const pw_tiling *t)
{
    return (t->h - 1 + t->sweep_rows) / t->h;
}

/* The same rules for the steps of tile-row R up to step e, for a processor that waits and
 * publishes progress inside its tiles (hyper tiles, step by step: all lanes finish step s before
 * step s + 1): before step e may run, tile-row R-1 must have published need_at (hyper tiles: its
 * last lane reaches lane 0's column s at step s + h - 1), and, in a later sweep, rows R + m of
 * the previous sweep need_prev_at (m = 0 .. M; need_prev_same_at and need_prev_below_at are m = 0
 * and 1).  The tile forms are these at the tile's last step (need() too: test_tiling checks it). */
PW_HD static inline int64_t pw_tiling_need_at(const pw_tiling *t, int64_t r, int64_t e)
{
    int64_t need = e + 1 + (t->shape == PW_TILING_HYPER ? t->h - 1 : 0), end = pw_tiling_end_step(t, r - 1);
    return need < end ? need : end;
}

PW_HD static inline int64_t pw_tiling_need_prev_at(const pw_tiling *t, int64_t r, int64_t m, int64_t e)
{
    int64_t need = m == 0 ? e + 1 + t->sweep_same
                          : e + 1 + t->sweep_below - (t->shape == PW_TILING_HYPER ? m * t->h : 0);
    int64_t end = pw_tiling_end_step(t, r + m);
    return need < end ? need : end;
}

PW_HD static inline int64_t pw_tiling_need_prev_same_at(const pw_tiling *t, int64_t r, int64_t e)
{
    return pw_tiling_need_prev_at(t, r, 0, e);
}

PW_HD static inline int64_t pw_tiling_need_prev_below_at(const pw_tiling *t, int64_t r, int64_t e)
{
    return pw_tiling_need_prev_at(t, r, 1, e);
}

PW_HD static inline int64_t pw_tiling_need_prev(const pw_tiling *t, int64_t r, int64_t m, int64_t c)
{
    return pw_tiling_need_prev_at(t, r, m, pw_tiling_last_step(t, r, c));
}

PW_HD static inline int64_t pw_tiling_need_prev_same(const pw_tiling *t, int64_t r, int64_t c)
{
    return pw_tiling_need_prev(t, r, 0, c);
}

PW_HD static inline int64_t pw_tiling_need_prev_below(const pw_tiling *t, int64_t r, int64_t c)
{
    return pw_tiling_need_prev(t, r, 1, c);
}

/* Columns [*j_begin, *j_end) (original coordinates, clipped to [0, W)) that lane k of tile c of
 * tile-row R computes; empty when *j_begin >= *j_end. */
PW_HD static inline void pw_tiling_segment(const pw_tiling *t, int64_t r, int64_t c, int64_t k,
                                     int64_t *j_begin, int64_t *j_end)
{
    int64_t i = r * t->h + k;
    int64_t shift = (int64_t)t->skew * i + (t->shape == PW_TILING_HYPER ? k : 0);
    int64_t b = c * t->w - shift, e = (c + 1) * t->w - shift;
    *j_begin = b < 0 ? 0 : b;
    *j_end = e > t->cols ? t->cols : e;
}

/* The tile of row R whose progress first reaches `need` (the first c with pw_tiling_done(R, c) >=
 * need), clamped to the row's tiles: the tile a wait on that progress waits for. */
PW_HD static inline int64_t pw_tiling_tile_reaching(const pw_tiling *t, int64_t r, int64_t need)
{
    const int64_t first = pw_tiling_first_tile(t, r), end = pw_tiling_end_tile(t, r);
    const int64_t c = (need + t->w - 1) / t->w - 1;
    return c < first ? first : c >= end ? end - 1 : c;
}

/* Global-barrier schedule: the tile diagonal of (R, c), and the number of diagonals. */
PW_HD static inline int64_t pw_tiling_diagonal(const pw_tiling *t, int64_t r, int64_t c)
{
    return c + r * (t->lag + 1);
}

#ifdef __cplusplus
}
#endif

#endif
