/*
 * dtw_path.h - the pieces of the warping-path search shared by dtw_path.c (Hirschberg's divide
 * and conquer on one rectangle, and pw_dtw_path_*) and dtw_strips.c (saved rows of a forward
 * pass cut the path into strips, each then solved by Hirschberg).
 */
#ifndef PW_DTW_PATH_H
#define PW_DTW_PATH_H

#include <stdint.h>

#include "peerwave.h"
#include "../../apps/dtw_cell.h"
#include "gpu_passes.h"

typedef struct path_job {
    const double *a, *b, *ra, *rb; /* the series in double, and reversed */
    int64_t n, m;
    int squared, f32;
    int64_t *pi, *pj;             /* output cells; -1 where unused */
    pw_align_gpu *gpu;            /* NULL, or the GPU for passes of at least gpu_cells cells */
    int64_t gpu_cells;
    const volatile int *cancel;   /* pw_options.cancel: looked at before every split */
} path_job;

/* The cost of a cell: f32 series get pw_dtw_f32's (in float), as a double. */
static inline double pw_path_cell_cost(const path_job *job, double x, double y)
{
    if (job->f32) return (double)pw_dtw_cost_f32((float)x, (float)y, job->squared);
    return pw_dtw_cost_f64(x, y, job->squared);
}

/* last[j], j < cols: the least cost from cell (0, 0) to cell (rows - 1, j) of a x b.  free_last:
 * the cells of column cols - 1 cost 0 (dtw_strips.c's bound on the columns left of a window). */
pw_status pw_path_pass(const path_job *job, const double *a, int64_t rows, const double *b, int64_t cols,
                       int free_last, double *last);

/* A rectangle of rows [r0, r1] and columns [c0, c1] whose path runs from (r0, c0) to (r1, c1),
 * written into job->pi / pj from slot out (room for (r1 - r0) + (c1 - c0) + 1 cells). */
typedef struct path_part {
    const path_job *job;
    int64_t r0, r1, c0, c1;
    int64_t out;
    int threads;
    int64_t cells;
    pw_status status;
} path_part;

void pw_path_solve(path_part *part);

/* The whole path from (0, 0) to (n - 1, m - 1) through saved rows (dtw_strips.c), under options
 * (backend, threads); *cells counts the cells computed, *info the GPU's runs. */
pw_status pw_path_by_strips(const path_job *job, const pw_options *options, int threads, int64_t *cells,
                            pw_run_info *info);

#endif
