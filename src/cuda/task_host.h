/*
 * task_host.h - the host side of the GPU task engine (device/task_queue.cuh): its queues and
 * shared words in device memory, a static graph copied in, the ready tasks put on the queues
 * before the launch.  Users: the tasks schedule of every app (launch.cu) and breadth-first
 * search (bfs_gpu.cu).  Everything is ordered on one stream.
 */
#ifndef PW_TASK_HOST_H
#define PW_TASK_HOST_H

#include <cuda_runtime.h>

#include "device/task_queue.cuh"
#include "peerwave.h"

/* A static graph in host memory (task_queue.cuh: pw_task_state): count tasks, deps[k]
 * predecessors each, successors in CSR.  count 0: none (only spawned tasks). */
struct pw_gpu_task_graph {
    long long count;
    const int32_t *deps;
    const int64_t *succ_at, *succ;
};

struct pw_gpu_tasks {
    pw_task_state s; /* device pointers, for the kernel */
    void *mem;       /* one allocation holds everything but the error word */
    cudaStream_t stream;
};

/* Queues: one per SM of `device` (distributed), or one (central).  max_ready bounds the tasks
 * ready at once (the queues hold at least that many in all; more fails the run with
 * PW_ERR_OUT_OF_MEMORY).  The graph's tasks with no predecessor, and `spawned_roots` spawned
 * tasks with payloads 0 .. spawned_roots - 1, are on the queues when this returns (spread over
 * them).  error: the run's error word (zeroed by the caller). */
pw_status pw_gpu_tasks_open(pw_gpu_tasks *t, int device, int central, long long max_ready,
                            const pw_gpu_task_graph *g, long long spawned_roots, int *error, long long watchdog_ns,
                            cudaStream_t stream);
void pw_gpu_tasks_close(pw_gpu_tasks *t);

/* After the kernel: tasks finished and steals (either may be NULL).  Synchronises the stream. */
pw_status pw_gpu_tasks_counts(const pw_gpu_tasks *t, long long *finished, long long *steals);

/* What the run's error word says: PW_OK, PW_ERR_TIMEOUT, PW_ERR_CANCELLED or (queues full)
 * PW_ERR_OUT_OF_MEMORY with its detail. */
pw_status pw_gpu_tasks_status(int error_word);

#endif
