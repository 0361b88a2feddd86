/* cuda_check.cuh - CUDA errors become pw_status values; no exit, no printing. */
#ifndef PW_CUDA_CHECK_CUH
#define PW_CUDA_CHECK_CUH

#include <cuda_runtime.h>
#include "../core/status_detail.h"
#include "peerwave.h"

static inline pw_status pw_from_cuda(cudaError_t e)
{
    if (e != cudaSuccess) pw_set_error_detail("%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
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

#endif
