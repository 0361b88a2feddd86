/*
 * npp_integral.c - the NPP comparator for SAT u8 -> i32 (issue 6): nppiIntegral_8u32s_C1R_Ctx
 * on an N x N image of 0/1 pixels resident on the device, CUDA events, median of RUNS after a
 * warm-up.  Its table (N+1 x N+1, a zero first row and column) is checked against PeerWave's
 * CUDA SAT of the same image: two independent computations that must agree bit for bit.
 *   bench_npp_integral [N] [RUNS]       prints one line: npp_integral N ms Gpix/s check
 */
#include <cuda_runtime_api.h>
#include <nppi_statistics_functions.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 16384, runs = argc > 2 ? atoi(argv[2]) : 7;
    if (n < 1 || n > 46340 || runs < 1 || runs > 64) return fprintf(stderr, "bad arguments\n"), 2;
    size_t cells = (size_t)n * (size_t)n, out_cells = (size_t)(n + 1) * (size_t)(n + 1);
    uint8_t *img = malloc(cells);
    int32_t *npp = malloc(out_cells * 4), *ours = malloc(cells * 4);
    if (!img || !npp || !ours) return fprintf(stderr, "out of memory\n"), 1;
    uint64_t x = 88172645463325252ULL;
    for (size_t k = 0; k < cells; k++) x ^= x << 13, x ^= x >> 7, x ^= x << 17, img[k] = (uint8_t)(x & 1);
    Npp8u *d_in;
    Npp32s *d_out;
    if (cudaMalloc((void **)&d_in, cells) || cudaMalloc((void **)&d_out, out_cells * 4)) return fprintf(stderr, "cudaMalloc failed\n"), 1;
    cudaMemcpy(d_in, img, cells, cudaMemcpyHostToDevice);

    NppStreamContext ctx;
    memset(&ctx, 0, sizeof ctx);
    struct cudaDeviceProp prop;
    cudaGetDevice(&ctx.nCudaDeviceId);
    cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId);
    ctx.hStream = 0;
    ctx.nMultiProcessorCount = prop.multiProcessorCount;
    ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
    ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
    ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    NppiSize roi = {n, n};
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float t[64];
    for (int r = 0; r <= runs; r++) {
        cudaEventRecord(e0, 0);
        NppStatus s = nppiIntegral_8u32s_C1R_Ctx(d_in, n, d_out, (n + 1) * 4, roi, 0, ctx);
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        if (s != NPP_SUCCESS) return fprintf(stderr, "nppiIntegral_8u32s_C1R_Ctx: status %d\n", (int)s), 1;
        if (r > 0) cudaEventElapsedTime(&t[r - 1], e0, e1);
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_float);
    float ms = t[runs / 2];
    cudaMemcpy(npp, d_out, out_cells * 4, cudaMemcpyDeviceToHost);

    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CUDA;
    pw_image in = {PW_U8, n, n, 0, img}, out = {PW_I32, n, n, 0, ours};
    pw_run_info info;
    pw_status st = pw_sat(&in, &out, &o, &info);
    long long differ = 0;
    for (int64_t i = 0; i < n && st == PW_OK; i++)
        for (int64_t j = 0; j < n; j++) differ += npp[(i + 1) * (n + 1) + j + 1] != ours[i * n + j];
    printf("npp_integral %d %.4f ms %.2f Gpix/s check %s\n", n, ms, (double)cells / (ms * 1e-3) / 1e9,
           st != PW_OK ? "peerwave-failed" : differ ? "DIFFERS" : "ok");
    return st == PW_OK && !differ ? 0 : 1;
}
