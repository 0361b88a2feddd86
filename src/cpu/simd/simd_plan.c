/* simd_plan.c - fitting a CPU plan's tiles to a vector tile processor (simd_plan.h). */
#include "simd_plan.h"

pw_status pw_simd_fit_plan(pw_plan *plan, const pw_options *options, int lanes, int rows, int *use)
{
    *use = 0;
    pw_tiling *t = &plan->tiling;
    if (plan->backend != PW_BACKEND_CPU || plan->strategy == PW_STRATEGY_SEQUENTIAL || lanes < 2 ||
        t->shape != PW_TILE_HYPER || t->skew != 0)
        return PW_OK;
    int64_t h = t->h;
    if (!options || options->tile_h == 0) h = (h + rows - 1) / rows * rows; /* automatic */
    int64_t w = (t->w + lanes - 1) / lanes * lanes;
    pw_status st = pw_tiling_init(t, t->rows, t->cols, 0, PW_TILE_HYPER, h, w);
    if (st != PW_OK) return st;
    plan->workers = (int)(plan->workers_available < t->n_rows ? plan->workers_available : t->n_rows);
    *use = t->h % lanes == 0 || t->n_rows == 1; /* a given height that does not fit: the scalar cells */
    return PW_OK;
}
