/*
 * memory.cuh - the memory operations the device code is built from, as PTX: acquire, release
 * and relaxed accesses at gpu scope (the progress counters and the tagged words), coherent L2
 * loads, asynchronous copies to shared memory and the global timer.
 *
 * Written as inline PTX rather than through <cuda/atomic> so that the device headers compile
 * under NVRTC with no include path (kernels compiled at run time, src/jit/): the instructions are
 * the ones libcu++'s cuda::atomic_ref<T, thread_scope_device> emits for the same orders.
 */
#ifndef PW_DEVICE_MEMORY_CUH
#define PW_DEVICE_MEMORY_CUH

#include "../../core/fixed_width.h"

typedef unsigned long long pw_counter;

/* What a run's error word says (0: nothing wrong); every block leaves when it is set. */
#define PW_CUDA_ERROR_TIMEOUT 1
#define PW_CUDA_ERROR_CANCELLED 2  /* written by the host (gpu_monitor.cuh) */
#define PW_CUDA_ERROR_QUEUE_FULL 3 /* the task engine's queues all full (task_queue.cuh) */

/* ld.acquire.gpu: later loads of this thread see what the releasing writer wrote before. */
__device__ __forceinline__ unsigned long long pw_load_acquire(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* st.release.gpu: the writes this thread (and, cumulatively, those a barrier ordered before it)
 * made before are visible to an acquire that reads v. */
__device__ __forceinline__ void pw_store_release(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* Morally strong 64-bit accesses with no order (single-copy atomic): the tagged words. */
__device__ __forceinline__ unsigned long long pw_load_relaxed(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void pw_store_relaxed(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* The grid barrier's word (sync.cuh): an arrival that releases, polls that acquire. */
__device__ __forceinline__ unsigned pw_atomic_add_release_u32(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
/* A dependency counter's decrement (task_queue.cuh): it releases what this thread (and, through a
 * barrier before it, its block) wrote, and acquires what the counter's earlier decrements released
 * -- so the thread that brings it to zero, and its block after a barrier, read every predecessor's
 * data with plain loads. */
__device__ __forceinline__ int pw_atomic_add_acq_rel_s32(int *p, int v)
{
    int old;
    asm volatile("atom.acq_rel.gpu.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

/* A release store at system scope: a word another GPU waits on (a band's counters: sync.cuh). */
__device__ __forceinline__ void pw_store_release_sys(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* ... at system scope: a word another GPU (or the host) writes (a band's counters: sync.cuh). */
__device__ __forceinline__ unsigned long long pw_load_acquire_sys(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* 32-bit words another GPU writes or reads (the SW warp-rows engine over several GPUs). */
__device__ __forceinline__ unsigned pw_load_acquire_sys_u32(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void pw_store_release_sys_u32(unsigned *p, unsigned v)
{
    asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned pw_load_acquire_u32(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void pw_store_release_u32(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* Sets a run's error word to `why` unless it says something already: the first reason stays (a
 * watchdog timeout does not hide the cancel the host wrote a moment before). */
__device__ __forceinline__ void pw_raise_error(int *error, int why) { atomicCAS(error, 0, why); }

__device__ __forceinline__ long long pw_globaltimer()
{
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Coherent (L2) load of data another block may have written. */
template <class T>
__device__ __forceinline__ T pw_load_cg(const T *p)
{
    T v;
    static_assert(sizeof(T) % 4 == 0, "cells are whole 32-bit words");
    const unsigned *src = (const unsigned *)p;
    unsigned *dst = (unsigned *)&v;
#pragma unroll
    for (int k = 0; k < (int)(sizeof(T) / 4); k++) dst[k] = __ldcg(src + k);
    return v;
}

/* Asynchronous copy of one cell from global to shared memory (cp.async, sm_80+): it lands while
 * the issuing thread goes on, holding no register; pw_copy_async_wait<N> waits until at most the
 * N newest groups (pw_copy_async_commit) are still on their way, after which the cells are the
 * issuing thread's to publish (a barrier).  `inside` false writes zeros and reads nothing.
 * .ca (the only form for 4- and 8-byte cells) may keep the line in L1: fine for data no other
 * block changes while this one may read it again, or read after an acquire (which empties L1). */
template <class T>
__device__ __forceinline__ void pw_copy_async(T *dst, const T *src, bool inside)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a 4- or 8-byte cell");
    const unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(to), "l"(src), "n"((int)sizeof(T)),
                 "r"(inside ? (int)sizeof(T) : 0)
                 : "memory");
}
__device__ __forceinline__ void pw_copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void pw_copy_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

/* A value of whole 32-bit words through a shuffle of one word, word by word. */
template <class V, class Shuffle>
__device__ __forceinline__ V pw_shfl_words(const V &v, Shuffle shuffle)
{
    static_assert(sizeof(V) % 4 == 0, "whole 32-bit words");
    V out;
    const int *src = (const int *)&v;
    int *dst = (int *)&out;
#pragma unroll
    for (int w = 0; w < (int)(sizeof(V) / 4); w++) dst[w] = shuffle(src[w]);
    return out;
}

/* Shuffle a value one thread up the warp (WarpProc, Warp3Proc; an app whose next lane needs only
 * part of a value shuffles that part: App::shfl_up_value). */
template <class V>
__device__ __forceinline__ V pw_shfl_up(const V &v)
{
    return pw_shfl_words(v, [](int word) { return __shfl_up_sync(0xffffffffu, word, 1); });
}

/* ... and one thread up with lane 0 taking lane 31's (Warp3Proc's chains: lane 0's next row). */
template <class V>
__device__ __forceinline__ V pw_shfl_rotate(const V &v)
{
    const int from = (int)((threadIdx.x + 31) & 31);
    return pw_shfl_words(v, [from](int word) { return __shfl_sync(0xffffffffu, word, from); });
}

#endif
