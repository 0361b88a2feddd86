/*
 * full_apps.cu - SAT and INTHIST on the CUDA engine (full storage: the prefix-sum processor, the
 * block processor or FullProc, as the kernel selector picks).  Their device forms are
 * device/app_sat.cuh, app_inthist.cuh and prefix_sum_sources.cuh.  HEAT and SOR: stencil_apps.cu.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../core/image.h"
#include "../core/status_detail.h"
#include "device/app_inthist.cuh"
#include "device/app_sat.cuh"
#include "device/full_proc.cuh"
#include "device/layouts.cuh"
#include "device/linear_proc.cuh"
#include "device/prefix_sum_proc.cuh"
#include "device/prefix_sum_sources.cuh"
#include "device_buffer.cuh"
#include "device_prep.cuh"
#include "edge_words.cuh"
#include "gpu_band.cuh"
#include "kernel_desc.h"
#include "launch.cuh"
#include "pw_cuda.h"

/* ---- SAT ------------------------------------------------------------------------------------- */

/* 4-element accesses at p + i * stride + j (j a multiple of 4) are aligned. */
static bool aligned4(const void *p, int64_t stride, size_t elem)
{
    size_t bytes = 4 * elem > 16 ? 16 : 4 * elem;
    return (uintptr_t)p % bytes == 0 && stride % 4 == 0;
}

/* A band of columns of a larger run (core/band.h, gpu_band.cuh) on the prefix-sum processor.
 * Within a band S(i, j) = S(i - 1, j) + R(i, j), R the row's prefix sum of the inputs, and row -1
 * is 0 in every band: what crosses a band's edge is each row's carry R(i, last column), a value a
 * plane, not the table's column.  The band's first tile starts from the left neighbour's carries
 * as if they were its own from a tile to the left, so the sums are the one-GPU run's (no
 * subtraction of the neighbour's S: floats stay within sat_accuracy.h's bound, integers exact).
 * On the wire a chunk of rows is plane after plane. */
template <class Out>
struct gpu_carry_band {
    pw_gpu_band gb;
    Out *carry; /* device: planes x rows */
    int64_t rows;
    int planes;

    static void copy(gpu_carry_band *b, int64_t i0, int64_t i1, void *host, cudaMemcpyKind kind)
    {
        const size_t chunk = sizeof(Out) * (size_t)(i1 - i0), pitch = sizeof(Out) * (size_t)b->rows;
        cudaSetDevice(b->gb.device);
        if (kind == cudaMemcpyHostToDevice) pw_gpu_band_copy(&b->gb, b->carry + i0, pitch, host, chunk, chunk, (size_t)b->planes);
        else pw_gpu_band_copy(&b->gb, host, chunk, b->carry + i0, pitch, chunk, (size_t)b->planes);
    }
    static void put_left(void *p, int64_t sweep, int64_t i0, int64_t i1, const void *src)
    {
        gpu_carry_band *b = (gpu_carry_band *)p;
        copy(b, i0, i1, (void *)src, cudaMemcpyHostToDevice);
        pw_gpu_band_ready(&b->gb, 0, sweep, i1);
    }
    static void get_last(void *p, int64_t sweep, int64_t i0, int64_t i1, void *dst)
    {
        (void)sweep;
        gpu_carry_band *b = (gpu_carry_band *)p;
        copy(b, i0, i1, dst, cudaMemcpyDeviceToHost);
        cudaStreamSynchronize(b->gb.stream);
    }
};

/* Run PrefixSumProc over `planes` planes on the descriptor's tiles (kernel_desc.c: rectangles of
 * whole chunks; in the peer schedule one tile a row, the row above handed over by edge words and
 * the next chunk's inputs prefetched). */
template <class Src, class Out>
static pw_status scan_run(const pw_plan *plan, const pw_kernel_desc *desc, const Src &src, Out *out, int64_t stride,
                          int64_t plane_stride, int planes, pw_run_info *info)
{
    const int64_t rows = desc->tiling.rows, cols = desc->tiling.cols;
    const int64_t edge_cols = (cols + PW_SCAN_CHUNK - 1) / PW_SCAN_CHUNK * PW_SCAN_CHUNK;
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<Out> carry(s);
    pw_edge_words<Out> edge(s);
    pw_status st = carry.alloc((size_t)(rows * planes));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(carry.ptr, 0, sizeof(Out) * (size_t)(rows * planes), s)));
    PW_THEN(st, edge.alloc(plan->strategy == PW_STRATEGY_PEER ? (size_t)(edge_cols * planes) : 0));
    PW_THEN(st, edge.clear());
    if (st != PW_OK) return st;
    const bool vec = aligned4(out, stride, sizeof(Out)), band = plan->band != NULL;
    auto run = [&](const pw_plan *p) {
        if (desc->prefetch)
            return pw_cuda_run(p, desc, PrefixSumProc<Src, Out, true>{src, out, {{stride}, plane_stride}, vec, planes, carry.ptr, rows, edge.edge(), edge_cols, band}, info);
        return pw_cuda_run(p, desc, PrefixSumProc<Src, Out, false>{src, out, {{stride}, plane_stride}, vec, planes, carry.ptr, rows, edge.edge(), edge_cols, band}, info);
    };
    if (!band) return run(plan);
    gpu_carry_band<Out> b{};
    b.carry = carry.ptr, b.rows = rows, b.planes = planes;
    pw_band_io io{};
    io.app = &b, io.bytes_per_row = sizeof(Out) * (size_t)planes;
    io.put_left = gpu_carry_band<Out>::put_left, io.get_last = gpu_carry_band<Out>::get_last;
    const pw_band_column carries = {{(char *)carry.ptr, NULL}, {0, 0}, sizeof(Out), (int64_t)sizeof(Out) * rows};
    pw_gpu_band_columns columns{};
    columns.left_in = columns.last = carries; /* (the left neighbour's carries are this band's first) */
    columns.planes = planes, columns.elem_bytes = (int)sizeof(Out);
    return pw_gpu_band_run(plan, &b.gb, &io, &columns, rows, 1, run);
}

/* A band (plan->band) runs on the prefix-sum processor alone: its edge is the row carries. */
static void band_forms(const pw_plan *plan, unsigned *forms)
{
    if (plan->band) *forms = PW_FORM(PW_PROC_PREFIX_SUM);
}

/* The selector's answer for a band that the prefix-sum processor cannot run. */
static pw_status band_selected(const pw_plan *plan, pw_status st)
{
    if (st == PW_ERR_UNSUPPORTED && plan->band)
        pw_set_error_detail("a GPU band of sat or inthist runs on the prefix-sum processor, which needs a row-major "
                            "layout, skew 0 and tiles at most %d rows high",
                            PW_SCAN_MAX_TILE_H);
    return st;
}

template <class In, class Out>
static pw_status sat_diag(const pw_plan *plan, const pw_kernel_desc *desc, const In *in, int64_t in_stride, Out *out,
                          int64_t out_stride, pw_run_info *info)
{
    const int64_t rows = plan->tiling.rows, cols = plan->tiling.cols;
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<Out> bus(s), left(s), diag(s); /* row -1 and column -1 are 0: zero bits */
    pw_status st = bus.alloc((size_t)cols);
    PW_THEN(st, left.alloc((size_t)rows));
    PW_THEN(st, diag.alloc((size_t)rows));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(bus.ptr, 0, sizeof(Out) * (size_t)cols, s)));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(left.ptr, 0, sizeof(Out) * (size_t)rows, s)));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(diag.ptr, 0, sizeof(Out) * (size_t)rows, s)));
    if (st != PW_OK) return st;
    LinearProc<SatDiagApp<In, Out>, 1> proc;
    proc.app = SatDiagApp<In, Out>{{bus.ptr, left.ptr, diag.ptr}, {}, in, in_stride, out, out_stride};
    return pw_cuda_run(plan, desc, proc, info);
}

/* The SAT of row-major device arrays (any strides), run in the plan's layout: on the scan
 * processor (the default), the block processor (SatDiagApp: the sequential recurrence's sums,
 * bit for bit) or FullProc, as the selector picks (kernel_desc.h; PEERWAVE_SAT_PROCESSOR). */
template <class In, class Out>
static pw_status sat_core(const pw_plan *plan, const void *in, int64_t in_stride, void *out, int64_t out_stride,
                          pw_run_info *info)
{
    pw_cell_shape cell = {PW_FORMS_SAT, (int)sizeof(Out), 1, 0,
                          1 /* SatDiagApp runs on LinearProc<., 1> */};
    band_forms(plan, &cell.forms);
    pw_kernel_desc desc;
    pw_status sel = band_selected(plan, pw_select_kernel(plan, &cell, NULL, &desc));
    if (sel != PW_OK) return sel;
    if (desc.processor == PW_PROC_PREFIX_SUM) {
        pw_sat_src<In, Out> src{(const In *)in, in_stride, aligned4(in, in_stride, sizeof(In))};
        return scan_run(plan, &desc, src, (Out *)out, out_stride, 0, 1, info);
    }
    if (desc.processor == PW_PROC_LINEAR)
        return sat_diag<In, Out>(plan, &desc, (const In *)in, in_stride, (Out *)out, out_stride, info);
    if (plan->layout != PW_LAYOUT_HYBRID) {
        FullProc<SatApp<In, Out, pw_row_major>> proc;
        proc.app = SatApp<In, Out, pw_row_major>{(const In *)in, (Out *)out, {in_stride}, {out_stride}};
        return pw_cuda_run(plan, &desc, proc, info);
    }
    const int64_t rows = plan->tiling.rows, cols = plan->tiling.cols;
    cudaStream_t s = pw_plan_stream(plan);
    int64_t count;
    pw_hybrid lay = pw_hybrid::make(plan->tiling.h, rows, cols, 0, &count);
    pw_device_buffer<In> hin(s);
    pw_device_buffer<Out> hout(s);
    pw_status st = hin.alloc((size_t)count);
    PW_THEN(st, hout.alloc((size_t)count));
    if (st != PW_OK) return st;
    pw_to_layout<<<pw_prep_blocks(rows * cols), PW_PREP_THREADS, 0, s>>>((const In *)in, in_stride, hin.ptr, lay, rows, cols);
    FullProc<SatApp<In, Out, pw_hybrid>> proc;
    proc.app = SatApp<In, Out, pw_hybrid>{hin.ptr, hout.ptr, lay, lay};
    st = pw_from_cuda(cudaGetLastError());
    PW_THEN(st, pw_cuda_run(plan, &desc, proc, info));
    if (st != PW_OK) return st;
    pw_from_layout<<<pw_prep_blocks(rows * cols), PW_PREP_THREADS, 0, s>>>(hout.ptr, lay, (Out *)out, out_stride, rows, cols);
    return pw_from_cuda(cudaGetLastError());
}

/* device = 1: in and out hold device pointers; else host images staged through the device. */
template <class In, class Out>
static pw_status sat_typed(const pw_plan *plan, const pw_image *in, pw_image *out, int device, pw_run_info *info)
{
    if (device) return sat_core<In, Out>(plan, in->data, pw_image_stride(in), out->data, pw_image_stride(out), info);
    pw_device_buffer<unsigned char> din(pw_plan_stream(plan)), dout(pw_plan_stream(plan));
    pw_status st = upload_image(in, din);
    PW_THEN(st, dout.alloc((size_t)out->rows * (size_t)out->cols * sizeof(Out)));
    PW_THEN(st, (sat_core<In, Out>(plan, din.ptr, in->cols, dout.ptr, out->cols, info)));
    PW_THEN(st, download_image(dout, out));
    return st;
}

template <class In>
static pw_status sat_out(const pw_plan *plan, const pw_image *in, pw_image *out, int device, pw_run_info *info)
{
    switch (out->type) {
    case PW_I32: return sat_typed<In, int32_t>(plan, in, out, device, info);
    case PW_I64: return sat_typed<In, int64_t>(plan, in, out, device, info);
    case PW_F32: return sat_typed<In, float>(plan, in, out, device, info);
    case PW_F64: return sat_typed<In, double>(plan, in, out, device, info);
    default: return PW_ERR_UNSUPPORTED;
    }
}

static pw_status sat_dispatch(const pw_plan *plan, const pw_image *in, pw_image *out, int device, pw_run_info *info)
{
    switch (in->type) {
    case PW_U8: return sat_out<uint8_t>(plan, in, out, device, info);
    case PW_U16: return sat_out<uint16_t>(plan, in, out, device, info);
    case PW_I32: return sat_out<int32_t>(plan, in, out, device, info);
    case PW_F32: return sat_out<float>(plan, in, out, device, info);
    case PW_F64: return sat_out<double>(plan, in, out, device, info);
    default: return PW_ERR_UNSUPPORTED;
    }
}

/* The type pairs were validated by pw_sat (float inputs only reach float outputs). */
extern "C" pw_status pw_cuda_sat(const pw_plan *plan, const pw_image *in, pw_image *out, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, pw_cuda_reserve((plan->layout == PW_LAYOUT_HYBRID ? 2.2 : 1.0) * (double)in->rows * (double)in->cols *
                                (double)(pw_dtype_size(in->type) + pw_dtype_size(out->type))));
    if (st != PW_OK) return st;
    return sat_dispatch(plan, in, out, 0, info);
}

/* The integer-output overflow guard of apps/sat_sum.c, on the device. */
template <class T>
static pw_status sum_abs_fits(const pw_image *in, uint64_t limit, cudaStream_t s, int *fits)
{
    uint64_t cells = (uint64_t)in->rows * (uint64_t)in->cols;
    *fits = 1;
    if (cells <= limit / ((uint64_t)INT32_MAX + 1)) return PW_OK; /* cannot pass the limit */
    if (cells > ((uint64_t)1 << 32)) {                           /* the u64 sum itself could wrap */
        *fits = 0;
        return PW_OK;
    }
    pw_device_scalar<unsigned long long> sum(s);
    pw_status st = sum.zero();
    if (st != PW_OK) return st;
    pw_sum_abs_kernel<T><<<pw_prep_blocks((int64_t)cells), PW_PREP_THREADS, 0, s>>>(
        (const T *)in->data, in->rows, in->cols, pw_image_stride(in), sum.buf.ptr);
    unsigned long long total = 0;
    PW_THEN(st, pw_from_cuda(cudaGetLastError()));
    PW_THEN(st, sum.read(&total));
    *fits = total <= limit;
    return st;
}

extern "C" pw_status pw_cuda_sat_device(const pw_plan *plan, const pw_image *in, pw_image *out, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    if (st != PW_OK) return st;
    if (out->type == PW_I32 || out->type == PW_I64) {
        uint64_t limit = out->type == PW_I32 ? INT32_MAX : INT64_MAX;
        int fits = 1;
        cudaStream_t s = pw_plan_stream(plan);
        switch (in->type) {
        case PW_U8: st = sum_abs_fits<uint8_t>(in, limit, s, &fits); break;
        case PW_U16: st = sum_abs_fits<uint16_t>(in, limit, s, &fits); break;
        case PW_I32: st = sum_abs_fits<int32_t>(in, limit, s, &fits); break;
        default: return PW_ERR_UNSUPPORTED;
        }
        if (st != PW_OK) return st;
        if (!fits) {
            pw_set_error_detail("sums over this image could pass %s: a wider output type", pw_dtype_name(out->type));
            return PW_ERR_OVERFLOW;
        }
    }
    return sat_dispatch(plan, in, out, 1, info);
}

/* ---- INTHIST: every plane's SAT cell at once ------------------------------------------------- */

template <class B>
static pw_status inthist_core(const pw_plan *plan, const B *dbin, int64_t rows, int64_t cols, int bins,
                              int32_t *dout, pw_run_info *info)
{
    pw_cell_shape cell = {PW_FORMS_INTHIST, (int)sizeof(int32_t), bins, 1, 0};
    band_forms(plan, &cell.forms);
    pw_kernel_desc desc;
    pw_status st = band_selected(plan, pw_select_kernel(plan, &cell, NULL, &desc));
    if (st != PW_OK) return st;
    if (desc.processor == PW_PROC_PREFIX_SUM)
        return scan_run(plan, &desc, pw_bin_src<B>{dbin, cols, aligned4(dbin, cols, sizeof(B))}, dout, cols, rows * cols,
                        bins, info);
    FullProc<InthistApp<B, pw_row_major>> proc;
    proc.app = InthistApp<B, pw_row_major>{dbin, dout, {cols}, {{cols}, rows * cols}, bins};
    return pw_cuda_run(plan, &desc, proc, info);
}

extern "C" pw_status pw_cuda_inthist(const pw_plan *plan, const int32_t *bin, int64_t rows, int64_t cols,
                                     int bins, int32_t *out, pw_run_info *info)
{
    pw_device_buffer<int32_t> dbin(pw_plan_stream(plan)), dout(pw_plan_stream(plan));
    size_t cells = (size_t)(rows * cols);
    pw_status st = pw_cuda_probe(plan->device);
    PW_THEN(st, pw_cuda_reserve((double)cells * sizeof(int32_t) * (double)(bins + 1)));
    PW_THEN(st, dbin.upload(bin, cells));
    PW_THEN(st, dout.alloc(cells * (size_t)bins));
    PW_THEN(st, inthist_core(plan, dbin.ptr, rows, cols, bins, dout.ptr, info));
    PW_THEN(st, dout.download(out, cells * (size_t)bins));
    return st;
}

/* Bin indices of a device image, computed on the device into B, then the planes. */
template <class B>
static pw_status inthist_binned(const pw_plan *plan, const pw_image *in, int bins, double lo, double hi, int32_t *out,
                                pw_run_info *info)
{
    cudaStream_t s = pw_plan_stream(plan);
    pw_device_buffer<B> dbin(s);
    int64_t cells = in->rows * in->cols;
    pw_status st = dbin.alloc((size_t)cells);
    if (st != PW_OK) return st;
    unsigned blocks = pw_prep_blocks(cells);
    int64_t stride = pw_image_stride(in);
    const int edges = pw_inthist_rule_of(in->type == PW_F32, plan->inthist_f32_math, plan->inthist_closed);
    if (in->type == PW_U8)
        pw_bins_kernel<<<blocks, PW_PREP_THREADS, 0, s>>>((const uint8_t *)in->data, in->rows, in->cols, stride, bins, lo, hi, edges, dbin.ptr);
    else if (in->type == PW_U16)
        pw_bins_kernel<<<blocks, PW_PREP_THREADS, 0, s>>>((const uint16_t *)in->data, in->rows, in->cols, stride, bins, lo, hi, edges, dbin.ptr);
    else
        pw_bins_kernel<<<blocks, PW_PREP_THREADS, 0, s>>>((const float *)in->data, in->rows, in->cols, stride, bins, lo, hi, edges, dbin.ptr);
    st = pw_from_cuda(cudaGetLastError());
    PW_THEN(st, inthist_core(plan, dbin.ptr, in->rows, in->cols, bins, out, info));
    return st;
}

/* in and out are device pointers; the bin indices are computed on the device too, one byte each
 * for up to 255 bins (255 is "no bin"). */
extern "C" pw_status pw_cuda_inthist_device(const pw_plan *plan, const pw_image *in, int bins, double lo, double hi,
                                            int32_t *out, pw_run_info *info)
{
    pw_status st = pw_cuda_probe(plan->device);
    if (st != PW_OK) return st;
    if (bins <= 255) return inthist_binned<uint8_t>(plan, in, bins, lo, hi, out, info);
    return inthist_binned<int32_t>(plan, in, bins, lo, hi, out, info);
}
