/*
 * dtw_squared_run.cu - DTW's distance with the squared cost: the same app as the |a - b| runs',
 * as the type whose kernels compute (a - b)^2 (app_dtw.cuh's CostKind; a select of both costs in
 * one kernel was 1.13x slower).  A file of its own so that these kernels build in parallel with
 * linear_apps.cu's.
 */
#include "dtw_squared_run.h"
#include "linear_run.cuh"

template <class F>
static pw_status run_squared(const pw_plan *plan, const DtwApp<F, false, false, 0> &app, pw_run_info *info)
{
    return pw_cuda_run_linear(plan, app.template with_cost<1>(), info);
}

pw_status pw_cuda_run_dtw_squared(const pw_plan *plan, const DtwApp<float, false, false, 0> &app, pw_run_info *info)
{
    return run_squared(plan, app, info);
}

pw_status pw_cuda_run_dtw_squared(const pw_plan *plan, const DtwApp<double, false, false, 0> &app, pw_run_info *info)
{
    return run_squared(plan, app, info);
}
