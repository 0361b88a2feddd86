/*
 * dtw_impl.h - template for pw_dtw_<suffix>(): define DTW_T (float or double) and DTW_SUFFIX
 * (f32 or f64) and include.  dtw.c instantiates it once per type.
 */
#define DTW_CAT2(a, b) a##b
#define DTW_CAT(a, b) DTW_CAT2(a, b)
#define DTW_FN(name) DTW_CAT(name, DTW_SUFFIX)

typedef struct DTW_FN(dtw_ctx_) {
    DTW_T *bus, *left, *diag;
    const DTW_T *a, *b;
    int squared;
    int64_t col0; /* a band of a distributed run: its first column in the whole matrix */
} DTW_FN(dtw_ctx_);

#define DTW_CELL(ctx, i, j, up, left, diag) \
    DTW_FN(pw_dtw_step_)((ctx)->a[i], (ctx)->b[j], (ctx)->squared, up, left, diag)
#define DTW_BOUNDARY(ctx, i, j) ((i) < 0 && (j) + (ctx)->col0 < 0 ? (DTW_T)0 : (DTW_T)INFINITY)

#define PW_SEG_NAME DTW_FN(dtw_segment_)
#define PW_SEG_CTX DTW_FN(dtw_ctx_)
#define PW_SEG_T DTW_T
#define PW_SEG_CELL DTW_CELL
#define PW_SEG_BOUNDARY DTW_BOUNDARY
#include "../src/core/segment3.h"

/* A band of a distributed run on the vector processor (core/band.h): the left neighbour's last
 * column (row -1 and the padding rows +inf around it), this band's own as the kernel records it
 * (dtw_simd.h).  On the wire a row is one value, as the scalar cells' linear buffers send it. */
typedef struct DTW_FN(dtw_simd_band_) {
    DTW_T *left, *last;
} DTW_FN(dtw_simd_band_);

static void DTW_FN(dtw_simd_put_left_)(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    memcpy(((DTW_FN(dtw_simd_band_) *)app)->left + 1 + i0, src, sizeof(DTW_T) * (size_t)(i1 - i0));
}

static void DTW_FN(dtw_simd_get_last_)(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    memcpy(dst, ((DTW_FN(dtw_simd_band_) *)app)->last + i0, sizeof(DTW_T) * (size_t)(i1 - i0));
}

static pw_status DTW_FN(dtw_simd_band_open_)(DTW_FN(dtw_simd_band_) *b, pw_dtw_simd *k, const pw_band *band, int64_t n,
                                             pw_band_io *io)
{
    const int64_t rows = n + 1 + PW_DTW_SIMD_LEFT_PAD;
    const int left = band->col0 > 0, right = band->col0 + band->cols < band->total_cols;
    b->left = left ? pw_malloc(sizeof *b->left * (size_t)rows) : NULL;
    b->last = right ? pw_malloc(sizeof *b->last * (size_t)n) : NULL;
    if ((left && !b->left) || (right && !b->last)) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; left && i < rows; i++) b->left[i] = (DTW_T)INFINITY; /* (row -1: D(-1, col0 - 1) too) */
    k->left = left ? b->left + 1 : NULL;
    k->last = b->last;
    *io = (pw_band_io){.app = b, .bytes_per_row = sizeof(DTW_T), .put_left = DTW_FN(dtw_simd_put_left_),
                       .get_last = DTW_FN(dtw_simd_get_last_)};
    return PW_OK;
}

/* Every value finite; else the first that is not, named in the error detail (which: the series'
 * name where the caller's own a or b is checked, NULL inside, where they may be swapped or a band). */
static int DTW_FN(all_finite_)(const DTW_T *x, int64_t n, const char *which)
{
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(x[k])) {
            pw_set_error_detail("series%s%s: a NaN or infinite value at index %lld (0-based)", which ? " " : "", which ? which : "", (long long)k);
            return 0;
        }
    return 1;
}

/* pw_dtw_ with the options' width as it is (the whole run, or a training corner: auto_width.h); or
 * (band not NULL) one band of columns of a distributed run, b being the band's samples. */
static pw_status DTW_FN(dtw_run_)(const DTW_T *a, int64_t n, const DTW_T *b, int64_t m, pw_dtw_cost cost,
                                  const pw_options *options, const pw_band *band, const dtw_save *save,
                                  pw_dtw_result *result)
{
    pw_status st = pw_dtw_check(a, n, b, m, cost, result);
    if (st != PW_OK) return st;
    if (!DTW_FN(all_finite_)(a, n, NULL) || !DTW_FN(all_finite_)(b, m, NULL)) return PW_ERR_BAD_INPUT;
    pw_plan plan;
    st = pw_plan_make_app(options, n, m, 0, PW_LINEAR_CUDA_TILE_H, &plan);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    if (plan.backend == PW_BACKEND_CUDA) {
        pw_run_info_clear(&result->info);
        plan.band = band; /* (a band: the glue attaches to it, cuda/linear_apps.cu) */
        st = DTW_FN(pw_cuda_dtw_)(&plan, a, n, b, m, cost == PW_DTW_SQUARED, &result->distance,
                                  &result->info);
        if (st == PW_OK && band && band->col0 + m < band->total_cols) result->distance = INFINITY; /* (the last band's) */
        else if (st == PW_OK && !isfinite(result->distance)) st = dtw_overflow(sizeof(DTW_T) == sizeof(double));
        return st;
    }
#endif
    /* the vector processor when the plan allows it (dtw_simd.h), else the scalar cells */
    pw_dtw_simd vec = {0};
    double vec_distance = NAN;
    const int lanes = pw_simd_lanes16(plan.simd) * 2 / (int)sizeof(DTW_T);
    int use = 0;
    if (lanes >= 2) st = pw_simd_fit_plan(&plan, options, lanes, pw_dtw_simd_rows(plan.simd, sizeof(DTW_T)), &use);
    if (st == PW_OK && use) { /* (its arrays cannot be had: the scalar cells, which need less) */
        st = pw_dtw_simd_init(&vec, plan.simd, sizeof(DTW_T), &plan.tiling, a, n, b, m, cost == PW_DTW_SQUARED,
                              &vec_distance);
        if (st == PW_ERR_OUT_OF_MEMORY) st = PW_OK;
    }
    if (st != PW_OK) return st;
    if (save) { /* (the warping path's store: only the vector tiles keep it) */
        if (!vec.tile || save->every % plan.tiling.h != 0) {
            if (vec.tile) pw_dtw_simd_free(&vec);
            return PW_ERR_UNSUPPORTED;
        }
        vec.save = save->rows, vec.save_every = save->every, vec.save_slots = save->slots;
    }
    pw_linear_buffers buf = {0};
    DTW_FN(dtw_ctx_) ctx = {0};
    pw_kernel kernel = {.segment = DTW_FN(dtw_segment_), .ctx = &ctx};
    if (vec.tile) { /* (no segment: only tiles may be handed the vector context) */
        kernel = (pw_kernel){.tile = pw_dtw_simd_tile, .ctx = &vec, .simd = plan.simd};
    } else {
        st = pw_linear_buffers_alloc(&buf, sizeof(DTW_T), n, m);
        if (st != PW_OK) return st;
        ctx = (DTW_FN(dtw_ctx_)){buf.bus, buf.left, buf.diag, a, b, cost == PW_DTW_SQUARED, band ? band->col0 : 0};
        DTW_CAT(DTW_FN(dtw_segment_), _init)(&ctx, n, m);
    }
    pw_band_io io;
    pw_band_edges edges;
    DTW_FN(dtw_simd_band_) vec_band = {0};
    if (band && vec.tile) st = DTW_FN(dtw_simd_band_open_)(&vec_band, &vec, band, n, &io);
    else if (band) pw_linear_band_io(&buf, &io);
    if (band && st == PW_OK) {
        st = band->attach(band->ctx, &io, &edges);
        plan.edges = &edges;
    }
    pw_run_info_clear(&result->info);
    if (st == PW_OK) st = pw_execute(&plan, &kernel, &result->info);
    if (band) band->detach(band->ctx, st);
    free(vec_band.left);
    free(vec_band.last);
    if (st == PW_OK && band && band->col0 + m < band->total_cols) {
        result->distance = INFINITY; /* (not the last band: the distance is the last band's) */
    } else if (st == PW_OK) {
        result->distance = vec.tile ? vec_distance : (double)ctx.bus[m - 1];
        if (!isfinite(result->distance)) st = dtw_overflow(sizeof(DTW_T) == sizeof(double));
    }
    if (vec.tile) pw_dtw_simd_free(&vec);
    else pw_linear_buffers_free(&buf);
    return st;
}

typedef struct DTW_FN(dtw_part_) {
    const DTW_T *a, *b;
    pw_dtw_cost cost;
    pw_dtw_result *result;
} DTW_FN(dtw_part_);

/* The first rows samples of a against the first cols of b (auto_width.h). */
static pw_status DTW_FN(dtw_part_run_)(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    DTW_FN(dtw_part_) *x = p;
    pw_dtw_result r = {0};
    pw_status st = DTW_FN(dtw_run_)(x->a, rows, x->b, cols, x->cost, o, NULL, NULL, &r);
    *x->result = r; /* the whole run comes last */
    if (info) *info = r.info;
    return st;
}

pw_status DTW_FN(pw_dtw_)(const DTW_T *a, int64_t n, const DTW_T *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, pw_dtw_result *result)
{
    pw_status st = pw_dtw_check(a, n, b, m, cost, result);
    if (st != PW_OK) return st;
    if (!DTW_FN(all_finite_)(a, n, "a") || !DTW_FN(all_finite_)(b, m, "b")) return PW_ERR_BAD_INPUT; /* (before a swap) */
    pw_options o = pw_options_or_defaults(options);
    pw_linear_auto_backend(&o, n, m, PW_DTW_GPU_STEP_S,
                           sizeof(DTW_T) == 4 ? PW_DTW_F32_CPU_CORE_CELLS_S : PW_DTW_F64_CPU_CORE_CELLS_S);
    /* b down the rows where a is much the longer (linear_orient.h): D(i, j) of a against b is
     * D(j, i) of b against a, bit for bit (the cost is symmetric, and each cell adds it to the
     * minimum of the same three values) */
    const int swap = pw_linear_run_swapped(&o, n, m, PW_DTW_SWAP_RATIO, PW_DTW_SWAP_RATIO);
    DTW_FN(dtw_part_) x = {swap ? b : a, swap ? a : b, cost, result};
    st = pw_run_with_width(sizeof(DTW_T) == 4 ? "dtw-f32" : "dtw-f64", &o, PW_LINEAR_CUDA_TILE_H,
                           DTW_FN(dtw_part_run_), &x, swap ? m : n, swap ? n : m, &result->info);
    result->info.transposed = swap;
    return st;
}

pw_status DTW_FN(pw_dtw_band_tiles_)(const DTW_T *a, int64_t n, const DTW_T *b, int64_t m, pw_dtw_cost cost,
                                     pw_options *options, pw_run_info *width)
{
    pw_dtw_result scratch = {0};
    pw_status st = pw_dtw_check(a, n, b, m, cost, &scratch);
    if (st != PW_OK) return st;
    DTW_FN(dtw_part_) x = {a, b, cost, &scratch};
    return pw_choose_width(sizeof(DTW_T) == 4 ? "dtw-f32" : "dtw-f64", options, PW_LINEAR_CUDA_TILE_H,
                           DTW_FN(dtw_part_run_), &x, n, m, width);
}

pw_status DTW_FN(pw_dtw_band_)(const DTW_T *a, int64_t n, const DTW_T *b, int64_t m, pw_dtw_cost cost,
                               const pw_options *options, const pw_band *band, pw_dtw_result *result)
{
    return DTW_FN(dtw_run_)(a, n, b, m, cost, options, band, NULL, result);
}

#undef DTW_T
#undef DTW_SUFFIX
#undef DTW_CELL
#undef DTW_BOUNDARY
