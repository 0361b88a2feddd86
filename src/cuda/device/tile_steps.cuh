/*
 * tile_steps.cuh - which steps a tile runs and which column a lane computes at a step, for the
 * processors that walk diagonal steps (tiling_geometry.h has the geometry).
 *
 * Steps: hyper tiles use the absolute steps [c*w, (c+1)*w) of tiling_geometry.h, lane k at
 * skewed column s - k; square tiles use local steps 0 .. w + lanes - 2, lane k at column
 * c*w + s - k while 0 <= s - k < w.  Either way lane k computes column x one step after lane
 * k-1 did.
 */
#ifndef PW_DEVICE_TILE_STEPS_CUH
#define PW_DEVICE_TILE_STEPS_CUH

#include "../../core/tiling_geometry.h"

/* Step range of tile c of row r (see the header comment). */
__device__ __forceinline__ void pw_tile_steps(const pw_tiling &t, int64_t r, int64_t c, int64_t lanes,
                                              int64_t *s0, int64_t *s1)
{
    if (t.shape == PW_TILING_HYPER) {
        *s0 = c * t.w;
        int64_t end = pw_tiling_end_step(&t, r);
        *s1 = (c + 1) * t.w < end ? (c + 1) * t.w : end;
        if (*s0 < pw_tiling_first_step(&t, r)) *s0 = pw_tiling_first_step(&t, r);
    } else {
        *s0 = 0;
        *s1 = t.w + lanes - 1;
    }
}

/* Original column of lane k (row i) at step s, or -1 when the lane is idle at that step. */
__device__ __forceinline__ int64_t pw_lane_column(const pw_tiling &t, int64_t c, int64_t k, int64_t i,
                                                  int64_t s)
{
    int64_t x;
    if (t.shape == PW_TILING_HYPER) {
        x = s - k;
    } else {
        if (s - k < 0 || s - k >= t.w) return -1;
        x = c * t.w + s - k;
    }
    int64_t j = x - (int64_t)t.skew * i;
    return (j >= 0 && j < t.cols) ? j : -1;
}

#endif
