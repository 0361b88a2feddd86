/*
 * task_queue.cuh - the GPU task engine (seed 001 ch. 5; issue 31): persistent worker blocks take
 * ready tasks from queues, run them, and release their successors.  The wavefront's `tasks`
 * schedule (schedules.cuh: a tile is a task) and breadth-first search (bfs_gpu.cu: tasks spawned
 * as the search goes) are its two users; the CPU engine is src/cpu/task_engine.c.
 *
 * Queues.  Bounded multi-producer multi-consumer rings (Vyukov's: a sequence word a slot says
 * whether it may be written or read at the ticket a head or tail counter hands out), one per SM
 * (distributed, DQ: a block takes from its own SM's queue, pushes what it releases there, and
 * steals from the others when its own is empty) or one for all (centralized, CQ).  A slot's
 * sequence word is stored with release after its item and loaded with acquire before it: a task
 * taken from a queue sees everything written before it was put there.
 *
 * Readiness.  A static task t has deps[t] predecessors; each finished predecessor decrements it
 * (behind a barrier and a fence over the block's stores); the block that brings it to zero puts t
 * on a queue -- or, for the task's first successor (a tile's right neighbour), keeps it and runs
 * it next without a queue.  Tasks may spawn tasks (ready at once).  `remaining` counts the tasks not yet
 * finished, spawned ones included (counted before they are put on a queue): a block leaves when
 * it is zero.
 *
 * Forward progress needs no co-residency: a task never waits for another (it is put on a queue
 * only when ready), so any number of resident blocks finishes the graph.  A block that finds no
 * task while tasks remain and sees no task finish anywhere for the watchdog interval sets the
 * error word (a counter that never reaches zero: a cycle, or a graph whose counts are wrong);
 * the host's cancel flag reaches the same word.
 *
 * NVRTC-clean like the rest of device/ (a kernel compiled at run time is these very loops).
 */
#ifndef PW_DEVICE_TASK_QUEUE_CUH
#define PW_DEVICE_TASK_QUEUE_CUH

#include "memory.cuh"


/* Items: a static task's index, or a spawned task's payload with this bit. */
#define PW_TASK_SPAWNED (1LL << 62)

/* Head and tail of queue q sit in ends[q * PW_TASK_ENDS_STRIDE] and [.. + PW_TASK_TAIL]: a
 * 128-byte line each. */
#define PW_TASK_ENDS_STRIDE 32
#define PW_TASK_TAIL 16

/* Payloads of spawned tasks are below this (the bit marks an item as spawned). */
#define PW_TASK_PAYLOAD_LIMIT PW_TASK_SPAWNED

struct pw_task_rings {
    unsigned long long *seq; /* count * (mask + 1) sequence words, queue q's at q * (mask + 1) */
    long long *item;         /* likewise */
    unsigned long long *ends;
    unsigned long long mask; /* slots a queue - 1 (a power of two - 1) */
    int count;               /* 1: centralized */
};

/* What a worker block shares with every other (host: task_host.cuh). */
struct pw_task_state {
    pw_task_rings q;
    unsigned long long *remaining; /* tasks not finished, spawned ones included */
    unsigned long long *finished;  /* tasks finished: what the watchdog watches */
    unsigned long long *steals;    /* tasks a block took from another SM's queue */
    int *error;                    /* PW_CUDA_ERROR_*: every block leaves */
    long long watchdog_ns;
    /* the static graph: successors of t are succ[succ_at[t] .. succ_at[t + 1]); NULL: no edges */
    int *deps;
    const long long *succ_at, *succ;
    long long static_count;
};

__device__ __forceinline__ unsigned long long *pw_task_head(const pw_task_rings &q, int k)
{
    return q.ends + (long long)k * PW_TASK_ENDS_STRIDE;
}
__device__ __forceinline__ unsigned long long *pw_task_tail(const pw_task_rings &q, int k)
{
    return q.ends + (long long)k * PW_TASK_ENDS_STRIDE + PW_TASK_TAIL;
}

/* Put item on queue k: false when it is full. */
__device__ __forceinline__ bool pw_task_ring_push(const pw_task_rings &q, int k, long long item)
{
    unsigned long long *tail = pw_task_tail(q, k), *seqs = q.seq + (long long)k * (q.mask + 1);
    unsigned long long pos = pw_load_relaxed(tail);
    for (;;) {
        unsigned long long *seq = seqs + (pos & q.mask);
        const long long dif = (long long)(pw_load_acquire(seq) - pos);
        if (dif == 0) {
            const unsigned long long seen = atomicCAS(tail, pos, pos + 1);
            if (seen == pos) {
                q.item[(long long)k * (q.mask + 1) + (long long)(pos & q.mask)] = item;
                pw_store_release(seq, pos + 1);
                return true;
            }
            pos = seen;
        } else if (dif < 0) {
            return false; /* the slot still holds an item a lap behind: full */
        } else {
            pos = pw_load_relaxed(tail);
        }
    }
}

/* Take an item from queue k: false when it is empty (or its next item is still being written). */
__device__ __forceinline__ bool pw_task_ring_pop(const pw_task_rings &q, int k, long long *item)
{
    unsigned long long *head = pw_task_head(q, k), *seqs = q.seq + (long long)k * (q.mask + 1);
    unsigned long long pos = pw_load_relaxed(head);
    if (pw_load_relaxed(pw_task_tail(q, k)) == pos) return false; /* empty, seen without an acquire */
    for (;;) {
        unsigned long long *seq = seqs + (pos & q.mask);
        const long long dif = (long long)(pw_load_acquire(seq) - (pos + 1));
        if (dif == 0) {
            const unsigned long long seen = atomicCAS(head, pos, pos + 1);
            if (seen == pos) {
                *item = __ldcg(q.item + (long long)k * (q.mask + 1) + (long long)(pos & q.mask));
                pw_store_release(seq, pos + q.mask + 1); /* free for the lap after */
                return true;
            }
            pos = seen;
        } else if (dif < 0) {
            return false;
        } else {
            pos = pw_load_relaxed(head);
        }
    }
}

/* The first of the next PW_TASK_PROBE queues after `from` (not `home`) that looks non-empty, or -1:
 * their ends loaded together (relaxed), so a probe of many queues costs about one round trip. */
#define PW_TASK_PROBE 8
__device__ __forceinline__ int pw_task_probe(const pw_task_rings &q, int home, int from)
{
    unsigned long long h[PW_TASK_PROBE], t[PW_TASK_PROBE];
    int at[PW_TASK_PROBE];
#pragma unroll
    for (int k = 0; k < PW_TASK_PROBE; k++) {
        int a = from + k;
        while (a >= q.count) a -= q.count;
        at[k] = a;
        h[k] = pw_load_relaxed(pw_task_head(q, a));
        t[k] = pw_load_relaxed(pw_task_tail(q, a));
    }
#pragma unroll
    for (int k = 0; k < PW_TASK_PROBE; k++)
        if (at[k] != home && t[k] != h[k]) return at[k];
    return -1;
}

/* Put a ready item on queue `home`, or the next one with room; false (and the error word set)
 * when every queue is full. */
__device__ __forceinline__ bool pw_task_push(const pw_task_state &s, int home, long long item)
{
    for (int k = 0; k < s.q.count; k++) {
        int at = home + k;
        if (at >= s.q.count) at -= s.q.count;
        if (pw_task_ring_push(s.q, at, item)) return true;
    }
    pw_raise_error(s.error, PW_CUDA_ERROR_QUEUE_FULL);
    return false;
}

/* The queue a block calls its own: its SM's (DQ), or the one (CQ). */
__device__ __forceinline__ int pw_task_home(const pw_task_rings &q)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return (int)(sm % (unsigned)q.count);
}

/* Every thread of a block: spawn n tasks with payloads first .. first + n - 1, spread over the
 * queues from `home` on.  Call behind a barrier over what the tasks will read (the fence here
 * orders it before their pushes). */
__device__ __forceinline__ void pw_task_spawn_block(const pw_task_state &s, int home, long long first, long long n)
{
    if (threadIdx.x == 0) atomicAdd(s.remaining, (unsigned long long)n); /* before any can finish */
    __syncthreads();
    __threadfence();
    for (long long k = threadIdx.x; k < n; k += blockDim.x) {
        const int at = (int)((home + k) % s.q.count);
        if (!pw_task_push(s, at, (first + k) | PW_TASK_SPAWNED)) return;
    }
}

/* Thread 0: the next task for this block, from its own queue or (a steal) another's; -1: leave
 * (none remain, or the run is abandoned).  Idle blocks probe the other queues a few at a time,
 * round the ring of them, with relaxed loads only until one looks non-empty. */
__device__ __forceinline__ long long pw_task_next(const pw_task_state &s, int home)
{
    long long item;
    unsigned long long seen = 0, checked = pw_load_relaxed(s.finished);
    long long since = pw_globaltimer();
    unsigned ns = 32;
    int victim = home + 1 < s.q.count ? home + 1 : 0;
    for (unsigned polls = 0;; polls++) {
        if (pw_task_ring_pop(s.q, home, &item)) return item;
        if (s.q.count > 1) {
            const int v = pw_task_probe(s.q, home, victim);
            if (v >= 0 && pw_task_ring_pop(s.q, v, &item)) {
                atomicAdd(s.steals, 1ULL);
                return item;
            }
            victim += PW_TASK_PROBE;
            while (victim >= s.q.count) victim -= s.q.count;
        }
        if (polls % 4 != 3) continue;
        if (pw_load_acquire(s.remaining) == 0) return -1;
        if (*(volatile int *)s.error) return -1;
        seen = pw_load_relaxed(s.finished);
        if (seen != checked) {
            checked = seen;
            since = pw_globaltimer();
        } else if (pw_globaltimer() - since > s.watchdog_ns) {
            pw_raise_error(s.error, PW_CUDA_ERROR_TIMEOUT);
            return -1;
        }
        if (polls >= 64) { /* a short spin first: a hand-over between blocks is on the critical path */
            __nanosleep(ns);
            if (ns < 256) ns *= 2;
        }
    }
}

/* Every thread: after a static task ran (its stores behind a barrier), count its successors
 * down; a thread that brings one to zero puts it on the queue -- except the first successor,
 * which the block keeps (*kept, shared) and runs next without a queue: a tile's right neighbour
 * stays on the block, as in the peer schedule, and costs no hand-over. */
__device__ __forceinline__ void pw_task_release(const pw_task_state &s, int home, long long t, long long *kept)
{
    if (!s.deps || t >= s.static_count) return;
    const long long first = s.succ_at[t], end = s.succ_at[t + 1];
    for (long long e = first + threadIdx.x; e < end; e += blockDim.x) {
        const long long u = s.succ[e];
        /* releases the block's stores (ordered by the barrier before), acquires the other
         * predecessors': the block that runs u (this one, or a queue's acquire away) sees them */
        if (pw_atomic_add_acq_rel_s32(s.deps + u, -1) == 1) {
            if (e == first) *kept = u;
            else if (!pw_task_push(s, home, u)) return;
        }
    }
}

/* The worker loop of one block.  body.run(s, home, task, spawned, smem): every thread of the
 * block, a static task's index or a spawned task's payload; false abandons the run (the body
 * sets the error word first). */
template <class Body>
__device__ __forceinline__ void pw_task_worker(const Body &body, const pw_task_state &s, unsigned char *smem)
{
    __shared__ long long next, kept;
    __shared__ int home;
    if (threadIdx.x == 0) home = pw_task_home(s.q), kept = -1;
    __syncthreads();
    for (;;) {
        if (threadIdx.x == 0) {
            if (kept >= 0) next = kept, kept = -1;
            else next = pw_task_next(s, home);
        }
        __syncthreads();
        const long long item = next;
        __syncthreads(); /* everyone has read `next` before thread 0 writes it again */
        if (item < 0) return;
        const bool spawned = (item & PW_TASK_SPAWNED) != 0;
        const long long task = item & ~PW_TASK_SPAWNED;
        if (!body.run(s, home, task, spawned, smem)) return;
        __syncthreads();
        if (!spawned) pw_task_release(s, home, task, &kept);
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicAdd(s.finished, 1ULL);
            atomicAdd(s.remaining, ~0ULL); /* (minus one) last: its successors are counted, kept or queued */
        }
    }
}

#endif
