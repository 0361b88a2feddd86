/* dtw.c - pw_dtw_f32() and pw_dtw_f64(): one template (dtw_impl.h), two element types. */
#include <math.h>

#include "../src/core/exec.h"
#include "../src/core/linear_buffers.h"
#include "dtw_cell.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

#define DTW_T float
#define DTW_SUFFIX f32
#include "dtw_impl.h"

#define DTW_T double
#define DTW_SUFFIX f64
#include "dtw_impl.h"
