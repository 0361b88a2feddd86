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
#include "../core/plan.h" /* pw_cpu_count */

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

typedef struct interleave_work {
    const sw_batch_db *db;
    const int64_t *records;
    int64_t count;
    int lanes;
    uint8_t pad;
    lane_groups *g;
} interleave_work;

/* Worker w of n: every n-th group, padding included. */
static void interleave_groups(void *arg, int worker, int team_size)
{
    const interleave_work *w = arg;
    const lane_groups *g = w->g;
    for (int64_t k = worker; k < g->count; k += team_size) {
        memset(g->cols + g->at[k], w->pad, (size_t)(g->at[k + 1] - g->at[k]));
        for (int l = 0; l < w->lanes && k * w->lanes + l < w->count; l++) {
            const int64_t r = w->records[k * w->lanes + l];
            uint8_t *col = g->cols + g->at[k] + l;
            const uint8_t *codes = w->db->codes + w->db->at[r];
            for (int64_t j = 0; j < w->db->length[r]; j++) col[j * w->lanes] = codes[j];
        }
    }
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
    g->cols[g->at[g->count]] = pad;
    interleave_work w = {db, records, count, lanes, pad, g};
    int used;
    pw_team_run(pw_cpu_count(), interleave_groups, &w, &used); /* a million records: 0.5 s on one core */
    return PW_OK;
}

void pw_sw_batch_groups_free(lane_groups *g)
{
    free(g->at);
    free(g->cols);
}

/* A search's CPU side: the groups made once, then any range of them scored (sw_batch.h). */
struct sw_batch_cpu {
    sw_batch_cpu_run run;
    const sw_batch_query *queries;
    int64_t nq;
    lane_groups groups;
    int lanes;
    sw_batch_lanes_fn kernel;
    int16_t table16[PW_SCORING_MAX_ALPHABET * PW_BATCH_TABLE_COLS];
    int8_t table8[PW_SCORING_MAX_ALPHABET * 32];
    int use_table8;
    uint8_t pad; /* the padding code */
    int64_t max_n;
};

/* One call's work: items (query, group) over the groups [g0, g1), claimed from a counter. */
typedef struct cpu_work {
    const sw_batch_cpu *c;
    int32_t *scores;
    int64_t g0, g1;
    atomic_llong next;
    atomic_llong recomputed;
    atomic_int failed; /* out of memory in a worker, or cancelled */
} cpu_work;

/* Score item t: a query against a group, and every saturated lane again with 32-bit cells. */
static void score_item(const cpu_work *w, int64_t t, sw_batch_lanes *job, int32_t *work32, int64_t *recomputed)
{
    const sw_batch_cpu *c = w->c;
    const sw_batch_db *db = c->run.db;
    const int64_t span = w->g1 - w->g0, q = t / span, g = w->g0 + t % span;
    int32_t *out = w->scores + q * db->count;
    const sw_batch_query *query = &c->queries[q];
    int16_t best[PW_BATCH_MAX_LANES];
    if (c->kernel) {
        job->query = query->codes;
        job->n = query->n;
        job->cols = c->groups.cols + c->groups.at[g];
        job->columns = (c->groups.at[g + 1] - c->groups.at[g]) / c->lanes;
        job->best = best;
        c->kernel(job);
    }
    for (int l = 0; l < c->lanes; l++) {
        const int64_t r = g * c->lanes + l;
        if (r >= db->count) break;
        if (c->kernel && best[l] < PW_BATCH_SATURATED) {
            out[r] = best[l];
            continue;
        }
        if (c->kernel) (*recomputed)++;
        out[r] = pw_sw_batch_score32(query->codes, query->n, db->codes + db->at[r], db->length[r], c->run.table,
                                     c->run.gap_open, c->run.gap_extend, work32);
    }
}

static void cpu_worker(void *arg, int worker, int team_size)
{
    (void)worker;
    (void)team_size;
    cpu_work *w = arg;
    const sw_batch_cpu *c = w->c;
    const int64_t items = c->nq * (w->g1 - w->g0);
    int16_t *scratch =
        pw_malloc(sizeof(int16_t) * (size_t)((2 * c->max_n + PW_BATCH_STRIP * PW_SCORING_MAX_ALPHABET) * c->lanes));
    int32_t *work32 = pw_malloc(sizeof(int32_t) * 2 * (size_t)c->max_n);
    if (!scratch || !work32) {
        atomic_store(&w->failed, PW_ERR_OUT_OF_MEMORY);
        free(scratch);
        free(work32);
        return;
    }
    sw_batch_lanes job = {.table = c->table16,
                          .table8 = c->use_table8 ? c->table8 : NULL,
                          .alphabet = c->run.table->size,
                          .gap_open = (int16_t)c->run.gap_open,
                          .gap_extend = (int16_t)c->run.gap_extend,
                          .h = scratch,
                          .e = scratch + c->max_n * c->lanes,
                          .profile = scratch + 2 * c->max_n * c->lanes};
    int64_t recomputed = 0, t;
    while (!atomic_load_explicit(&w->failed, memory_order_relaxed) && (t = atomic_fetch_add(&w->next, 1)) < items) {
        if (pw_batch_progress_stopped(c->run.progress)) {
            atomic_store(&w->failed, PW_ERR_CANCELLED);
            break;
        }
        score_item(w, t, &job, work32, &recomputed);
        const int64_t span = w->g1 - w->g0, q = t / span, g = w->g0 + t % span; /* the item's cells */
        const sw_batch_db *db = c->run.db;
        int64_t last = (g + 1) * c->lanes;
        last = last < db->count ? last : db->count;
        pw_batch_progress_add(c->run.progress, c->queries[q].n * (db->at[last] - db->at[g * c->lanes]));
    }
    atomic_fetch_add(&w->recomputed, recomputed);
    free(scratch);
    free(work32);
}

pw_status pw_sw_batch_cpu_create(const sw_batch_cpu_run *run, const sw_batch_query *queries, int64_t nq,
                                 sw_batch_cpu **out)
{
    *out = NULL;
    sw_batch_cpu *c = pw_malloc(sizeof *c);
    if (!c) return PW_ERR_OUT_OF_MEMORY;
    memset(c, 0, sizeof *c);
    c->run = *run;
    c->queries = queries;
    c->nq = nq;
    c->kernel = pw_sw_batch_fits16(run->table, run->gap_open, run->gap_extend) ? pw_sw_batch_lanes_kernel(run->simd)
                                                                                : NULL;
    c->lanes = c->kernel ? pw_simd_lanes16(run->simd) : 1;
    for (int x = 0; x < run->table->size; x++)
        for (int k = 0; k < PW_BATCH_TABLE_COLS; k++)
            c->table16[x * PW_BATCH_TABLE_COLS + k] =
                (int16_t)(k < run->table->size ? run->table->scores[x * run->table->size + k] : -32768);
    /* byte tables (the narrower sets' shuffles) where every score fits a byte and code 31 is free */
    const int A = run->table->size;
    c->use_table8 = A < 32;
    for (int k = 0; k < A * A; k++)
        if (run->table->scores[k] < -128 || run->table->scores[k] > 127) c->use_table8 = 0;
    for (int x = 0; x < A; x++)
        for (int k = 0; k < 32; k++) c->table8[x * 32 + k] = (int8_t)(k < A && c->use_table8 ? run->table->scores[x * A + k] : -128);
    c->pad = c->use_table8 ? 31 : PW_BATCH_PAD_CODE;
    for (int64_t q = 0; q < nq; q++)
        if (queries[q].n > c->max_n) c->max_n = queries[q].n;
    int64_t *all = pw_malloc(sizeof *all * (size_t)run->db->count);
    pw_status st = all ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    for (int64_t r = 0; st == PW_OK && r < run->db->count; r++) all[r] = r;
    if (st == PW_OK)
        st = pw_sw_batch_groups_make(run->db, all, run->db->count, c->lanes, c->kernel ? PW_BATCH_STRIP : 1, c->pad,
                                     &c->groups);
    free(all);
    if (st != PW_OK) {
        pw_sw_batch_cpu_destroy(c);
        return st;
    }
    *out = c;
    return PW_OK;
}

int pw_sw_batch_cpu_lanes(const sw_batch_cpu *c) { return c->lanes; }

pw_status pw_sw_batch_cpu_score(sw_batch_cpu *c, int64_t r0, int64_t r1, int threads, int32_t *scores,
                                int64_t *recomputed)
{
    if (r0 % c->lanes) return PW_ERR_INTERNAL; /* ranges start at a group */
    cpu_work w = {.c = c, .scores = scores, .g0 = r0 / c->lanes, .g1 = (r1 + c->lanes - 1) / c->lanes};
    if (w.g1 <= w.g0) return PW_OK;
    atomic_init(&w.next, 0);
    atomic_init(&w.recomputed, 0);
    atomic_init(&w.failed, 0);
    int used;
    pw_team_run(threads, cpu_worker, &w, &used);
    *recomputed += atomic_load(&w.recomputed);
    return (pw_status)atomic_load(&w.failed);
}

void pw_sw_batch_cpu_destroy(sw_batch_cpu *c)
{
    if (!c) return;
    pw_sw_batch_groups_free(&c->groups);
    free(c);
}
