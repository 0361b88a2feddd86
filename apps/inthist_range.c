/* inthist_range.c - numpy.histogram's default range for an f32 image, and its closed last bin:
 * what `peerwave inthist` and the Python module do when no range is given, written once here. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "peerwave.h"
#include "../src/core/alloc.h"
#include "../src/core/image.h"
#include "../src/core/status_detail.h"

pw_status pw_inthist_default_range(const pw_image *img, double *lo, double *hi, int *closed)
{
    pw_status st = pw_image_check(img);
    if (st != PW_OK) return st;
    if (!lo || !hi || !closed) return PW_ERR_NULL_ARGUMENT;
    if (img->type != PW_F32) return PW_ERR_UNSUPPORTED;
    float mn = INFINITY, mx = -INFINITY;
    for (int64_t i = 0; i < img->rows; i++) {
        const float *row = (const float *)img->data + i * pw_image_stride(img);
        for (int64_t j = 0; j < img->cols; j++) {
            if (!isfinite(row[j])) {
                pw_set_error_detail("NaN or infinite samples: the default range [min, max] needs finite ones (with "
                                    "an explicit range they fall outside it and are not counted)");
                return PW_ERR_BAD_INPUT;
            }
            if (row[j] < mn) mn = row[j];
            if (row[j] > mx) mx = row[j];
        }
    }
    *closed = mn < mx;
    /* one value v: 0.5 either side, or the wider of the float spacings around v where 0.5 is below
     * v's precision (|v| past 2^23: float edges of v +- 0.5 would be v itself and hold nothing;
     * at 2^24 the spacing is 1 below and 2 above, and v + 1 would round back to v) */
    const float down = nextafterf(mx, -INFINITY), up = nextafterf(mx, INFINITY); /* (+-FLT_MAX: one side is inf) */
    const double below = isfinite(down) ? (double)mx - down : 0, above = isfinite(up) ? (double)up - mx : 0;
    const double spacing = below > above ? below : above, half = spacing > 0.5 ? spacing : 0.5;
    *lo = *closed ? (double)mn : (double)mn - half;
    *hi = *closed ? (double)mx : (double)mx + half;
    return PW_OK;
}

/* pw_inthist's bins are half-open, so a run over [lo, hi) left the pixels equal to hi out; their
 * own summed-area table goes into the last plane (a run over [hi, the next float) cannot be had
 * when hi is the largest float).  (Until 2026-11-29 hi sat a millionth of the span above the max
 * instead, which moved every bin edge: -4 of [-8, 8] in 4 bins fell in bin 0.) */
pw_status pw_inthist_close_last_bin(const pw_image *img, int bins, double hi, int32_t *planes)
{
    pw_status st = pw_image_check(img);
    if (st != PW_OK) return st;
    if (!planes) return PW_ERR_NULL_ARGUMENT;
    if (img->type != PW_F32) return PW_ERR_UNSUPPORTED;
    if (bins < 1 || bins > PW_MAX_BINS) return PW_ERR_INVALID_ARGUMENT;
    const int64_t rows = img->rows, cols = img->cols;
    if (rows > INT32_MAX / cols) return PW_ERR_OVERFLOW; /* (a count could pass int32, as pw_inthist refuses) */
    const float top = (float)hi;
    int32_t *last = planes + (int64_t)(bins - 1) * rows * cols, *above = pw_malloc(sizeof *above * (size_t)cols);
    if (!above) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t j = 0; j < cols; j++) above[j] = 0;
    for (int64_t i = 0; i < rows; i++) { /* above[j]: pixels equal to hi in rows 0..i, columns 0..j */
        const float *x = (const float *)img->data + i * pw_image_stride(img);
        for (int64_t j = 0, run = 0; j < cols; j++) {
            run += x[j] == top;
            above[j] += (int32_t)run;
            last[i * cols + j] += above[j];
        }
    }
    free(above);
    return PW_OK;
}
