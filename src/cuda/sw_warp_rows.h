/*
 * sw_warp_rows.h - Smith-Waterman-Gotoh on one long pair with a warp a tile-row (device/
 * sw_warp_rows_proc.cuh), for linear_apps.cu's SW scan.
 */
#ifndef PW_CUDA_SW_WARP_ROWS_H
#define PW_CUDA_SW_WARP_ROWS_H

#include <stdint.h>
#include "../core/plan.h"
#include "kernel_desc.h" /* pw_sw_engine_ask, pw_swr_choose: when it takes a pair */


/* The alignment search's saved rows (linear_apps.cu's sw_saved_rows): H and F of rows every - 1,
 * 2 every - 1, ... (the first `slots`), slot k at k m, on the device; F is linear_f throughout for
 * linear gaps (the tile engines' H-only cell keeps none).  h NULL or slots 0: none. */
typedef struct pw_cuda_swr_saved {
    int32_t *h, *f;
    int64_t every, slots;
    int32_t linear_f;
} pw_cuda_swr_saved;

/* The best score and its end cell (pw_sw's rule) of the encoded device sequences da (n) x db (m),
 * scores[a's letter * alphabet + b's letter], or PW_ERR_UNSUPPORTED (nothing run, nothing
 * reported) where this engine does not take the run: an alphabet of more than 7 letters, a score
 * outside -127..127, gaps past 2^14, a grid without cooperative launch, or a pair that
 * pw_swr_choose does not take (too short or too thin to fill the GPU unless `ask` is rows or
 * rows32, too large for the 32-bit counters)
 * (with either lane width: a pairs run is only started where the 32-bit rerun could follow), or
 * saved rows whose spacing is not a multiple of 512 (they are taken with 16 rows a thread, a down
 * the rows whatever the lengths).  info: the kernels' seconds, the cells, lane_bits, tile_h (384,
 * or 512 with saved rows). */
pw_status pw_cuda_sw_warp_rows(const pw_plan *plan, pw_sw_engine_ask ask, const uint8_t *da, int64_t n,
                               const uint8_t *db, int64_t m, const int32_t *scores, int alphabet, int32_t gap_open,
                               int32_t gap_extend, pw_cuda_swr_saved saved, int32_t *score, int64_t *end_a,
                               int64_t *end_b, pw_run_info *info);

#endif
