/* device_buffer.cuh - a typed device allocation that frees itself (keeps the app glue short
 * and leak-free on every error path). */
#ifndef PW_DEVICE_BUFFER_CUH
#define PW_DEVICE_BUFFER_CUH

#include <cuda_runtime.h>
#include "cuda_check.cuh"

template <class T>
struct pw_device_buffer {
    T *ptr = nullptr;
    pw_device_buffer() = default;
    pw_device_buffer(const pw_device_buffer &) = delete;
    pw_device_buffer &operator=(const pw_device_buffer &) = delete;
    ~pw_device_buffer() { cudaFree(ptr); }

    pw_status alloc(size_t count) { return pw_from_cuda(cudaMalloc(&ptr, count * sizeof(T) + (count == 0))); }
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
