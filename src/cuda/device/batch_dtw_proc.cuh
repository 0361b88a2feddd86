/*
 * batch_dtw_proc.cuh - many small DTW matrices at once (pw_dtw_search, pw_dtw_pairs on the GPU):
 * one warp computes one pair's distance, the pairs spread over the grid's warps.
 *
 * The layout of batch_sw_proc.cuh: the query's rows go down the warp, thread k holding rows
 * kR .. kR + R - 1 of a segment of 32R rows in registers, and the record streams through: at step
 * s thread k computes column j = s - k of its rows, taking D of the row above its first at columns
 * j and j - 1 from thread k - 1 (a shuffle of what that thread made one step earlier, kept for one
 * more step as the diagonal).  A segment takes columns + 31 steps; a longer query takes several,
 * the last row of one reaching the next through the warp's row of `bottom` in global memory.
 *
 * Cells are apps/dtw_cell.h's, in double: the same operations in the same order as pw_dtw_f64's
 * (the library's CUDA code is compiled without FMA contraction), so every distance is bit for bit
 * the single-pair function's.  Row -1 is +inf but D(-1, -1) = 0; column -1 is +inf.
 */
#ifndef PW_DEVICE_BATCH_DTW_PROC_CUH
#define PW_DEVICE_BATCH_DTW_PROC_CUH

#include "../../core/fixed_width.h"
#include "../../../apps/dtw_cell.h"

struct pw_batch_dtw_args {
    const double *a, *b;            /* the two sets' samples, each set's series back to back */
    const int64_t *a_at, *b_at;     /* per series: its first sample, and one past the last series */
    int64_t first;                  /* search: query `first + t / b_count` against record `t % b_count` */
    int64_t count;                  /* pairs t = 0 .. count - 1 */
    int64_t b_count;
    int paired;                     /* 1: series t of a against series t of b */
    int squared;                    /* the cost: (a - b)^2, else |a - b| */
    double *bottom;                 /* per warp of the grid: a segment's last row, bottom_stride long */
    int64_t bottom_stride;          /* the longest record */
    double *out;                    /* per pair: the distance */
};

template <int R>
__global__ void __launch_bounds__(128) pw_batch_dtw_kernel(pw_batch_dtw_args args)
{
    const unsigned full = 0xffffffffu;
    const int k = (int)(threadIdx.x % 32);
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = (int64_t)gridDim.x * blockDim.x / 32;
    double *bottom = args.bottom + warp * args.bottom_stride;
    const double inf = __longlong_as_double(0x7ff0000000000000LL);
    for (int64_t t = warp; t < args.count; t += warps) {
        const int64_t qi = args.paired ? t : args.first + t / args.b_count, ri = args.paired ? t : t % args.b_count;
        const double *a = args.a + args.a_at[qi], *b = args.b + args.b_at[ri];
        const int64_t n = args.a_at[qi + 1] - args.a_at[qi], m = args.b_at[ri + 1] - args.b_at[ri];
        for (int64_t r0 = 0; r0 < n; r0 += 32 * R) {
            const bool first_segment = r0 == 0, last_segment = r0 + 32 * R >= n;
            double av[R], left[R];
            for (int q = 0; q < R; q++) {
                const int64_t row = r0 + (int64_t)k * R + q;
                av[q] = row < n ? a[row] : 0.0; /* (rows past the query feed only rows past it) */
                left[q] = inf;                  /* column -1 */
            }
            /* the row above this thread's first, one column back: at column 0 that is column -1,
             * +inf but for D(-1, -1) = 0 (thread 0 of the first segment) */
            double diag_in = first_segment && k == 0 ? 0.0 : inf, last_out = inf;
            for (int64_t s = 0; s < m + 31; s++) {
                const double from_above = __shfl_up_sync(full, last_out, 1);
                const int64_t j = s - k;
                if (j < 0 || j >= m) continue; /* (the shuffle above is every thread's, every step) */
                /* D(row above this thread's first, j): thread k - 1's, or the segment's top */
                const double up_in = k > 0 ? from_above : first_segment ? inf : bottom[j];
                const double bj = b[j];
                double up = up_in, diag = diag_in;
                for (int q = 0; q < R; q++) {
                    const double d = pw_dtw_step_f64(av[q], bj, args.squared, up, left[q], diag);
                    diag = left[q];
                    left[q] = d;
                    up = d;
                }
                diag_in = up_in;
                last_out = left[R - 1];
                if (!last_segment) {
                    /* the segment's last row (thread 31's last) for the next segment, whose thread
                     * 0 reads column j at step j: before this one's thread 31 writes it, 31 steps
                     * later (batch_sw_proc.cuh's order) */
                    if (k == 31) bottom[j] = last_out;
                } else if (j == m - 1) {
                    const int64_t row = n - 1 - r0; /* the last row: this segment's row `row` */
                    if (row / R == k) {
                        double d = left[0];
#pragma unroll
                        for (int q = 1; q < R; q++)
                            if (q == (int)(row % R)) d = left[q];
                        args.out[t] = d;
                    }
                }
            }
            __syncwarp(); /* (the bottom row's writes before the next segment's reads) */
        }
    }
}

#endif
