/*
 * sw_saving.h - pw_sw on the CPU's vector tiles that also keeps the alignment search's store
 * (src/align/sw_strips.c): H and F of rows every - 1, 2 every - 1, ... as its plain loop would.
 */
#ifndef PW_SW_SAVING_H
#define PW_SW_SAVING_H

#include <stdint.h>

#include "peerwave.h"

/* Score, end cell (pw_sw's rule) and info of encoded a x b, and save_h / save_f (slots x m each,
 * row k at k m; F -infinity for linear gaps) filled.  PW_ERR_UNSUPPORTED where the vector tiles
 * cannot keep it (no vector processor for these scores, or a tile height that does not divide
 * `every`): the caller's plain loop then. */
pw_status pw_sw_cpu_saving(const uint8_t *ea, int64_t n, const uint8_t *eb, int64_t m, const int32_t *scores,
                           int alphabet, int32_t gap_open, int32_t gap_extend, const pw_options *options, int64_t every,
                           int64_t slots, int32_t *save_h, int32_t *save_f, pw_sw_result *result);

#endif
