/*
 * inthist_cell.h - which bin of an integral histogram a value goes to, shared by both backends
 * (apps/inthist.c on the CPU, src/cuda/device_prep.cuh's bin kernel on the GPU).
 *
 * Bins split [lo, hi) into `bins` equal parts, as numpy.histogram does, with its edges (the top
 * edge is hi itself) computed by one of three rules (pw_inthist_edges):
 *   DOUBLE    edge k = k * ((hi - lo) / bins) + lo in double (numpy.linspace's arithmetic): u8, u16;
 *   F32       the same rounded to float: numpy's edges for a float32 image and a range given to it
 *             (numpy keeps a float32 image's edges in float32);
 *   F32_MATH  the same computed in float from lo and hi as floats: numpy >= 2.0's edges for a
 *             float32 image and its default range (numpy.linspace keeps float32 scalars, the
 *             image's min and max, in float32; numpy 1.x computed those as F32 does).
 * (Where a range is so narrow that its step rounds up -- a subnormal delta -- the float edges can
 * pass hi before the last, as numpy's do; numpy >= 2.1 refuses such bins, here a value goes to the
 * last bin whose edge it reaches.)  A value goes to the bin whose edges hold it.  The bin is first estimated from the scaled
 * distance to lo and then moved until the edges agree: the estimate alone can be off where the
 * distance rounds (a value of -0.5 in [-1e20, 1e20) is 1e20 from lo in any precision, which scales
 * to the bin of 0) or where a value sits on an edge.  No libm: the header is also compiled for the
 * device (with -fmad=false there, as -ffp-contract=off here: no fused multiply-adds).
 */
#ifndef PW_INTHIST_CELL_H
#define PW_INTHIST_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

typedef enum pw_inthist_edges { PW_INTHIST_EDGES_DOUBLE, PW_INTHIST_EDGES_F32, PW_INTHIST_EDGES_F32_MATH } pw_inthist_edges;

/* A flag beside the rule (pw_inthist_bin's `rule`): the last bin is closed, [edge bins - 1, hi],
 * as numpy.histogram's is (pw_options.inthist_closed); without it a value equal to hi is in no bin. */
#define PW_INTHIST_CLOSED 4

/* The rule for an image -- DOUBLE for u8 and u16, for f32 F32 or (f32_math:
 * pw_options.inthist_f32_edges) F32_MATH -- with PW_INTHIST_CLOSED where `closed`. */
PW_HD static inline int pw_inthist_rule_of(int is_f32, int f32_math, int closed)
{
    const pw_inthist_edges e = !is_f32 ? PW_INTHIST_EDGES_DOUBLE : f32_math ? PW_INTHIST_EDGES_F32_MATH : PW_INTHIST_EDGES_F32;
    return (int)e | (closed ? PW_INTHIST_CLOSED : 0);
}

/* Edge k (k < bins) in float arithmetic, as numpy.linspace(lo, hi, bins + 1) computes it for
 * float32 lo and hi: delta = hi - lo, step = delta / bins, k * step + lo, each rounded to float (a
 * step of 0, from a subnormal delta: k / bins * delta + lo).  A delta past the largest float
 * (numpy's would be inf and its edges NaN): the F32 rule's edge instead. */
PW_HD static inline double pw_inthist_edge_f32_math(int32_t k, int bins, double lo, double hi)
{
    const float l = (float)lo, delta = (float)hi - l, n = (float)bins, step = delta / n;
    if (!(delta - delta == 0)) return (double)(float)((double)k * ((hi - lo) / bins) + lo); /* (inf: not finite) */
    const float along = step != 0 ? (float)k * step : (float)k / n * delta;
    return (double)(float)(along + l);
}

/* Edge k of [lo, hi) in `bins` parts (k = bins: hi) by the rule `edges`. */
PW_HD static inline double pw_inthist_edge(int32_t k, int bins, double lo, double hi, pw_inthist_edges edges)
{
    if (k >= bins) return edges == PW_INTHIST_EDGES_DOUBLE ? hi : (double)(float)hi;
    if (edges == PW_INTHIST_EDGES_F32_MATH) return pw_inthist_edge_f32_math(k, bins, lo, hi);
    const double e = (double)k * ((hi - lo) / bins) + lo;
    return edges == PW_INTHIST_EDGES_F32 ? (double)(float)e : e;
}

/* The bin of x by `rule` (pw_inthist_rule_of), or -1 outside [lo, hi) -- outside [edge 0, edge
 * bins): for a float image lo and hi rounded to float, as numpy compares a float32 image with them
 * -- NaN included; with PW_INTHIST_CLOSED outside [lo, hi], hi in the last bin. */
PW_HD static inline int32_t pw_inthist_bin(double x, int bins, double lo, double hi, int rule)
{
    const pw_inthist_edges edges = (pw_inthist_edges)(rule & ~PW_INTHIST_CLOSED);
    const double top = pw_inthist_edge(bins, bins, lo, hi, edges);
    if (!(x >= pw_inthist_edge(0, bins, lo, hi, edges) && (x < top || ((rule & PW_INTHIST_CLOSED) && x == top)))) return -1;
    const double d = (x - lo) * (bins / (hi - lo)); /* > -1 (x >= lo or lo rounded): truncation is the floor */
    int32_t b = d >= (double)bins ? bins - 1 : (int32_t)d;
    while (b > 0 && x < pw_inthist_edge(b, bins, lo, hi, edges)) b--;
    while (b < bins - 1 && x >= pw_inthist_edge(b + 1, bins, lo, hi, edges)) b++;
    return b;
}

#endif
