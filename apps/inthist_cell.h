/*
 * inthist_cell.h - which bin of an integral histogram a value goes to, shared by both backends
 * (apps/inthist.c on the CPU, src/cuda/device_prep.cuh's bin kernel on the GPU).
 *
 * Bins split [lo, hi) into `bins` equal parts, as numpy.histogram does: edge k is
 * k * ((hi - lo) / bins) + lo in double (numpy.linspace's arithmetic; the top edge is hi itself),
 * rounded to float for float images (numpy keeps a float32 image's edges in float32), and a value
 * goes to the bin whose edges hold it.  The bin is first estimated from the scaled distance to lo
 * and then moved until the edges agree: the estimate alone can be off where the distance rounds
 * (a value of -0.5 in [-1e20, 1e20) is 1e20 from lo in any precision, which scales to the bin of
 * 0) or where a value sits on an edge.  No libm: the header is also compiled for the device.
 */
#ifndef PW_INTHIST_CELL_H
#define PW_INTHIST_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

/* Edge k of [lo, hi) in `bins` parts (k = bins: hi); f32: as a float image's edges are. */
PW_HD static inline double pw_inthist_edge(int32_t k, int bins, double lo, double hi, int f32)
{
    const double e = k >= bins ? hi : (double)k * ((hi - lo) / bins) + lo;
    return f32 ? (double)(float)e : e;
}

/* The bin of x, or -1 outside [lo, hi) -- outside [edge 0, edge bins): for a float image lo and
 * hi rounded to float, as numpy compares a float32 image with them -- NaN included. */
PW_HD static inline int32_t pw_inthist_bin(double x, int bins, double lo, double hi, int f32)
{
    if (!(x >= pw_inthist_edge(0, bins, lo, hi, f32) && x < pw_inthist_edge(bins, bins, lo, hi, f32))) return -1;
    const double d = (x - lo) * (bins / (hi - lo)); /* > -1 (x >= lo or lo rounded): truncation is the floor */
    int32_t b = d >= (double)bins ? bins - 1 : (int32_t)d;
    while (b > 0 && x < pw_inthist_edge(b, bins, lo, hi, f32)) b--;
    while (b < bins - 1 && x >= pw_inthist_edge(b + 1, bins, lo, hi, f32)) b++;
    return b;
}

#endif
