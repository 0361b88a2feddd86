/*
 * linear_apps.cu - SW and DTW on the CUDA engine (linear storage, LinearProc).  The cells are
 * the shared definitions of apps/sw_cell.h and apps/dtw_cell.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <new>
#include <vector>

#include "../../apps/dtw_cell.h"
#include "../../apps/scoring.h"
#include "../../apps/sw_cell.h"
#include "device_buffer.cuh"
#include "device_prep.cuh"
#include "engine.cuh"
#include "pw_cuda.h"
#include "tile_processors.cuh"
#include "warp_processor.cuh"

pw_status pw_cuda_probe(int device)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || device >= count) {
        cudaGetLastError(); /* clear the sticky "no driver" error */
        if (e != cudaSuccess) pw_set_error_detail("%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
        else pw_set_error_detail("device %d asked for, %d present", device, count);
        return PW_ERR_NO_DEVICE;
    }
    return pw_from_cuda(cudaSetDevice(device));
}

extern "C" pw_status pw_cuda_describe(int device, char *buf, size_t size)
{
    cudaDeviceProp prop;
    pw_status st = pw_from_cuda(cudaGetDeviceProperties(&prop, device));
    if (st == PW_OK) snprintf(buf, size, "cuda:%s:%d SMs", prop.name, prop.multiProcessorCount);
    return st;
}

/* Run app with plan->rows_per_thread rows per thread (validated by pw_plan_make). */
template <class App>
static pw_status pw_cuda_run_linear(const pw_plan *plan, const App &app, pw_run_info *info)
{
    int64_t h = plan->tiling.h;
    if (plan->warp_rows) { /* the register/shuffle processor: one warp per tile-row */
        /* In the peer schedule it waits per 32-step chunk, so a narrow tile buys no earlier start,
         * only more tile ends (lane state stored and reloaded): at least PW_WARP_PEER_MIN_W steps
         * (SW 65536^2, h = 128, H200: w = 43 / 128 / 1024 / 4096: 58.3 / 50.7 / 51.2 / 51.5 ms). */
        pw_plan wide = *plan;
        int64_t w = plan->tiling.w;
        if (plan->strategy == PW_STRATEGY_PEER && w < PW_WARP_PEER_MIN_W) w = PW_WARP_PEER_MIN_W;
        if (w > PW_WARP_MAX_STEPS) w = PW_WARP_MAX_STEPS;
        if (w != plan->tiling.w) {
            pw_status st = pw_plan_rewidth(plan, w, &wide);
            if (st != PW_OK) return st;
        }
        /* its own bus, filled from the app's before the run and copied back after (pw_ll) */
        typedef typename App::T T;
        const int64_t cols = plan->tiling.cols;
        const unsigned fill_blocks = (unsigned)((cols + 255) / 256);
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<pw_ll<T>> ll(s);
        pw_status st = ll.alloc((size_t)cols);
        if (st != PW_OK) return st;
        if (cols > 0) pw_ll_fill<T><<<fill_blocks, 256, 0, s>>>(ll.ptr, app.bus, cols);
        st = pw_from_cuda(cudaGetLastError());
        if (st != PW_OK) return st;
        switch (plan->warp_rows) {
        case 1: { WarpProc<App, 1> p{app, ll.ptr}; st = pw_cuda_run(&wide, p, p.smem_bytes(h), info); break; }
        case 2: { WarpProc<App, 2> p{app, ll.ptr}; st = pw_cuda_run(&wide, p, p.smem_bytes(h), info); break; }
        case 4: { WarpProc<App, 4> p{app, ll.ptr}; st = pw_cuda_run(&wide, p, p.smem_bytes(h), info); break; }
        default: { WarpProc<App, 8> p{app, ll.ptr}; st = pw_cuda_run(&wide, p, p.smem_bytes(h), info); break; }
        }
        if (st != PW_OK) return st;
        if (cols > 0) pw_ll_drain<T><<<fill_blocks, 256, 0, s>>>(ll.ptr, app.bus, cols);
        return pw_from_cuda(cudaGetLastError());
    }
    switch (plan->rows_per_thread) {
    case 2: { LinearProc<App, 2> p{app}; return pw_cuda_run(plan, p, p.smem_bytes(h), info); }
    case 4: { LinearProc<App, 4> p{app}; return pw_cuda_run(plan, p, p.smem_bytes(h), info); }
    case 8: { LinearProc<App, 8> p{app}; return pw_cuda_run(plan, p, p.smem_bytes(h), info); }
    default: { LinearProc<App, 1> p{app}; return pw_cuda_run(plan, p, p.smem_bytes(h), info); }
    }
}

/* ---- Smith-Waterman ----------------------------------------------------------------------- */

/* WarpProc moves a lane's value one thread up the warp every step, where it is the next lane's up
 * value: pw_sw_step reads h and f of it, never e, so e stays behind (one shuffle in four). */
template <>
__device__ __forceinline__ pw_sw_cell pw_shfl_up(const pw_sw_cell &v)
{
    return pw_sw_cell{__shfl_up_sync(0xffffffffu, v.h, 1), PW_SW_NEG_INF, __shfl_up_sync(0xffffffffu, v.f, 1)};
}

/* The gap models: what a cell carries and how it is made.  Affine gaps carry H, E and F
 * (pw_sw_cell); linear ones (gap_open == gap_extend) H alone (pw_sw_step_linear): a third of
 * the bus and lane state, one shuffle a step instead of two, three DPX-or-add instructions a
 * cell instead of six. */
struct SwAffineGaps {
    typedef pw_sw_cell T;
    int32_t open, extend;
    static T boundary() { return pw_sw_boundary(); }
    __device__ static int32_t h(const T &v) { return v.h; }
    __device__ T step(int32_t subst, T up, T l, T d) const { return pw_sw_step(subst, open, extend, up, l, d); }
};

struct SwLinearGaps {
    typedef int32_t T; /* H */
    int32_t gap;
    static T boundary() { return 0; }
    __device__ static int32_t h(const T &v) { return v; }
    __device__ T step(int32_t subst, T up, T l, T d) const { return pw_sw_step_linear(subst, gap, up, l, d); }
};

/* The score table in shared memory, staged once a block (begin_block): a lookup is one add and
 * one shared load, by byte offsets (Row: a[i]'s row, Col: b[j], both times 4 bytes), where the
 * global table took a 64-bit address (four instructions) and an L1 load, twice a step. */
static __shared__ int32_t pw_sw_smem_scores[PW_SCORING_MAX_ALPHABET * PW_SCORING_MAX_ALPHABET];

template <class Gaps>
struct SwApp {
    typedef typename Gaps::T T;
    struct Acc {
        int32_t score;
        int64_t j;
    };
    typedef int32_t Row; /* byte offset of a[i]'s row in the staged score table */
    typedef int32_t Col; /* 4 b[j]: byte offset of its entry in a row */
    typedef int32_t Pre; /* s(a[i], b[j]) */
    struct TileAcc {            /* WarpProc: the row's best H so far and the tile step it came at */
        int32_t score;
        int32_t step; /* -1: not in this tile */
    };
    T *bus, *left, *diag;
    const uint8_t *a, *b;
    const int32_t *scores;
    int alphabet;
    Gaps gaps;
    int32_t *best_score; /* per row: best H and its smallest column */
    int64_t *best_col;

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return cell_pre(pre(row_load(i), col_load(j)), up, l, d); }
    __device__ void begin_block() const
    {
        for (int k = threadIdx.x; k < alphabet * alphabet; k += blockDim.x) pw_sw_smem_scores[k] = scores[k];
    }
    __device__ Row row_load(int64_t i) const { return 4 * (int32_t)a[i] * alphabet; }
    __device__ Col col_load(int64_t j) const { return 4 * (int32_t)b[j]; }
    __device__ Pre pre(Row row, Col col) const { return *(const int32_t *)((const char *)pw_sw_smem_scores + (row + col)); }
    __device__ T cell_pre(Pre subst, T up, T l, T d) const { return gaps.step(subst, up, l, d); }
    __device__ TileAcc tile_acc_load(int64_t i) const { return TileAcc{best_score[i], -1}; }
    __device__ void tile_acc_add(TileAcc &acc, const T &v, int32_t step) const
    {
        const int32_t h = Gaps::h(v);
        const bool keep = acc.score >= h; /* steps grow along a row: ties keep the smallest column */
        acc.score = keep ? acc.score : h;
        acc.step = keep ? acc.step : step;
    }
    __device__ void tile_acc_store(int64_t i, const TileAcc &acc, int64_t col_of_step0) const
    {
        if (acc.step < 0) return;
        best_score[i] = acc.score;
        best_col[i] = col_of_step0 + acc.step;
    }
    __device__ Acc acc_load(int64_t i) const { return Acc{best_score[i], best_col[i]}; }
    __device__ void acc_add(Acc &acc, int64_t, int64_t j, const T &v) const
    {
        if (Gaps::h(v) > acc.score) { /* j grows along a row: strict > keeps the smallest j */
            acc.score = Gaps::h(v);
            acc.j = j;
        }
    }
    __device__ void acc_store(int64_t i, const Acc &acc) const
    {
        best_score[i] = acc.score;
        best_col[i] = acc.j;
    }
};

/* The scan over device-resident encoded sequences da (n) and db (m), one gap model. */
template <class Gaps>
static pw_status sw_scan(const pw_plan *plan, const uint8_t *da, int64_t n, const uint8_t *db, int64_t m,
                         const int32_t *scores, int alphabet, Gaps gaps, int32_t *score, int64_t *end_a,
                         int64_t *end_b, pw_run_info *info)
{
    typedef typename Gaps::T T;
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<T> bus(s), left(s), diag(s);
    pw_device_buffer<int32_t> dscores(s), best_score(s);
    pw_device_buffer<int64_t> best_col(s);
    std::vector<T> bus_init((size_t)m, Gaps::boundary()), col_init((size_t)n, Gaps::boundary());
    std::vector<int32_t> row_score((size_t)n, 0);
    std::vector<int64_t> row_col((size_t)n, -1);
    pw_status st = bus.upload(bus_init.data(), (size_t)m);
    PW_THEN(st, left.upload(col_init.data(), (size_t)n));
    PW_THEN(st, diag.upload(col_init.data(), (size_t)n));
    PW_THEN(st, dscores.upload(scores, (size_t)(alphabet * alphabet)));
    PW_THEN(st, best_score.upload(row_score.data(), (size_t)n));
    PW_THEN(st, best_col.upload(row_col.data(), (size_t)n));
    if (st != PW_OK) return st;
    st = pw_cuda_run_linear(plan, SwApp<Gaps>{bus.ptr, left.ptr, diag.ptr, da, db, dscores.ptr, alphabet, gaps,
                                              best_score.ptr, best_col.ptr}, info);
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

static pw_status sw_core(const pw_plan *plan, const uint8_t *da, int64_t n, const uint8_t *db, int64_t m,
                         const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend, int32_t *score,
                         int64_t *end_a, int64_t *end_b, pw_run_info *info)
{
    if (gap_open == gap_extend)
        return sw_scan(plan, da, n, db, m, scores, alphabet, SwLinearGaps{gap_open}, score, end_a, end_b, info);
    return sw_scan(plan, da, n, db, m, scores, alphabet, SwAffineGaps{gap_open, gap_extend}, score, end_a, end_b,
                   info);
}

/* Device bytes of a run, about (the affine cell, an upper bound for linear gaps): b and the bus,
 * the warp processor's tagged copy of it, a and per row left, diag and the best cell. */
static double sw_bytes(int64_t n, int64_t m)
{
    return (double)m * (3 * sizeof(pw_sw_cell) + 1) + (double)n * (2 * sizeof(pw_sw_cell) + 13);
}

/* a and b: encoded host sequences.  The host staging vectors may throw std::bad_alloc: it must
 * not cross into C. */
extern "C" pw_status pw_cuda_sw(const pw_plan *plan, const uint8_t *a, int64_t n, const uint8_t *b,
                                int64_t m, const int32_t *scores, int alphabet, int32_t gap_open,
                                int32_t gap_extend, int32_t *score, int64_t *end_a, int64_t *end_b,
                                pw_run_info *info)
{
    try {
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<uint8_t> da(s), db(s);
        pw_status st = pw_cuda_probe(plan->device);
        PW_THEN(st, pw_cuda_reserve(sw_bytes(n, m)));
        PW_THEN(st, da.upload(a, (size_t)n));
        PW_THEN(st, db.upload(b, (size_t)m));
        PW_THEN(st, sw_core(plan, da.ptr, n, db.ptr, m, scores, alphabet, gap_open, gap_extend, score, end_a, end_b, info));
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

/* a and b: device letters, encoded here with code (256 entries, 255 = refused letter). */
extern "C" pw_status pw_cuda_sw_device(const pw_plan *plan, const char *a, int64_t n, const char *b, int64_t m,
                                       const uint8_t *code, const int32_t *scores, int alphabet, int32_t gap_open,
                                       int32_t gap_extend, int32_t *score, int64_t *end_a, int64_t *end_b,
                                       pw_run_info *info)
{
    try {
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<uint8_t> da(s), db(s), dcode(s);
        pw_device_scalar<int> bad(s);
        pw_status st = pw_cuda_probe(plan->device);
        PW_THEN(st, pw_cuda_reserve(sw_bytes(n, m)));
        PW_THEN(st, da.alloc((size_t)n));
        PW_THEN(st, db.alloc((size_t)m));
        PW_THEN(st, dcode.upload(code, 256));
        PW_THEN(st, bad.zero());
        if (st != PW_OK) return st;
        pw_encode_kernel<<<pw_prep_blocks(n), PW_PREP_THREADS, 0, s>>>(a, n, dcode.ptr, da.ptr, bad.buf.ptr);
        pw_encode_kernel<<<pw_prep_blocks(m), PW_PREP_THREADS, 0, s>>>(b, m, dcode.ptr, db.ptr, bad.buf.ptr);
        int refused = 0;
        st = pw_from_cuda(cudaGetLastError());
        PW_THEN(st, bad.read(&refused));
        if (st == PW_OK && refused) st = PW_ERR_BAD_INPUT;
        PW_THEN(st, sw_core(plan, da.ptr, n, db.ptr, m, scores, alphabet, gap_open, gap_extend, score, end_a, end_b, info));
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

/* ---- DTW ------------------------------------------------------------------------------------- */

/* dtw_cell.h's two parts, by element type. */
__device__ __forceinline__ float pw_dtw_cell_cost(float a, float b, int squared) { return pw_dtw_cost_f32(a, b, squared); }
__device__ __forceinline__ double pw_dtw_cell_cost(double a, double b, int squared) { return pw_dtw_cost_f64(a, b, squared); }
__device__ __forceinline__ float pw_dtw_cell_combine(float c, float up, float l, float d) { return pw_dtw_combine_f32(c, up, l, d); }
__device__ __forceinline__ double pw_dtw_cell_combine(double c, double up, double l, double d) { return pw_dtw_combine_f64(c, up, l, d); }

template <class F>
struct DtwApp {
    typedef F T;
    typedef pw_no_acc Acc;
    typedef pw_no_acc TileAcc;
    typedef F Row;
    typedef F Col;
    typedef F Pre; /* the cell's cost */
    T *bus, *left, *diag;
    const F *a, *b;
    int squared;

    __device__ T cell(int64_t i, int64_t j, T up, T l, T d) const { return cell_pre(pre(a[i], b[j]), up, l, d); }
    __device__ Row row_load(int64_t i) const { return a[i]; }
    __device__ Col col_load(int64_t j) const { return b[j]; }
    __device__ Pre pre(Row x, Col y) const { return pw_dtw_cell_cost(x, y, squared); }
    __device__ T cell_pre(Pre cost, T up, T l, T d) const { return pw_dtw_cell_combine(cost, up, l, d); }
    __device__ Acc acc_load(int64_t) const { return Acc{}; }
    __device__ void acc_add(Acc &, int64_t, int64_t, const T &) const {}
    __device__ void acc_store(int64_t, const Acc &) const {}
    __device__ TileAcc tile_acc_load(int64_t) const { return TileAcc{}; }
    __device__ void tile_acc_add(TileAcc &, const T &, int32_t) const {}
    __device__ void tile_acc_store(int64_t, const TileAcc &, int64_t) const {}
};

/* The scan over device-resident series da (n) and db (m). */
template <class F>
static pw_status dtw_core(const pw_plan *plan, const F *da, int64_t n, const F *db, int64_t m, int squared,
                          double *distance, pw_run_info *info)
{
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<F> bus(s), left(s), diag(s);
    std::vector<F> bus_init((size_t)m, (F)INFINITY), left_init((size_t)n, (F)INFINITY), diag_init((size_t)n, (F)INFINITY);
    diag_init[0] = 0; /* D(-1, -1) = 0 */
    pw_status st = bus.upload(bus_init.data(), (size_t)m);
    PW_THEN(st, left.upload(left_init.data(), (size_t)n));
    PW_THEN(st, diag.upload(diag_init.data(), (size_t)n));
    if (st != PW_OK) return st;
    st = pw_cuda_run_linear(plan, DtwApp<F>{bus.ptr, left.ptr, diag.ptr, da, db, squared}, info);
    F last = 0;
    PW_THEN(st, bus.pw_download(&last, bus.ptr + m - 1, sizeof(F), s));
    if (st == PW_OK) *distance = (double)last;
    return st;
}

/* device = 1: a and b are device pointers (checked for NaN/inf there); else host series. */
template <class F>
static pw_status cuda_dtw(const pw_plan *plan, const F *a, int64_t n, const F *b, int64_t m, int squared, int device,
                          double *distance, pw_run_info *info)
{
    try {
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<F> da(s), db(s);
        pw_status st = pw_cuda_probe(plan->device);
        PW_THEN(st, pw_cuda_reserve(3.0 * sizeof(F) * (double)(n + m)));
        if (st != PW_OK) return st;
        if (device) {
            pw_device_scalar<int> bad(s);
            int refused = 0;
            st = bad.zero();
            if (st != PW_OK) return st;
            pw_finite_kernel<F><<<pw_prep_blocks(n), PW_PREP_THREADS, 0, s>>>(a, n, bad.buf.ptr);
            pw_finite_kernel<F><<<pw_prep_blocks(m), PW_PREP_THREADS, 0, s>>>(b, m, bad.buf.ptr);
            st = pw_from_cuda(cudaGetLastError());
            PW_THEN(st, bad.read(&refused));
            if (st == PW_OK && refused) st = PW_ERR_BAD_INPUT;
            PW_THEN(st, dtw_core(plan, a, n, b, m, squared, distance, info));
            return st;
        }
        PW_THEN(st, da.upload(a, (size_t)n));
        PW_THEN(st, db.upload(b, (size_t)m));
        PW_THEN(st, dtw_core(plan, (const F *)da.ptr, n, (const F *)db.ptr, m, squared, distance, info));
        return st;
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

extern "C" pw_status pw_cuda_dtw_f32(const pw_plan *plan, const float *a, int64_t n, const float *b,
                                     int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, 0, distance, info);
}

extern "C" pw_status pw_cuda_dtw_f64(const pw_plan *plan, const double *a, int64_t n, const double *b,
                                     int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, 0, distance, info);
}

extern "C" pw_status pw_cuda_dtw_f32_device(const pw_plan *plan, const float *a, int64_t n, const float *b,
                                            int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, 1, distance, info);
}

extern "C" pw_status pw_cuda_dtw_f64_device(const pw_plan *plan, const double *a, int64_t n, const double *b,
                                            int64_t m, int squared, double *distance, pw_run_info *info)
{
    return cuda_dtw(plan, a, n, b, m, squared, 1, distance, info);
}
