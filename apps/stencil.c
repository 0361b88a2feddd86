/* stencil.c - pw_heat() and pw_sor(): in-place Gauss-Seidel sweeps over f32 or f64 grids. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/alloc.h"
#include "../src/core/auto_width.h"
#include "../src/core/checked.h"
#include "../src/core/exec.h"
#include "../src/core/halo_band.h"
#include "../src/core/image.h"
#include "../src/core/status_detail.h"
#include "band_apps.h"
#include "checks.h"
#include "stencil_cell.h"
#include "stencil_simd.h"
#include "../src/cpu/simd/simd_plan.h"
#include "../src/cpu/team.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

#define ST_T float
#define ST_SUFFIX f32
#include "stencil_impl.h"

#define ST_T double
#define ST_SUFFIX f64
#include "stencil_impl.h"

pw_status pw_sor_omega_check(double omega)
{
    if (omega > 0 && omega < 2) return PW_OK;
    pw_set_error_detail("omega %g: SOR converges for 0 < omega < 2", omega);
    return PW_ERR_INVALID_ARGUMENT;
}

pw_status pw_stencil_check(const pw_image *grid, int64_t sweeps)
{
    pw_status st = pw_image_check(grid);
    if (st != PW_OK) return st;
    if (grid->type != PW_F32 && grid->type != PW_F64) return PW_ERR_UNSUPPORTED;
    if (grid->rows < 3 || grid->cols < 3) return PW_ERR_INVALID_SIZE;
    if (sweeps < 0) return PW_ERR_INVALID_ARGUMENT;
    int64_t cells, all;
    if (!pw_checked_cells(grid->rows - 2, grid->cols - 2, &cells) || !pw_checked_cells(cells, sweeps, &all)) {
        pw_set_error_detail("%lld sweeps of %lldx%lld: more cells than 64 bits count", (long long)sweeps,
                            (long long)grid->rows, (long long)grid->cols);
        return PW_ERR_SIZE_OVERFLOW;
    }
    return PW_OK;
}

typedef struct residual_job {
    const pw_image *grid;
    double *sums;
    int64_t rows; /* interior rows */
} residual_job;

/* Worker w of n: its share of the interior rows, each continued from sums[i] (stencil_cell.h). */
static void residual_share(void *p, int worker, int workers)
{
    const residual_job *x = p;
    const pw_image *g = x->grid;
    const int64_t stride = pw_image_stride(g), n = g->cols - 2;
    const int64_t i0 = x->rows * worker / workers, i1 = x->rows * (worker + 1) / workers;
    for (int64_t i = i0; i < i1; i++) {
        if (g->type == PW_F32)
            x->sums[i] = pw_residual_cells_f32((const float *)g->data + (i + 1) * stride + 1, stride, n, x->sums[i]);
        else
            x->sums[i] = pw_residual_cells_f64((const double *)g->data + (i + 1) * stride + 1, stride, n, x->sums[i]);
    }
}

void pw_stencil_residual_sums(const pw_image *grid, double *sums)
{
    residual_job x = {grid, sums, grid->rows - 2};
    const int64_t cells = x.rows * (grid->cols - 2), per_thread = 1 << 18; /* (a thread costs ~20 us) */
    int64_t workers = cells / per_thread + 1;
    if (workers > pw_cpu_count()) workers = pw_cpu_count();
    if (workers > x.rows) workers = x.rows;
    pw_team_run((int)workers, residual_share, &x, NULL); /* (rows are independent: any split, one result) */
}

double pw_stencil_residual(const pw_image *grid)
{
    const int64_t rows = grid->rows - 2;
    double *sums = pw_malloc(sizeof *sums * (size_t)rows), total = 0;
    if (sums) {
        for (int64_t i = 0; i < rows; i++) sums[i] = 0;
        pw_stencil_residual_sums(grid, sums);
        for (int64_t i = 0; i < rows; i++) total += sums[i];
        free(sums);
    } else { /* (no memory for the rows' sums: the same order, one row at a time) */
        for (int64_t i = 0; i < rows; i++) {
            double row = 0;
            pw_image one = *grid;
            one.data = (char *)grid->data + (size_t)(i * pw_image_stride(grid)) * pw_dtype_size(grid->type);
            one.rows = 3;
            one.stride = pw_image_stride(grid);
            pw_stencil_residual_sums(&one, &row);
            total += row;
        }
    }
    return sqrt(total / ((double)rows * (double)(grid->cols - 2)));
}

/* The sweeps with the options' width as it is (the whole run, or a training corner); or (band not
 * NULL) one band of columns of a distributed run. */
static pw_status stencil_run(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                             const pw_band *band, double *residual, pw_run_info *info)
{
    pw_status st = pw_stencil_check(grid, sweeps);
    if (st != PW_OK) return st;
    pw_plan plan;
    st = pw_plan_make_app(options, grid->rows - 2, grid->cols - 2, 0, PW_STENCIL_CUDA_TILE_H, &plan);
    if (st != PW_OK) return st;
    plan.monitor.cells = pw_monitor_mul(plan.monitor.cells, sweeps);
    pw_run_info local;
    if (!info) info = &local;
    pw_run_info_clear(info);
    if (grid->type == PW_F32) return stencil_run_f32(grid, sweeps, sor, omega, &plan, band, residual, info);
    return stencil_run_f64(grid, sweeps, sor, omega, &plan, band, residual, info);
}

typedef struct stencil_part {
    pw_image *grid;
    int64_t sweeps;
    int sor;
    double omega;
    double *residual;
} stencil_part;

/* A training corner (auto_width.h): one sweep over a copy of the grid's top-left (rows + 2) x
 * (cols + 2), as the sweeps work in place.  Always a copy: a corner may be the whole grid (a 3 x 3
 * grid's one interior cell, or --train-ratio 1), and the training runs it several times (when the
 * whole-size call ran in place, sor on 3 x 3 with --tile-w model swept the grid six times for
 * two). */
static pw_status stencil_corner_run(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    const stencil_part *x = p;
    const pw_image *g = x->grid;
    const size_t elem = pw_dtype_size(g->type);
    const int64_t stride = pw_image_stride(g);
    pw_image corner = {g->type, rows + 2, cols + 2, 0, pw_malloc((size_t)((rows + 2) * (cols + 2)) * elem)};
    if (!corner.data) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < rows + 2; i++)
        memcpy((char *)corner.data + (size_t)(i * (cols + 2)) * elem, (const char *)g->data + (size_t)(i * stride) * elem,
               (size_t)(cols + 2) * elem);
    double residual;
    pw_status st = stencil_run(&corner, 1, x->sor, x->omega, o, NULL, &residual, info);
    free(corner.data);
    return st;
}

/* A host grid's values: finite, and at most a quarter of the type's largest, so that the sum of
 * four neighbours cannot overflow (a heat sweep's values stay within the grid's own range). */
pw_status pw_stencil_values_check(const pw_image *grid, int64_t col0)
{
    const int64_t stride = pw_image_stride(grid);
    const double limit = (grid->type == PW_F32 ? FLT_MAX : DBL_MAX) / 4;
    for (int64_t i = 0; i < grid->rows; i++)
        for (int64_t j = 0; j < grid->cols; j++) {
            const double v = grid->type == PW_F32 ? ((const float *)grid->data)[i * stride + j] : ((const double *)grid->data)[i * stride + j];
            if (fabs(v) <= limit) continue;
            if (isfinite(v)) {
                pw_set_error_detail("the value %.9g at (%lld, %lld) is over a quarter of %s's range: the sum of four "
                                    "neighbours would overflow (use %s)",
                                    v, (long long)i, (long long)(col0 + j), pw_dtype_name(grid->type),
                                    grid->type == PW_F32 ? "f64 or smaller values" : "smaller values");
                return PW_ERR_OVERFLOW;
            }
            pw_set_error_detail("a NaN or infinite value at (%lld, %lld)", (long long)i, (long long)(col0 + j));
            return PW_ERR_BAD_INPUT;
        }
    return PW_OK;
}

/* A run whose residual is not finite overflowed on the way (over-relaxation can grow values past
 * the grid's range): an error, not a grid of infinities. */
pw_status pw_stencil_residual_check(pw_status st, const double *residual)
{
    if (st != PW_OK || !residual || isfinite(*residual)) return st;
    pw_set_error_detail("the sweeps overflowed (residual %g): use smaller values, or f64 for f32", *residual);
    return PW_ERR_OVERFLOW;
}

static pw_status stencil(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                         double *residual, pw_run_info *info)
{
    pw_status st = pw_stencil_check(grid, sweeps);
    if (st == PW_OK) st = pw_stencil_values_check(grid, 0);
    if (st != PW_OK) return st;
    char app[64];
    snprintf(app, sizeof app, "%s-%s", sor ? "sor" : "heat", pw_dtype_name(grid->type));
    stencil_part x = {grid, sweeps, sor, omega, residual};
    /* (pw_run_with_width's two steps: the width chosen on copies, then the grid itself once) */
    pw_options o = pw_options_or_defaults(options);
    pw_run_info width, local;
    st = pw_choose_width(app, &o, PW_STENCIL_CUDA_TILE_H, stencil_corner_run, &x, grid->rows - 2, grid->cols - 2, &width);
    if (st != PW_OK) return st;
    if (!info) info = &local;
    st = stencil_run(grid, sweeps, sor, omega, &o, NULL, residual, info);
    pw_width_info_copy(&width, info);
    return pw_stencil_residual_check(st, residual);
}

pw_status pw_heat(pw_image *grid, int64_t sweeps, const pw_options *options, double *residual,
                  pw_run_info *info)
{
    return stencil(grid, sweeps, 0, 1.0, options, residual, info);
}

pw_status pw_sor(pw_image *grid, int64_t sweeps, double omega, const pw_options *options,
                 double *residual, pw_run_info *info)
{
    const pw_status st = pw_sor_omega_check(omega);
    return st != PW_OK ? st : stencil(grid, sweeps, 1, omega, options, residual, info);
}

pw_status pw_stencil_band(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                          const pw_band *band, pw_run_info *info)
{
    const pw_status st = sor ? pw_sor_omega_check(omega) : PW_OK;
    return st != PW_OK ? st : stencil_run(grid, sweeps, sor, omega, options, band, NULL, info);
}
