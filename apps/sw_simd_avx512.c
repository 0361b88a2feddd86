/* sw_simd_avx512.c - the SW vector tile processor (sw_simd_kernel.h) compiled for avx512 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_avx512.h"
#define SW_SIMD_TILE pw_sw_simd_tile_avx512
#define SW_GROUPS 2
#include "sw_simd_kernel.h"
