/*
 * sw_pairs_lanes.h - many short SW pairs on the CPU, one pair a 16-bit vector lane: each lane its
 * own query and its own record (sw_batch_lanes.h is one query against a lane a record).  For
 * match/mismatch scoring only (an equality table: a lane's score is one compare of its two codes;
 * a substitution matrix would need a gather a cell), affine gaps.
 *
 * The kernel walks the group's columns in strips of PW_BATCH_STRIP and each strip's rows top to
 * bottom (Gotoh's H, E kept per row, F carried down a column), and keeps for every row and lane
 * the row's best H and the first column that reached it.  The end cell is then pw_sw's: the
 * smallest row whose best is the lane's best, at that row's first column (ties to the smallest
 * row, then the smallest column).  Lanes past their query's end are rows nobody reads; columns
 * past their record's end hold codes that never match, so their cells never pass the real cells
 * they come from and never come first among equals (sw_pairs_cpu.c says why).  Saturating 16-bit
 * values: a lane whose best reaches 32767 is scored again by pw_sw.
 */
#ifndef PW_SW_PAIRS_LANES_H
#define PW_SW_PAIRS_LANES_H

#include <stdint.h>

#include "peerwave.h"

#define PW_PAIRS_LANES_MAX_LENGTH 8192 /* longer pairs (either side) go to pw_sw */

typedef struct sw_pairs_lanes {
    const int16_t *a;          /* rows x lanes: lane l's query code at row i, a row's lanes together */
    int64_t rows;              /* the group's longest query */
    const int16_t *b;          /* columns x lanes: lane l's record code at column j */
    int64_t columns;           /* a multiple of PW_BATCH_STRIP */
    int16_t match, mismatch, gap_open, gap_extend;
    int16_t *h, *e;            /* scratch: rows x lanes each */
    int16_t *row_best, *row_col; /* out: rows x lanes: a row's best H (0 if none above 0) and its first column */
} sw_pairs_lanes;

typedef void (*sw_pairs_lanes_fn)(const sw_pairs_lanes *job);

void pw_sw_pairs_lanes_sse41(const sw_pairs_lanes *job);
void pw_sw_pairs_lanes_avx2(const sw_pairs_lanes *job);
void pw_sw_pairs_lanes_avx512(const sw_pairs_lanes *job);

#endif
