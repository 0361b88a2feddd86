/*
 * full_proc.cuh - the generic tile processor of full-storage apps (any skew): one thread per row
 * of the tile-row, diagonal steps separated by __syncthreads(); the app's cell reads its
 * neighbours from global memory with ld.cg and writes in place.  Launch needs (kernel_desc.h):
 * h threads, no shared memory.
 */
#ifndef PW_DEVICE_FULL_PROC_CUH
#define PW_DEVICE_FULL_PROC_CUH

#include "memory.cuh"
#include "schedules.cuh"
#include "tile_steps.cuh"

/* One thread per row of the tile-row, a __syncthreads() after each diagonal step; cell(i, j) for
 * every cell of tile (r, c), lane k on row r h + k. */
template <class Cell>
__device__ __forceinline__ void pw_full_tile(const pw_tiling &t, int64_t r, int64_t c, const Cell &cell)
{
    const int64_t k = threadIdx.x, lanes = pw_tiling_lanes(&t, r), i = r * t.h + k;
    const bool lane = k < lanes;
    int64_t s0, s1;
    pw_tile_steps(t, r, c, lanes, &s0, &s1);
    for (int64_t s = s0; s < s1; s++) {
        int64_t j = lane ? pw_lane_column(t, c, k, i, s) : -1;
        if (j >= 0) cell(i, j);
        __syncthreads();
    }
}

/* App (full): __device__ void cell(int64_t i, int64_t j) const.  DeepSweepReads: a later
 * sweep reads the previous one further down than the next tile-row (pw_proc_policy). */
template <class App, bool DeepSweepReads = false>
struct FullProc {
    App app;
    static constexpr pw_proc_policy policy = {false, false, false, 0, 0, false, false, false, DeepSweepReads};

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *) const
    {
        pw_full_tile(t, r, c, [&](int64_t i, int64_t j) { app.cell(i, j); });
    }
};

/* FullProc for work whose sweeps differ: each sweep is a plane of a 3-D space (user_cell.cuh's
 * UserPlaneApp), the tiles a 2-D wavefront over it, planes pipelined as in-place sweeps are.
 * App: __device__ void cell(int64_t sweep, int64_t i, int64_t j) const.  Launch needs: FullProc's. */
template <class App>
struct PlaneProc {
    App app;
    static constexpr pw_proc_policy policy = {false, false, false, 0, 0, true};

    __device__ void run_tile_sweep(const pw_tiling &t, int64_t r, int64_t c, unsigned char *, int64_t sweep) const
    {
        pw_full_tile(t, r, c, [&](int64_t i, int64_t j) { app.cell(sweep, i, j); });
    }
};

#endif
