/* sw_pairs_cpu.h - pw_sw_pairs' vector-lane engine on the CPU (sw_pairs_cpu.c). */
#ifndef PW_SW_PAIRS_CPU_H
#define PW_SW_PAIRS_CPU_H

#include "sw_batch.h"
#include "batch_progress.h"

/* Pairs k (a's sequence k against b's) of match/mismatch scoring on `simd`'s 16-bit lanes, one
 * pair a lane, over up to `threads` threads: hits[k]'s score and end cell as pw_sw's for every
 * pair they take; the others (longer than PW_PAIRS_LANES_MAX_LENGTH, saturated past 16 bits, or
 * all of them where the scoring is a matrix or there is no vector set) listed in
 * rest[0 .. *n_rest) for the caller, of them *saturated the lanes ran and found past 16 bits
 * (*laned: the pairs the lanes ran, those included).  PW_ERR_CANCELLED when progress says stop
 * (between groups); PW_ERR_OUT_OF_MEMORY. */
pw_status pw_sw_pairs_cpu_lanes(const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *table, int32_t gap_open,
                                int32_t gap_extend, pw_simd simd, int threads, pw_sw_hit *hits, int64_t *rest,
                                int64_t *n_rest, int64_t *laned, int64_t *saturated, pw_batch_progress *progress);

#endif
