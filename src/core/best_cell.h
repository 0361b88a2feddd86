/*
 * best_cell.h - the library's end-cell rule, written once (pw_sw and every maximum with its
 * position, peerwave.h): of two cells the one with the higher score; on a tie the smaller row,
 * then the smaller column.  Plain inline code for the C compiler, nvcc and NVRTC alike.
 *
 * The scans that visit cells row by row and take a strictly higher score (the sequential
 * references, a thread's own rows) follow the rule by their order and need no comparison; this
 * is for merging bests found apart: threads, warps, workers, bands, ranks.  (The warp-rows and
 * the pairs kernels still spell it out in their device code, src/cuda/device/: they move only
 * with a measurement on a GPU.)
 */
#ifndef PW_BEST_CELL_H
#define PW_BEST_CELL_H

#include "fixed_width.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PW_BEST_CELL_FN __host__ __device__ static inline
#else
#define PW_BEST_CELL_FN static inline
#endif

/* Of two cells that score alike: does (i, j) come first? */
PW_BEST_CELL_FN int pw_best_cell_tie_first(int64_t i, int64_t j, int64_t best_i, int64_t best_j)
{
    return i != best_i ? i < best_i : j < best_j;
}

/* Does (score, i, j) replace (best_score, best_i, best_j)? */
PW_BEST_CELL_FN int pw_best_cell_better(int64_t score, int64_t i, int64_t j, int64_t best_score, int64_t best_i,
                                        int64_t best_j)
{
    return score != best_score ? score > best_score : pw_best_cell_tie_first(i, j, best_i, best_j);
}

#endif
