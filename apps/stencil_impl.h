/*
 * stencil_impl.h - template for the heat and SOR sweeps of one element type: define ST_T and
 * ST_SUFFIX (f32 / f64) and include.  The iteration space is the interior: space row i is grid
 * row i + 1, space column j grid column j + 1; the border stays fixed.
 */
#define ST_CAT2(a, b) a##b
#define ST_CAT(a, b) ST_CAT2(a, b)
#define ST_FN(name) ST_CAT(name, ST_SUFFIX)

typedef struct ST_FN(stencil_ctx_) {
    ST_T *grid;
    int64_t stride;
    ST_T keep, relax; /* SOR only */
} ST_FN(stencil_ctx_);

/* Shared row set-up of both segments: pointers to the grid rows around interior row i. */
#define ST_ROW_POINTERS(ctx, i)                               \
    ST_T *row = (ctx)->grid + ((i) + 1) * (ctx)->stride + 1;  \
    const ST_T *up = row - (ctx)->stride;                     \
    const ST_T *down = row + (ctx)->stride;                   \
    ST_T left = row[j_begin - 1];

static void ST_FN(heat_segment_)(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    (void)worker;
    const ST_FN(stencil_ctx_) *ctx = vctx;
    ST_ROW_POINTERS(ctx, i)
    for (int64_t j = j_begin; j < j_end; j++) {
        ST_T v = ST_FN(pw_heat_step_)(up[j], left, down[j], row[j + 1]);
        row[j] = v;
        left = v;
    }
}

static void ST_FN(sor_segment_)(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    (void)worker;
    const ST_FN(stencil_ctx_) *ctx = vctx;
    ST_ROW_POINTERS(ctx, i)
    for (int64_t j = j_begin; j < j_end; j++) {
        ST_T v = ST_FN(pw_sor_step_)(row[j], up[j], left, down[j], row[j + 1], ctx->keep, ctx->relax);
        row[j] = v;
        left = v;
    }
}

/* Root mean square over the interior of (sum of the 4 neighbours)/4 - A(i,j). */
static double ST_FN(stencil_residual_)(const ST_T *g, int64_t rows, int64_t cols, int64_t stride)
{
    double sum = 0;
    for (int64_t i = 1; i < rows - 1; i++)
        for (int64_t j = 1; j < cols - 1; j++) {
            const ST_T *p = g + i * stride + j;
            double r = ((double)p[-stride] + p[-1] + p[stride] + p[1]) / 4 - p[0];
            sum += r * r;
        }
    return sqrt(sum / ((double)(rows - 2) * (double)(cols - 2)));
}

static pw_status ST_FN(stencil_run_)(pw_image *grid, int64_t sweeps, int sor, double omega,
                                     const pw_plan *plan, double *residual, pw_run_info *info)
{
    ST_FN(stencil_ctx_) ctx = {(ST_T *)grid->data, pw_image_stride(grid), (ST_T)(1 - omega),
                               (ST_T)(omega / 4)};
    pw_kernel kernel = {.segment = sor ? ST_FN(sor_segment_) : ST_FN(heat_segment_), .ctx = &ctx};
    pw_status st = PW_OK;
#ifdef PW_HAVE_CUDA
    if (plan->backend == PW_BACKEND_CUDA) st = pw_cuda_stencil(plan, grid, sweeps, sor, omega, info);
    else
#endif
    {
        /* the vector processor when the plan allows it (stencil_simd.h), on tiles fitted to it */
        pw_plan fitted = *plan;
        pw_stencil_simd vec = {0};
        const int lanes = pw_stencil_simd_lanes(plan->simd, sizeof(ST_T));
        int use = 0;
        if (lanes >= 2) st = pw_simd_fit_plan(&fitted, NULL, lanes, pw_stencil_simd_rows(plan->simd, sizeof(ST_T)), &use);
        if (st == PW_OK && use && (vec.tile = pw_stencil_simd_kernel(plan->simd, sizeof(ST_T)))) {
            vec.t = &fitted.tiling;
            vec.grid = ctx.grid + ctx.stride + 1;
            vec.stride = ctx.stride;
            vec.rows = fitted.tiling.rows;
            vec.cols = fitted.tiling.cols;
            vec.sor = sor;
            vec.keep = ctx.keep;
            vec.relax = ctx.relax;
            kernel = (pw_kernel){.tile = pw_stencil_simd_tile, .ctx = &vec, .simd = plan->simd};
        }
        if (st == PW_OK) st = pw_execute_sweeps(vec.tile ? &fitted : plan, &kernel, sweeps, info);
    }
    if (st == PW_OK && residual)
        *residual = ST_FN(stencil_residual_)(ctx.grid, grid->rows, grid->cols, ctx.stride);
    return st;
}

#undef ST_T
#undef ST_SUFFIX
#undef ST_ROW_POINTERS
