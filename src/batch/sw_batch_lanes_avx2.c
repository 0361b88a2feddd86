/* sw_batch_lanes_avx2.c - the CPU batch kernel (sw_batch_lanes_kernel.h) compiled for avx2 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../cpu/simd/ops16_avx2.h"
#define SW_BATCH_LANES_FN pw_sw_batch_lanes_avx2
#include "sw_batch_lanes_kernel.h"
