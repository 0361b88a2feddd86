/*
 * linear_run.cuh - running a linear app (SW, DTW: up, left and diagonal neighbours, linear
 * storage) on the processor the kernel selector picks: host code, included by the files that
 * stage the apps' data (linear_apps.cu, sw_packed_run.cu).
 */
#ifndef PW_CUDA_LINEAR_RUN_CUH
#define PW_CUDA_LINEAR_RUN_CUH

#include "device/linear_proc.cuh"
#include "device/warp_proc.cuh"
#include "edge_words.cuh"
#include "kernel_desc.h"
#include "launch.cuh"

/* The lanes of a warp-processor run with R rows a thread (warp_lanes.cuh): ScalarLanes for every
 * app (SW's 16-bit pairs: sw_packed_run.cu). */
template <class App, int R>
struct ScalarLanesFor {
    typedef ScalarLanes<App, R> type;
};
template <template <class, int> class LanesFor, int R, class App>
static pw_status run_warp(const pw_plan *plan, const pw_kernel_desc &desc, const App &app, pw_edge<typename App::T> edge,
                          pw_run_info *info, int *bits)
{
    typedef typename LanesFor<App, R>::type Lanes;
    *bits = Lanes::bits;
    return pw_cuda_run(plan, &desc, WarpProc<App, R, Lanes>{app, edge}, info);
}

/* Run app on the processor the selector picks for a linear cell (kernel_desc.h): the warp
 * processor with LanesFor's lanes, with its own bus of edge words filled from the app's before
 * the run and drained back after it, or the block processor with R rows a thread.
 * row_every > 0: the app saves every row_every-th row (app_dtw.cuh), which must be a tile-row's
 * last. */
template <class App, template <class, int> class LanesFor = ScalarLanesFor>
static pw_status pw_cuda_run_linear(const pw_plan *plan, const App &app, pw_run_info *info, int64_t row_every = 0)
{
    typedef typename App::T T;
    const pw_cell_shape cell = {PW_FORMS_LINEAR_APP, (int)sizeof(T), 1, 0, 0};
    pw_kernel_desc desc;
    pw_status st = pw_select_kernel(plan, &cell, NULL, &desc);
    if (st != PW_OK) return st;
    if (row_every > 0 && row_every % desc.tiling.h != 0) {
        pw_set_error_detail("rows saved every %lld, tiles of %lld rows", (long long)row_every, (long long)desc.tiling.h);
        return PW_ERR_UNSUPPORTED;
    }
    if (desc.processor == PW_PROC_WARP) {
        pw_edge_words<T> bus(pw_plan_stream(plan));
        st = bus.alloc((size_t)desc.tiling.cols);
        PW_THEN(st, bus.fill(app.bus));
        if (st != PW_OK) return st;
        int bits = 32;
        switch (desc.rows_per_thread) {
        case 1: st = run_warp<LanesFor, 1>(plan, desc, app, bus.edge(), info, &bits); break;
        case 2: st = run_warp<LanesFor, 2>(plan, desc, app, bus.edge(), info, &bits); break;
        case 4: st = run_warp<LanesFor, 4>(plan, desc, app, bus.edge(), info, &bits); break;
        default: st = run_warp<LanesFor, 8>(plan, desc, app, bus.edge(), info, &bits); break;
        }
        PW_THEN(st, bus.drain(app.bus));
        if (info) info->lane_bits = bits;
        return st;
    }
    if (info) info->lane_bits = 32;
    switch (desc.rows_per_thread) {
    case 2: return pw_cuda_run(plan, &desc, LinearProc<App, 2>{app}, info);
    case 4: return pw_cuda_run(plan, &desc, LinearProc<App, 4>{app}, info);
    case 8: return pw_cuda_run(plan, &desc, LinearProc<App, 8>{app}, info);
    default: return pw_cuda_run(plan, &desc, LinearProc<App, 1>{app}, info);
    }
}

#endif
