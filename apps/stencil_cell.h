/*
 * stencil_cell.h - Gauss-Seidel heat and SOR cells (float and double), shared by both backends.
 *   heat: A(i,j) = (A(i-1,j) + A(i,j-1) + A(i+1,j) + A(i,j+1)) / 4
 *   SOR:  A(i,j) = (1 - w) A(i,j) + w/4 (A(i-1,j) + A(i,j-1) + A(i+1,j) + A(i,j+1))
 * (i-1, j) and (i, j-1) are already updated in this sweep, (i+1, j) and (i, j+1) not yet: that is
 * Gauss-Seidel, and the wavefront order preserves it.  The sums have one fixed order and FMA
 * contraction is off in both compilers, so every engine gives bit-identical grids.
 *
 * The order is (((down + right) + left) + up): down and right are the old values, known before
 * the step, so on the GPU's wavefront (where a step waits for the up and left values of the step
 * before) only the last two additions and the scaling stand between a new up value and the next:
 * (((up + left) + down) + right) put all three additions on that path.
 */
#ifndef PW_STENCIL_CELL_H
#define PW_STENCIL_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

#define PW_STENCIL_DEFINE(T, SUFFIX)                                                          \
    PW_HD static inline T pw_heat_step_##SUFFIX(T up, T left, T down, T right)                \
    {                                                                                         \
        return (((down + right) + left) + up) / (T)4;                                         \
    }                                                                                         \
    /* keep = 1 - w and relax = w / 4, rounded to T once per run. */                          \
    PW_HD static inline T pw_sor_step_##SUFFIX(T self, T up, T left, T down, T right, T keep, \
                                               T relax)                                       \
    {                                                                                         \
        return keep * self + relax * (((down + right) + left) + up);                          \
    }

PW_STENCIL_DEFINE(float, f32)
PW_STENCIL_DEFINE(double, f64)

/* The residual of a grid: sqrt(sum of r^2 over the interior / interior cells), r = (up + left +
 * down + right) / 4 - A(i,j), in double.  Its one order, on every engine, device and split of the
 * grid: each row summed from 0, left to right; the rows' sums added in row order.  Rows are then
 * independent work (CPU threads, a GPU thread a row), and a band of columns continues the row
 * sums of the band on its left (src/dist/), so all of them give the same bits.  r * r + sum is
 * rounded twice on purpose: no fused multiply-add on either compiler. */
PW_HD static inline double pw_residual_add(double sum, double r)
{
#ifdef __CUDA_ARCH__
    return __dadd_rn(sum, __dmul_rn(r, r));
#else
    return sum + r * r;
#endif
}

/* One cell's r (the neighbours in double: the conversions are exact). */
PW_HD static inline double pw_residual_term(double up, double left, double down, double right, double self)
{
    return (((up + left) + down) + right) / 4 - self;
}

/* sum + the terms of n cells from p (a pointer into the grid; stride: elements between rows). */
#define PW_RESIDUAL_DEFINE(T, SUFFIX)                                                             \
    PW_HD static inline double pw_residual_cells_##SUFFIX(const T *p, int64_t stride, int64_t n, double sum) \
    {                                                                                             \
        for (int64_t j = 0; j < n; j++, p++)                                                      \
            sum = pw_residual_add(sum, pw_residual_term(p[-stride], p[-1], p[stride], p[1], p[0])); \
        return sum;                                                                               \
    }

PW_RESIDUAL_DEFINE(float, f32)
PW_RESIDUAL_DEFINE(double, f64)

#endif
