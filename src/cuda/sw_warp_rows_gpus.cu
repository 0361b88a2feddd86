/*
 * sw_warp_rows_gpus.cu - the warp-rows SW engine over several GPUs of one host, rounds dealt out
 * (docs/DESIGN-NOTES.md, "Over several GPUs"; the protocol played out in tools/sim_warp_rows.py):
 * global round g of W tile-rows runs on GPU g mod G, the row between rounds goes to the reading
 * GPU's whole-row buffer by peer stores, and the overflow and error words are GPU 0's for all.
 * The same GPU may be named twice (its halves then run side by side: the tests' way to play the
 * protocol on one GPU, with a block cap that lets both kernels be resident).
 */
#include <stdlib.h>
#include <string.h>

#include <memory>

#include "sw_warp_rows_host.cuh"
#include "peer_access.cuh"
#include "pw_cuda.h"

#define SWR_MOST_GPUS 16

/* Device `from` reaching `to`'s memory, its pool's allocations included, with atomics (the flags
 * on GPU 0 are set by atomicExch); nothing to do for the same device. */
static pw_status swr_peer(int from, int to)
{
    if (from == to) return PW_OK;
    int can = 0, atomics = 0;
    pw_status st = pw_from_cuda(cudaDeviceCanAccessPeer(&can, from, to));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, from, to)));
    if (st != PW_OK) return st;
    if (!can || !atomics) {
        pw_set_error_detail("GPU %d cannot reach GPU %d's memory with atomics (peer access %d, atomics %d): the "
                            "warp-rows engine needs both over several GPUs",
                            from, to, can, atomics);
        return PW_ERR_UNSUPPORTED;
    }
    PW_THEN(st, pw_from_cuda(cudaSetDevice(from)));
    PW_THEN(st, pw_cuda_reach(from, to));
    return st;
}

extern "C" pw_status pw_cuda_sw_warp_rows_gpus(const pw_plan *plan, const int *devices, int gpus, const uint8_t *a,
                                               int64_t n, const uint8_t *b, int64_t m, const int32_t *scores,
                                               int alphabet, int32_t gap_open, int32_t gap_extend, int32_t *score,
                                               int64_t *end_a, int64_t *end_b, pw_run_info *info)
{
    if (gpus < 2 || gpus > SWR_MOST_GPUS) return PW_ERR_UNSUPPORTED;
    pw_kernel_switches switches;
    pw_kernel_switches_read(&switches);
    const pw_sw_engine_ask ask = (pw_sw_engine_ask)switches.sw_engine;
    /* taken where one GPU's choice takes the pair (AUTO) or where asked for; TILES leaves it to the
     * bands (swr_plan_run).  Checked on one GPU named several times and on 2 H200s
     * (tests/gpu/test_sw_rows.c; tools/sim_warp_rows.py, the protocol) */
    /* the shape on each GPU (all of one kind), then dealt out */
    const pw_cuda_swr_saved none = {NULL, NULL, 1, 0, 0};
    swr_run run{};
    pw_status st = PW_OK;
    for (int x = 0; x < gpus && st == PW_OK; x++) {
        pw_plan on = *plan;
        on.device = devices[x];
        swr_run mine{};
        st = pw_cuda_probe(devices[x]);
        PW_THEN(st, swr_plan_run(&on, ask, n, m, scores, alphabet, gap_open, gap_extend, none, &mine, true));
        if (st != PW_OK) break;
        if (x == 0) run = mine;
        else if (memcmp(&mine.sh.s, &run.sh.s, sizeof run.sh.s) != 0 || mine.sh.most_blocks != run.sh.most_blocks) {
            pw_set_error_detail("the warp-rows engine over several GPUs needs GPUs of one kind (GPU %d differs from "
                                "GPU %d)",
                                devices[x], devices[0]);
            st = PW_ERR_UNSUPPORTED;
        }
    }
    cudaGetLastError();
    if (st != PW_OK) return st;
    if (!pw_swr_spread(&run.sh.s, gpus, run.cols) || (run.sh.s.pairs && !pw_swr_spread(&run.wide.s, gpus, run.cols)))
        return PW_ERR_UNSUPPORTED;
    /* a GPU named r times runs r kernels side by side: all must be resident at once */
    for (int x = 0; x < gpus; x++) {
        int times = 0;
        for (int y = 0; y < gpus; y++) times += devices[y] == devices[x];
        const int64_t grid = run.sh.s.grid > run.wide.s.grid ? run.sh.s.grid : run.wide.s.grid;
        if (times > 1 && grid * times > run.sh.most_blocks) {
            pw_set_error_detail("GPU %d named %d times: its %d kernels of %lld blocks do not fit it at once (%lld): cap "
                                "the blocks (max_blocks)",
                                devices[x], times, times, (long long)grid, (long long)run.sh.most_blocks);
            return PW_ERR_UNSUPPORTED;
        }
    }
    /* peer access: to the next GPU (its whole-row buffer and counters) and to GPU 0 (the flags) */
    for (int x = 0; x < gpus && st == PW_OK; x++) {
        st = swr_peer(devices[x], devices[(x + 1) % gpus]);
        PW_THEN(st, swr_peer(devices[x], devices[0]));
    }
    if (st != PW_OK) return st;

    const uint8_t *row_seq = run.transposed ? b : a, *col_seq = run.transposed ? a : b;
    cudaStream_t streams[SWR_MOST_GPUS] = {0};
    std::unique_ptr<swr_gpu> gs[SWR_MOST_GPUS];
    for (int x = 0; x < gpus && st == PW_OK; x++) {
        st = pw_from_cuda(cudaSetDevice(devices[x]));
        PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&streams[x], cudaStreamNonBlocking)));
        if (st != PW_OK) break;
        gs[x].reset(new swr_gpu(streams[x]));
        swr_gpu &g = *gs[x];
        PW_THEN(st, g.rows_seq.upload(row_seq, (size_t)run.rows));
        PW_THEN(st, g.cols_seq.upload(col_seq, (size_t)run.cols));
        g.cols = g.cols_seq.ptr;
        PW_THEN(st, swr_gpu_setup(g, run, scores, alphabet, g.rows_seq.ptr, true));
    }
    swr_gpu *all[SWR_MOST_GPUS];
    for (int x = 0; x < gpus; x++) all[x] = gs[x].get();
    swr_shape sh = run.sh;
    double seconds = 0;
    if (st == PW_OK) st = swr_attempts(plan, all, devices, gpus, run, n, m, gap_open, gap_extend, none, &sh, &seconds);
    int32_t bs = 0, bi = INT32_MAX, bj = INT32_MAX;
    for (int x = 0; x < gpus && st == PW_OK; x++) {
        st = pw_from_cuda(cudaSetDevice(devices[x]));
        PW_THEN(st, swr_gpu_best(*gs[x], sh.s.warps, &bs, &bi, &bj));
    }
    for (int x = 0; x < gpus; x++) /* nothing runs any more on any GPU before anything is freed */
        if (streams[x]) {
            cudaSetDevice(devices[x]);
            cudaStreamSynchronize(streams[x]);
        }
    for (int x = 0; x < gpus; x++) { /* buffers freed on their streams, then the streams */
        cudaSetDevice(devices[x]);
        gs[x].reset();
        if (streams[x]) {
            cudaStreamSynchronize(streams[x]);
            cudaStreamDestroy(streams[x]);
        }
    }
    cudaSetDevice(devices[0]);
    if (st != PW_OK) return st;
    *score = bs;
    *end_a = bs > 0 ? bi : -1;
    *end_b = bs > 0 ? bj : -1;
    swr_info(info, run, sh, n, m, seconds, gpus);
    return PW_OK;
}
