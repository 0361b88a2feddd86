/* stencil.c - pw_heat() and pw_sor(): in-place Gauss-Seidel sweeps over f32 or f64 grids. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/alloc.h"
#include "../src/core/auto_width.h"
#include "../src/core/exec.h"
#include "../src/core/image.h"
#include "checks.h"
#include "stencil_cell.h"
#include "stencil_simd.h"
#include "../src/cpu/simd/simd_plan.h"
#ifdef PW_HAVE_CUDA
#include "../src/cuda/pw_cuda.h"
#endif

#define ST_T float
#define ST_SUFFIX f32
#include "stencil_impl.h"

#define ST_T double
#define ST_SUFFIX f64
#include "stencil_impl.h"

pw_status pw_stencil_check(const pw_image *grid, int64_t sweeps)
{
    pw_status st = pw_image_check(grid);
    if (st != PW_OK) return st;
    if (grid->type != PW_F32 && grid->type != PW_F64) return PW_ERR_UNSUPPORTED;
    if (grid->rows < 3 || grid->cols < 3) return PW_ERR_INVALID_SIZE;
    return sweeps < 0 ? PW_ERR_INVALID_ARGUMENT : PW_OK;
}

double pw_stencil_residual(const pw_image *grid)
{
    const int64_t stride = pw_image_stride(grid);
    return grid->type == PW_F32 ? stencil_residual_f32(grid->data, grid->rows, grid->cols, stride)
                                : stencil_residual_f64(grid->data, grid->rows, grid->cols, stride);
}

/* The sweeps with the options' width as it is (the whole run, or a training corner). */
static pw_status stencil_run(pw_image *grid, int64_t sweeps, int sor, double omega,
                             const pw_options *options, double *residual, pw_run_info *info)
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
    if (grid->type == PW_F32) return stencil_run_f32(grid, sweeps, sor, omega, &plan, residual, info);
    return stencil_run_f64(grid, sweeps, sor, omega, &plan, residual, info);
}

typedef struct stencil_part {
    pw_image *grid;
    int64_t sweeps;
    int sor;
    double omega;
    double *residual;
} stencil_part;

/* The whole run (rows x cols: the interior), or a training corner: one sweep over a copy of the
 * grid's top-left (rows + 2) x (cols + 2), as the sweeps work in place (auto_width.h). */
static pw_status stencil_part_run(void *p, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    const stencil_part *x = p;
    const pw_image *g = x->grid;
    if (rows == g->rows - 2 && cols == g->cols - 2) return stencil_run(x->grid, x->sweeps, x->sor, x->omega, o, x->residual, info);
    const size_t elem = pw_dtype_size(g->type);
    const int64_t stride = pw_image_stride(g);
    pw_image corner = {g->type, rows + 2, cols + 2, 0, pw_malloc((size_t)((rows + 2) * (cols + 2)) * elem)};
    if (!corner.data) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < rows + 2; i++)
        memcpy((char *)corner.data + (size_t)(i * (cols + 2)) * elem, (const char *)g->data + (size_t)(i * stride) * elem,
               (size_t)(cols + 2) * elem);
    double residual;
    pw_status st = stencil_run(&corner, 1, x->sor, x->omega, o, &residual, info);
    free(corner.data);
    return st;
}

static pw_status stencil(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                         double *residual, pw_run_info *info)
{
    pw_status st = pw_stencil_check(grid, sweeps);
    if (st != PW_OK) return st;
    char app[64];
    snprintf(app, sizeof app, "%s-%s", sor ? "sor" : "heat", pw_dtype_name(grid->type));
    stencil_part x = {grid, sweeps, sor, omega, residual};
    return pw_run_with_width(app, options, stencil_part_run, &x, grid->rows - 2, grid->cols - 2, info);
}

pw_status pw_heat(pw_image *grid, int64_t sweeps, const pw_options *options, double *residual,
                  pw_run_info *info)
{
    return stencil(grid, sweeps, 0, 1.0, options, residual, info);
}

pw_status pw_sor(pw_image *grid, int64_t sweeps, double omega, const pw_options *options,
                 double *residual, pw_run_info *info)
{
    if (!(omega > 0 && omega < 2)) return PW_ERR_INVALID_ARGUMENT;
    return stencil(grid, sweeps, 1, omega, options, residual, info);
}
