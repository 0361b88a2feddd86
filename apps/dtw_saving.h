/*
 * dtw_saving.h - pw_dtw_f64 on the CPU's vector tiles that also keeps the warping path's store
 * (src/align/dtw_strips.c): rows every - 1, 2 every - 1, ... as its plain loop would.
 */
#ifndef PW_DTW_SAVING_H
#define PW_DTW_SAVING_H

#include <stdint.h>

#include "peerwave.h"

/* The distance of a (n) against b (m) and rows (slots x m, row k at k m) filled, the same values
 * as the cells.  PW_ERR_UNSUPPORTED where the vector tiles cannot keep them (no vector set, or a
 * tile height that does not divide `every`): the caller's plain loop then. */
pw_status pw_dtw_f64_saving(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                            const pw_options *options, int64_t every, int64_t slots, double *rows, double *distance);

#endif
