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

/* pw_full_tile for a cell in two parts: pre(i, j), the values of cell (i, j) that no step of the
 * tile before it changes, loaded for the lane's next cell before this step's barrier, and
 * cell(i, j, pre), which loads the rest after it.  One load on a step's critical path instead of
 * all of them (the barrier strategy on square tiles, HEAT/SOR: docs/PERFORMANCE.md, 2026-11-24). */
template <class Pre, class PreFn, class CellFn>
__device__ __forceinline__ void pw_full_tile_prefetched(const pw_tiling &t, int64_t r, int64_t c, const PreFn &pre,
                                                        const CellFn &cell)
{
    const int64_t k = threadIdx.x, lanes = pw_tiling_lanes(&t, r), i = r * t.h + k;
    const bool lane = k < lanes;
    int64_t s0, s1;
    pw_tile_steps(t, r, c, lanes, &s0, &s1);
    int64_t j = lane && s0 < s1 ? pw_lane_column(t, c, k, i, s0) : -1;
    Pre now = j >= 0 ? pre(i, j) : Pre{};
    for (int64_t s = s0; s < s1; s++) {
        const int64_t next = lane && s + 1 < s1 ? pw_lane_column(t, c, k, i, s + 1) : -1;
        const Pre later = next >= 0 ? pre(i, next) : Pre{};
        if (j >= 0) cell(i, j, now);
        __syncthreads();
        j = next;
        now = later;
    }
}

/* Whether FullProc runs App's cell in two parts (App::Pre, pre(i, j), cell(i, j, pre): above);
 * an app says so by specialising this (app_stencil.cuh).  No app is made to declare it. */
template <class App>
struct pw_full_prefetches {
    static constexpr bool value = false;
};

/* App (full): __device__ void cell(int64_t i, int64_t j) const; or the two parts above. */
template <class App>
struct FullProc {
    App app;
    static constexpr pw_proc_policy policy = {false, false, false, 0, 0};

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *) const
    {
        if constexpr (pw_full_prefetches<App>::value)
            pw_full_tile_prefetched<typename App::Pre>(
                t, r, c, [&](int64_t i, int64_t j) { return app.pre(i, j); },
                [&](int64_t i, int64_t j, const typename App::Pre &p) { app.cell(i, j, p); });
        else
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
