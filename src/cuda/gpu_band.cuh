/*
 * gpu_band.cuh - the host side of a band of columns run on the GPU (core/band.h, docs/DISTRIBUTED.md).
 *
 * The kernel waits for and reports the band's edge column through device words (sync.cuh,
 * pw_device_band); the band's link (src/dist/band_link.c) moves the chunks.  Between them:
 *   - incoming: the app's put copies a chunk where the band's first (last) column reads it, then
 *     the new "rows ready" into dev.left_ready (right_ready), on the band's own non-blocking
 *     stream: copies on one stream land in order, so the kernel that sees the word sees the
 *     chunk.  The apps' glue: gpu_linear_band (SW, DTW: the rows' left/diag words,
 *     linear_apps.cu), gpu_carry_band (SAT, INTHIST: the rows' carries, full_apps.cu),
 *     gpu_halo_band (HEAT, SOR: the grid's halo columns, stencil_apps.cu);
 *   - outgoing: while the kernel runs, launch.cu's wait polls dev.last_done and first_done (a
 *     copy on that stream every 20 us) and hands each increase to the link, whose get then
 *     copies the rows out;
 *   - a link that gives up (a neighbour failed) makes the wait cancel the kernel, which then
 *     ends as a timeout would (the link's reason is the rank's).
 */
#ifndef PW_CUDA_GPU_BAND_CUH
#define PW_CUDA_GPU_BAND_CUH

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/band.h"
#include "device_buffer.cuh" /* PW_THEN */
#include "device/sync.cuh"
#include "peer_access.cuh"

/* Where a band's edge columns are in its device storage (the app's glue says): left_in /
 * right_in, where the left / right neighbour's column goes (at[0] NULL: the app has none);
 * last / first, the band's own edge columns (target 0). */
struct pw_gpu_band_columns {
    pw_band_column left_in, right_in, last, first;
    int planes, elem_bytes;
    int64_t first_cols, right_below; /* pw_device_band's (0, 0: a stencil's one column) */
};

/* A band's offer of a direct hand-over (core/band.h, pw_band_io.direct): its device, its edge
 * columns' shape, and where a neighbour writes and which words it raises. */
struct pw_gpu_band_offer {
    int device, planes, elem_bytes;
    int64_t rows;
    pw_counter *left_ready, *right_ready;
    pw_band_column left_in, right_in;
};

/* The glue's struct begins with its pw_gpu_band (the direct hand-over's check finds the offer
 * from the app pointer the link is given). */
struct pw_gpu_band {
    pw_device_band dev;         /* what the kernel gets */
    const pw_band_edges *edges; /* the link's callbacks */
    int64_t sweeps;
    int device;
    pw_counter ready[2];        /* the sources of the left_ready / right_ready copies (each
                                   synchronised before it changes) */
    pw_counter *words;          /* device, a word a sweep each: left_ready, right_ready, last_done,
                                   first_done, and the direct hand-over's rows pushed (last, first) */
    pw_gpu_band_offer offer;    /* the direct hand-over's offer: where the neighbours may write */
    pw_counter *host_done;      /* host: the polled copy of last_done and first_done */
    pw_counter *reported;       /* host: the rows handed to the link, per sweep, last then first */
    int *cancel_value;          /* host: PW_CUDA_ERROR_CANCELLED, the source of the cancel copy */
    cudaStream_t stream;        /* non-blocking: the link's copies and the polls */
    cudaStream_t run_stream;    /* non-blocking: the run's, when the caller gave none (the legacy
                                   default stream would serialise bands sharing a device) */
    bool left_direct;           /* the left neighbour pushes its column itself (pw_gpu_band_direct) */
    unsigned char *bounce;      /* host: device-to-device chunks pass through it (pw_gpu_band_copy) */
    size_t bounce_bytes;
};

/* Before the app attaches to its band: the words zeroed (synchronously, so that no chunk the link
 * copies in early is overwritten) and the stream.  rows: the band's rows; the words on `device`;
 * left / right: the band has such a neighbour; in_place: halo columns both ways (HEAT, SOR). */
static inline pw_status pw_gpu_band_open(pw_gpu_band *b, int device, int64_t rows, int64_t sweeps, bool left, bool right,
                                         bool in_place)
{
    /* Stream-ordered device words and plain host memory: cudaMalloc, cudaFree and pinned host
     * allocations may synchronise the whole device, which here would wait for a neighbour's
     * kernel that waits for this band (two ranks sharing a GPU). */
    *b = pw_gpu_band{};
    b->sweeps = sweeps;
    b->device = device;
    const size_t words = (size_t)(6 * sweeps), done_bytes = sizeof(pw_counter) * (size_t)(2 * sweeps);
    pw_status st = pw_from_cuda(cudaSetDevice(device));
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&b->run_stream, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(pw_cuda_malloc((void **)&b->words, sizeof(pw_counter) * (words ? words : 1), b->stream)));
    b->host_done = st == PW_OK ? (pw_counter *)pw_malloc(done_bytes) : NULL;
    b->reported = st == PW_OK ? (pw_counter *)pw_malloc(done_bytes) : NULL;
    b->cancel_value = st == PW_OK ? (int *)pw_malloc(sizeof(int)) : NULL;
    if (st == PW_OK && (!b->host_done || !b->reported || !b->cancel_value)) st = PW_ERR_OUT_OF_MEMORY;
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(b->words, 0, sizeof(pw_counter) * words, b->stream)));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(b->stream)));
    if (st != PW_OK) return st;
    memset(b->reported, 0, done_bytes);
    *b->cancel_value = PW_CUDA_ERROR_CANCELLED;
    b->dev.left_ready = left ? b->words : NULL;
    b->dev.right_ready = right && in_place ? b->words + sweeps : NULL;
    b->dev.last_done = right ? b->words + 2 * sweeps : NULL;
    b->dev.first_done = left && in_place ? b->words + 3 * sweeps : NULL;
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
    free(b->bounce);
    *b = pw_gpu_band{};
}

/* The glue's copies of a chunk, on the band's stream: `height` rows of `width` bytes, `spitch` /
 * `dpitch` apart.  A chunk that came over NCCL is in device memory, and a copy between two device
 * buffers may be done by a kernel of the runtime's own, which can find no room beside the band's
 * persistent kernel and NCCL's -- the suspect in the HEAT/SOR run over NCCL that stopped
 * (docs/DISTRIBUTED.md).  So a device-to-device chunk goes through host memory instead: device to
 * host, then host to device, both done by the copy engines, never by a kernel (a few microseconds
 * a chunk more, against NCCL's 20-150 us hop).  The bounce buffer is pageable (a pinned
 * allocation may synchronise the device, here perhaps with a neighbour's kernel that waits for
 * this band); the copy out of it returns once the copy is done, the copy into the device once the
 * bytes are staged, and the ready word behind it on the same stream lands after them. */
static inline cudaError_t pw_gpu_band_copy(pw_gpu_band *b, void *dst, size_t dpitch, const void *src, size_t spitch,
                                           size_t width, size_t height)
{
    cudaPointerAttributes da, sa;
    const bool device_to_device = cudaPointerGetAttributes(&da, dst) == cudaSuccess &&
                                  cudaPointerGetAttributes(&sa, src) == cudaSuccess && da.type == cudaMemoryTypeDevice &&
                                  sa.type == cudaMemoryTypeDevice;
    (void)cudaGetLastError(); /* (an unknown pointer is plain host memory) */
    if (!device_to_device) return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault, b->stream);
    const size_t bytes = width * height;
    if (bytes > b->bounce_bytes) {
        unsigned char *grown = (unsigned char *)realloc(b->bounce, bytes);
        if (!grown) return cudaErrorMemoryAllocation;
        b->bounce = grown, b->bounce_bytes = bytes;
    }
    cudaError_t e = cudaMemcpy2DAsync(b->bounce, width, src, spitch, width, height, cudaMemcpyDeviceToHost, b->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(b->stream); /* (pageable: done on return anyway) */
    if (e == cudaSuccess) e = cudaMemcpy2DAsync(dst, dpitch, b->bounce, width, width, height, cudaMemcpyHostToDevice, b->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(b->stream); /* (the bounce is reused by the next chunk) */
    return e;
}

/* An app's put, after its copies of a chunk on b->stream: the word that says rows [0, i1) of
 * `sweep` of the left (right = 0) or right (1) neighbour's column are there, behind them on the
 * same stream.  Waits for both (a failed copy leaves the word behind: the kernel's watchdog says
 * so). */
static inline void pw_gpu_band_ready(pw_gpu_band *b, int right, int64_t sweep, int64_t i1)
{
    b->ready[right] = (pw_counter)i1;
    const pw_counter *word = (right ? b->dev.right_ready : b->dev.left_ready) + sweep;
    cudaMemcpyAsync((void *)word, &b->ready[right], sizeof(pw_counter), cudaMemcpyHostToDevice, b->stream);
    cudaStreamSynchronize(b->stream);
}

/* The kernel's "rows final" so far (last column, then first) to the link.  PW_OK or the copy's
 * error. */
static inline pw_status pw_gpu_band_poll(pw_gpu_band *b)
{
    const bool last_linked = b->dev.last_done && !b->dev.push_last.ready, first_linked = b->dev.first_done && !b->dev.push_first.ready;
    if (!b->edges || (!last_linked && !first_linked)) return PW_OK; /* (direct sides: nothing to tell the link) */
    /* (last_done and first_done are adjacent: one copy) */
    pw_status st = pw_from_cuda(cudaMemcpyAsync(b->host_done, b->words + 2 * b->sweeps, sizeof(pw_counter) * (size_t)(2 * b->sweeps),
                                                cudaMemcpyDeviceToHost, b->stream));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(b->stream)));
    for (int64_t k = 0; st == PW_OK && k < 2 * b->sweeps; k++) {
        const bool last = k < b->sweeps;
        void (*report)(void *, int64_t, int64_t) = last ? b->edges->last_done : b->edges->first_done;
        const bool pushed = (last ? b->dev.push_last.ready : b->dev.push_first.ready) != NULL; /* (no link there) */
        if (!report || pushed || !(last ? b->dev.last_done : b->dev.first_done) || b->host_done[k] <= b->reported[k]) continue;
        b->reported[k] = b->host_done[k];
        report(b->edges->ctx, last ? k : k - b->sweeps, (int64_t)b->host_done[k]);
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

/* The direct hand-over's check (pw_band_io.direct_ok), alike on both sides: the same shape of
 * edge columns, and the two GPUs the same or able to reach each other's memory. */
static inline int pw_gpu_band_direct_ok(void *app, const void *peer_offer)
{
    const pw_gpu_band_offer *mine = &((const pw_gpu_band *)app)->offer, *peer = (const pw_gpu_band_offer *)peer_offer;
    if (mine->rows != peer->rows || mine->planes != peer->planes || mine->elem_bytes != peer->elem_bytes) return 0;
    if (mine->elem_bytes % 4 != 0) return 0; /* (the kernel copies 4-byte words) */
    if (mine->device == peer->device) return 1;
    int there = 0, back = 0;
    return cudaDeviceCanAccessPeer(&there, mine->device, peer->device) == cudaSuccess &&
           cudaDeviceCanAccessPeer(&back, peer->device, mine->device) == cudaSuccess && there && back;
}

/* The sides agreed on (edges->peer_direct): this band's kernel pushes its last column into the
 * right neighbour and (in-place sweeps) its first column into the left one; *left_direct: the
 * left neighbour pushes into this band.  PW_ERR_TIMEOUT: the run was abandoned meanwhile. */
static inline pw_status pw_gpu_band_direct(pw_gpu_band *b, const pw_band_edges *edges, const pw_gpu_band_columns *cols,
                                           bool *left_direct)
{
    *left_direct = false;
    if (!edges->peer_direct) return PW_OK;
    for (int side = 0; side < 2; side++) {
        const void *peer_offer = NULL;
        const int r = edges->peer_direct(edges->ctx, side, &peer_offer);
        if (r < 0) return PW_ERR_TIMEOUT;
        if (r == 0) continue;
        const pw_gpu_band_offer *peer = (const pw_gpu_band_offer *)peer_offer;
        const bool pushes = side == 1 || b->dev.first_done; /* (this band writes into that neighbour) */
        if (side == 0) *left_direct = true;
        if (!pushes) continue;
        pw_status st = peer->device != b->device ? pw_cuda_reach(b->device, peer->device) : PW_OK;
        if (st != PW_OK) return st;
        if (side == 1) b->dev.push_last = pw_band_push{cols->last, peer->left_in, peer->left_ready, b->words + 4 * b->sweeps};
        else b->dev.push_first = pw_band_push{cols->first, peer->right_in, peer->right_ready, b->words + 5 * b->sweeps};
    }
    return PW_OK;
}

/* Until the left neighbour's column has its first row of sweep `sweep` (the left neighbour's
 * kernel writes the word directly): polled like the kernel's reports.  PW_ERR_TIMEOUT when the link gives up or
 * nothing comes for watchdog_ns. */
static inline int64_t pw_gpu_band_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static inline pw_status pw_gpu_band_wait_first_row(pw_gpu_band *b, int64_t sweep, int64_t watchdog_ns)
{
    const int64_t since = pw_gpu_band_now_ns();
    for (;;) {
        pw_counter seen = 0;
        pw_status st = pw_from_cuda(cudaMemcpyAsync(&seen, b->dev.left_ready + sweep, sizeof seen, cudaMemcpyDeviceToHost, b->stream));
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(b->stream)));
        if (st != PW_OK || seen >= 1) return st;
        if ((b->edges->broken && b->edges->broken(b->edges->ctx)) || pw_gpu_band_now_ns() - since > watchdog_ns)
            return PW_ERR_TIMEOUT;
        const struct timespec nap = {0, 20000};
        nanosleep(&nap, NULL);
    }
}

/* launch.cu, once the band's kernel is loaded (its occupancy queried) and before it launches
 * sweep `sweep` (the launch's first): the link may post its data path's receives now
 * (core/band.h, kernel_loaded); then the wait for the left column's first row of that sweep.
 * Launching only then: until it is here the kernel could only spin on its SMs, and a tool that
 * runs kernels one at a time (compute-sanitizer) could not run a band whose left neighbour's
 * kernel shares the GPU.  Every launch waits so, not only the first: with bands sharing a GPU
 * and a sweep a launch, a band's next sweep launched at once could take every SM while its left
 * neighbour's same sweep had no block yet, every block of it waiting on that neighbour (found
 * by review for the 3-D processor's bands, whose tiles all wait on the first tile column; the
 * generic grid bands had the same gap).  Once the row is there the neighbour's kernel has
 * blocks, and they are persistent: they finish its sweep.  Costs a host round trip a launch. */
static inline pw_status pw_gpu_band_before_launch(pw_gpu_band *b, int64_t sweep, int64_t watchdog_ns)
{
    const pw_band_edges *edges = b->edges;
    if (!edges) return PW_OK;
    if (edges->kernel_loaded) edges->kernel_loaded(edges->ctx);
    pw_status st = PW_OK;
    if (b->sweeps > sweep && b->dev.rows > 0 && b->dev.left_ready)
        st = b->left_direct ? pw_gpu_band_wait_first_row(b, sweep, watchdog_ns > 0 ? watchdog_ns : 10000000000LL)
                            : edges->wait_left(edges->ctx, sweep, 1) != 0 ? PW_ERR_TIMEOUT : PW_OK;
    if (st == PW_OK && edges->engine_started) edges->engine_started(edges->ctx); /* (the span's start: the first call) */
    return st;
}

/* Run `run` (a function of a plan) as plan->band's band of `rows` rows and `sweeps` sweeps: the
 * band's words opened, the app's io (whose puts and gets use b, on b->stream; its app pointer is
 * the glue's struct, which begins with b) attached to the link with the offer of a direct
 * hand-over made from `cols`, the sides agreed on, the kernel launched (launch.cu, pw_gpu_band_before_launch) once the left column's
 * first row is here, the link detached.  The app's device storage must be set up on the plan's
 * stream before (it is synchronised first: the link may copy a chunk in as soon as io is
 * attached). */
template <class Run>
static pw_status pw_gpu_band_run(const pw_plan *plan, pw_gpu_band *b, const pw_band_io *app_io,
                                 const pw_gpu_band_columns *cols, int64_t rows, int64_t sweeps, Run run)
{
    const pw_band *band = (const pw_band *)plan->band;
    pw_status st = pw_from_cuda(cudaStreamSynchronize(pw_plan_stream(plan)));
    PW_THEN(st, pw_gpu_band_open(b, plan->device, rows, sweeps, band->col0 > 0, band->col0 + band->cols < band->total_cols,
                                 app_io->put_right != NULL));
    if (st == PW_OK) {
        b->dev.planes = cols->planes, b->dev.elem_bytes = cols->elem_bytes;
        b->dev.first_cols = cols->first_cols, b->dev.right_below = cols->right_below;
        b->offer = pw_gpu_band_offer{b->device, cols->planes, cols->elem_bytes, rows, (pw_counter *)b->dev.left_ready,
                                     (pw_counter *)b->dev.right_ready, cols->left_in, cols->right_in};
        pw_band_io io = *app_io;
        io.direct = &b->offer, io.direct_bytes = sizeof b->offer, io.direct_ok = pw_gpu_band_direct_ok;
        pw_band_edges edges;
        st = band->attach(band->ctx, &io, &edges);
        b->edges = &edges;
        if (st == PW_OK) st = pw_gpu_band_direct(b, &edges, cols, &b->left_direct);
        pw_plan banded = *plan;
        banded.cuda_band = b;
        if (!banded.stream) banded.stream = b->run_stream; /* (never the legacy default stream) */
        if (st == PW_OK) st = run(&banded); /* (launch.cu calls pw_gpu_band_before_launch) */
        /* (a run that failed while its kernel ran -- a copy's error in the wait -- has not waited
         * for it: the neighbours must not hear that this engine stopped before it has) */
        if (st != PW_OK) cudaStreamSynchronize(pw_plan_stream(&banded));
        band->detach(band->ctx, st);
        b->edges = NULL;
    }
    pw_gpu_band_close(b);
    return st;
}

#endif
