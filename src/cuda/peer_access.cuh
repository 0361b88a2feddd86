/*
 * peer_access.cuh - one GPU reaching another's memory: what the bands (gpu_band.cuh) and the SW
 * warp-rows engine over several GPUs (sw_warp_rows_gpus.cu) share.
 */
#ifndef PW_CUDA_PEER_ACCESS_CUH
#define PW_CUDA_PEER_ACCESS_CUH

#include <cuda_runtime.h>

#include "cuda_check.cuh"

/* Let GPU `from` (the current device) read and write `to`'s memory: peer access, and the
 * stream-ordered pool's allocations (cudaMallocAsync, where the bands' and the warp-rows engine's
 * storage comes from) do not follow peer access but their pool's own access list. */
static inline pw_status pw_cuda_reach(int from, int to)
{
    cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) e = cudaSuccess, (void)cudaGetLastError();
    cudaMemPool_t pool;
    if (e == cudaSuccess) e = cudaDeviceGetMemPool(&pool, to);
    cudaMemAccessDesc access = {};
    access.location.type = cudaMemLocationTypeDevice;
    access.location.id = from;
    access.flags = cudaMemAccessFlagsProtReadWrite;
    if (e == cudaSuccess) e = cudaMemPoolSetAccess(pool, &access, 1);
    return pw_from_cuda(e);
}

#endif
