/*
 * band.h - a band of columns of a larger wavefront whose neighbouring bands run elsewhere (other
 * ranks, later other GPUs: issue 29, src/dist/).  The contract between an app, the engine and the
 * link that moves boundary columns; none of the three knows how the others work.
 *
 * Why columns.  An engine runs its tile-rows top to bottom, a few dozen at a time: the last row
 * of a band of rows is only computed at the very end of the band's work, so a rank holding the
 * rows below could not start before the rank above had finished (no pipeline at all).  A band of
 * columns instead finishes its rows top to bottom as it goes: the band's last column for tile-row
 * r is final as soon as tile-row r is, and the next band's tile-row r can start then.  Each rank
 * runs one tile-row behind the rank on its left: the hand-over between tiles, one level up.
 *
 * A band is columns [col0, col0 + cols) of the whole problem, every row.  Its first column reads
 * the column left of the band (the last column of the band before), which arrives in chunks of
 * rows; its last column goes on, in chunks of rows, to the band after.  In-place sweeps (HEAT,
 * SOR) also read the column right of the band as the previous sweep left it, and hand their
 * first column back (halo columns both ways).
 *
 *   app    allocates its storage and says how to put a chunk of the left (right) neighbour's
 *          column into it and take a chunk of its own last (first) column out (pw_band_io); asks
 *          the band for the engine's callbacks (pw_band.attach) and puts them in its plan;
 *   engine (the CPU peer engine) waits before a tile-row reads a neighbour's column, and says
 *          after each tile-row how far down its first and last columns are final;
 *   link   (src/dist/band_link.c) moves the chunks, publishing with release/acquire counters
 *          like the engine's own.
 * Rows are the app's iteration-space rows [0, rows); sweeps count from 0 over the whole run.
 */
#ifndef PW_BAND_H
#define PW_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "peerwave.h"

/* The app's side: rows [i0, i1) of a column as `bytes_per_row` bytes a row.  A NULL function:
 * the band has no such edge (the app's first or last band, or no in-place sweeps). */
typedef struct pw_band_io {
    void *app;
    size_t bytes_per_row;
    /* The left neighbour's last column (sweep `sweep`): store it where the band's first column
     * reads it. */
    void (*put_left)(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src);
    /* The band's last column (final for sweep `sweep`). */
    void (*get_last)(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst);
    /* In-place sweeps: the right neighbour's first column as sweep `sweep` left it, and the
     * band's first column. */
    void (*put_right)(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src);
    void (*get_first)(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst);
    /* Direct hand-over (optional; NULL: none).  An engine that can write its edge columns
     * straight into a neighbour's storage (GPU bands of one process: cuda/gpu_band.cuh) offers
     * `direct`, direct_bytes (<= PW_BAND_DIRECT_MAX) describing where its neighbours may write
     * and which words to bump; the link swaps offers with the neighbours when the ranks share an
     * address space, and a side where direct_ok(app, the neighbour's offer) holds on both ranks
     * (it must be symmetric: the same answer on either side) moves no chunks through the link:
     * the engines push them themselves (edges->peer_direct says which). */
    const void *direct;
    size_t direct_bytes;
    int (*direct_ok)(void *app, const void *peer);
} pw_band_io;

#define PW_BAND_DIRECT_MAX 256

/* The engine's side.  A NULL function: no neighbour there. */
typedef struct pw_band_edges {
    void *ctx;
    /* Block until rows [0, rows) of the left neighbour's column hold sweep `sweep`'s values.  0,
     * or -1: the run is abandoned (a neighbour failed, the link failed, or the watchdog fired). */
    int (*wait_left)(void *ctx, int64_t sweep, int64_t rows);
    /* Block until rows [0, rows) of the right neighbour's column hold what sweep `sweep` reads
     * there (its sweep - 1 values; sweep 0 reads the initial ones, already there). */
    int (*wait_right)(void *ctx, int64_t sweep, int64_t rows);
    /* Rows [0, rows) of the band's last / first column are final for sweep `sweep`. */
    void (*last_done)(void *ctx, int64_t sweep, int64_t rows);
    void (*first_done)(void *ctx, int64_t sweep, int64_t rows);
    /* The engine gives up (cancelled, watchdog): the link tells the other bands. */
    void (*abandon)(void *ctx);
    /* Has the link given up (a neighbour failed, a wait timed out)?  For engines that do not wait
     * through the callbacks above (the GPU's kernel waits on device words: cuda/gpu_band.cuh). */
    int (*broken)(void *ctx);
    /* Block until the offers are swapped (pw_band_io.direct); then 1 and the neighbour's offer
     * in *peer when the edges on `side` (0 left, 1 right) are direct, 0 when they go through the
     * link (or there is no neighbour), -1 when the run is abandoned. */
    int (*peer_direct)(void *ctx, int side, const void **peer);
    /* SMs the engine must leave free on its GPU: the link's data path runs kernels of its own
     * there (NCCL's), which a persistent kernel holding every SM would starve (0: none). */
    int free_sms;
    /* The engine's kernel is loaded (a GPU engine calls it once its occupancy query has loaded
     * the kernel, before it waits for the first row and launches; NULL for links without a data
     * path).  Until then the link posts no receive on its data path: a posted NCCL receive is a
     * kernel that spins until the neighbour sends, and CUDA's lazy loading may make the kernel's
     * first load wait for every kernel of the context to finish -- two bands, each waiting for
     * the other's first chunk, would never launch (docs/DISTRIBUTED.md, "NCCL between
     * processes"). */
    void (*kernel_loaded)(void *ctx);
    /* The engine's work begins (a GPU engine calls it once its first launch's wait for the left
     * column's first row is over, just before launching; an engine that does not call it began
     * at the attach).  A run's span counts from the first band's start (dist_turns.h): a GPU band
     * attaches after uploading its part, which on the largest grids takes seconds, and the span
     * must not count one rank's slower upload as another's wait. */
    void (*engine_started)(void *ctx);
} pw_band_edges;

/* What an app is handed to run one band. */
typedef struct pw_band {
    int64_t col0, cols; /* this band in the whole problem's columns */
    int64_t total_cols;
    /* The app's storage is ready: the link takes io and fills *edges for the plan. */
    pw_status (*attach)(void *ctx, const pw_band_io *io, pw_band_edges *edges);
    /* After the run (status: the app's), before the storage goes: returns once the link will
     * not touch it again (every chunk moved, or the run given up).  Call it after any attach. */
    void (*detach)(void *ctx, pw_status status);
    void *ctx;
} pw_band;

#endif
