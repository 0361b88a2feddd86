/* pairs_sw.h - the CUDA engine of many SW pairs, each its own query and record (pairs_sw.cu;
 * device code: device/pairs_sw_proc.cuh), called by src/batch/sw_batch.c's pw_sw_pairs. */
#ifndef PW_CUDA_PAIRS_SW_H
#define PW_CUDA_PAIRS_SW_H

#include "../batch/sw_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pairs longer than this on either side go to the CPU (a warp would take too long over them). */
#define PW_PAIRS_GPU_MAX_LENGTH 8192

/* Pairs list[0 .. count) (pair k: a's sequence k against b's sequence k) on options->device:
 * hits[k] of each gets its score and end cell, pw_sw's bit for bit.  PW_ERR_UNSUPPORTED when the
 * alphabet is larger than the kernel's table (the caller runs them on the CPU).  progress: the
 * cells of each launch as it ends; a stop asked for is honoured between launches.  *lane_bits: 16
 * where two pairs a warp ran in 16-bit lanes, of which *recomputed passed 16 bits and were scored
 * again in 32-bit lanes; else 32. */
pw_status pw_cuda_pairs_sw(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *table,
                           int32_t gap_open, int32_t gap_extend, const int64_t *list, int64_t count, pw_sw_hit *hits,
                           pw_batch_progress *progress, int *lane_bits, int64_t *recomputed);

#ifdef __cplusplus
}
#endif

#endif
