/*
 * launch.cuh - the host side of the CUDA engine: run a tile processor under the plan's strategy.
 * Allocates the run's shared words (progress counters, ticket, grid barrier, error), sizes the
 * grid from occupancy and the kernel descriptor's launch needs (kernel_desc.h), launches the
 * peer, barrier or per-diagonal kernels of device/schedules.cuh, times them with CUDA events and
 * turns a watchdog expiry into PW_ERR_TIMEOUT.  Host C++ (templates over the processor) stays
 * inside src/cuda; the API is C.
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

#define PW_CUDA_WATCHDOG_NS (10LL * 1000000000LL)

/* The three kernels for Proc, in the form its policy asks for (under __launch_bounds__ or not). */
template <class Proc>
struct pw_kernels {
    void (*peer)(Proc, pw_engine_args);
    void (*barrier)(Proc, pw_engine_args, int64_t);
    void (*diagonal)(Proc, pw_engine_args, int64_t);
    pw_kernels()
    {
        if constexpr (Proc::policy.bound_threads > 0) {
            peer = pw_peer_kernel_bounded<Proc>, barrier = pw_barrier_kernel_bounded<Proc>;
            diagonal = pw_diagonal_kernel_bounded<Proc>;
        } else {
            peer = pw_peer_kernel<Proc>, barrier = pw_barrier_kernel<Proc>, diagonal = pw_diagonal_kernel<Proc>;
        }
    }
};

/* Candidate rows of diagonal d (an upper bound on the tiles it holds): rows r_hi down to the
 * first row whose c passes the widest row's last tile. */
static inline int64_t pw_diagonal_candidates(const pw_tiling *t, int64_t d, int64_t max_end_tile)
{
    int64_t r_hi = d / (t->lag + 1);
    if (r_hi > t->n_rows - 1) r_hi = t->n_rows - 1;
    int64_t r_lo = (d - max_end_tile + 1 + t->lag) / (t->lag + 1);
    if (d - max_end_tile + 1 <= 0) r_lo = 0;
    return r_hi - r_lo + 1;
}

/* Run `sweeps` sweeps of processor proc over the descriptor's tiles under the plan's strategy:
 * in one launch, pipelined, on the peer strategy (in-place stencils, skew 0: tiling_geometry.h);
 * the other strategies take sweeps == 1.  Adds kernel time (CUDA events) to info->seconds and
 * fills the other info fields (the tiles reported are the descriptor's). */
template <class Proc>
static pw_status pw_cuda_run_sweeps(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc, int64_t sweeps,
                                    pw_run_info *info)
{
    const pw_tiling *t = &desc->tiling;
    const int threads = desc->needs.threads;
    const size_t smem = desc->needs.smem;
    pw_status st = PW_OK;
    pw_counter *progress = NULL, *ticket = NULL;
    unsigned *grid_barrier = NULL;
    int *error = NULL, host_error = 0, sms = 0, per_sm = 0;
    int64_t grid = 0, available = 0;
    float ms = 0;
    cudaEvent_t start = NULL, stop = NULL;
    pw_engine_args a;
    cudaStream_t stream = pw_plan_stream(plan);
    /* The one-launch-per-diagonal baseline has no persistent blocks to draw lanes for. */
    const bool traced = plan->trace && plan->strategy != PW_STRATEGY_LAUNCH;
    const pw_kernels<Proc> k;
    const int64_t counters = t->n_rows * sweeps; /* pw_work_tickets of a.work */
    if (sweeps < 1 || (sweeps > 1 && (plan->strategy != PW_STRATEGY_PEER || t->skew != 0))) return PW_ERR_UNSUPPORTED;
    a.trace.records = NULL;
    a.trace.count = NULL;
    if (traced) {
        st = pw_trace_open(plan, t, sweeps, &a.trace, stream);
        if (st != PW_OK) goto done;
    }
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&progress, sizeof(pw_counter) * (size_t)counters, stream), done);
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&ticket, sizeof(pw_counter), stream), done);
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&grid_barrier, sizeof(unsigned), stream), done);
    PW_CUDA_TRY(st, pw_cuda_malloc((void **)&error, sizeof(int), stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(progress, 0, sizeof(pw_counter) * (size_t)counters, stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(ticket, 0, sizeof(pw_counter), stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(grid_barrier, 0, sizeof(unsigned), stream), done);
    PW_CUDA_TRY(st, cudaMemsetAsync(error, 0, sizeof(int), stream), done);
    PW_CUDA_TRY(st, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, plan->device), done);
    PW_CUDA_TRY(st, cudaEventCreate(&start), done);
    PW_CUDA_TRY(st, cudaEventCreate(&stop), done);
    a.t = *t;
    a.progress = progress;
    a.ticket = ticket;
    a.grid_barrier = grid_barrier;
    a.error = error;
    a.watchdog_ns = plan->watchdog_ns ? plan->watchdog_ns : PW_CUDA_WATCHDOG_NS;
    a.stuck_row = plan->stuck_row;
    a.work = pw_work_make(t->n_rows, sweeps);
    a.spin_polls = desc->spin_polls;

    if (smem > 48 * 1024) { /* dynamic shared memory past 48 KB is opt-in, per kernel */
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.peer, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.barrier, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute((const void *)k.diagonal, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
    }
    if (plan->strategy == PW_STRATEGY_PEER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.peer, threads, smem), done);
        grid = available = (int64_t)per_sm * sms;
        if (grid > counters) grid = counters;
        grid = pw_even_peer_grid(grid, sms, desc->needs.warps_per_scheduler);
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; } /* block does not fit on an SM */
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        k.peer<<<(unsigned)grid, threads, smem, stream>>>(proc, a);
        PW_CUDA_TRY(st, cudaGetLastError(), done);
    } else if (plan->strategy == PW_STRATEGY_GLOBAL_BARRIER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.barrier, threads, smem), done);
        grid = available = (int64_t)per_sm * sms; /* cooperative launch: at most co-resident capacity */
        if (grid > t->n_rows) grid = t->n_rows;
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; }
        {
            int64_t n_diag = pw_tiling_diagonal_count(t);
            Proc p = proc;
            void *args[] = {&p, &a, &n_diag};
            PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
            PW_CUDA_TRY(st, cudaLaunchCooperativeKernel((const void *)k.barrier, dim3((unsigned)grid),
                                                        dim3(threads), args, smem, stream), done);
        }
    } else if (plan->strategy == PW_STRATEGY_LAUNCH) {
        int64_t n_diag = pw_tiling_diagonal_count(t), max_end = 0;
        for (int64_t r = t->n_rows > 2 ? t->n_rows - 2 : 0; r < t->n_rows; r++)
            if (pw_tiling_end_tile(t, r) > max_end) max_end = pw_tiling_end_tile(t, r);
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        for (int64_t d = 0; d < n_diag; d++) {
            int64_t blocks = pw_diagonal_candidates(t, d, max_end);
            if (blocks < 1) continue; /* e.g. lag > 0 and one tile per row: some diagonals are empty */
            if (blocks > grid) grid = blocks;
            k.diagonal<<<(unsigned)blocks, threads, smem, stream>>>(proc, a, d);
        }
        PW_CUDA_TRY(st, cudaGetLastError(), done);
    } else {
        st = PW_ERR_UNSUPPORTED;
        goto done;
    }
    PW_CUDA_TRY(st, cudaEventRecord(stop, stream), done);
    PW_CUDA_TRY(st, cudaEventSynchronize(stop), done);
    PW_CUDA_TRY(st, cudaGetLastError(), done);
    PW_CUDA_TRY(st, cudaEventElapsedTime(&ms, start, stop), done);
    PW_CUDA_TRY(st, cudaMemcpyAsync(&host_error, error, sizeof(int), cudaMemcpyDeviceToHost, stream), done);
    PW_CUDA_TRY(st, cudaStreamSynchronize(stream), done);
    if (host_error) st = PW_ERR_TIMEOUT;
    if (info) {
        info->backend = PW_BACKEND_CUDA;
        info->strategy = plan->strategy;
        info->shape = (pw_tile_shape)t->shape;
        info->tile_h = (int)t->h;
        info->tile_w = t->w;
        info->threads = (int)grid;
        info->threads_available = (int)(available ? available : grid);
        info->skew = t->skew;
        info->cells += t->rows * t->cols * sweeps;
        info->seconds += ms / 1e3;
    }
done:
    if (traced) {
        pw_status tst = pw_trace_close(plan, &a.trace, stream, st == PW_OK);
        if (st == PW_OK) st = tst;
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    pw_cuda_free(progress, stream);
    pw_cuda_free(ticket, stream);
    pw_cuda_free(grid_barrier, stream);
    pw_cuda_free(error, stream);
    return st;
}

template <class Proc>
static pw_status pw_cuda_run(const pw_plan *plan, const pw_kernel_desc *desc, const Proc &proc, pw_run_info *info)
{
    return pw_cuda_run_sweeps(plan, desc, proc, 1, info);
}

#endif
