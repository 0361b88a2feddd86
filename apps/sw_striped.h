/*
 * sw_striped.h - Smith-Waterman-Gotoh of one pair on one CPU core in Farrar's striped layout
 * (Bioinformatics 23(2), 2007; parasail's sw_striped_16 is the same idea), 16-bit lanes.
 *
 * Why beside the tile processor (sw_simd.h): the tiles walk anti-diagonals, so with a substitution
 * table (protein) every step gathers each lane's score; on one core that ran at 0.22x parasail's
 * striped 16-bit code (2.5 against 11.4 GCUPS, BLOSUM62, a Zen 5 core).  Striped lanes hold
 * columns l S + t (S = ceil(m / V) segments) of one row, so a row's scores for a letter of a are
 * one contiguous profile row: plain loads.  It runs on one thread only, so sw.c takes it where it
 * beats the tiles on the threads at hand (sw_striped_worth).
 *
 * Rows are a's letters, the striped vector holds b's columns: E (along the row) is the chain that
 * crosses lanes, corrected by the "lazy" passes; F (down the columns) is stored per column.  The end
 * cell follows pw_sw's rule exactly: a row's maximum is taken only when it beats every earlier row
 * (strictly), and then at its smallest column (a scan of that row).
 */
#ifndef PW_SW_STRIPED_H
#define PW_SW_STRIPED_H

#include <stdint.h>

#include "peerwave.h"

typedef struct pw_sw_striped_job {
    const uint8_t *a, *b; /* encoded letters (pw_score_encode) */
    int64_t n, m;
    const int32_t *scores; /* [a letter][b letter], alphabet x alphabet */
    int alphabet;
    int32_t gap_open, gap_extend;
    const volatile int *cancel; /* (pw_options.cancel) */
    int extra_limit_pct; /* > 0: give up (PW_ERR_UNSUPPORTED) once, past 64 rows, the lazy passes
                            have walked more than this percentage of the first passes' segments:
                            similar sequences (long gap chains), which the tiles take in their
                            stride */
} pw_sw_striped_job;

/* The kernel's view (sw_striped_kernel.h): the profile and the work rows, S segments of V lanes. */
typedef struct pw_sw_striped_run {
    const pw_sw_striped_job *job;
    const int16_t *profile; /* [letter][segment][lane]: score(letter, b[lane S + segment]) */
    int16_t *h0, *h1, *f; /* S vectors each */
    int64_t segments;
    int16_t top; /* largest score of the table (the saturation margin) */
} pw_sw_striped_run;

/* Can 16-bit lanes hold every value of this table and these gaps (before any saturation)? */
int pw_sw_striped_fits(const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend);

/* The best local score and its end cell (score 0: -1, -1) on `simd` (SSE4.1, AVX2 or AVX-512BW).
 * PW_ERR_OVERFLOW: a row's maximum came within the table's top score of 32767, so a later cell
 * could have saturated (run the 32-bit engines instead; nothing is reported); PW_ERR_CANCELLED;
 * PW_ERR_UNSUPPORTED without a vector set or past the extra work's limit; PW_ERR_OUT_OF_MEMORY. */
pw_status pw_sw_striped(const pw_sw_striped_job *job, pw_simd simd, int32_t *score, int64_t *end_a, int64_t *end_b);

/* The kernels, one per instruction set (sw_striped_<set>.c): 0 done, 1 saturated, 2 cancelled,
 * 3 past the extra work's limit. */
int pw_sw_striped_sse41(const pw_sw_striped_run *r, int32_t *score, int64_t *end_a, int64_t *end_b);
int pw_sw_striped_avx2(const pw_sw_striped_run *r, int32_t *score, int64_t *end_a, int64_t *end_b);
int pw_sw_striped_avx512(const pw_sw_striped_run *r, int32_t *score, int64_t *end_a, int64_t *end_b);

#endif
