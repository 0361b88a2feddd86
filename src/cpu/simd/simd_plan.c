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
    else h = (h + lanes - 1) / lanes * lanes; /* given: whole vectors (the tile-width model's corners
                                                  give the full run's scalar height, e.g. 37) */
    int64_t w = (t->w + lanes - 1) / lanes * lanes;
    pw_tiling fitted;
    pw_status st = pw_tiling_init(&fitted, t->rows, t->cols, 0, PW_TILE_HYPER, h, w);
    if (st != PW_OK) return st;
    if (fitted.h % lanes != 0 && fitted.n_rows > 1) return PW_OK; /* (cannot happen: kept as the rule) */
    *t = fitted;
    plan->workers = (int)(plan->workers_available < t->n_rows ? plan->workers_available : t->n_rows);
    *use = 1;
    return PW_OK;
}
