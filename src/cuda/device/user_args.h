/*
 * user_args.h - what the host passes to a user cell's kernels (plain C, read by the host and by
 * the device code NVRTC compiles: user_cell.cuh).  The host does not know the cell's types, so
 * the kernel builds its processor from these words itself: pointers to the run's arrays and the
 * pw_ctx image laid out by src/jit/cell_decl.c (the generated text asserts that layout).
 */
#ifndef PW_DEVICE_USER_ARGS_H
#define PW_DEVICE_USER_ARGS_H

#include "../../core/fixed_width.h"

/* pw_ctx at most: rows, cols, planes, grid, stride, 32 inputs and 32 parameters of 8 bytes
 * (src/jit/cell_decl.c lays it out; PW_CELL_MAX_ITEMS). */
#define PW_USER_CTX_WORDS 69

typedef struct pw_user_args {
    void *bus, *left, *diag;  /* linear form: row -1 / the bus, column -1, the diagonal carries */
    void *edge;               /* the warp processors' edge words (pw_ll of the value) */
    int64_t edge_rows;        /* the stencil warp processor's rows of them (1, or n_rows: pipelined) */
    void *best_key;           /* PW_REDUCE: per row, the best key and its smallest column */
    int64_t *best_col;
    int64_t col0;             /* linear, grid and grid3 forms: the band's first column in the whole space
                                 (0: no bands; the cell and its inputs see the whole space's j) */
    int64_t band_cols;        /* grid3 on the 3-D processor: the band's columns (0: no bands) */
    unsigned *far_reads;      /* grid3 on the 3-D processor, sweeps pipelined: set when the cell read a
                                 point further downwind than its halo (the host then runs the sweeps
                                 again, one a launch: user_cells.cu, run_grid); NULL otherwise */
    int64_t ctx[PW_USER_CTX_WORDS]; /* the pw_ctx image */
} pw_user_args;

#endif
