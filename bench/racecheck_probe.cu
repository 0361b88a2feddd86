/*
 * bench/racecheck_probe.cu - does compute-sanitizer racecheck follow a producer/consumer
 * hand-over through named barriers (bar.arrive on one side, bar.sync on the other), the pattern
 * of the HEAT/SOR warp processor?  Three buffers pass between two warps: FULL (producer arrives,
 * consumer waits) and EMPTY (consumer arrives, producer waits), as src/cuda/device/stencil_warp_proc.cuh
 * passes its chunk buffers; an outer loop hands a __shared__ word round by __syncthreads as the
 * engine hands out tile-rows.  Every access below is ordered; a hazard racecheck reports here is
 * the tool's, not the code's.
 *   nvcc -arch=sm_90 -o /tmp/probe bench/racecheck_probe.cu && compute-sanitizer --tool racecheck /tmp/probe
 */
#include <stdio.h>
#include <stdlib.h>

__device__ void bar_sync(int id) { asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }
__device__ void bar_arrive(int id) { asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory"); }

__global__ void probe(int *out, int rounds)
{
    __shared__ int buf[3][32];
    __shared__ int row;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int sum = 0;
    for (int it = 0; it < 4; it++) {
        if (threadIdx.x == 0) row = it;
        __syncthreads();
        const int r = row;
        if (warp == 1) {
            for (int m = 0; m < rounds; m++) {
                if (m >= 3) bar_sync(4 + m % 3); /* EMPTY: the consumer is done with chunk m - 3 */
                buf[m % 3][lane] = m + r;
                bar_arrive(1 + m % 3); /* FULL */
            }
        } else {
            for (int n = 0; n < rounds; n++) {
                bar_sync(1 + n % 3);
                sum += buf[n % 3][(lane + 1) & 31];
                if (n + 3 < rounds) bar_arrive(4 + n % 3);
            }
        }
        __syncthreads();
    }
    if (warp == 0) out[lane] = sum;
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 10;
    int *out, host[32];
    cudaMalloc(&out, sizeof host);
    probe<<<2, 64>>>(out, rounds);
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    int want = 0; /* sum over it, n of n + it */
    for (int it = 0; it < 4; it++)
        for (int n = 0; n < rounds; n++) want += n + it;
    printf("probe: %s (%d, want %d)\n", host[0] == want ? "ok" : "WRONG", host[0], want);
    return host[0] != want;
}
