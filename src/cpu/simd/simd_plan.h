/* simd_plan.h - fitting a CPU plan's tiles to a vector tile processor (src/cpu/simd/antidiag.h). */
#ifndef PW_SIMD_PLAN_H
#define PW_SIMD_PLAN_H

#include "../../core/plan.h"

/* May a vector processor of `lanes` lanes, running `rows` rows together (lanes x groups), take
 * this plan?  It needs a CPU plan that is not the sequential reference, hyper tiles of skew 0,
 * and a tile height that is a multiple of the lanes (or one tile-row).  An automatic height is
 * rounded up to a multiple of `rows`, a given one to a multiple of `lanes`, and every width to a
 * multiple of `lanes`: when *use is 1 the
 * tiling was cut again so (and the workers capped at its tile-rows); when 0 the plan is as it
 * was.  Returns the tiling's status, else PW_OK. */
pw_status pw_simd_fit_plan(pw_plan *plan, const pw_options *options, int lanes, int rows, int *use);

#endif
