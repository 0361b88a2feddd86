/*
 * dtw_cell.h - one dynamic-time-warping cell (float and double), shared by both backends.
 *   D(i,j) = c(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)),  c = |a - b| or (a - b)^2
 * Boundaries: D(-1,-1) = 0, every other cell of row -1 or column -1 is +inf.
 */
#ifndef PW_DTW_CELL_H
#define PW_DTW_CELL_H

#include "../src/core/hd.h"

#define PW_DTW_DEFINE(T, SUFFIX)                                                              \
    PW_HD static inline T pw_dtw_step_##SUFFIX(T a, T b, int squared, T up, T left, T diag)   \
    {                                                                                         \
        T d = a - b;                                                                          \
        T cost = squared ? d * d : (d < 0 ? -d : d);                                          \
        T m = up < left ? up : left;                                                          \
        m = diag < m ? diag : m;                                                              \
        return cost + m;                                                                      \
    }

PW_DTW_DEFINE(float, f32)
PW_DTW_DEFINE(double, f64)

#endif
