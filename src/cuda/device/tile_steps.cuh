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

/* A window of steps, [lo, lo + span) (span 0: none), counted in 32 bits from a start its maker
 * knows (a tile's first step, a chunk's): the warp processors make one per lane a tile or a
 * chunk and test every step against it in one unsigned comparison.  Written once here: the
 * warp processor's bus/column/output ranges, the lanes' kept cells (ScalarLanes,
 * SwPackedLanes) and the stencil warps' kept cells all use it. */
struct pw_step_window {
    int32_t lo;
    uint32_t span;
    __device__ __forceinline__ bool has(int32_t s) const { return (uint32_t)(s - lo) < span; }
};

/* Hyper tiles: the steps from s0 at which warp lane `lane` (of a tile-row's `lanes`) computes a
 * cell inside the matrix's `cols` columns -- its column s0 + step - lane in [0, cols), so steps
 * [lane - s0, cols + lane - s0); none for a lane past the tile-row.  (The end is capped at
 * INT32_MAX: a tile has far fewer steps, kernel_desc.h.) */
__device__ __forceinline__ pw_step_window pw_lane_steps(int64_t lane, int64_t lanes, int64_t s0, int64_t cols)
{
    const int64_t lo = lane - s0 > 0 ? lane - s0 : 0, end = cols + lane - s0;
    return pw_step_window{(int32_t)lo, lane < lanes && end > lo ? (uint32_t)(end - lo < INT32_MAX ? end - lo : INT32_MAX) : 0};
}

#endif
