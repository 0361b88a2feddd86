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

/* The sweeps (and the residual, when asked), or (band not NULL) the sweeps of one band. */
static pw_status ST_FN(stencil_run_)(pw_image *grid, int64_t sweeps, int sor, double omega,
                                     const pw_plan *plan, const pw_band *band, double *residual, pw_run_info *info)
{
    ST_FN(stencil_ctx_) ctx = {(ST_T *)grid->data, pw_image_stride(grid), (ST_T)(1 - omega),
                               (ST_T)(omega / 4)};
    pw_kernel kernel = {.segment = sor ? ST_FN(sor_segment_) : ST_FN(heat_segment_), .ctx = &ctx};
    pw_status st = PW_OK;
#ifdef PW_HAVE_CUDA
    if (plan->backend == PW_BACKEND_CUDA) {
        pw_plan banded = *plan;
        banded.band = band; /* (a band: the glue attaches to it, cuda/stencil_apps.cu) */
        st = pw_cuda_stencil(&banded, grid, sweeps, sor, omega, info);
    } else
#endif
    {
        /* a band: the link's callbacks in the plan (the vector processors work in the grid, halo
         * columns included, so they run bands as they are) */
        pw_plan base = *plan;
        pw_halo_band app = {.own = (unsigned char *)ctx.grid + sizeof(ST_T), .elem = sizeof(ST_T), .stride = ctx.stride,
                            .cols = grid->cols - 2, .width = 1, .top = 1};
        const pw_band_io io = pw_halo_band_io(&app);
        pw_band_edges edges;
        if (band) {
            st = band->attach(band->ctx, &io, &edges);
            base.edges = &edges;
            plan = &base;
        }
        /* the vector processor when the plan allows it (stencil_simd.h), on tiles fitted to it */
        pw_plan fitted = *plan;
        pw_stencil_simd vec = {0};
        const int lanes = pw_stencil_simd_lanes(plan->simd, sizeof(ST_T));
        int use = 0;
        if (st == PW_OK && lanes >= 2) st = pw_simd_fit_plan(&fitted, NULL, lanes, pw_stencil_simd_rows(plan->simd, sizeof(ST_T)), &use);
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
        if (band) band->detach(band->ctx, st);
    }
    if (st == PW_OK && residual) *residual = pw_stencil_residual(grid);
    return st;
}

#undef ST_T
#undef ST_SUFFIX
#undef ST_ROW_POINTERS
