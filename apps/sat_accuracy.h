/*
 * sat_accuracy.h - how close a floating-point summed-area table must be to the exact one.
 *
 * The sequential recurrence S = x + S(up) + S(left) - S(diag) and the GPU's scans (row prefix,
 * then column sums: src/cuda/device/prefix_sum_proc.cuh) add the same numbers in different orders, so
 * their float results differ in the last bits; neither is "the" answer.  What both meet is a
 * bound on the distance from the exact sum: every partial sum the scans form is a sum of at most
 * (i + 1)(j + 1) inputs along a chain of at most i + j + 64 additions, so
 *     |S(i, j) - exact(i, j)| <= (i + j + 64) * eps * A(i, j),
 * with eps the output type's unit roundoff and A the summed-area table of |x|.  (The recurrence
 * does not meet it in general: its subtraction lets rounding errors of the whole rectangle pile
 * up, which is why results of the recurrence are compared bit for bit with each other instead.)
 * The exact sums are taken in double from the input, row by row; for an f64 output their own
 * error (at most (i + j) eps A) is allowed for by doubling the bound.
 */
#ifndef PW_SAT_ACCURACY_H
#define PW_SAT_ACCURACY_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest |out - exact| / bound over all cells of out (an f32 or f64 SAT of in, same size):
 * <= 1 means within the bound.  Negative: out is not a float table of in's size, or no memory. */
double pw_sat_error_ratio(const pw_image *in, const pw_image *out);

#ifdef __cplusplus
}
#endif
#endif
