/* sat_sum.h - the overflow guard of integer summed-area tables. */
#ifndef PW_SAT_SUM_H
#define PW_SAT_SUM_H

#include "peerwave.h"

/* 1 if every partial sum of img over a sub-rectangle fits in `out` (an integer output type is
 * checked against the sum of |x|; float outputs always "fit"); 0 otherwise. */
int pw_sum_abs_fits(const pw_image *img, pw_dtype out);

#endif
