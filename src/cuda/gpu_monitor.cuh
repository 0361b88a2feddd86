/*
 * gpu_monitor.cuh - the progress hook and cancel flag on the GPU: the host half (the device half,
 * what a block writes and when, is device/monitor_device.cuh).
 *
 * While the kernel runs, the calling thread wakes every 10 ms (or the hook's interval, if
 * shorter), sums the blocks' tile counts from mapped host memory, calls the hook when its
 * interval has passed and looks at the caller's cancel flag.  To stop the run it copies
 * PW_CUDA_ERROR_CANCELLED into the run's error word on a non-blocking stream of its own, which
 * the copy engine does while the kernel runs; the kernel's waits see it and every block leaves.
 * An app's best-so-far function (SW) copies on the same stream.
 */
#ifndef PW_GPU_MONITOR_CUH
#define PW_GPU_MONITOR_CUH

#include <time.h>

#include <cuda_runtime.h>

#include "../core/monitor.h"
#include "../core/plan.h"
#include "../core/tiling.h"
#include "cuda_check.cuh"
#include "device/sync.cuh"

#define PW_GPU_MONITOR_POLL_NS 10000000LL /* 10 ms: how often the cancel flag is looked at */

struct pw_gpu_watch {
    const pw_monitor *m;          /* NULL: nothing watches this launch */
    unsigned long long *words;    /* mapped host memory, one per block */
    int64_t blocks;
    int *cancel_value;            /* pinned: PW_CUDA_ERROR_CANCELLED, the source of the copy */
    cudaStream_t side;            /* non-blocking: never waits for the run's stream */
    int64_t base, cells, tiles;   /* the launch: after base cells of the run, cells in tiles */
};

/* Set the watch up for a launch of `blocks` blocks over `sweeps` sweeps of tiling t, after `base`
 * cells of the run, and fill the kernel's side (dev->words: NULL when nothing watches). */
static inline pw_status pw_gpu_watch_open(pw_gpu_watch *w, const pw_plan *plan, const pw_tiling *t, int64_t sweeps,
                                          int64_t cells, int64_t blocks, int64_t base, pw_gpu_monitor *dev)
{
    *w = pw_gpu_watch{};
    dev->words = NULL;
    if (!pw_monitor_on(&plan->monitor)) return PW_OK;
    w->m = &plan->monitor;
    w->blocks = blocks;
    w->base = base;
    w->cells = cells;
    w->tiles = pw_tiling_tile_count(t, sweeps);
    pw_status st = pw_from_cuda(cudaHostAlloc((void **)&w->words, sizeof *w->words * (size_t)blocks, cudaHostAllocMapped));
    if (st == PW_OK) st = pw_from_cuda(cudaHostAlloc((void **)&w->cancel_value, sizeof(int), cudaHostAllocDefault));
    if (st == PW_OK) st = pw_from_cuda(cudaStreamCreateWithFlags(&w->side, cudaStreamNonBlocking));
    if (st != PW_OK) return st;
    *w->cancel_value = PW_CUDA_ERROR_CANCELLED;
    for (int64_t b = 0; b < blocks; b++) w->words[b] = 0;
    return pw_from_cuda(cudaHostGetDevicePointer((void **)&dev->words, w->words, 0));
}

static inline int64_t pw_gpu_watch_tiles(const pw_gpu_watch *w)
{
    unsigned long long n = 0;
    for (int64_t b = 0; b < w->blocks; b++) n += ((volatile unsigned long long *)w->words)[b];
    return (int64_t)n;
}

static inline int64_t pw_gpu_watch_cells(const void *p)
{
    const pw_gpu_watch *w = (const pw_gpu_watch *)p;
    return pw_monitor_cells_done(w->base, w->cells, w->tiles, pw_gpu_watch_tiles(w));
}

/* Wait until `done` (an event after the launch) has happened, reporting and looking at the cancel
 * flag; on a stop, the cancel value goes into the device word `error`.  Naps start at 20 us and
 * double up to 10 ms (or the hook's interval), so a short launch is not held up.  Without a
 * watch: a plain wait. */
static inline pw_status pw_gpu_watch_wait(pw_gpu_watch *w, cudaEvent_t done, int *error)
{
    if (!w->m) return pw_from_cuda(cudaEventSynchronize(done));
    const pw_monitor *m = w->m;
    const int64_t longest = m->fn && m->interval_ns < PW_GPU_MONITOR_POLL_NS ? m->interval_ns : PW_GPU_MONITOR_POLL_NS;
    int64_t nap_ns = 20000;
    bool stopping = false;
    for (;;) {
        cudaError_t e = cudaEventQuery(done);
        if (e == cudaSuccess) /* a cancel copied after the kernel ended still counts: land it first */
            return stopping ? pw_from_cuda(cudaStreamSynchronize(w->side)) : PW_OK;
        if (e != cudaErrorNotReady) return pw_from_cuda(e);
        const struct timespec nap = {0, (long)nap_ns};
        nanosleep(&nap, NULL);
        nap_ns = nap_ns * 2 < longest ? nap_ns * 2 : longest;
        if (stopping || !pw_monitor_tick(m, pw_gpu_watch_cells, w, w->side)) continue;
        pw_status st = pw_from_cuda(cudaMemcpyAsync(error, w->cancel_value, sizeof(int), cudaMemcpyHostToDevice, w->side));
        if (st != PW_OK) return st;
        stopping = true;
    }
}

/* After the run's stream has recorded `start` (its set-up before the kernel: the error word
 * cleared, buffers allocated): the monitor's stream waits for it, so a cancel or a best-score copy
 * never lands before the set-up. */
static inline pw_status pw_gpu_watch_after(pw_gpu_watch *w, cudaEvent_t start)
{
    return w->side ? pw_from_cuda(cudaStreamWaitEvent(w->side, start, 0)) : PW_OK;
}

static inline void pw_gpu_watch_close(pw_gpu_watch *w)
{
    if (w->side) {
        cudaStreamSynchronize(w->side);
        cudaStreamDestroy(w->side);
    }
    if (w->words) cudaFreeHost(w->words);
    if (w->cancel_value) cudaFreeHost(w->cancel_value);
    *w = pw_gpu_watch{};
}

#endif
