/*
 * stencil_apps.cu - HEAT and SOR on the CUDA engine: in-place Gauss-Seidel sweeps over a grid
 * with a fixed border, on the register/shuffle warp processor (row-major hyper tiles, h <= 128),
 * the shared-memory window processor, or FullProc, as the kernel selector picks.  Their device
 * forms are device/app_stencil.cuh.
 */
#include <stdlib.h>
#include <math.h>
#include <stdint.h>

#include "../core/image.h"
#include "device/app_stencil.cuh"
#include "device/full_proc.cuh"
#include "device/layouts.cuh"
#include "device/stencil_warp_proc.cuh"
#include "device/stencil_window_proc.cuh"
#include "device_buffer.cuh"
#include "device_prep.cuh"
#include "edge_words.cuh"
#include "gpu_band_storage.cuh"
#include "kernel_desc.h"
#include "launch.cuh"
#include "pw_cuda.h"

/* ---- HEAT and SOR ---------------------------------------------------------------------------- */

/* `sweeps` sweeps of proc (pipelined where desc->pipelined_sweeps says; launch.h). */
template <class Proc>
static pw_status run_sweeps(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc, int64_t sweeps,
                            pw_run_info *info)
{
    return pw_cuda_run_sweeps_each(plan, desc, proc, sweeps, info, [] { return PW_OK; });
}

/* The warp processor with R rows per thread.  In the peer schedule its tile-rows hand their last
 * rows over by edge words (device/stencil_warp_proc.cuh): one row of them for one sweep a launch,
 * a row per tile-row for pipelined sweeps, cleared before every launch (tags restart). */
template <int R, class F, class Cell>
static pw_status stencil_warp(const pw_plan *plan, const pw_kernel_desc *desc, F *grid, int64_t stride, Cell cell,
                              int64_t sweeps, pw_run_info *info)
{
    const bool peer = plan->strategy == PW_STRATEGY_PEER;
    const int64_t edge_rows = peer && sweeps > 1 && desc->pipelined_sweeps ? desc->tiling.n_rows : 1;
    pw_edge_words<F> edge(pw_plan_stream(plan));
    pw_status st = edge.alloc(peer ? (size_t)(edge_rows * desc->tiling.cols) : 0);
    if (st != PW_OK) return st;
    StencilWarpProc<F, Cell, R> proc{grid, {stride}, cell, edge.edge(), edge_rows};
    return pw_cuda_run_sweeps_each(plan, desc, proc, sweeps, info, [&] { return edge.clear(); });
}

/* HEAT or SOR with the cell fixed at compile time, on the processor the selector picked. */
template <class F, class Cell>
static pw_status stencil_row_major(const pw_plan *plan, const pw_kernel_desc *desc, F *grid, int64_t stride, Cell cell,
                                   int64_t sweeps, pw_run_info *info)
{
    if (desc->processor == PW_PROC_STENCIL_WINDOW)
        return run_sweeps(plan, desc, StencilWindowProc<F, Cell>{grid, {stride}, cell}, sweeps, info);
    switch (desc->rows_per_thread) {
    case 1: return stencil_warp<1>(plan, desc, grid, stride, cell, sweeps, info);
    case 2: return stencil_warp<2>(plan, desc, grid, stride, cell, sweeps, info);
    default: return stencil_warp<4>(plan, desc, grid, stride, cell, sweeps, info);
    }
}

/* The processor: on a row-major grid the warp processor (default, hyper tiles, h <= 128), the
 * window processor where asked for (PEERWAVE_STENCIL_PROCESSOR=window: it measured no faster
 * than FullProc on the H200, HEAT 16384^2 one sweep, h = 32: 37.6 vs 29.3 ms; its window reloads
 * h + 1 columns a tile and every step is a block barrier), else FullProc (kernel_desc.h). */
template <class F, class L>
static pw_status stencil_sweeps(const pw_plan *plan, F *grid, L lay, int64_t sweeps, int sor, double omega,
                                pw_run_info *info)
{
    const F keep = (F)(1 - omega), relax = (F)(omega / 4);
    const unsigned row_major_forms = L::row_major ? PW_FORMS_STENCIL_ROW_MAJOR : 0;
    const pw_cell_shape shape = {row_major_forms | PW_FORM(PW_PROC_FULL), (int)sizeof(F), 1, 0, 0};
    pw_kernel_desc desc;
    pw_status st = pw_select_kernel(plan, &shape, NULL, &desc);
    if (st != PW_OK) return st;
    if constexpr (L::row_major) {
        if (desc.processor != PW_PROC_FULL)
            return sor ? stencil_row_major(plan, &desc, grid, lay.stride, StencilCell<F, true>{keep, relax}, sweeps, info)
                       : stencil_row_major(plan, &desc, grid, lay.stride, StencilCell<F, false>{keep, relax}, sweeps, info);
    }
    FullProc<StencilApp<F, L>> proc;
    proc.app = StencilApp<F, L>{grid, lay, sor, keep, relax};
    return run_sweeps(plan, &desc, proc, sweeps, info);
}

/* Sweeps over a row-major device grid (rows x cols with its border = the space + 2), run in
 * the plan's layout; or (plan->band) as a band of a larger run, in the row-major layout. */
template <class F>
static pw_status stencil_core(const pw_plan *plan, F *grid, int64_t stride, int64_t sweeps, int sor, double omega,
                              pw_run_info *info)
{
    if (plan->band) {
        if (plan->layout == PW_LAYOUT_HYBRID) {
            pw_set_error_detail("a GPU band of heat or sor runs in the row-major layout");
            return PW_ERR_UNSUPPORTED;
        }
        const pw_gpu_halo_layout l = {stride, plan->tiling.cols, 1, 1, 1, 0}; /* (a halo column each side) */
        return pw_gpu_run_halo_band(plan, grid, sizeof(F), l, plan->tiling.rows, sweeps, [&](const pw_plan *p) {
            return stencil_sweeps(p, grid, pw_row_major{stride}, sweeps, sor, omega, info);
        });
    }
    if (plan->layout != PW_LAYOUT_HYBRID) return stencil_sweeps(plan, grid, pw_row_major{stride}, sweeps, sor, omega, info);
    const int64_t rows = plan->tiling.rows + 2, cols = plan->tiling.cols + 2;
    cudaStream_t s = pw_plan_stream(plan);
    int64_t count;
    /* shift h - 1: interior row i (grid row i + 1) sits in lane i mod h, like its tile-row */
    pw_hybrid lay = pw_hybrid::make(plan->tiling.h, rows, cols, plan->tiling.h - 1, &count);
    pw_device_buffer<F> hgrid(s);
    pw_status st = hgrid.alloc((size_t)count);
    if (st != PW_OK) return st;
    pw_to_layout<<<pw_prep_blocks(rows * cols), PW_PREP_THREADS, 0, s>>>((const F *)grid, stride, hgrid.ptr, lay, rows, cols);
    st = pw_from_cuda(cudaGetLastError());
    PW_THEN(st, stencil_sweeps(plan, hgrid.ptr, lay, sweeps, sor, omega, info));
    if (st != PW_OK) return st;
    pw_from_layout<<<pw_prep_blocks(rows * cols), PW_PREP_THREADS, 0, s>>>(hgrid.ptr, lay, grid, stride, rows, cols);
    return pw_from_cuda(cudaGetLastError());
}

template <class F>
static pw_status stencil_typed(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor, double omega,
                               pw_run_info *info)
{
    pw_device_buffer<unsigned char> dgrid(pw_plan_stream(plan));
    pw_status st = upload_image(grid, dgrid);
    PW_THEN(st, stencil_core(plan, (F *)dgrid.ptr, grid->cols, sweeps, sor, omega, info));
    PW_THEN(st, download_image(dgrid, grid));
    return st;
}

extern "C" pw_status pw_cuda_stencil(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor,
                                     double omega, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, pw_cuda_reserve((plan->layout == PW_LAYOUT_HYBRID ? 3.2 : 1.0) * (double)grid->rows * (double)grid->cols *
                                (double)pw_dtype_size(grid->type)));
    if (st != PW_OK) return st;
    if (grid->type == PW_F32) return stencil_typed<float>(plan, grid, sweeps, sor, omega, info);
    return stencil_typed<double>(plan, grid, sweeps, sor, omega, info);
}

template <class F>
static pw_status stencil_device(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor, double omega,
                                double *residual, pw_run_info *info)
{
    cudaStream_t s = pw_plan_stream(plan);
    pw_status st = stencil_core(plan, (F *)grid->data, pw_image_stride(grid), sweeps, sor, omega, info);
    if (st != PW_OK || !residual) return st;
    const int64_t rows = grid->rows - 2;
    pw_device_buffer<double> sums(s);
    st = sums.alloc((size_t)rows);
    if (st != PW_OK) return st;
    pw_residual_rows_kernel<F><<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const F *)grid->data, grid->rows,
                                                                               grid->cols, pw_image_stride(grid), sums.ptr);
    st = pw_from_cuda(cudaGetLastError());
    double *host = st == PW_OK ? (double *)malloc(sizeof(double) * (size_t)rows) : NULL;
    if (st == PW_OK && !host) st = PW_ERR_OUT_OF_MEMORY;
    PW_THEN(st, sums.download(host, (size_t)rows));
    double total = 0; /* (the rows in order, as the host adds them: apps/stencil_cell.h) */
    for (int64_t i = 0; st == PW_OK && i < rows; i++) total += host[i];
    free(host);
    if (st == PW_OK) *residual = sqrt(total / ((double)rows * (double)(grid->cols - 2)));
    return st;
}

/* grid->data is a device pointer; residual (if non-NULL): the rows summed on the device, added on the host. */
extern "C" pw_status pw_cuda_stencil_device(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor,
                                            double omega, double *residual, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    if (st != PW_OK) return st;
    if (grid->type == PW_F32) return stencil_device<float>(plan, grid, sweeps, sor, omega, residual, info);
    return stencil_device<double>(plan, grid, sweeps, sor, omega, residual, info);
}
