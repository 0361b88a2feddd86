/*
 * sw_packed_run.h - SW's 16-bit pairs of lanes on the warp processor (sw_packed_run.cu), for
 * linear_apps.cu.
 */
#ifndef PW_CUDA_SW_PACKED_RUN_H
#define PW_CUDA_SW_PACKED_RUN_H

#include "../core/plan.h"
#include "device/app_sw.cuh"

/* 0: the 32-bit lanes; 1: the 16-bit pairs; 2: the pairs with the pair score table. */
int pw_cuda_sw_lanes_kind(const pw_plan *plan, const int32_t *scores, int alphabet, int32_t open, int32_t extend);

/* app on the warp processor with 16-bit pairs of lanes (pair_table: pw_cuda_sw_lanes_kind said 2). */
pw_status pw_cuda_run_sw_packed(const pw_plan *plan, const SwApp<SwAffineGaps> &app, bool pair_table, pw_run_info *info);
pw_status pw_cuda_run_sw_packed(const pw_plan *plan, const SwApp<SwLinearGaps> &app, bool pair_table, pw_run_info *info);

#endif
