/*
 * peerwave_batch.h - many jobs at once: database search (every query against every record of a
 * database, or record i against record i), the HDSS scheduler across devices and the job queue.
 *
 * The engines (docs/BATCH.md): many small matrices at once, not one large one.  On the CPU one
 * query against a group of records of similar length, one record a vector lane (16-bit lanes,
 * saturation detected and the pair recomputed in 32 bits); on the GPU one warp an alignment, the
 * query's rows down the warp's threads, the record streamed through it (16-bit packed DPX lanes
 * where the scores allow, overflow detected and recomputed in 32 bits).  Records too long for
 * those go to the single-pair engine (pw_sw).  The search computes scores only; the end cells
 * of the hits kept are found again by pw_sw (the same tie rule).
 */
#ifndef PEERWAVE_BATCH_H
#define PEERWAVE_BATCH_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* count sequences: seq[k] has length[k] letters (>= 1; not NUL-terminated necessarily). */
typedef struct pw_seq_set {
    int64_t count;
    const char *const *seq;
    const int64_t *length;
} pw_seq_set;

/* One hit: a query against a record. */
typedef struct pw_sw_hit {
    int64_t query;      /* index in the query set (pw_sw_pairs: the pair's index) */
    int64_t record;     /* index in the database; -1: an empty slot (fewer records than top) */
    int32_t score;      /* best local score, as pw_sw */
    int64_t end_query;  /* 0-based end cell of the best alignment, ties as pw_sw; -1 when the */
    int64_t end_record; /* score is 0 */
} pw_sw_hit;

/* What a batch run did. */
typedef struct pw_batch_info {
    pw_backend backend;  /* CPU or CUDA */
    pw_simd simd;        /* CPU: the vector set of the batch kernel (SCALAR: none) */
    int lane_bits;       /* 16 when narrow lanes ran (some pairs may have been recomputed), else 32 */
    int64_t pairs;       /* alignments scored */
    int64_t cells;       /* their cells: the sum of n x m */
    int64_t recomputed;  /* pairs whose narrow lanes saturated, scored again with 32-bit lanes */
    int64_t long_pairs;  /* pairs scored by pw_sw (a record too long for the batch kernel) */
    double seconds;      /* scoring: wall time from the first pair to the last (no reading, no
                            encoding, no end cells of the hits) */
    double total_seconds;/* the whole call */
} pw_batch_info;

/* Every query against every record of db.  For each query its `top` (>= 1) best hits, best
 * first (score descending, then record index ascending), in hits[q * top + k] (queries->count x
 * top of them); slots past the number of records have record -1 and score 0.  Options: backend
 * (AUTO: the GPU when present), threads and simd for the CPU, device, progress and cancel (checked
 * between groups of pairs).  Errors before any work: a letter the scoring does not accept
 * (PW_ERR_BAD_INPUT, pw_error_detail names the set and the record), empty sets or sequences
 * (PW_ERR_INVALID_SIZE), scores that could pass 32 bits (PW_ERR_OVERFLOW). */
pw_status pw_sw_search(const pw_seq_set *queries, const pw_seq_set *db, const pw_sw_params *params,
                       const pw_options *options, int top, pw_sw_hit *hits, pw_batch_info *info);

/* Record k of a against record k of b (the same count): hits[k], with query = record = k. */
pw_status pw_sw_pairs(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                      const pw_options *options, pw_sw_hit *hits, pw_batch_info *info);

#ifdef __cplusplus
}
#endif

#endif
