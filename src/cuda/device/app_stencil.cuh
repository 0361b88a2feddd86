/*
 * app_stencil.cuh - HEAT and SOR (in-place Gauss-Seidel sweeps over a grid with a fixed border)
 * in the forms of the processors: StencilApp for FullProc (any layout: layouts.cuh) and
 * StencilCell, the five-point cell the row-major stencil processors call
 * (stencil_window_proc.cuh, stencil_warp_proc.cuh).  The cells are apps/stencil_cell.h's.
 */
#ifndef PW_DEVICE_APP_STENCIL_CUH
#define PW_DEVICE_APP_STENCIL_CUH

#include "../../../apps/stencil_cell.h"
#include "full_proc.cuh"
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

/* Interior cell (i, j) is grid cell (i + 1, j + 1).  FullProc runs it in two parts: the old
 * values (down, right, the cell itself) before the previous step's barrier -- in a tile the row
 * below reaches column j a step after this lane, and right and self are the lane's own later
 * cells -- and the new ones (up, left) after it. */
template <class F, class L>
struct StencilApp {
    F *grid;
    L lay; /* layouts.cuh, in grid coordinates */
    int sor;
    F keep, relax;

    struct Pre {
        F down, right, self;
    };
    __device__ Pre pre(int64_t i, int64_t j) const
    {
        return Pre{pw_load_cg(grid + lay.at(i + 2, j + 1)), pw_load_cg(grid + lay.at(i + 1, j + 2)),
                   sor ? pw_load_cg(grid + lay.at(i + 1, j + 1)) : F(0)};
    }
    __device__ void cell(int64_t i, int64_t j, const Pre &o) const
    {
        F *p = grid + lay.at(i + 1, j + 1);
        F up = pw_load_cg(grid + lay.at(i, j + 1)), left = pw_load_cg(grid + lay.at(i + 1, j));
        *p = sor ? sor_step(o.self, up, left, o.down, o.right, keep, relax) : heat_step(up, left, o.down, o.right);
    }
};
template <class F, class L>
struct pw_full_prefetches<StencilApp<F, L>> {
    static constexpr bool value = true;
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
