/*
 * ll_bus.cuh - tagged words for handing values from one tile-row to the next without progress
 * counters (NCCL's "LL" protocol): every 32-bit word of a value travels with a tag naming its
 * writer (the tile-row, or the sweep) in one 64-bit word, moved whole by a 64-bit access, which
 * is single-copy atomic in the PTX memory model.  A reader polls the words themselves until they
 * carry the tag it expects: no release store (a MEMBAR.ALL.GPU on the writer's path), no acquire
 * (a second round trip before the data on the reader's), and a reader may load early and simply
 * load again what was not written yet.
 *
 * Used by the SW/DTW warp processor (the bus) and the HEAT/SOR warp processor (each tile-row's
 * last row, the edge the row below reads).  Why a reader never sees a word too new for it, and
 * why a writer's earlier plain loads cannot see the reader's later plain stores, is argued where
 * each is used.
 */
#ifndef PW_LL_BUS_CUH
#define PW_LL_BUS_CUH

#include <stdint.h>

#include "engine.cuh"

/* T's 32-bit words, each in a 64-bit word with the tag of its writer (the high half), stored and
 * loaded as morally strong (relaxed, gpu scope) 64-bit accesses. */
template <class T>
struct pw_ll {
    static_assert(sizeof(T) % 4 == 0, "whole 32-bit words");
    static constexpr int words = (int)(sizeof(T) / 4);
    unsigned long long w[words];
};

/* The words of v with `tag`, not stored (a value that needs no waiting). */
template <class T>
__device__ __forceinline__ pw_ll<T> pw_ll_pack(const T &v, uint32_t tag)
{
    pw_ll<T> out;
    const uint32_t *piece = (const uint32_t *)&v;
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++) out.w[i] = (unsigned long long)tag << 32 | piece[i];
    return out;
}

template <class T>
__device__ __forceinline__ void pw_ll_store(pw_ll<T> *p, const T &v, uint32_t tag)
{
    const pw_ll<T> words = pw_ll_pack(v, tag);
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++)
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(p->w[i]).store(words.w[i], cuda::memory_order_relaxed);
}

template <class T>
__device__ __forceinline__ pw_ll<T> pw_ll_load(const pw_ll<T> *p)
{
    pw_ll<T> out;
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++)
        out.w[i] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(const_cast<pw_ll<T> *>(p)->w[i])
                       .load(cuda::memory_order_relaxed);
    return out;
}

template <class T>
__device__ __forceinline__ bool pw_ll_ready(const pw_ll<T> &l, uint32_t tag)
{
    bool ready = true;
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++) ready &= (uint32_t)(l.w[i] >> 32) == tag;
    return ready;
}

template <class T>
__device__ __forceinline__ T pw_ll_value(const pw_ll<T> &l)
{
    T v;
    uint32_t *piece = (uint32_t *)&v;
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++) piece[i] = (uint32_t)l.w[i];
    return v;
}

/* One thread: make *word (loaded from p earlier, perhaps too early) carry `tag`, loading it again
 * while it does not (pw_poll: spin, back-off, watchdog).  false: the run is abandoned. */
template <class T>
__device__ __forceinline__ bool pw_ll_settle(const pw_engine_args &a, const pw_ll<T> *p, pw_ll<T> *word, uint32_t tag)
{
    return pw_ll_ready(*word, tag) || pw_poll(a, [&](pw_counter *seen) {
               *word = pw_ll_load(p);
               *seen = word->w[0] >> 32;
               return pw_ll_ready(*word, tag);
           });
}

/* The glue's copies between the app's bus and the processor's: before the run with the tag of
 * tile-row -1 (what row 0 reads), after it back. */
#define PW_LL_TAG_ABOVE_ROW0 0xffffffffu
template <class T>
__global__ void pw_ll_fill(pw_ll<T> *ll, const T *bus, int64_t n)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) pw_ll_store(ll + i, bus[i], PW_LL_TAG_ABOVE_ROW0);
}
template <class T>
__global__ void pw_ll_drain(const pw_ll<T> *ll, T *bus, int64_t n)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bus[i] = pw_ll_value(pw_ll_load(ll + i));
}

#endif
