/* batch_dtw.cu - the host side of many DTW distances on the GPU: both sets' samples uploaded
 * once, then one launch a block of pairs (device/batch_dtw_proc.cuh: a warp a pair). */
#include <stdlib.h>
#include <string.h>

#include "batch_dtw.h"
#include "device/batch_dtw_proc.cuh"
#include "device_buffer.cuh"
#include "pw_cuda.h"

#define DTW_BATCH_THREADS 128 /* 4 warps a block */
#define DTW_BATCH_R 4         /* query rows a thread: segments of 128 rows */
#define DTW_BATCH_PAIRS (1 << 20) /* pairs a launch (a search's: whole queries, at least one) */

struct pw_cuda_dtw_batch {
    const pw_series_set *sa, *sb; /* the caller's (their lengths: the cells of a launch) */
    int device, sms;
    cudaStream_t stream;
    int64_t a_count, b_count, longest_b, longest_a;
    pw_device_buffer<double> *a, *b, *bottom, *out;
    pw_device_buffer<int64_t> *a_at, *b_at;
    int64_t bottom_warps;
};

/* A set's samples back to back, and where each series starts (count + 1 offsets). */
static pw_status upload_set(const pw_series_set *set, pw_device_buffer<double> *values, pw_device_buffer<int64_t> *at,
                            int64_t *longest)
{
    int64_t total = 0;
    *longest = 1;
    for (int64_t k = 0; k < set->count; k++) {
        total += set->length[k];
        if (set->length[k] > *longest) *longest = set->length[k];
    }
    double *host = (double *)pw_malloc(sizeof(double) * (size_t)(total ? total : 1));
    int64_t *offsets = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)(set->count + 1));
    pw_status st = host && offsets ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK) {
        int64_t at_now = 0;
        for (int64_t k = 0; k < set->count; k++) {
            offsets[k] = at_now;
            memcpy(host + at_now, set->values[k], sizeof(double) * (size_t)set->length[k]);
            at_now += set->length[k];
        }
        offsets[set->count] = at_now;
    }
    PW_THEN(st, values->upload(host, (size_t)(total ? total : 1)));
    PW_THEN(st, at->upload(offsets, (size_t)(set->count + 1)));
    /* the uploads read host memory until they are done */
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(values->stream)));
    free(host);
    free(offsets);
    return st;
}

extern "C" void pw_cuda_dtw_batch_destroy(pw_cuda_dtw_batch *b)
{
    if (!b) return;
    cudaSetDevice(b->device);
    delete b->a;
    delete b->b;
    delete b->a_at;
    delete b->b_at;
    delete b->bottom;
    delete b->out;
    if (b->stream) cudaStreamSynchronize(b->stream);
    delete b;
}

extern "C" pw_status pw_cuda_dtw_batch_create(const pw_options *options, const pw_series_set *a, const pw_series_set *b,
                                              pw_cuda_dtw_batch **out)
{
    *out = nullptr;
    pw_cuda_dtw_batch *d = new pw_cuda_dtw_batch();
    d->device = options->device;
    d->stream = (cudaStream_t)options->cuda_stream;
    d->sa = a;
    d->sb = b;
    d->a_count = a->count;
    d->b_count = b->count;
    d->a = new pw_device_buffer<double>(d->stream);
    d->b = new pw_device_buffer<double>(d->stream);
    d->a_at = new pw_device_buffer<int64_t>(d->stream);
    d->b_at = new pw_device_buffer<int64_t>(d->stream);
    d->bottom = new pw_device_buffer<double>(d->stream);
    d->out = new pw_device_buffer<double>(d->stream);
    pw_status st = pw_cuda_probe(d->device);
    PW_THEN(st, pw_from_cuda(cudaSetDevice(d->device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, d->device)));
    PW_THEN(st, upload_set(a, d->a, d->a_at, &d->longest_a));
    PW_THEN(st, upload_set(b, d->b, d->b_at, &d->longest_b));
    /* a segment's last row per warp, as long as the longest record: only for queries of several
     * segments; warps as many as the SMs hold of the kernel's blocks, fewer if that is too much */
    int per_sm = 0;
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)pw_batch_dtw_kernel<DTW_BATCH_R>,
                                                                          DTW_BATCH_THREADS, 0)));
    const bool segmented = d->longest_a > 32 * DTW_BATCH_R;
    const int64_t warps = pw_bottom_warps((int64_t)d->sms * (per_sm > 0 ? per_sm : 1) * (DTW_BATCH_THREADS / 32), d->sms,
                                          segmented ? 8.0 * (double)d->longest_b : 0);
    d->bottom_warps = warps;
    PW_THEN(st, d->bottom->alloc(segmented ? (size_t)(warps * d->longest_b) : 1));
    PW_THEN(st, d->out->alloc((size_t)(b->count > DTW_BATCH_PAIRS ? b->count : DTW_BATCH_PAIRS)));
    if (st != PW_OK) {
        pw_cuda_dtw_batch_destroy(d);
        return st;
    }
    *out = d;
    return PW_OK;
}

extern "C" pw_status pw_cuda_dtw_batch_run(pw_cuda_dtw_batch *d, pw_dtw_cost cost, int64_t first, int64_t count,
                                           int paired, double *out, pw_batch_progress *progress)
{
    int64_t b_samples = 0; /* (a search's launch: its queries' lengths times all of these) */
    for (int64_t r = 0; r < d->b_count; r++) b_samples += d->sb->length[r];
    pw_status st = pw_from_cuda(cudaSetDevice(d->device));
    const void *kernel = (const void *)pw_batch_dtw_kernel<DTW_BATCH_R>;
    int per_sm = 0;
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, DTW_BATCH_THREADS, 0)));
    if (st != PW_OK) return st;
    if (per_sm < 1) return PW_ERR_UNSUPPORTED;
    const int warps_a_block = DTW_BATCH_THREADS / 32;
    /* a search's launches start on whole queries: the kernel maps pair t of a launch to query
     * args.first + t / b_count, record t % b_count */
    const int64_t per_launch = paired ? DTW_BATCH_PAIRS
                                      : (DTW_BATCH_PAIRS / d->b_count > 1 ? DTW_BATCH_PAIRS / d->b_count : 1) * d->b_count;
    for (int64_t t0 = 0; st == PW_OK && t0 < count; t0 += per_launch) {
        if (pw_batch_progress_stopped(progress)) return PW_ERR_CANCELLED; /* (before every launch) */
        const int64_t n = count - t0 < per_launch ? count - t0 : per_launch;
        pw_batch_dtw_args args;
        memset(&args, 0, sizeof args);
        args.a = d->a->ptr;
        args.b = d->b->ptr;
        args.a_at = d->a_at->ptr + (paired ? t0 : 0); /* (paired: series t0 + t are the launch's pair t) */
        args.b_at = d->b_at->ptr + (paired ? t0 : 0);
        args.first = paired ? 0 : first + t0 / d->b_count;
        args.count = n;
        args.b_count = d->b_count;
        args.paired = paired;
        args.squared = cost == PW_DTW_SQUARED;
        args.bottom = d->bottom->ptr;
        args.bottom_stride = d->longest_b;
        args.out = d->out->ptr;
        int64_t grid = (n + warps_a_block - 1) / warps_a_block;
        if (grid > (int64_t)d->sms * per_sm) grid = (int64_t)d->sms * per_sm;
        if (grid * warps_a_block > d->bottom_warps) grid = d->bottom_warps / warps_a_block; /* (a warp a bottom row) */
        if (grid < 1) return PW_ERR_INTERNAL;
        void *params[] = {&args};
        PW_THEN(st, pw_from_cuda(cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(DTW_BATCH_THREADS), params, 0, d->stream)));
        PW_THEN(st, pw_device_buffer<double>::pw_download(out + t0, d->out->ptr, sizeof(double) * (size_t)n, d->stream));
        int64_t cells = 0;
        if (paired)
            for (int64_t t = t0; t < t0 + n; t++) cells += d->sa->length[t] * d->sb->length[t];
        else
            for (int64_t q = args.first; q < args.first + n / d->b_count; q++) cells += d->sa->length[q] * b_samples;
        pw_batch_progress_add(progress, cells);
    }
    return st;
}
