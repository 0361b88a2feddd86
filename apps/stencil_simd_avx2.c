/* stencil_simd_avx2.c - the HEAT/SOR vector tile processor (stencil_simd_kernel.h) for avx2, f32 and
 * f64 (this file alone gets the instruction-set flags: CMakeLists.txt). */
#include "stencil_simd.h"

#define VBYTES 32

#define SK_T float
#define SK_SUF f32
#define SK_LANES 8
#define SK_GROUPS PW_STENCIL_SIMD_GROUPS_AVX2
#define SK_NAME pw_stencil_simd_tile_f32_avx2
#include "stencil_simd_kernel.h"

#define SK_T double
#define SK_SUF f64
#define SK_LANES 4
#define SK_GROUPS PW_STENCIL_SIMD_GROUPS_AVX2
#define SK_NAME pw_stencil_simd_tile_f64_avx2
#include "stencil_simd_kernel.h"
