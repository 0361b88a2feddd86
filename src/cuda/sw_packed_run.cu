/*
 * sw_packed_run.cu - SW on the warp processor with 16-bit pairs of lanes (device/
 * sw_packed_lanes.cuh): which runs may take them, and the runs (a file of their own: these
 * kernels build in parallel with linear_apps.cu's).
 */
#include "linear_run.cuh"
#include "device/sw_packed_lanes.cuh"
#include "sw_packed_run.h"

/* The packed lanes where R is even (R = 1: the scalar ones), with or without the pair table. */
template <bool PairTable>
struct SwPackedLanesFor {
    template <class App, int R>
    struct of {
        typedef SwPackedLanes<App, R, PairTable> type;
    };
    template <class App>
    struct of<App, 1> {
        typedef ScalarLanes<App, 1> type;
    };
};

/* Which lanes SW's warp processor takes: 0 the 32-bit ones, 1 the 16-bit pairs, 2 the pairs with
 * the pair score table (sw_packed_lanes.cuh).  The pairs need DPX in hardware (sm_90: elsewhere
 * it is emulated), no pruning, and scores within the bounds under which no 16-bit value wraps
 * (the header's argument, for tiles of h rows).  Only on request (PEERWAVE_SW_LANES=pairs): they
 * pass tests/gpu/test_gpu.c with its packed cases (PW_TEST_SW_PAIRS=1; H200, 2026-11-28) but run
 * 1.4-2.2x slower than the 32-bit lanes (docs/PERFORMANCE.md), which stay the default. */
int pw_cuda_sw_lanes_kind(const pw_plan *plan, const int32_t *scores, int alphabet, int32_t open, int32_t extend)
{
    pw_kernel_switches sw;
    pw_kernel_switches_read(&sw);
    int major = 0;
    if (!sw.sw_packed_lanes || plan->sw_prune || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, plan->device) != cudaSuccess || major < 9)
        return 0;
    int64_t max_s = 0, min_s = 0;
    for (int k = 0; k < alphabet * alphabet; k++) {
        max_s = scores[k] > max_s ? scores[k] : max_s;
        min_s = scores[k] < min_s ? scores[k] : min_s;
    }
    const int64_t h = plan->tiling.h, margin = 64;
    const int64_t step = max_s + open; /* two neighbouring cells' H differ by at most this */
    const int64_t delta = (PW_SW_PACKED_HIGH - PW_SW_PACKED_TARGET) + step + 32 * max_s; /* a rebase's shift */
    const bool top = PW_SW_PACKED_HIGH + step + 32 * max_s + margin <= 32767;
    const bool bottom = PW_SW_PACKED_FLOOR_MIN - open - extend - delta - margin >= -32768 &&
                        PW_SW_PACKED_FLOOR_MIN + min_s - margin >= -32768;
    const bool spread = 2 * h * step + 32 * open + margin <= PW_SW_PACKED_LOW - PW_SW_PACKED_FLOOR_MIN;
    if (!top || !bottom || !spread) return 0;
    return alphabet <= PW_SW_PAIR_ALPHABET ? 2 : 1;
}

template <class Gaps>
static pw_status run_packed(const pw_plan *plan, const SwApp<Gaps> &app, bool pair_table, pw_run_info *info)
{
    if (pair_table) return pw_cuda_run_linear<SwApp<Gaps>, SwPackedLanesFor<true>::of>(plan, app, info);
    return pw_cuda_run_linear<SwApp<Gaps>, SwPackedLanesFor<false>::of>(plan, app, info);
}

pw_status pw_cuda_run_sw_packed(const pw_plan *plan, const SwApp<SwAffineGaps> &app, bool pair_table, pw_run_info *info)
{
    return run_packed(plan, app, pair_table, info);
}

pw_status pw_cuda_run_sw_packed(const pw_plan *plan, const SwApp<SwLinearGaps> &app, bool pair_table, pw_run_info *info)
{
    return run_packed(plan, app, pair_table, info);
}
