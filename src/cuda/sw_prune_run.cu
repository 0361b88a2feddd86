/*
 * sw_prune_run.cu - SW with block pruning (device/warp_proc.cuh's prune_chunk): the same app as
 * the plain runs', as the type whose kernels hold the pruning code (SwApp<Gaps, false, true>).
 * A file of its own so that these kernels build in parallel with linear_apps.cu's, and so that
 * the plain kernels stay free of that code (app_sw.cuh says what it cost them).
 */
#include "linear_run.cuh"
#include "sw_prune_run.h"

template <class Gaps>
static pw_status run_pruned(const pw_plan *plan, const SwApp<Gaps> &app, pw_run_info *info)
{
    return pw_cuda_run_linear(plan, app.template with_prunes<true>(), info);
}

pw_status pw_cuda_run_sw_pruned(const pw_plan *plan, const SwApp<SwAffineGaps> &app, pw_run_info *info)
{
    return run_pruned(plan, app, info);
}

pw_status pw_cuda_run_sw_pruned(const pw_plan *plan, const SwApp<SwLinearGaps> &app, pw_run_info *info)
{
    return run_pruned(plan, app, info);
}
