/*
 * sat_simd.h - vector segments for summed-area tables of integers on the CPU (SSE4.1, AVX2,
 * AVX-512): a row segment is a row prefix sum (in-register prefix over a vector's lanes, then the
 * running carry) plus the row above.  Integer sums are exact in any order, and every partial sum
 * is a sum over a sub-rectangle (a row prefix, or a whole SAT entry), so no value that the scalar
 * cell could hold without overflow overflows here.  Float outputs keep the scalar cells: their sums
 * depend on the order, and the scalar order along a row is a chain.
 */
#ifndef PW_SAT_SIMD_H
#define PW_SAT_SIMD_H

#include <stdint.h>

#include "peerwave.h"
#include "../src/core/exec.h"

/* The context of every SAT segment, scalar or vector (sat.c). */
typedef struct sat_ctx {
    const void *in;
    int64_t in_stride;
    void *out;
    int64_t out_stride;
} sat_ctx;

/* The vector segment for this pair on this set, or NULL (no such segment: the scalar cells). */
pw_segment_fn pw_sat_simd_segment(pw_simd simd, pw_dtype in, pw_dtype out);

/* One per set, input and output type (sat_simd_<set>.c); in: u8, u16, i32; out: i32, i64. */
#define PW_SAT_SIMD_DECLARE(SET)                                                     \
    void pw_sat_simd_u8_i32_##SET(void *, int64_t, int64_t, int64_t, int);          \
    void pw_sat_simd_u8_i64_##SET(void *, int64_t, int64_t, int64_t, int);          \
    void pw_sat_simd_u16_i32_##SET(void *, int64_t, int64_t, int64_t, int);         \
    void pw_sat_simd_u16_i64_##SET(void *, int64_t, int64_t, int64_t, int);         \
    void pw_sat_simd_i32_i32_##SET(void *, int64_t, int64_t, int64_t, int);         \
    void pw_sat_simd_i32_i64_##SET(void *, int64_t, int64_t, int64_t, int);
PW_SAT_SIMD_DECLARE(sse41)
PW_SAT_SIMD_DECLARE(avx2)
PW_SAT_SIMD_DECLARE(avx512)

#endif
