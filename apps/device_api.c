/*
 * device_api.c - the device-pointer entry points (pw_*_device).  Arguments are checked by the same
 * functions as the host entry points (checks.h); the checks that need the data itself (SAT sums,
 * NaN samples, sequence letters) and the preparations (bins, letter codes) run on the device,
 * in src/cuda/.  Builds without CUDA return PW_ERR_UNSUPPORTED.
 */
#include <math.h>

#include "../src/core/exec.h"
#include "../src/core/plan.h"
#include "../src/core/status_detail.h"
#include "checks.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

#ifndef PW_HAVE_CUDA
/* Device pointers without a CUDA build: nothing can read them. */
static pw_status no_cuda(void)
{
    pw_set_error_detail("device pointers need a build with CUDA (%s)", pw_build_info());
    return PW_ERR_UNSUPPORTED;
}
#endif

#ifdef PW_HAVE_CUDA
/* A CUDA plan (cuda_tile_h as for pw_plan_make_app) or the reason there is none: the CPU cannot
 * read device pointers. */
static pw_status device_plan(const pw_options *options, int64_t rows, int64_t cols, int cuda_tile_h, pw_plan *plan)
{
    pw_options o;
    if (options) o = *options;
    else pw_options_init(&o);
    if (o.backend == PW_BACKEND_CPU) {
        pw_set_error_detail("device pointers with the CPU backend: the CPU cannot read them (PW_BACKEND_CUDA or AUTO)");
        return PW_ERR_INVALID_ARGUMENT;
    }
    o.backend = PW_BACKEND_CUDA;
    return pw_plan_make_app(&o, rows, cols, 0, cuda_tile_h, plan);
}
#define PW_DEVICE_PLAN(options, rows, cols, cuda_tile_h, plan)                    \
    do {                                                                          \
        pw_status plan_st_ = device_plan(options, rows, cols, cuda_tile_h, plan); \
        if (plan_st_ != PW_OK) return plan_st_;                                  \
    } while (0)
#endif

pw_status pw_sat_device(const pw_image *in, pw_image *out, const pw_options *options, pw_run_info *info)
{
    pw_status st = pw_sat_check(in, out);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    PW_DEVICE_PLAN(options, in->rows, in->cols, 0, &plan);
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
    return pw_cuda_sat_device(&plan, in, out, info);
#else
    (void)options, (void)info;
    return no_cuda();
#endif
}

pw_status pw_inthist_device(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                            const pw_options *options, pw_run_info *info)
{
    pw_status st = pw_inthist_check(in, bins, lo, hi, out);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    PW_DEVICE_PLAN(options, in->rows, in->cols, 0, &plan);
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
    return pw_cuda_inthist_device(&plan, in, bins, lo, hi, out, info);
#else
    (void)options, (void)info;
    return no_cuda();
#endif
}

static pw_status stencil_device(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                                double *residual, pw_run_info *info)
{
    pw_status st = pw_stencil_check(grid, sweeps);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    PW_DEVICE_PLAN(options, grid->rows - 2, grid->cols - 2, PW_STENCIL_CUDA_TILE_H, &plan);
    plan.monitor.cells = pw_monitor_mul(plan.monitor.cells, sweeps);
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
    return pw_stencil_residual_check(pw_cuda_stencil_device(&plan, grid, sweeps, sor, omega, residual, info), residual);
#else
    (void)sor, (void)omega, (void)options, (void)residual, (void)info;
    return no_cuda();
#endif
}

pw_status pw_heat_device(pw_image *grid, int64_t sweeps, const pw_options *options, double *residual,
                         pw_run_info *info)
{
    return stencil_device(grid, sweeps, 0, 1.0, options, residual, info);
}

pw_status pw_sor_device(pw_image *grid, int64_t sweeps, double omega, const pw_options *options,
                        double *residual, pw_run_info *info)
{
    if (pw_sor_omega_check(omega) != PW_OK) return PW_ERR_INVALID_ARGUMENT;
    return stencil_device(grid, sweeps, 1, omega, options, residual, info);
}

pw_status pw_sw_device(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                       const pw_options *options, pw_sw_result *result)
{
    pw_score_table table;
    pw_status st = pw_sw_check(a, n, b, m, params, result, &table);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    PW_DEVICE_PLAN(options, n, m, PW_LINEAR_CUDA_TILE_H, &plan);
    pw_run_info_clear(&result->info);
    return pw_cuda_sw_device(&plan, a, n, b, m, table.code, table.scores, table.size, params->gap_open,
                             params->gap_extend, &result->score, &result->end_a, &result->end_b, &result->info);
#else
    (void)options;
    return no_cuda();
#endif
}

/* Both DTW precisions: same checks, same plan; f64 picks the CUDA function. */
static pw_status dtw_device(const void *a, int64_t n, const void *b, int64_t m, pw_dtw_cost cost, int f64,
                            const pw_options *options, pw_dtw_result *result)
{
    pw_status st = pw_dtw_check(a, n, b, m, cost, result);
    if (st != PW_OK) return st;
#ifdef PW_HAVE_CUDA
    pw_plan plan;
    PW_DEVICE_PLAN(options, n, m, PW_LINEAR_CUDA_TILE_H, &plan);
    pw_run_info_clear(&result->info);
    int squared = cost == PW_DTW_SQUARED;
    st = f64 ? pw_cuda_dtw_f64_device(&plan, a, n, b, m, squared, &result->distance, &result->info)
             : pw_cuda_dtw_f32_device(&plan, a, n, b, m, squared, &result->distance, &result->info);
    return st == PW_OK && !isfinite(result->distance) ? PW_ERR_OVERFLOW : st;
#else
    (void)f64, (void)options;
    return no_cuda();
#endif
}

pw_status pw_dtw_f32_device(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, pw_dtw_result *result)
{
    return dtw_device(a, n, b, m, cost, 0, options, result);
}

pw_status pw_dtw_f64_device(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, pw_dtw_result *result)
{
    return dtw_device(a, n, b, m, cost, 1, options, result);
}
