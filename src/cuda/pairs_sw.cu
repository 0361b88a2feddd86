/* pairs_sw.cu - many SW pairs on the GPU (pairs_sw.h): which kernels run them, then the pairs
 * that those could not score exactly, again.  Two pairs a warp in 16-bit lanes
 * (device/pairs_sw16_proc.cuh) where DPX is in hardware and the scores fit, then the pairs whose
 * best passed 16 bits in 32-bit lanes (device/pairs_sw_proc.cuh: a pair a warp); else 32-bit lanes
 * from the start.  A pass is pairs_pipeline.cu's: chunks gathered, copied and run side by side.
 *
 * H200, pairs of 256 x 256 and 1000 x 1000 (docs/PERFORMANCE.md, session 19): the 16-bit kernel
 * 1000-1070 GCUPS and 920 against the 32-bit one's 340 and 295. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "pairs_sw.h"
#include "pairs_pipeline.h"
#include "device/pairs_sw16_proc.cuh"
#include "device_buffer.cuh"
#include "kernel_desc.h" /* pw_kernel_switches: PEERWAVE_PAIRS_LANES */
#include "pw_cuda.h"
#include "../core/exec.h" /* pw_seconds_now */

/* A pass's kernels: 32-bit lanes (R = 2, 4 or 8) or 16-bit (R = 4, 8, 12 or 16: four rows a
 * profile word; the search's choices), with their shared memory and the blocks an SM holds. */
static pw_status kernels_of(bool narrow, int size, int32_t limit16, pw_pairs_kernels *k)
{
    memset(k, 0, sizeof *k);
    k->narrow = narrow;
    k->limit16 = limit16;
    k->encode = (const void *)pw_pairs_encode_kernel;
    if (narrow) {
        k->n = 4;
        k->rows[0] = 4, k->kernel[0] = (const void *)pw_pairs_sw16_kernel<4>;
        k->rows[1] = 8, k->kernel[1] = (const void *)pw_pairs_sw16_kernel<8>;
        k->rows[2] = 12, k->kernel[2] = (const void *)pw_pairs_sw16_kernel<12>;
        k->rows[3] = 16, k->kernel[3] = (const void *)pw_pairs_sw16_kernel<16>;
    } else {
        k->n = 3;
        k->rows[0] = 2, k->kernel[0] = (const void *)pw_pairs_sw_kernel<2>;
        k->rows[1] = 4, k->kernel[1] = (const void *)pw_pairs_sw_kernel<4>;
        k->rows[2] = 8, k->kernel[2] = (const void *)pw_pairs_sw_kernel<8>;
    }
    pw_status st = PW_OK;
    for (int f = 0; f < k->n; f++) {
        k->smem[f] = narrow ? pw_pairs16_smem_bytes(size, k->rows[f]) : 0;
        if (st == PW_OK && k->smem[f] > 0 && !pw_allow_dynamic_smem(k->kernel[f], k->smem[f])) st = PW_ERR_UNSUPPORTED;
        PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k->per_sm[f], k->kernel[f], PW_PAIRS_THREADS,
                                                                               k->smem[f])));
        if (st == PW_OK && k->per_sm[f] < 1) st = PW_ERR_UNSUPPORTED;
    }
    return st;
}

/* Does the 16-bit kernel take this scoring?  Scores within signed bytes (its profile's, -128 the
 * padding) and gaps that keep E and F above -32768 (pairs_sw16_proc.cuh); *top: the largest score. */
static bool narrow_scores(const pw_score_table *t, int32_t gap_open, int32_t gap_extend, int32_t *top)
{
    *top = 0;
    for (int k = 0; k < t->size * t->size; k++) {
        if (t->scores[k] < -127 || t->scores[k] > 127) return false;
        *top = t->scores[k] > *top ? t->scores[k] : *top;
    }
    return gap_open >= 0 && gap_extend >= 0 && (int64_t)gap_open + gap_extend <= 16384;
}

extern "C" pw_status pw_cuda_pairs_sw(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b,
                                      const pw_score_table *t, int32_t gap_open, int32_t gap_extend, const int64_t *list,
                                      int64_t count, pw_sw_hit *hits, pw_batch_progress *progress, int *lane_bits,
                                      int64_t *recomputed)
{
    *lane_bits = 32;
    *recomputed = 0;
    if (t->size > PW_PAIRS_SW_MAX_ALPHABET) return PW_ERR_UNSUPPORTED;
    if (count < 1) return PW_OK;
    /* PEERWAVE_DEBUG_BATCH_GPU=1: where the time goes, on stderr; PEERWAVE_PAIRS_LANES=32: 32-bit
     * lanes only.  Measuring switches. */
    const char *debug_env = getenv("PEERWAVE_DEBUG_BATCH_GPU");
    const bool debug = debug_env && !strcmp(debug_env, "1");
    pw_kernel_switches switches;
    pw_kernel_switches_read(&switches);
    int major = 0;
    int32_t top = 0;
    pw_status st = pw_cuda_probe(options->device);
    PW_THEN(st, pw_from_cuda(cudaSetDevice(options->device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, options->device)));
    /* 16-bit lanes where DPX is in hardware (sm_90 on) and the scores fit */
    const bool narrow = st == PW_OK && major >= 9 && !switches.pairs_lanes32 && narrow_scores(t, gap_open, gap_extend, &top);
    pw_pairs_kernels first;
    bool narrow_ran = narrow;
    PW_THEN(st, kernels_of(narrow, t->size, 32767 - top, &first));
    if (st == PW_ERR_UNSUPPORTED && narrow) { /* (the 16-bit kernels cannot run here: their shared memory) */
        narrow_ran = false;
        st = kernels_of(false, t->size, 0, &first);
    }
    const double started = pw_seconds_now();
    std::vector<int64_t> wrapped; /* (16-bit lanes: the pairs whose best may have wrapped) */
    PW_THEN(st, pw_pairs_pipeline(options, a, b, t, gap_open, gap_extend, list, count, hits, progress, &first, true, debug,
                                  &wrapped));
    if (debug) fprintf(stderr, "pairs gpu: the first pass %.3f ms in all\n", 1e3 * (pw_seconds_now() - started));
    if (st != PW_OK || !narrow_ran) return st;
    *lane_bits = 16;
    *recomputed = (int64_t)wrapped.size();
    if (wrapped.empty()) return PW_OK;
    /* those again in 32-bit lanes (their cells counted by the first pass) */
    const std::vector<int64_t> again = wrapped;
    pw_pairs_kernels wide;
    st = kernels_of(false, t->size, 0, &wide);
    PW_THEN(st, pw_pairs_pipeline(options, a, b, t, gap_open, gap_extend, again.data(), (int64_t)again.size(), hits, progress,
                                  &wide, false, debug, &wrapped));
    return st;
}
