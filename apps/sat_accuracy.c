/* sat_accuracy.c - see sat_accuracy.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../src/core/image.h"
#include "sat_accuracy.h"

static double element(const pw_image *img, int64_t i, int64_t j)
{
    const char *row = (const char *)img->data + (size_t)(i * pw_image_stride(img)) * pw_dtype_size(img->type);
    switch (img->type) {
    case PW_U8: return ((const uint8_t *)row)[j];
    case PW_U16: return ((const uint16_t *)row)[j];
    case PW_I32: return ((const int32_t *)row)[j];
    case PW_I64: return (double)((const int64_t *)row)[j];
    case PW_F32: return ((const float *)row)[j];
    default: return ((const double *)row)[j];
    }
}

double pw_sat_error_ratio(const pw_image *in, const pw_image *out)
{
    if (pw_image_check(in) != PW_OK || pw_image_check(out) != PW_OK || in->rows != out->rows ||
        in->cols != out->cols || (out->type != PW_F32 && out->type != PW_F64))
        return -1;
    const double eps = out->type == PW_F32 ? FLT_EPSILON / 2 : 2 * (DBL_EPSILON / 2);
    double *sum = calloc((size_t)in->cols, sizeof *sum), *abs_sum = calloc((size_t)in->cols, sizeof *abs_sum);
    double worst = 0;
    if (!sum || !abs_sum) worst = -1;
    for (int64_t i = 0; i < in->rows && worst >= 0; i++) {
        double row = 0, abs_row = 0;
        for (int64_t j = 0; j < in->cols; j++) {
            double x = element(in, i, j);
            row += x, abs_row += fabs(x);
            sum[j] += row, abs_sum[j] += abs_row;
            double err = fabs(element(out, i, j) - sum[j]), bound = (double)(i + j + 64) * eps * abs_sum[j];
            if (!(err <= bound)) { /* NaN lands here too */
                double r = bound > 0 ? err / bound : INFINITY;
                if (!(r <= worst)) worst = r;
            }
        }
    }
    free(sum);
    free(abs_sum);
    return worst;
}
