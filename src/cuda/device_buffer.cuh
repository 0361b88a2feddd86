/* device_buffer.cuh - a typed device allocation that frees itself (keeps the app glue short
 * and leak-free on every error path). */
#ifndef PW_DEVICE_BUFFER_CUH
#define PW_DEVICE_BUFFER_CUH

#include <cuda_runtime.h>
#include "../core/alloc.h"
#include "../core/image.h"
#include "../core/plan.h"
#include "cuda_check.cuh"

/* PW_ERR_OUT_OF_MEMORY, before anything is allocated, when `bytes` exceed the device's free
 * memory: a run that cannot fit fails at once instead of half-way through its buffers.  Free
 * counts what the device's stream-ordered pool holds unused as well: an earlier run's buffers
 * go back to the pool (cudaFreeAsync after its last synchronisation), which keeps them from the
 * driver's count until it trims, and this run's allocations take them from the pool first (a
 * one-GPU SAT of 127 GB, then bands on the same H200, were refused with 22.6 of 150 GB "free"). */
static inline pw_status pw_cuda_reserve(double bytes)
{
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    if (e != cudaSuccess) return pw_from_cuda(e);
    int device = 0;
    cudaMemPool_t pool;
    unsigned long long reserved = 0, used = 0; /* (cuuint64_t, as the attributes are) */
    /* (the device's current pool, which cudaMallocAsync draws from: the caller may have set one;
     * unused bytes there are an estimate -- fragments -- and an allocation that still fails
     * returns PW_ERR_OUT_OF_MEMORY) */
    if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetMemPool(&pool, device) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess) {
        if (reserved > used) free_bytes += (size_t)(reserved - used);
    } else {
        cudaGetLastError(); /* (a pool query that failed leaves the count as the driver gave it) */
    }
    if (bytes <= (double)free_bytes) return PW_OK;
    pw_set_error_detail("the run needs %.2f GB on the GPU, which has %.2f GB free of %.2f GB", bytes / 1e9,
                        (double)free_bytes / 1e9, (double)total / 1e9);
    return PW_ERR_OUT_OF_MEMORY;
}

/* Stream-ordered allocation (no device-wide synchronisation on free, so a run never stalls
 * other streams' work), through the library's allocation fault injection (core/alloc.h). */
static inline cudaError_t pw_cuda_malloc(void **ptr, size_t bytes, cudaStream_t stream)
{
    if (pw_debug_alloc_fails()) return cudaErrorMemoryAllocation;
    return cudaMallocAsync(ptr, bytes ? bytes : 1, stream);
}

static inline void pw_cuda_free(void *ptr, cudaStream_t stream)
{
    if (ptr) cudaFreeAsync(ptr, stream);
}

/* Everything on one stream: allocation, copies, kernels and the free. */
template <class T>
struct pw_device_buffer {
    T *ptr = nullptr;
    cudaStream_t stream;
    explicit pw_device_buffer(cudaStream_t s) : stream(s) {}
    pw_device_buffer(const pw_device_buffer &) = delete;
    pw_device_buffer &operator=(const pw_device_buffer &) = delete;
    ~pw_device_buffer() { pw_cuda_free(ptr, stream); }

    pw_status alloc(size_t count) { return pw_from_cuda(pw_cuda_malloc((void **)&ptr, count * sizeof(T), stream)); }
    pw_status upload(const T *host, size_t count)
    {
        pw_status st = alloc(count);
        return st == PW_OK ? pw_from_cuda(cudaMemcpyAsync(ptr, host, count * sizeof(T), cudaMemcpyHostToDevice, stream)) : st;
    }
    /* Returns when the data is on the host. */
    pw_status download(T *host, size_t count) const { return pw_download(host, ptr, count * sizeof(T), stream); }

    static pw_status pw_download(void *host, const void *dev, size_t bytes, cudaStream_t s)
    {
        pw_status st = pw_from_cuda(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s));
        return st == PW_OK ? pw_from_cuda(cudaStreamSynchronize(s)) : st;
    }
};

static inline cudaStream_t pw_plan_stream(const pw_plan *plan) { return (cudaStream_t)plan->stream; }

/* The warps a batch kernel (a warp a pair) gets a row of `bottom` for, `row_bytes` each (0: no
 * rows needed): as many as the GPU holds, halved while the rows would pass 1 GiB, never fewer
 * than an SM a warp (the batch engines: batch_dtw.cu, pairs_sw.cu). */
static inline int64_t pw_bottom_warps(int64_t resident, int sms, double row_bytes)
{
    int64_t warps = resident;
    while (row_bytes > 0 && warps > sms && (double)warps * row_bytes > (double)(1 << 30)) warps /= 2;
    return warps;
}

/* Chain statuses: run the next step only while everything before succeeded. */
#define PW_THEN(st, expr) \
    if ((st) == PW_OK) (st) = (expr)

/* Copy a host image to a dense device array (row by row if strided) and back. */
static inline pw_status upload_image(const pw_image *img, pw_device_buffer<unsigned char> &buf)
{
    size_t es = pw_dtype_size(img->type), row = (size_t)img->cols * es;
    pw_status st = buf.alloc((size_t)img->rows * row);
    PW_THEN(st, pw_from_cuda(cudaMemcpy2DAsync(buf.ptr, row, img->data, (size_t)pw_image_stride(img) * es, row,
                                               (size_t)img->rows, cudaMemcpyHostToDevice, buf.stream)));
    return st;
}

static inline pw_status download_image(const pw_device_buffer<unsigned char> &buf, pw_image *img)
{
    size_t es = pw_dtype_size(img->type), row = (size_t)img->cols * es;
    pw_status st = pw_from_cuda(cudaMemcpy2DAsync(img->data, (size_t)pw_image_stride(img) * es, buf.ptr, row, row,
                                                  (size_t)img->rows, cudaMemcpyDeviceToHost, buf.stream));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(buf.stream)));
    return st;
}

#endif
