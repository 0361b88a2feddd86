/*
 * app_stencil.cuh - HEAT and SOR (in-place Gauss-Seidel sweeps over a grid with a fixed border)
 * in the forms of the processors: StencilApp for FullProc (any layout: layouts.cuh) and
 * StencilCell, the five-point cell the row-major stencil processors call
 * (stencil_window_proc.cuh, stencil_warp_proc.cuh).  The cells are apps/stencil_cell.h's.
 */
#ifndef PW_DEVICE_APP_STENCIL_CUH
#define PW_DEVICE_APP_STENCIL_CUH

#include "../../../apps/stencil_cell.h"
#include "layouts.cuh"
#include "memory.cuh"

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

#endif
