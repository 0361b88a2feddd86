/* dtw.c - pw_dtw_f32() and pw_dtw_f64(): one template (dtw_impl.h), two element types. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/alloc.h"
#include "../src/core/auto_width.h"
#include "../src/core/exec.h"
#include "../src/core/linear_buffers.h"
#include "band_apps.h"
#include "checks.h"
#include "dtw_cell.h"
#include "dtw_saving.h"
#include "dtw_simd.h"
#include "linear_orient.h"
#include "../src/cpu/simd/simd_isa.h"
#include "../src/cpu/simd/simd_plan.h"
#include "../src/core/status_detail.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

/* A distance past the type's range (f32 sums of large costs): PW_ERR_OVERFLOW, saying so. */
static pw_status dtw_overflow(int f64)
{
    pw_set_error_detail("the distance passed the type's range (an infinity): use %s", f64 ? "smaller values" : "f64, or smaller values");
    return PW_ERR_OVERFLOW;
}

/* dtw_run_'s store request (dtw_saving.h), NULL for a plain run. */
typedef struct dtw_save {
    void *rows;
    int64_t every, slots;
} dtw_save;

#define DTW_T float
#define DTW_SUFFIX f32
#include "dtw_impl.h"

#define DTW_T double
#define DTW_SUFFIX f64
#include "dtw_impl.h"

pw_status pw_dtw_f64_saving(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, int64_t every, int64_t slots, double *rows, double *distance)
{
    if (every < 1) return PW_ERR_UNSUPPORTED;
    pw_options o;
    pw_status st = pw_options_cpu_tiles(options, &o);
    if (st != PW_OK) return st;
    const dtw_save save = {rows, every, slots};
    pw_dtw_result r;
    st = dtw_run_f64(a, n, b, m, cost, &o, NULL, &save, &r);
    if (st == PW_OK) *distance = r.distance;
    return st;
}

pw_status pw_dtw_check(const void *a, int64_t n, const void *b, int64_t m, pw_dtw_cost cost, const void *result)
{
    if (!a || !b || !result) return PW_ERR_NULL_ARGUMENT;
    if (n < 1 || m < 1) {
        pw_set_error_detail("series of %lld and %lld values: each needs at least one", (long long)n, (long long)m);
        return PW_ERR_INVALID_SIZE;
    }
    if (cost != PW_DTW_ABSOLUTE && cost != PW_DTW_SQUARED) {
        pw_set_error_detail("cost %d: PW_DTW_ABSOLUTE or PW_DTW_SQUARED", (int)cost);
        return PW_ERR_INVALID_ARGUMENT;
    }
    return PW_OK;
}
