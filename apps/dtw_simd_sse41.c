/* dtw_simd_sse41.c - the DTW vector tile processor (dtw_simd_kernel.h) for sse41, f32 and f64 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include <stdint.h>

#define VBYTES 16

#define DS_T float
#define DS_I int32_t
#define DS_SUF f32
#define DS_LANES 4
#define DS_NAME pw_dtw_simd_tile_f32_sse41
#include "dtw_simd_kernel.h"

#define DS_T double
#define DS_I int64_t
#define DS_SUF f64
#define DS_LANES 2
#define DS_NAME pw_dtw_simd_tile_f64_sse41
#include "dtw_simd_kernel.h"
