/*
 * tagged_words.cuh - values that travel with the tag of their writer (NCCL's "LL" protocol):
 * every 32-bit word of a value in one 64-bit word, its writer's tag in the high half, moved whole
 * by a 64-bit access, which is single-copy atomic in the PTX memory model.  A reader polls the
 * words themselves until they carry the tag it expects: no release store (a MEMBAR.ALL.GPU on the
 * writer's path), no acquire (a second round trip before the data on the reader's), and a reader
 * may load early and simply load again what was not written yet.
 *
 * The words alone; which tag a writer uses and how a reader waits are the hand-over's business
 * (handover.cuh).
 */
#ifndef PW_DEVICE_TAGGED_WORDS_CUH
#define PW_DEVICE_TAGGED_WORDS_CUH

#include "memory.cuh"

/* T's 32-bit words, each in a 64-bit word with the tag of its writer (the high half). */
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
    for (int i = 0; i < pw_ll<T>::words; i++) pw_store_relaxed(&p->w[i], words.w[i]);
}

template <class T>
__device__ __forceinline__ pw_ll<T> pw_ll_load(const pw_ll<T> *p)
{
    pw_ll<T> out;
#pragma unroll
    for (int i = 0; i < pw_ll<T>::words; i++) out.w[i] = pw_load_relaxed(&p->w[i]);
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

#endif
