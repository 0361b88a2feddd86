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
 *    engines' 1.1 TCUPS there against 0.57).  And only where the columns are at least 4x a round's
 *    pipeline fill (64 columns a warp; twice that for the pairs, whose high halves lag): a long
 *    thin pair would wait on its fill.
 *  - 16-bit pairs (two tile-rows a warp) where DPX is in hardware (sm_90) and the pair has the
 *    tile-rows for them, else 32-bit lanes; a pairs run whose values may have wrapped is run again
 *    with 32-bit lanes.
 */
#include <stdlib.h>
#include <string.h>

#include "sw_warp_rows.h"
#include "device/sw_warp_rows_proc.cuh"
#include "device_buffer.cuh"
#include "launch.h"
#include "pw_cuda.h"

/* The kernels of one R (rows a thread): 12 for the score (the sweep: ahead of 8, 16 and 20 on the
 * genome pair); 16 for the alignment search's saved rows, whose spacing is a multiple of 1024 (of
 * 32 R: each a tile-row's last row). */
struct swr_kernels {
    int r;
    const void *lanes32, *pairs16;
    void (*profile)(const uint8_t *, int, const int32_t *, int, int, uint32_t *);
};
template <int R, bool SAVE>
static swr_kernels swr_kernels_of()
{
    return swr_kernels{R, (const void *)pw_swr_kernel<R, SAVE>, (const void *)pw_swr_pairs_kernel<R, SAVE>,
                       pw_swr_profile_kernel<R>};
}
#define SWR_SCORE_R 12
#define SWR_SAVE_R 16

/* One kernel's launch on the args: the kernel's seconds added to *seconds. */
static pw_status swr_launch(const void *kernel, pw_swr_args args, int grid, size_t smem, cudaStream_t s,
                            double *seconds)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    pw_status st = pw_from_cuda(cudaEventCreate(&e0));
    PW_THEN(st, pw_from_cuda(cudaEventCreate(&e1)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(e0, s)));
    void *params[] = {&args};
    PW_THEN(st, pw_from_cuda(cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(PW_SWR_THREADS), params, smem, s)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(e1, s)));
    PW_THEN(st, pw_from_cuda(cudaEventSynchronize(e1)));
    float ms = 0;
    PW_THEN(st, pw_from_cuda(cudaEventElapsedTime(&ms, e0, e1)));
    if (st == PW_OK) *seconds += ms / 1e3;
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return st;
}

/* The shape of a run (kernel_desc.c's pw_swr_choose) and what the host adds to it. */
struct swr_shape {
    swr_kernels kern;
    pw_swr_shape s;
    int64_t most_blocks; /* of either lane width: the buffers' size, so a rerun fits them */
    size_t smem;
};

/* The GPU's facts for this R, then the shape for rows x cols, or PW_ERR_UNSUPPORTED. */
static pw_status swr_choose(const pw_plan *plan, pw_sw_engine_ask ask, int64_t rows, int64_t cols, int letters,
                            const swr_kernels &kern, swr_shape *sh)
{
    sh->kern = kern;
    int coop = 0, major = 0;
    pw_swr_gpu gpu = {0, 0, 0, 0, plan->workers > 0 ? plan->workers : 0};
    pw_status st = pw_from_cuda(cudaDeviceGetAttribute(&gpu.sms, cudaDevAttrMultiProcessorCount, plan->device));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, plan->device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, plan->device)));
    const size_t words = (size_t)letters * (kern.r / 4) * 32 * sizeof(uint32_t) * PW_SWR_BLOCK_WARPS;
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&gpu.per_sm32, kern.lanes32, PW_SWR_THREADS,
                                                                            words)));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&gpu.per_sm16, kern.pairs16, PW_SWR_THREADS,
                                                                            2 * words)));
    if (st != PW_OK) return st;
    gpu.dpx = major >= 9;
    if (!coop || !pw_swr_choose(&gpu, ask, kern.r, rows, cols, &sh->s)) return PW_ERR_UNSUPPORTED;
    const int64_t grid32 = (int64_t)gpu.sms * gpu.per_sm32, grid16 = (int64_t)gpu.sms * gpu.per_sm16;
    sh->most_blocks = grid16 > grid32 ? grid16 : grid32;
    sh->smem = sh->s.pairs ? 2 * words : words;
    return PW_OK;
}

/* What only the tile engines do: block pruning, a band of a distributed run, a strategy other than
 * peer, the stuck-row fault injection, a trace, a progress hook or a cancel flag. */
static bool swr_plan_allows(const pw_plan *plan)
{
    return !plan->sw_prune && !plan->band && plan->strategy == PW_STRATEGY_PEER && plan->stuck_row < 0 &&
           !plan->trace && !pw_monitor_on(&plan->monitor);
}

/* A run as the engine would make it: its kernels, orientation, shape and the 32-bit shape a pairs
 * run falls back to; the table's top score.  PW_ERR_UNSUPPORTED where the engine does not take it. */
struct swr_run {
    swr_kernels kern;
    int transposed;
    int64_t rows, cols;
    int letters;
    int32_t top;
    swr_shape sh, wide;
};
static pw_status swr_plan_run(const pw_plan *plan, pw_sw_engine_ask ask, int64_t n, int64_t m, const int32_t *scores,
                              int alphabet, int32_t gap_open, int32_t gap_extend, const pw_cuda_swr_saved &saved,
                              swr_run *run)
{
    const bool saving = saved.h && saved.slots > 0;
    run->kern = saving ? swr_kernels_of<SWR_SAVE_R, true>() : swr_kernels_of<SWR_SCORE_R, false>();
    if (ask == PW_SW_ENGINE_TILES || !swr_plan_allows(plan) || n < 1 || m < 1 || alphabet < 1 ||
        alphabet + 1 > PW_SWR_MAX_LETTERS || gap_open < 0 || gap_extend < 0 || gap_open > (1 << 14) ||
        gap_extend > (1 << 14) ||
        (saving && (saved.every % (32 * run->kern.r) != 0 || saved.every > INT32_MAX || saved.slots > INT32_MAX)))
        return PW_ERR_UNSUPPORTED;
    run->top = 0;
    for (int k = 0; k < alphabet * alphabet; k++) {
        if (scores[k] < -127 || scores[k] > 127) return PW_ERR_UNSUPPORTED;
        run->top = scores[k] > run->top ? scores[k] : run->top;
    }
    run->letters = alphabet + 1;
    /* the longer sequence down the rows (the caller's coordinates come back through `transposed`);
     * the saved rows are a's */
    run->transposed = n < m && !saving;
    run->rows = run->transposed ? m : n, run->cols = run->transposed ? n : m;
    pw_status st = swr_choose(plan, ask, run->rows, run->cols, run->letters, run->kern, &run->sh);
    /* a pairs run only where its 32-bit rerun, should 16 bits overflow, fits as well */
    if (st == PW_OK && run->sh.s.pairs)
        st = swr_choose(plan, PW_SW_ENGINE_ROWS32, run->rows, run->cols, run->letters, run->kern, &run->wide);
    return st;
}

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
    const bool saving = saved.h && saved.slots > 0;
    swr_run run{};
    pw_status st = swr_plan_run(plan, ask, n, m, scores, alphabet, gap_open, gap_extend, saved, &run);
    if (st != PW_OK) return st;
    const swr_kernels kern = run.kern;
    const int transposed = run.transposed, letters = run.letters;
    const int32_t top = run.top;
    const uint8_t *row_seq = transposed ? db : da, *col_seq = transposed ? da : db;
    const int64_t rows = run.rows, cols = run.cols;
    swr_shape sh = run.sh, wide = run.wide;
    /* the table the way the kernels read it: [row letter][column letter] */
    int32_t table_rc[PW_SWR_MAX_LETTERS * PW_SWR_MAX_LETTERS];
    for (int x = 0; x < alphabet; x++)
        for (int y = 0; y < alphabet; y++)
            table_rc[x * alphabet + y] = transposed ? scores[y * alphabet + x] : scores[x * alphabet + y];

    cudaStream_t s = pw_plan_stream(plan);
    const int64_t max_warps = sh.most_blocks * PW_SWR_BLOCK_WARPS;
    const int64_t max_span = cols + 64 * max_warps + 256 + 1; /* (the pairs' lag at most) */
    const size_t profile_words = (size_t)sh.s.tile_rows * letters * (kern.r / 4) * 32;
    st = pw_cuda_reserve((double)profile_words * 4 + (double)max_warps * (PW_SWR_RING * 8 + 32) +
                         2.0 * (double)max_span * 8 + 64);
    if (st != PW_OK) return st;
    pw_device_buffer<uint32_t> profile(s), prod(s), cons(s);
    pw_device_buffer<int32_t> table(s);
    pw_device_buffer<int2> ring(s), full(s);
    pw_device_buffer<int4> warp_best(s);
    pw_device_buffer<int> flags(s); /* overflow, error */
    PW_THEN(st, profile.alloc(profile_words));
    PW_THEN(st, table.upload(table_rc, (size_t)alphabet * alphabet));
    PW_THEN(st, ring.alloc((size_t)max_warps * PW_SWR_RING));
    PW_THEN(st, full.alloc(2 * (size_t)max_span));
    PW_THEN(st, prod.alloc((size_t)max_warps));
    PW_THEN(st, cons.alloc((size_t)max_warps));
    PW_THEN(st, warp_best.alloc((size_t)max_warps));
    PW_THEN(st, flags.alloc(2));
    if (st != PW_OK) return st;
    kern.profile<<<1024, 256, 0, s>>>(row_seq, (int)rows, table.ptr, letters, (int)sh.s.tile_rows, profile.ptr);
    st = pw_from_cuda(cudaGetLastError());

    /* the pairs' stored 0 (device/sw_warp_rows_proc.cuh): room below it for a score of -128 and
     * for E and F, which reach gap_open + gap_extend below a true 0 (at most 2^15: each gap is
     * at most 2^14 here, so the floor is at most 0) */
    const int pair_floor = -32768 + (gap_open + gap_extend > 128 ? gap_open + gap_extend : 128);
    double seconds = 0;
    int flag[2] = {0, 0};
    for (int attempt = 0; st == PW_OK; attempt++) {
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(prod.ptr, 0, sizeof(unsigned) * (size_t)sh.s.warps, s)));
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(cons.ptr, 0, sizeof(unsigned) * (size_t)sh.s.warps, s)));
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(flags.ptr, 0, 2 * sizeof(int), s)));
        pw_swr_args args = {profile.ptr, col_seq, (int)sh.s.tile_rows, (int)rows, (int)cols, letters, gap_open,
                            gap_extend, (int)sh.s.warps, (int)sh.s.lag, ring.ptr, full.ptr, prod.ptr, cons.ptr, transposed,
                            32767 - top, pair_floor, flags.ptr, warp_best.ptr, flags.ptr + 1,
                            plan->watchdog_ns ? plan->watchdog_ns : PW_CUDA_WATCHDOG_NS};
        if (saving) {
            args.saved_h = saved.h, args.saved_f = saved.f;
            args.every = (int)saved.every, args.slots = (int)saved.slots;
            args.linear = gap_open == gap_extend, args.linear_f = saved.linear_f;
        }
        const void *kernel = sh.s.pairs ? kern.pairs16 : kern.lanes32;
        PW_THEN(st, swr_launch(kernel, args, (int)sh.s.grid, sh.smem, s, &seconds));
        PW_THEN(st, flags.download(flag, 2));
        if (st != PW_OK) break;
        if (flag[1]) {
            pw_set_error_detail("the SW warp-rows engine saw no progress for the watchdog interval");
            st = PW_ERR_TIMEOUT;
            break;
        }
        if (!(sh.s.pairs && flag[0])) break;
        sh = wide; /* 16 bits may have wrapped: 32-bit lanes */
    }
    if (st != PW_OK) return st;
    int4 *bests = (int4 *)malloc(sizeof(int4) * (size_t)sh.s.warps);
    if (!bests) return PW_ERR_OUT_OF_MEMORY;
    st = warp_best.download(bests, (size_t)sh.s.warps);
    if (st == PW_OK) { /* pw_sw's rule: the best score, then the smallest row, then column */
        int32_t bs = 0, bi = INT32_MAX, bj = INT32_MAX;
        for (int w = 0; w < sh.s.warps; w++) {
            const int4 b = bests[w];
            if (b.x > bs || (b.x == bs && b.x > 0 && (b.y < bi || (b.y == bi && b.z < bj)))) bs = b.x, bi = b.y, bj = b.z;
        }
        *score = bs;
        *end_a = bs > 0 ? bi : -1;
        *end_b = bs > 0 ? bj : -1;
    }
    free(bests);
    if (st == PW_OK && info) {
        info->backend = PW_BACKEND_CUDA;
        info->strategy = PW_STRATEGY_PEER;
        info->shape = PW_TILE_HYPER;
        info->tile_h = 32 * kern.r;
        info->tile_w = 32;
        info->threads = (int)sh.s.grid;
        info->threads_available = (int)sh.s.available_blocks;
        info->skew = 0;
        info->cells += n * m;
        info->seconds += seconds;
        info->lane_bits = sh.s.pairs ? 16 : 32;
    }
    return st;
}
