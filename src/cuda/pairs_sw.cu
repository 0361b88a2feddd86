/* pairs_sw.cu - the host side of many SW pairs on the GPU (pairs_sw.h): the pairs' letters
 * encoded and uploaded once, then one launch a block of pairs (device/pairs_sw_proc.cuh: a warp
 * a pair), scores and end cells back into the caller's hits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairs_sw.h"
#include "device/pairs_sw_proc.cuh"
#include "device_buffer.cuh"
#include "pw_cuda.h"

#define PAIRS_THREADS 128        /* 4 warps a block */
#define PAIRS_R 8                /* query rows a thread: segments of 256 rows */
#define PAIRS_A_LAUNCH (1 << 20) /* pairs a launch */

/* One side's letters of the listed pairs, back to back, and where each starts (count + 1),
 * encoded over `threads` threads. */
static pw_status encode_side(const pw_seq_set *set, const char *what, const pw_score_table *t, const int64_t *list,
                             int64_t count, int threads, uint8_t **codes, int64_t **at, int64_t *longest)
{
    int64_t total = 0;
    *longest = 1;
    for (int64_t i = 0; i < count; i++) {
        total += set->length[list[i]];
        if (set->length[list[i]] > *longest) *longest = set->length[list[i]];
    }
    *codes = (uint8_t *)pw_malloc((size_t)total + 1); /* (+1: uploaded with one spare byte) */
    *at = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)(count + 1));
    if (!*codes || !*at) return PW_ERR_OUT_OF_MEMORY;
    int64_t now = 0;
    for (int64_t i = 0; i < count; i++) {
        (*at)[i] = now;
        now += set->length[list[i]];
    }
    (*at)[count] = now;
    (*codes)[now] = 0; /* (the spare byte) */
    return pw_sw_batch_encode_list(set, list, count, t, what, *at, *codes, threads);
}

static double host_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

extern "C" pw_status pw_cuda_pairs_sw(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b,
                                      const pw_score_table *t, int32_t gap_open, int32_t gap_extend, const int64_t *list,
                                      int64_t count, pw_sw_hit *hits, pw_batch_progress *progress)
{
    if (t->size > PW_PAIRS_SW_MAX_ALPHABET) return PW_ERR_UNSUPPORTED;
    if (count < 1) return PW_OK;
    const cudaStream_t stream = (cudaStream_t)options->cuda_stream;
    uint8_t *ca = NULL, *cb = NULL;
    int64_t *at_a = NULL, *at_b = NULL, longest_a = 1, longest_b = 1;
    const int64_t per_launch = count < PAIRS_A_LAUNCH ? count : PAIRS_A_LAUNCH;
    int32_t *score = (int32_t *)pw_malloc(sizeof(int32_t) * (size_t)per_launch);
    int64_t *end_a = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)per_launch);
    int64_t *end_b = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)per_launch);
    pw_status st = score && end_a && end_b ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    /* PEERWAVE_DEBUG_BATCH_GPU=1: where the time goes (encoding, uploads, each launch's kernel by
     * events, the scores' way back) on stderr: a measuring switch, read here only */
    const char *debug_env = getenv("PEERWAVE_DEBUG_BATCH_GPU");
    const bool debug = debug_env && !strcmp(debug_env, "1");
    double mark = host_seconds();
    const int threads = options->threads > 0 ? options->threads : pw_cpu_count();
    PW_THEN(st, encode_side(a, "query", t, list, count, threads, &ca, &at_a, &longest_a));
    PW_THEN(st, encode_side(b, "database", t, list, count, threads, &cb, &at_b, &longest_b));
    if (debug) fprintf(stderr, "pairs gpu: %lld pairs encoded in %.3f ms\n", (long long)count, 1e3 * (host_seconds() - mark));
    PW_THEN(st, pw_cuda_probe(options->device));
    PW_THEN(st, pw_from_cuda(cudaSetDevice(options->device)));
    int sms = 0, per_sm = 0;
    const void *kernel = (const void *)pw_pairs_sw_kernel<PAIRS_R>;
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options->device)));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, PAIRS_THREADS, 0)));
    if (st == PW_OK && per_sm < 1) st = PW_ERR_UNSUPPORTED;
    {
        pw_device_buffer<uint8_t> d_a(stream), d_b(stream);
        pw_device_buffer<int64_t> d_at_a(stream), d_at_b(stream), d_end_a(stream), d_end_b(stream);
        pw_device_buffer<int32_t> d_table(stream), d_bottom(stream), d_score(stream);
        PW_THEN(st, d_a.upload(ca, (size_t)(at_a ? at_a[count] : 0) + 1));
        PW_THEN(st, d_b.upload(cb, (size_t)(at_b ? at_b[count] : 0) + 1));
        PW_THEN(st, d_at_a.upload(at_a, (size_t)(count + 1)));
        PW_THEN(st, d_at_b.upload(at_b, (size_t)(count + 1)));
        PW_THEN(st, d_table.upload(t->scores, (size_t)(t->size * t->size)));
        if (debug) {
            cudaStreamSynchronize(stream);
            fprintf(stderr, "pairs gpu: probe and uploads %.3f ms\n", 1e3 * (host_seconds() - mark));
        }
        cudaEvent_t events[2];
        const bool timed = debug && cudaEventCreate(&events[0]) == cudaSuccess && cudaEventCreate(&events[1]) == cudaSuccess;
        /* the bottom rows (queries of several segments): a warp's is 2 x the longest b; as many
         * warps as the SMs hold, fewer where that would pass 1 GiB */
        const bool segmented = longest_a > 32 * PAIRS_R;
        const int64_t warps = pw_bottom_warps((int64_t)sms * per_sm * (PAIRS_THREADS / 32), sms, segmented ? 8.0 * (double)longest_b : 0);
        PW_THEN(st, d_bottom.alloc(segmented ? (size_t)(warps * 2 * longest_b) : 1));
        PW_THEN(st, d_score.alloc((size_t)per_launch));
        PW_THEN(st, d_end_a.alloc((size_t)per_launch));
        PW_THEN(st, d_end_b.alloc((size_t)per_launch));
        for (int64_t t0 = 0; st == PW_OK && t0 < count; t0 += per_launch) {
            if (pw_batch_progress_stopped(progress)) {
                st = PW_ERR_CANCELLED; /* (before every launch) */
                break;
            }
            const int64_t n = count - t0 < per_launch ? count - t0 : per_launch;
            pw_pairs_sw_args args;
            memset(&args, 0, sizeof args);
            args.a = d_a.ptr;
            args.b = d_b.ptr;
            args.a_at = d_at_a.ptr + t0; /* (the launch's pair t is listed pair t0 + t) */
            args.b_at = d_at_b.ptr + t0;
            args.count = n;
            args.table = d_table.ptr;
            args.size = t->size;
            args.gap_open = gap_open;
            args.gap_extend = gap_extend;
            args.bottom = d_bottom.ptr;
            args.bottom_stride = longest_b;
            args.score = d_score.ptr;
            args.end_a = d_end_a.ptr;
            args.end_b = d_end_b.ptr;
            int64_t grid = (n + PAIRS_THREADS / 32 - 1) / (PAIRS_THREADS / 32);
            if (grid > (int64_t)sms * per_sm) grid = (int64_t)sms * per_sm;
            if (segmented && grid * (PAIRS_THREADS / 32) > warps) grid = warps / (PAIRS_THREADS / 32); /* (a warp a bottom row) */
            void *params[] = {&args};
            if (timed) cudaEventRecord(events[0], stream);
            PW_THEN(st, pw_from_cuda(cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(PAIRS_THREADS), params, 0, stream)));
            if (timed) {
                float ms = 0;
                cudaEventRecord(events[1], stream);
                cudaEventSynchronize(events[1]);
                cudaEventElapsedTime(&ms, events[0], events[1]);
                mark = host_seconds();
                fprintf(stderr, "pairs gpu: launch of %lld pairs (grid %lld x %d): kernel %.3f ms\n", (long long)n,
                        (long long)grid, PAIRS_THREADS, ms);
            }
            PW_THEN(st, pw_device_buffer<int32_t>::pw_download(score, d_score.ptr, sizeof(int32_t) * (size_t)n, stream));
            PW_THEN(st, pw_device_buffer<int64_t>::pw_download(end_a, d_end_a.ptr, sizeof(int64_t) * (size_t)n, stream));
            PW_THEN(st, pw_device_buffer<int64_t>::pw_download(end_b, d_end_b.ptr, sizeof(int64_t) * (size_t)n, stream));
            int64_t cells = 0;
            for (int64_t i = 0; st == PW_OK && i < n; i++) {
                const int64_t k = list[t0 + i];
                hits[k].score = score[i];
                hits[k].end_query = end_a[i];
                hits[k].end_record = end_b[i];
                cells += a->length[k] * b->length[k];
            }
            pw_batch_progress_add(progress, cells);
            if (timed) fprintf(stderr, "pairs gpu: scores back and into the hits %.3f ms\n", 1e3 * (host_seconds() - mark));
        }
        if (timed) cudaEventDestroy(events[0]), cudaEventDestroy(events[1]);
        if (stream) cudaStreamSynchronize(stream); /* (the buffers go on the stream before the host's) */
    }
    free(ca);
    free(cb);
    free(at_a);
    free(at_b);
    free(score);
    free(end_a);
    free(end_b);
    return st;
}
