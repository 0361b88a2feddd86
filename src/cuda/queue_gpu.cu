/*
 * queue_gpu.cu - the job queue's CUDA device (src/batch/queue_device.h): a stream per stage, job
 * buffers from the stream-ordered allocator, and a pinned staging pool -- two buffers a
 * direction, so the host's copy of one chunk (packing strided rows too) overlaps the DMA of the
 * next.  Pinned once here, not cudaHostRegister per job buffer (that costs more than the copy for
 * most jobs and pins the caller's memory behind its back).  One thread's memcpy between pageable
 * and pinned memory runs at about 6 GB/s on the H100's host, a fraction of the link, so each
 * direction packs and unpacks its chunks with a team of threads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.cuh"
#include "../batch/queue_device.h"
#include "../core/alloc.h"

namespace {

struct staging {
    unsigned char *host[2];
    cudaEvent_t done[2]; /* the DMA that last used host[k] */
    int used[2];
};

/* A team that copies one chunk between a job buffer and staging memory, each thread a slice. */
enum { COPY_HELPERS = 3 }; /* besides the stage's own thread */

struct copy_team;
struct helper_arg {
    copy_team *team;
    int index;
};

struct copy_team {
    helper_arg arg[COPY_HELPERS];
    pthread_t thread[COPY_HELPERS];
    int threads;
    pthread_mutex_t lock;
    pthread_cond_t go, finished;
    unsigned long generation;
    int remaining, stop;
    const job_buffer *b;
    int64_t at, len;
    unsigned char *mem;
    int to_host;
};

struct gpu_queue {
    int device;
    cudaStream_t in, kernel, out;
    int64_t chunk;
    staging up, down;
    copy_team pack, unpack;
    int teams; /* started */
};

/* Slice k of `parts` of [at, at + len) (pw_job_slice). */
void copy_slice(const copy_team *t, int k, int parts)
{
    int64_t lo, hi;
    pw_job_slice(t->len, k, parts, &lo, &hi);
    if (hi <= lo) return;
    if (t->to_host)
        pw_job_scatter(t->b, t->at + lo, hi - lo, t->mem + lo);
    else
        pw_job_gather(t->b, t->at + lo, hi - lo, t->mem + lo);
}

void *copy_helper(void *p)
{
    helper_arg *a = (helper_arg *)p;
    copy_team *t = a->team;
    unsigned long seen = 0;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (t->generation == seen && !t->stop) pthread_cond_wait(&t->go, &t->lock);
        if (t->stop) break;
        seen = t->generation;
        pthread_mutex_unlock(&t->lock);
        copy_slice(t, a->index + 1, t->threads + 1);
        pthread_mutex_lock(&t->lock);
        if (--t->remaining == 0) pthread_cond_signal(&t->finished);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* Copy [at, at + len) of b to or from mem with the whole team (the caller takes slice 0). */
void team_copy(copy_team *t, const job_buffer *b, int64_t at, int64_t len, unsigned char *mem, int to_host)
{
    if (t->threads == 0 || len < (1 << 20)) {
        if (to_host) pw_job_scatter(b, at, len, mem);
        else pw_job_gather(b, at, len, mem);
        return;
    }
    pthread_mutex_lock(&t->lock);
    t->b = b, t->at = at, t->len = len, t->mem = mem, t->to_host = to_host;
    t->remaining = t->threads;
    t->generation++;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    copy_slice(t, 0, t->threads + 1);
    pthread_mutex_lock(&t->lock);
    while (t->remaining > 0) pthread_cond_wait(&t->finished, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

pw_status staging_create(staging *s, int64_t chunk)
{
    for (int k = 0; k < 2; k++) {
        s->used[k] = 0;
        if (pw_debug_alloc_fails()) return PW_ERR_OUT_OF_MEMORY;
        pw_status st = pw_from_cuda(cudaHostAlloc((void **)&s->host[k], (size_t)chunk, cudaHostAllocDefault));
        if (st == PW_OK) st = pw_from_cuda(cudaEventCreateWithFlags(&s->done[k], cudaEventDisableTiming));
        if (st != PW_OK) return st;
    }
    return PW_OK;
}

void staging_destroy(staging *s)
{
    for (int k = 0; k < 2; k++) {
        if (s->host[k]) cudaFreeHost(s->host[k]);
        if (s->done[k]) cudaEventDestroy(s->done[k]);
    }
}

/* Start the team's helpers (as many as start: fewer only means slower copies). */
void team_start(copy_team *t)
{
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->go, NULL);
    pthread_cond_init(&t->finished, NULL);
    for (int k = 0; k < COPY_HELPERS; k++) {
        t->arg[k] = (helper_arg){t, k};
        if (pthread_create(&t->thread[k], NULL, copy_helper, &t->arg[k]) != 0) break;
        t->threads++;
    }
}

void team_stop(copy_team *t)
{
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    for (int k = 0; k < t->threads; k++) pthread_join(t->thread[k], NULL);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->go);
    pthread_cond_destroy(&t->finished);
}

pw_status gpu_alloc(void *ctx, int64_t bytes, void **dev)
{
    gpu_queue *g = (gpu_queue *)ctx;
    *dev = NULL;
    if (pw_debug_alloc_fails()) return PW_ERR_OUT_OF_MEMORY;
    cudaSetDevice(g->device);
    return pw_from_cuda(cudaMallocAsync(dev, (size_t)(bytes > 0 ? bytes : 1), g->in));
}

void gpu_release(void *ctx, void *dev)
{
    gpu_queue *g = (gpu_queue *)ctx;
    cudaSetDevice(g->device);
    cudaFreeAsync(dev, g->out);
}

/* Host to device in chunks: pack chunk c into a free staging buffer while chunk c-1 travels. */
pw_status gpu_copy_in(void *ctx, const job_buffer *b, void *dev)
{
    gpu_queue *g = (gpu_queue *)ctx;
    cudaSetDevice(g->device);
    const int64_t total = b->rows * b->row_bytes;
    pw_status st = PW_OK;
    int k = 0;
    for (int64_t at = 0; at < total && st == PW_OK; at += g->chunk, k ^= 1) {
        const int64_t len = total - at < g->chunk ? total - at : g->chunk;
        if (g->up.used[k]) st = pw_from_cuda(cudaEventSynchronize(g->up.done[k]));
        if (st != PW_OK) break;
        team_copy(&g->pack, b, at, len, g->up.host[k], 0);
        st = pw_from_cuda(cudaMemcpyAsync((unsigned char *)dev + at, g->up.host[k], (size_t)len,
                                          cudaMemcpyHostToDevice, g->in));
        if (st == PW_OK) st = pw_from_cuda(cudaEventRecord(g->up.done[k], g->in));
        g->up.used[k] = 1;
    }
    pw_status sync = pw_from_cuda(cudaStreamSynchronize(g->in));
    return st != PW_OK ? st : sync;
}

/* Device to host in chunks: chunk c+1 travels while chunk c is unpacked. */
pw_status gpu_copy_out(void *ctx, const void *dev, const job_buffer *b, int *touched)
{
    gpu_queue *g = (gpu_queue *)ctx;
    cudaSetDevice(g->device);
    const int64_t total = b->rows * b->row_bytes;
    pw_status st = PW_OK;
    int64_t pending_at = -1, pending_len = 0; /* the chunk in flight, not yet unpacked */
    int pending_k = 0, k = 0;
    for (int64_t at = 0; at < total && st == PW_OK; at += g->chunk, k ^= 1) {
        const int64_t len = total - at < g->chunk ? total - at : g->chunk;
        st = pw_from_cuda(cudaMemcpyAsync(g->down.host[k], (const unsigned char *)dev + at, (size_t)len,
                                          cudaMemcpyDeviceToHost, g->out));
        if (st == PW_OK) st = pw_from_cuda(cudaEventRecord(g->down.done[k], g->out));
        if (st == PW_OK && pending_at >= 0) {
            st = pw_from_cuda(cudaEventSynchronize(g->down.done[pending_k]));
            if (st == PW_OK) team_copy(&g->unpack, b, pending_at, pending_len, g->down.host[pending_k], 1), *touched = 1;
        }
        pending_at = at, pending_len = len, pending_k = k;
    }
    if (st == PW_OK && pending_at >= 0) {
        st = pw_from_cuda(cudaEventSynchronize(g->down.done[pending_k]));
        if (st == PW_OK) team_copy(&g->unpack, b, pending_at, pending_len, g->down.host[pending_k], 1), *touched = 1;
    }
    pw_status sync = pw_from_cuda(cudaStreamSynchronize(g->out));
    return st != PW_OK ? st : sync;
}

pw_status gpu_run(void *ctx, const pw_job *job)
{
    gpu_queue *g = (gpu_queue *)ctx;
    cudaSetDevice(g->device);
    pw_job j = *job;
    j.options.backend = PW_BACKEND_CUDA;
    j.options.device = g->device;
    j.options.cuda_stream = g->kernel;
    return pw_job_call(&j, 1);
}

void gpu_destroy(void *ctx)
{
    gpu_queue *g = (gpu_queue *)ctx;
    if (!g) return;
    cudaSetDevice(g->device);
    if (g->in) cudaStreamSynchronize(g->in);
    if (g->out) cudaStreamSynchronize(g->out);
    staging_destroy(&g->up);
    staging_destroy(&g->down);
    if (g->teams) team_stop(&g->pack), team_stop(&g->unpack);
    if (g->in) cudaStreamDestroy(g->in);
    if (g->kernel) cudaStreamDestroy(g->kernel);
    if (g->out) cudaStreamDestroy(g->out);
    free(g);
}

} // namespace

pw_status pw_queue_gpu_create(int device, double memory_fraction, int64_t staging_bytes, queue_device *out)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device >= count) {
        cudaGetLastError();
        pw_set_error_detail("no CUDA device %d", device);
        return PW_ERR_NO_DEVICE;
    }
    gpu_queue *g = (gpu_queue *)pw_calloc(1, sizeof *g);
    if (!g) return PW_ERR_OUT_OF_MEMORY;
    g->device = device;
    g->chunk = staging_bytes;
    int engines = 1;
    size_t free_bytes = 0, total_bytes = 0;
    pw_status st = pw_from_cuda(cudaSetDevice(device));
    if (st == PW_OK) st = pw_from_cuda(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device));
    if (st == PW_OK) st = pw_from_cuda(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (st == PW_OK) st = pw_from_cuda(cudaStreamCreateWithFlags(&g->in, cudaStreamNonBlocking));
    if (st == PW_OK) st = pw_from_cuda(cudaStreamCreateWithFlags(&g->kernel, cudaStreamNonBlocking));
    if (st == PW_OK) st = pw_from_cuda(cudaStreamCreateWithFlags(&g->out, cudaStreamNonBlocking));
    if (st == PW_OK) st = staging_create(&g->up, g->chunk);
    if (st == PW_OK) st = staging_create(&g->down, g->chunk);
    if (st == PW_OK) team_start(&g->pack), team_start(&g->unpack), g->teams = 1;
    if (st != PW_OK) {
        gpu_destroy(g);
        return st;
    }
    out->ctx = g;
    /* engines 0 (no overlap at all) is modelled as one: its copies still run one at a time */
    out->copy_engines = engines >= 2 ? 2 : 1;
    out->memory_budget = (int64_t)((double)free_bytes * memory_fraction);
    out->alloc = gpu_alloc;
    out->release = gpu_release;
    out->copy_in = gpu_copy_in;
    out->copy_out = gpu_copy_out;
    out->run = gpu_run;
    out->destroy = gpu_destroy;
    return PW_OK;
}
