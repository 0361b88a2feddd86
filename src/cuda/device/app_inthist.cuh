/*
 * app_inthist.cuh - the integral histogram for FullProc: every bin's SAT cell at once, from a
 * dense array of bin indices (the prefix-sum processor takes it as a source instead: prefix_sum_sources.cuh).
 */
#ifndef PW_DEVICE_APP_INTHIST_CUH
#define PW_DEVICE_APP_INTHIST_CUH

#include "../../../apps/sat_cell.h"
#include "../../core/fixed_width.h"
#include "layouts.cuh"

template <class B, class L> /* the bin array's type (prefix_sum_sources.cuh, pw_bin_src), a layout (layouts.cuh) */
struct InthistApp {
    const B *bin;
    int32_t *out;
    L lbin;                /* the bins' */
    pw_planes<L> lout;     /* plane b: bin b's sums */
    int bins;

    __device__ void cell(int64_t i, int64_t j) const
    {
        const B mine = bin[lbin.at(i, j)];
        for (int b = 0; b < bins; b++) {
            const int32_t u = i > 0 ? __ldcg(out + lout.at(b, i - 1, j)) : 0, l = j > 0 ? __ldcg(out + lout.at(b, i, j - 1)) : 0;
            const int32_t d = i > 0 && j > 0 ? __ldcg(out + lout.at(b, i - 1, j - 1)) : 0;
            out[lout.at(b, i, j)] = pw_sat_step_i32(mine == (B)b, u, l, d);
        }
    }
};

#endif
