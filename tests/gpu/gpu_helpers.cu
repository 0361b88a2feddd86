/* gpu_helpers.cu - what test_gpu (plain C) needs from the CUDA runtime: device copies and a
 * stream for the device-pointer API, free device memory, and a kernel that occupies most SMs for
 * a while on its own non-blocking stream, so a PeerWave run can start while the GPU is mostly
 * taken (forward progress must not depend on all of our blocks being resident). */
#include <cuda_runtime.h>

static cudaStream_t hog_stream;

__global__ void hog_kernel(long long ns)
{
    extern __shared__ unsigned char hog_smem[];
    long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        hog_smem[threadIdx.x] = (unsigned char)threadIdx.x; /* keep the allocation live */
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

/* Occupy all but `free_sms` SMs (two 1024-thread blocks with ~100 KB of shared memory each fill
 * an SM's threads) for `ms` milliseconds.  Returns the SMs taken, or -1. */
extern "C" int pw_test_hog_start(int free_sms, int ms)
{
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return -1;
    int take = sms - free_sms;
    if (take < 1) return -1;
    size_t smem = 100 * 1024;
    if (cudaFuncSetAttribute(hog_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess ||
        cudaStreamCreateWithFlags(&hog_stream, cudaStreamNonBlocking) != cudaSuccess)
        return -1;
    hog_kernel<<<2 * take, 1024, smem, hog_stream>>>((long long)ms * 1000000);
    return cudaGetLastError() == cudaSuccess ? take : -1;
}

/* Free device memory in bytes (to check that failed runs leave nothing allocated). */
extern "C" long long pw_test_device_free(void)
{
    size_t free_bytes = 0, total = 0;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&free_bytes, &total);
    return (long long)free_bytes;
}

extern "C" long long pw_test_device_total(void)
{
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    return (long long)total;
}

/* 1 if the hog kernel is still running. */
extern "C" int pw_test_hog_running(void) { return cudaStreamQuery(hog_stream) == cudaErrorNotReady; }

extern "C" int pw_test_hog_finish(void)
{
    cudaError_t e = cudaStreamSynchronize(hog_stream);
    cudaStreamDestroy(hog_stream);
    return e == cudaSuccess ? 0 : -1;
}

extern "C" void *pw_test_to_device(const void *host, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess) return NULL;
    cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice);
    return d;
}

extern "C" int pw_test_from_device(void *host, const void *dev, size_t bytes)
{
    return cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

extern "C" void pw_test_device_release(void *dev) { cudaFree(dev); }

extern "C" void *pw_test_stream_create(void)
{
    cudaStream_t s = NULL;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return (void *)s;
}

extern "C" void pw_test_stream_destroy(void *s) { cudaStreamDestroy((cudaStream_t)s); }

/* The device's compute capability major (9: Hopper, with DPX in hardware), or -1. */
extern "C" int pw_test_compute_major(void)
{
    int major = 0;
    return cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess ? major : -1;
}
