/* batch_sw.cu - the host side of the GPU database search: the records' columns uploaded once, a
 * profile and one launch a query; pairs whose 16-bit lanes may have wrapped are scored again by
 * the 32-bit kernel, records too long for a warp by the single-pair engine (pw_cuda_sw). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_sw.h"
#include "../../apps/checks.h" /* PW_LINEAR_CUDA_TILE_H */
#include "device/batch_sw_proc.cuh"
#include "device_buffer.cuh"
#include "pw_cuda.h"
#include "../core/exec.h" /* pw_seconds_now */

#define BATCH_THREADS 256 /* 8 warps a block */
#define PROFILES_KEPT_BYTES ((int64_t)256 << 20) /* the queries' profiles kept on the device, at most */

/* R (query rows a thread) for a query of n rows.  A segment of 32 R rows takes as many steps
 * (columns + 31) whatever R is, and a step costs about R + 3 rows' work (the shuffles, the
 * profile's loads and the loop: a guess, checked by PEERWAVE_BATCH_ROWS in bench/batch_forms.sh),
 * so the least segments x (R + 3).  Counting only the padded rows once took R = 4 for a query of
 * 5478 (43 segments, each with its fill and drain). */
static int choose_rows(int64_t n)
{
    static const int choices[] = {16, 12, 8, 4};
    /* PEERWAVE_BATCH_ROWS=4|8|12|16: that R for every query (a measuring switch, read here only) */
    const char *forced = getenv("PEERWAVE_BATCH_ROWS");
    for (int c = 0; forced && c < 4; c++)
        if (atoi(forced) == choices[c]) return choices[c];
    int best = 16;
    int64_t best_cost = 0;
    for (int c = 0; c < 4; c++) {
        const int64_t segments = (n + 32 * choices[c] - 1) / (32 * choices[c]);
        const int64_t cost = segments * (choices[c] + 3);
        if (c == 0 || cost < best_cost) best = choices[c], best_cost = cost;
    }
    return best;
}

/* A query's launch form: its rows a thread, its segments and its profile (the words of a letter,
 * all of them, and where they start in the session's profile buffer when the profiles are kept). */
struct query_form {
    int R, segments;
    int64_t letter_words, profile_words, offset;
};

static query_form form_of(int64_t n, int alphabet)
{
    query_form f;
    f.R = choose_rows(n);
    f.segments = (int)((n + 32 * f.R - 1) / (32 * f.R));
    f.letter_words = (int64_t)f.segments * (f.R / 4) * 32;
    f.profile_words = f.letter_words * (alphabet + 1);
    f.offset = 0;
    return f;
}

/* The profile of a query (batch_sw_proc.cuh's layout), letters 0 .. alphabet (the last: padding). */
static void make_profile(const sw_batch_query *q, const pw_score_table *t, const query_form &f, uint32_t *words)
{
    const int R = f.R;
    for (int c = 0; c <= t->size; c++)
        for (int g = 0; g < f.segments; g++)
            for (int w = 0; w < R / 4; w++)
                for (int k = 0; k < 32; k++) {
                    uint32_t word = 0;
                    for (int b = 0; b < 4; b++) {
                        const int64_t row = (int64_t)g * 32 * R + k * R + 4 * w + b;
                        const int s = c < t->size && row < q->n ? t->scores[q->codes[row] * t->size + c] : -128;
                        word |= (uint32_t)(uint8_t)(int8_t)s << (8 * b);
                    }
                    words[c * f.letter_words + ((int64_t)g * (R / 4) + w) * 32 + k] = word;
                }
}

template <class L, int R, bool Staged>
static const void *kernel_for(int form)
{
    return form == PW_BATCH_FORM_SHORT ? (const void *)pw_batch_sw_kernel<L, R, PW_BATCH_FORM_SHORT, Staged>
                                       : (const void *)pw_batch_sw_kernel<L, R, PW_BATCH_FORM_SHARED, Staged>;
}

template <class L, int R>
static const void *kernel_staged(int form, bool staged)
{
    return staged ? kernel_for<L, R, true>(form) : kernel_for<L, R, false>(form);
}

template <class L>
static const void *kernel_by_rows(int R, int form, bool staged)
{
    switch (R) {
    case 4: return kernel_staged<L, 4>(form, staged);
    case 8: return kernel_staged<L, 8>(form, staged);
    case 12: return kernel_staged<L, 12>(form, staged);
    default: return kernel_staged<L, 16>(form, staged);
    }
}

/* A list of records (sorted places, longest first) on the device: their codes back to back, an
 * offset and a length each; the kernel's item i is records lanes i .. lanes i + lanes - 1.  No
 * interleaving on the host: a contiguous list (the database's) is one copy of its codes. */
struct device_items {
    int lanes;
    int64_t count = 0; /* items */
    int64_t records = 0;
    int32_t longest = 0;
    pw_device_buffer<uint8_t> codes;
    pw_device_buffer<int64_t> rec_at;
    pw_device_buffer<int32_t> rec_len, scores;
    device_items(int l, cudaStream_t s) : lanes(l), codes(s), rec_at(s), rec_len(s), scores(s) {}

    /* (with_scores: a scores buffer of its own; the database's items write into the slots') */
    pw_status upload(const sw_batch_db *db, const int64_t *list, int64_t n, bool with_scores = true)
    {
        records = n;
        count = (n + lanes - 1) / lanes;
        bool contiguous = true;
        for (int64_t k = 1; k < n && contiguous; k++) contiguous = list[k] == list[0] + k;
        const int64_t base = n > 0 ? db->at[list[0]] : 0;
        int64_t bytes = 0;
        for (int64_t k = 0; k < n; k++) bytes += db->length[list[k]];
        int64_t *at = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
        int32_t *len = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
        uint8_t *gathered = contiguous ? nullptr : (uint8_t *)malloc((size_t)bytes + 1);
        pw_status st = at && len && (contiguous || gathered) ? PW_OK : PW_ERR_OUT_OF_MEMORY;
        for (int64_t k = 0, off = 0; st == PW_OK && k < n; k++) {
            const int64_t r = list[k];
            at[k] = contiguous ? db->at[r] - base : off;
            len[k] = (int32_t)db->length[r];
            if (!contiguous) memcpy(gathered + off, db->codes + db->at[r], (size_t)db->length[r]);
            off += db->length[r];
        }
        if (st == PW_OK && n > 0) longest = len[0];
        PW_THEN(st, codes.upload(contiguous ? db->codes + base : gathered, (size_t)bytes + 1));
        PW_THEN(st, rec_at.upload(at, (size_t)n + 1));
        PW_THEN(st, rec_len.upload(len, (size_t)n + 1));
        if (with_scores) PW_THEN(st, scores.alloc((size_t)(count * lanes)));
        /* the uploads read host memory until they are done */
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(codes.stream)));
        free(at);
        free(len);
        free(gathered);
        return st;
    }
};

/* What every launch of one query shares. */
struct query_launch {
    pw_batch_sw_args args;
    int R;
    int form; /* how a cell's gaps are made (batch_sw_proc.cuh) */
    size_t profile_bytes;
    int device, max_smem, sms;
    cudaStream_t stream;
};

/* Items [i0, i1) against the query: launched on the query's stream, their scores copied out
 * into host[0 .. (i1 - i0) * lanes) on it too (from device scores[i0 * lanes ..]); the caller
 * waits for the stream before it reads them (so that it can take the last query's scores while
 * this one runs). */
template <class L>
static pw_status launch_items(query_launch *ql, device_items *items, int64_t i0, int64_t i1, int32_t *scores,
                              int32_t *host, int64_t bottom_warps)
{
    pw_batch_sw_args a = ql->args;
    a.codes = items->codes.ptr;
    a.rec_at = items->rec_at.ptr + i0 * L::lanes;
    a.rec_len = items->rec_len.ptr + i0 * L::lanes;
    a.records = (i1 * L::lanes < items->records ? i1 * L::lanes : items->records) - i0 * L::lanes;
    a.items = i1 - i0;
    a.scores = scores + i0 * L::lanes;
    const void *kernel = kernel_by_rows<L>(ql->R, ql->form, a.stage != 0);
    const size_t smem = a.stage ? ql->profile_bytes : 0;
    pw_status st = PW_OK;
    int per_sm = 0;
    if (smem > 48 * 1024)
        PW_THEN(st, pw_from_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BATCH_THREADS, smem)));
    if (st != PW_OK) return st;
    if (per_sm < 1) return PW_ERR_UNSUPPORTED;
    const int64_t blocks_needed = (a.items + BATCH_THREADS / 32 - 1) / (BATCH_THREADS / 32);
    int64_t grid = (int64_t)ql->sms * per_sm;
    if (grid > blocks_needed) grid = blocks_needed;
    if (grid * (BATCH_THREADS / 32) > bottom_warps) return PW_ERR_INTERNAL; /* a warp without its bottom row */
    void *params[] = {&a};
    PW_THEN(st, pw_from_cuda(cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(BATCH_THREADS), params, smem, ql->stream)));
    PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(host, a.scores, sizeof(int32_t) * (size_t)(a.items * L::lanes),
                                             cudaMemcpyDeviceToHost, ql->stream)));
    return st;
}

/* The best score of query q against sorted record r by the single-pair engine. */
static pw_status single_pair(const pw_options *options, const sw_batch_query *q, const sw_batch_db *db, int64_t r,
                             const pw_score_table *t, int32_t go, int32_t ge, int32_t *score)
{
    pw_plan plan;
    pw_status st = pw_plan_make_app(options, q->n, db->length[r], 0, PW_LINEAR_CUDA_TILE_H, &plan);
    if (st != PW_OK) return st;
    if (plan.backend != PW_BACKEND_CUDA) return PW_ERR_INTERNAL;
    pw_run_info info;
    int64_t ea, eb;
    return pw_cuda_sw(&plan, q->codes, q->n, db->codes + db->at[r], db->length[r], t->scores, t->size, go, ge, score,
                      &ea, &eb, &info);
}

/* Queries in flight at once: query q + 1's kernel is launched before query q's scores are
 * taken, on a stream of its own, so that its warps fill the SMs that q's last round of items
 * leaves idle (on an H200 4000 items of one length took 62.9 ms where 3000 took 39.9: the
 * second round ran 832 of the 3168 warps the GPU holds; HDSS's blocks end in such a round for
 * each query), and the host's work on q's scores (10^6 of them: ~3 ms) hides behind q + 1's
 * kernel. */
#define LAUNCH_SLOTS 2

/* One query in flight: its launch (its own stream and bottom rows), its scores on the device
 * and where they are copied out (pinned, so that the copy does not hold the host). */
struct launch_slot {
    query_launch ql;
    pw_device_buffer<int32_t> *scores = nullptr;
    int32_t *host = nullptr;
    bool pinned = false, own_stream = false;
    int64_t q = -1; /* the query it holds, -1 none */
    cudaEvent_t debug_events[2];
    bool debug = false;
};

/* A search's GPU side (batch_sw.h). */
struct pw_cuda_batch {
    pw_options options;
    const sw_batch_db *db;
    const pw_score_table *t;
    int32_t go, ge;
    const sw_batch_query *queries;
    int64_t nq;
    bool narrow;
    int64_t first;            /* records before it: too long for the kernels */
    int64_t *list, *flagged;  /* the kernels' records (first .. count), and a query's flagged ones */
    query_form *forms;  /* a query each */
    bool profiles_kept; /* every query's profile on the device from the start (else one at a time) */
    uint32_t *profile;  /* (one at a time: the host side of the one in d_profile) */
    query_launch ql; /* (what every query's launch shares; each slot takes a copy) */
    launch_slot slots[LAUNCH_SLOTS];
    int n_slots; /* 2, or 1 where the profiles are made one at a time or there is no room */
    /* PEERWAVE_DEBUG_BATCH_GPU=1: each launch's kernel and host time on stderr (a measuring
     * switch: how much of a block's time its launches spend outside the kernel) */
    bool debug;
    double debug_since;
    int64_t bottom_warps;
    device_items *items;
    pw_device_buffer<uint32_t> *d_profile, *d_bottom;
};


/* One launch's kernel time (events around it and its copy-out, which the caller has waited
 * for) and the host time since the last launch's scores were taken. */
static void debug_launch(pw_cuda_batch *b, launch_slot *slot, int64_t r0, int64_t r1, int64_t items)
{
    float ms = 0;
    if (!slot->debug) return;
    cudaEventSynchronize(slot->debug_events[1]);
    cudaEventElapsedTime(&ms, slot->debug_events[0], slot->debug_events[1]);
    const double now = pw_seconds_now();
    fprintf(stderr, "batch gpu records %lld..%lld query %lld: %lld items, kernel and copy %.3f ms, since the last %.3f ms\n",
            (long long)r0, (long long)r1, (long long)slot->q, (long long)items, ms, 1e3 * (now - b->debug_since));
    b->debug_since = now;
}

/* A slot's stream (its own where two take turns), scores buffer, pinned host buffer (plain memory
 * where pinning fails: the copy-out then holds the host, and the next query's launch waits) and
 * debug events; its bottom rows at `bottom`. */
static pw_status make_slot(pw_cuda_batch *b, launch_slot *slot, bool own_stream, uint32_t *bottom)
{
    slot->ql = b->ql;
    pw_status st = PW_OK;
    if (own_stream) {
        st = pw_from_cuda(cudaStreamCreateWithFlags(&slot->ql.stream, cudaStreamNonBlocking));
        slot->own_stream = st == PW_OK;
        if (st != PW_OK) slot->ql.stream = b->ql.stream;
    }
    slot->ql.args.bottom = bottom;
    slot->scores = new pw_device_buffer<int32_t>(slot->ql.stream);
    PW_THEN(st, slot->scores->alloc((size_t)(b->items->count * b->items->lanes)));
    const size_t host_bytes = sizeof(int32_t) * (size_t)(b->items->count * b->items->lanes + 2);
    if (st == PW_OK) {
        slot->pinned = cudaMallocHost((void **)&slot->host, host_bytes) == cudaSuccess;
        if (!slot->pinned) cudaGetLastError(), slot->host = (int32_t *)malloc(host_bytes);
        if (!slot->host) st = PW_ERR_OUT_OF_MEMORY;
    }
    if (st == PW_OK && b->debug && cudaEventCreate(&slot->debug_events[0]) == cudaSuccess) {
        if (cudaEventCreate(&slot->debug_events[1]) == cudaSuccess) slot->debug = true;
        else cudaEventDestroy(slot->debug_events[0]);
    }
    return st;
}

/* What make_slot made (after its stream's work is done: the buffers go first, then the stream). */
static void free_slot(launch_slot *slot)
{
    if (slot->own_stream) cudaStreamSynchronize(slot->ql.stream);
    delete slot->scores;
    slot->scores = nullptr;
    if (slot->pinned) cudaFreeHost(slot->host);
    else free(slot->host);
    slot->host = nullptr, slot->pinned = false;
    if (slot->debug) cudaEventDestroy(slot->debug_events[0]), cudaEventDestroy(slot->debug_events[1]);
    slot->debug = false;
    if (slot->own_stream) cudaStreamSynchronize(slot->ql.stream), cudaStreamDestroy(slot->ql.stream);
    slot->own_stream = false;
}

/* Waits for every slot's work (before the slots' buffers are reused or freed). */
static pw_status wait_slots(pw_cuda_batch *b)
{
    pw_status st = PW_OK;
    for (int k = 0; k < b->n_slots; k++) {
        const pw_status s = pw_from_cuda(cudaStreamSynchronize(b->slots[k].ql.stream));
        if (st == PW_OK) st = s;
    }
    return st;
}

extern "C" void pw_cuda_batch_destroy(pw_cuda_batch *b)
{
    if (!b) return;
    wait_slots(b);
    cudaGetLastError(); /* (an error already reported by the search) */
    for (int k = 0; k < LAUNCH_SLOTS; k++) free_slot(&b->slots[k]);
    delete b->items;
    delete b->d_profile;
    delete b->d_bottom;
    free(b->list);
    free(b->flagged);
    free(b->forms);
    free(b->profile);
    delete b;
}

extern "C" pw_status pw_cuda_batch_create(const pw_options *options, const sw_batch_db *db, const pw_score_table *t,
                                          int32_t go, int32_t ge, const sw_batch_query *queries, int64_t nq,
                                          pw_cuda_batch **out, int *lane_bits)
{
    *out = nullptr;
    for (int k = 0; k < t->size * t->size; k++)
        if (t->scores[k] < -127 || t->scores[k] > 127) return PW_ERR_UNSUPPORTED; /* the profile's bytes */
    pw_cuda_batch *b = new pw_cuda_batch();
    b->options = *options;
    b->db = db;
    b->t = t;
    b->go = go;
    b->ge = ge;
    b->queries = queries;
    b->nq = nq;
    /* 16-bit halves where every value stays in range (batch_sw_proc.cuh) */
    b->narrow = go + ge <= 8000;
    *lane_bits = b->narrow ? 16 : 32;
    query_launch &ql = b->ql;
    memset(&ql.args, 0, sizeof ql.args);
    /* PEERWAVE_BATCH_FORM=short: that form of the cell (a measuring switch, read here only; it
     * needs gap_open >= gap_extend) */
    const char *form = getenv("PEERWAVE_BATCH_FORM");
    ql.form = form && !strcmp(form, "short") && go >= ge ? PW_BATCH_FORM_SHORT : PW_BATCH_FORM_SHARED;
    ql.device = options->device;
    ql.stream = (cudaStream_t)options->cuda_stream;
    pw_status st = pw_from_cuda(cudaSetDevice(options->device));
    const char *debug = getenv("PEERWAVE_DEBUG_BATCH_GPU");
    b->debug = st == PW_OK && debug && !strcmp(debug, "1");
    b->debug_since = pw_seconds_now();
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&ql.max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, ql.device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&ql.sms, cudaDevAttrMultiProcessorCount, ql.device)));
    while (b->first < db->count && db->length[b->first] > PW_BATCH_GPU_MAX_COLUMNS) b->first++;
    const int64_t n_items = db->count - b->first;
    b->list = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_items + 1));
    b->flagged = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_items + 1));
    /* The queries' profiles: made and uploaded once for every block when together they take at
     * most PROFILES_KEPT_BYTES (a block's launches then wait for no host work: made before each
     * query's launch, a block of 2000 items of five queries waited about a millisecond), else one
     * at a time before each launch. */
    b->forms = (query_form *)malloc(sizeof(query_form) * (size_t)(nq + 1));
    int64_t all_words = 0, most_words = 1;
    for (int64_t q = 0; b->forms && q < nq; q++) {
        b->forms[q] = form_of(queries[q].n, t->size);
        b->forms[q].offset = all_words;
        all_words += b->forms[q].profile_words;
        most_words = b->forms[q].profile_words > most_words ? b->forms[q].profile_words : most_words;
    }
    /* PEERWAVE_BATCH_PROFILES=each: one at a time whatever their size (a measuring and testing
     * switch, read here only) */
    const char *each = getenv("PEERWAVE_BATCH_PROFILES");
    b->profiles_kept = all_words <= PROFILES_KEPT_BYTES / (int64_t)sizeof(uint32_t) && !(each && !strcmp(each, "each"));
    const int64_t profile_words = b->profiles_kept ? all_words : most_words;
    b->profile = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(profile_words + 1));
    if (b->profile) b->profile[profile_words] = 0; /* (a word past the last: never a zero-sized buffer) */
    if (st == PW_OK && (!b->list || !b->flagged || !b->forms || !b->profile)) st = PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; st == PW_OK && i < n_items; i++) b->list[i] = b->first + i;
    b->items = new device_items(b->narrow ? 2 : 1, ql.stream);
    b->d_profile = new pw_device_buffer<uint32_t>(ql.stream);
    b->d_bottom = new pw_device_buffer<uint32_t>(ql.stream);
    /* the bottom rows (queries of several segments): one per warp an SM can hold (2048
     * threads), each as long as the longest item */
    b->bottom_warps = (int64_t)ql.sms * (2048 / 32);
    if (n_items > 0) {
        PW_THEN(st, b->items->upload(db, b->list, n_items, false));
        if (st == PW_OK && b->profiles_kept) {
            for (int64_t q = 0; q < nq; q++) make_profile(&queries[q], t, b->forms[q], b->profile + b->forms[q].offset);
            st = b->d_profile->upload(b->profile, (size_t)profile_words + 1);
            PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(ql.stream))); /* (the upload reads b->profile) */
            free(b->profile); /* (kept on the device: the host copy is not needed again) */
            b->profile = nullptr;
            if (st == PW_ERR_OUT_OF_MEMORY) { /* (no room for them all: one at a time after all) */
                b->profiles_kept = false;
                b->profile = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(most_words + 1));
                st = b->profile ? PW_OK : PW_ERR_OUT_OF_MEMORY;
            }
        }
        if (st == PW_OK && !b->profiles_kept) PW_THEN(st, b->d_profile->alloc((size_t)most_words + 1));
        bool segmented = false; /* (at the R each query will get: PEERWAVE_BATCH_ROWS may force one) */
        for (int64_t q = 0; st == PW_OK && q < nq; q++) segmented |= b->forms[q].segments > 1;
        /* two queries in flight where the profiles are all on the device (one at a time they share
         * one buffer) and there is room for a second slot's bottom rows; else one */
        const size_t bottom_words = segmented ? (size_t)(b->bottom_warps * 2 * b->items->longest) : 1;
        b->n_slots = b->profiles_kept && nq > 1 ? LAUNCH_SLOTS : 1;
        if (st == PW_OK && b->n_slots > 1 && b->d_bottom->alloc(bottom_words * b->n_slots) != PW_OK) {
            cudaGetLastError(); /* (no room for two: one slot) */
            b->n_slots = 1;
        }
        if (b->n_slots == 1) PW_THEN(st, b->d_bottom->alloc(bottom_words));
        const int wanted = b->n_slots;
        for (int k = 0; st == PW_OK && k < wanted; k++) {
            const pw_status made = make_slot(b, &b->slots[k], wanted > 1, b->d_bottom->ptr + (size_t)k * bottom_words);
            if (made != PW_OK && k > 0) { /* (no room for a second slot's buffers: one slot, as before) */
                free_slot(&b->slots[k]);
                cudaGetLastError();
                b->n_slots = 1;
                break;
            }
            st = made;
        }
        /* (the shared buffers are allocated on the search's stream, the slots' own on theirs) */
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(ql.stream)));
    }
    if (st != PW_OK) {
        pw_cuda_batch_destroy(b);
        return st;
    }
    *out = b;
    return PW_OK;
}

extern "C" int64_t pw_cuda_batch_fill_records(const pw_cuda_batch *b)
{
    return (int64_t)b->ql.sms * 32 * (b->narrow ? 2 : 1);
}

/* Query q's launch over items [i0, i1) on its slot (its form, its profile), not waited for. */
static pw_status launch_query(pw_cuda_batch *b, launch_slot *slot, int64_t q, int64_t i0, int64_t i1)
{
    const query_form &f = b->forms[q];
    query_launch &ql = slot->ql;
    ql.R = f.R;
    pw_batch_sw_args &a = ql.args;
    a.segments = f.segments;
    a.letter_words = f.letter_words;
    a.profile_words = f.profile_words;
    ql.profile_bytes = sizeof(uint32_t) * (size_t)a.profile_words;
    a.stage = ql.profile_bytes <= (size_t)ql.max_smem / 2; /* room for two blocks an SM */
    a.gap_open = b->go;
    a.gap_extend = b->ge;
    a.bottom_stride = b->items->longest;
    a.limit16 = 32767 - (b->t->max_score > 0 ? b->t->max_score : 0);
    a.pad = (uint32_t)b->t->size;
    pw_status st = PW_OK;
    if (b->profiles_kept) {
        a.profile = b->d_profile->ptr + f.offset;
    } else { /* (queries whose profiles together pass PROFILES_KEPT_BYTES: one at a time, one slot) */
        a.profile = b->d_profile->ptr;
        make_profile(&b->queries[q], b->t, f, b->profile);
        PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(b->d_profile->ptr, b->profile, ql.profile_bytes,
                                                 cudaMemcpyHostToDevice, ql.stream)));
    }
    slot->q = q;
    if (slot->debug) cudaEventRecord(slot->debug_events[0], ql.stream);
    if (st == PW_OK)
        st = b->narrow ? launch_items<pw_batch_lanes16x2>(&ql, b->items, i0, i1, slot->scores->ptr, slot->host, b->bottom_warps)
                       : launch_items<pw_batch_lanes32>(&ql, b->items, i0, i1, slot->scores->ptr, slot->host, b->bottom_warps);
    if (slot->debug) cudaEventRecord(slot->debug_events[1], ql.stream);
    return st;
}

/* The slot's query's scores, once its stream is done: records k0 .. k1 of the kernels' list
 * into out, those whose 16 bits may have wrapped scored again by the 32-bit kernel. */
static pw_status take_query(pw_cuda_batch *b, launch_slot *slot, int64_t r0, int64_t r1, int64_t k0, int64_t k1,
                            int32_t *out, int64_t *recomputed)
{
    const int64_t i0 = k0 / b->items->lanes;
    pw_status st = pw_from_cuda(cudaStreamSynchronize(slot->ql.stream));
    if (st == PW_OK && b->debug) debug_launch(b, slot, r0, r1, (k1 + b->items->lanes - 1) / b->items->lanes - i0);
    int64_t n_flagged = 0;
    for (int64_t k = k0; st == PW_OK && k < k1; k++) {
        const int32_t v = slot->host[k - i0 * b->items->lanes];
        out[b->list[k]] = v;
        if (v < 0) b->flagged[n_flagged++] = b->list[k]; /* 16 bits may have wrapped */
    }
    if (st == PW_OK && n_flagged > 0) { /* those again with 32-bit cells, on the slot's stream */
        device_items wide(1, slot->ql.stream);
        PW_THEN(st, wide.upload(b->db, b->flagged, n_flagged));
        PW_THEN(st, launch_items<pw_batch_lanes32>(&slot->ql, &wide, 0, wide.count, wide.scores.ptr, slot->host,
                                                   b->bottom_warps));
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(slot->ql.stream)));
        for (int64_t i = 0; st == PW_OK && i < n_flagged; i++) out[b->flagged[i]] = slot->host[i];
        *recomputed += n_flagged;
    }
    slot->q = -1;
    return st;
}

/* Sorted records [r0, r1) against every query: the kernels' items that hold them (a pair may
 * hold one record outside: computed, not copied out), flagged ones again wider, long ones by the
 * single-pair engine.  With two slots query q is launched once query q - 2's scores are taken, so
 * q - 1 runs meanwhile; with one, launch and take alternate. */
extern "C" pw_status pw_cuda_batch_score(pw_cuda_batch *b, int64_t r0, int64_t r1, int32_t *scores, int64_t *recomputed,
                                         int64_t *long_pairs, pw_batch_progress *progress)
{
    const sw_batch_db *db = b->db;
    const int lanes = b->items->lanes;
    /* the kernels' part: items [i0, i1) */
    const int64_t k0 = (r0 > b->first ? r0 : b->first) - b->first, k1 = (r1 > b->first ? r1 : b->first) - b->first;
    const int64_t i0 = k0 / lanes, i1 = (k1 + lanes - 1) / lanes;
    pw_status st = pw_from_cuda(cudaSetDevice(b->ql.device));
    /* the kernels' queries, n_slots in flight: query q goes to slot q % n_slots once that slot's
     * query (q - n_slots) is taken, so the host takes one query's scores while the next ones run */
    for (int64_t q = 0; st == PW_OK && i1 > i0 && q < b->nq + b->n_slots; q++) {
        launch_slot *slot = &b->slots[q % b->n_slots];
        if (slot->q >= 0) {
            const int64_t done = slot->q;
            st = take_query(b, slot, r0, r1, k0, k1, scores + done * db->count, recomputed);
            if (st == PW_OK && r0 >= b->first) pw_batch_progress_add(progress, b->queries[done].n * (db->at[r1] - db->at[r0]));
        }
        if (st == PW_OK && q < b->nq)
            st = pw_batch_progress_stopped(progress) ? PW_ERR_CANCELLED /* between queries */
                                                     : launch_query(b, slot, q, i0, i1);
    }
    if (st != PW_OK) { /* (nothing of this call still running when it returns) */
        wait_slots(b);
        for (int k = 0; k < b->n_slots; k++) b->slots[k].q = -1;
        return st;
    }
    /* records too long for the kernels: the single-pair engine, a query at a time */
    for (int64_t q = 0; st == PW_OK && q < b->nq && r0 < b->first; q++) {
        if (pw_batch_progress_stopped(progress)) return PW_ERR_CANCELLED;
        for (int64_t r = r0; st == PW_OK && r < r1 && r < b->first; r++) {
            st = single_pair(&b->options, &b->queries[q], db, r, b->t, b->go, b->ge, &scores[q * db->count + r]);
            (*long_pairs)++;
        }
        if (st == PW_OK) pw_batch_progress_add(progress, b->queries[q].n * (db->at[r1] - db->at[r0]));
    }
    return st;
}
