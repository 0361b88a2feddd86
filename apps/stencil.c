/* stencil.c - pw_heat() and pw_sor(): in-place Gauss-Seidel sweeps over f32 or f64 grids. */
#include <math.h>

#include "../src/core/exec.h"
#include "../src/core/image.h"
#include "checks.h"
#include "stencil_cell.h"
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

static pw_status stencil(pw_image *grid, int64_t sweeps, int sor, double omega,
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
