/* sat_sum.c - see sat_sum.h.  Cheap first: rows * cols * (largest value of the input type);
 * only when that bound is too large are the actual values summed. */
#include <stdint.h>

#include "../src/core/image.h"
#include "sat_sum.h"

static uint64_t type_max_abs(pw_dtype t)
{
    switch (t) {
    case PW_U8: return UINT8_MAX;
    case PW_U16: return UINT16_MAX;
    case PW_I32: return (uint64_t)INT32_MAX + 1;
    default: return UINT64_MAX;
    }
}

/* Sum |x| row by row in the input's own type; stop as soon as the limit is passed. */
#define SUM_ABS_ROWS(T, ABS)                                                    \
    for (int64_t i = 0; i < img->rows; i++) {                                   \
        const T *row = (const T *)img->data + i * pw_image_stride(img);         \
        uint64_t row_sum = 0; /* <= cols * 2^31: no wrap for cols < 2^32 */     \
        for (int64_t j = 0; j < img->cols; j++) row_sum += ABS(row[j]);         \
        if (row_sum > limit || (sum += row_sum) > limit) return 0;              \
    }

#define ABS_UNSIGNED(v) (uint64_t)(v)
#define ABS_I32(v) ((v) < 0 ? (uint64_t)(-(int64_t)(v)) : (uint64_t)(v))

int pw_sum_abs_fits(const pw_image *img, pw_dtype out)
{
    uint64_t limit;
    if (out == PW_I32) limit = INT32_MAX;
    else if (out == PW_I64) limit = INT64_MAX;
    else return 1;
    uint64_t cells, bound;
    if (!__builtin_mul_overflow((uint64_t)img->rows, (uint64_t)img->cols, &cells) &&
        !__builtin_mul_overflow(cells, type_max_abs(img->type), &bound) && bound <= limit)
        return 1;
    if (img->cols >= ((int64_t)1 << 32)) return 0; /* row sums could wrap: refuse */
    uint64_t sum = 0;
    switch (img->type) {
    case PW_U8: SUM_ABS_ROWS(uint8_t, ABS_UNSIGNED) break;
    case PW_U16: SUM_ABS_ROWS(uint16_t, ABS_UNSIGNED) break;
    case PW_I32: SUM_ABS_ROWS(int32_t, ABS_I32) break;
    default: return 0;
    }
    return 1;
}
