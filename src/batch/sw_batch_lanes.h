/*
 * sw_batch_lanes.h - the CPU batch kernel's interface: one query against a group of records of
 * similar length, one record a 16-bit vector lane (SWIPE's inter-sequence layout, Rognes 2011).
 *
 * The kernel walks the group's columns (one letter of each record a column) and, for each, the
 * query's rows top to bottom, with Gotoh's H, E (from the left, kept per row) and F (from above,
 * carried down the column).  A column's scores come from a profile built once a column: for each
 * query letter x, the vector of score(x, record letter) over the lanes.  Lanes are saturating
 * 16-bit values and only the score is kept, so a lane that reaches 32767 has saturated
 * (everything below it is exact) and its pair is scored again with 32-bit cells by the caller.
 * A record shorter than the group's longest is padded with a code that scores -32768 (or -128
 * in the byte tables) against every letter: any score <= 0 would do, no padding cell can exceed
 * a score the record reached (H there is the max of 0, E, F and a diagonal plus a non-positive
 * score, which only fall from cells before it).
 */
#ifndef PW_SW_BATCH_LANES_H
#define PW_SW_BATCH_LANES_H

#include <stdint.h>

#include "peerwave.h"

#define PW_BATCH_MAX_LANES 32     /* AVX-512BW: 32 lanes of 16 bits */
#define PW_BATCH_TABLE_COLS 64    /* codes a profile row covers: the alphabet (<= 32) and padding */
#define PW_BATCH_PAD_CODE 63      /* the padding letter's code */
#define PW_BATCH_SATURATED 32767  /* a lane's best at this value: recompute it wider */
#define PW_BATCH_STRIP 4          /* columns the kernel makes together (groups are padded to it) */

typedef struct sw_batch_lanes {
    const int16_t *table;  /* alphabet x 64: score of query letter x against record code c (c >=
                              alphabet: padding, -32768) */
    const int8_t *table8;  /* NULL, or alphabet x 32 bytes: the same where every score fits a
                              byte and the alphabet leaves room for the padding code (31: -128) */
    int alphabet;
    const uint8_t *query;  /* n codes */
    int64_t n;
    const uint8_t *cols;   /* columns x lanes record codes, a column's lanes together */
    int64_t columns;       /* a multiple of PW_BATCH_STRIP */
    int16_t gap_open, gap_extend;
    int16_t *h, *e;        /* scratch: n x lanes each */
    int16_t *profile;      /* scratch: PW_BATCH_STRIP x alphabet x lanes */
    int16_t *best;         /* out: each lane's best score (PW_BATCH_SATURATED: saturated) */
} sw_batch_lanes;

typedef void (*sw_batch_lanes_fn)(const sw_batch_lanes *job);

void pw_sw_batch_lanes_sse41(const sw_batch_lanes *job);
void pw_sw_batch_lanes_avx2(const sw_batch_lanes *job);
void pw_sw_batch_lanes_avx512(const sw_batch_lanes *job);

/* The kernel for a vector set (NULL where this build or CPU lacks it), and its lane count. */
sw_batch_lanes_fn pw_sw_batch_lanes_kernel(pw_simd simd);

#endif
