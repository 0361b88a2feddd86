/*
 * best_cell.h - the library's end-cell rule, written once (pw_sw and every maximum with its
 * position, peerwave.h): of two cells the one with the higher score; on a tie the smaller row,
 * then the smaller column.  Plain inline code for the C compiler, nvcc and NVRTC alike.
 *
 * The scans that visit cells row by row and take a strictly higher score (the sequential
 * references, a thread's own rows) follow the rule by their order and need no comparison; this
 * is for merging bests found apart: threads, warps, workers, bands, ranks, and the GPU kernels
 * that keep a best per thread (the warp-rows and pairs kernels, by the macro in their own 32-bit
 * types: the warp-rows kernel's PTX is instruction for instruction what its own spelling of the
 * rule gave; the pairs kernel's differs by one predicate move).
 */
#ifndef PW_BEST_CELL_H
#define PW_BEST_CELL_H

#include "fixed_width.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PW_BEST_CELL_FN __host__ __device__ static inline
#else
#define PW_BEST_CELL_FN static inline
#endif

/* The rule as one expression in the arguments' own types: device code whose scores and
 * coordinates are 32-bit keeps 32-bit compares (the functions below widen to 64 bits, which in a
 * kernel's hot loop costs conversions and 64-bit compares: seen in sw_warp_rows.cu's PTX).  An
 * argument may be evaluated twice: pass plain values. */
#define PW_BEST_CELL_BETTER(score, i, j, best_score, best_i, best_j)                                             \
    ((score) > (best_score) || ((score) == (best_score) && ((i) < (best_i) || ((i) == (best_i) && (j) < (best_j)))))

/* Of two cells that score alike: does (i, j) come first? */
PW_BEST_CELL_FN int pw_best_cell_tie_first(int64_t i, int64_t j, int64_t best_i, int64_t best_j)
{
    return PW_BEST_CELL_BETTER(0, i, j, 0, best_i, best_j);
}

/* Does (score, i, j) replace (best_score, best_i, best_j)? */
PW_BEST_CELL_FN int pw_best_cell_better(int64_t score, int64_t i, int64_t j, int64_t best_score, int64_t best_i,
                                        int64_t best_j)
{
    return PW_BEST_CELL_BETTER(score, i, j, best_score, best_i, best_j);
}

#endif
