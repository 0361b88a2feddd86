/* sw_pairs_lanes_avx512.c - the CPU pairs kernel (sw_pairs_lanes_kernel.h) compiled for avx512 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../cpu/simd/ops16_avx512.h"
#define SW_PAIRS_LANES_FN pw_sw_pairs_lanes_avx512
#include "sw_pairs_lanes_kernel.h"
