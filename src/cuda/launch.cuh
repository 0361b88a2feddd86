/*
 * launch.cuh - run a tile processor of the library under the plan's strategy: its three kernels
 * (device/schedules.cuh) handed to the one launcher (launch.h).  Host C++ (templates over the
 * processor) stays inside src/cuda; the API is C.
 */
#ifndef PW_LAUNCH_CUH
#define PW_LAUNCH_CUH

#include <cuda_runtime.h>

#include "../core/plan.h"
#include "../core/tiling.h"
#include "cuda_check.cuh"
#include "device/schedules.cuh"
#include "device_buffer.cuh"
#include "gpu_trace.cuh"
#include "kernel_desc.h"
#include "launch.h"

/* The five kernels for Proc, in the form its policy asks for (under __launch_bounds__ or not). */
template <class Proc>
struct pw_kernels {
    void (*peer)(Proc, pw_engine_args);
    void (*band)(Proc, pw_engine_args);
    void (*barrier)(Proc, pw_engine_args, int64_t);
    void (*diagonal)(Proc, pw_engine_args, int64_t);
    void (*tasks)(Proc, pw_engine_args, pw_task_state, pw_tile_tasks);
    pw_kernels()
    {
        if constexpr (Proc::policy.bound_threads > 0) {
            peer = pw_peer_kernel_bounded<Proc>, band = pw_band_kernel_bounded<Proc>, barrier = pw_barrier_kernel_bounded<Proc>;
            diagonal = pw_diagonal_kernel_bounded<Proc>, tasks = pw_tasks_kernel_bounded<Proc>;
        } else {
            peer = pw_peer_kernel<Proc>, band = pw_band_kernel<Proc>, barrier = pw_barrier_kernel<Proc>;
            diagonal = pw_diagonal_kernel<Proc>;
            tasks = pw_tasks_kernel<Proc>;
        }
    }
    pw_kernel_set set() const
    {
        return pw_kernel_set{(const void *)peer, (const void *)band, (const void *)barrier, (const void *)diagonal,
                             (const void *)tasks};
    }
};

/* Run `sweeps` sweeps of processor proc (launch.h: pw_cuda_launch). */
template <class Proc>
static pw_status pw_cuda_run_sweeps(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc, int64_t sweeps,
                                    pw_run_info *info)
{
    const pw_kernel_set set = pw_kernels<Proc>().set();
    Proc p = proc;
    return pw_cuda_launch(plan, desc, &set, &p, 0, sweeps, info);
}

/* `sweeps` sweeps of proc in as few launches as the counters allow (launch.h:
 * pw_cuda_launch_sweeps); before() runs before every launch. */
template <class Proc, class Before>
static pw_status pw_cuda_run_sweeps_each(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc,
                                         int64_t sweeps, pw_run_info *info, Before before)
{
    const pw_kernel_set set = pw_kernels<Proc>().set();
    Proc p = proc;
    pw_status (*call)(void *) = [](void *b) { return (*(Before *)b)(); };
    return pw_cuda_launch_sweeps(plan, desc, &set, &p, sweeps, info, call, &before);
}

template <class Proc>
static pw_status pw_cuda_run(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc, pw_run_info *info)
{
    return pw_cuda_run_sweeps(plan, desc, proc, 1, info);
}

#endif
