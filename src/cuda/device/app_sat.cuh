/*
 * app_sat.cuh - the summed-area table in the forms of the generic processors: SatApp for
 * FullProc (neighbours from global memory, any layout: layouts.cuh) and SatDiagApp for LinearProc
 * (neighbours in registers and the bus, every value stored to the output).  The prefix-sum processor
 * takes SAT as a source instead (prefix_sum_sources.cuh).  The cell is apps/sat_cell.h's.
 */
#ifndef PW_DEVICE_APP_SAT_CUH
#define PW_DEVICE_APP_SAT_CUH

#include "../../../apps/sat_cell.h"
#include "layouts.cuh"
#include "memory.cuh"
#include "linear_storage.cuh"
#include "reductions.cuh"

/* The shared C cells by output type. */
__device__ __forceinline__ int32_t sat_step(int32_t x, int32_t u, int32_t l, int32_t d) { return pw_sat_step_i32(x, u, l, d); }
__device__ __forceinline__ int64_t sat_step(int64_t x, int64_t u, int64_t l, int64_t d) { return pw_sat_step_i64(x, u, l, d); }
__device__ __forceinline__ float sat_step(float x, float u, float l, float d) { return pw_sat_step_f32(x, u, l, d); }
__device__ __forceinline__ double sat_step(double x, double u, double l, double d) { return pw_sat_step_f64(x, u, l, d); }

template <class In, class Out, class L>
struct SatApp {
    const In *in;
    Out *out;
    L lin, lout; /* layouts.cuh */

    __device__ void cell(int64_t i, int64_t j) const
    {
        Out u = i > 0 ? pw_load_cg(out + lout.at(i - 1, j)) : (Out)0;
        Out l = j > 0 ? pw_load_cg(out + lout.at(i, j - 1)) : (Out)0;
        Out d = (i > 0 && j > 0) ? pw_load_cg(out + lout.at(i - 1, j - 1)) : (Out)0;
        out[lout.at(i, j)] = sat_step((Out)in[lin.at(i, j)], u, l, d);
    }
};

/* SAT on the linear tile processor: a lane's up value comes from the lane above through the
 * shared-memory diagonal buffer (LinearProc's double-buffered slots), left and upper-left stay
 * in registers, and the row above a tile-row arrives through the bus row; every value is also
 * stored to out.  So a cell reads its input once and writes its output once, instead of three
 * L2 loads of its neighbours (SatApp with FullProc). */
template <class In, class Out>
struct SatDiagApp : pw_linear_storage<Out>, pw_no_reduction {
    typedef Out T;
    const In *in;
    int64_t in_stride;
    Out *out;
    int64_t out_stride;
    static constexpr bool stages_block = false;
    __device__ void begin_block() const {}

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return sat_step((Out)in[i * in_stride + j], up, l, d); }
    __device__ void cell_out(int64_t i, int64_t j, const T &v) const { out[i * out_stride + j] = v; }
    __device__ void row_out(int64_t, int64_t, const T &) const {}
};

#endif
