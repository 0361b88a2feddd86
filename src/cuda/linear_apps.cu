/*
 * linear_apps.cu - SW and DTW on the CUDA engine (linear storage, LinearProc).  The cells are
 * the shared definitions of apps/sw_cell.h and apps/dtw_cell.h.
 */
#include <math.h>
#include <stdlib.h>
#include <new>
#include <vector>

#include "../../apps/dtw_cell.h"
#include "../../apps/sw_cell.h"
#include "device_buffer.cuh"
#include "engine.cuh"
#include "pw_cuda.h"
#include "tile_processors.cuh"

pw_status pw_cuda_probe(int device)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        return PW_ERR_NO_DEVICE;
    }
    return pw_from_cuda(cudaSetDevice(device));
}

/* ---- Smith-Waterman ----------------------------------------------------------------------- */

struct SwApp {
    typedef pw_sw_cell T;
    struct Acc {
        int32_t score;
        int64_t j;
    };
    T *bus, *left, *diag;
    const uint8_t *a, *b;
    const int32_t *scores;
    int alphabet;
    int32_t gap_open, gap_extend;
    int32_t *best_score; /* per row: best H and its smallest column */
    int64_t *best_col;

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const
    {
        int32_t s = __ldg(scores + a[i] * alphabet + b[j]);
        return pw_sw_step(s, gap_open, gap_extend, up, l, d);
    }
    __device__ Acc acc_load(int64_t i) const { return Acc{best_score[i], best_col[i]}; }
    __device__ void acc_add(Acc &acc, int64_t, int64_t j, const T &v) const
    {
        if (v.h > acc.score) { /* j grows along a row: strict > keeps the smallest j */
            acc.score = v.h;
            acc.j = j;
        }
    }
    __device__ void acc_store(int64_t i, const Acc &acc) const
    {
        best_score[i] = acc.score;
        best_col[i] = acc.j;
    }
};

static pw_status cuda_sw(const pw_plan *plan, const uint8_t *a, int64_t n, const uint8_t *b, int64_t m,
                         const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend, int32_t *score,
                         int64_t *end_a, int64_t *end_b, pw_run_info *info)
{
    pw_device_buffer<pw_sw_cell> bus, left, diag;
    pw_device_buffer<uint8_t> da, db;
    pw_device_buffer<int32_t> dscores, best_score;
    pw_device_buffer<int64_t> best_col;
    std::vector<pw_sw_cell> bus_init((size_t)m, pw_sw_boundary()), col_init((size_t)n, pw_sw_boundary());
    std::vector<int32_t> row_score((size_t)n, 0);
    std::vector<int64_t> row_col((size_t)n, -1);
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, pw_cuda_reserve((double)m * sizeof(pw_sw_cell) + (double)n * (2 * sizeof(pw_sw_cell) + 13) + (double)m));
    PW_THEN(st, bus.upload(bus_init.data(), (size_t)m));
    PW_THEN(st, left.upload(col_init.data(), (size_t)n));
    PW_THEN(st, diag.upload(col_init.data(), (size_t)n));
    PW_THEN(st, da.upload(a, (size_t)n));
    PW_THEN(st, db.upload(b, (size_t)m));
    PW_THEN(st, dscores.upload(scores, (size_t)(alphabet * alphabet)));
    PW_THEN(st, best_score.upload(row_score.data(), (size_t)n));
    PW_THEN(st, best_col.upload(row_col.data(), (size_t)n));
    if (st != PW_OK) return st;
    LinearProc<SwApp> proc;
    proc.app = SwApp{bus.ptr, left.ptr, diag.ptr, da.ptr, db.ptr, dscores.ptr, alphabet, gap_open,
                     gap_extend, best_score.ptr, best_col.ptr};
    st = pw_cuda_run(plan, proc, LinearProc<SwApp>::smem_bytes(plan->tiling.h), info);
    PW_THEN(st, best_score.download(row_score.data(), (size_t)n));
    PW_THEN(st, best_col.download(row_col.data(), (size_t)n));
    if (st != PW_OK) return st;
    /* Rows in order with strict >: the smallest row, then (per row) the smallest column. */
    *score = 0;
    *end_a = *end_b = -1;
    for (int64_t i = 0; i < n; i++)
        if (row_score[(size_t)i] > *score) {
            *score = row_score[(size_t)i];
            *end_a = i;
            *end_b = row_col[(size_t)i];
        }
    return PW_OK;
}

/* The host staging vectors may throw std::bad_alloc: it must not cross into C. */
extern "C" pw_status pw_cuda_sw(const pw_plan *plan, const uint8_t *a, int64_t n, const uint8_t *b,
                                int64_t m, const int32_t *scores, int alphabet, int32_t gap_open,
                                int32_t gap_extend, int32_t *score, int64_t *end_a, int64_t *end_b,
                                pw_run_info *info)
{
    try {
        return cuda_sw(plan, a, n, b, m, scores, alphabet, gap_open, gap_extend, score, end_a, end_b, info);
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

/* ---- DTW ------------------------------------------------------------------------------------- */

template <class F>
struct DtwApp {
    typedef F T;
    typedef pw_no_acc Acc;
    T *bus, *left, *diag;
    const F *a, *b;
    int squared;

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const;
    __device__ Acc acc_load(int64_t) const { return Acc{}; }
    __device__ void acc_add(Acc &, int64_t, int64_t, const T &) const {}
    __device__ void acc_store(int64_t, const Acc &) const {}
};

template <>
__device__ float DtwApp<float>::cell(int64_t i, int64_t j, float up, float l, float d) const
{
    return pw_dtw_step_f32(a[i], b[j], squared, up, l, d);
}

template <>
__device__ double DtwApp<double>::cell(int64_t i, int64_t j, double up, double l, double d) const
{
    return pw_dtw_step_f64(a[i], b[j], squared, up, l, d);
}

template <class F>
static pw_status cuda_dtw_staged(const pw_plan *plan, const F *a, int64_t n, const F *b, int64_t m, int squared,
                                 double *distance, pw_run_info *info)
{
    pw_device_buffer<F> bus, left, diag, da, db;
    std::vector<F> bus_init((size_t)m, (F)INFINITY), left_init((size_t)n, (F)INFINITY), diag_init((size_t)n, (F)INFINITY);
    diag_init[0] = 0; /* D(-1, -1) = 0 */
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, pw_cuda_reserve(3.0 * sizeof(F) * (double)(n + m)));
    PW_THEN(st, bus.upload(bus_init.data(), (size_t)m));
    PW_THEN(st, left.upload(left_init.data(), (size_t)n));
    PW_THEN(st, diag.upload(diag_init.data(), (size_t)n));
    PW_THEN(st, da.upload(a, (size_t)n));
    PW_THEN(st, db.upload(b, (size_t)m));
    if (st != PW_OK) return st;
    LinearProc<DtwApp<F>> proc;
    proc.app = DtwApp<F>{bus.ptr, left.ptr, diag.ptr, da.ptr, db.ptr, squared};
    st = pw_cuda_run(plan, proc, LinearProc<DtwApp<F>>::smem_bytes(plan->tiling.h), info);
    F last = 0;
    PW_THEN(st, pw_from_cuda(cudaMemcpy(&last, bus.ptr + m - 1, sizeof(F), cudaMemcpyDeviceToHost)));
    if (st == PW_OK) *distance = (double)last;
    return st;
}

template <class F>
static pw_status cuda_dtw(const pw_plan *plan, const F *a, int64_t n, const F *b, int64_t m, int squared,
                          double *distance, pw_run_info *info)
{
    try {
        return cuda_dtw_staged(plan, a, n, b, m, squared, distance, info);
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

extern "C" pw_status pw_cuda_dtw_f32(const pw_plan *plan, const float *a, int64_t n, const float *b,
                                     int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, distance, info);
}

extern "C" pw_status pw_cuda_dtw_f64(const pw_plan *plan, const double *a, int64_t n, const double *b,
                                     int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, distance, info);
}
