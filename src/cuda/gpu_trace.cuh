/*
 * gpu_trace.cuh - per-tile timing on the GPU for pw_options.trace: the host half (the device half,
 * the records and how a block writes them, is device/trace_device.cuh).
 * The buffer is sized here from the tiling (every tile is recorded exactly once), copied back
 * after the kernel and handed to the user's sink from the calling thread.
 */
#ifndef PW_GPU_TRACE_CUH
#define PW_GPU_TRACE_CUH

#include <cuda_runtime.h>

#include "../core/alloc.h"
#include "device/trace_device.cuh"
#include "../core/plan.h"
#include "../core/tiling.h"
#include "cuda_check.cuh"
#include "device_buffer.cuh"

/* Host: allocate the buffer when the plan has a sink (else leave tracing off): one record per tile
 * and sweep (pipelined sweeps report tile_row = sweep * n_rows + r). */
static inline pw_status pw_trace_open(const pw_plan *plan, const pw_tiling *tiling, int64_t sweeps, pw_gpu_trace *tr,
                                      cudaStream_t stream)
{
    tr->records = NULL;
    tr->count = NULL;
    tr->capacity = 0;
    if (!plan->trace) return PW_OK;
    tr->capacity = pw_tiling_tile_count(tiling, sweeps);
    pw_status st = pw_cuda_reserve((double)tr->capacity * sizeof(pw_gpu_trace_record));
    if (st != PW_OK) return st;
    st = pw_from_cuda(pw_cuda_malloc((void **)&tr->count, sizeof *tr->count, stream));
    if (st == PW_OK) st = pw_from_cuda(cudaMemsetAsync(tr->count, 0, sizeof *tr->count, stream));
    if (st == PW_OK)
        st = pw_from_cuda(pw_cuda_malloc((void **)&tr->records, sizeof(pw_gpu_trace_record) * (size_t)tr->capacity, stream));
    return st;
}

/* Host, after the kernel: copy the records back and deliver them, times in ns since the first
 * wait of the run; free the buffers either way.  deliver = 0 only frees (a failed run). */
static inline pw_status pw_trace_close(const pw_plan *plan, pw_gpu_trace *tr, cudaStream_t stream, int deliver)
{
    pw_status st = PW_OK;
    pw_gpu_trace_record *host = NULL;
    unsigned long long n = 0;
    if (tr->records && deliver) {
        st = pw_from_cuda(cudaMemcpyAsync(&n, tr->count, sizeof n, cudaMemcpyDeviceToHost, stream));
        if (st == PW_OK) st = pw_from_cuda(cudaStreamSynchronize(stream));
        if (st == PW_OK && (long long)n != tr->capacity) { /* every tile is recorded exactly once */
            pw_set_error_detail("trace: %llu of %lld tiles recorded", n, tr->capacity);
            st = PW_ERR_CUDA;
        }
        if (st == PW_OK) {
            host = (pw_gpu_trace_record *)pw_malloc(sizeof *host * (size_t)(n ? n : 1));
            if (!host) st = PW_ERR_OUT_OF_MEMORY;
        }
        if (st == PW_OK)
            st = pw_from_cuda(cudaMemcpyAsync(host, tr->records, sizeof *host * (size_t)n, cudaMemcpyDeviceToHost, stream));
        if (st == PW_OK) st = pw_from_cuda(cudaStreamSynchronize(stream));
        if (st == PW_OK) {
            long long origin = n ? host[0].wait_ns : 0;
            for (unsigned long long k = 0; k < n; k++)
                if (host[k].wait_ns < origin) origin = host[k].wait_ns;
            for (unsigned long long k = 0; k < n; k++) {
                pw_trace_record rec;
                rec.worker = host[k].block;
                rec.tile_row = host[k].tile_row;
                rec.tile_col = host[k].tile_col;
                rec.wait_ns = host[k].wait_ns - origin;
                rec.start_ns = host[k].start_ns - origin;
                rec.end_ns = host[k].end_ns - origin;
                plan->trace(plan->trace_user, &rec);
            }
        }
    }
    free(host);
    pw_cuda_free(tr->records, stream);
    pw_cuda_free(tr->count, stream);
    tr->records = NULL;
    tr->count = NULL;
    return st;
}

#endif
