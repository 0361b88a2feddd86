/*
 * sat_full.h - template: a full-storage SAT segment for one (input, output) type pair.
 * Define SAT_IN_T, SAT_OUT_T, SAT_OUT_SUFFIX (i32/i64/f32/f64) and SAT_NAME, then include.
 * The context is sat_ctx (sat_simd.h); the output matrix doubles as the storage of the recurrence.
 */
#define SAT_CAT2(a, b) a##b
#define SAT_CAT(a, b) SAT_CAT2(a, b)

#define PW_SEG_NAME SAT_NAME
#define PW_SEG_CTX sat_ctx
#define PW_SEG_T SAT_OUT_T
#define PW_SEG_CELL(ctx, i, j, up, left, diag) \
    SAT_CAT(pw_sat_step_, SAT_OUT_SUFFIX)((SAT_OUT_T)x_[j], up, left, diag)
#define PW_SEG_ROW(ctx, i)                                                            \
    const SAT_IN_T *x_ = (const SAT_IN_T *)(ctx)->in + (i) * (ctx)->in_stride;        \
    SAT_OUT_T *row_ = (SAT_OUT_T *)(ctx)->out + (i) * (ctx)->out_stride;              \
    const SAT_OUT_T *up_ = (i) > 0 ? row_ - (ctx)->out_stride : NULL;                  \
    const SAT_OUT_T *left_ = (const SAT_OUT_T *)(ctx)->left;
#define PW_SEG_UP(ctx, i, j) (up_ ? up_[j] : (SAT_OUT_T)0)
#define PW_SEG_LEFT0(ctx, i, j) ((j) > 0 ? row_[(j) - 1] : left_ ? left_[i] : (SAT_OUT_T)0)
#define PW_SEG_DIAG0(ctx, i, j) ((j) > 0 && up_ ? up_[(j) - 1] : (j) == 0 && up_ && left_ ? left_[(i) - 1] : (SAT_OUT_T)0)
#define PW_SEG_STORE(ctx, i, j, v) row_[j] = (v)
#include "../src/core/segment3.h"

#undef SAT_NAME
#undef SAT_OUT_T
#undef SAT_OUT_SUFFIX
