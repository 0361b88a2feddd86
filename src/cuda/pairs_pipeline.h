/*
 * pairs_pipeline.h - one pass of many SW pairs through the GPU (pairs_pipeline.cu), with the
 * kernels pairs_sw.cu chose for it: two pairs a warp in 16-bit lanes, or a pair a warp in 32-bit
 * lanes, each in forms of R query rows a thread.  Host C++, inside src/cuda.
 */
#ifndef PW_CUDA_PAIRS_PIPELINE_H
#define PW_CUDA_PAIRS_PIPELINE_H

#include <cuda_runtime.h>

#include <vector>

#include "pairs_sw.h"

#define PW_PAIRS_THREADS 128 /* 4 warps a block (every kernel) */
#define PW_PAIRS_FORMS 4     /* at most: R = 2, 4 or 8 (32-bit lanes); 4, 8, 12 or 16 (16-bit) */

/* A pass's kernels: form k runs rows[k] query rows a thread (segments of 32 rows[k]), taking
 * smem[k] bytes of dynamic shared memory, per_sm[k] blocks an SM. */
struct pw_pairs_kernels {
    bool narrow;      /* 16-bit lanes, two pairs a warp: a best above limit16 comes back as -1 */
    int32_t limit16;
    int n;
    int rows[PW_PAIRS_FORMS];
    const void *kernel[PW_PAIRS_FORMS];
    size_t smem[PW_PAIRS_FORMS];
    int per_sm[PW_PAIRS_FORMS];
    const void *encode; /* pw_pairs_encode_kernel: a chunk's bytes into codes, in place */
};

/* Pairs list[0 .. count) through the kernels k on options->device (current on this thread):
 * hits[list[i]] gets each pair's score and end cell.  counts: the pass adds its cells to the
 * progress as chunks end (a rerun's pairs were counted by the first pass); a stop asked for is
 * honoured between chunks.  debug: where the time goes, on stderr.  16-bit lanes: the pairs whose
 * best may have wrapped (score -1) are appended to *wrapped, for a pass in 32-bit lanes. */
pw_status pw_pairs_pipeline(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *t,
                            int32_t gap_open, int32_t gap_extend, const int64_t *list, int64_t count, pw_sw_hit *hits,
                            pw_batch_progress *progress, const pw_pairs_kernels *k, bool counts, bool debug,
                            std::vector<int64_t> *wrapped);

#endif
