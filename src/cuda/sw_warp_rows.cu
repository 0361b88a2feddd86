/*
 * sw_warp_rows.cu - the host side of the warp-a-tile-row SW engine (device/sw_warp_rows_proc.cuh):
 * when it takes a pair, its shape (which sequence runs down the rows, 16-bit pairs or 32-bit
 * lanes, how many warps), the profile, the runs and the end cell.
 *
 * The shape is chosen by kernel_desc.c's pw_swr_choose (plain C, tested on the CPU in
 * test_kernel_desc) from the GPU's facts read here; its rules, from bench/sw_warp_rows_sweep.sh
 * and _probe.sh on an H200 (docs/PERFORMANCE.md):
 *  - The longer sequence down the rows: more tile-rows, so rounds of warps come out fuller (the
 *    genome pair: 5.97 s this way against 7.1-7.7 s the other).
 *  - Rounds: warps take tile-rows in rounds of W; a round with a few tile-rows left costs about
 *    as much as a full one, so W is the fewest warps that need no more rounds than the whole GPU.
 *  - An SM runs its warps' column steps at its best from about 16 warps on (8 warps: 20% less), so
 *    a pair is taken when its first round gives 16 warps an SM: 2/3 of the three blocks of 8 warps
 *    an SM fit; the tile engines run the smaller ones (262144^2 has 683 tile-rows of 384: the tile
 *    engines' 1.1 TCUPS there against 0.57).  And only where the columns are enough for the
 *    pipeline fill (pairs: a round's columns 8x 64 a warp, their high halves lag; 32-bit lanes,
 *    which beat the tiles by only 1.3x: all rounds' columns 10x): a long thin pair would wait on
 *    its fill.
 *  - 16-bit pairs (two tile-rows a warp) where DPX is in hardware (sm_90) and the pair has the
 *    tile-rows for them, else 32-bit lanes; a pairs run whose values may have wrapped is run again
 *    with 32-bit lanes.
 */
#include <stdlib.h>
#include <string.h>

#include "sw_warp_rows_host.cuh"
#include "pw_cuda.h"

extern "C" int pw_cuda_sw_rows_takes(const pw_plan *plan, int64_t n, int64_t m, const int32_t *scores, int alphabet,
                                     int32_t gap_open, int32_t gap_extend)
{
    pw_kernel_switches switches;
    pw_kernel_switches_read(&switches);
    swr_run run{};
    const pw_cuda_swr_saved none = {NULL, NULL, 1, 0, 0};
    const bool takes = pw_cuda_probe(plan->device) == PW_OK &&
                       swr_plan_run(plan, (pw_sw_engine_ask)switches.sw_engine, n, m, scores, alphabet, gap_open,
                                    gap_extend, none, &run) == PW_OK;
    cudaGetLastError(); /* (an attribute query that failed leaves nothing for a later launch check) */
    return takes;
}

pw_status pw_cuda_sw_warp_rows(const pw_plan *plan, pw_sw_engine_ask ask, const uint8_t *da, int64_t n,
                               const uint8_t *db, int64_t m, const int32_t *scores, int alphabet, int32_t gap_open,
                               int32_t gap_extend, pw_cuda_swr_saved saved, int32_t *score, int64_t *end_a,
                               int64_t *end_b, pw_run_info *info)
{
    swr_run run{};
    pw_status st = swr_plan_run(plan, ask, n, m, scores, alphabet, gap_open, gap_extend, saved, &run);
    if (st != PW_OK) return st;
    const uint8_t *row_seq = run.transposed ? db : da;
    swr_gpu g(pw_plan_stream(plan));
    g.cols = run.transposed ? da : db;
    st = swr_gpu_setup(g, run, scores, alphabet, row_seq, false);
    swr_shape sh = run.sh;
    double seconds = 0;
    swr_gpu *one[1] = {&g};
    if (st == PW_OK) st = swr_attempts(plan, one, &plan->device, 1, run, n, m, gap_open, gap_extend, saved, &sh, &seconds);
    if (st != PW_OK) return st;
    int32_t bs = 0, bi = INT32_MAX, bj = INT32_MAX;
    st = swr_gpu_best(g, sh.s.warps, &bs, &bi, &bj);
    if (st != PW_OK) return st;
    *score = bs;
    *end_a = bs > 0 ? bi : -1;
    *end_b = bs > 0 ? bj : -1;
    swr_info(info, run, sh, n, m, seconds, 1);
    return PW_OK;
}
