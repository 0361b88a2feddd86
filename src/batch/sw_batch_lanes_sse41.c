/* sw_batch_lanes_sse41.c - the CPU batch kernel (sw_batch_lanes_kernel.h) compiled for sse41 (this file
 * alone gets the instruction-set flags: CMakeLists.txt). */
#include "../cpu/simd/ops16_sse41.h"
#define SW_BATCH_LANES_FN pw_sw_batch_lanes_sse41
#include "sw_batch_lanes_kernel.h"
