/* pairs_sw.cu - the host side of many SW pairs on the GPU (pairs_sw.h): the pairs in chunks,
 * each chunk's letters encoded on the host threads into a pinned staging slot, copied up on a
 * copy stream and scored by one launch on one of two compute streams -- two pairs a warp in
 * 16-bit lanes (device/pairs_sw16_proc.cuh) where DPX is in hardware and the scores fit, then the
 * pairs whose best passed 16 bits again in 32-bit lanes (device/pairs_sw_proc.cuh: a pair a
 * warp); a chunk's pairs sorted so that warps take the longest first and a warp's two are alike -- so that the host encodes chunk c + 1 while chunk c is copied and chunk c - 1
 * runs, and a chunk's last round of warps overlaps the next chunk's launch; scores and end cells
 * back into the caller's hits at the end.  About CHUNKS chunks: fewer overlap less, more pay a
 * team of threads each (38 chunks of 200000 short pairs spent 60 ms starting them).
 *
 * (Before the chunks, on an H200, 200000 pairs of 256 x 256: 21 ms encoding, 17 ms uploads from
 * pageable memory, 29 ms kernel, 5 ms back, one after the other.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "pairs_sw.h"
#include "device/pairs_sw16_proc.cuh"
#include "device_buffer.cuh"
#include "kernel_desc.h" /* pw_kernel_switches: PEERWAVE_PAIRS_LANES */
#include "pw_cuda.h"
#include "../core/exec.h" /* pw_seconds_now */

#define PAIRS_THREADS 128                     /* 4 warps a block (both kernels) */
#define PAIRS_FORMS 3                         /* query rows a thread R: 2, 4 or 8 (segments of 64, 128, 256 rows) */
#define STAGE_LETTERS ((int64_t)16 << 20)     /* a chunk's letters a side at most (the staging slot's size) */
#define CHUNKS 8                              /* chunks a run aims at (each costs a team of encoding threads) */
#define SLOTS 2                               /* staging slots (chunk c reuses chunk c - 2's) */
#define COMPUTE_STREAMS 2                     /* launches in turn on these (each its own bottom rows) */
#define KERNELS_AHEAD 4                       /* launches queued before the host waits for the oldest */


/* Where each listed pair's letters start on one side, back to back (count + 1), and the longest. */
static pw_status offsets_of(const pw_seq_set *set, const int64_t *list, int64_t count, int64_t **at, int64_t *longest)
{
    *at = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)(count + 1));
    if (!*at) return PW_ERR_OUT_OF_MEMORY;
    int64_t now = 0;
    *longest = 1;
    for (int64_t i = 0; i < count; i++) {
        (*at)[i] = now;
        now += set->length[list[i]];
        if (set->length[list[i]] > *longest) *longest = set->length[list[i]];
    }
    (*at)[count] = now;
    return PW_OK;
}

/* The run's host and device state. */
struct pairs_run {
    const pw_seq_set *a, *b;
    const pw_score_table *t;
    const int64_t *list;
    int64_t count;
    int threads;
    int64_t *at_a = nullptr, *at_b = nullptr, longest_a = 1, longest_b = 1;
    int64_t *rel_a = nullptr, *rel_b = nullptr; /* a chunk's offsets from its first pair */
    int32_t *order = nullptr;                   /* each chunk's pairs in the order warps take them (order_chunk) */
    bool order_pinned = false;
    uint8_t *stage[SLOTS] = {nullptr, nullptr}; /* pinned: a side's chunk letters, then the other's */
    bool pinned[SLOTS] = {false, false};
    cudaStream_t copy = nullptr, compute[COMPUTE_STREAMS] = {nullptr, nullptr};
    int n_compute = 0;
    cudaEvent_t copied[SLOTS], launched[KERNELS_AHEAD];
    int n_copied = 0, n_launched = 0;
    int64_t chunk_end[KERNELS_AHEAD]; /* the pairs before the end of the chunk each `launched` follows */
    std::vector<cudaEvent_t> timings;  /* PEERWAVE_DEBUG_BATCH_GPU: each launch's two events */

    ~pairs_run()
    {
        for (int k = 0; k < n_compute; k++) cudaStreamSynchronize(compute[k]), cudaStreamDestroy(compute[k]);
        if (copy) cudaStreamSynchronize(copy), cudaStreamDestroy(copy);
        for (int k = 0; k < n_copied; k++) cudaEventDestroy(copied[k]);
        for (int k = 0; k < n_launched; k++) cudaEventDestroy(launched[k]);
        for (int k = 0; k < SLOTS; k++) {
            if (pinned[k]) cudaFreeHost(stage[k]);
            else free(stage[k]);
        }
        free(at_a);
        free(at_b);
        free(rel_a);
        free(rel_b);
        if (order_pinned) cudaFreeHost(order);
        else free(order);
        for (cudaEvent_t e : timings) cudaEventDestroy(e);
    }
};

/* The kernels a pass launches: 32-bit lanes (R = 2, 4 or 8) or 16-bit (R = 4 or 8: four rows a
 * profile word), with their shared memory and the blocks an SM holds. */
struct pairs_forms {
    bool narrow;
    int n;
    int rows[PAIRS_FORMS];
    const void *kernel[PAIRS_FORMS];
    size_t smem[PAIRS_FORMS];
    int per_sm[PAIRS_FORMS];
};
static pw_status forms_of(bool narrow, int size, pairs_forms *f)
{
    memset(f, 0, sizeof *f);
    f->narrow = narrow;
    if (narrow) {
        f->n = 2;
        f->rows[0] = 4, f->kernel[0] = (const void *)pw_pairs_sw16_kernel<4>;
        f->rows[1] = 8, f->kernel[1] = (const void *)pw_pairs_sw16_kernel<8>;
    } else {
        f->n = 3;
        f->rows[0] = 2, f->kernel[0] = (const void *)pw_pairs_sw_kernel<2>;
        f->rows[1] = 4, f->kernel[1] = (const void *)pw_pairs_sw_kernel<4>;
        f->rows[2] = 8, f->kernel[2] = (const void *)pw_pairs_sw_kernel<8>;
    }
    pw_status st = PW_OK;
    for (int k = 0; k < f->n; k++) {
        f->smem[k] = narrow ? pw_pairs16_smem_bytes(size, f->rows[k]) : 0;
        if (st == PW_OK && f->smem[k] > 0 && !pw_allow_dynamic_smem(f->kernel[k], f->smem[k])) st = PW_ERR_UNSUPPORTED;
        PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&f->per_sm[k], f->kernel[k], PAIRS_THREADS,
                                                                               f->smem[k])));
        if (st == PW_OK && f->per_sm[k] < 1) st = PW_ERR_UNSUPPORTED;
    }
    return st;
}

/* The form for a chunk whose longest query is n rows: the least segments x (R + 3) (a step costs
 * about R + 3 rows' work: batch_sw.cu's choose_rows), ties to the larger R.  A 64-row query took
 * R = 8 before: a quarter of the warp's lanes. */
static int form_for(const pairs_forms &f, int64_t n)
{
    int best = f.n - 1;
    int64_t best_cost = INT64_MAX;
    for (int k = f.n - 1; k >= 0; k--) {
        const int64_t segments = (n + 32 * f.rows[k] - 1) / (32 * f.rows[k]), cost = segments * (f.rows[k] + 3);
        if (cost < best_cost) best = k, best_cost = cost;
    }
    return best;
}

/* Does the 16-bit kernel take this scoring?  Scores within signed bytes (its profile's, -128 the
 * padding) and gaps that keep E and F above -32768 (pairs_sw16_proc.cuh); *top: the largest score. */
static bool narrow_scores(const pw_score_table *t, int32_t gap_open, int32_t gap_extend, int32_t *top)
{
    *top = 0;
    for (int k = 0; k < t->size * t->size; k++) {
        if (t->scores[k] < -127 || t->scores[k] > 127) return false;
        *top = t->scores[k] > *top ? t->scores[k] : *top;
    }
    return gap_open >= 0 && gap_extend >= 0 && (int64_t)gap_open + gap_extend <= 16384;
}

/* The end of the chunk from pair t0: letters a side up to `letters` (at most STAGE_LETTERS; at
 * least one pair: a pair is at most PW_PAIRS_GPU_MAX_LENGTH letters a side). */
static int64_t chunk_from(const pairs_run &r, int64_t t0, int64_t letters)
{
    int64_t t1 = t0 + 1;
    while (t1 < r.count && r.at_a[t1 + 1] - r.at_a[t0] <= letters && r.at_b[t1 + 1] - r.at_b[t0] <= letters) t1++;
    return t1;
}

/* Pairs [t0, t1) of both sides' bytes gathered into a and b (the chunk's first pair's letters at
 * [0]); the GPU encodes them (pw_pairs_encode_kernel). */
static pw_status gather_chunk(pairs_run &r, int64_t t0, int64_t t1, uint8_t *a, uint8_t *b)
{
    for (int64_t i = t0; i <= t1; i++) r.rel_a[i - t0] = r.at_a[i] - r.at_a[t0], r.rel_b[i - t0] = r.at_b[i] - r.at_b[t0];
    return pw_sw_batch_gather_pairs(r.a, r.b, r.list + t0, t1 - t0, r.rel_a, a, r.rel_b, b, r.threads);
}

/* The chunk's bytes on the device encoded in place, on the copy stream after their upload. */
static pw_status encode_on_gpu(uint8_t *bytes, int64_t n, const uint8_t *code, cudaStream_t s)
{
    if (n < 1) return PW_OK;
    const int64_t blocks = (n + 255) / 256;
    pw_pairs_encode_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, s>>>(bytes, n, code);
    return pw_from_cuda(cudaGetLastError());
}

/* The run's cells (the debug line's rate). */
static double cells_all(const pairs_run &r)
{
    double cells = 0;
    for (int64_t i = 0; i < r.count; i++) cells += (double)(r.at_a[i + 1] - r.at_a[i]) * (double)(r.at_b[i + 1] - r.at_b[i]);
    return cells;
}

/* Pairs [t0, t1) in the order warps take them (order[i]: a pair's index from t0): by segments of
 * seg_rows query rows, then by record length in steps of 32, the longest first, so that the long
 * ones start first and a 16-bit warp's two pairs are alike (a warp runs the larger of each).  A
 * counting sort: lengths are at most PW_PAIRS_GPU_MAX_LENGTH, so there are at most ~33000 keys. */
static pw_status order_chunk(const pairs_run &r, int64_t t0, int64_t t1, int seg_rows, int32_t *order)
{
    const int64_t col_keys = r.longest_b / 32 + 1, keys = ((r.longest_a + seg_rows - 1) / seg_rows + 1) * col_keys;
    int64_t *next = (int64_t *)calloc((size_t)keys + 1, sizeof *next);
    if (!next) return PW_ERR_OUT_OF_MEMORY;
    /* key k of the longest-first order: keys - 1 - (segments x col_keys + columns / 32) */
    auto key_of = [&](int64_t t) {
        const int64_t n = r.at_a[t + 1] - r.at_a[t], m = r.at_b[t + 1] - r.at_b[t];
        return keys - 1 - ((n + seg_rows - 1) / seg_rows * col_keys + m / 32);
    };
    for (int64_t t = t0; t < t1; t++) next[key_of(t) + 1]++;
    for (int64_t k = 0; k < keys; k++) next[k + 1] += next[k];
    for (int64_t t = t0; t < t1; t++) order[next[key_of(t)]++] = (int32_t)(t - t0);
    free(next);
    return PW_OK;
}

/* One pass over pairs list[0 .. count): every chunk in the forms' lanes (16-bit: a best that may
 * have wrapped comes back as -1).  counts: the pass adds its cells to the progress (a rerun's
 * pairs were counted by the first pass). */
static pw_status pairs_pass(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *t,
                            int32_t gap_open, int32_t gap_extend, const int64_t *list, int64_t count, pw_sw_hit *hits,
                            pw_batch_progress *progress, bool narrow, int32_t limit16, bool counts, bool debug)
{
    const double started = pw_seconds_now();
    /* (debug: the setup -- host arrays, pinned staging, device buffers --, the chunks, the rest) */
    double encoding = 0, host_to = 0, pinned_to = 0, loop_from = 0, loop_to = 0, downloads_to = 0;
    const cudaStream_t stream = (cudaStream_t)options->cuda_stream;
    pairs_run r;
    r.a = a, r.b = b, r.t = t, r.list = list, r.count = count;
    r.threads = options->threads > 0 ? options->threads : pw_cpu_count();
    int32_t *score = (int32_t *)pw_malloc(sizeof(int32_t) * (size_t)count);
    int64_t *end_a = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)count);
    int64_t *end_b = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)count);
    pw_status st = score && end_a && end_b ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    PW_THEN(st, offsets_of(a, list, count, &r.at_a, &r.longest_a));
    PW_THEN(st, offsets_of(b, list, count, &r.at_b, &r.longest_b));
    int sms = 0, most_per_sm = 0;
    pairs_forms forms;
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, options->device)));
    PW_THEN(st, forms_of(narrow, t->size, &forms));
    for (int f = 0; st == PW_OK && f < forms.n; f++) most_per_sm = forms.per_sm[f] > most_per_sm ? forms.per_sm[f] : most_per_sm;
    const int64_t resident_warps = (int64_t)sms * most_per_sm * (PAIRS_THREADS / 32);
    /* a chunk's letters: an eighth of the larger side's, at least 1 M (a team's start is then
     * small beside its work), at most the staging slot */
    int64_t chunk_letters = st != PW_OK ? 0 : (r.at_a[count] > r.at_b[count] ? r.at_a[count] : r.at_b[count]) / CHUNKS;
    chunk_letters = chunk_letters < ((int64_t)1 << 20) ? (int64_t)1 << 20 : chunk_letters > STAGE_LETTERS ? STAGE_LETTERS : chunk_letters;
    r.rel_a = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)(count + 1));
    r.rel_b = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)(count + 1));
    if (st == PW_OK && (!r.rel_a || !r.rel_b)) st = PW_ERR_OUT_OF_MEMORY;
    host_to = pw_seconds_now();
    if (st == PW_OK) { /* (pinned where the system allows, else plain) */
        r.order_pinned = cudaMallocHost((void **)&r.order, sizeof(int32_t) * (size_t)count) == cudaSuccess;
        if (!r.order_pinned) cudaGetLastError(), r.order = (int32_t *)pw_malloc(sizeof(int32_t) * (size_t)count);
        if (!r.order) st = PW_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; st == PW_OK && k < SLOTS; k++) { /* (pinned where the system allows, else plain) */
        const size_t bytes = 2 * (size_t)chunk_letters + 2;
        r.pinned[k] = cudaMallocHost((void **)&r.stage[k], bytes) == cudaSuccess;
        if (!r.pinned[k]) cudaGetLastError(), r.stage[k] = (uint8_t *)pw_malloc(bytes);
        if (!r.stage[k]) st = PW_ERR_OUT_OF_MEMORY;
    }
    pinned_to = pw_seconds_now();
    PW_THEN(st, pw_from_cuda(cudaStreamCreateWithFlags(&r.copy, cudaStreamNonBlocking)));
    /* (counted as made, so that the destructor frees exactly those) */
    while (st == PW_OK && r.n_copied < SLOTS)
        if ((st = pw_from_cuda(cudaEventCreateWithFlags(&r.copied[r.n_copied], cudaEventDisableTiming))) == PW_OK) r.n_copied++;
    while (st == PW_OK && r.n_launched < KERNELS_AHEAD)
        if ((st = pw_from_cuda(cudaEventCreateWithFlags(&r.launched[r.n_launched], cudaEventDisableTiming))) == PW_OK) r.n_launched++;
    {
        pw_device_buffer<uint8_t> d_a(stream), d_b(stream), d_code(stream);
        pw_device_buffer<int64_t> d_at_a(stream), d_at_b(stream), d_end_a(stream), d_end_b(stream);
        pw_device_buffer<int32_t> d_table(stream), d_bottom(stream), d_score(stream), d_order(stream);
        PW_THEN(st, d_a.alloc((size_t)r.at_a[count] + 1));
        PW_THEN(st, d_b.alloc((size_t)r.at_b[count] + 1));
        PW_THEN(st, d_at_a.upload(r.at_a, (size_t)(count + 1)));
        PW_THEN(st, d_at_b.upload(r.at_b, (size_t)(count + 1)));
        PW_THEN(st, d_table.upload(t->scores, (size_t)(t->size * t->size)));
        PW_THEN(st, d_code.upload(t->code, 256));
        PW_THEN(st, d_score.alloc((size_t)count));
        PW_THEN(st, d_order.alloc((size_t)count));
        PW_THEN(st, d_end_a.alloc((size_t)count));
        PW_THEN(st, d_end_b.alloc((size_t)count));
        /* the bottom rows (queries of several segments): a warp's is 2 x the longest b; as many
         * warps as the SMs hold, fewer where that would pass 1 GiB; a set for each compute stream
         * (one stream where there is no room for two) */
        const bool segmented = r.longest_a > 32 * forms.rows[0]; /* (in some chunk's form, perhaps) */
        const int64_t warps = pw_bottom_warps(resident_warps, sms, segmented ? 8.0 * (double)r.longest_b : 0);
        const size_t bottom_words = segmented ? (size_t)(warps * 2 * r.longest_b) : 1;
        if (st == PW_OK) {
            r.n_compute = COMPUTE_STREAMS;
            if (d_bottom.alloc(bottom_words * COMPUTE_STREAMS) != PW_OK) {
                cudaGetLastError();
                r.n_compute = 1;
                st = d_bottom.alloc(bottom_words);
            }
        }
        for (int k = 0; st == PW_OK && k < r.n_compute; k++)
            if ((st = pw_from_cuda(cudaStreamCreateWithFlags(&r.compute[k], cudaStreamNonBlocking))) != PW_OK) r.n_compute = k;
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(stream))); /* (allocated and uploaded on the caller's stream) */
        loop_from = pw_seconds_now();
        int64_t harvested = 0; /* chunks whose cells the progress has */
        int64_t chunks = 0;
        for (int64_t t0 = 0; st == PW_OK && t0 < count; chunks++) {
            if (pw_batch_progress_stopped(progress)) {
                st = PW_ERR_CANCELLED; /* (before every chunk) */
                break;
            }
            const int64_t t1 = chunk_from(r, t0, chunk_letters), n = t1 - t0;
            const int slot = (int)(chunks % SLOTS);
            /* the slot's last copy (chunk - SLOTS) has read it; the oldest launch's end for the
             * progress and to keep KERNELS_AHEAD at most queued */
            if (chunks >= SLOTS) PW_THEN(st, pw_from_cuda(cudaEventSynchronize(r.copied[slot])));
            if (chunks >= KERNELS_AHEAD) {
                const int k = (int)(chunks % KERNELS_AHEAD);
                PW_THEN(st, pw_from_cuda(cudaEventSynchronize(r.launched[k])));
                int64_t cells = 0;
                for (int64_t i = harvested; counts && i < r.chunk_end[k]; i++) cells += a->length[list[i]] * b->length[list[i]];
                if (counts) pw_batch_progress_add(progress, cells);
                harvested = r.chunk_end[k];
            }
            const double mark = pw_seconds_now();
            uint8_t *sa = r.stage[slot], *sb = r.stage[slot] + chunk_letters + 1;
            PW_THEN(st, gather_chunk(r, t0, t1, sa, sb));
            int64_t longest = 1;
            for (int64_t i = t0; i < t1; i++) longest = a->length[list[i]] > longest ? a->length[list[i]] : longest;
            const int form = form_for(forms, longest);
            PW_THEN(st, order_chunk(r, t0, t1, 32 * forms.rows[form], r.order + t0));
            encoding += pw_seconds_now() - mark;
            PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(d_a.ptr + r.at_a[t0], sa, (size_t)(r.at_a[t1] - r.at_a[t0]),
                                                     cudaMemcpyHostToDevice, r.copy)));
            PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(d_b.ptr + r.at_b[t0], sb, (size_t)(r.at_b[t1] - r.at_b[t0]),
                                                     cudaMemcpyHostToDevice, r.copy)));
            PW_THEN(st, encode_on_gpu(d_a.ptr + r.at_a[t0], r.at_a[t1] - r.at_a[t0], d_code.ptr, r.copy));
            PW_THEN(st, encode_on_gpu(d_b.ptr + r.at_b[t0], r.at_b[t1] - r.at_b[t0], d_code.ptr, r.copy));
            PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(d_order.ptr + t0, r.order + t0, sizeof(int32_t) * (size_t)n,
                                                     cudaMemcpyHostToDevice, r.copy)));
            PW_THEN(st, pw_from_cuda(cudaEventRecord(r.copied[slot], r.copy)));
            const int c = (int)(chunks % r.n_compute);
            const cudaStream_t ks = r.compute[c];
            PW_THEN(st, pw_from_cuda(cudaStreamWaitEvent(ks, r.copied[slot], 0)));
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
            args.bottom = d_bottom.ptr + (size_t)c * bottom_words;
            args.bottom_stride = r.longest_b;
            args.score = d_score.ptr + t0;
            args.end_a = d_end_a.ptr + t0;
            args.end_b = d_end_b.ptr + t0;
            args.order = d_order.ptr + t0;
            args.limit16 = limit16;
            const int64_t items = narrow ? (n + 1) / 2 : n; /* (16-bit: two pairs a warp) */
            int64_t grid = (items + PAIRS_THREADS / 32 - 1) / (PAIRS_THREADS / 32);
            if (grid > (int64_t)sms * forms.per_sm[form]) grid = (int64_t)sms * forms.per_sm[form];
            if (segmented && grid * (PAIRS_THREADS / 32) > warps) grid = warps / (PAIRS_THREADS / 32); /* (a warp a bottom row) */
            void *params[] = {&args};
            cudaEvent_t timing[2] = {nullptr, nullptr}; /* (debug: the launch's kernel time) */
            if (debug && st == PW_OK) {
                for (int e = 0; e < 2; e++) cudaEventCreate(&timing[e]);
                cudaEventRecord(timing[0], ks);
            }
            PW_THEN(st, pw_from_cuda(cudaLaunchKernel(forms.kernel[form], dim3((unsigned)grid), dim3(PAIRS_THREADS), params,
                                                      forms.smem[form], ks)));
            if (timing[0]) {
                cudaEventRecord(timing[1], ks);
                r.timings.push_back(timing[0]), r.timings.push_back(timing[1]);
            }
            const int k = (int)(chunks % KERNELS_AHEAD);
            PW_THEN(st, pw_from_cuda(cudaEventRecord(r.launched[k], ks)));
            r.chunk_end[k] = t1;
            t0 = t1;
        }
        for (int k = 0; k < r.n_compute; k++) { /* (every launch done, also after a failure: the buffers go next) */
            const pw_status s = pw_from_cuda(cudaStreamSynchronize(r.compute[k]));
            if (st == PW_OK) st = s;
        }
        loop_to = pw_seconds_now();
        PW_THEN(st, pw_device_buffer<int32_t>::pw_download(score, d_score.ptr, sizeof(int32_t) * (size_t)count, stream));
        PW_THEN(st, pw_device_buffer<int64_t>::pw_download(end_a, d_end_a.ptr, sizeof(int64_t) * (size_t)count, stream));
        PW_THEN(st, pw_device_buffer<int64_t>::pw_download(end_b, d_end_b.ptr, sizeof(int64_t) * (size_t)count, stream));
        downloads_to = pw_seconds_now();
        int64_t cells = 0;
        for (int64_t i = 0; st == PW_OK && i < count; i++) {
            const int64_t k = list[i];
            hits[k].score = score[i];
            hits[k].end_query = end_a[i];
            hits[k].end_record = end_b[i];
            if (i >= harvested) cells += a->length[k] * b->length[k];
        }
        if (st == PW_OK && counts) pw_batch_progress_add(progress, cells);
        if (debug) {
            float kernels = 0, ms = 0;
            for (size_t e = 0; e + 1 < r.timings.size(); e += 2)
                if (cudaEventElapsedTime(&ms, r.timings[e], r.timings[e + 1]) == cudaSuccess) kernels += ms;
            fprintf(stderr, "pairs gpu: %lld pairs in %lld chunks, %d-bit lanes, %d compute streams: gathering and order %.3f ms, "
                            "kernels %.3f ms (%.1f GCUPS); setup %.3f ms (host arrays %.3f, pinned %.3f, device %.3f), chunks %.3f ms, "
                            "downloads %.3f ms, hits %.3f ms, %.3f ms before the frees\n",
                    (long long)count, (long long)chunks, narrow ? 16 : 32, r.n_compute, 1e3 * encoding, kernels,
                    kernels > 0 ? cells_all(r) / (kernels * 1e6) : 0.0, 1e3 * (loop_from - started),
                    1e3 * (host_to - started), 1e3 * (pinned_to - host_to), 1e3 * (loop_from - pinned_to),
                    1e3 * (loop_to - loop_from), 1e3 * (downloads_to - loop_to), 1e3 * (pw_seconds_now() - downloads_to),
                    1e3 * (pw_seconds_now() - started));
        }
        if (stream) cudaStreamSynchronize(stream); /* (the buffers go on the stream before the host's) */
    }
    free(score);
    free(end_a);
    free(end_b);
    return st;
}

extern "C" pw_status pw_cuda_pairs_sw(const pw_options *options, const pw_seq_set *a, const pw_seq_set *b,
                                      const pw_score_table *t, int32_t gap_open, int32_t gap_extend, const int64_t *list,
                                      int64_t count, pw_sw_hit *hits, pw_batch_progress *progress, int *lane_bits,
                                      int64_t *recomputed)
{
    *lane_bits = 32;
    *recomputed = 0;
    if (t->size > PW_PAIRS_SW_MAX_ALPHABET) return PW_ERR_UNSUPPORTED;
    if (count < 1) return PW_OK;
    /* PEERWAVE_DEBUG_BATCH_GPU=1: where the time goes (encoding, the passes, the whole) on stderr;
     * PEERWAVE_PAIRS_LANES=32: 32-bit lanes only.  Measuring switches. */
    const char *debug_env = getenv("PEERWAVE_DEBUG_BATCH_GPU");
    const bool debug = debug_env && !strcmp(debug_env, "1");
    pw_kernel_switches switches;
    pw_kernel_switches_read(&switches);
    int major = 0;
    int32_t top = 0;
    pw_status st = pw_cuda_probe(options->device);
    PW_THEN(st, pw_from_cuda(cudaSetDevice(options->device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, options->device)));
    /* 16-bit lanes where DPX is in hardware (sm_90 on) and the scores fit */
    const bool narrow = st == PW_OK && major >= 9 && !switches.pairs_lanes32 && narrow_scores(t, gap_open, gap_extend, &top);
    const double started = pw_seconds_now();
    PW_THEN(st, pairs_pass(options, a, b, t, gap_open, gap_extend, list, count, hits, progress, narrow, 32767 - top, true, debug));
    if (debug) fprintf(stderr, "pairs gpu: the first pass %.3f ms with its frees\n", 1e3 * (pw_seconds_now() - started));
    if (st != PW_OK || !narrow) return st;
    *lane_bits = 16;
    /* the pairs whose best may have wrapped, again in 32-bit lanes */
    int64_t *again = (int64_t *)pw_malloc(sizeof(int64_t) * (size_t)count), n_again = 0;
    if (!again) return PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < count; i++)
        if (hits[list[i]].score < 0) again[n_again++] = list[i];
    if (n_again > 0) st = pairs_pass(options, a, b, t, gap_open, gap_extend, again, n_again, hits, progress, false, 0, false, debug);
    *recomputed = n_again;
    free(again);
    return st;
}
