/* sw_batch.c - pw_sw_search and pw_sw_pairs: checks, encoding, the engines, the best hits of each
 * query and their end cells (peerwave_batch.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw_batch.h"
#include "pair_options.h"
#include "../../apps/checks.h" /* pw_sw_check */
#include "sw_batch_lanes.h"
#include "top_k.h"
#include "sw_pairs_cpu.h"
#include "../core/alloc.h"
#include "../core/plan.h"
#include "../core/status_detail.h"
#include "../cpu/simd/simd_isa.h"
#include "../cpu/team.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pairs_sw.h"
#endif

#define PW_ENCODE_MAX_THREADS 64 /* pw_sw_batch_encode_list (encoding is memory-bound well before this) */


static int by_length_desc(const void *x, const void *y, void *len)
{
    const int64_t *l = len, a = *(const int64_t *)x, b = *(const int64_t *)y;
    if (l[a] != l[b]) return l[a] > l[b] ? -1 : 1;
    return a < b ? -1 : a > b; /* stable: equal lengths keep their order */
}

static pw_status check_set(const pw_seq_set *set, const char *what)
{
    if (!set || (set->count > 0 && (!set->seq || !set->length))) return PW_ERR_NULL_ARGUMENT;
    if (set->count < 1) {
        pw_set_error_detail("the %s set is empty", what);
        return PW_ERR_INVALID_SIZE;
    }
    for (int64_t k = 0; k < set->count; k++) {
        if (!set->seq[k]) return PW_ERR_NULL_ARGUMENT;
        if (set->length[k] < 1) {
            pw_set_error_detail("%s record %lld is empty", what, (long long)k);
            return PW_ERR_INVALID_SIZE;
        }
    }
    return PW_OK;
}

pw_status pw_sw_batch_db_make(const pw_seq_set *set, const pw_score_table *table, const char *what, int threads,
                              sw_batch_db *db)
{
    memset(db, 0, sizeof *db);
    const int64_t count = set->count;
    db->count = count;
    db->at = pw_malloc(sizeof *db->at * (size_t)(count + 1));
    db->length = pw_malloc(sizeof *db->length * (size_t)count);
    db->index = pw_malloc(sizeof *db->index * (size_t)count);
    int64_t *unsorted_len = pw_malloc(sizeof *unsorted_len * (size_t)count);
    if (!db->at || !db->length || !db->index || !unsorted_len) {
        free(unsorted_len);
        pw_sw_batch_db_free(db);
        return PW_ERR_OUT_OF_MEMORY;
    }
    int64_t total = 0;
    for (int64_t k = 0; k < count; k++) {
        db->index[k] = k;
        unsorted_len[k] = set->length[k];
        if (set->length[k] > INT64_MAX - total) {
            free(unsorted_len);
            pw_sw_batch_db_free(db);
            return PW_ERR_SIZE_OVERFLOW;
        }
        total += set->length[k];
    }
    qsort_r(db->index, (size_t)count, sizeof *db->index, by_length_desc, unsorted_len);
    free(unsorted_len);
    db->codes = pw_malloc((size_t)total + 1);
    if (!db->codes) {
        pw_sw_batch_db_free(db);
        return PW_ERR_OUT_OF_MEMORY;
    }
    db->at[0] = 0;
    for (int64_t s = 0; s < count; s++) {
        const int64_t k = db->index[s];
        db->length[s] = set->length[k];
        db->at[s + 1] = db->at[s] + set->length[k];
    }
    if (pw_sw_batch_encode_list(set, db->index, count, table, what, db->at, db->codes, threads) != PW_OK) {
        pw_sw_batch_db_free(db);
        return PW_ERR_BAD_INPUT;
    }
    db->cells_per_letter = total;
    return PW_OK;
}

/* The records one team encodes (pw_sw_batch_encode_list), each thread an equal part of the list;
 * first_bad: the first bad record of each part, or -1. */
typedef struct encode_share {
    const pw_seq_set *set;
    const int64_t *list; /* NULL: records 0 .. count */
    int64_t count;
    const pw_score_table *table;
    const int64_t *at;
    uint8_t *codes;      /* NULL: checked only */
    const char *what;
    int64_t first_bad[PW_ENCODE_MAX_THREADS];
} encode_share;

static void encode_part(void *arg, int worker, int team_size)
{
    encode_share *e = arg;
    const int64_t i0 = e->count * worker / team_size, i1 = e->count * (worker + 1) / team_size;
    e->first_bad[worker] = -1;
    for (int64_t i = i0; i < i1 && e->first_bad[worker] < 0; i++) {
        const int64_t k = e->list ? e->list[i] : i;
        const char *seq = e->set->seq[k];
        uint8_t bad = 0;
        if (e->codes) {
            uint8_t *out = e->codes + e->at[i];
            for (int64_t j = 0; j < e->set->length[k]; j++) {
                const uint8_t c = e->table->code[(unsigned char)seq[j]];
                bad |= c == 255;
                out[j] = c;
            }
        } else {
            for (int64_t j = 0; j < e->set->length[k]; j++) bad |= e->table->code[(unsigned char)seq[j]] == 255;
        }
        if (bad) e->first_bad[worker] = i;
    }
}

pw_status pw_sw_batch_encode_list(const pw_seq_set *set, const int64_t *list, int64_t count, const pw_score_table *table,
                                  const char *what, const int64_t *at, uint8_t *codes, int threads)
{
    encode_share e = {.set = set, .list = list, .count = count, .table = table, .at = at, .codes = codes, .what = what};
    int64_t letters = codes && count > 0 ? at[count] - at[0] : 0;
    for (int64_t i = 0; !codes && i < count; i++) letters += set->length[list ? list[i] : i];
    int wanted = threads < 1 ? 1 : threads > PW_ENCODE_MAX_THREADS ? PW_ENCODE_MAX_THREADS : threads;
    if (letters < ((int64_t)1 << 20)) wanted = 1; /* (less than ~1 ms of work: no threads to start) */
    int team = 1;
    pw_team_run(wanted, encode_part, &e, &team);
    /* the first bad record (parts in the list's order), named as pw_sw_batch_encode names it */
    for (int w = 0; w < team; w++) {
        if (e.first_bad[w] < 0) continue;
        const int64_t i = e.first_bad[w], k = list ? list[i] : i;
        if (codes) return pw_sw_batch_encode(set, k, table, what, codes + at[i]);
        uint8_t *scratch = pw_malloc((size_t)set->length[k]); /* (checking only: the detail's encode) */
        const pw_status st = scratch ? pw_sw_batch_encode(set, k, table, what, scratch) : PW_ERR_OUT_OF_MEMORY;
        free(scratch);
        return st == PW_OK ? PW_ERR_INTERNAL : st;
    }
    return PW_OK;
}

pw_status pw_sw_batch_encode(const pw_seq_set *set, int64_t k, const pw_score_table *table, const char *what, uint8_t *out)
{
    if (pw_score_encode(table, set->seq[k], set->length[k], out) == PW_OK) return PW_OK;
    int64_t j = 0;
    while (table->code[(unsigned char)set->seq[k][j]] != 255) j++;
    pw_set_error_detail("%s record %lld: byte 0x%02x at position %lld is not a letter", what, (long long)k,
                        (unsigned char)set->seq[k][j], (long long)j);
    return PW_ERR_BAD_INPUT;
}

void pw_sw_batch_db_free(sw_batch_db *db)
{
    free(db->codes);
    free(db->at);
    free(db->length);
    free(db->index);
    memset(db, 0, sizeof *db);
}

int32_t pw_sw_batch_score32(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, const pw_score_table *table,
                            int32_t gap_open, int32_t gap_extend, int32_t *work)
{
    /* Column by column of b, rows of a down each (as the lanes kernel): h[i] = H(i, j-1), e[i] =
     * E(i, j-1) before the column, H(i, j) and E(i, j) after. */
    int32_t *h = work, *e = work + n, best = 0;
    for (int64_t i = 0; i < n; i++) {
        h[i] = 0;
        e[i] = PW_SW_NEG_INF;
    }
    for (int64_t j = 0; j < m; j++) {
        const int32_t *col = table->scores + b[j];
        int32_t f = PW_SW_NEG_INF, diag = 0, up = 0;
        for (int64_t i = 0; i < n; i++) {
            const int32_t left = h[i];
            int32_t ei = e[i] - gap_extend, from_left = left - gap_open;
            ei = ei > from_left ? ei : from_left;
            const int32_t fe = f - gap_extend, from_up = up - gap_open;
            f = fe > from_up ? fe : from_up;
            int32_t v = diag + col[a[i] * table->size];
            v = v > 0 ? v : 0;
            v = v > ei ? v : ei;
            v = v > f ? v : f;
            h[i] = v;
            e[i] = ei;
            best = v > best ? v : best;
            diag = left;
            up = v;
        }
    }
    return best;
}

/* ---- the best hits of a query (top_k.h) ---------------------------------------------------- */

typedef struct score_view {
    const int32_t *scores; /* by sorted place */
    const sw_batch_db *db;
} score_view;

/* sorted place a is a better hit than b: the higher score, then the smaller record index */
static int score_better(int64_t a, int64_t b, const void *ctx)
{
    const score_view *v = ctx;
    if (v->scores[a] != v->scores[b]) return v->scores[a] > v->scores[b];
    return v->db->index[a] < v->db->index[b];
}

/* hits[0 .. top): the query's best records by their scores (sorted place -> caller's index);
 * pick: scratch of top places. */
static void top_hits(int64_t query, const int32_t *scores, const sw_batch_db *db, int top, pw_sw_hit *hits, int64_t *pick)
{
    const score_view v = {scores, db};
    const int64_t got = pw_top_k(db->count, top, score_better, &v, pick);
    for (int64_t k = 0; k < top; k++)
        hits[k] = k < got ? (pw_sw_hit){query, db->index[pick[k]], scores[pick[k]], -1, -1} : (pw_sw_hit){query, -1, 0, -1, -1};
}

/* ---- end cells of the hits kept: pw_sw on the CPU, the same tie rule ------------------------- */

typedef struct end_work {
    const pw_seq_set *a, *b;
    const pw_sw_params *params;
    pw_options options; /* one thread a pair */
    pw_sw_hit *hits;
    int64_t count;
    int by_query;       /* search: a = queries indexed by hit.query; pairs: a[k] against b[k] */
    pw_batch_progress *progress; /* pairs: the run's (the search's end cells are not its cells) */
    atomic_llong next;
    atomic_int failed;
    char detail[256]; /* the first failure's pw_error_detail (thread-local: set again by the caller) */
} end_work;

static void end_worker(void *arg, int worker, int team_size)
{
    (void)worker;
    (void)team_size;
    end_work *w = arg;
    int64_t k;
    while (!atomic_load(&w->failed) && (k = atomic_fetch_add(&w->next, 1)) < w->count) {
        pw_sw_hit *h = &w->hits[k];
        if (h->record < 0) continue;
        if (pw_batch_progress_stopped(w->progress)) {
            atomic_store(&w->failed, PW_ERR_CANCELLED);
            break;
        }
        const int64_t qa = h->query, rb = h->record;
        pw_sw_result r;
        pw_status st = pw_sw(w->a->seq[qa], w->a->length[qa], w->b->seq[rb], w->b->length[rb], w->params, &w->options, &r);
        if (st == PW_OK && w->by_query && r.score != h->score) {
            pw_set_error_detail("batch score %d and pw_sw score %d differ for query %lld, record %lld", h->score, r.score,
                                (long long)qa, (long long)rb);
            st = PW_ERR_INTERNAL; /* the two engines disagree: never report either */
        }
        if (st != PW_OK) {
            int none = 0;
            if (atomic_compare_exchange_strong(&w->failed, &none, (int)st))
                snprintf(w->detail, sizeof w->detail, "%s", pw_error_detail());
            break;
        }
        h->score = r.score;
        h->end_query = r.end_a;
        h->end_record = r.end_b;
        pw_batch_progress_add(w->progress, w->a->length[qa] * w->b->length[rb]);
    }
}

static pw_status end_cells(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                           const pw_options *options, int threads, int by_query, pw_sw_hit *hits, int64_t count,
                           pw_batch_progress *progress)
{
    end_work *w = pw_malloc(sizeof *w);
    if (!w) return PW_ERR_OUT_OF_MEMORY;
    *w = (end_work){.a = a, .b = b, .params = params, .hits = hits, .count = count, .by_query = by_query,
                    .progress = progress};
    w->options = pw_pair_options(options);
    atomic_init(&w->next, 0);
    atomic_init(&w->failed, 0);
    int used;
    pw_team_run(threads, end_worker, w, &used);
    pw_status st = (pw_status)atomic_load(&w->failed);
    if (st != PW_OK && w->detail[0]) pw_set_error_detail("%s", w->detail);
    free(w);
    return st;
}


/* ---- the entry points ---------------------------------------------------------------------- */

typedef struct batch_setup {
    pw_options options;
    pw_score_table table;
    pw_backend backend;
    pw_simd simd;
    int threads;
} batch_setup;

/* A set's letters, as a double (the work estimate of pw_backend_small_work). */
static double set_letters(const pw_seq_set *set)
{
    double letters = 0;
    for (int64_t k = 0; k < set->count; k++) letters += (double)set->length[k];
    return letters;
}

static pw_status batch_setup_make(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                                  const pw_options *options, batch_setup *s)
{
    if (options) s->options = *options;
    else pw_options_init(&s->options);
    pw_status st = pw_options_check(&s->options);
    if (st != PW_OK) return st;
    if (!params) return PW_ERR_NULL_ARGUMENT;
    if ((st = check_set(a, "query")) != PW_OK || (st = check_set(b, "database")) != PW_OK) return st;
    int64_t longest_a = 0, longest_b = 0;
    for (int64_t k = 0; k < a->count; k++) longest_a = a->length[k] > longest_a ? a->length[k] : longest_a;
    for (int64_t k = 0; k < b->count; k++) longest_b = b->length[k] > longest_b ? b->length[k] : longest_b;
    /* the table, and scores that could pass 32 bits refused before any work (as pw_sw) */
    char probe = 'A';
    pw_sw_result dummy;
    st = pw_sw_check(&probe, longest_a, &probe, longest_b, params, &dummy, &s->table);
    if (st != PW_OK) return st;
    st = pw_backend_resolve(&s->options, &s->backend);
    if (st != PW_OK) return st;
    st = pw_simd_resolve(s->options.simd, &s->simd);
    if (st != PW_OK) return st;
    s->threads = s->options.threads ? s->options.threads : pw_cpu_count();
    return PW_OK;
}

/* pw_sw_pairs on the CPU: match/mismatch pairs on the vector lanes, a lane a pair (sw_pairs_cpu.h),
 * under the default strategy; the others (a matrix, long pairs, saturated lanes, or an asked-for
 * strategy: the sequential loop stays the reference) by pw_sw on the threads.  20000 DNA pairs of
 * 256 x 256 on one Zen 5 core: pw_sw a pair 4.1 GCUPS, the lanes (AVX-512) measured in
 * docs/PERFORMANCE.md. */
static pw_status pairs_on_cpu(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params, const batch_setup *s,
                              pw_sw_hit *hits, pw_batch_progress *progress, pw_batch_info *info)
{
    const int64_t count = a->count;
    if (s->options.strategy != PW_STRATEGY_PEER || s->options.trace)
        return end_cells(a, b, params, &s->options, s->threads, 0, hits, count, progress);
    int64_t *rest = pw_malloc(sizeof *rest * (size_t)(count + 1)), n_rest = 0, laned = 0, saturated = 0;
    pw_sw_hit *rest_hits = pw_malloc(sizeof *rest_hits * (size_t)(count + 1));
    pw_status st = rest && rest_hits ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK)
        st = pw_sw_pairs_cpu_lanes(a, b, &s->table, params->gap_open, params->gap_extend, s->simd, s->threads, hits, rest,
                                   &n_rest, &laned, &saturated, progress);
    if (laned > 0) info->lane_bits = 16, info->recomputed = saturated; /* (the saturated ones by pw_sw below) */
    for (int64_t i = 0; st == PW_OK && i < n_rest; i++) rest_hits[i] = hits[rest[i]];
    if (st == PW_OK && n_rest > 0) st = end_cells(a, b, params, &s->options, s->threads, 0, rest_hits, n_rest, progress);
    for (int64_t i = 0; st == PW_OK && i < n_rest; i++) hits[rest[i]] = rest_hits[i];
    free(rest);
    free(rest_hits);
    return st;
}

#ifdef PW_HAVE_CUDA
/* pw_sw_pairs on the GPU: the pairs short enough for a warp there (pairs_sw.h), the others (and
 * all of them when the alphabet is too large for the kernel's table) by pw_sw on the CPU threads. */
static pw_status pairs_on_gpu(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params, const batch_setup *s,
                              const int *devices, int n_devices, pw_sw_hit *hits, pw_batch_progress *progress,
                              pw_batch_info *info)
{
    const int64_t count = a->count;
    int64_t *list = pw_malloc(sizeof *list * (size_t)count), *rest = pw_malloc(sizeof *rest * (size_t)count);
    pw_sw_hit *rest_hits = pw_malloc(sizeof *rest_hits * (size_t)count);
    pw_status st = list && rest && rest_hits ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    int64_t n_list = 0, n_rest = 0;
    for (int64_t k = 0; st == PW_OK && k < count; k++) {
        if (a->length[k] <= PW_PAIRS_GPU_MAX_LENGTH && b->length[k] <= PW_PAIRS_GPU_MAX_LENGTH) list[n_list++] = k;
        else rest[n_rest++] = k;
    }
    if (st == PW_OK && n_devices > 1) { /* (several GPUs: a part each) */
        st = pw_sw_pairs_on_gpus(&s->options, a, b, &s->table, params->gap_open, params->gap_extend, list, n_list, devices,
                                 n_devices, s->threads, hits, progress, info);
    } else if (st == PW_OK) {
        int lane_bits = 32;
        int64_t recomputed = 0;
        pw_options one = s->options;
        if (n_devices == 1) one.device = devices[0];
        st = pw_cuda_pairs_sw(&one, a, b, &s->table, params->gap_open, params->gap_extend, list, n_list, hits, progress,
                              &lane_bits, &recomputed);
        if (st == PW_OK) info->lane_bits = lane_bits, info->recomputed = recomputed;
    }
    if (st == PW_OK || st == PW_ERR_UNSUPPORTED || st == PW_ERR_OUT_OF_MEMORY) {
        /* all on the CPU: a kernel that cannot run here, or under AUTO a GPU that cannot hold them
         * (every pair again: a launch may have written some hits) */
        if (st == PW_ERR_UNSUPPORTED || (s->options.backend == PW_BACKEND_AUTO && st == PW_ERR_OUT_OF_MEMORY)) {
            info->gpus = 0;
            n_rest = count;
            for (int64_t k = 0; k < count; k++) rest[k] = k, hits[k] = (pw_sw_hit){k, k, 0, -1, -1};
            n_list = 0;
            st = PW_OK;
        }
    }
    if (n_list == 0) info->backend = PW_BACKEND_CPU; /* (every pair ran on the CPU threads) */
    for (int64_t i = 0; st == PW_OK && i < n_rest; i++) rest_hits[i] = hits[rest[i]];
    if (st == PW_OK && n_rest > 0) st = end_cells(a, b, params, &s->options, s->threads, 0, rest_hits, n_rest, progress);
    for (int64_t i = 0; st == PW_OK && i < n_rest; i++) hits[rest[i]] = rest_hits[i];
    free(list);
    free(rest);
    free(rest_hits);
    return st;
}
#endif

pw_status pw_sw_search(const pw_seq_set *queries, const pw_seq_set *db, const pw_sw_params *params,
                       const pw_options *options, const pw_batch_options *batch, int top, pw_sw_hit *hits,
                       pw_batch_info *info)
{
    const int64_t t0 = pw_now_ns();
    pw_status st;
    if (!hits || !info) return PW_ERR_NULL_ARGUMENT;
    if (top < 1) return PW_ERR_INVALID_ARGUMENT;
    if (batch && ((unsigned)batch->schedule > PW_BATCH_STATIC ||
                  (batch->schedule == PW_BATCH_STATIC && !(batch->gpu_weight > 0 && batch->cpu_weight > 0)))) {
        pw_set_error_detail("batch options: schedule ONE, HDSS or STATIC (STATIC with both weights > 0)");
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (batch && (st = pw_batch_devices_check(batch)) != PW_OK) return st;
    batch_setup s;
    st = batch_setup_make(queries, db, params, options, &s);
    if (st != PW_OK) return st;
    memset(info, 0, sizeof *info);
    sw_batch_db sdb, sq;
    if (!batch || batch->schedule == PW_BATCH_ONE) /* (an asked-for split keeps its GPUs) */
        pw_backend_small_work(&s.options, set_letters(queries) * set_letters(db), s.threads, &s.backend);
    if ((st = pw_sw_batch_db_make(db, &s.table, "database", s.threads, &sdb)) != PW_OK) return st;
    if ((st = pw_sw_batch_db_make(queries, &s.table, "query", s.threads, &sq)) != PW_OK) {
        pw_sw_batch_db_free(&sdb);
        return st;
    }
    /* queries in chunks whose score rows fit in about 256 MB */
    int64_t chunk = ((int64_t)1 << 26) / sdb.count;
    chunk = chunk < 1 ? 1 : chunk > queries->count ? queries->count : chunk;
    int32_t *scores = pw_malloc(sizeof *scores * (size_t)(chunk * sdb.count));
    sw_batch_query *qs = pw_malloc(sizeof *qs * (size_t)chunk);
    int64_t *sorted_at = pw_malloc(sizeof *sorted_at * (size_t)queries->count); /* query -> its sorted place */
    int64_t *pick = pw_malloc(sizeof *pick * (size_t)top);
    if (!scores || !qs || !sorted_at || !pick) st = PW_ERR_OUT_OF_MEMORY;
    for (int64_t k = 0; st == PW_OK && k < sq.count; k++) sorted_at[sq.index[k]] = k;
    const pw_simd cpu_simd =
        pw_sw_batch_fits16(&s.table, params->gap_open, params->gap_extend) && pw_sw_batch_lanes_kernel(s.simd) ? s.simd
                                                                                                              : PW_SIMD_SCALAR;
    pw_batch_options one = {.schedule = PW_BATCH_ONE};
    if (!batch) batch = &one;
    info->backend = batch->schedule == PW_BATCH_ONE ? s.backend : PW_BACKEND_CPU;
    info->simd = cpu_simd;
    info->lane_bits = cpu_simd != PW_SIMD_SCALAR ? 16 : 32;
    int64_t all_cells; /* every query's letters against every record's: the progress hook's run */
    if (__builtin_mul_overflow(sq.cells_per_letter, sdb.cells_per_letter, &all_cells)) all_cells = INT64_MAX;
    pw_batch_progress progress;
    pw_batch_progress_init(&progress, &s.options, all_cells);
    const int64_t t1 = pw_now_ns();
    for (int64_t q0 = 0; st == PW_OK && q0 < queries->count; q0 += chunk) {
        const int64_t nq = queries->count - q0 < chunk ? queries->count - q0 : chunk;
        for (int64_t k = 0; k < nq; k++) { /* in the caller's order: sq holds them sorted */
            const int64_t at = sorted_at[q0 + k];
            qs[k] = (sw_batch_query){sq.codes + sq.at[at], sq.length[at]};
        }
        sw_batch_score_job job = {&sdb, &s.table, params->gap_open, params->gap_extend, &s.options, batch, s.simd,
                                  s.threads, qs, nq, scores, &progress};
        st = pw_sw_batch_score(&job, info);
        for (int64_t k = 0; st == PW_OK && k < nq; k++)
            top_hits(q0 + k, scores + k * sdb.count, &sdb, top, hits + (q0 + k) * top, pick);
    }
    const int64_t t2 = pw_now_ns();
    if (st == PW_OK) {
        info->pairs = queries->count * sdb.count;
        info->cells = all_cells;
        info->seconds = (double)(t2 - t1) * 1e-9;
        st = end_cells(queries, db, params, &s.options, s.threads, 1, hits, queries->count * (int64_t)top, NULL);
        st = pw_batch_progress_finish(&progress, st);
    }
    free(scores);
    free(qs);
    free(sorted_at);
    free(pick);
    pw_sw_batch_db_free(&sdb);
    pw_sw_batch_db_free(&sq);
    info->total_seconds = (double)(pw_now_ns() - t0) * 1e-9;
    return st;
}

pw_status pw_sw_pairs(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                      const pw_options *options, pw_sw_hit *hits, pw_batch_info *info)
{
    return pw_sw_pairs_batch(a, b, params, options, NULL, hits, info);
}

pw_status pw_sw_pairs_batch(const pw_seq_set *a, const pw_seq_set *b, const pw_sw_params *params,
                            const pw_options *options, const pw_batch_options *batch, pw_sw_hit *hits,
                            pw_batch_info *info)
{
    const int64_t t0 = pw_now_ns();
    if (!hits || !info || !a || !b) return PW_ERR_NULL_ARGUMENT;
    const int n_devices = batch ? batch->n_devices : 0;
    if (batch && batch->schedule != PW_BATCH_ONE) {
        pw_set_error_detail("pairs run on one backend (PW_BATCH_ONE; several GPUs listed: the pairs split between "
                            "them), not under HDSS or a static split");
        return PW_ERR_UNSUPPORTED;
    }
    if (n_devices < 0 || n_devices > PW_BATCH_MAX_GPUS || (n_devices > 0 && !batch->devices)) {
        pw_set_error_detail("pairs: %d devices listed (0 .. %d, with the list)", n_devices, PW_BATCH_MAX_GPUS);
        return PW_ERR_INVALID_ARGUMENT;
    }
    for (int d = 0; d < n_devices; d++)
        if (batch->devices[d] < 0) {
            pw_set_error_detail("pairs: device %d is %d (CUDA device numbers are >= 0)", d, batch->devices[d]);
            return PW_ERR_INVALID_ARGUMENT;
        }
    if (a->count != b->count) {
        pw_set_error_detail("pairs: %lld sequences against %lld (sequence k against sequence k: the counts must be equal)",
                            (long long)a->count, (long long)b->count);
        return PW_ERR_INVALID_SIZE;
    }
    batch_setup s;
    pw_status st = batch_setup_make(a, b, params, options, &s);
    /* every letter of both sides checked before any work, so that a bad one is named by its
     * record whichever engine would have met it */
    if (st == PW_OK) st = pw_sw_batch_encode_list(a, NULL, a->count, &s.table, "query", NULL, NULL, s.threads);
    if (st == PW_OK) st = pw_sw_batch_encode_list(b, NULL, b->count, &s.table, "database", NULL, NULL, s.threads);
    if (st != PW_OK) return st;
    memset(info, 0, sizeof *info);
    /* every pair through pw_sw on one CPU thread (its vector processor), the pairs over all cores:
     * score and end cell at once; or on the GPU a warp a pair (pairs_on_gpu) */
    info->backend = s.backend;
    info->simd = s.simd;
    info->lane_bits = 32; /* pw_sw's vector processor: 16-bit lanes relative to a base, exact as 32 */
    for (int64_t k = 0; k < a->count; k++) {
        hits[k] = (pw_sw_hit){k, k, 0, -1, -1};
        info->cells += a->length[k] * b->length[k];
    }
    if (n_devices == 0) pw_backend_small_work(&s.options, (double)info->cells, s.threads, &s.backend);
    info->backend = s.backend;
    pw_batch_progress progress;
    pw_batch_progress_init(&progress, &s.options, info->cells);
    const int64_t t1 = pw_now_ns();
#ifdef PW_HAVE_CUDA
    if (s.backend == PW_BACKEND_CUDA)
        st = pairs_on_gpu(a, b, params, &s, n_devices ? batch->devices : NULL, n_devices, hits, &progress, info);
    else
#endif
        st = pairs_on_cpu(a, b, params, &s, hits, &progress, info);
    st = pw_batch_progress_finish(&progress, st);
    info->pairs = a->count;
    info->seconds = (double)(pw_now_ns() - t1) * 1e-9;
    info->total_seconds = (double)(pw_now_ns() - t0) * 1e-9;
    return st;
}
