/*
 * dtw_cell.h - one dynamic-time-warping cell (float and double), shared by both backends.
 *   D(i,j) = c(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)),  c = |a - b| or (a - b)^2
 * Boundaries: D(-1,-1) = 0, every other cell of row -1 or column -1 is +inf.
 */
#ifndef PW_DTW_CELL_H
#define PW_DTW_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

/* The step in two parts: the cost depends on the series alone, the combination on the
 * neighbours; the GPU's warp processor makes the cost a step early, off the wavefront's critical
 * path.  The minimum takes left and diag first for the same reason (up arrives last there); the
 * order cannot change a result: no value is NaN (inputs are checked finite) or -0 (costs are
 * >= +0 or -0 from |-0 - +0|, and -0 + m is +0 for every m here, D(-1,-1) being +0). */
#define PW_DTW_DEFINE(T, SUFFIX)                                                              \
    PW_HD static inline T pw_dtw_cost_##SUFFIX(T a, T b, int squared)                         \
    {                                                                                         \
        T d = a - b;                                                                          \
        return squared ? d * d : (d < 0 ? -d : d);                                            \
    }                                                                                         \
    PW_HD static inline T pw_dtw_combine_##SUFFIX(T cost, T up, T left, T diag)               \
    {                                                                                         \
        T m = left < diag ? left : diag;                                                      \
        m = up < m ? up : m;                                                                  \
        return cost + m;                                                                      \
    }                                                                                         \
    PW_HD static inline T pw_dtw_step_##SUFFIX(T a, T b, int squared, T up, T left, T diag)   \
    {                                                                                         \
        return pw_dtw_combine_##SUFFIX(pw_dtw_cost_##SUFFIX(a, b, squared), up, left, diag);  \
    }

PW_DTW_DEFINE(float, f32)
PW_DTW_DEFINE(double, f64)

#endif
