/* batch_dtw.h - the CUDA engine of many DTW distances (batch_dtw.cu; device code:
 * device/batch_dtw_proc.cuh), called by src/batch/dtw_batch.c. */
#ifndef PW_CUDA_BATCH_DTW_H
#define PW_CUDA_BATCH_DTW_H

#include "peerwave_batch.h"
#include "../batch/batch_progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both sets' samples uploaded once to options->device (on options->cuda_stream). */
typedef struct pw_cuda_dtw_batch pw_cuda_dtw_batch;
pw_status pw_cuda_dtw_batch_create(const pw_options *options, const pw_series_set *a, const pw_series_set *b,
                                   pw_cuda_dtw_batch **out);

/* Distances of pairs t = 0 .. count - 1 into out[t] (host): query first + t / b->count against
 * record t % b->count, or (paired) series t of a against series t of b; bit for bit pw_dtw_f64's.
 * progress: the cells of each launch added as it ends, and a stop asked for honoured between
 * launches (PW_ERR_CANCELLED). */
pw_status pw_cuda_dtw_batch_run(pw_cuda_dtw_batch *batch, pw_dtw_cost cost, int64_t first, int64_t count, int paired,
                                double *out, pw_batch_progress *progress);
void pw_cuda_dtw_batch_destroy(pw_cuda_dtw_batch *batch);

#ifdef __cplusplus
}
#endif

#endif
