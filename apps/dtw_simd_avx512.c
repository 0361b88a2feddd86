/* dtw_simd_avx512.c - the DTW vector tile processor (dtw_simd_kernel.h) for avx512, f32 and f64 (this
 * file alone gets the instruction-set flags: CMakeLists.txt). */
#include <stdint.h>

#define VBYTES 64

#define DS_T float
#define DS_I int32_t
#define DS_SUF f32
#define DS_LANES 16
#define DS_NAME pw_dtw_simd_tile_f32_avx512
#include "dtw_simd_kernel.h"

#define DS_T double
#define DS_I int64_t
#define DS_SUF f64
#define DS_LANES 8
#define DS_NAME pw_dtw_simd_tile_f64_avx512
#include "dtw_simd_kernel.h"
