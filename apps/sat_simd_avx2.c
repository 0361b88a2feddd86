/* sat_simd_avx2.c - the integer SAT and INTHIST vector tile processors (sat_simd_kernel.h) for
 * avx2 (this file alone gets the instruction-set flags: CMakeLists.txt). */
#include <immintrin.h>

#include "sat_simd.h"

#define SS_SET avx2
#define VBYTES 32
#define SF_LANES_F32 8 /* literals: the lane shift and transpose names are pasted from them */
#define SF_LANES_F64 4
#define SS_STREAM(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (__m256i)(v))
#define SS_FENCE() _mm_sfence()
#define SF_GROUPS_SET PW_SAT_FLOAT_SIMD_GROUPS_AVX2

/* A vector's inputs widened to the output type (GCC 12 turns __builtin_convertvector's widening
 * into one lane at a time) */
#define SS_WIDEN_u8_i32(p) _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define SS_WIDEN_u8_i64(p) _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(ss_load32_(p)))
#define SS_WIDEN_u16_i32(p) _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define SS_WIDEN_u16_i64(p) _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define SS_WIDEN_i32_i32(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define SS_WIDEN_i32_i64(p) _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(const void *)(p)))

#include "sat_simd_set.h"
