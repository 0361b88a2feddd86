/* sw_striped_avx2.c - the striped SW kernel (sw_striped_kernel.h) compiled for avx2 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_avx2.h"
#define SW_STRIPED_FN pw_sw_striped_avx2
#include "sw_striped_kernel.h"
