/* device_buffer.cuh - a typed device allocation that frees itself (keeps the app glue short
 * and leak-free on every error path). */
#ifndef PW_DEVICE_BUFFER_CUH
#define PW_DEVICE_BUFFER_CUH

#include <cuda_runtime.h>
#include "../core/alloc.h"
#include "cuda_check.cuh"

/* PW_ERR_OUT_OF_MEMORY, before anything is allocated, when `bytes` exceed the device's free
 * memory: a run that cannot fit fails at once instead of half-way through its buffers. */
static inline pw_status pw_cuda_reserve(double bytes)
{
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    if (e != cudaSuccess) return pw_from_cuda(e);
    return bytes > (double)free_bytes ? PW_ERR_OUT_OF_MEMORY : PW_OK;
}

/* cudaMalloc through the library's allocation fault injection (core/alloc.h). */
static inline cudaError_t pw_cuda_malloc(void **ptr, size_t bytes)
{
    if (pw_debug_alloc_fails()) return cudaErrorMemoryAllocation;
    return cudaMalloc(ptr, bytes);
}

template <class T>
struct pw_device_buffer {
    T *ptr = nullptr;
    pw_device_buffer() = default;
    pw_device_buffer(const pw_device_buffer &) = delete;
    pw_device_buffer &operator=(const pw_device_buffer &) = delete;
    ~pw_device_buffer() { cudaFree(ptr); }

    pw_status alloc(size_t count) { return pw_from_cuda(pw_cuda_malloc((void **)&ptr, count * sizeof(T) + (count == 0))); }
    pw_status upload(const T *host, size_t count)
    {
        pw_status st = alloc(count);
        return st == PW_OK ? pw_from_cuda(cudaMemcpy(ptr, host, count * sizeof(T), cudaMemcpyHostToDevice)) : st;
    }
    pw_status download(T *host, size_t count) const
    {
        return pw_from_cuda(cudaMemcpy(host, ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
};

/* Chain statuses: run the next step only while everything before succeeded. */
#define PW_THEN(st, expr) \
    if ((st) == PW_OK) (st) = (expr)

#endif
