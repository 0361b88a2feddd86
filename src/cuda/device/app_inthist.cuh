/*
 * app_inthist.cuh - the integral histogram for FullProc: every bin's SAT cell at once, from a
 * dense array of bin indices (the prefix-sum processor takes it as a source instead: prefix_sum_sources.cuh).
 */
#ifndef PW_DEVICE_APP_INTHIST_CUH
#define PW_DEVICE_APP_INTHIST_CUH

#include "../../../apps/sat_cell.h"
#include "../../core/fixed_width.h"

template <class B> /* the bin array's type (prefix_sum_sources.cuh, pw_bin_src) */
struct InthistApp {
    const B *bin;
    int32_t *out;
    int64_t rows, cols;
    int bins;

    __device__ void cell(int64_t i, int64_t j) const
    {
        B mine = bin[i * cols + j];
        int64_t plane = rows * cols;
        for (int b = 0; b < bins; b++) {
            int32_t *row = out + b * plane + i * cols;
            const int32_t *up = i > 0 ? row - cols : nullptr;
            int32_t u = up ? __ldcg(up + j) : 0, l = j > 0 ? __ldcg(row + j - 1) : 0;
            int32_t d = (up && j > 0) ? __ldcg(up + j - 1) : 0;
            row[j] = pw_sat_step_i32(mine == (B)b, u, l, d);
        }
    }
};

#endif
