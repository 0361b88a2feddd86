/*
 * app_dtw.cuh - dynamic time warping in the forms the linear processors take (linear_proc.cuh,
 * warp_proc.cuh): the cell of apps/dtw_cell.h in two parts (the cost from the series, made a step
 * early by the warp processor, and the combination with the neighbours).  No reduction: the
 * result is the bus's last value.
 *
 * The warping-path search (src/align/dtw_strips.c), ForPath: with `saved` set, rows
 * every - 1, 2 every - 1, ... (the first `slots` of them) are copied there as they go to the bus,
 * row k at saved + k cols; `every` is a multiple of the tile height, so each is a tile-row's last
 * row; a column free_col whose cells cost 0.  F32Cost: the cost of float samples in float
 * (pw_dtw_f32's), summed in F (the path search
 * sums f32 costs in double).  CostKind: 0 |a - b|, 1 (a - b)^2, fixed when the kernel is compiled
 * (the distance's kernels: linear_apps.cu, dtw_squared_run.cu); -1 the `squared` member decides at
 * run time (the path search's).  Decided at run time in the distance's kernels, the select of
 * both costs made them 1.13x slower on the peer schedule (H200, DTW f32 65536^2 PW+HT 6.77 ms at
 * dcad950, which compiled a loop for each; 7.73 with the select; 2026-12-01).
 */
#ifndef PW_DEVICE_APP_DTW_CUH
#define PW_DEVICE_APP_DTW_CUH

#include "../../../apps/dtw_cell.h"
#include "linear_storage.cuh"
#include "reductions.cuh"

/* dtw_cell.h's two parts, by element type. */
__device__ __forceinline__ float pw_dtw_cell_cost(float a, float b, int squared) { return pw_dtw_cost_f32(a, b, squared); }
__device__ __forceinline__ double pw_dtw_cell_cost(double a, double b, int squared) { return pw_dtw_cost_f64(a, b, squared); }
__device__ __forceinline__ float pw_dtw_cell_combine(float c, float up, float l, float d) { return pw_dtw_combine_f32(c, up, l, d); }
__device__ __forceinline__ double pw_dtw_cell_combine(double c, double up, double l, double d) { return pw_dtw_combine_f64(c, up, l, d); }

template <class F, bool F32Cost = false, bool ForPath = false, int CostKind = -1>
struct DtwApp : pw_linear_storage<F>, pw_no_reduction {
    typedef F T;
    typedef F Row;
    typedef F Col;
    typedef F Pre; /* the cell's cost */
    const F *a, *b;
    int squared;
    F *saved;                 /* ForPath: saved rows (NULL: none) */
    int64_t every, slots, cols;
    int64_t free_col;         /* ForPath: a column whose cells cost 0 (-1: none) */
    static constexpr bool stages_block = false;
    static constexpr bool prunes = false; /* block pruning is SW's (app_sw.cuh) */
    /* This app with its cost fixed as K (dtw_squared_run.cu): every field, in order, next to
     * their declarations -- one added above goes here too. */
    template <int K>
    __host__ __device__ DtwApp<F, F32Cost, ForPath, K> with_cost() const
    {
        return DtwApp<F, F32Cost, ForPath, K>{static_cast<const pw_linear_storage<F> &>(*this), {}, a, b,
                                              K >= 0 ? K : squared, saved, every, slots, cols, free_col};
    }
    __device__ void begin_block() const {}
    __device__ T shfl_up_value(const T &v) const { return __shfl_up_sync(0xffffffffu, v, 1); }

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return cell_pre(pre(a[i], col_load(j)), up, l, d); }
    __device__ Row row_load(int64_t i) const { return a[i]; }
    /* ForPath: the free column's datum is a NaN (finite samples only reach here), costing 0 */
    __device__ Col col_load(int64_t j) const
    {
        if constexpr (ForPath) return j == free_col ? (F)__int_as_float(0x7fc00000) : b[j]; /* a quiet NaN */
        else return b[j];
    }
    __device__ Pre pre(Row x, Col y) const
    {
        if constexpr (ForPath)
            if (y != y) return 0;
        const int sq = CostKind >= 0 ? CostKind : squared;
        if constexpr (F32Cost) return (F)pw_dtw_cell_cost((float)x, (float)y, sq);
        else return pw_dtw_cell_cost(x, y, sq);
    }
    __device__ T cell_pre(Pre cost, T up, T l, T d) const { return pw_dtw_cell_combine(cost, up, l, d); }
    __device__ void row_out(int64_t i, int64_t j, const T &v) const
    {
        if constexpr (!ForPath) return; /* the distance's kernels: nothing more a row */
        if (!saved || (i + 1) % every != 0) return;
        const int64_t k = (i + 1) / every - 1;
        if (k < slots) saved[k * cols + j] = v;
    }
};

#endif
