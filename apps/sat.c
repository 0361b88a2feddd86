/* sat.c - pw_sat(): summed-area tables, every input/output type pair from one template. */
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/auto_width.h"
#include "../src/core/exec.h"
#include "../src/core/image.h"
#include "../src/core/status_detail.h"
#include "band_apps.h"
#include "sat_cell.h"
#include "../src/core/alloc.h"
#include "checks.h"
#include "sat_sum.h"
#include "sat_simd.h"
#include "../src/cpu/simd/simd_plan.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif


#define SAT_CAT2(a, b) a##b
#define SAT_CAT(a, b) SAT_CAT2(a, b)

#define SAT_IN_T uint8_t
#define SAT_IN_NAME u8
#define SAT_IN_IS_FLOAT 0
#include "sat_input.h"
#define SAT_IN_T uint16_t
#define SAT_IN_NAME u16
#define SAT_IN_IS_FLOAT 0
#include "sat_input.h"
#define SAT_IN_T int32_t
#define SAT_IN_NAME i32
#define SAT_IN_IS_FLOAT 0
#include "sat_input.h"
#define SAT_IN_T float
#define SAT_IN_NAME f32
#define SAT_IN_IS_FLOAT 1
#include "sat_input.h"
#define SAT_IN_T double
#define SAT_IN_NAME f64
#define SAT_IN_IS_FLOAT 1
#include "sat_input.h"

/* [input type][output type]; NULL = pair not supported. */
static const pw_segment_fn sat_segments[PW_DTYPE_COUNT][PW_DTYPE_COUNT] = {
    [PW_U8] = {[PW_I32] = sat_seg_u8_i32, [PW_I64] = sat_seg_u8_i64,
               [PW_F32] = sat_seg_u8_f32, [PW_F64] = sat_seg_u8_f64},
    [PW_U16] = {[PW_I32] = sat_seg_u16_i32, [PW_I64] = sat_seg_u16_i64,
                [PW_F32] = sat_seg_u16_f32, [PW_F64] = sat_seg_u16_f64},
    [PW_I32] = {[PW_I32] = sat_seg_i32_i32, [PW_I64] = sat_seg_i32_i64,
                [PW_F32] = sat_seg_i32_f32, [PW_F64] = sat_seg_i32_f64},
    [PW_F32] = {[PW_F32] = sat_seg_f32_f32, [PW_F64] = sat_seg_f32_f64},
    [PW_F64] = {[PW_F32] = sat_seg_f64_f32, [PW_F64] = sat_seg_f64_f64},
};

pw_status pw_sat_check(const pw_image *in, const pw_image *out)
{
    pw_status st = pw_image_check(in);
    if (st == PW_OK) st = pw_image_check(out);
    if (st != PW_OK) return st;
    if (in->rows != out->rows || in->cols != out->cols) {
        pw_set_error_detail("input %lldx%lld, output %lldx%lld: one shape", (long long)in->rows, (long long)in->cols,
                            (long long)out->rows, (long long)out->cols);
        return PW_ERR_INVALID_SIZE;
    }
    /* the engines read inputs ahead of the outputs they write (tiles, vector rows): no overlap */
    const char *a = in->data, *b = out->data;
    const size_t a_bytes = ((size_t)(in->rows - 1) * (size_t)pw_image_stride(in) + (size_t)in->cols) * pw_dtype_size(in->type),
                 b_bytes = ((size_t)(out->rows - 1) * (size_t)pw_image_stride(out) + (size_t)out->cols) * pw_dtype_size(out->type);
    if (a < b + b_bytes && b < a + a_bytes) {
        pw_set_error_detail("the input and the output overlap: a summed-area table needs an output of its own");
        return PW_ERR_INVALID_ARGUMENT;
    }
    return sat_segments[in->type][out->type] ? PW_OK : PW_ERR_UNSUPPORTED;
}

typedef struct sat_band_app {
    const pw_image *out;
    void *left;
} sat_band_app;

/* A band of a distributed run: column -1 arrives into sat_ctx.left; the last column is out's. */
static void sat_put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    const pw_image *out = ((const sat_band_app *)app)->out;
    const size_t size = pw_dtype_size(out->type);
    memcpy((char *)((const sat_band_app *)app)->left + (size_t)i0 * size, src, (size_t)(i1 - i0) * size);
}

static void sat_get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    const pw_image *out = ((const sat_band_app *)app)->out;
    const size_t size = pw_dtype_size(out->type);
    const int64_t stride = pw_image_stride(out);
    for (int64_t i = i0; i < i1; i++)
        memcpy((char *)dst + (size_t)(i - i0) * size, (const char *)out->data + (size_t)(i * stride + out->cols - 1) * size, size);
}

/* vec: NULL, or the integer vector processor the kernel runs (it reads column -1 too). */
static pw_status sat_band_run(pw_plan *plan, const pw_kernel *kernel, sat_ctx *ctx, pw_sat_simd *vec,
                              const pw_image *out, const pw_band *band, pw_run_info *info)
{
    sat_band_app app = {out, pw_malloc((size_t)out->rows * pw_dtype_size(out->type) + 1)};
    if (!app.left) return PW_ERR_OUT_OF_MEMORY;
    ctx->left = band->col0 > 0 ? app.left : NULL;
    if (vec) vec->left = ctx->left, vec->left_rows = out->rows;
    pw_band_io io = {.app = &app, .bytes_per_row = pw_dtype_size(out->type), .put_left = sat_put_left,
                     .get_last = sat_get_last};
    pw_band_edges edges;
    pw_status st = band->attach(band->ctx, &io, &edges);
    plan->edges = &edges;
    if (st == PW_OK) st = pw_execute(plan, kernel, info);
    band->detach(band->ctx, st);
    free(app.left);
    return st;
}

/* pw_sat with the options' width as it is (the whole run, or a training corner: auto_width.h); or
 * (band not NULL) one band of columns of a distributed run, whose overflow guard the caller ran
 * over the whole input. */
static pw_status sat_run(const pw_image *in, pw_image *out, const pw_options *options, const pw_band *band,
                         pw_run_info *info)
{
    pw_status st = pw_sat_check(in, out);
    if (st != PW_OK) return st;
    pw_segment_fn segment = sat_segments[in->type][out->type];
    if (!band && !pw_sum_abs_fits(in, out->type)) {
        pw_set_error_detail("sums over this image could pass %s: a wider output type", pw_dtype_name(out->type));
        return PW_ERR_OVERFLOW;
    }
    pw_plan plan;
    st = pw_plan_make(options, in->rows, in->cols, 0, &plan);
    if (st != PW_OK) return st;
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
#ifdef PW_HAVE_CUDA
    if (plan.backend == PW_BACKEND_CUDA) {
        plan.band = band; /* (a band: the glue attaches to it, cuda/full_apps.cu) */
        return pw_cuda_sat(&plan, in, out, info);
    }
#endif
    sat_ctx ctx = {in->data, pw_image_stride(in), out->data, pw_image_stride(out), NULL};
    pw_kernel kernel = {.segment = segment, .ctx = &ctx};
    /* integer outputs: the vector tile processor of the plan's set, where there is one (sat_simd.h) */
    pw_sat_simd vec;
    const int use = plan.strategy != PW_STRATEGY_SEQUENTIAL
                        ? pw_sat_simd_setup(&vec, &plan.tiling, plan.workers, plan.simd, in->type, out->type, 0)
                        : 0;
    if (use > 0) { /* (< 0: no memory for its scratch: the scalar cells) */
        vec.in = in->data;
        vec.in_stride = ctx.in_stride;
        vec.out = out->data;
        vec.out_stride = ctx.out_stride;
        vec.stream = pw_sat_simd_streams(out->data, (size_t)(out->rows * ctx.out_stride) * pw_dtype_size(out->type),
                                         pw_dtype_size(out->type));
        kernel.tile = pw_sat_simd_tile;
        kernel.ctx = &vec;
        kernel.simd = plan.simd;
    }
    /* float tables of the input's type: the anti-diagonal vector processor, on tiles fitted to it */
    int lanes = 0, rows = 0, fitted = 0;
    void (*float_tile)(const pw_sat_simd *, int64_t, int64_t, int) =
        use == 0 && in->type == out->type ? pw_sat_float_simd(plan.simd, out->type, &lanes, &rows) : NULL;
    if (float_tile) st = pw_simd_fit_plan(&plan, options, lanes, rows, &fitted);
    if (st != PW_OK) return st;
    if (fitted) {
        const size_t size = pw_dtype_size(out->type);
        vec = (pw_sat_simd){.t = &plan.tiling, .in = in->data, .in_stride = ctx.in_stride, .out = out->data,
                            .out_stride = ctx.out_stride, .tile = float_tile};
        vec.stream = pw_sat_simd_streams(out->data, (size_t)(out->rows * ctx.out_stride) * size, size);
        if (vec.stream) pw_sat_float_simd_stages(&vec, plan.workers, lanes, rows, size);
        kernel.tile = pw_sat_simd_tile;
        kernel.ctx = &vec;
        kernel.simd = plan.simd;
    }
    if (band) st = sat_band_run(&plan, &kernel, &ctx, use > 0 || fitted ? &vec : NULL, out, band, info);
    else st = pw_execute(&plan, &kernel, info);
    if (use > 0 || fitted) pw_sat_simd_free(&vec);
    return st;
}

pw_status pw_sat_band(const pw_image *in, pw_image *out, const pw_options *options, const pw_band *band,
                      pw_run_info *info)
{
    return sat_run(in, out, options, band, info);
}

typedef struct sat_part {
    const pw_image *in;
    pw_image *out;
} sat_part;

/* The top-left rows x cols of the image into the same place of out (the whole run, which comes
 * last, overwrites what a corner wrote). */
static pw_status sat_part_run(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    const sat_part *x = p;
    pw_image in = *x->in, out = *x->out;
    in.rows = out.rows = rows;
    in.cols = out.cols = cols;
    in.stride = pw_image_stride(x->in);
    out.stride = pw_image_stride(x->out);
    return sat_run(&in, &out, o, NULL, info);
}

pw_status pw_sat(const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info)
{
    pw_status st = pw_sat_check(in, out);
    if (st != PW_OK) return st;
    char app[64];
    snprintf(app, sizeof app, "sat-%s-%s", pw_dtype_name(in->type), pw_dtype_name(out->type));
    sat_part x = {in, out};
    return pw_run_with_width(app, options, 0, sat_part_run, &x, in->rows, in->cols, info);
}

/* A float table fits when every value is finite and the sum of |x|, in double, stays within
 * half the type's largest value (every entry is a sum over a sub-rectangle, and the half leaves
 * room for the rounding of those sums in the type's own arithmetic).  A pass over the input:
 * pw_sat does not make it (IEEE arithmetic: an overflow becomes an infinity, and inf - inf a
 * NaN); pw_sat_fits and the command do. */
double pw_sat_float_sum_limit(pw_dtype out) { return (out == PW_F32 ? 3.4028234663852886e38 : 1.7976931348623157e308) / 2; }

static int float_sums_fit(const pw_image *in, pw_dtype out)
{
    const double limit = pw_sat_float_sum_limit(out);
    const int64_t stride = pw_image_stride(in);
    double sum = 0;
    for (int64_t i = 0; i < in->rows; i++) {
        double row = 0;
        if (in->type == PW_F32)
            for (int64_t j = 0; j < in->cols; j++) row += fabs((double)((const float *)in->data)[i * stride + j]);
        else if (in->type == PW_F64)
            for (int64_t j = 0; j < in->cols; j++) row += fabs(((const double *)in->data)[i * stride + j]);
        else
            return 1; /* (integer input: exact integers, far below either limit) */
        sum += row;
        if (!(sum <= limit)) return 0; /* (a NaN or an infinity fails here too) */
    }
    return 1;
}

int pw_sat_fits(const pw_image *in, pw_dtype out)
{
    if (pw_image_check(in) != PW_OK || pw_dtype_size(out) == 0) return 0;
    if (out == PW_F32 || out == PW_F64) return float_sums_fit(in, out);
    return pw_sum_abs_fits(in, out);
}
