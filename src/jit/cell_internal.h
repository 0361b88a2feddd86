/*
 * cell_internal.h - what a pw_cell holds, shared by the API (cell.c) and the two runners: the CPU
 * one (cell_cpu.c) and the GPU one (src/cuda/user_cells.cu, through cell_gpu.h).
 */
#ifndef PW_CELL_INTERNAL_H
#define PW_CELL_INTERNAL_H

#include <pthread.h>
#include "../core/plan.h"
#include "cell_decl.h"
#include "cell_host.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pw_cell {
    pthread_mutex_t lock; /* pw_cell_run: one run of this cell at a time (it compiles, loads and
                             keeps its log lazily, on its first runs) */
    pw_cell_decl decl;
    char *text;        /* the user's text */
    char *name;        /* shown in compiler messages */
    char *types;       /* pw_cell_decl_types(): the generated pw_value, pw_ctx */
    char *log;         /* the last compiler log ("" if none) */
    pw_cell_host host; /* CPU entry points, once built */
    pw_cell_host host_checked; /* the same with every grid read checked: the sequential engine's */
    void *gpu;         /* the GPU runner's loaded kernels (cell_gpu.h) */
};

/* Take a compiler log into cell->log (NULL: empty). */
void pw_cell_keep_log(pw_cell *cell, char *log);

/* Checked arguments, as the runners take them. */
typedef struct pw_cell_job {
    const pw_cell_args *args;
    int64_t sweeps;
    int pipelined; /* grid form: sweeps may overlap on every engine (dependences within {(1,0), (0,1)},
                      halo <= 1: the GPU processors' and the bands' rule) */
    int pipelined_reads; /* grid forms: sweeps overlap where the engine waits for what each reads of the
                            one before (sweep_reads; tiling_geometry.h): one process's CPU engines,
                            and a grid cell on one GPU's FullProc */
    pw_dep sweep_reads[PW_CELL_MAX_DEPS + 1]; /* the 2-D engines' coordinates (grid3: flattened) */
    int n_sweep_reads;
    int skew;
    int64_t planes;    /* 1 for the 2-D forms */
    int64_t flat_cols; /* the 2-D engines' columns: cols, or cols x planes (grid3) */
    int64_t stride;    /* grid forms: elements from one grid row (i) to the next */
    int plane;         /* grid3 on the GPU: plane by plane (the plan is over cols x planes, the
                          run's sweeps are rows x sweeps: PlaneProc) */
    int tiles3;        /* grid3 on the GPU: the 3-D processor (Warp3Proc; sweeps pipelined in one launch
                          but in a band) */
    struct pw_comm *comm; /* linear form on the CPU: NULL, or this rank's band of a distributed
                             run (pw_dist_cell_run) */
    int *joined;          /* (comm) set once this rank has entered the ranks' run */
    int64_t signature;    /* (comm) what every rank must agree on: the cell, its inputs, parameters */
    void *gpu_module;     /* GPU: NULL, or the module pw_cell_gpu_prepare loaded for this run */
    int64_t band_reach;   /* (comm, grid forms) columns (grid3: j slabs) a cell reads across a band's
                             edge: its dependences' largest dj (at least 1) */
    int tiles_asked;      /* the caller's options gave a tile height or width */
    int64_t band_below;   /* (comm, grid forms) rows below its own a cell reads across the right
                             edge: the largest di of a dependence with dj > 0 */
    void *band_out;       /* a stencil cell's GPU band: its interior columns after the run, every
                             grid row (rows + 2 rows of its cols values) */
} pw_cell_job;

/* The columns a stencil or grid cell's band holds each side of its own, on the CPU and the GPU:
 * the neighbours' edges (the cell's reach) or, at the space's ends, the grid's halo, whichever is
 * wider. */
static inline int64_t pw_cell_band_side(const pw_cell_decl *d, const pw_cell_job *job)
{
    return job->band_reach > d->halo ? job->band_reach : d->halo;
}

/* Values a grid column holds in a row: a grid3 cell's planes and their halo, else 1 (a band's
 * element: its storage, link and gather move columns of these). */
static inline int64_t pw_cell_column_values(const pw_cell_decl *d, const pw_cell_job *job)
{
    return d->form == PW_CELL_GRID3 ? job->planes + 2 * d->halo : 1;
}

/* The plan of a run of `cols` columns (the whole space's, or a band's) as cell_run makes it: the
 * built-in apps' tile heights on the GPU, wider tiles for linear cells there. */
pw_status pw_cell_make_plan(const pw_cell_decl *d, const pw_cell_job *job, const pw_options *options, int64_t cols,
                            pw_plan *plan);
/* A user cell over several ranks on GPU bands (cell_bands.c): the linear, stencil and grid forms,
 * and grid3 on the 3-D processor. */
pw_status pw_cell_run_gpu_bands(pw_cell *cell, const pw_options *options, const pw_cell_job *job, pw_cell_result *res);
/* A distributed run's best cell (PW_REDUCE): every rank's best of its band, the best of those by
 * the reduction's rule on every rank (collective). */
pw_status pw_cell_best_of_ranks(pw_cell *cell, struct pw_comm *comm, pw_cell_result *res);

pw_status pw_cell_run_cpu(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, pw_cell_result *res);
/* The cell compiled for the CPU (once; res's compiled, compile_seconds and note say how);
 * checked: the build whose grid reads are checked (cell_host.h). */
pw_status pw_cell_cpu_ready(pw_cell *cell, int checked, pw_cell_result *res);

#ifdef __cplusplus
}
#endif

#endif
