/*
 * linear_apps.cu - SW and DTW on the CUDA engine (linear storage: the warp or block processor,
 * as the kernel selector picks).  The apps' device forms are device/app_sw.cuh and app_dtw.cuh;
 * this file stages their data and reduces their results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <new>
#include <vector>

#include "../../apps/scoring.h"
#include "device/app_dtw.cuh"
#include "device/app_sw.cuh"
#include "device_buffer.cuh"
#include "device_prep.cuh"
#include "gpu_band_storage.cuh"
#include "linear_run.cuh"
#include "pw_cuda.h"
#include "sw_packed_run.h"
#include "sw_prune_run.h"
#include "dtw_squared_run.h"
#include "sw_warp_rows.h"

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

extern "C" pw_status pw_cuda_stream_create(int device, void **stream)
{
    cudaStream_t s = NULL;
    pw_status st = pw_from_cuda(cudaSetDevice(device));
    if (st == PW_OK) st = pw_from_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    *stream = st == PW_OK ? (void *)s : NULL;
    return st;
}

extern "C" void pw_cuda_stream_destroy(void *stream)
{
    if (stream) cudaStreamDestroy((cudaStream_t)stream);
}

extern "C" pw_status pw_cuda_describe(int device, char *buf, size_t size)
{
    cudaDeviceProp prop;
    pw_status st = pw_from_cuda(cudaGetDeviceProperties(&prop, device));
    if (st == PW_OK) snprintf(buf, size, "cuda:%s:%d SMs", prop.name, prop.multiProcessorCount);
    return st;
}

extern "C" pw_status pw_cuda_bus_id(int device, char *buf, size_t size)
{
    return pw_from_cuda(cudaDeviceGetPCIBusId(buf, (int)size, device));
}

/* ---- Smith-Waterman ----------------------------------------------------------------------- */

/* The progress hook's best score so far (core/monitor.h): the rows' best scores as the kernel
 * left them, copied on the monitor's stream while it runs (a row's word is its best over the
 * tiles finished, so every value is a score some cell reached). */
struct sw_best_view {
    const int32_t *row_best; /* device, n */
    int64_t n;
    std::vector<int32_t> host;
};

static int sw_best_so_far(void *p, void *stream, int64_t *best)
{
    sw_best_view *v = (sw_best_view *)p;
    cudaStream_t s = (cudaStream_t)stream;
    if (cudaMemcpyAsync(v->host.data(), v->row_best, sizeof(int32_t) * (size_t)v->n, cudaMemcpyDeviceToHost, s) !=
            cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess)
        return 0;
    int32_t b = 0;
    for (int32_t x : v->host) b = x > b ? x : b;
    *best = b;
    return 1;
}

/* Rows an alignment search keeps (app_sw.cuh's ForPath): H and F of `slots` rows every `every`
 * (device, slots x m each); none when h is NULL. */
struct sw_saved_rows {
    int32_t *h, *f;
    int64_t every, slots;
};

static int32_t gaps_open(const SwAffineGaps &g) { return g.open; }
static int32_t gaps_extend(const SwAffineGaps &g) { return g.extend; }
static int32_t gaps_open(const SwLinearGaps &g) { return g.gap; }
static int32_t gaps_extend(const SwLinearGaps &g) { return g.gap; }

/* The scan over device-resident encoded sequences da (n) and db (m), one gap model. */
template <class Gaps>
static pw_status sw_scan(const pw_plan *plan, const uint8_t *da, int64_t n, const uint8_t *db, int64_t m,
                         const int32_t *scores, int alphabet, Gaps gaps, int32_t *score, int64_t *end_a,
                         int64_t *end_b, pw_run_info *info, sw_saved_rows save = sw_saved_rows{NULL, NULL, 1, 0})
{
    typedef typename Gaps::T T;
    /* A pair long enough to fill the GPU with warps a tile-row: the warp-rows engine
     * (sw_warp_rows.cu), where nothing asks for what only the tile engines do; the alignment
     * search's saved rows too (the genomes' score pass 8.8 s against the tiles' 17.6, the same
     * alignment: docs/PERFORMANCE.md). */
    pw_kernel_switches switches;
    pw_kernel_switches_read(&switches);
    const pw_cuda_swr_saved saved = {save.h, save.f, save.every, save.slots, PW_SW_NEG_INF};
    const pw_status rows_st = pw_cuda_sw_warp_rows(plan, (pw_sw_engine_ask)switches.sw_engine, da, n, db, m, scores,
                                                   alphabet, gaps_open(gaps), gaps_extend(gaps), saved, score, end_a,
                                                   end_b, info);
    if (rows_st != PW_ERR_UNSUPPORTED) return rows_st;
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
    pw_plan watched = *plan;
    sw_best_view view = {best_score.ptr, n, {}};
    if (plan->monitor.fn) {
        view.host.resize((size_t)n);
        watched.monitor.best = sw_best_so_far;
        watched.monitor.best_ctx = &view;
    }
    if (save.h)
        st = pw_cuda_run_linear(&watched,
                                SwApp<Gaps, true>{{bus.ptr, left.ptr, diag.ptr}, {best_score.ptr, best_col.ptr}, da, db,
                                                  dscores.ptr, alphabet, gaps, save.h, save.f, save.every, save.slots, m},
                                info, save.slots > 0 ? save.every : 0);
    else {
        SwApp<Gaps> app{{bus.ptr, left.ptr, diag.ptr}, {best_score.ptr, best_col.ptr}, da, db, dscores.ptr, alphabet, gaps};
        /* block pruning (app_sw.cuh, warp_proc.cuh): the best published score, the cells skipped */
        pw_device_buffer<int32_t> prune_best(s);
        pw_device_buffer<unsigned long long> pruned(s);
        if (plan->sw_prune) {
            const int32_t zero = 0;
            const unsigned long long none = 0;
            PW_THEN(st, prune_best.upload(&zero, 1));
            PW_THEN(st, pruned.upload(&none, 1));
            if (st != PW_OK) return st;
            app.prune_best = prune_best.ptr;
            app.pruned = pruned.ptr;
            app.max_score = 0; /* no positive score: every H is 0, and so the bound's gain */
            for (int k = 0; k < alphabet * alphabet; k++) app.max_score = scores[k] > app.max_score ? scores[k] : app.max_score;
        }
        const int lanes = pw_cuda_sw_lanes_kind(plan, scores, alphabet, gaps_open(gaps), gaps_extend(gaps));
        st = pw_gpu_run_linear_band(&watched, left.ptr, diag.ptr, sizeof *left.ptr, n, [&](const pw_plan *p) {
            if (lanes) return pw_cuda_run_sw_packed(p, app, lanes == 2, info);
            return plan->sw_prune ? pw_cuda_run_sw_pruned(p, app, info) : pw_cuda_run_linear(p, app, info);
        });
        if (st == PW_OK && plan->sw_prune) {
            unsigned long long skipped = 0;
            st = pruned.download(&skipped, 1);
            info->pruned_cells = (int64_t)skipped;
        }
    }
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
                         int64_t *end_a, int64_t *end_b, pw_run_info *info,
                         sw_saved_rows save = sw_saved_rows{NULL, NULL, 1, 0})
{
    if (gap_open == gap_extend)
        return sw_scan(plan, da, n, db, m, scores, alphabet, SwLinearGaps{gap_open}, score, end_a, end_b, info, save);
    return sw_scan(plan, da, n, db, m, scores, alphabet, SwAffineGaps{gap_open, gap_extend}, score, end_a, end_b,
                   info, save);
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

/* ---- saved rows (the alignment and warping-path searches) ---------------------------------- */

/* out[k spans + c] = op over saved row k's columns [c span, (c + 1) span): one block a span.  The
 * SW store's largest H a chunk, the DTW store's least value a row. */
struct pw_min_op {
    template <class T> __device__ T operator()(T x, T y) const { return x < y ? x : y; }
};
struct pw_max_op {
    template <class T> __device__ T operator()(T x, T y) const { return x > y ? x : y; }
};
template <class T, class Op>
static __global__ void pw_span_reduce_kernel(const T *rows, int64_t cols, int64_t span, int64_t spans, T init, T *out)
{
    __shared__ T part[256];
    const int64_t k = blockIdx.x / spans, c = blockIdx.x % spans;
    const T *row = rows + k * cols;
    T v = init;
    for (int64_t j = c * span + threadIdx.x; j < cols && j < (c + 1) * span; j += blockDim.x) v = Op()(v, row[j]);
    part[threadIdx.x] = v;
    __syncthreads();
    for (int w = 128; w > 0; w /= 2) {
        if ((int)threadIdx.x < w) part[threadIdx.x] = Op()(part[threadIdx.x], part[threadIdx.x + w]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

/* ---- SW for the alignment search (src/align/sw_strips.c) ---------------------------------- */

struct pw_cuda_sw_store {
    int32_t *h, *f;        /* device: slots x cols each */
    int32_t *chunk_max;    /* host: per slot, the largest H of each PW_CUDA_SW_CHUNK columns */
    int64_t slots, cols, chunks;
};

extern "C" void pw_cuda_sw_store_free(pw_cuda_sw_store *rows)
{
    if (!rows) return;
    cudaFree(rows->h);
    cudaFree(rows->f);
    free(rows->chunk_max);
    free(rows);
}

extern "C" pw_status pw_cuda_sw_store_read(const pw_cuda_sw_store *rows, int64_t k, int64_t j0, int64_t count,
                                          int32_t *h, int32_t *f)
{
    const size_t at = (size_t)(k * rows->cols + j0), bytes = sizeof(int32_t) * (size_t)count;
    pw_status st = pw_from_cuda(cudaMemcpy(h, rows->h + at, bytes, cudaMemcpyDeviceToHost));
    if (st == PW_OK && f) st = pw_from_cuda(cudaMemcpy(f, rows->f + at, bytes, cudaMemcpyDeviceToHost));
    return st;
}

extern "C" const int32_t *pw_cuda_sw_store_chunk_max(const pw_cuda_sw_store *rows) { return rows->chunk_max; }

extern "C" pw_status pw_cuda_sw_rows(const pw_plan *plan, const uint8_t *a, int64_t n, const uint8_t *b, int64_t m,
                                     const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend,
                                     int64_t every, pw_cuda_sw_store **out, int32_t *score, int64_t *end_a,
                                     int64_t *end_b, pw_run_info *info, int *store_failed)
{
    *out = NULL;
    if (every < 1) return PW_ERR_INVALID_ARGUMENT;
    pw_cuda_sw_store *rows = (pw_cuda_sw_store *)calloc(1, sizeof *rows);
    if (!rows) return PW_ERR_OUT_OF_MEMORY;
    rows->slots = (n - 1) / every;
    rows->cols = m;
    rows->chunks = (m + PW_CUDA_SW_CHUNK - 1) / PW_CUDA_SW_CHUNK;
    const size_t maxima = (size_t)(rows->slots * rows->chunks);
    rows->chunk_max = (int32_t *)malloc(sizeof(int32_t) * (maxima > 0 ? maxima : 1));
    try {
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<uint8_t> da(s), db(s);
        pw_device_buffer<int32_t> dmax(s);
        pw_status st = rows->chunk_max ? pw_cuda_probe(plan->device) : PW_ERR_OUT_OF_MEMORY;
        PW_THEN(st, pw_cuda_reserve(sw_bytes(n, m)));
        if (st == PW_OK && rows->slots > 0) { /* the store: its own failure, for the caller to name */
            st = pw_cuda_reserve(sw_bytes(n, m) + 8.0 * (double)rows->slots * (double)m);
            PW_THEN(st, pw_from_cuda(cudaMalloc((void **)&rows->h, sizeof(int32_t) * (size_t)(rows->slots * m))));
            PW_THEN(st, pw_from_cuda(cudaMalloc((void **)&rows->f, sizeof(int32_t) * (size_t)(rows->slots * m))));
            if (st != PW_OK && store_failed) *store_failed = 1;
        }
        PW_THEN(st, da.upload(a, (size_t)n));
        PW_THEN(st, db.upload(b, (size_t)m));
        PW_THEN(st, dmax.alloc(maxima > 0 ? maxima : 1));
        PW_THEN(st, sw_core(plan, da.ptr, n, db.ptr, m, scores, alphabet, gap_open, gap_extend, score, end_a, end_b,
                            info, sw_saved_rows{rows->h, rows->f, every, rows->slots}));
        if (st == PW_OK && maxima > 0) {
            pw_span_reduce_kernel<int32_t, pw_max_op><<<(unsigned)maxima, 256, 0, s>>>(
                rows->h, m, PW_CUDA_SW_CHUNK, rows->chunks, PW_SW_NEG_INF, dmax.ptr);
            st = pw_from_cuda(cudaGetLastError());
            PW_THEN(st, dmax.download(rows->chunk_max, maxima));
        }
        if (st != PW_OK) {
            pw_cuda_sw_store_free(rows);
            return st;
        }
        *out = rows;
        return PW_OK;
    } catch (const std::bad_alloc &) {
        pw_cuda_sw_store_free(rows);
        return PW_ERR_OUT_OF_MEMORY;
    }
}

/* ---- DTW ------------------------------------------------------------------------------------- */

/* The scan over device-resident series da (n) and db (m). */
template <class F>
static pw_status dtw_core(const pw_plan *plan, const F *da, int64_t n, const F *db, int64_t m, int squared,
                          double *distance, pw_run_info *info)
{
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<F> bus(s), left(s), diag(s);
    std::vector<F> bus_init((size_t)m, (F)INFINITY), left_init((size_t)n, (F)INFINITY), diag_init((size_t)n, (F)INFINITY);
    const pw_band *band = (const pw_band *)plan->band;
    diag_init[0] = band && band->col0 > 0 ? (F)INFINITY : (F)0; /* D(-1, -1) = 0; a later band's (-1, col0 - 1) */
    pw_status st = bus.upload(bus_init.data(), (size_t)m);
    PW_THEN(st, left.upload(left_init.data(), (size_t)n));
    PW_THEN(st, diag.upload(diag_init.data(), (size_t)n));
    if (st != PW_OK) return st;
    /* the cost fixed in the kernels (app_dtw.cuh): |a - b| here, (a - b)^2 in dtw_squared_run.cu's */
    const DtwApp<F, false, false, 0> app{{bus.ptr, left.ptr, diag.ptr}, {}, da, db, squared};
    st = pw_gpu_run_linear_band(plan, left.ptr, diag.ptr, sizeof *left.ptr, n, [&](const pw_plan *p) {
        return squared ? pw_cuda_run_dtw_squared(p, app, info) : pw_cuda_run_linear(p, app, info);
    });
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

/* ---- DTW for the warping-path search (src/align/dtw_strips.c) ------------------------------ */

struct pw_cuda_rows {
    double *dev;       /* slots x cols saved rows, on the device */
    double *row_min;   /* host, per slot */
    int64_t slots, cols;
    double *series;    /* device: a, b, a reversed, b reversed (n + m + n + m) */
    int64_t n, m;
    int squared, f32;
};

extern "C" void pw_cuda_rows_free(pw_cuda_rows *rows)
{
    if (!rows) return;
    cudaFree(rows->dev);
    cudaFree(rows->series);
    free(rows->row_min);
    free(rows);
}

extern "C" pw_status pw_cuda_rows_read(const pw_cuda_rows *rows, int64_t k, int64_t j0, int64_t count, double *out)
{
    return pw_from_cuda(cudaMemcpy(out, rows->dev + k * rows->cols + j0, sizeof(double) * (size_t)count,
                                   cudaMemcpyDeviceToHost));
}

extern "C" const double *pw_cuda_rows_min(const pw_cuda_rows *rows) { return rows->row_min; }

/* One run of the path's DTW kernel over device series da (n) x db (m), D(-1, -1) = 0: saving
 * `slots` rows every `every` into saved (slots 0: none), column free_col costing 0 (-1: none);
 * the last row to last_row (host, m values) when not NULL, D(n - 1, m - 1) to *distance. */
template <bool F32Cost>
static pw_status dtw_path_run(const pw_plan *plan, const double *da, int64_t n, const double *db, int64_t m,
                              int squared, double *saved, int64_t every, int64_t slots, int64_t free_col,
                              double *last_row, double *distance, pw_run_info *info)
{
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<double> bus(s), left(s), diag(s);
    std::vector<double> bus_init((size_t)m, INFINITY), col_init((size_t)n, INFINITY);
    pw_status st = bus.upload(bus_init.data(), (size_t)m);
    PW_THEN(st, left.upload(col_init.data(), (size_t)n));
    col_init[0] = 0; /* D(-1, -1) = 0 */
    PW_THEN(st, diag.upload(col_init.data(), (size_t)n));
    if (st != PW_OK) return st;
    DtwApp<double, F32Cost, true> app{{bus.ptr, left.ptr, diag.ptr}, {}, da, db, squared, saved, every, slots, m, free_col};
    st = pw_cuda_run_linear(plan, app, info, slots > 0 ? every : 0);
    if (st == PW_OK && last_row) st = bus.pw_download(last_row, bus.ptr, sizeof(double) * (size_t)m, s);
    if (st == PW_OK && distance) st = bus.pw_download(distance, bus.ptr + m - 1, sizeof(double), s);
    return st;
}

extern "C" pw_status pw_cuda_rows_pass(const pw_plan *plan, const pw_cuda_rows *rows, int reversed, int64_t r0,
                                       int64_t nrows, int64_t c0, int64_t ncols, int free_last, double *last)
{
    try {
        const double *a = rows->series + (reversed ? rows->n + rows->m : 0);
        const double *b = a + rows->n;
        pw_run_info info;
        int64_t free_col = free_last ? ncols - 1 : -1;
        return rows->f32 ? dtw_path_run<true>(plan, a + r0, nrows, b + c0, ncols, rows->squared, NULL, 1, 0, free_col,
                                              last, NULL, &info)
                         : dtw_path_run<false>(plan, a + r0, nrows, b + c0, ncols, rows->squared, NULL, 1, 0, free_col,
                                               last, NULL, &info);
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
}

extern "C" pw_status pw_cuda_dtw_rows(const pw_plan *plan, const double *series, int64_t n, int64_t m, int squared,
                                      int f32, int64_t every, pw_cuda_rows **out, double *distance, pw_run_info *info,
                                      int *store_failed)
{
    *out = NULL;
    if (every < 1) return PW_ERR_INVALID_ARGUMENT;
    pw_cuda_rows *rows = (pw_cuda_rows *)calloc(1, sizeof *rows);
    if (!rows) return PW_ERR_OUT_OF_MEMORY;
    rows->slots = (n - 1) / every;
    rows->cols = m;
    rows->n = n;
    rows->m = m;
    rows->squared = squared;
    rows->f32 = f32;
    rows->row_min = (double *)malloc(sizeof(double) * (size_t)(rows->slots > 0 ? rows->slots : 1));
    try {
        cudaStream_t s = pw_plan_stream(plan);
        pw_device_buffer<double> mins(s);
        pw_status st = rows->row_min ? pw_cuda_probe(plan->device) : PW_ERR_OUT_OF_MEMORY;
        PW_THEN(st, pw_cuda_reserve(7.0 * sizeof(double) * (double)(n + m)));
        if (st == PW_OK && rows->slots > 0) { /* the store: its own failure, for the caller to name */
            st = pw_cuda_reserve(7.0 * sizeof(double) * (double)(n + m) + 8.0 * (double)rows->slots * (double)m);
            PW_THEN(st, pw_from_cuda(cudaMalloc((void **)&rows->dev, sizeof(double) * (size_t)(rows->slots * m))));
            if (st != PW_OK && store_failed) *store_failed = 1;
        }
        PW_THEN(st, pw_from_cuda(cudaMalloc((void **)&rows->series, sizeof(double) * (size_t)(2 * (n + m)))));
        PW_THEN(st, pw_from_cuda(cudaMemcpy(rows->series, series, sizeof(double) * (size_t)(2 * (n + m)),
                                            cudaMemcpyHostToDevice)));
        PW_THEN(st, mins.alloc((size_t)(rows->slots > 0 ? rows->slots : 1)));
        if (st == PW_OK)
            st = f32 ? dtw_path_run<true>(plan, rows->series, n, rows->series + n, m, squared, rows->dev, every,
                                          rows->slots, -1, NULL, distance, info)
                     : dtw_path_run<false>(plan, rows->series, n, rows->series + n, m, squared, rows->dev, every,
                                           rows->slots, -1, NULL, distance, info);
        if (st == PW_OK && rows->slots > 0) {
            pw_span_reduce_kernel<double, pw_min_op><<<(unsigned)rows->slots, 256, 0, s>>>(rows->dev, m, m, 1,
                                                                                          INFINITY, mins.ptr);
            st = pw_from_cuda(cudaGetLastError());
            PW_THEN(st, mins.download(rows->row_min, (size_t)rows->slots));
        }
        if (st != PW_OK) {
            pw_cuda_rows_free(rows);
            return st;
        }
        *out = rows;
        return PW_OK;
    } catch (const std::bad_alloc &) {
        pw_cuda_rows_free(rows);
        return PW_ERR_OUT_OF_MEMORY;
    }
}
