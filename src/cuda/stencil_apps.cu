/*
 * stencil_apps.cu - HEAT and SOR on the CUDA engine: in-place Gauss-Seidel sweeps over a grid
 * with a fixed border, on the register/shuffle warp processor (row-major hyper tiles, h <= 128),
 * the shared-memory window processor, or FullProc.  The cells are the shared definitions of
 * apps/stencil_cell.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "../../apps/stencil_cell.h"
#include "../core/image.h"
#include "device_buffer.cuh"
#include "device_prep.cuh"
#include "layouts.cuh"
#include "engine.cuh"
#include "pw_cuda.h"
#include "stencil_processor.cuh"
#include "stencil_warp_processor.cuh"
#include "tile_processors.cuh"

/* ---- HEAT and SOR ---------------------------------------------------------------------------- */

__device__ __forceinline__ float heat_step(float u, float l, float d, float r) { return pw_heat_step_f32(u, l, d, r); }
__device__ __forceinline__ double heat_step(double u, double l, double d, double r) { return pw_heat_step_f64(u, l, d, r); }
__device__ __forceinline__ float sor_step(float a, float u, float l, float d, float r, float k, float x)
{
    return pw_sor_step_f32(a, u, l, d, r, k, x);
}
__device__ __forceinline__ double sor_step(double a, double u, double l, double d, double r, double k, double x)
{
    return pw_sor_step_f64(a, u, l, d, r, k, x);
}

/* Peer runs pipeline their sweeps unless PEERWAVE_PIPELINE_SWEEPS=0 (one launch per sweep, for
 * measuring the gain; docs/PERFORMANCE.md). */
static bool sweeps_pipelined()
{
    const char *p = getenv("PEERWAVE_PIPELINE_SWEEPS");
    return !(p && !strcmp(p, "0"));
}

/* Progress counters of one pipelined launch at most (8 bytes each). */
#define PW_SWEEP_COUNTERS (1 << 20)

/* Interior cell (i, j) is grid cell (i + 1, j + 1). */
template <class F, class L>
struct StencilApp {
    F *grid;
    L lay; /* layouts.cuh, in grid coordinates */
    int sor;
    F keep, relax;

    __device__ void cell(int64_t i, int64_t j) const
    {
        F *p = grid + lay.at(i + 1, j + 1);
        F up = pw_load_cg(grid + lay.at(i, j + 1)), left = pw_load_cg(grid + lay.at(i + 1, j));
        F down = pw_load_cg(grid + lay.at(i + 2, j + 1)), right = pw_load_cg(grid + lay.at(i + 1, j + 2));
        *p = sor ? sor_step(pw_load_cg(p), up, left, down, right, keep, relax) : heat_step(up, left, down, right);
    }
};

/* `sweeps` sweeps of proc: peer runs pipeline them (batches bound the progress counters, one per
 * tile-row and sweep), the other strategies launch once per sweep.  before() runs (on the plan's
 * stream) before every launch. */
template <class Proc, class Before>
static pw_status run_sweeps(const pw_plan *plan, const Proc &proc, size_t smem, int64_t sweeps, pw_run_info *info,
                            Before before)
{
    pw_status st = PW_OK;
    if (plan->strategy == PW_STRATEGY_PEER && sweeps_pipelined()) {
        const int64_t batch = plan->tiling.n_rows >= PW_SWEEP_COUNTERS ? 1 : PW_SWEEP_COUNTERS / plan->tiling.n_rows;
        for (int64_t done = 0; done < sweeps && st == PW_OK; done += batch) {
            st = before();
            PW_THEN(st, pw_cuda_run_sweeps(plan, proc, smem, sweeps - done < batch ? sweeps - done : batch, info));
        }
        return st;
    }
    for (int64_t s = 0; s < sweeps && st == PW_OK; s++) {
        st = before();
        PW_THEN(st, pw_cuda_run(plan, proc, smem, info));
    }
    return st;
}
template <class Proc>
static pw_status run_sweeps(const pw_plan *plan, const Proc &proc, size_t smem, int64_t sweeps, pw_run_info *info)
{
    return run_sweeps(plan, proc, smem, sweeps, info, [] { return PW_OK; });
}

/* The cell of the row-major processors; SOR or HEAT fixed at compile time (a per-cell choice
 * costs instructions in the warp processor, whose steps are instruction-bound). */
template <class F, bool Sor>
struct StencilCell {
    F keep, relax;
    __device__ F operator()(F self, F up, F left, F down, F right) const
    {
        if constexpr (Sor) return sor_step(self, up, left, down, right, keep, relax);
        else return heat_step(up, left, down, right);
    }
};

/* The window processor's shared memory at most (two blocks a SM fit). */
#define PW_STENCIL_WINDOW_MAX (100 * 1024)

/* The warp processor with R rows per thread.  In the peer schedule its tile-rows hand their last
 * rows over by edge words (stencil_warp_processor.cuh): one row of them for one sweep a launch, a
 * row per tile-row for pipelined sweeps, cleared before every launch (tags start at 1). */
template <int R, class F, class Cell>
static pw_status stencil_warp_rows(const pw_plan *plan, F *grid, int64_t stride, Cell cell, int64_t sweeps,
                                   pw_run_info *info)
{
    const bool peer = plan->strategy == PW_STRATEGY_PEER;
    const int64_t edge_rows = peer && sweeps > 1 && sweeps_pipelined() ? plan->tiling.n_rows : 1;
    const size_t words = peer ? (size_t)(edge_rows * plan->tiling.cols) : 0;
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<pw_ll<F>> edge(s);
    pw_status st = words ? edge.alloc(words) : PW_OK;
    if (st != PW_OK) return st;
    StencilWarpProc<F, Cell, R> proc{grid, stride, cell, edge.ptr, edge_rows};
    return run_sweeps(plan, proc, proc.smem_bytes(), sweeps, info, [&] {
        return words ? pw_from_cuda(cudaMemsetAsync(edge.ptr, 0, words * sizeof(pw_ll<F>), s)) : PW_OK;
    });
}

/* R = ceil(h / 32) (h <= 128).  Tiles are cut to whole 32-step chunks (the width rounded up): a
 * partial chunk costs a whole one (HEAT 16384^2, h = 64, PW, H200: w = 63 11.3 ms, w = 64 8.1). */
template <class F, class Cell>
static pw_status stencil_warp(const pw_plan *plan, F *grid, int64_t stride, Cell cell, int64_t sweeps,
                              pw_run_info *info)
{
    pw_plan p;
    pw_status st = pw_plan_rewidth(plan, (plan->tiling.w + 31) / 32 * 32, &p);
    if (st != PW_OK) return st;
    const int64_t h = p.tiling.h;
    if (h <= 32) return stencil_warp_rows<1>(&p, grid, stride, cell, sweeps, info);
    if (h <= 64) return stencil_warp_rows<2>(&p, grid, stride, cell, sweeps, info);
    return stencil_warp_rows<4>(&p, grid, stride, cell, sweeps, info);
}

enum stencil_processor { STENCIL_FULL, STENCIL_WARP, STENCIL_WINDOW };

/* Row-major hyper tiles (skew 0): the warp processor (default, h <= 128) or, asked for by
 * PEERWAVE_STENCIL_PROCESSOR=window, the shared-memory window processor; otherwise, and for
 * PEERWAVE_STENCIL_PROCESSOR=global, FullProc.  The window processor measured no faster than
 * FullProc on the H200 (HEAT 16384^2 one sweep, h = 32: 37.6 vs 29.3 ms; docs/PERFORMANCE.md):
 * its window reloads h + 1 columns a tile and every step is a block barrier. */
template <class F>
static stencil_processor stencil_choice(const pw_plan *plan)
{
    const char *asked = getenv("PEERWAVE_STENCIL_PROCESSOR");
    const pw_tiling &t = plan->tiling;
    if (t.shape != PW_TILE_HYPER || t.skew != 0) return STENCIL_FULL;
    if (t.h <= 128 && (!asked || !*asked || !strcmp(asked, "warp"))) return STENCIL_WARP;
    if (asked && !strcmp(asked, "window") && StencilWindowProc<F, StencilCell<F, false>>::window_bytes(t.h, t.w) <= PW_STENCIL_WINDOW_MAX)
        return STENCIL_WINDOW;
    return STENCIL_FULL;
}

template <class F, class Cell>
static pw_status stencil_row_major(const pw_plan *plan, stencil_processor kind, F *grid, int64_t stride, Cell cell,
                                   int64_t sweeps, pw_run_info *info)
{
    if (kind == STENCIL_WARP) return stencil_warp(plan, grid, stride, cell, sweeps, info);
    StencilWindowProc<F, Cell> proc{grid, stride, cell};
    return run_sweeps(plan, proc, proc.window_bytes(plan->tiling.h, plan->tiling.w), sweeps, info);
}

template <class F, class L>
static pw_status stencil_sweeps(const pw_plan *plan, F *grid, L lay, int64_t sweeps, int sor, double omega,
                                pw_run_info *info)
{
    const F keep = (F)(1 - omega), relax = (F)(omega / 4);
    if constexpr (std::is_same<L, pw_row_major>::value) {
        const stencil_processor kind = stencil_choice<F>(plan);
        if (kind != STENCIL_FULL)
            return sor ? stencil_row_major(plan, kind, grid, lay.stride, StencilCell<F, true>{keep, relax}, sweeps, info)
                       : stencil_row_major(plan, kind, grid, lay.stride, StencilCell<F, false>{keep, relax}, sweeps, info);
    }
    FullProc<StencilApp<F, L>> proc;
    proc.app = StencilApp<F, L>{grid, lay, sor, keep, relax};
    return run_sweeps(plan, proc, 0, sweeps, info);
}

/* Sweeps over a row-major device grid (rows x cols with its border = the space + 2), run in
 * the plan's layout. */
template <class F>
static pw_status stencil_core(const pw_plan *plan, F *grid, int64_t stride, int64_t sweeps, int sor, double omega,
                              pw_run_info *info)
{
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
    pw_device_scalar<double> sum(s);
    st = sum.zero();
    if (st != PW_OK) return st;
    pw_residual_kernel<F><<<pw_prep_blocks((grid->rows - 2) * (grid->cols - 2)), PW_PREP_THREADS, 0, s>>>(
        (const F *)grid->data, grid->rows, grid->cols, pw_image_stride(grid), sum.buf.ptr);
    double total = 0;
    st = pw_from_cuda(cudaGetLastError());
    PW_THEN(st, sum.read(&total));
    if (st == PW_OK) *residual = sqrt(total / ((double)(grid->rows - 2) * (double)(grid->cols - 2)));
    return st;
}

/* grid->data is a device pointer; residual (if non-NULL) is reduced on the device. */
extern "C" pw_status pw_cuda_stencil_device(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor,
                                            double omega, double *residual, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    if (st != PW_OK) return st;
    if (grid->type == PW_F32) return stencil_device<float>(plan, grid, sweeps, sor, omega, residual, info);
    return stencil_device<double>(plan, grid, sweeps, sor, omega, residual, info);
}
