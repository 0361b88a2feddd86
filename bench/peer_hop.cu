/*
 * peer_hop.cu - the cost of one hand-over between two GPUs of one host (issue 29): what a band's
 * direct hand-over does after each tile-row, with no computation.  Two one-block kernels, one on
 * each GPU, play ping-pong N times: each writes a payload of P bytes and then a flag into the
 * OTHER GPU's memory (peer stores over NVLink, a release at system scope), and polls its OWN
 * memory for the other's flag (acquire at system scope), as gpu_band.cuh's pushes do.  Half the
 * round trip is one hop's latency L, the figure the fill model of docs/DISTRIBUTED.md needs.
 * Then the bandwidth of bulk peer copies (cudaMemcpyPeerAsync) for the size of a grid's halo.
 * Standalone (not part of the library build):
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o peer_hop bench/peer_hop.cu && ./peer_hop [N]
 */
#include <cuda/atomic>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"

typedef unsigned long long u64;

#define CHECK(x) CUDA_CHECK("peer_hop", x)

/* One side: `serve` 0 starts (pings), 1 answers.  mine: this GPU's flag and payload (written by
 * the other side); theirs: the other GPU's.  Payload words carry the round so a stale payload
 * is caught (a wrong answer sets *bad). */
__global__ void pingpong(u64 *my_flag, u64 *my_payload, u64 *their_flag, u64 *their_payload, int words, int rounds,
                         int serve, int *bad)
{
    cuda::atomic_ref<u64, cuda::thread_scope_system> mine(*my_flag), theirs(*their_flag);
    for (int r = 1; r <= rounds; r++) {
        if (serve == 1 || r > 1) { /* wait for the other's round r (server) or r - 1's answer (client) */
            const u64 want = serve == 1 ? (u64)r : (u64)(r - 1);
            if (threadIdx.x == 0)
                while (mine.load(cuda::memory_order_acquire) < want) {
                }
            __syncthreads();
            for (int w = threadIdx.x; w < words; w += blockDim.x)
                if (((volatile u64 *)my_payload)[w] != want * 1000003ull + (u64)w) atomicExch(bad, 1);
        }
        const u64 send = (u64)r;
        for (int w = threadIdx.x; w < words; w += blockDim.x) their_payload[w] = send * 1000003ull + (u64)w;
        __syncthreads();
        if (threadIdx.x == 0) {
            cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
            theirs.store(send, cuda::memory_order_relaxed);
        }
    }
    if (serve == 0) { /* the last answer */
        if (threadIdx.x == 0)
            while (mine.load(cuda::memory_order_acquire) < (u64)rounds) {
            }
    }
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 20000;
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("SKIP: %d GPU(s); the hop needs two\n", count);
        return 77;
    }
    int access = 0;
    CHECK(cudaDeviceCanAccessPeer(&access, 0, 1));
    if (!access) {
        printf("GPU 0 cannot reach GPU 1's memory (no peer access)\n");
        return 1;
    }
    const int max_words = 8192; /* 64 KiB */
    u64 *flag[2], *payload[2];
    int *bad[2];
    cudaStream_t stream[2];
    for (int d = 0; d < 2; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaDeviceEnablePeerAccess(1 - d, 0));
        CHECK(cudaMalloc(&flag[d], 128));
        CHECK(cudaMalloc(&payload[d], sizeof(u64) * max_words));
        CHECK(cudaMalloc(&bad[d], sizeof(int)));
        CHECK(cudaStreamCreateWithFlags(&stream[d], cudaStreamNonBlocking));
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s x2, %d ping-pong rounds a size (one block of 256 threads on each GPU)\n", prop.name, rounds);
    printf("%10s %12s %14s\n", "payload", "hop (us)", "hop GB/s");
    const int sizes[] = {1, 32, 512, 8192};
    for (int s = 0; s < 4; s++) {
        const int words = sizes[s];
        double best = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            for (int d = 0; d < 2; d++) {
                CHECK(cudaSetDevice(d));
                CHECK(cudaMemset(flag[d], 0, 128));
                CHECK(cudaMemset(bad[d], 0, sizeof(int)));
                CHECK(cudaDeviceSynchronize());
            }
            cudaEvent_t t0, t1;
            CHECK(cudaSetDevice(0));
            CHECK(cudaEventCreate(&t0));
            CHECK(cudaEventCreate(&t1));
            /* the server first: it must be running before the client's first ping needs it */
            CHECK(cudaSetDevice(1));
            pingpong<<<1, 256, 0, stream[1]>>>(flag[1], payload[1], flag[0], payload[0], words, rounds, 1, bad[1]);
            CHECK(cudaSetDevice(0));
            CHECK(cudaEventRecord(t0, stream[0]));
            pingpong<<<1, 256, 0, stream[0]>>>(flag[0], payload[0], flag[1], payload[1], words, rounds, 0, bad[0]);
            CHECK(cudaEventRecord(t1, stream[0]));
            CHECK(cudaEventSynchronize(t1));
            CHECK(cudaSetDevice(1));
            CHECK(cudaStreamSynchronize(stream[1]));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, t0, t1));
            int wrong[2] = {0, 0};
            for (int d = 0; d < 2; d++) CHECK(cudaMemcpy(&wrong[d], bad[d], sizeof(int), cudaMemcpyDeviceToHost));
            if (wrong[0] || wrong[1]) {
                printf("payload of %d words arrived wrong (a stale or torn hand-over)\n", words);
                return 1;
            }
            const double hop = ms * 1e-3 / (2.0 * rounds);
            if (hop < best) best = hop;
            CHECK(cudaEventDestroy(t0));
            CHECK(cudaEventDestroy(t1));
        }
        printf("%9dB %12.2f %14.2f\n", words * 8, best * 1e6, words * 8 / best * 1e-9);
    }
    /* bulk: what a halo of a large grid or a whole band edge costs */
    printf("%10s %12s %14s\n", "copy", "time (us)", "GB/s");
    const size_t bulk_sizes[] = {64u << 10, 1u << 20, 64u << 20, 512u << 20};
    void *src, *dst;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&src, bulk_sizes[3]));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&dst, bulk_sizes[3]));
    CHECK(cudaSetDevice(0));
    for (int s = 0; s < 4; s++) {
        cudaEvent_t t0, t1;
        CHECK(cudaEventCreate(&t0));
        CHECK(cudaEventCreate(&t1));
        float times[7];
        for (int rep = 0; rep < 7; rep++) {
            CHECK(cudaEventRecord(t0, stream[0]));
            CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, bulk_sizes[s], stream[0]));
            CHECK(cudaEventRecord(t1, stream[0]));
            CHECK(cudaEventSynchronize(t1));
            CHECK(cudaEventElapsedTime(&times[rep], t0, t1));
        }
        for (int a = 0; a < 7; a++) /* (median of 7) */
            for (int b = a + 1; b < 7; b++)
                if (times[b] < times[a]) { float t = times[a]; times[a] = times[b]; times[b] = t; }
        printf("%9zuK %12.1f %14.1f\n", bulk_sizes[s] >> 10, times[3] * 1e3, bulk_sizes[s] / (times[3] * 1e-3) * 1e-9);
        CHECK(cudaEventDestroy(t0));
        CHECK(cudaEventDestroy(t1));
    }
    return 0;
}
