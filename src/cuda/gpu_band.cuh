/*
 * gpu_band.cuh - the host side of a band of columns run on the GPU (core/band.h, docs/DISTRIBUTED.md).
 *
 * The kernel waits for and reports the band's edge column through device words (sync.cuh,
 * pw_device_band); the band's link (src/dist/band_link.c) moves the chunks.  Between them:
 *   - incoming: the app's put (gpu_linear_band in linear_apps.cu) copies a chunk into the rows'
 *     left/diag words, then the new "rows ready" into dev.left_ready, on the band's own
 *     non-blocking stream: copies on one stream land in order, so the kernel that sees the word
 *     sees the chunk;
 *   - outgoing: while the kernel runs, launch.cu's wait polls dev.last_done (a copy on that
 *     stream every 20 us) and hands each increase to the link (edges->last_done), whose get then
 *     copies the rows out;
 *   - a link that gives up (a neighbour failed) makes the wait cancel the kernel, which then
 *     ends as a timeout would (the link's reason is the rank's).
 */
#ifndef PW_CUDA_GPU_BAND_CUH
#define PW_CUDA_GPU_BAND_CUH

#include <stdlib.h>
#include <time.h>

#include "../core/band.h"
#include "device_buffer.cuh" /* PW_THEN */
#include "device/sync.cuh"

struct pw_gpu_band {
    pw_device_band dev;         /* what the kernel gets */
    const pw_band_edges *edges; /* the link's callbacks */
    int64_t sweeps;
    pw_counter *words;          /* device: left_ready, then last_done[sweeps] */
    pw_counter *host_done;      /* host: the polled copy of last_done */
    pw_counter *reported;       /* host: the rows handed to the link, per sweep */
    int *cancel_value;          /* host: PW_CUDA_ERROR_CANCELLED, the source of the cancel copy */
    cudaStream_t stream;        /* non-blocking: the link's copies and the polls */
    cudaStream_t run_stream;    /* non-blocking: the run's, when the caller gave none (the legacy
                                   default stream would serialise bands sharing a device) */
};

/* Before the app attaches to its band: the words zeroed (synchronously, so that no chunk the link
 * copies in early is overwritten) and the stream.  rows: the band's rows; the words on `device`. */
static inline pw_status pw_gpu_band_open(pw_gpu_band *b, int device, int64_t rows, int64_t sweeps, bool left, bool right)
{
    /* Stream-ordered device words and plain host memory: cudaMalloc, cudaFree and pinned host
     * allocations may synchronise the whole device, which here would wait for a neighbour's
     * kernel that waits for this band (two ranks sharing a GPU). */
    *b = pw_gpu_band{};
    b->sweeps = sweeps;
    pw_status st = pw_from_cuda(cudaSetDevice(device));
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&b->run_stream, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(pw_cuda_malloc((void **)&b->words, sizeof(pw_counter) * (size_t)(1 + sweeps), b->stream)));
    b->host_done = st == PW_OK ? (pw_counter *)pw_malloc(sizeof(pw_counter) * (size_t)sweeps) : NULL;
    b->reported = st == PW_OK ? (pw_counter *)pw_malloc(sizeof(pw_counter) * (size_t)sweeps) : NULL;
    b->cancel_value = st == PW_OK ? (int *)pw_malloc(sizeof(int)) : NULL;
    if (st == PW_OK && (!b->host_done || !b->reported || !b->cancel_value)) st = PW_ERR_OUT_OF_MEMORY;
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(b->words, 0, sizeof(pw_counter) * (size_t)(1 + sweeps), b->stream)));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(b->stream)));
    if (st != PW_OK) return st;
    for (int64_t s = 0; s < sweeps; s++) b->reported[s] = 0;
    *b->cancel_value = PW_CUDA_ERROR_CANCELLED;
    b->dev.left_ready = left ? b->words : NULL;
    b->dev.last_done = right ? b->words + 1 : NULL;
    b->dev.rows = rows;
    return PW_OK;
}

static inline void pw_gpu_band_close(pw_gpu_band *b)
{
    if (b->run_stream) {
        cudaStreamSynchronize(b->run_stream);
        cudaStreamDestroy(b->run_stream);
    }
    if (b->stream) {
        pw_cuda_free(b->words, b->stream);
        cudaStreamSynchronize(b->stream);
        cudaStreamDestroy(b->stream);
    }
    free(b->host_done);
    free(b->reported);
    free(b->cancel_value);
    *b = pw_gpu_band{};
}

/* The kernel's "rows final" so far to the link.  PW_OK or the copy's error. */
static inline pw_status pw_gpu_band_poll(pw_gpu_band *b)
{
    if (!b->dev.last_done || !b->edges || !b->edges->last_done) return PW_OK;
    pw_status st = pw_from_cuda(cudaMemcpyAsync(b->host_done, b->dev.last_done, sizeof(pw_counter) * (size_t)b->sweeps,
                                                cudaMemcpyDeviceToHost, b->stream));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(b->stream)));
    for (int64_t s = 0; st == PW_OK && s < b->sweeps; s++)
        if (b->host_done[s] > b->reported[s]) {
            b->reported[s] = b->host_done[s];
            b->edges->last_done(b->edges->ctx, s, (int64_t)b->host_done[s]);
        }
    return st;
}

/* launch.cu's wait for a band's kernel (`start` recorded before it, `done` after it): polls until
 * it ends; a link that gave up cancels it (the result is then PW_ERR_TIMEOUT, the link's reason). */
static inline pw_status pw_gpu_band_wait(pw_gpu_band *b, cudaEvent_t start, cudaEvent_t done, int *error)
{
    bool stopping = false;
    for (;;) {
        const cudaError_t e = cudaEventQuery(done);
        if (e != cudaSuccess && e != cudaErrorNotReady) return pw_from_cuda(e);
        pw_status st = pw_gpu_band_poll(b); /* (once more after the end: the last rows) */
        if (st != PW_OK) return st;
        if (e == cudaSuccess) { /* (a cancel copy lands before the error word is freed) */
            if (stopping) st = pw_from_cuda(cudaStreamSynchronize(b->stream));
            return stopping ? PW_ERR_TIMEOUT : st;
        }
        if (!stopping && b->edges && b->edges->broken && b->edges->broken(b->edges->ctx)) {
            /* after the run's set-up (the error word's clearing) on its stream */
            st = pw_from_cuda(cudaStreamWaitEvent(b->stream, start, 0));
            PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(error, b->cancel_value, sizeof(int), cudaMemcpyHostToDevice, b->stream)));
            if (st != PW_OK) return st;
            stopping = true;
        }
        const struct timespec nap = {0, 20000};
        nanosleep(&nap, NULL);
    }
}

#endif
