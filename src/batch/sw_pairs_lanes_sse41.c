/* sw_pairs_lanes_sse41.c - the CPU pairs kernel (sw_pairs_lanes_kernel.h) compiled for sse41 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../cpu/simd/ops16_sse41.h"
#define SW_PAIRS_LANES_FN pw_sw_pairs_lanes_sse41
#include "sw_pairs_lanes_kernel.h"
