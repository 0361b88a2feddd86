/*
 * inthist.c - pw_inthist(): integral histograms.  Plane b is the summed-area table of the
 * indicator [bin(x) == b], computed with the SAT cell (sat_cell.h) through the same template,
 * so INTHIST adds no recurrence code of its own, only the binning.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../src/core/alloc.h"
#include "../src/core/checked.h"
#include "../src/core/auto_width.h"
#include "../src/core/exec.h"
#include "../src/core/image.h"
#include "../src/core/status_detail.h"
#include "band_apps.h"
#include "checks.h"
#include "inthist_cell.h"
#include "sat_cell.h"
#include "sat_simd.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

typedef struct plane_ctx {
    const int32_t *bin; /* bin index of every pixel, -1 for none; rows x cols */
    int32_t *plane;     /* output plane, rows x cols */
    int64_t cols;
    int32_t b;
    const int32_t *left; /* NULL, or a band of a distributed run: the plane's column -1 */
} plane_ctx;

#define PW_SEG_NAME plane_segment
#define PW_SEG_CTX plane_ctx
#define PW_SEG_T int32_t
#define PW_SEG_CELL(ctx, i, j, up, left, diag) pw_sat_step_i32(bin_[j] == (ctx)->b, up, left, diag)
#define PW_SEG_ROW(ctx, i)                                     \
    const int32_t *bin_ = (ctx)->bin + (i) * (ctx)->cols;      \
    int32_t *row_ = (ctx)->plane + (i) * (ctx)->cols;          \
    const int32_t *up_ = (i) > 0 ? row_ - (ctx)->cols : NULL;  \
    const int32_t *left_ = (ctx)->left;
#define PW_SEG_UP(ctx, i, j) (up_ ? up_[j] : 0)
#define PW_SEG_LEFT0(ctx, i, j) ((j) > 0 ? row_[(j) - 1] : left_ ? left_[i] : 0)
#define PW_SEG_DIAG0(ctx, i, j) ((j) > 0 && up_ ? up_[(j) - 1] : (j) == 0 && up_ && left_ ? left_[(i) - 1] : 0)
#define PW_SEG_STORE(ctx, i, j, v) row_[j] = (v)
#include "../src/core/segment3.h"

typedef struct inthist_ctx {
    const int32_t *bin;
    int32_t *out;
    int64_t rows, cols;
    int bins;
    int32_t *left; /* NULL, or a band of a distributed run: column -1 of every plane (bins x rows) */
} inthist_ctx;

/* One segment of every plane: the planes are independent recurrences on the same schedule. */
static void inthist_segment(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    const inthist_ctx *ctx = vctx;
    for (int b = 0; b < ctx->bins; b++) {
        plane_ctx p = {ctx->bin, ctx->out + (int64_t)b * ctx->rows * ctx->cols, ctx->cols, b,
                       ctx->left ? ctx->left + (int64_t)b * ctx->rows : NULL};
        plane_segment(&p, i, j_begin, j_end, worker);
    }
}

/* A band of a distributed run: a row of the column is every plane's value there. */
static void inthist_put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    const inthist_ctx *ctx = app;
    const int32_t *v = src;
    for (int64_t i = i0; i < i1; i++)
        for (int b = 0; b < ctx->bins; b++) ctx->left[(int64_t)b * ctx->rows + i] = *v++;
}

static void inthist_get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    const inthist_ctx *ctx = app;
    int32_t *v = dst;
    for (int64_t i = i0; i < i1; i++)
        for (int b = 0; b < ctx->bins; b++) *v++ = ctx->out[((int64_t)b * ctx->rows + i) * ctx->cols + ctx->cols - 1];
}

static double pixel(const pw_image *img, int64_t i, int64_t j)
{
    int64_t k = i * pw_image_stride(img) + j;
    switch (img->type) {
    case PW_U8: return ((const uint8_t *)img->data)[k];
    case PW_U16: return ((const uint16_t *)img->data)[k];
    default: return ((const float *)img->data)[k];
    }
}

/* Every pixel's bin.  u8 and u16 images through a table of every value's bin (the same function,
 * evaluated once a value: the per-pixel floating-point work was 40% of a vectorised run). */
static pw_status compute_bins(const pw_image *in, int bins, double lo, double hi, int f32_math, int closed, int32_t *bin)
{
    if (in->type == PW_U8 || in->type == PW_U16) {
        const int values = in->type == PW_U8 ? 256 : 65536;
        int32_t *table = pw_malloc(sizeof *table * (size_t)values);
        if (!table) return PW_ERR_OUT_OF_MEMORY;
        const int rule = pw_inthist_rule_of(0, 0, closed);
        for (int v = 0; v < values; v++) table[v] = pw_inthist_bin(v, bins, lo, hi, rule);
        for (int64_t i = 0; i < in->rows; i++) {
            int32_t *out = bin + i * in->cols;
            if (in->type == PW_U8) {
                const uint8_t *row = (const uint8_t *)in->data + i * pw_image_stride(in);
                for (int64_t j = 0; j < in->cols; j++) out[j] = table[row[j]];
            } else {
                const uint16_t *row = (const uint16_t *)in->data + i * pw_image_stride(in);
                for (int64_t j = 0; j < in->cols; j++) out[j] = table[row[j]];
            }
        }
        free(table);
        return PW_OK;
    }
    const int rule = pw_inthist_rule_of(1, f32_math, closed);
    for (int64_t i = 0; i < in->rows; i++)
        for (int64_t j = 0; j < in->cols; j++) bin[i * in->cols + j] = pw_inthist_bin(pixel(in, i, j), bins, lo, hi, rule);
    return PW_OK;
}

pw_status pw_inthist_check(const pw_image *in, int bins, double lo, double hi, const int32_t *out)
{
    pw_status st = pw_image_check(in);
    if (st != PW_OK) return st;
    if (!out) return PW_ERR_NULL_ARGUMENT;
    if (in->type != PW_U8 && in->type != PW_U16 && in->type != PW_F32) return PW_ERR_UNSUPPORTED;
    if (bins < 1 || bins > PW_MAX_BINS || !(lo < hi) || !isfinite(lo) || !isfinite(hi)) {
        pw_set_error_detail("bins %d over [%g, %g): 1 .. %d bins over a finite range with lo < hi", bins, lo, hi, PW_MAX_BINS);
        return PW_ERR_INVALID_ARGUMENT;
    }
    /* the bins' width and its inverse must be finite and nonzero: hi - lo can overflow (-1e308 to
     * 1e308) and bins / (hi - lo) too (a width of 5e-324), and then every pixel's bin is NaN */
    const double width = (hi - lo) / bins;
    if (!isfinite(hi - lo) || !(width > 0) || !isfinite((double)bins / (hi - lo))) {
        pw_set_error_detail("the range [%g, %g) in %d bins: a bin width (or its inverse) beyond double's range", lo, hi,
                            bins);
        return PW_ERR_INVALID_ARGUMENT;
    }
    int64_t cells;
    size_t bytes;
    if (!pw_checked_cells(in->rows, in->cols, &cells) ||
        !pw_checked_bytes(cells, bins, sizeof(int32_t), &bytes))
        return PW_ERR_SIZE_OVERFLOW;
    if (cells > INT32_MAX) { /* a count could pass the i32 output */
        pw_set_error_detail("%lld pixels: a count could pass the int32 planes", (long long)cells);
        return PW_ERR_OVERFLOW;
    }
    return PW_OK;
}

/* pw_inthist with the options' width as it is (the whole run, or a training corner); or (band not
 * NULL) one band of columns of a distributed run. */
static pw_status inthist_run(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                             const pw_options *options, const pw_band *band, pw_run_info *info)
{
    pw_status st = pw_inthist_check(in, bins, lo, hi, out);
    if (st != PW_OK) return st;
    int64_t cells = in->rows * in->cols;
    pw_plan plan;
    st = pw_plan_make(options, in->rows, in->cols, 0, &plan);
    if (st != PW_OK) return st;
    int32_t *bin = pw_malloc(sizeof *bin * (size_t)cells);
    if (!bin) return PW_ERR_OUT_OF_MEMORY;
    st = compute_bins(in, bins, lo, hi, plan.inthist_f32_math, plan.inthist_closed, bin);
    if (st != PW_OK) {
        free(bin);
        return st;
    }
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
#ifdef PW_HAVE_CUDA
    if (plan.backend == PW_BACKEND_CUDA) {
        plan.band = band; /* (a band: the glue attaches to it, cuda/full_apps.cu) */
        st = pw_cuda_inthist(&plan, bin, in->rows, in->cols, bins, out, info);
        free(bin);
        return st;
    }
#endif
    inthist_ctx ctx = {bin, out, in->rows, in->cols, bins, NULL};
    pw_kernel kernel = {.segment = inthist_segment, .ctx = &ctx};
    /* the vector tile processor of the plan's set (sat_simd.h): every plane's row while the row's
     * bin indices are in L1 */
    pw_sat_simd vec;
    const int use = plan.strategy != PW_STRATEGY_SEQUENTIAL
                        ? pw_sat_simd_setup(&vec, &plan.tiling, plan.workers, plan.simd, PW_I32, PW_I32, bins)
                        : 0;
    if (use > 0) { /* (< 0: no memory for its scratch: the scalar cells) */
        vec.in = bin;
        vec.in_stride = in->cols;
        vec.out = out;
        vec.out_stride = in->cols;
        vec.plane_stride = cells;
        vec.stream = pw_sat_simd_streams(out, (size_t)cells * (size_t)bins * sizeof *out, sizeof *out);
        kernel.tile = pw_sat_simd_tile;
        kernel.ctx = &vec;
        kernel.simd = plan.simd;
    }
    if (band) { /* the left neighbour's column into ctx.left (and the vector processor's) */
        int32_t *left = pw_malloc(sizeof *left * (size_t)bins * (size_t)in->rows);
        st = left ? PW_OK : PW_ERR_OUT_OF_MEMORY;
        ctx.left = band->col0 > 0 ? left : NULL;
        if (use > 0) vec.left = ctx.left, vec.left_rows = in->rows;
        pw_band_io io = {.app = &ctx, .bytes_per_row = sizeof(int32_t) * (size_t)bins, .put_left = inthist_put_left,
                         .get_last = inthist_get_last};
        pw_band_edges edges;
        if (st == PW_OK) st = band->attach(band->ctx, &io, &edges);
        plan.edges = &edges;
        if (st == PW_OK) st = pw_execute(&plan, &kernel, info);
        band->detach(band->ctx, st);
        free(left);
    } else {
        st = pw_execute(&plan, &kernel, info);
    }
    if (use > 0) pw_sat_simd_free(&vec);
    free(bin);
    return st;
}

pw_status pw_inthist_band(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                          const pw_options *options, const pw_band *band, pw_run_info *info)
{
    return inthist_run(in, bins, lo, hi, out, options, band, info);
}

typedef struct inthist_part {
    const pw_image *in;
    int bins;
    double lo, hi;
    int32_t *out;
} inthist_part;

/* The top-left rows x cols of the image; its planes go to the front of out, which the whole run,
 * coming last, overwrites (auto_width.h). */
static pw_status inthist_part_run(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    const inthist_part *x = p;
    pw_image in = *x->in;
    in.rows = rows;
    in.cols = cols;
    in.stride = pw_image_stride(x->in);
    return inthist_run(&in, x->bins, x->lo, x->hi, x->out, o, NULL, info);
}

pw_status pw_inthist(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                     const pw_options *options, pw_run_info *info)
{
    pw_status st = pw_inthist_check(in, bins, lo, hi, out);
    if (st != PW_OK) return st;
    char app[64];
    snprintf(app, sizeof app, "inthist-%s-%dbins", pw_dtype_name(in->type), bins);
    inthist_part x = {in, bins, lo, hi, out};
    return pw_run_with_width(app, options, 0, inthist_part_run, &x, in->rows, in->cols, info);
}
