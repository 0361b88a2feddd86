/* sw_batch_cpu.c - the CPU engine of the database search: groups of records of similar length,
 * one record a 16-bit vector lane (sw_batch_lanes.h), over all cores. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sw_batch.h"
#include "sw_batch_lanes.h"
#include "../core/alloc.h"
#include "../cpu/simd/simd_isa.h"
#include "../cpu/team.h"

sw_batch_lanes_fn pw_sw_batch_lanes_kernel(pw_simd simd)
{
#if defined(PW_HAVE_X86_SIMD)
    if (!pw_simd_supported(simd)) return NULL;
    switch (simd) {
    case PW_SIMD_SSE41: return pw_sw_batch_lanes_sse41;
    case PW_SIMD_AVX2: return pw_sw_batch_lanes_avx2;
    case PW_SIMD_AVX512: return pw_sw_batch_lanes_avx512;
    default: return NULL;
    }
#else
    (void)simd;
    return NULL;
#endif
}

int pw_sw_batch_fits16(const pw_score_table *table, int32_t gap_open, int32_t gap_extend)
{
    if (gap_open > 32767 || gap_extend > 32767) return 0;
    for (int k = 0; k < table->size * table->size; k++)
        if (table->scores[k] > 32767 || table->scores[k] < -32767) return 0;
    return 1;
}

pw_status pw_sw_batch_groups_make(const sw_batch_db *db, const int64_t *records, int64_t count, int lanes,
                                  int64_t col_multiple, uint8_t pad, lane_groups *g)
{
    g->count = (count + lanes - 1) / lanes;
    g->at = pw_malloc(sizeof *g->at * (size_t)(g->count + 1));
    if (!g->at) return PW_ERR_OUT_OF_MEMORY;
    g->at[0] = 0;
    for (int64_t k = 0; k < g->count; k++) { /* a group's columns: its longest record's, the first */
        const int64_t cols = (db->length[records[k * lanes]] + col_multiple - 1) / col_multiple * col_multiple;
        g->at[k + 1] = g->at[k] + cols * lanes;
    }
    g->cols = pw_malloc((size_t)g->at[g->count] + 1);
    if (!g->cols) return PW_ERR_OUT_OF_MEMORY;
    memset(g->cols, pad, (size_t)g->at[g->count] + 1);
    for (int64_t k = 0; k < count; k++) {
        const int64_t r = records[k];
        uint8_t *col = g->cols + g->at[k / lanes] + k % lanes;
        const uint8_t *codes = db->codes + db->at[r];
        for (int64_t j = 0; j < db->length[r]; j++) col[j * lanes] = codes[j];
    }
    return PW_OK;
}

void pw_sw_batch_groups_free(lane_groups *g)
{
    free(g->at);
    free(g->cols);
}

typedef struct cpu_work {
    const sw_batch_cpu_run *run;
    const sw_batch_query *queries;
    int64_t nq;
    int32_t *scores;
    lane_groups groups;
    int lanes;
    sw_batch_lanes_fn kernel;
    int16_t table16[PW_SCORING_MAX_ALPHABET * PW_BATCH_TABLE_COLS];
    int8_t table8[PW_SCORING_MAX_ALPHABET * 32];
    int use_table8;
    uint8_t pad; /* the padding code */
    int64_t max_n;
    atomic_llong next;      /* the next (query, group) item */
    atomic_llong recomputed;
    atomic_int failed;      /* out of memory in a worker, or cancelled */
} cpu_work;

/* Score item t: query t / groups against group t % groups, and every saturated lane again. */
static void score_item(cpu_work *w, int64_t t, sw_batch_lanes *job, int32_t *work32, int64_t *recomputed)
{
    const sw_batch_cpu_run *run = w->run;
    const sw_batch_db *db = run->db;
    const int64_t q = t / w->groups.count, g = t % w->groups.count;
    int32_t *out = w->scores + q * db->count;
    const sw_batch_query *query = &w->queries[q];
    int16_t best[PW_BATCH_MAX_LANES];
    if (w->kernel) {
        job->query = query->codes;
        job->n = query->n;
        job->cols = w->groups.cols + w->groups.at[g];
        job->columns = (w->groups.at[g + 1] - w->groups.at[g]) / w->lanes;
        job->best = best;
        w->kernel(job);
    }
    for (int l = 0; l < w->lanes; l++) {
        const int64_t r = g * w->lanes + l;
        if (r >= db->count) break;
        if (w->kernel && best[l] < PW_BATCH_SATURATED) {
            out[r] = best[l];
            continue;
        }
        if (w->kernel) (*recomputed)++;
        out[r] = pw_sw_batch_score32(query->codes, query->n, db->codes + db->at[r], db->length[r], run->table,
                                     run->gap_open, run->gap_extend, work32);
    }
}

static void cpu_worker(void *arg, int worker, int team_size)
{
    (void)worker;
    (void)team_size;
    cpu_work *w = arg;
    const int64_t items = w->nq * w->groups.count;
    int16_t *scratch =
        pw_malloc(sizeof(int16_t) * (size_t)((2 * w->max_n + PW_BATCH_STRIP * PW_SCORING_MAX_ALPHABET) * w->lanes));
    int32_t *work32 = pw_malloc(sizeof(int32_t) * 2 * (size_t)w->max_n);
    if (!scratch || !work32) {
        atomic_store(&w->failed, PW_ERR_OUT_OF_MEMORY);
        free(scratch);
        free(work32);
        return;
    }
    sw_batch_lanes job = {.table = w->table16,
                          .table8 = w->use_table8 ? w->table8 : NULL,
                          .alphabet = w->run->table->size,
                          .gap_open = (int16_t)w->run->gap_open,
                          .gap_extend = (int16_t)w->run->gap_extend,
                          .h = scratch,
                          .e = scratch + w->max_n * w->lanes,
                          .profile = scratch + 2 * w->max_n * w->lanes};
    int64_t recomputed = 0, t;
    while (!atomic_load_explicit(&w->failed, memory_order_relaxed) && (t = atomic_fetch_add(&w->next, 1)) < items) {
        if (w->run->cancel && *w->run->cancel) {
            atomic_store(&w->failed, PW_ERR_CANCELLED);
            break;
        }
        score_item(w, t, &job, work32, &recomputed);
    }
    atomic_fetch_add(&w->recomputed, recomputed);
    free(scratch);
    free(work32);
}

pw_status pw_sw_batch_cpu_score(const sw_batch_cpu_run *run, const sw_batch_query *queries, int64_t nq,
                                int32_t *scores, int64_t *recomputed)
{
    cpu_work *w = pw_malloc(sizeof *w);
    if (!w) return PW_ERR_OUT_OF_MEMORY;
    memset(w, 0, sizeof *w);
    w->run = run;
    w->queries = queries;
    w->nq = nq;
    w->scores = scores;
    w->kernel = pw_sw_batch_fits16(run->table, run->gap_open, run->gap_extend) ? pw_sw_batch_lanes_kernel(run->simd)
                                                                                : NULL;
    w->lanes = w->kernel ? pw_simd_lanes16(run->simd) : 1;
    for (int x = 0; x < run->table->size; x++)
        for (int c = 0; c < PW_BATCH_TABLE_COLS; c++)
            w->table16[x * PW_BATCH_TABLE_COLS + c] =
                (int16_t)(c < run->table->size ? run->table->scores[x * run->table->size + c] : -32768);
    /* byte tables (the narrower sets' shuffles) where every score fits a byte and code 31 is free */
    const int A = run->table->size;
    w->use_table8 = A < 32;
    for (int k = 0; k < A * A; k++)
        if (run->table->scores[k] < -128 || run->table->scores[k] > 127) w->use_table8 = 0;
    for (int x = 0; x < A; x++)
        for (int c = 0; c < 32; c++) w->table8[x * 32 + c] = (int8_t)(c < A && w->use_table8 ? run->table->scores[x * A + c] : -128);
    w->pad = w->use_table8 ? 31 : PW_BATCH_PAD_CODE;
    for (int64_t q = 0; q < nq; q++)
        if (queries[q].n > w->max_n) w->max_n = queries[q].n;
    int64_t *all = pw_malloc(sizeof *all * (size_t)run->db->count);
    pw_status st = all ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    for (int64_t r = 0; st == PW_OK && r < run->db->count; r++) all[r] = r;
    if (st == PW_OK)
        st = pw_sw_batch_groups_make(run->db, all, run->db->count, w->lanes, w->kernel ? PW_BATCH_STRIP : 1, w->pad,
                                     &w->groups);
    free(all);
    if (st == PW_OK) {
        atomic_init(&w->next, 0);
        atomic_init(&w->recomputed, 0);
        atomic_init(&w->failed, 0);
        int used;
        pw_team_run(run->threads, cpu_worker, w, &used);
        st = (pw_status)atomic_load(&w->failed);
        *recomputed += atomic_load(&w->recomputed);
    }
    pw_sw_batch_groups_free(&w->groups);
    free(w);
    return st;
}
