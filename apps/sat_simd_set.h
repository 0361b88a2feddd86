/*
 * sat_simd_set.h - every integer SAT / INTHIST vector tile processor of one instruction set
 * (sat_simd_kernel.h).  The set's file defines VBYTES, SS_SET (its name: sse41, avx2, avx512),
 * SS_STREAM(p, v), SS_FENCE(), SS_WIDEN_<in>_<out>(p) for the six pairs, and SF_GROUPS_SET (the
 * float processor's groups), SF_LANES_F32 and SF_LANES_F64, then includes this.
 */
#include <stdint.h>
#include <string.h>

#define SS_SET_CAT2(a, b) a##b
#define SS_SET_CAT(a, b) SS_SET_CAT2(a, b)
#define SS_SET_NAME(pair) SS_SET_CAT(SS_SET_CAT(pw_sat_simd_, pair), SS_SET_CAT(_, SS_SET))

/* loads of 4 and 2 bytes for the narrow widenings */
static inline int ss_load32_(const void *p)
{
    int v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline int ss_load16_(const void *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

#define SS_IN uint8_t
#define SS_OUT int32_t
#define SS_LANES (VBYTES / 4)
#define SS_WIDEN SS_WIDEN_u8_i32
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(u8_i32)
#include "sat_simd_kernel.h"

#define SS_IN uint8_t
#define SS_OUT int64_t
#define SS_LANES (VBYTES / 8)
#define SS_WIDEN SS_WIDEN_u8_i64
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(u8_i64)
#include "sat_simd_kernel.h"

#define SS_IN uint16_t
#define SS_OUT int32_t
#define SS_LANES (VBYTES / 4)
#define SS_WIDEN SS_WIDEN_u16_i32
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(u16_i32)
#include "sat_simd_kernel.h"

#define SS_IN uint16_t
#define SS_OUT int64_t
#define SS_LANES (VBYTES / 8)
#define SS_WIDEN SS_WIDEN_u16_i64
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(u16_i64)
#include "sat_simd_kernel.h"

#define SS_IN int32_t
#define SS_OUT int32_t
#define SS_LANES (VBYTES / 4)
#define SS_WIDEN SS_WIDEN_i32_i32
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(i32_i32)
#include "sat_simd_kernel.h"

#define SS_IN int32_t
#define SS_OUT int64_t
#define SS_LANES (VBYTES / 8)
#define SS_WIDEN SS_WIDEN_i32_i64
#define SS_INDICATOR 0
#define SS_NAME SS_SET_NAME(i32_i64)
#include "sat_simd_kernel.h"

#define SS_IN int32_t
#define SS_OUT int32_t
#define SS_LANES (VBYTES / 4)
#define SS_WIDEN SS_WIDEN_i32_i32
#define SS_INDICATOR 1
#define SS_NAME SS_SET_NAME(inthist)
#include "sat_simd_kernel.h"

#define SF_T float
#define SF_SUF f32
#define SF_LANES SF_LANES_F32
#define SF_GROUPS SF_GROUPS_SET
#define SF_NAME SS_SET_NAME(f32_f32)
#include "sat_float_simd_kernel.h"

#define SF_T double
#define SF_SUF f64
#define SF_LANES SF_LANES_F64
#define SF_GROUPS SF_GROUPS_SET
#define SF_NAME SS_SET_NAME(f64_f64)
#include "sat_float_simd_kernel.h"
