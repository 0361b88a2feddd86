/* batch_sw.cu - the host side of the GPU database search: the records' columns uploaded once, a
 * profile and one launch a query; pairs whose 16-bit lanes may have wrapped are scored again by
 * the 32-bit kernel, records too long for a warp by the single-pair engine (pw_cuda_sw). */
#include <stdlib.h>
#include <string.h>

#include "batch_sw.h"
#include "../../apps/checks.h" /* PW_LINEAR_CUDA_TILE_H */
#include "device/batch_sw_proc.cuh"
#include "device_buffer.cuh"
#include "pw_cuda.h"

#define BATCH_THREADS 256 /* 8 warps a block */

/* R (query rows a thread) for a query of n rows: the fewest padded rows (whole segments of
 * 32 R), the larger R on a tie (fewer segments, less fill). */
static int choose_rows(int64_t n)
{
    static const int choices[] = {16, 12, 8, 4};
    int best = 16;
    int64_t best_rows = INT64_MAX;
    for (int c = 0; c < 4; c++) {
        const int64_t seg = 32 * choices[c], rows = (n + seg - 1) / seg * seg;
        if (rows < best_rows) best = choices[c], best_rows = rows;
    }
    return best;
}

/* The profile of a query (batch_sw_proc.cuh's layout), letters 0 .. alphabet (the last: padding). */
static void make_profile(const sw_batch_query *q, const pw_score_table *t, int R, int segments, uint32_t *words)
{
    const int64_t letter_words = (int64_t)segments * (R / 4) * 32;
    for (int c = 0; c <= t->size; c++)
        for (int g = 0; g < segments; g++)
            for (int w = 0; w < R / 4; w++)
                for (int k = 0; k < 32; k++) {
                    uint32_t word = 0;
                    for (int b = 0; b < 4; b++) {
                        const int64_t row = (int64_t)g * 32 * R + k * R + 4 * w + b;
                        const int s = c < t->size && row < q->n ? t->scores[q->codes[row] * t->size + c] : -128;
                        word |= (uint32_t)(uint8_t)(int8_t)s << (8 * b);
                    }
                    words[c * letter_words + ((int64_t)g * (R / 4) + w) * 32 + k] = word;
                }
}

template <class L, int R>
static const void *kernel_for() { return (const void *)pw_batch_sw_kernel<L, R>; }

template <class L>
static const void *kernel_by_rows(int R)
{
    switch (R) {
    case 4: return kernel_for<L, 4>();
    case 8: return kernel_for<L, 8>();
    case 12: return kernel_for<L, 12>();
    default: return kernel_for<L, 16>();
    }
}

/* A list of records on the device as the kernel's items (groups of `lanes`, longest first). */
struct device_items {
    int lanes;
    int64_t count = 0;
    int32_t longest = 0;
    const int64_t *records = nullptr; /* host: sorted places, lanes an item */
    int64_t record_count = 0;
    pw_device_buffer<uint8_t> cols;
    pw_device_buffer<int64_t> col_at;
    pw_device_buffer<int32_t> columns, scores;
    device_items(int l, cudaStream_t s) : lanes(l), cols(s), col_at(s), columns(s), scores(s) {}

    pw_status upload(const sw_batch_db *db, const int64_t *list, int64_t n, uint8_t pad)
    {
        records = list;
        record_count = n;
        lane_groups g = {0, NULL, NULL};
        pw_status st = pw_sw_batch_groups_make(db, list, n, lanes, 1, pad, &g);
        count = g.count;
        int32_t *ncol = (int32_t *)malloc(sizeof(int32_t) * (size_t)(count + 1));
        if (st == PW_OK && !ncol) st = PW_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; st == PW_OK && i < count; i++) ncol[i] = (int32_t)((g.at[i + 1] - g.at[i]) / lanes);
        if (st == PW_OK && count > 0) longest = ncol[0];
        PW_THEN(st, cols.upload(g.cols, (size_t)g.at[count] + 1));
        PW_THEN(st, col_at.upload(g.at, (size_t)count + 1));
        PW_THEN(st, columns.upload(ncol, (size_t)count + 1));
        PW_THEN(st, scores.alloc((size_t)(count * lanes)));
        /* the uploads read host memory until they are done */
        PW_THEN(st, pw_from_cuda(cudaStreamSynchronize(cols.stream)));
        pw_sw_batch_groups_free(&g);
        free(ncol);
        return st;
    }
};

/* What every launch of one query shares. */
struct query_launch {
    pw_batch_sw_args args;
    int R;
    size_t profile_bytes;
    int device, max_smem, sms;
    cudaStream_t stream;
};

/* The items against the query: their scores into host[0 .. items.count * lanes). */
template <class L>
static pw_status score_items(query_launch *ql, device_items *items, int32_t *host, int64_t bottom_warps)
{
    pw_batch_sw_args a = ql->args;
    a.cols = items->cols.ptr;
    a.col_at = items->col_at.ptr;
    a.columns = items->columns.ptr;
    a.items = items->count;
    a.scores = items->scores.ptr;
    const void *kernel = kernel_by_rows<L>(ql->R);
    const size_t smem = a.stage ? ql->profile_bytes : 0;
    pw_status st = PW_OK;
    int per_sm = 0;
    if (smem > 48 * 1024)
        PW_THEN(st, pw_from_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)));
    PW_THEN(st, pw_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BATCH_THREADS, smem)));
    if (st != PW_OK) return st;
    if (per_sm < 1) return PW_ERR_UNSUPPORTED;
    const int64_t blocks_needed = (items->count + BATCH_THREADS / 32 - 1) / (BATCH_THREADS / 32);
    int64_t grid = (int64_t)ql->sms * per_sm;
    if (grid > blocks_needed) grid = blocks_needed;
    if (grid * (BATCH_THREADS / 32) > bottom_warps) return PW_ERR_INTERNAL; /* a warp without its bottom row */
    void *params[] = {&a};
    PW_THEN(st, pw_from_cuda(cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3(BATCH_THREADS), params, smem, ql->stream)));
    PW_THEN(st, items->scores.download(host, (size_t)(items->count * L::lanes)));
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

extern "C" pw_status pw_cuda_sw_batch(const pw_options *options, const sw_batch_db *db, const pw_score_table *t,
                                      int32_t go, int32_t ge, const sw_batch_query *queries, int64_t nq,
                                      int32_t *scores, pw_batch_info *info)
{
    for (int k = 0; k < t->size * t->size; k++)
        if (t->scores[k] < -127 || t->scores[k] > 127) return PW_ERR_UNSUPPORTED; /* the profile's bytes */
    /* 16-bit halves where every value stays in range (batch_sw_proc.cuh) */
    const bool narrow = go + ge <= 8000;
    info->lane_bits = narrow ? 16 : 32;
    query_launch ql;
    memset(&ql.args, 0, sizeof ql.args);
    ql.device = options->device;
    ql.stream = (cudaStream_t)options->cuda_stream;
    pw_status st = pw_from_cuda(cudaSetDevice(options->device));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&ql.max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, ql.device)));
    PW_THEN(st, pw_from_cuda(cudaDeviceGetAttribute(&ql.sms, cudaDevAttrMultiProcessorCount, ql.device)));
    if (st != PW_OK) return st;
    /* the longest records (sorted first) go to the single-pair engine, the rest to the kernels */
    int64_t first = 0;
    while (first < db->count && db->length[first] > PW_BATCH_GPU_MAX_COLUMNS) first++;
    const int64_t n_items = db->count - first;
    int64_t *list = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_items + 1));
    int64_t *flagged = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_items + 1));
    int32_t *item_scores = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n_items + 2));
    int64_t longest_q = 1;
    for (int64_t q = 0; q < nq; q++) longest_q = queries[q].n > longest_q ? queries[q].n : longest_q;
    const int64_t max_profile_words = (int64_t)(t->size + 1) * ((longest_q + 127) / 128 * 128 + 512) / 4;
    uint32_t *profile = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)max_profile_words);
    if (!list || !flagged || !item_scores || !profile) st = PW_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; st == PW_OK && i < n_items; i++) list[i] = first + i;
    {
        device_items items(narrow ? 2 : 1, ql.stream);
        pw_device_buffer<uint32_t> d_profile(ql.stream), d_bottom(ql.stream);
        /* the bottom rows (queries of several segments): one per warp an SM can hold (2048
         * threads), each as long as the longest item */
        const int64_t bottom_warps = (int64_t)ql.sms * (2048 / 32);
        if (n_items > 0) {
            PW_THEN(st, items.upload(db, list, n_items, (uint8_t)t->size));
            PW_THEN(st, d_profile.alloc((size_t)max_profile_words));
            const bool segmented = longest_q > 32 * 16;
            PW_THEN(st, d_bottom.alloc(segmented ? (size_t)(bottom_warps * 2 * items.longest) : 1));
        }
        for (int64_t q = 0; st == PW_OK && q < nq; q++) {
            int32_t *out = scores + q * db->count;
            if (n_items > 0) {
                ql.R = choose_rows(queries[q].n);
                pw_batch_sw_args &a = ql.args;
                a.segments = (int)((queries[q].n + 32 * ql.R - 1) / (32 * ql.R));
                a.letter_words = (int64_t)a.segments * (ql.R / 4) * 32;
                a.profile_words = a.letter_words * (t->size + 1);
                ql.profile_bytes = sizeof(uint32_t) * (size_t)a.profile_words;
                a.stage = ql.profile_bytes <= (size_t)ql.max_smem / 2; /* room for two blocks an SM */
                a.profile = d_profile.ptr;
                a.gap_open = go;
                a.gap_extend = ge;
                a.bottom = d_bottom.ptr;
                a.bottom_stride = items.longest;
                a.limit16 = 32767 - (t->max_score > 0 ? t->max_score : 0);
                make_profile(&queries[q], t, ql.R, a.segments, profile);
                PW_THEN(st, pw_from_cuda(cudaMemcpyAsync(d_profile.ptr, profile, ql.profile_bytes, cudaMemcpyHostToDevice,
                                                         ql.stream)));
                if (st == PW_OK) {
                    st = narrow ? score_items<pw_batch_lanes16x2>(&ql, &items, item_scores, bottom_warps)
                                : score_items<pw_batch_lanes32>(&ql, &items, item_scores, bottom_warps);
                }
                int64_t n_flagged = 0;
                for (int64_t i = 0; st == PW_OK && i < n_items; i++) { /* (past the last: a pair's empty half) */
                    out[list[i]] = item_scores[i];
                    if (item_scores[i] < 0) flagged[n_flagged++] = list[i]; /* 16 bits may have wrapped */
                }
                if (st == PW_OK && n_flagged > 0) { /* those again with 32-bit cells */
                    device_items wide(1, ql.stream);
                    PW_THEN(st, wide.upload(db, flagged, n_flagged, (uint8_t)t->size));
                    PW_THEN(st, score_items<pw_batch_lanes32>(&ql, &wide, item_scores, bottom_warps));
                    for (int64_t i = 0; st == PW_OK && i < n_flagged; i++) out[flagged[i]] = item_scores[i];
                    info->recomputed += n_flagged;
                }
            }
            for (int64_t r = 0; st == PW_OK && r < first; r++) {
                st = single_pair(options, &queries[q], db, r, t, go, ge, &out[r]);
                info->long_pairs++;
            }
        }
    }
    free(list);
    free(flagged);
    free(item_scores);
    free(profile);
    return st;
}
