/*
 * launch.h - the host side of the CUDA engine, written once for every kernel: allocate the run's
 * shared words (progress counters, ticket, grid barrier, error), size the grid from occupancy and
 * the kernel descriptor's launch needs (kernel_desc.h), launch the peer, barrier, per-diagonal or tasks
 * kernels, time them with CUDA events and turn a watchdog expiry into PW_ERR_TIMEOUT.
 *
 * Kernels are handles the runtime API launches: a __global__ function of the library
 * (device/schedules.cuh, through launch.cuh's template) or a kernel compiled at run time and
 * loaded with cudaLibraryLoadData (cudaKernel_t, user cells: user_cells.cu).  Every kernel takes
 * (X, pw_engine_args[, int64_t]) where X is the processor (or what builds it): first_arg points
 * to it.
 */
#ifndef PW_LAUNCH_H
#define PW_LAUNCH_H

#include "../core/plan.h"
#include "kernel_desc.h"

#define PW_CUDA_WATCHDOG_NS (10LL * 1000000000LL)

struct pw_kernel_set {
    const void *peer;     /* (X, pw_engine_args) */
    const void *band;     /* (X, pw_engine_args): the peer schedule for a band of a larger run */
    const void *barrier;  /* (X, pw_engine_args, int64_t diagonals): a cooperative launch */
    const void *diagonal; /* (X, pw_engine_args, int64_t d) */
    const void *tasks;    /* (X, pw_engine_args, pw_task_state, pw_tile_tasks) */
};

/* Run `sweeps` sweeps of the kernels over the descriptor's tiles under the plan's strategy: in
 * one launch, pipelined, on the peer, barrier and tasks strategies (each tile waiting for what it
 * reads of the sweep before: the tiling's sweep reads, tiling_geometry.h; skewed tilings and reads
 * past the next tile-row on FullProc only); the one-launch-a-diagonal strategy takes sweeps == 1.  sweep_base: the run's sweep this launch starts at (what a
 * per_sweep processor is told, schedules.cuh).  Adds kernel time (CUDA events) to info->seconds and fills
 * the other info fields (the tiles reported are the descriptor's). */
pw_status pw_cuda_launch(const pw_plan *plan, const pw_kernel_desc *desc, const pw_kernel_set *k, void *first_arg,
                         int64_t sweep_base, int64_t sweeps, pw_run_info *info);

/* `sweeps` sweeps in as few launches as the counters allow: pipelined (desc->pipelined_sweeps) in
 * batches that bound the progress counters (one per tile-row and sweep), else one launch a
 * sweep.  before(before_ctx), when given, runs (on the plan's stream) before every launch. */
pw_status pw_cuda_launch_sweeps(const pw_plan *plan, const pw_kernel_desc *desc, const pw_kernel_set *k,
                                void *first_arg, int64_t sweeps, pw_run_info *info, pw_status (*before)(void *),
                                void *before_ctx);

#endif
