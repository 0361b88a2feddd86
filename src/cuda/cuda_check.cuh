/* cuda_check.cuh - CUDA errors become pw_status values; no exit, no printing. */
#ifndef PW_CUDA_CHECK_CUH
#define PW_CUDA_CHECK_CUH

#include <cuda_runtime.h>
#include "../core/status_detail.h"
#include "peerwave.h"

/* An error turned into a status is consumed: the runtime's last error is cleared (a sticky one,
 * a kernel's fault, stays anyway), so that a later launch check (cudaGetLastError) does not report
 * it again -- a failed cudaSetDevice(1) on a one-GPU host once failed the next search on GPU 0. */
static inline pw_status pw_from_cuda(cudaError_t e)
{
    if (e != cudaSuccess) {
        pw_set_error_detail("%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
        (void)cudaGetLastError();
    }
    switch (e) {
    case cudaSuccess: return PW_OK;
    case cudaErrorMemoryAllocation: return PW_ERR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorInsufficientDriver: return PW_ERR_NO_DEVICE;
    default: return PW_ERR_CUDA;
    }
}

/* Evaluate a CUDA call; on failure remember the status in `st` and jump to `label`. */
#define PW_CUDA_TRY(st, call, label)                     \
    do {                                                 \
        cudaError_t pw_e_ = (call);                      \
        if (pw_e_ != cudaSuccess) {                      \
            (st) = pw_from_cuda(pw_e_);                  \
            goto label;                                  \
        }                                                \
    } while (0)

/* Lets `kernel` take `smem` bytes of dynamic shared memory on the current device (above 48 KiB a
 * kernel must ask; without it an occupancy query says 0 blocks, and the warp-rows engine once
 * quietly fell back to its slower lanes: PERFORMANCE.md, session 15).  False where the device
 * cannot give that much (not sticky: cleared, the caller takes another kernel or refuses). */
static inline bool pw_allow_dynamic_smem(const void *kernel, size_t smem)
{
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) == cudaSuccess) return true;
    (void)cudaGetLastError();
    return false;
}

#endif
