/* batch_sw.h - the CUDA engine of the database search (batch_sw.cu; device code:
 * device/batch_sw_proc.cuh), called by src/batch/sw_batch.c. */
#ifndef PW_CUDA_BATCH_SW_H
#define PW_CUDA_BATCH_SW_H

#include "../batch/sw_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records longer than this go to the single-pair engine (a warp would take too long over them). */
#define PW_BATCH_GPU_MAX_COLUMNS 8192

/* A search's GPU side: the records (all but those too long for a warp) uploaded once for the
 * queries; PW_ERR_UNSUPPORTED when a score does not fit a signed byte (the profile's): the caller
 * runs the CPU engine.  *lane_bits: 16 or 32. */
typedef struct pw_cuda_batch pw_cuda_batch;
pw_status pw_cuda_batch_create(const pw_options *options, const sw_batch_db *db, const pw_score_table *table,
                               int32_t gap_open, int32_t gap_extend, const sw_batch_query *queries, int64_t nq,
                               pw_cuda_batch **out, int *lane_bits);

/* Sorted records [r0, r1) against every query: scores[q * db->count + r]; adds the pairs
 * recomputed with 32-bit cells and those the single-pair engine took. */
pw_status pw_cuda_batch_score(pw_cuda_batch *batch, int64_t r0, int64_t r1, int32_t *scores, int64_t *recomputed,
                              int64_t *long_pairs, pw_batch_progress *progress);
void pw_cuda_batch_destroy(pw_cuda_batch *batch);

/* Records that fill the session's GPU: a warp an item of `lanes` records, 32 warps an SM, half
 * the 64 an SM can hold: two queries are in flight, and the kernels hold 24 to 32 warps an SM
 * each (the longest query's form, R = 16, holds 24). */
int64_t pw_cuda_batch_fill_records(const pw_cuda_batch *batch);

#ifdef __cplusplus
}
#endif

#endif
