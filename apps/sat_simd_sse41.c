/* sat_simd_sse41.c - the integer SAT and INTHIST vector tile processors (sat_simd_kernel.h) for
 * sse41 (this file alone gets the instruction-set flags: CMakeLists.txt). */
#include <smmintrin.h>

#include "sat_simd.h"

#define SS_SET sse41
#define VBYTES 16
#define SF_LANES_F32 4 /* literals: the lane shift and transpose names are pasted from them */
#define SF_LANES_F64 2
#define SS_STREAM(p, v) _mm_stream_si128((__m128i *)(void *)(p), (__m128i)(v))
#define SS_FENCE() _mm_sfence()
#define SF_GROUPS_SET PW_SAT_FLOAT_SIMD_GROUPS_SSE41

/* A vector's inputs widened to the output type (GCC 12 turns __builtin_convertvector's widening
 * into one lane at a time) */
#define SS_WIDEN_u8_i32(p) _mm_cvtepu8_epi32(_mm_cvtsi32_si128(ss_load32_(p)))
#define SS_WIDEN_u8_i64(p) _mm_cvtepu8_epi64(_mm_cvtsi32_si128(ss_load16_(p)))
#define SS_WIDEN_u16_i32(p) _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define SS_WIDEN_u16_i64(p) _mm_cvtepu16_epi64(_mm_cvtsi32_si128(ss_load32_(p)))
#define SS_WIDEN_i32_i32(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SS_WIDEN_i32_i64(p) _mm_cvtepi32_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(p)))

#include "sat_simd_set.h"
