/* sw_striped_sse41.c - the striped SW kernel (sw_striped_kernel.h) compiled for sse41 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../src/cpu/simd/ops16_sse41.h"
#define SW_STRIPED_FN pw_sw_striped_sse41
#include "sw_striped_kernel.h"
