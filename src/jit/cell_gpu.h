/*
 * cell_gpu.h - the GPU runner of user cells (src/cuda/user_cells.cu): the cell compiled by NVRTC
 * into the built-in schedules and tile processors for the processor the kernel selector picks,
 * cached on disk, loaded with cudaLibraryLoadData and launched by the engine's one launcher.
 * Built with CUDA and NVRTC (PW_HAVE_CUDA and PW_HAVE_NVRTC).
 */
#ifndef PW_CELL_GPU_H
#define PW_CELL_GPU_H

#include "cell_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the cell on plan's GPU; plan->band: as that band of a distributed run (cell_bands.c). */
pw_status pw_cell_run_gpu(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, pw_cell_result *res);
/* The cell compiled (or found in the cache) and loaded for the processor this plan takes, before a
 * run: *module for job->gpu_module (a band compiles before the ranks start waiting on each other). */
pw_status pw_cell_gpu_prepare(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, void **module,
                              pw_cell_result *res);
void pw_cell_gpu_free(pw_cell *cell);

/* Compile the cell's GPU program for `target` ("sm_90", "compute_80") and a processor
 * (kernel_desc.h's pw_processor and rows a thread; the grid forms take FullProc whatever is
 * asked; wide: 64-bit indices, as a side past 2^31 gets; for a grid3 cell, wide -1: plane by
 * plane, PlaneProc, -2: the 3-D processor, Warp3Proc, and -3: flattened with its sweeps pipelined,
 * FullProc<UserGrid3App<C, true>, true>), without a GPU, a cache or loading:
 * CI's check that a cell compiles. */
pw_status pw_cell_gpu_compile_check(pw_cell *cell, const char *target, int processor, int rows_per_thread, int wide);

#ifdef __cplusplus
}
#endif

#endif
