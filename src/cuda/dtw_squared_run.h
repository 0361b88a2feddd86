/*
 * dtw_squared_run.h - DTW with the squared cost on the GPU: the kernels compiled for it
 * (dtw_squared_run.cu), for linear_apps.cu.
 */
#ifndef PW_CUDA_DTW_SQUARED_RUN_H
#define PW_CUDA_DTW_SQUARED_RUN_H

#include "../core/plan.h"
#include "device/app_dtw.cuh"

/* app's series and storage on the kernels whose cost is (a - b)^2. */
pw_status pw_cuda_run_dtw_squared(const pw_plan *plan, const DtwApp<float, false, false, 0> &app, pw_run_info *info);
pw_status pw_cuda_run_dtw_squared(const pw_plan *plan, const DtwApp<double, false, false, 0> &app, pw_run_info *info);

#endif
