/*
 * nccl_hop.cu - NCCL's point-to-point hand-over between two GPUs of one host, beside our own
 * (bench/peer_hop.cu), so that issue 29's single-process mode can take "NCCL's group or CUDA
 * peer-to-peer with the same counter protocol, whichever measures faster" from a measurement.
 *
 * 1. Latency and bandwidth: one process drives both GPUs (ncclCommInitAll).  Rounds of ping-pong
 *    are queued on each GPU's stream: GPU 0 sends P bytes and GPU 1 receives them, then GPU 1
 *    sends and GPU 0 receives.  Each GPU's stream orders its own send after its receive, so the
 *    messages form one chain of 2 x rounds hops; the time of the chain (CUDA events) over 2 x
 *    rounds is one hop.  Every payload is checked at the end (the last round's words).
 * 2. Room for NCCL beside a persistent kernel: NCCL moves data with kernels of its own, which need
 *    SMs.  A "hog" kernel fills all but `free` SMs of each GPU with blocks that spin until a host
 *    flag says stop, the way a band's persistent peer kernel holds its SMs while it waits for its
 *    neighbour's column.  The hop is timed again with free = 0, 1, 2 and 8 SMs: with none free,
 *    NCCL cannot progress until the hog stops (the hop is then bounded by a timeout, reported as
 *    "blocked"), which is what a band that keeps no SMs for NCCL would meet.
 * A CMake target where NCCL is found (its compile is checked in CI); on the device:
 *   ./build-gpu/nccl_hop [rounds]      (exit 77 where there are fewer than two GPUs)
 */
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_check.h"

#define CHECK(x) CUDA_CHECK("nccl_hop", x)
#define NCHECK(x)                                                                                  \
    do {                                                                                           \
        ncclResult_t r_ = (x);                                                                     \
        if (r_ != ncclSuccess) {                                                                   \
            fprintf(stderr, "nccl_hop: %s: %s\n", #x, ncclGetErrorString(r_));                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Blocks that hold their SMs until *stop (host memory, mapped) becomes nonzero.  Launched with
 * as much shared memory as one block may have, so that each takes a whole SM. */
__global__ void hog(volatile int *stop)
{
    if (threadIdx.x == 0)
        while (!*stop) __nanosleep(1000);
    __syncthreads();
}

/* Fill payload with the words of round r from `side` (0, 1), and count wrong words of a payload
 * that should hold them. */
__global__ void fill(unsigned *payload, size_t words, unsigned r, unsigned side)
{
    for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < words; w += (size_t)gridDim.x * blockDim.x)
        payload[w] = r * 2654435761u + side * 40503u + (unsigned)w;
}
__global__ void check(const unsigned *payload, size_t words, unsigned r, unsigned side, int *wrong)
{
    for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < words; w += (size_t)gridDim.x * blockDim.x)
        if (payload[w] != r * 2654435761u + side * 40503u + (unsigned)w) atomicAdd(wrong, 1);
}

struct side {
    int device;
    ncclComm_t comm;
    cudaStream_t stream;
    unsigned *send, *recv;
    int *wrong;
};

/* rounds of ping-pong of `bytes` bytes; seconds a hop, or a negative value when the chain did
 * not finish within timeout_s (NCCL could not progress). */
static double hop_seconds(side *s, size_t bytes, int rounds, double timeout_s)
{
    const size_t words = bytes / sizeof(unsigned);
    for (int d = 0; d < 2; d++) {
        CHECK(cudaSetDevice(s[d].device));
        CHECK(cudaMemsetAsync(s[d].recv, 0, bytes, s[d].stream)); /* (no earlier chain's words count) */
        fill<<<64, 256, 0, s[d].stream>>>(s[d].send, words, (unsigned)rounds, (unsigned)d);
        CHECK(cudaMemsetAsync(s[d].wrong, 0, sizeof(int), s[d].stream));
    }
    cudaEvent_t t0, t1;
    CHECK(cudaSetDevice(s[0].device));
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0, s[0].stream));
    for (int r = 0; r < rounds; r++) {
        for (int dir = 0; dir < 2; dir++) { /* 0 -> 1, then 1 -> 0 */
            NCHECK(ncclGroupStart());
            NCHECK(ncclSend(s[dir].send, bytes, ncclChar, 1 - dir, s[dir].comm, s[dir].stream));
            NCHECK(ncclRecv(s[1 - dir].recv, bytes, ncclChar, dir, s[1 - dir].comm, s[1 - dir].stream));
            NCHECK(ncclGroupEnd());
        }
    }
    CHECK(cudaEventRecord(t1, s[0].stream));
    const struct timespec nap = {0, 100000};
    struct timespec began, now;
    clock_gettime(CLOCK_MONOTONIC, &began);
    cudaError_t e;
    while ((e = cudaEventQuery(t1)) == cudaErrorNotReady) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - began.tv_sec) + 1e-9 * (double)(now.tv_nsec - began.tv_nsec) > timeout_s) {
            CHECK(cudaEventDestroy(t0)); /* (the chain completes later, once the caller frees the SMs) */
            CHECK(cudaEventDestroy(t1));
            return -1;
        }
        nanosleep(&nap, NULL);
    }
    CHECK(e);
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    for (int d = 0; d < 2; d++) {
        CHECK(cudaSetDevice(s[d].device));
        check<<<64, 256, 0, s[d].stream>>>(s[d].recv, words, (unsigned)rounds, (unsigned)(1 - d), s[d].wrong);
        int wrong = 0;
        CHECK(cudaMemcpyAsync(&wrong, s[d].wrong, sizeof(int), cudaMemcpyDeviceToHost, s[d].stream));
        CHECK(cudaStreamSynchronize(s[d].stream));
        if (wrong) {
            fprintf(stderr, "nccl_hop: %d words of %zu arrived wrong on GPU %d\n", wrong, words, s[d].device);
            exit(1);
        }
    }
    CHECK(cudaSetDevice(s[0].device));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    return ms * 1e-3 / (2.0 * rounds);
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0; /* (no driver: no GPU) */
    if (count < 2) {
        printf("SKIP: %d GPU(s); the hop needs two\n", count);
        return 77;
    }
    if (rounds < 1) {
        fprintf(stderr, "nccl_hop: rounds must be at least 1\n");
        return 2;
    }
    const size_t max_bytes = 64u << 20;
    side s[2];
    int devices[2] = {0, 1};
    ncclComm_t comms[2];
    NCHECK(ncclCommInitAll(comms, 2, devices));
    for (int d = 0; d < 2; d++) {
        s[d].device = d;
        s[d].comm = comms[d];
        CHECK(cudaSetDevice(d));
        CHECK(cudaStreamCreateWithFlags(&s[d].stream, cudaStreamNonBlocking));
        CHECK(cudaMalloc(&s[d].send, max_bytes));
        CHECK(cudaMalloc(&s[d].recv, max_bytes));
        CHECK(cudaMalloc(&s[d].wrong, sizeof(int)));
    }
    int version = 0;
    NCHECK(ncclGetVersion(&version));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s x2, NCCL %d, %d ping-pong rounds a size (ncclSend/ncclRecv, one process)\n", prop.name, version, rounds);
    printf("%10s %12s %14s\n", "payload", "hop (us)", "hop GB/s");
    const size_t sizes[] = {8, 256, 4096, 65536, 1u << 20, 64u << 20};
    for (int k = 0; k < 6; k++) {
        const int r = sizes[k] >= (1u << 20) ? (rounds / 100 > 10 ? rounds / 100 : 10) : rounds;
        const double warm = hop_seconds(s, sizes[k], r < 10 ? r : 10, 30); /* (the first makes NCCL's connections) */
        const double t = warm < 0 ? warm : hop_seconds(s, sizes[k], r, 60);
        if (t < 0) {
            printf("%9zuB did not finish (%s)\n", sizes[k], warm < 0 ? "warm-up, 30 s" : "60 s");
            return 1;
        }
        printf("%9zuB %12.2f %14.2f\n", sizes[k], t * 1e6, (double)sizes[k] / t * 1e-9);
    }

    /* beside a persistent kernel that keeps all but `free` SMs */
    int *stop;
    CHECK(cudaHostAlloc((void **)&stop, sizeof(int), cudaHostAllocMapped));
    int *stop_dev;
    CHECK(cudaHostGetDevicePointer((void **)&stop_dev, stop, 0));
    printf("%10s %12s   (a kernel holding all SMs but these, 256 B payload)\n", "free SMs", "hop (us)");
    const int frees[] = {0, 1, 2, 8};
    for (int k = 0; k < 4; k++) {
        *stop = 0;
        for (int d = 0; d < 2; d++) {
            CHECK(cudaSetDevice(d));
            int sms = 0, smem = 0;
            CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
            CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, d));
            CHECK(cudaFuncSetAttribute(hog, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            /* a block an SM (the shared memory of a whole SM each): `free` SMs stay empty */
            const int blocks = sms - frees[k];
            if (blocks > 0) hog<<<blocks, 1024, (size_t)smem>>>((volatile int *)stop_dev); /* (the legacy stream: not NCCL's) */
            CHECK(cudaGetLastError());
        }
        /* few rounds: the queued NCCL calls must not fill the launch queue while they cannot run */
        const double t = hop_seconds(s, 256, 50, 5);
        *stop = 1;
        for (int d = 0; d < 2; d++) {
            CHECK(cudaSetDevice(d));
            CHECK(cudaDeviceSynchronize());
        }
        if (t < 0) printf("%10d %12s   (NCCL made no progress while the kernel held the SMs)\n", frees[k], "blocked");
        else printf("%10d %12.2f\n", frees[k], t * 1e6);
    }
    for (int d = 0; d < 2; d++) NCHECK(ncclCommDestroy(s[d].comm));
    return 0;
}
