/* task_host.cu - the host side of the GPU task engine (task_host.h). */
#include <stdlib.h>
#include <string.h>
#include <new>
#include <vector>

#include "../core/status_detail.h"
#include "cuda_check.cuh"
#include "device/sync.cuh"
#include "device_buffer.cuh"
#include "task_host.h"

/* Every slot empty at its first lap, then the ready items: item i on queue i % count, at
 * position i / count (so queue k's tail is how many it got). */
__global__ void pw_task_queues_init(pw_task_rings q, const long long *ready, long long n_ready)
{
    const long long slots = (long long)q.count * (long long)(q.mask + 1);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < slots; i += (long long)gridDim.x * blockDim.x) {
        const int k = (int)(i / (long long)(q.mask + 1));
        const long long pos = i % (long long)(q.mask + 1), item = pos * q.count + k;
        q.seq[i] = (unsigned long long)pos + (item < n_ready ? 1 : 0);
        q.item[i] = item < n_ready ? ready[item] : 0;
        if (pos == 0) {
            q.ends[(long long)k * PW_TASK_ENDS_STRIDE] = 0;
            q.ends[(long long)k * PW_TASK_ENDS_STRIDE + PW_TASK_TAIL] =
                (unsigned long long)(n_ready > k ? (n_ready - k + q.count - 1) / q.count : 0);
        }
    }
}

static size_t round_up(size_t x) { return (x + 255) / 256 * 256; }

pw_status pw_gpu_tasks_open(pw_gpu_tasks *t, int device, int central, long long max_ready,
                            const pw_gpu_task_graph *g, long long spawned_roots, int *error, long long watchdog_ns,
                            cudaStream_t stream)
{
    memset(t, 0, sizeof *t);
    t->stream = stream;
    int sms = 1;
    pw_status st = pw_from_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (st != PW_OK) return st;
    const int queues = central ? 1 : sms;
    const long long n = g ? g->count : 0;
    /* the ready tasks (host): the graph's roots, then the spawned ones */
    std::vector<long long> ready;
    try {
        for (long long k = 0; k < n; k++)
            if (g->deps[k] == 0) ready.push_back(k);
        for (long long p = 0; p < spawned_roots; p++) ready.push_back(p | PW_TASK_SPAWNED);
    } catch (const std::bad_alloc &) {
        return PW_ERR_OUT_OF_MEMORY;
    }
    if (max_ready < (long long)ready.size()) max_ready = (long long)ready.size();
    if (max_ready > ((long long)1 << 36)) { /* 16 bytes a slot: a terabyte of queues */
        pw_set_error_detail("%lld tasks ready at once: more than the GPU task queues can hold", max_ready);
        return PW_ERR_OUT_OF_MEMORY;
    }
    unsigned long long slots = 64;
    while ((long long)slots * queues < max_ready) slots *= 2;
    const long long edges = n ? g->succ_at[n] : 0;
    /* one allocation: sequence words, items, ends, the three counters, the graph, the ready list */
    const size_t at_seq = 0, at_item = at_seq + round_up(sizeof(unsigned long long) * slots * queues),
                 at_ends = at_item + round_up(sizeof(long long) * slots * queues),
                 at_words = at_ends + round_up(sizeof(unsigned long long) * PW_TASK_ENDS_STRIDE * queues),
                 at_deps = at_words + round_up(sizeof(unsigned long long) * 3),
                 at_succ_at = at_deps + round_up(sizeof(int) * (size_t)n),
                 at_succ = at_succ_at + round_up(sizeof(long long) * (size_t)(n + 1)),
                 at_ready = at_succ + round_up(sizeof(long long) * (size_t)edges),
                 total = at_ready + round_up(sizeof(long long) * ready.size());
    if ((st = pw_from_cuda(pw_cuda_malloc(&t->mem, total, stream))) != PW_OK) {
        t->mem = NULL;
        return st;
    }
    char *m = (char *)t->mem;
    pw_task_state &s = t->s;
    s.q.seq = (unsigned long long *)(m + at_seq);
    s.q.item = (long long *)(m + at_item);
    s.q.ends = (unsigned long long *)(m + at_ends);
    s.q.mask = slots - 1;
    s.q.count = queues;
    s.remaining = (unsigned long long *)(m + at_words);
    s.finished = s.remaining + 1;
    s.steals = s.remaining + 2;
    s.error = error;
    s.watchdog_ns = watchdog_ns;
    s.deps = n ? (int *)(m + at_deps) : NULL;
    s.succ_at = n ? (const long long *)(m + at_succ_at) : NULL;
    s.succ = n ? (const long long *)(m + at_succ) : NULL;
    s.static_count = n;
    const unsigned long long words[3] = {(unsigned long long)(n + spawned_roots), 0, 0};
    long long *ready_dev = (long long *)(m + at_ready);
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(s.remaining, words, sizeof words, cudaMemcpyHostToDevice, stream)));
    if (n) {
        static_assert(sizeof(int) == sizeof(int32_t) && sizeof(long long) == sizeof(int64_t), "the graph's types");
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(s.deps, g->deps, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice, stream)));
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync((void *)s.succ_at, g->succ_at, sizeof(long long) * (size_t)(n + 1),
                                                 cudaMemcpyHostToDevice, stream)));
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync((void *)s.succ, g->succ, sizeof(long long) * (size_t)edges,
                                                 cudaMemcpyHostToDevice, stream)));
    }
    if (!ready.empty())
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(ready_dev, ready.data(), sizeof(long long) * ready.size(),
                                                 cudaMemcpyHostToDevice, stream)));
    if (st == PW_OK) {
        const long long all = (long long)slots * queues;
        pw_task_queues_init<<<(unsigned)((all + 255) / 256 < 1024 ? (all + 255) / 256 : 1024), 256, 0, stream>>>(
            s.q, ready_dev, (long long)ready.size());
        st = pw_from_cuda(cudaGetLastError());
    }
    /* the host arrays (ready, the caller's graph) may go once the copies are done */
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(stream)));
    if (st != PW_OK) pw_gpu_tasks_close(t);
    return st;
}

void pw_gpu_tasks_close(pw_gpu_tasks *t)
{
    pw_cuda_free(t->mem, t->stream);
    t->mem = NULL;
}

pw_status pw_gpu_tasks_counts(const pw_gpu_tasks *t, long long *finished, long long *steals)
{
    unsigned long long w[3];
    pw_status st = pw_device_buffer<unsigned long long>::pw_download(w, t->s.remaining, sizeof w, t->stream);
    if (st != PW_OK) return st;
    if (finished) *finished = (long long)w[1];
    if (steals) *steals = (long long)w[2];
    return PW_OK;
}

pw_status pw_gpu_tasks_status(int error_word)
{
    switch (error_word) {
    case 0: return PW_OK;
    case PW_CUDA_ERROR_CANCELLED: return PW_ERR_CANCELLED;
    case PW_CUDA_ERROR_QUEUE_FULL:
        pw_set_error_detail("more tasks were ready at once than the GPU task queues hold");
        return PW_ERR_OUT_OF_MEMORY;
    default: return PW_ERR_TIMEOUT;
    }
}
