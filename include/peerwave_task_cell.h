/*
 * peerwave_task_cell.h - the language of a task function: your own task graph's tasks, compiled
 * at run time for the CPU task engine (the system C compiler) and for the GPU task engine (NVRTC)
 * from one text (peerwave_tasks.h: pw_task_fn_create, pw_tasks_run_fn; docs/EXTENDING.md,
 * "Task functions").  The library puts this header before the text, so a task file needs no
 * #include.  A task file defines
 *
 *     PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)
 *
 * run once for each task: a static task's index (spawned 0) or a spawned task's payload
 * (spawned 1), after every predecessor of a static task has finished (and with their writes
 * visible).  On the GPU a whole thread block runs each call: split the work with
 * pw_task_thread(t) and pw_task_threads(t) and order it with pw_task_sync(t) (every thread must
 * reach it); on the CPU one thread runs it (thread 0 of 1; pw_task_sync does nothing).  Example:
 *
 *     PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)
 *     {
 *         double *x = (double *)pw_task_buffer(t, 0);
 *         const int64_t n = pw_task_int(t, 0);
 *         for (int64_t i = pw_task_thread(t); i < n; i += pw_task_threads(t))
 *             x[task * n + i] = 2.0 * x[task * n + i] + pw_task_real(t, 0);
 *     }
 *
 * What a task sees: the run's buffers (pw_task_buffer(t, k): host arrays the caller gave, copied
 * to the GPU and back), integer and real parameters (pw_task_int, pw_task_real), and the helpers
 * below.  The text must be valid C and valid CUDA C++: no C library calls but the maths both have,
 * no static data.  Tasks that run at the same time must not write the same memory except through
 * pw_task_atomic_add.
 */
#ifndef PEERWAVE_TASK_CELL_H
#define PEERWAVE_TASK_CELL_H

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
/* NVRTC: after src/cuda/device/task_queue.cuh (the engine: pw_task_state, pw_task_push). */
#define PW_TASK_FN static __device__ __forceinline__
#define PW_TASK_ON_GPU 1

typedef struct pw_task_ctx {
    void *const *buffers;
    const int64_t *ints;
    const double *reals;
    const pw_task_state *state;
    int home;
} pw_task_ctx;

PW_TASK_FN int pw_task_thread(const pw_task_ctx *t) { (void)t; return (int)threadIdx.x; }
PW_TASK_FN int pw_task_threads(const pw_task_ctx *t) { (void)t; return (int)blockDim.x; }
PW_TASK_FN void pw_task_sync(const pw_task_ctx *t) { (void)t; __syncthreads(); }
/* A new task with this payload (0 <= payload < 2^62), ready at once; 0, or -1 for a payload out
 * of range or queues that are full (the run then fails).  Any thread may call it; each call is
 * one task.  It orders only the calling thread's writes before the task: call pw_task_sync
 * first when the task reads what other threads of the block wrote. */
PW_TASK_FN int pw_task_spawn(pw_task_ctx *t, int64_t payload)
{
    if (payload < 0 || payload >= PW_TASK_PAYLOAD_LIMIT) return -1;
    atomicAdd(t->state->remaining, 1ULL); /* before it can finish */
    __threadfence();                      /* this thread's writes before the task's push */
    return pw_task_push(*t->state, t->home, (long long)payload | PW_TASK_SPAWNED) ? 0 : -1;
}
/* *p += v, atomically; the old value. */
PW_TASK_FN int64_t pw_task_atomic_add(int64_t *p, int64_t v)
{
    return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
#else
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#define PW_TASK_FN static inline
#define PW_TASK_ON_GPU 0

typedef struct pw_task_ctx {
    void *const *buffers;
    const int64_t *ints;
    const double *reals;
    int (*spawn)(void *engine, int64_t payload); /* the library's */
    void *engine;
} pw_task_ctx;

PW_TASK_FN int pw_task_thread(const pw_task_ctx *t) { (void)t; return 0; }
PW_TASK_FN int pw_task_threads(const pw_task_ctx *t) { (void)t; return 1; }
PW_TASK_FN void pw_task_sync(const pw_task_ctx *t) { (void)t; }
PW_TASK_FN int pw_task_spawn(pw_task_ctx *t, int64_t payload)
{
    return payload < 0 || payload >= ((int64_t)1 << 62) ? -1 : t->spawn(t->engine, payload); /* the GPU's limit too */
}
PW_TASK_FN int64_t pw_task_atomic_add(int64_t *p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
#endif

/* Buffer k's data, integer parameter k, real parameter k (k below the counts the run was given). */
PW_TASK_FN void *pw_task_buffer(const pw_task_ctx *t, int k) { return t->buffers[k]; }
PW_TASK_FN int64_t pw_task_int(const pw_task_ctx *t, int k) { return t->ints[k]; }
PW_TASK_FN double pw_task_real(const pw_task_ctx *t, int k) { return t->reals[k]; }

#endif
