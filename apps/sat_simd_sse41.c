/* sat_simd_sse41.c - the integer SAT vector segments (sat_simd_kernel.h) for sse41 (this file alone
 * gets the instruction-set flags: CMakeLists.txt). */
#include <stdint.h>

#define VBYTES 16

#define SS_IN uint8_t
#define SS_OUT int32_t
#define SS_LANES 4
#define SS_NAME pw_sat_simd_u8_i32_sse41
#include "sat_simd_kernel.h"

#define SS_IN uint8_t
#define SS_OUT int64_t
#define SS_LANES 2
#define SS_NAME pw_sat_simd_u8_i64_sse41
#include "sat_simd_kernel.h"

#define SS_IN uint16_t
#define SS_OUT int32_t
#define SS_LANES 4
#define SS_NAME pw_sat_simd_u16_i32_sse41
#include "sat_simd_kernel.h"

#define SS_IN uint16_t
#define SS_OUT int64_t
#define SS_LANES 2
#define SS_NAME pw_sat_simd_u16_i64_sse41
#include "sat_simd_kernel.h"

#define SS_IN int32_t
#define SS_OUT int32_t
#define SS_LANES 4
#define SS_NAME pw_sat_simd_i32_i32_sse41
#include "sat_simd_kernel.h"

#define SS_IN int32_t
#define SS_OUT int64_t
#define SS_LANES 2
#define SS_NAME pw_sat_simd_i32_i64_sse41
#include "sat_simd_kernel.h"
