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

/* queries[0 .. nq) against every record of db: scores[q * db->count + k] for sorted record k.
 * PW_ERR_UNSUPPORTED when a score does not fit a signed byte (the profile's): the caller runs
 * the CPU engine.  Adds to info's recomputed and long_pairs; sets lane_bits. */
pw_status pw_cuda_sw_batch(const pw_options *options, const sw_batch_db *db, const pw_score_table *table,
                           int32_t gap_open, int32_t gap_extend, const sw_batch_query *queries, int64_t nq,
                           int32_t *scores, pw_batch_info *info);

#ifdef __cplusplus
}
#endif

#endif
