/* sat_sum.h - the overflow guard of integer summed-area tables. */
#ifndef PW_SAT_SUM_H
#define PW_SAT_SUM_H

#include <stdint.h>

#include "peerwave.h"

/* 1 if every partial sum of img over a sub-rectangle fits in `out` (an integer output type is
 * checked against the sum of |x|; float outputs always "fit"); 0 otherwise. */
int pw_sum_abs_fits(const pw_image *img, pw_dtype out);

/* Its parts, for a table split over ranks (src/dist/): the largest sum an integer output holds
 * (0 for float outputs: no limit); 1 if rows x cols values of type `in` fit whatever they are; 1
 * and *sum = the sum of |x| if it is at most limit, else 0. */
uint64_t pw_sum_abs_limit(pw_dtype out);
int pw_sum_abs_cheap(int64_t rows, int64_t cols, pw_dtype in, pw_dtype out);
int pw_sum_abs_upto(const pw_image *img, uint64_t limit, uint64_t *sum);

#endif
