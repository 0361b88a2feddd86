/*
 * sat_cell.h - one summed-area-table cell, shared by both backends and by INTHIST.
 *   S(i,j) = x(i,j) + S(i-1,j) + S(i,j-1) - S(i-1,j-1),  0 outside the image.
 * Evaluated as (x + (up - diag)) + left: every partial result is a sum over a sub-rectangle,
 * so an integer type that holds the sum of |x| never overflows, not even in between; floats
 * get one fixed order, the same on every engine.
 */
#ifndef PW_SAT_CELL_H
#define PW_SAT_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

#define PW_SAT_DEFINE(T, SUFFIX)                                                \
    PW_HD static inline T pw_sat_step_##SUFFIX(T x, T up, T left, T diag)       \
    {                                                                           \
        return (x + (up - diag)) + left;                                        \
    }

PW_SAT_DEFINE(int32_t, i32)
PW_SAT_DEFINE(int64_t, i64)
PW_SAT_DEFINE(float, f32)
PW_SAT_DEFINE(double, f64)

#endif
