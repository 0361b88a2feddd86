/* launch.cu - the one launcher of the CUDA engine (launch.h). */
#include <cuda_runtime.h>

#include "../core/tile_graph.h"
#include "../core/tiling.h"
#include "cuda_check.cuh"
#include "device/schedules.cuh"
#include "device_buffer.cuh"
#include "gpu_band.cuh"
#include "gpu_monitor.cuh"
#include "gpu_trace.cuh"
#include "launch.h"
#include "task_host.h"

/* Candidate rows of diagonal d (an upper bound on the tiles it holds): rows r_hi down to the
 * first row whose c passes the widest row's last tile. */
static int64_t pw_diagonal_candidates(const pw_tiling *t, int64_t d, int64_t max_end_tile)
{
    int64_t r_hi = d / (t->lag + 1);
    if (r_hi > t->n_rows - 1) r_hi = t->n_rows - 1;
    int64_t r_lo = (d - max_end_tile + 1 + t->lag) / (t->lag + 1);
    if (d - max_end_tile + 1 <= 0) r_lo = 0;
    return r_hi - r_lo + 1;
}

pw_status pw_cuda_launch(const pw_plan *plan, const pw_kernel_desc *desc, const pw_kernel_set *k, void *first_arg,
                         int64_t sweep_base, int64_t sweeps, pw_run_info *info)
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
    pw_gpu_watch watch = {};
    pw_gpu_tasks tasks = {};  /* the tasks strategy: its queues, */
    pw_tile_graph graph = {}; /* the tiles' graph (host) */
    long long *graph_dev = NULL; /* and each task's tile (device: pw_tile_tasks) */
    cudaStream_t stream = pw_plan_stream(plan);
    const void *peer = k->peer; /* the peer schedule's kernel: k->band for a band of a larger run */
    /* The one-launch-per-diagonal baseline has no persistent blocks to draw lanes for. */
    const bool traced = plan->trace && plan->strategy != PW_STRATEGY_LAUNCH;
    const int64_t counters = t->n_rows * sweeps; /* pw_work_tickets of a.work */
    const int64_t cells = (desc->cells_per_sweep ? desc->cells_per_sweep : t->rows * t->cols) * sweeps;
    const int64_t cells_before = info ? info->cells : 0; /* the run's earlier launches */
    /* several sweeps a launch: pipelined in the peer, barrier and tasks schedules (tiling_geometry.h);
     * skewed only on FullProc (the other processors' hand-overs assume skew 0), and reading the
     * previous sweep further down than the next tile-row only on FullProc<App, true> (the others'
     * waits, pw_row_wait_steps, look one tile-row down; its pw_wait_tile at every row the reads
     * reach) */
    const bool full = desc->processor == PW_PROC_FULL;
    const bool deep_ok = full && desc->deep_sweep_reads;
    if (sweeps < 1 || (sweeps > 1 && (plan->strategy == PW_STRATEGY_LAUNCH || (!full && t->skew != 0) ||
                                      (!deep_ok && pw_tiling_sweep_rows_below(t) > 1))))
        return PW_ERR_UNSUPPORTED;
    a.trace.records = NULL;
    a.trace.count = NULL;
    a.monitor.words = NULL;
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
    a.work = desc->face_tiles_k > 0 ? pw_work_make_face(t->n_rows / desc->face_tiles_k, desc->face_tiles_k, sweeps)
                                    : pw_work_make(t->n_rows, sweeps);
    a.sweep_base = sweep_base;
    a.sweep_lag = sweeps > 1 && plan->strategy == PW_STRATEGY_GLOBAL_BARRIER ? pw_tiling_sweep_lag(t) : 1;
    if (sweeps - 1 > (INT64_MAX - pw_tiling_diagonal_count(t)) / a.sweep_lag) { /* (batches are far below) */
        st = PW_ERR_SIZE_OVERFLOW;
        goto done;
    }
    a.spin_polls = desc->spin_polls;
    a.band = pw_device_band{};
    if (plan->cuda_band) { /* a band of a larger run: the peer schedule only (its waits are per tile-row) */
        if (plan->strategy != PW_STRATEGY_PEER) { st = PW_ERR_UNSUPPORTED; goto done; }
        const pw_gpu_band *band = (const pw_gpu_band *)plan->cuda_band;
        a.band = band->dev;
        peer = k->band; /* (the peer schedule with the band's waits and reports compiled in) */
        /* SMs left to the link's data path (NCCL's kernels: core/band.h, free_sms).  Only the
         * grid shrinks: with several blocks an SM the hardware may still spread them over every
         * SM and leave holes instead of whole SMs (a green context of sms - free_sms SMs would
         * guarantee them; not done) */
        if (band->edges && band->edges->free_sms > 0 && sms > band->edges->free_sms) sms -= band->edges->free_sms;
    }

    if (smem > 48 * 1024) { /* dynamic shared memory past 48 KB is opt-in, per kernel */
        PW_CUDA_TRY(st, cudaFuncSetAttribute(peer, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute(k->barrier, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute(k->diagonal, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
        PW_CUDA_TRY(st, cudaFuncSetAttribute(k->tasks, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), done);
    }
    if (plan->strategy == PW_STRATEGY_PEER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, peer, threads, smem), done);
        grid = available = (int64_t)per_sm * sms;
        if (grid > counters) grid = counters;
        grid = pw_even_peer_grid(grid, sms, desc->needs.warps_per_scheduler);
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; } /* block does not fit on an SM */
        /* (a band's wait is its own: the watch's pinned allocation could synchronise the device
         * while a neighbour's kernel waits on this one -- no progress hook in band runs) */
        if (!plan->cuda_band && (st = pw_gpu_watch_open(&watch, plan, t, sweeps, cells, grid, cells_before, &a.monitor)) != PW_OK)
            goto done;
        void *args[] = {first_arg, &a};
        /* (a band: its kernel is loaded by the occupancy query above -- the link may post its
         * receives now -- and launches once the left column's first row is here; its time counts
         * from then, as one GPU's counts from its launch: with the start event before the wait
         * (cbfd33e to 2026-11-29) a band's time held whatever kept its left neighbour from
         * starting, its upload included -- a likely cause of SAT f32 125952^2 in 2 bands
         * measuring 75.7 ms against one GPU's 37.9, not yet rerun; the pipeline's start lag is
         * in SW and DTW's span, dist_apps.c) */
        if (plan->cuda_band && (st = pw_gpu_band_before_launch((pw_gpu_band *)plan->cuda_band, sweep_base, plan->watchdog_ns)) != PW_OK) goto done;
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        if ((st = pw_gpu_watch_after(&watch, start)) != PW_OK) goto done;
        PW_CUDA_TRY(st, cudaLaunchKernel(peer, dim3((unsigned)grid), dim3(threads), args, smem, stream), done);
    } else if (plan->strategy == PW_STRATEGY_GLOBAL_BARRIER) {
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->barrier, threads, smem), done);
        grid = available = (int64_t)per_sm * sms; /* cooperative launch: at most co-resident capacity */
        if (grid > t->n_rows * sweeps) grid = t->n_rows * sweeps; /* (a step holds a diagonal of each pipelined sweep) */
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; }
        if ((st = pw_gpu_watch_open(&watch, plan, t, sweeps, cells, grid, cells_before, &a.monitor)) != PW_OK) goto done;
        {
            int64_t n_diag = pw_tiling_diagonal_count(t);
            void *args[] = {first_arg, &a, &n_diag};
            PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        if ((st = pw_gpu_watch_after(&watch, start)) != PW_OK) goto done;
            PW_CUDA_TRY(st, cudaLaunchCooperativeKernel(k->barrier, dim3((unsigned)grid),
                                                        dim3(threads), args, smem, stream), done);
        }
    } else if (plan->strategy == PW_STRATEGY_LAUNCH) {
        int64_t n_diag = pw_tiling_diagonal_count(t), max_end = 0;
        for (int64_t r = t->n_rows > 2 ? t->n_rows - 2 : 0; r < t->n_rows; r++)
            if (pw_tiling_end_tile(t, r) > max_end) max_end = pw_tiling_end_tile(t, r);
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        if ((st = pw_gpu_watch_after(&watch, start)) != PW_OK) goto done;
        for (int64_t d = 0; d < n_diag; d++) {
            int64_t blocks = pw_diagonal_candidates(t, d, max_end);
            if (blocks < 1) continue; /* e.g. lag > 0 and one tile per row: some diagonals are empty */
            if (blocks > grid) grid = blocks;
            void *args[] = {first_arg, &a, &d};
            PW_CUDA_TRY(st, cudaLaunchKernel(k->diagonal, dim3((unsigned)blocks), dim3(threads), args, smem, stream), done);
        }
    } else if (plan->strategy == PW_STRATEGY_TASKS) {
        /* Persistent blocks (none waits for another: no co-residency needed), spread over the SMs'
         * schedulers as the peer grid is, and no more than tiles can run at once (the tile-rows,
         * or a row's tiles): the rest would only poll the queues. */
        if ((st = pw_tile_graph_build_sweeps(t, sweeps, &graph)) != PW_OK) goto done;
        int64_t widest = 0;
        for (int64_t r = 0; r < t->n_rows; r++)
            if (graph.row_at[r + 1] - graph.row_at[r] > widest) widest = graph.row_at[r + 1] - graph.row_at[r];
        PW_CUDA_TRY(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->tasks, threads, smem), done);
        grid = available = (int64_t)per_sm * sms;
        grid = pw_even_peer_grid(grid, sms, desc->needs.warps_per_scheduler);
        if (grid > t->n_rows) grid = t->n_rows;
        if (grid > widest) grid = widest;
        if (plan->workers > 0 && grid > plan->workers) grid = plan->workers;
        if (plan->workers > 0 && available > plan->workers) available = plan->workers;
        if (grid < 1) { st = PW_ERR_INVALID_TILE; goto done; }
        const size_t rows1 = (size_t)t->n_rows + 1, n = (size_t)graph.per_sweep; /* (tile_row: one sweep's) */
        PW_CUDA_TRY(st, pw_cuda_malloc((void **)&graph_dev, sizeof(long long) * (n + rows1), stream), done);
        PW_CUDA_TRY(st, cudaMemcpyAsync(graph_dev, graph.tile_row, sizeof(long long) * n, cudaMemcpyHostToDevice, stream), done);
        PW_CUDA_TRY(st, cudaMemcpyAsync(graph_dev + n, graph.row_at, sizeof(long long) * rows1, cudaMemcpyHostToDevice, stream), done);
        const pw_gpu_task_graph g = {graph.count, graph.deps, graph.succ_at, graph.succ};
        if ((st = pw_gpu_tasks_open(&tasks, plan->device, plan->task_queues_central, graph.count, &g, 0, error,
                                    a.watchdog_ns, stream)) != PW_OK) /* (synchronises: the graph's copies are done) */
            goto done;
        if ((st = pw_gpu_watch_open(&watch, plan, t, sweeps, cells, grid, cells_before, &a.monitor)) != PW_OK) goto done;
        pw_tile_tasks tiles = {graph_dev, graph_dev + n, graph.per_sweep};
        void *args[] = {first_arg, &a, &tasks.s, &tiles};
        PW_CUDA_TRY(st, cudaEventRecord(start, stream), done);
        if ((st = pw_gpu_watch_after(&watch, start)) != PW_OK) goto done;
        PW_CUDA_TRY(st, cudaLaunchKernel(k->tasks, dim3((unsigned)grid), dim3(threads), args, smem, stream), done);
    } else {
        st = PW_ERR_UNSUPPORTED;
        goto done;
    }
    PW_CUDA_TRY(st, cudaEventRecord(stop, stream), done);
    /* (the launch strategy, a baseline with no persistent blocks, is not watched: the plain wait) */
    if (plan->cuda_band) st = pw_gpu_band_wait((pw_gpu_band *)plan->cuda_band, start, stop, error);
    else st = pw_gpu_watch_wait(&watch, stop, error);
    if (st != PW_OK) goto done;
    PW_CUDA_TRY(st, cudaGetLastError(), done);
    PW_CUDA_TRY(st, cudaEventElapsedTime(&ms, start, stop), done);
    PW_CUDA_TRY(st, cudaMemcpyAsync(&host_error, error, sizeof(int), cudaMemcpyDeviceToHost, stream), done);
    PW_CUDA_TRY(st, cudaStreamSynchronize(stream), done);
    if (host_error) st = pw_gpu_tasks_status(host_error); /* (timeout, cancelled, task queues full) */
    if (info) {
        info->backend = PW_BACKEND_CUDA;
        info->strategy = plan->strategy;
        info->shape = (pw_tile_shape)t->shape;
        info->tile_h = (int)t->h;
        info->tile_w = t->w;
        info->threads = (int)grid;
        info->threads_available = (int)(available ? available : grid);
        info->skew = t->skew;
        info->cells += cells;
        info->seconds += ms / 1e3;
    }
    if (st == PW_OK && info && pw_monitor_on(&plan->monitor)) pw_monitor_finish(&plan->monitor, info->cells, watch.side);
done:
    if (traced) {
        pw_status tst = pw_trace_close(plan, &a.trace, stream, st == PW_OK);
        if (st == PW_OK) st = tst;
    }
    pw_gpu_watch_close(&watch);
    pw_gpu_tasks_close(&tasks);
    pw_cuda_free(graph_dev, stream);
    pw_tile_graph_free(&graph);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    pw_cuda_free(progress, stream);
    pw_cuda_free(ticket, stream);
    pw_cuda_free(grid_barrier, stream);
    pw_cuda_free(error, stream);
    return st;
}


/* Progress counters of one pipelined launch at most (8 bytes each). */
#define PW_SWEEP_COUNTERS (1 << 20)

pw_status pw_cuda_launch_sweeps(const pw_plan *plan, const pw_kernel_desc *desc, const pw_kernel_set *k,
                                void *first_arg, int64_t sweeps, pw_run_info *info, pw_status (*before)(void *),
                                void *before_ctx)
{
    pw_status st = PW_OK;
    const int64_t n_rows = desc->tiling.n_rows;
    const int64_t batch = !desc->pipelined_sweeps ? 1 : n_rows >= PW_SWEEP_COUNTERS ? 1 : PW_SWEEP_COUNTERS / n_rows;
    for (int64_t done = 0; done < sweeps && st == PW_OK; done += batch) {
        if (before) st = before(before_ctx);
        PW_THEN(st, pw_cuda_launch(plan, desc, k, first_arg, done, sweeps - done < batch ? sweeps - done : batch, info));
    }
    return st;
}
