/* sat_simd_avx512.c - the integer SAT and INTHIST vector tile processors (sat_simd_kernel.h) for
 * avx512 (this file alone gets the instruction-set flags: CMakeLists.txt). */
#include <immintrin.h>

#include "sat_simd.h"

#define SS_SET avx512
#define VBYTES 64
#define SF_LANES_F32 16 /* literals: the lane shift and transpose names are pasted from them */
#define SF_LANES_F64 8
#define SS_STREAM(p, v) _mm512_stream_si512((void *)(p), (__m512i)(v))
#define SS_FENCE() _mm_sfence()
#define SF_GROUPS_SET PW_SAT_FLOAT_SIMD_GROUPS_AVX512

/* A vector's inputs widened to the output type (GCC 12 turns __builtin_convertvector's widening
 * into one lane at a time) */
#define SS_WIDEN_u8_i32(p) _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define SS_WIDEN_u8_i64(p) _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(p)))
#define SS_WIDEN_u16_i32(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define SS_WIDEN_u16_i64(p) _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define SS_WIDEN_i32_i32(p) _mm512_loadu_si512((const void *)(p))
#define SS_WIDEN_i32_i64(p) _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(p)))

#include "sat_simd_set.h"
