/*
 * sw_batch.h - the database search's internal pieces: the encoded database sorted by length, the
 * 32-bit score of one pair (the reference and the recompute path), and the engines that score
 * one query against every record (CPU: sw_batch_cpu.c; CUDA: src/cuda/batch_sw.cu).
 */
#ifndef PW_SW_BATCH_H
#define PW_SW_BATCH_H

#include <stdint.h>

#include "peerwave_batch.h"
#include "batch_progress.h"
#include "../../apps/scoring.h"
#include "../core/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The database (or a query set), encoded, in order of decreasing length. */
typedef struct sw_batch_db {
    int64_t count;
    uint8_t *codes;   /* every record's codes back to back, in sorted order */
    int64_t *at;      /* count + 1 offsets into codes (sorted order) */
    int64_t *length;  /* sorted: length[k] = at[k+1] - at[k], decreasing */
    int64_t *index;   /* sorted position -> the caller's record index */
    int64_t cells_per_letter; /* sum of lengths */
} sw_batch_db;

/* Groups of `lanes` records of the list (sorted places, longest first), their columns
 * interleaved: column j of group g is lanes bytes at cols + at[g] + j * lanes, one a record; a
 * group has its first record's columns rounded up to a multiple of col_multiple, a shorter
 * record's past its end are `pad`. */
typedef struct lane_groups {
    int64_t count;
    int64_t *at;      /* count + 1 offsets into cols */
    uint8_t *cols;
} lane_groups;

pw_status pw_sw_batch_groups_make(const sw_batch_db *db, const int64_t *records, int64_t count, int lanes,
                                  int64_t col_multiple, uint8_t pad, lane_groups *g);
void pw_sw_batch_groups_free(lane_groups *g);

/* Encode and sort `set` (`what` names it in errors: "query", "database") over up to `threads`
 * threads.  PW_ERR_BAD_INPUT names the record and the letter through pw_error_detail. */
pw_status pw_sw_batch_db_make(const pw_seq_set *set, const pw_score_table *table, const char *what, int threads,
                              sw_batch_db *db);
void pw_sw_batch_db_free(sw_batch_db *db);

/* Record k of `set` encoded into out; PW_ERR_BAD_INPUT names the set (`what`), the record and the
 * byte through pw_error_detail. */
pw_status pw_sw_batch_encode(const pw_seq_set *set, int64_t k, const pw_score_table *table, const char *what, uint8_t *out);

/* Records list[0 .. count) of `set` encoded, list[i] at codes + at[i], over up to `threads`
 * threads where there is enough to share (a table lookup a letter: 10^8 letters took 0.1 s on
 * one core, most of 200000 GPU pairs' time); a bad letter as pw_sw_batch_encode says it, for the
 * first such record in the list's order.  list NULL: records 0 .. count; codes NULL (at unused):
 * the letters checked only. */
pw_status pw_sw_batch_encode_list(const pw_seq_set *set, const int64_t *list, int64_t count, const pw_score_table *table,
                                  const char *what, const int64_t *at, uint8_t *codes, int threads);

/* Pairs list[0 .. count) over the GPUs devices[0 .. n_devices) (sw_pairs_gpus.c): a part of about
 * equal cells a GPU, each through pw_cuda_pairs_sw on its own thread with threads / n_devices host
 * threads; info's gpus, gpu_device*, lane_bits and recomputed filled.  CUDA builds only. */
pw_status pw_sw_pairs_on_gpus(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b,
                              const pw_score_table *table, int32_t gap_open, int32_t gap_extend, const int64_t *list,
                              int64_t count, const int *devices, int n_devices, int threads, pw_sw_hit *hits,
                              pw_batch_progress *progress, pw_batch_info *info);

/* The best local score of a (n codes) against b (m codes) with 32-bit cells in linear space;
 * work: 2 n int32 scratch. */
int32_t pw_sw_batch_score32(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, const pw_score_table *table,
                            int32_t gap_open, int32_t gap_extend, int32_t *work);

/* What an engine scores: one query against every record of db, scores[k] for sorted record k. */
typedef struct sw_batch_query {
    const uint8_t *codes;
    int64_t n;
} sw_batch_query;

/* The CPU engine (sw_batch_cpu.c): a session over the queries and every record of db (the
 * groups are made once), then ranges of sorted records scored against every query: scores[q *
 * db->count + r].  A range starts at a multiple of pw_sw_batch_cpu_lanes (a group).  Counts pairs
 * recomputed wider. */
typedef struct sw_batch_cpu_run {
    const sw_batch_db *db;
    const pw_score_table *table;
    int32_t gap_open, gap_extend;
    pw_simd simd;             /* resolved; SCALAR: 32-bit cells for every pair */
    pw_batch_progress *progress; /* the run's progress and cancel flag (batch_progress.h) */
} sw_batch_cpu_run;

typedef struct sw_batch_cpu sw_batch_cpu;
pw_status pw_sw_batch_cpu_create(const sw_batch_cpu_run *run, const sw_batch_query *queries, int64_t nq,
                                 sw_batch_cpu **out);
int pw_sw_batch_cpu_lanes(const sw_batch_cpu *c);
pw_status pw_sw_batch_cpu_score(sw_batch_cpu *c, int64_t r0, int64_t r1, int threads, int32_t *scores,
                                int64_t *recomputed);
void pw_sw_batch_cpu_destroy(sw_batch_cpu *c);

/* One chunk of queries against every record on the devices job->batch names (sw_batch_drive.c);
 * info: backend (CUDA where a GPU took part) and lane_bits are set by the caller and corrected
 * here, recomputed, long_pairs and the shared run's figures added. */
typedef struct sw_batch_score_job {
    const sw_batch_db *db;
    const pw_score_table *table;
    int32_t gap_open, gap_extend;
    const pw_options *options;
    const pw_batch_options *batch;
    pw_simd simd; /* resolved */
    int threads;
    const sw_batch_query *queries;
    int64_t nq;
    int32_t *scores; /* nq x db->count */
    pw_batch_progress *progress;
} sw_batch_score_job;

pw_status pw_sw_batch_score(const sw_batch_score_job *job, pw_batch_info *info);

/* The batch options' GPU list: 0 .. PW_BATCH_MAX_GPUS devices, none negative or twice, several only
 * under HDSS or STATIC.  PW_ERR_INVALID_ARGUMENT with a detail. */
pw_status pw_batch_devices_check(const pw_batch_options *batch);

/* The parameters the 16-bit lanes hold exactly (saturation aside): every score and penalty
 * within +-32767. */
int pw_sw_batch_fits16(const pw_score_table *table, int32_t gap_open, int32_t gap_extend);

#ifdef __cplusplus
}
#endif

#endif
