/*
 * pairs_pipeline.cu - one pass of many SW pairs through the GPU (pairs_pipeline.h).
 *
 * The pairs are cut into chunks (plan_chunks): about CHUNKS of them, each at least a quarter of
 * the pairs that fill the GPU and at most STAGE_LETTERS a side.  A chunk c goes
 *   host    through pinned staging slot c mod 2: the team's workers 1.. gather its pairs' bytes
 *           side by side (the letters were checked before any work) while worker 0 launches
 *           chunk c - 1; then worker 0 sorts chunk c's pairs (order: longest first, so that a
 *           warp's two 16-bit pairs are alike);
 *   copy    up on the copy stream into lane c mod LANES's device slot, where the GPU encodes the
 *           bytes in place (the staging slot is free again once the copy is done);
 *   compute through the kernel on that lane's stream, whose results come back into pinned
 *           results c mod 2 LANES; when the lane comes round (chunk c + 4 launched, in the
 *           iteration that gathers c + 5), workers 1.. take them into the caller's hits.
 * So the GPU holds up to LANES chunks (kernels side by side on LANES streams: together about
 * the GPU's fill) while the host gathers the next and launches the one before.  The team lives for the whole pass (a team
 * costs ~0.7 ms to start: one a chunk cost 5.6 ms of 200000 short pairs' 33 ms), meeting at a
 * barrier twice a chunk; worker 0, the calling thread, makes every CUDA call.  Pinned memory is
 * two chunks' letters, not the run's: pinning costs about 0.4 ms a MB (26 MB took 10 ms), and
 * chunks that each filled the GPU cost 1000 x 1000 pairs 24 of their 44 ms (docs/PERFORMANCE.md,
 * session 19).  (Pinned slots kept between calls would save the rest, but a library call that
 * keeps pinned host memory after it returns surprises its caller: not done.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <vector>

#include "pairs_pipeline.h"
#include "device/pairs_sw_args.h"
#include "device_buffer.cuh"
#include "../core/exec.h" /* pw_seconds_now */
#include "../core/plan.h" /* pw_cpu_count */
extern "C" {
#include "../cpu/team.h" /* (a C header without C++ guards) */
}

#define STAGE_LETTERS ((int64_t)4 << 20)   /* a chunk's letters a side at most */
#define CHUNK_PAIRS_MAX ((int64_t)1 << 17) /* a chunk's pairs at most */
#define CHUNKS 32                          /* chunks a pass aims at */
#define STAGES 2                           /* pinned staging slots: chunk c reuses chunk c - 2's */
#define LANES 4                            /* device slots and compute streams: chunk c reuses c - 4's */

/* Chunk c: pairs [t0, t1) of the list, in kernel form `form`. */
struct pairs_chunk {
    int64_t t0, t1;
    int64_t letters_a, letters_b;
    int64_t longest_a, longest_b; /* its longest query and record */
    int form;
};

/* A chunk's slot, pinned for staging or on the device: [rel_a | rel_b | order | results (score,
 * end_a, end_b: the device's) | letters_a | letters_b]. */
struct pairs_stage {
    uint8_t *host = nullptr;
    bool pinned = false;
    cudaEvent_t uploaded = nullptr; /* the copy stream's, after the copies out of it */
    bool in_use = false;
};
/* A lane: a device slot and its compute stream. */
struct pairs_lane {
    uint8_t *dev = nullptr;
    cudaStream_t stream = nullptr;
    int32_t *bottom = nullptr;
    cudaEvent_t done = nullptr; /* after its kernel and its results */
    int64_t chunk = -1;         /* the chunk whose results are not taken yet, -1: none */
};

struct pairs_pass {
    /* the run */
    const pw_seq_set *a, *b;
    const int64_t *list;
    int64_t count;
    pw_sw_hit *hits;
    std::vector<int64_t> *wrapped; /* 16-bit lanes: the pairs whose best may have wrapped */
    pw_batch_progress *progress;
    const pw_pairs_kernels *k;
    bool counts, debug;
    pw_pairs_sw_args args; /* the fields every chunk shares */
    std::vector<pairs_chunk> chunks;
    int64_t cap_pairs = 0, cap_letters = 0; /* a slot holds this many */
    int64_t grid_cap = 0;                   /* blocks a launch at most: the bottom rows' warps */
    int sms = 0;
    uint8_t *code = nullptr;                /* the device's letter codes (the table's code[256]) */
    /* the slots, lanes and streams */
    pairs_stage stage[STAGES];
    pairs_lane lane[LANES];
    size_t slot_bytes = 0;
    cudaStream_t copy = nullptr;
    size_t bottom_words = 0;     /* a lane's bottom rows */
    pw_device_buffer<uint8_t> *device = nullptr;
    std::vector<cudaEvent_t> timings; /* debug: each launch's two events */
    /* the team */
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_barrier_t barrier;
    bool barrier_ready = false;
    int64_t next = 0;       /* the chunk worker 0 prepares next */
    bool finished = false;  /* (worker 0 says, between barriers) */
    pw_status st = PW_OK;
    double gathering = 0;   /* debug: worker 1's gathering (worker 0's in a team of one) */
    double launching = 0;   /* debug: worker 0's launches (sorts, CUDA calls) */
    /* chunk c's results come back into results_host + (c mod 2 LANES) x 3 cap_pairs (score,
     * end_a, end_b): two sets a lane, so that one chunk's are taken while the lane's next lands */
    int32_t *results_host = nullptr;
    bool results_pinned = false;
    int64_t taking = -1;              /* the chunk whose results the workers take this iteration */
    std::atomic<int64_t> taken_cells{0};
    pthread_mutex_t wrapped_lock = PTHREAD_MUTEX_INITIALIZER;

    /* a slot's parts */
    int32_t *rel_a(uint8_t *base) const { return (int32_t *)base; }
    int32_t *rel_b(uint8_t *base) const { return rel_a(base) + cap_pairs + 1; }
    int32_t *order(uint8_t *base) const { return rel_b(base) + cap_pairs + 1; }
    int32_t *results(uint8_t *base) const { return order(base) + cap_pairs; } /* score, end_a, end_b */
    int32_t *results_of(int64_t chunk) const { return results_host + (size_t)(chunk % (2 * LANES)) * 3 * cap_pairs; }
    uint8_t *letters_a(uint8_t *base) const { return (uint8_t *)(results(base) + 3 * cap_pairs); }
    uint8_t *letters_b(uint8_t *base) const { return letters_a(base) + cap_letters; }
};

/* The chunks: from pair t0 on, pairs while the chunk has fewer than `target` and its letters a
 * side stay within STAGE_LETTERS (a pair is at most PW_PAIRS_GPU_MAX_LENGTH a side: one fits);
 * each chunk's form by its longest query (the least segments x (R + 3): a step costs about R + 3
 * rows' work, batch_sw.cu's choose_rows; ties to the larger R). */
static void plan_chunks(pairs_pass &p, int64_t target)
{
    for (int64_t t0 = 0; t0 < p.count;) {
        pairs_chunk c = {t0, t0, 0, 0, 1, 1, 0};
        while (c.t1 < p.count && c.t1 - t0 < target) {
            const int64_t k = p.list[c.t1], n = p.a->length[k], m = p.b->length[k];
            if (c.t1 > t0 && (c.letters_a + n > STAGE_LETTERS || c.letters_b + m > STAGE_LETTERS)) break;
            c.letters_a += n, c.letters_b += m, c.t1++;
            c.longest_a = n > c.longest_a ? n : c.longest_a;
            c.longest_b = m > c.longest_b ? m : c.longest_b;
        }
        int64_t best_cost = INT64_MAX;
        for (int f = p.k->n - 1; f >= 0; f--) {
            const int64_t rows = 32 * p.k->rows[f], cost = (c.longest_a + rows - 1) / rows * (p.k->rows[f] + 3);
            if (cost < best_cost) c.form = f, best_cost = cost;
        }
        p.cap_pairs = c.t1 - t0 > p.cap_pairs ? c.t1 - t0 : p.cap_pairs;
        p.cap_letters = c.letters_a > p.cap_letters ? c.letters_a : p.cap_letters;
        p.cap_letters = c.letters_b > p.cap_letters ? c.letters_b : p.cap_letters;
        p.chunks.push_back(c);
        t0 = c.t1;
    }
}

/* Chunk c's pairs in the order warps take them (order[i]: a pair's index in the chunk): by
 * segments of seg_rows query rows, then by record length in steps of 32, the longest first.  A
 * counting sort: lengths are at most PW_PAIRS_GPU_MAX_LENGTH, so there are at most ~33000 keys. */
static void order_chunk(const pairs_pass &p, const pairs_chunk &c, int seg_rows, int32_t *order)
{
    const int64_t col_keys = c.longest_b / 32 + 1, keys = ((c.longest_a + seg_rows - 1) / seg_rows + 1) * col_keys;
    std::vector<int64_t> next((size_t)keys + 1, 0);
    /* key of the longest-first order: keys - 1 - (segments x col_keys + columns / 32) */
    auto key_of = [&](int64_t t) {
        const int64_t k = p.list[t], n = p.a->length[k], m = p.b->length[k];
        return keys - 1 - ((n + seg_rows - 1) / seg_rows * col_keys + m / 32);
    };
    for (int64_t t = c.t0; t < c.t1; t++) next[(size_t)key_of(t) + 1]++;
    for (int64_t k = 0; k < keys; k++) next[(size_t)k + 1] += next[(size_t)k];
    for (int64_t t = c.t0; t < c.t1; t++) order[next[(size_t)key_of(t)]++] = (int32_t)(t - c.t0);
}

/* Share `worker` of `team` of chunk cn's results into the caller's hits; its cells counted in
 * taken_cells (worker 0 gives them to the progress: its hook runs on one thread). */
static void take_results(pairs_pass &p, int64_t cn, int worker, int team)
{
    const pairs_chunk &c = p.chunks[(size_t)cn];
    const int64_t n = c.t1 - c.t0, i0 = n * worker / team, i1 = n * (worker + 1) / team;
    const int32_t *score = p.results_of(cn), *end_a = score + p.cap_pairs, *end_b = end_a + p.cap_pairs;
    int64_t cells = 0;
    for (int64_t i = i0; i < i1; i++) {
        const int64_t k = p.list[c.t0 + i];
        p.hits[k].score = score[i];
        p.hits[k].end_query = end_a[i];
        p.hits[k].end_record = end_b[i];
        if (score[i] < 0) {
            pthread_mutex_lock(&p.wrapped_lock);
            p.wrapped->push_back(k);
            pthread_mutex_unlock(&p.wrapped_lock);
        }
        cells += p.a->length[k] * p.b->length[k];
    }
    p.taken_cells += cells;
}

/* Worker 0: the cells taken so far into the progress. */
static void report_taken(pairs_pass &p)
{
    const int64_t cells = p.taken_cells.exchange(0);
    if (p.counts && cells > 0) pw_batch_progress_add(p.progress, cells);
}

/* Worker 0, before a chunk's gathering: stop (the last chunk was gathered, a failure, a stop
 * asked for), or the chunk's staging slot free (the copies out of it done), its offsets, and the
 * results the workers are to take beside it. */
static void prepare_chunk(pairs_pass &p)
{
    if (p.st == PW_OK && p.next < (int64_t)p.chunks.size() && pw_batch_progress_stopped(p.progress)) p.st = PW_ERR_CANCELLED;
    pairs_stage &s = p.stage[p.next % STAGES];
    if (p.st == PW_OK && p.next < (int64_t)p.chunks.size() && s.in_use) {
        p.st = pw_from_cuda(cudaEventSynchronize(s.uploaded));
        s.in_use = false;
    }
    if (p.st != PW_OK || p.next == (int64_t)p.chunks.size()) {
        p.finished = true;
        return;
    }
    /* the lane chunk next - 1 goes to: its last chunk's results, for the workers to take */
    p.taking = -1;
    if (p.next >= 1) {
        pairs_lane &l = p.lane[(p.next - 1) % LANES];
        if (l.chunk >= 0) {
            p.st = pw_from_cuda(cudaEventSynchronize(l.done));
            if (p.st != PW_OK) {
                p.finished = true;
                return;
            }
            p.taking = l.chunk;
            l.chunk = -1;
        }
    }
    const pairs_chunk &c = p.chunks[(size_t)p.next];
    int32_t *rel_a = p.rel_a(s.host), *rel_b = p.rel_b(s.host);
    rel_a[0] = rel_b[0] = 0;
    for (int64_t t = c.t0; t < c.t1; t++) {
        const int64_t k = p.list[t], i = t - c.t0;
        rel_a[i + 1] = rel_a[i] + (int32_t)p.a->length[k];
        rel_b[i + 1] = rel_b[i] + (int32_t)p.b->length[k];
    }
}

/* Every worker: its share of the chunk's pairs' bytes into the staging slot, as they are. */
static void gather_share(pairs_pass &p, int worker, int team_size)
{
    const pairs_chunk &c = p.chunks[(size_t)p.next];
    uint8_t *base = p.stage[p.next % STAGES].host;
    const int32_t *rel_a = p.rel_a(base), *rel_b = p.rel_b(base);
    uint8_t *la = p.letters_a(base), *lb = p.letters_b(base);
    const int64_t n = c.t1 - c.t0, i0 = n * worker / team_size, i1 = n * (worker + 1) / team_size;
    for (int64_t i = i0; i < i1; i++) {
        const int64_t k = p.list[c.t0 + i];
        memcpy(la + rel_a[i], p.a->seq[k], (size_t)p.a->length[k]);
        memcpy(lb + rel_b[i], p.b->seq[k], (size_t)p.b->length[k]);
    }
}

/* Worker 0, beside the gathering of the next: the sort; the upload and encoding, the launch, the
 * results back. */
static void launch_chunk(pairs_pass &p, int64_t cn)
{
    const pairs_chunk &c = p.chunks[(size_t)cn];
    pairs_stage &s = p.stage[cn % STAGES];
    pairs_lane &l = p.lane[cn % LANES];
    const int64_t n = c.t1 - c.t0;
    const double mark = pw_seconds_now();
    order_chunk(p, c, 32 * p.k->rows[c.form], p.order(s.host));
    pw_status st = PW_OK;
    if (st == PW_OK && l.chunk >= 0) { /* (a team of one: the lane's last results, taken now) */
        st = pw_from_cuda(cudaEventSynchronize(l.done));
        if (st == PW_OK) take_results(p, l.chunk, 0, 1), report_taken(p), l.chunk = -1;
    }
    /* the lane's device slot is free once its last kernel is done (on the GPU: the copy waits) */
    PW_THEN(st, pw_from_cuda(cudaStreamWaitEvent(p.copy, l.done, 0)));
    auto up = [&](void *dev, const void *host, size_t bytes) {
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, p.copy)));
    };
    const size_t ints = sizeof(int32_t);
    up(p.rel_a(l.dev), p.rel_a(s.host), ints * (size_t)(n + 1));
    up(p.rel_b(l.dev), p.rel_b(s.host), ints * (size_t)(n + 1));
    up(p.order(l.dev), p.order(s.host), ints * (size_t)n);
    up(p.letters_a(l.dev), p.letters_a(s.host), (size_t)c.letters_a);
    up(p.letters_b(l.dev), p.letters_b(s.host), (size_t)c.letters_b);
    for (int side = 0; side < 2; side++) { /* the GPU encodes the bytes in place */
        uint8_t *bytes = side ? p.letters_b(l.dev) : p.letters_a(l.dev);
        int64_t letters = side ? c.letters_b : c.letters_a;
        if (letters < 1) continue; /* (no empty records reach here, pw_sw_pairs refuses them; no empty grid either) */
        const uint8_t *code = p.code;
        void *params[] = {&bytes, &letters, &code};
        const int64_t blocks = (letters + 255) / 256;
        PW_THEN(st, pw_from_cuda(cudaLaunchKernel(p.k->encode, dim3((unsigned)(blocks < 1024 ? blocks : 1024)), dim3(256),
                                                  params, 0, p.copy)));
    }
    PW_THEN(st, pw_from_cuda(cudaEventRecord(s.uploaded, p.copy)));
    if (st == PW_OK) s.in_use = true;
    PW_THEN(st, pw_from_cuda(cudaStreamWaitEvent(l.stream, s.uploaded, 0)));
    pw_pairs_sw_args args = p.args;
    args.a = p.letters_a(l.dev);
    args.b = p.letters_b(l.dev);
    args.a_at = p.rel_a(l.dev);
    args.b_at = p.rel_b(l.dev);
    args.order = p.order(l.dev);
    args.count = n;
    args.score = p.results(l.dev);
    args.end_a = args.score + p.cap_pairs;
    args.end_b = args.end_a + p.cap_pairs;
    args.bottom = l.bottom;
    const int64_t items = p.k->narrow ? (n + 1) / 2 : n; /* (16-bit: two pairs a warp) */
    int64_t grid = (items + PW_PAIRS_THREADS / 32 - 1) / (PW_PAIRS_THREADS / 32);
    if (grid > (int64_t)p.sms * p.k->per_sm[c.form]) grid = (int64_t)p.sms * p.k->per_sm[c.form];
    if (grid > p.grid_cap) grid = p.grid_cap; /* (a warp a bottom row) */
    void *params[] = {&args};
    cudaEvent_t timing[2] = {nullptr, nullptr}; /* (debug: the launch's kernel time) */
    if (p.debug && st == PW_OK) {
        for (int e = 0; e < 2; e++) cudaEventCreate(&timing[e]);
        cudaEventRecord(timing[0], l.stream);
    }
    PW_THEN(st, pw_from_cuda(cudaLaunchKernel(p.k->kernel[c.form], dim3((unsigned)grid), dim3(PW_PAIRS_THREADS), params,
                                              p.k->smem[c.form], l.stream)));
    if (timing[0]) {
        cudaEventRecord(timing[1], l.stream);
        p.timings.push_back(timing[0]), p.timings.push_back(timing[1]);
    }
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(p.results_of(cn), p.results(l.dev), 3 * ints * (size_t)p.cap_pairs,
                                             cudaMemcpyDeviceToHost, l.stream)));
    PW_THEN(st, pw_from_cuda(cudaEventRecord(l.done, l.stream)));
    if (st == PW_OK) l.chunk = cn;
    p.st = st;
    p.launching += pw_seconds_now() - mark;
}

/* The team: worker 0 prepares chunk c (its staging slot free, its offsets); the others gather it
 * while worker 0 launches chunk c - 1, which they gathered last (its sort, the results its lane
 * held, its copies and kernel: with everyone gathering and worker 0 launching after, ~1 ms a
 * chunk of 31250 short pairs was worker 0's alone); then the next.  A team of one does both. */
static void pass_worker(void *arg, int worker, int team_size)
{
    pairs_pass &p = *(pairs_pass *)arg;
    pthread_mutex_lock(&p.lock); /* (the team's size is known only now: the first member sizes the barrier) */
    if (!p.barrier_ready) p.barrier_ready = pthread_barrier_init(&p.barrier, NULL, (unsigned)team_size) == 0;
    const bool ready = p.barrier_ready;
    pthread_mutex_unlock(&p.lock);
    if (!ready) { /* (no barrier: worker 0 runs the pass alone, the others leave) */
        if (worker == 0)
            for (;;) {
                prepare_chunk(p);
                if (p.finished) break;
                gather_share(p, 0, 1);
                if (p.taking >= 0) take_results(p, p.taking, 0, 1), report_taken(p);
                launch_chunk(p, p.next++);
            }
        return;
    }
    const bool alone = team_size == 1;
    int64_t pending = -1; /* (worker 0's: the chunk gathered last, not launched yet) */
    if (worker == 0) p.taking = -1;
    for (;;) {
        if (worker == 0) prepare_chunk(p);
        pthread_barrier_wait(&p.barrier);
        if (p.finished) break;
        if (worker > 0 || alone) {
            const double mark = pw_seconds_now();
            gather_share(p, alone ? 0 : worker - 1, alone ? 1 : team_size - 1);
            if (p.taking >= 0) take_results(p, p.taking, alone ? 0 : worker - 1, alone ? 1 : team_size - 1);
            if (worker <= 1) p.gathering += pw_seconds_now() - mark;
        }
        if (worker == 0 && pending >= 0) launch_chunk(p, pending);
        pthread_barrier_wait(&p.barrier);
        if (worker == 0) pending = p.next++, report_taken(p);
    }
    if (worker == 0 && pending >= 0 && p.st == PW_OK) launch_chunk(p, pending);
}

/* One pinned block of `bytes` (plain memory where the system will not pin it). */
static pw_status host_block(size_t bytes, uint8_t **host, bool *pinned)
{
    *pinned = cudaMallocHost((void **)host, bytes) == cudaSuccess;
    if (!*pinned) cudaGetLastError(), *host = (uint8_t *)pw_malloc(bytes);
    return *host ? PW_OK : PW_ERR_OUT_OF_MEMORY;
}

/* The chunks, the slots, lanes, streams, events and bottom rows; the fields every launch shares. */
static pw_status setup(pairs_pass &p, const pw_options *options, const pw_score_table *t, int32_t gap_open,
                       int32_t gap_extend)
{
    pw_status st = pw_from_cuda(cudaDeviceGetAttribute(&p.sms, cudaDevAttrMultiProcessorCount, options->device));
    int most_per_sm = 0;
    for (int f = 0; f < p.k->n; f++) most_per_sm = p.k->per_sm[f] > most_per_sm ? p.k->per_sm[f] : most_per_sm;
    const int64_t resident_warps = (int64_t)p.sms * most_per_sm * (PW_PAIRS_THREADS / 32);
    /* chunks of at least a quarter of the GPU's fill (its resident warps' pairs: LANES chunks
     * run side by side), about CHUNKS of them where there are more */
    const int64_t fill = resident_warps * (p.k->narrow ? 2 : 1) / LANES, even = (p.count + CHUNKS - 1) / CHUNKS;
    int64_t target = fill > even ? fill : even;
    target = target < CHUNK_PAIRS_MAX ? target : CHUNK_PAIRS_MAX;
    plan_chunks(p, target);
    p.slot_bytes = sizeof(int32_t) * (size_t)(2 * (p.cap_pairs + 1) + 4 * p.cap_pairs) + 2 * (size_t)p.cap_letters;
    p.slot_bytes = (p.slot_bytes + 255) / 256 * 256; /* (the next slot's offsets stay aligned) */
    /* the bottom rows (queries of several segments): a warp's is 2 x the longest b; a launch's
     * warps at most, as many as the SMs hold, fewer where that would pass 1 GiB a lane */
    int64_t longest_a = 1, longest_b = 1;
    for (const pairs_chunk &c : p.chunks) {
        longest_a = c.longest_a > longest_a ? c.longest_a : longest_a;
        longest_b = c.longest_b > longest_b ? c.longest_b : longest_b;
    }
    const int64_t launch_warps = p.k->narrow ? (p.cap_pairs + 1) / 2 : p.cap_pairs;
    const bool segmented = longest_a > 32 * p.k->rows[0]; /* (in some chunk's form, perhaps) */
    const int64_t warps = pw_bottom_warps(launch_warps < resident_warps ? launch_warps : resident_warps, p.sms,
                                          segmented ? 8.0 * (double)longest_b : 0);
    p.grid_cap = (warps + PW_PAIRS_THREADS / 32 - 1) / (PW_PAIRS_THREADS / 32);
    p.bottom_words = segmented ? (size_t)(p.grid_cap * (PW_PAIRS_THREADS / 32) * 2 * longest_b) : 1;
    p.bottom_words = (p.bottom_words + 63) / 64 * 64;
    /* one device block: the lanes' slots and bottom rows, the table and the letter codes */
    const size_t table_bytes = sizeof(int32_t) * (size_t)(t->size * t->size);
    const size_t device_bytes = LANES * (p.slot_bytes + p.bottom_words * sizeof(int32_t)) + table_bytes + 256;
    PW_THEN(st, p.device->alloc(device_bytes));
    /* (made on the caller's stream: ready before the pass's own streams use it) */
    PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(p.device->stream)));
    uint8_t *at = st == PW_OK ? p.device->ptr : nullptr;
    uint8_t *results = nullptr;
    PW_THEN(st, host_block(2 * LANES * 3 * sizeof(int32_t) * (size_t)p.cap_pairs, &results, &p.results_pinned));
    p.results_host = (int32_t *)results;
    for (int k = 0; st == PW_OK && k < STAGES; k++) {
        PW_THEN(st, host_block(p.slot_bytes, &p.stage[k].host, &p.stage[k].pinned));
        PW_THEN(st, pw_from_cuda(cudaEventCreateWithFlags(&p.stage[k].uploaded, cudaEventDisableTiming)));
    }
    for (int k = 0; st == PW_OK && k < LANES; k++) {
        pairs_lane &l = p.lane[k];
        l.dev = at, at += p.slot_bytes;
        l.bottom = (int32_t *)at, at += p.bottom_words * sizeof(int32_t);
        PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking)));
        PW_THEN(st, pw_from_cuda(cudaEventCreateWithFlags(&l.done, cudaEventDisableTiming)));
        PW_THEN(st, pw_from_cuda(cudaEventRecord(l.done, l.stream))); /* (the copy's first wait on it holds already) */
    }
    if (st == PW_OK) {
        p.args.table = (const int32_t *)at, at += table_bytes;
        p.code = at;
    }
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&p.copy, cudaStreamNonBlocking)));
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync((void *)p.args.table, t->scores, table_bytes, cudaMemcpyHostToDevice, p.copy)));
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(p.code, t->code, 256, cudaMemcpyHostToDevice, p.copy)));
    p.args.size = t->size;
    p.args.gap_open = gap_open;
    p.args.gap_extend = gap_extend;
    p.args.bottom_stride = longest_b;
    p.args.limit16 = p.k->limit16;
    return st;
}

/* Every stream drained, then what setup made (the device block goes with its buffer). */
static void teardown(pairs_pass &p)
{
    for (pairs_lane &l : p.lane) {
        if (l.stream) cudaStreamSynchronize(l.stream), cudaStreamDestroy(l.stream);
        if (l.done) cudaEventDestroy(l.done);
    }
    if (p.results_pinned) cudaFreeHost(p.results_host);
    else free(p.results_host);
    if (p.copy) cudaStreamSynchronize(p.copy), cudaStreamDestroy(p.copy);
    for (pairs_stage &s : p.stage) {
        if (s.uploaded) cudaEventDestroy(s.uploaded);
        if (s.pinned) cudaFreeHost(s.host);
        else free(s.host);
    }
    for (cudaEvent_t e : p.timings) cudaEventDestroy(e);
    if (p.barrier_ready) pthread_barrier_destroy(&p.barrier);
}

pw_status pw_pairs_pipeline(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *t,
                            int32_t gap_open, int32_t gap_extend, const int64_t *list, int64_t count, pw_sw_hit *hits,
                            pw_batch_progress *progress, const pw_pairs_kernels *k, bool counts, bool debug,
                            std::vector<int64_t> *wrapped)
{
    if (count < 1) return PW_OK;
    const double started = pw_seconds_now();
    pw_device_buffer<uint8_t> device((cudaStream_t)options->cuda_stream);
    pairs_pass p;
    p.a = a, p.b = b, p.list = list, p.count = count, p.hits = hits, p.wrapped = wrapped, p.progress = progress, p.k = k;
    p.counts = counts, p.debug = debug;
    memset(&p.args, 0, sizeof p.args);
    p.device = &device;
    pw_status st = setup(p, options, t, gap_open, gap_extend);
    const double set_up = pw_seconds_now();
    if (st == PW_OK) {
        int team = 1;
        pw_team_run(options->threads > 0 ? options->threads : pw_cpu_count(), pass_worker, &p, &team);
        st = p.st;
    }
    /* the chunks still in their lanes: drained, their results taken (also after a failure, whose
     * buffers go next) */
    for (pairs_lane &l : p.lane) {
        if (l.chunk < 0) continue;
        const pw_status se = pw_from_cuda(cudaEventSynchronize(l.done));
        if (st == PW_OK) st = se;
        if (st == PW_OK) take_results(p, l.chunk, 0, 1);
        l.chunk = -1;
    }
    report_taken(p);
    const double chunks_done = pw_seconds_now();
    if (debug) {
        float kernels = 0, ms = 0;
        double cells = 0;
        for (size_t e = 0; e + 1 < p.timings.size(); e += 2)
            if (cudaEventElapsedTime(&ms, p.timings[e], p.timings[e + 1]) == cudaSuccess) kernels += ms;
        for (int64_t i = 0; i < count; i++) cells += (double)a->length[list[i]] * (double)b->length[list[i]];
        fprintf(stderr, "pairs gpu: %lld pairs in %zu chunks of up to %lld, %d-bit lanes: setup %.3f ms, chunks %.3f ms "
                        "(worker 1 gathering %.3f ms, worker 0 launching %.3f ms), kernels %.3f ms (%.1f GCUPS)\n",
                (long long)count, p.chunks.size(), (long long)p.cap_pairs, k->narrow ? 16 : 32, 1e3 * (set_up - started),
                1e3 * (chunks_done - set_up), 1e3 * p.gathering, 1e3 * p.launching, kernels, kernels > 0 ? cells / (kernels * 1e6) : 0.0);
    }
    teardown(p);
    return st;
}
