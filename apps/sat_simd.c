/* sat_simd.c - choosing the integer SAT vector segment (sat_simd.h). */
#include "sat_simd.h"

pw_segment_fn pw_sat_simd_segment(pw_simd simd, pw_dtype in, pw_dtype out)
{
#ifdef PW_HAVE_X86_SIMD
#define SAT_PICK(SET)                                                                                  \
    if (in == PW_U8) return out == PW_I32 ? pw_sat_simd_u8_i32_##SET : out == PW_I64 ? pw_sat_simd_u8_i64_##SET : NULL; \
    if (in == PW_U16) return out == PW_I32 ? pw_sat_simd_u16_i32_##SET : out == PW_I64 ? pw_sat_simd_u16_i64_##SET : NULL; \
    if (in == PW_I32) return out == PW_I32 ? pw_sat_simd_i32_i32_##SET : out == PW_I64 ? pw_sat_simd_i32_i64_##SET : NULL; \
    return NULL;
    switch (simd) {
    case PW_SIMD_SSE41: SAT_PICK(sse41)
    case PW_SIMD_AVX2: SAT_PICK(avx2)
    case PW_SIMD_AVX512: SAT_PICK(avx512)
    default: return NULL;
    }
#undef SAT_PICK
#else
    (void)simd, (void)in, (void)out;
    return NULL;
#endif
}
