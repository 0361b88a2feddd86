/* dtw_simd_avx2.c - the DTW vector tile processor (dtw_simd_kernel.h) for avx2, f32 and f64 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include <stdint.h>

#define VBYTES 32

#define DS_T float
#define DS_I int32_t
#define DS_SUF f32
#define DS_LANES 8
#define DS_NAME pw_dtw_simd_tile_f32_avx2
#include "dtw_simd_kernel.h"

#define DS_T double
#define DS_I int64_t
#define DS_SUF f64
#define DS_LANES 4
#define DS_NAME pw_dtw_simd_tile_f64_avx2
#include "dtw_simd_kernel.h"
