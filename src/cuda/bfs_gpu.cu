/*
 * bfs_gpu.cu - breadth-first search on the GPU (peerwave_tasks.h: pw_bfs with the CUDA backend;
 * issue 31): on the task engine (device/task_queue.cuh; seed 001 §5.4, tasks created at run time)
 * and, as the baseline, one kernel launch a level.
 *
 * Both expand a level the same way -- a thread a frontier vertex (a warp for a vertex of 32 edges
 * or more), each edge v -> w whose w has no level yet claimed with a compare-and-swap of level[w] (-1 -> L + 1: one thread wins each
 * vertex) and appended to the next frontier -- so their levels are the textbook ones exactly.
 *
 * Task engine: a task expands a group of the level's frontier and counts the level's task
 * counter down; the task that brings it to zero (its acquire sees every append of the level)
 * moves on to the next level: levels of at most a block's threads it expands itself, at once, in
 * the same block (a road network has thousands of such levels, each cheaper than handing tasks
 * out), and the first larger one it cuts into groups: it runs the first group itself and spawns
 * the others as tasks over the queues.  No block waits at a barrier or returns to the host
 * between levels.
 *
 * Baseline: the host launches a kernel over the level's frontier, reads the next frontier's size
 * back, and launches again (what a GPU BFS without a device-side scheduler does).
 */
#include <algorithm>
#include <stdint.h>
#include <string.h>

#include "../core/status_detail.h"
#include "cuda_check.cuh"
#include "device/sync.cuh"
#include "device_buffer.cuh"
#include "pw_cuda.h"
#include "task_host.h"

#define BFS_THREADS 512

/* The level being expanded: written by the block that moves the search on, before it spawns the
 * level's tasks (their queue acquire sees it). */
struct bfs_level {
    long long count; /* vertices in frontier[cur] */
    long long group; /* vertices a task */
    int depth;       /* the level's number */
    int cur;         /* which frontier holds it */
};

/* words[] of a search */
enum { W_COUNT0, W_COUNT1, W_TASKS_LEFT, W_EDGES, W_REACHED, W_WORDS };

struct bfs_graph {
    const long long *offsets, *targets;
    int *level;
    long long *frontier[2];
    unsigned long long *words;
    bfs_level *at; /* the current level (task engine) */
};

/* Claim w for level next_level; the one thread that does appends it. */
__device__ __forceinline__ void bfs_visit(const bfs_graph &b, long long w, int next_level, long long *next,
                                          unsigned long long *next_count)
{
    if (*(volatile int *)(b.level + w) == -1 && atomicCAS(b.level + w, -1, next_level) == -1)
        next[atomicAdd(next_count, 1ULL)] = w;
}

/* Every thread of a block: expand frontier vertices cur[lo, hi) into level `next_level`.  A lane a
 * vertex; a vertex of 32 edges or more the whole warp expands together (lanes over its edges),
 * so a hub of a skewed graph is not one thread's long loop. */
__device__ __forceinline__ void bfs_expand(const bfs_graph &b, const long long *cur, long long lo, long long hi,
                                           int next_level, long long *next, unsigned long long *next_count)
{
    const int lane = threadIdx.x & 31;
    unsigned long long edges = 0;
    for (long long base = lo + (threadIdx.x & ~31); base < hi; base += blockDim.x) { /* (warp-uniform) */
        const long long k = base + lane;
        long long e0 = 0, e1 = 0;
        if (k < hi) {
            const long long v = __ldcg(cur + k);
            e0 = __ldg(b.offsets + v), e1 = __ldg(b.offsets + v + 1);
            edges += (unsigned long long)(e1 - e0);
        }
        const bool wide = e1 - e0 >= 32;
        for (unsigned wides = __ballot_sync(0xffffffffu, wide); wides; wides &= wides - 1) {
            const int src = __ffs(wides) - 1;
            const long long s0 = __shfl_sync(0xffffffffu, e0, src), s1 = __shfl_sync(0xffffffffu, e1, src);
            for (long long e = s0 + lane; e < s1; e += 32) bfs_visit(b, __ldg(b.targets + e), next_level, next, next_count);
        }
        if (!wide)
            for (long long e = e0; e < e1; e++) bfs_visit(b, __ldg(b.targets + e), next_level, next, next_count);
    }
    if (edges) atomicAdd(b.words + W_EDGES, edges);
}

/* The next level's size (after the level's appends: the caller's acquire or barrier). */
__device__ __forceinline__ unsigned long long bfs_count(const bfs_graph &b, int which)
{
    return atomicAdd(b.words + W_COUNT0 + which, 0ULL);
}

/* ---- the task engine's form ------------------------------------------------------------- */

struct bfs_body {
    bfs_graph b;
    long long blocks; /* worker blocks: a large level is cut into a few groups a block */
    __device__ bool run(const pw_task_state &s, int home, long long task, bool, unsigned char *) const
    {
        __shared__ bfs_level L;
        __shared__ int last;
        for (;;) { /* (a level's group 0 runs on the block that spawned the others: see below) */
            if (threadIdx.x == 0) {
                const volatile bfs_level *at = b.at;
                L.count = at->count, L.group = at->group, L.depth = at->depth, L.cur = at->cur;
            }
            __syncthreads();
            const long long lo = task * L.group, hi = lo + L.group < L.count ? lo + L.group : L.count;
            bfs_expand(b, b.frontier[L.cur], lo, hi, L.depth + 1, b.frontier[L.cur ^ 1], b.words + W_COUNT0 + (L.cur ^ 1));
            __syncthreads();
            if (threadIdx.x == 0) {
                __threadfence(); /* the block's appends before the count */
                last = atomicAdd(b.words + W_TASKS_LEFT, ~0ULL) == 1; /* (minus one) */
                if (last) __threadfence(); /* every task's appends before what follows */
            }
            __syncthreads();
            if (!last) return true;
            /* The level's last task: move on.  Levels no larger than the block it expands here. */
            for (;;) {
                if (threadIdx.x == 0) {
                    const long long found = (long long)bfs_count(b, L.cur ^ 1);
                    atomicAdd(b.words + W_REACHED, (unsigned long long)found);
                    if (found > 0) {
                        atomicExch(b.words + W_COUNT0 + L.cur, 0ULL); /* the level after next appends there */
                        L.cur ^= 1, L.depth++, L.count = found;
                    } else {
                        L.count = 0;
                    }
                }
                __syncthreads();
                if (L.count == 0) return true; /* the search is over */
                if (L.count > (long long)blockDim.x) break;
                /* levels expanded here are tasks to the watchdog (it sees them finish), and a
                 * timeout or cancel set meanwhile ends the search */
                if (threadIdx.x == 0) last = *(volatile int *)s.error == 0, atomicAdd(s.finished, 1ULL);
                __syncthreads();
                if (!last) return false;
                bfs_expand(b, b.frontier[L.cur], 0, L.count, L.depth + 1, b.frontier[L.cur ^ 1], b.words + W_COUNT0 + (L.cur ^ 1));
                __syncthreads();
            }
            /* A larger level: groups of whole multiples of the block, about four a worker block;
             * groups 1 .. n - 1 go on the queues, group 0 this block runs at once (one hand-over
             * less on the search's critical path). */
            if (threadIdx.x == 0) {
                long long g = (L.count + 4 * blocks - 1) / (4 * blocks);
                g = (g + blockDim.x - 1) / blockDim.x * blockDim.x;
                L.group = g;
                bfs_level *at = b.at;
                at->count = L.count, at->group = g, at->depth = L.depth, at->cur = L.cur;
                atomicExch(b.words + W_TASKS_LEFT, (unsigned long long)((L.count + g - 1) / g));
            }
            __syncthreads();
            const long long groups = (L.count + L.group - 1) / L.group;
            if (groups > 1) pw_task_spawn_block(s, home, 1, groups - 1);
            task = 0;
            __syncthreads(); /* (everyone has read L before thread 0 reads it again) */
        }
    }
};

__global__ void __launch_bounds__(BFS_THREADS) bfs_tasks_kernel(bfs_body body, pw_task_state s)
{
    pw_task_worker(body, s, NULL);
}

/* ---- the baseline: one launch a level ---------------------------------------------------- */

__global__ void __launch_bounds__(BFS_THREADS) bfs_level_kernel(bfs_graph b, int cur, long long count, int next_level)
{
    const long long lo = (long long)blockIdx.x * blockDim.x;
    bfs_expand(b, b.frontier[cur], lo, lo + blockDim.x < count ? lo + blockDim.x : count, next_level,
               b.frontier[cur ^ 1], b.words + W_COUNT0 + (cur ^ 1));
}

/* level[] = -1, level[source] = 0; frontier[0] = {source}; the words and the first level. */
__global__ void bfs_start_kernel(bfs_graph b, long long vertices, long long source)
{
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < vertices; v += (long long)gridDim.x * blockDim.x)
        b.level[v] = v == source ? 0 : -1;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        b.frontier[0][0] = source;
        for (int k = 0; k < W_WORDS; k++) b.words[k] = 0;
        b.words[W_COUNT0] = 1, b.words[W_TASKS_LEFT] = 1, b.words[W_REACHED] = 1;
        *b.at = bfs_level{1, 1, 0, 0};
    }
}

/* ---- host ---------------------------------------------------------------------------------- */

/* The task engine's search, between the two events. */
static pw_status run_tasks(const bfs_graph &b, int central, int device, long long vertices, long long watchdog_ns,
                           int *error, cudaStream_t s, cudaEvent_t start, cudaEvent_t stop, pw_bfs_info *info)
{
    int sms = 0, per_sm = 0;
    pw_status st = pw_from_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bfs_tasks_kernel, BFS_THREADS, 0)));
    if (st != PW_OK) return st;
    const long long blocks = (long long)sms * per_sm;
    /* at most a level's tasks are ready at once: its groups, at least a block's threads each */
    const long long max_ready = (vertices + BFS_THREADS - 1) / BFS_THREADS + 1;
    pw_gpu_tasks tasks;
    if ((st = pw_gpu_tasks_open(&tasks, device, central, max_ready, NULL, 1, error, watchdog_ns, s)) != PW_OK) return st;
    bfs_body body = {b, blocks};
    void *args[] = {&body, &tasks.s};
    PW_THEN(st, pw_from_cuda(cudaEventRecord(start, s)));
    PW_THEN(st, pw_from_cuda(cudaLaunchKernel((const void *)bfs_tasks_kernel, dim3((unsigned)blocks), dim3(BFS_THREADS), args, 0, s)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(stop, s)));
    long long done = 0, steals = 0;
    PW_THEN(st, pw_gpu_tasks_counts(&tasks, &done, &steals));
    info->tasks = done, info->steals = steals;
    info->threads = (int)blocks;
    pw_gpu_tasks_close(&tasks);
    return st;
}

/* The baseline's search, between the two events. */
static pw_status run_levels(const bfs_graph &b, cudaStream_t s, cudaEvent_t start, cudaEvent_t stop, pw_bfs_info *info)
{
    pw_status st = pw_from_cuda(cudaEventRecord(start, s));
    long long count = 1;
    int cur = 0, depth = 0;
    while (st == PW_OK) {
        const unsigned blocks = (unsigned)((count + BFS_THREADS - 1) / BFS_THREADS);
        bfs_level_kernel<<<blocks, BFS_THREADS, 0, s>>>(b, cur, count, depth + 1);
        info->tasks++;
        unsigned long long found = 0;
        PW_THEN(st, pw_from_cuda(cudaGetLastError()));
        PW_THEN(st, pw_device_buffer<unsigned long long>::pw_download(&found, b.words + W_COUNT0 + (cur ^ 1), sizeof found, s));
        if (st != PW_OK || found == 0) break;
        PW_THEN(st, pw_from_cuda(cudaMemsetAsync(b.words + W_COUNT0 + cur, 0, sizeof(unsigned long long), s)));
        cur ^= 1, depth++, count = (long long)found;
        info->reached += count;
    }
    PW_THEN(st, pw_from_cuda(cudaEventRecord(stop, s)));
    info->threads = BFS_THREADS;
    return st;
}

pw_status pw_cuda_bfs(const pw_graph *g, int64_t source, pw_bfs_engine engine, int device, long long watchdog_ns,
                      int32_t *level, pw_bfs_info *info)
{
    pw_status st = pw_from_cuda(cudaSetDevice(device));
    if (st != PW_OK) return st;
    const long long n = g->vertices, edges = g->offsets[n];
    /* the graph, levels, two frontiers, the words and the level, in one allocation */
    const double bytes = 8.0 * (double)(n + 1) + 8.0 * (double)edges + 4.0 * (double)n + 16.0 * (double)n + 1024;
    if ((st = pw_cuda_reserve(bytes * 1.05)) != PW_OK) {
        pw_set_error_detail("the graph needs %.1f GB of GPU memory (%lld vertices, %lld edges)", bytes / 1e9, n, edges);
        return st;
    }
    cudaStream_t s = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    char *mem = NULL;
    int *error = NULL, host_error = 0;
    float ms = 0;
    bfs_graph b;
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(cudaEventCreate(&start)));
    PW_THEN(st, pw_from_cuda(cudaEventCreate(&stop)));
    const size_t at_off = 0, at_tg = at_off + 8 * (size_t)(n + 1), at_f0 = at_tg + 8 * (size_t)edges,
                 at_f1 = at_f0 + 8 * (size_t)n, at_lv = at_f1 + 8 * (size_t)n, at_w = (at_lv + 4 * (size_t)n + 255) / 256 * 256,
                 at_at = at_w + 8 * W_WORDS, at_err = at_at + sizeof(bfs_level), total = at_err + sizeof(int);
    PW_THEN(st, pw_from_cuda(pw_cuda_malloc((void **)&mem, total, s)));
    if (st == PW_OK) {
        static_assert(sizeof(long long) == sizeof(int64_t), "the graph's types");
        b.offsets = (const long long *)(mem + at_off), b.targets = (const long long *)(mem + at_tg);
        b.frontier[0] = (long long *)(mem + at_f0), b.frontier[1] = (long long *)(mem + at_f1);
        b.level = (int *)(mem + at_lv), b.words = (unsigned long long *)(mem + at_w), b.at = (bfs_level *)(mem + at_at);
        error = (int *)(mem + at_err);
    }
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync((void *)b.offsets, g->offsets, 8 * (size_t)(n + 1), cudaMemcpyHostToDevice, s)));
    if (edges) PW_THEN(st, pw_from_cuda(cudaMemcpyAsync((void *)b.targets, g->targets, 8 * (size_t)edges, cudaMemcpyHostToDevice, s)));
    PW_THEN(st, pw_from_cuda(cudaMemsetAsync(error, 0, sizeof(int), s)));
    if (st == PW_OK) {
        bfs_start_kernel<<<(unsigned)std::min<long long>((n + 255) / 256, 4096), 256, 0, s>>>(b, n, source);
        st = pw_from_cuda(cudaGetLastError());
    }
    memset(info, 0, sizeof *info);
    if (st == PW_OK)
        st = engine == PW_BFS_LEVELS ? run_levels(b, s, start, stop, info)
                                     : run_tasks(b, engine == PW_BFS_TASKS_CENTRAL, device, n, watchdog_ns, error, s, start, stop, info);
    unsigned long long words[W_WORDS];
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(words, b.words, sizeof words, cudaMemcpyDeviceToHost, s)));
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(&host_error, error, sizeof host_error, cudaMemcpyDeviceToHost, s)));
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(level, b.level, 4 * (size_t)n, cudaMemcpyDeviceToHost, s)));
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(s)));
    PW_THEN(st, pw_gpu_tasks_status(host_error));
    PW_THEN(st, pw_from_cuda(cudaEventElapsedTime(&ms, start, stop)));
    if (st == PW_OK) {
        info->seconds = ms / 1e3;
        info->edges = (int64_t)words[W_EDGES];
        if (engine != PW_BFS_LEVELS) info->reached = (int64_t)words[W_REACHED];
        else info->reached += 1; /* the source */
        /* the depth: the deepest level any vertex got (the last level expanded found none) */
        int32_t depth = 0;
        for (long long v = 0; v < n; v++) depth = level[v] > depth ? level[v] : depth;
        info->depth = depth;
    }
    pw_cuda_free(mem, s);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (s) {
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
    }
    return st;
}
