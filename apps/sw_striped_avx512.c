/* sw_striped_avx512.c - the striped SW kernel (sw_striped_kernel.h) compiled for avx512 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_avx512.h"
#define SW_STRIPED_FN pw_sw_striped_avx512
#include "sw_striped_kernel.h"
