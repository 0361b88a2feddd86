/*
 * prefix_sum_sources.cuh - what the prefix-sum processor sums (prefix_sum_proc.cuh, Src): SAT's
 * input converted to the output type, and INTHIST's bin indicators, one plane a bin.
 *
 * Src: struct raw (4 inputs as loaded); __device__ void fetch(int64_t i, int64_t j, int n, raw &r)
 * const: the n (1..4) inputs of row i from column j on; __device__ void convert(const raw &r, int
 * plane, Out v[4]) const: them as plane `plane`'s summands (inputs past n give 0); static constexpr
 * bool many_planes: whether it has more than one plane (one plane keeps its row carries in
 * registers from chunk to chunk).
 */
#ifndef PW_DEVICE_PREFIX_SUM_SOURCES_CUH
#define PW_DEVICE_PREFIX_SUM_SOURCES_CUH

#include "../../core/fixed_width.h"
#include "scan_memory.cuh"

/* The bin index of a value in no bin: all ones (-1 as int32_t, 255 as uint8_t, which holds the
 * indices of up to 255 bins). */
template <class B>
__host__ __device__ constexpr B pw_no_bin() { return (B)~(B)0; }

/* SAT input: row-major In at `in` with `stride`, converted to Out. vec: 4-element accesses are
 * aligned (checked on the host: pointer, stride and tile width). */
template <class In, class Out>
struct pw_sat_src {
    const In *in;
    int64_t stride;
    bool vec;
    static constexpr bool many_planes = false;
    struct raw { In x[4]; }; /* 4 inputs as loaded: held in registers while the chunk before runs */
    __device__ __forceinline__ void fetch(int64_t i, int64_t j, int n, raw &r) const
    {
        const In *p = in + i * stride + j;
        if (vec && n == 4) {
            pw_load4<In, false>(p, r.x);
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++) r.x[e] = e < n ? p[e] : (In)0;
        }
    }
    __device__ __forceinline__ void convert(const raw &r, int, Out v[4]) const
    {
#pragma unroll
        for (int e = 0; e < 4; e++) v[e] = (Out)r.x[e];
    }
};

/* INTHIST input: plane b is the indicator bin(i, j) == b of a dense rows x cols bin array of B
 * (device_prep.cuh: uint8_t for up to 255 bins, else int32_t; pw_no_bin<B>() for no bin). */
template <class B> struct pw_bin_raw { B x[4]; };
/* byte bins stay packed in one register: a prefetched chunk's 8 rows are 8 registers, not 32, in
 * kernels bound to 128 */
template <> struct pw_bin_raw<uint8_t> { uint32_t word; };

template <class B>
struct pw_bin_src {
    const B *bin;
    int64_t cols;
    bool vec;
    static constexpr bool many_planes = true;
    static constexpr bool packed = sizeof(B) == 1;
    typedef pw_bin_raw<B> raw; /* 4 inputs as loaded */
    __device__ __forceinline__ void fetch(int64_t i, int64_t j, int n, raw &r) const
    {
        const B *p = bin + i * cols + j;
        if constexpr (packed) {
            if (vec && n == 4) {
                r.word = *(const uint32_t *)p;
            } else {
                r.word = 0;
#pragma unroll
                for (int e = 0; e < 4; e++) r.word |= (uint32_t)(e < n ? p[e] : pw_no_bin<B>()) << 8 * e;
            }
        } else if (vec && n == 4) {
            pw_load4<B, false>(p, r.x);
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++) r.x[e] = e < n ? p[e] : pw_no_bin<B>();
        }
    }
    __device__ __forceinline__ void convert(const raw &r, int plane, int32_t v[4]) const
    {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            if constexpr (packed) v[e] = (r.word >> 8 * e & 0xffu) == (uint32_t)plane;
            else v[e] = r.x[e] == (B)plane;
        }
    }
};

#endif
