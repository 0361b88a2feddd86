/* sw_simd_avx2.c - the SW vector tile processor (sw_simd_kernel.h) compiled for avx2 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_avx2.h"
#include "sw_simd.h"
#define SW_SIMD_TILE pw_sw_simd_tile_avx2
#define SW_GROUPS PW_SW_SIMD_GROUPS_AVX2 /* sw_simd.h */
#include "sw_simd_kernel.h"
