/*
 * handoff.cu - how long one tile-row takes to hand data to the next: a chain of N one-warp
 * blocks, each waiting for the previous one's progress counter, reading its 32-value payload,
 * then writing its own payload and publishing its counter (the peer schedule's per-chunk
 * protocol with no computation).  Kernel time / N is the latency of one hand-off.  Several ways
 * to poll and publish are compared (the runtime's counter waits use "acquire"; the SW/DTW warp
 * processor needs none of them, its bus words carry their writer's tile-row):
 *   acquire        ld.acquire.gpu polls, release store (fence.acq_rel + st.relaxed)
 *   relaxed+fence  ld.relaxed.gpu polls, one fence.acq_rel after the last, release store
 *   volatile       ld.volatile polls, __threadfence() + volatile store (the classic pattern)
 *   relaxed-only   relaxed polls and stores with no fences: NOT a correct protocol, the floor
 * each without sleeping and with the runtime's __nanosleep back-off (32 ns doubling to 1 us).
 * Standalone (not part of the library build):
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o handoff bench/handoff.cu && ./handoff [N]
 */
#include <cuda/atomic>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;
enum { ACQUIRE, RELAXED_FENCE, VOLATILE, RELAXED_ONLY, MODES };
static const char *mode_names[MODES] = {"acquire", "relaxed+fence", "volatile", "relaxed-only"};

__device__ __forceinline__ u64 poll(u64 *p, int mode)
{
    cuda::atomic_ref<u64, cuda::thread_scope_device> a(*p);
    if (mode == ACQUIRE) return a.load(cuda::memory_order_acquire);
    if (mode == VOLATILE) return *(volatile u64 *)p;
    return a.load(cuda::memory_order_relaxed);
}

__device__ __forceinline__ void publish(u64 *p, u64 v, int mode)
{
    cuda::atomic_ref<u64, cuda::thread_scope_device> a(*p);
    if (mode == VOLATILE) {
        __threadfence();
        *(volatile u64 *)p = v;
    } else {
        a.store(v, mode == RELAXED_ONLY ? cuda::memory_order_relaxed : cuda::memory_order_release);
    }
}

__global__ void chain(u64 *flags, float *payload, u64 *ticket, int mode, int sleep, float *sink)
{
    __shared__ long long row;
    if (threadIdx.x == 0) row = (long long)atomicAdd(ticket, 1ULL);
    __syncwarp();
    const long long r = row;
    float v = 0;
    if (r > 0) {
        if (threadIdx.x == 0) {
            unsigned ns = 32;
            while (poll(&flags[r - 1], mode) == 0) {
                if (sleep) {
                    __nanosleep(ns);
                    if (ns < 1024) ns *= 2;
                }
            }
            if (mode == RELAXED_FENCE) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        }
        __syncwarp();
        v = __ldcg(payload + (r - 1) * 32 + threadIdx.x);
    }
    payload[r * 32 + threadIdx.x] = v + 1;
    __syncwarp();
    if (threadIdx.x == 0) publish(&flags[r], 1, mode);
    if (v < 0) *sink = v; /* never: keeps v live */
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1024;
    u64 *flags, *ticket;
    float *payload, *sink;
    cudaMalloc(&flags, sizeof(u64) * n);
    cudaMalloc(&ticket, sizeof(u64));
    cudaMalloc(&payload, sizeof(float) * 32 * n);
    cudaMalloc(&sink, sizeof(float));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int mode = 0; mode < MODES; mode++) {
        for (int sleep = 0; sleep < 2; sleep++) {
            float best[7];
            for (int run = 0; run < 7; run++) {
                cudaMemset(flags, 0, sizeof(u64) * n);
                cudaMemset(ticket, 0, sizeof(u64));
                cudaEventRecord(a);
                chain<<<n, 32>>>(flags, payload, ticket, mode, sleep, sink);
                cudaEventRecord(b);
                cudaEventSynchronize(b);
                cudaEventElapsedTime(&best[run], a, b);
            }
            for (int i = 0; i < 7; i++) /* sort for the median */
                for (int j = i + 1; j < 7; j++)
                    if (best[j] < best[i]) { float t = best[i]; best[i] = best[j]; best[j] = t; }
            printf("handoff %-14s %-8s N=%d: %.3f ms, %.2f us a hand-off (median of 7)\n", mode_names[mode],
                   sleep ? "backoff" : "spin", n, best[3], best[3] * 1e3 / n);
        }
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { fprintf(stderr, "handoff: %s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
