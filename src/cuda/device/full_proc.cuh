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

/* App (full): __device__ void cell(int64_t i, int64_t j) const. */
template <class App>
struct FullProc {
    App app;
    static constexpr pw_proc_policy policy = {false, false, false, 0, 0};

    __device__ void run_tile(const pw_tiling &t, int64_t r, int64_t c, unsigned char *) const
    {
        const int64_t k = threadIdx.x, lanes = pw_tiling_lanes(&t, r), i = r * t.h + k;
        const bool lane = k < lanes;
        int64_t s0, s1;
        pw_tile_steps(t, r, c, lanes, &s0, &s1);
        for (int64_t s = s0; s < s1; s++) {
            int64_t j = lane ? pw_lane_column(t, c, k, i, s) : -1;
            if (j >= 0) app.cell(i, j);
            __syncthreads();
        }
    }
};

#endif
