/* sw_simd_sse41.c - the SW vector tile processor (sw_simd_kernel.h) compiled for sse41 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_sse41.h"
#include "sw_simd.h"
#define SW_SIMD_TILE pw_sw_simd_tile_sse41
#define SW_GROUPS PW_SW_SIMD_GROUPS_SSE41 /* sw_simd.h */
#include "sw_simd_kernel.h"
