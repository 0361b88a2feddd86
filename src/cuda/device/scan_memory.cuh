/*
 * scan_memory.cuh - 4-element loads and stores of up to 16 bytes, for the prefix-sum processor and its
 * input sources (one access of 4 consecutive elements a thread: full-width rows).
 */
#ifndef PW_DEVICE_SCAN_MEMORY_CUH
#define PW_DEVICE_SCAN_MEMORY_CUH

#include "../../core/fixed_width.h"

/* The raw type of 4 elements of T, for vector loads and stores of up to 16 bytes. */
template <int Bytes> struct pw_raw4;
template <> struct pw_raw4<4> { typedef unsigned type; };
template <> struct pw_raw4<8> { typedef uint2 type; };
template <> struct pw_raw4<16> { typedef uint4 type; };

/* Load 4 elements of T at p, 4-element aligned.  Coherent: through L2 (data other blocks wrote
 * during this kernel). */
template <class T, bool Coherent>
__device__ __forceinline__ void pw_load4(const T *p, T v[4])
{
    if constexpr (sizeof(T) * 4 <= 16) {
        typedef typename pw_raw4<(int)sizeof(T) * 4>::type R;
        R r = Coherent ? __ldcg((const R *)p) : *(const R *)p;
        memcpy(v, &r, sizeof r);
    } else { /* 8-byte elements: two 16-byte halves */
        const uint4 *q = (const uint4 *)p;
        uint4 r[2] = {Coherent ? __ldcg(q) : q[0], Coherent ? __ldcg(q + 1) : q[1]};
        memcpy(v, r, sizeof r);
    }
}

/* Store 4 elements of T (4 or 8 bytes) at p, 4-element aligned, as 16-byte stores, written in
 * PTX: the C++ form (a uint4 assembled by memcpy, stored through a uint4 pointer) came out of
 * the scan kernels as four 4-byte stores, so each warp's row touched 4x the L2 sectors it
 * filled (ncu, INTHIST 32768^2 at 1853629: 1.6 G excess sectors, L2 at 79% of its throughput
 * and DRAM at 44%). */
template <class T>
__device__ __forceinline__ void pw_store4(T *p, const T v[4])
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte elements");
    if constexpr (sizeof(T) == 4) {
        uint32_t w[4];
        memcpy(w, v, sizeof w);
        asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
    } else {
        unsigned long long w[4];
        memcpy(w, v, sizeof w);
        asm volatile("st.global.v2.b64 [%0], {%1, %2};" ::"l"(p), "l"(w[0]), "l"(w[1]) : "memory");
        asm volatile("st.global.v2.b64 [%0], {%1, %2};" ::"l"(p + 2), "l"(w[2]), "l"(w[3]) : "memory");
    }
}

#endif
