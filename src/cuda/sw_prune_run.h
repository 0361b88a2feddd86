/*
 * sw_prune_run.h - SW with block pruning on the GPU (pw_options.sw_prune): the kernels that can
 * skip chunks (sw_prune_run.cu), for linear_apps.cu.
 */
#ifndef PW_CUDA_SW_PRUNE_RUN_H
#define PW_CUDA_SW_PRUNE_RUN_H

#include "../core/plan.h"
#include "device/app_sw.cuh"

/* app (its prune_best, pruned and max_score set) on the pruning kernels. */
pw_status pw_cuda_run_sw_pruned(const pw_plan *plan, const SwApp<SwAffineGaps> &app, pw_run_info *info);
pw_status pw_cuda_run_sw_pruned(const pw_plan *plan, const SwApp<SwLinearGaps> &app, pw_run_info *info);

#endif
