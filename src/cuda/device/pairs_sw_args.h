/*
 * pairs_sw_args.h - what the many-pairs SW kernels (pairs_sw_proc.cuh: a pair a warp in 32-bit
 * lanes; pairs_sw16_proc.cuh: two a warp in 16-bit lanes) take for one chunk of pairs, and what the
 * host pipeline (src/cuda/pairs_pipeline.cu) fills in.  Offsets and end cells are the chunk's own,
 * in 32 bits: a chunk holds at most 4 M letters a side (pairs_pipeline.cu's STAGE_LETTERS), a pair
 * at most PW_PAIRS_GPU_MAX_LENGTH.
 */
#ifndef PW_DEVICE_PAIRS_SW_ARGS_H
#define PW_DEVICE_PAIRS_SW_ARGS_H

#include "../../core/fixed_width.h"

#define PW_PAIRS_SW_MAX_ALPHABET 32

struct pw_pairs_sw_args {
    const uint8_t *a, *b;        /* the chunk's letter codes of both sides, back to back */
    const int32_t *a_at, *b_at;  /* pair t: a's codes a_at[t] .. a_at[t + 1] - 1, b's likewise */
    int64_t count;               /* pairs */
    const int32_t *table;        /* size x size scores, [a's letter][b's letter] */
    int size;
    int32_t gap_open, gap_extend;
    int32_t *bottom;             /* per warp of the grid: H then F of a segment's last row, 2 x stride */
    int64_t bottom_stride;       /* the longest b */
    int32_t *score;              /* per pair: the best score (16-bit lanes: -1 where it may have wrapped), */
    int32_t *end_a, *end_b;      /* and its end cell (-1, -1 when 0) */
    const int32_t *order;        /* the pairs in the order warps take them (longest first), NULL: as listed */
    int32_t limit16;             /* 16-bit lanes: a best above this may have wrapped */
};

#endif
