/*
 * sw_pairs_cpu.c - pw_sw_pairs on the CPU's vector lanes (sw_pairs_lanes.h): the pairs short
 * enough and scored by match/mismatch, grouped a lane a pair by their lengths, the groups over the
 * threads; each lane's score and end cell as pw_sw gives them.
 *
 * Why the padding is safe.  Rows past a lane's query end are below every row it reads, so they
 * change nothing.  Columns past its record's end (and the strip's padding) hold a code that never
 * matches, so a padded cell is at most the best of the real cells it comes from: the diagonal one
 * plus a mismatch (<= 0: tables whose mismatch is above 0, possible in a user's matrix, go to
 * pw_sw), E from its left in the same row, F from the rows above.  So it never
 * passes the lane's best; and where it equals the best, a real cell on a smaller row, or on the
 * same row further left, holds the best too, so the smallest row with the best has a real cell
 * first (the row's first column that reached it).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sw_pairs_cpu.h"
#include "sw_batch_lanes.h"
#include "sw_pairs_lanes.h"
#include "../../apps/sw_simd.h" /* pw_sw_equality_table */
#include "../core/alloc.h"
#include "../cpu/simd/simd_isa.h"
#include "../cpu/team.h"

#define CODE_NOT_REAL_A 1000 /* a letter that matches nothing (N, IUPAC codes), on each side */
#define CODE_NOT_REAL_B 2000
#define CODE_PAD_B 3000      /* past a record's end */

static sw_pairs_lanes_fn pairs_kernel(pw_simd simd)
{
#if defined(PW_HAVE_X86_SIMD)
    if (!pw_simd_supported(simd)) return NULL;
    switch (simd) {
    case PW_SIMD_SSE41: return pw_sw_pairs_lanes_sse41;
    case PW_SIMD_AVX2: return pw_sw_pairs_lanes_avx2;
    case PW_SIMD_AVX512: return pw_sw_pairs_lanes_avx512;
    default: return NULL;
    }
#else
    (void)simd;
    return NULL;
#endif
}


typedef struct pairs_work {
    const pw_seq_set *a, *b;
    const pw_score_table *t;
    const int64_t *order; /* the lanes' pairs, grouped by length */
    int64_t count, groups;
    int lanes;
    sw_pairs_lanes_fn kernel;
    int16_t match, mismatch, gap_open, gap_extend;
    int real[PW_SCORING_MAX_ALPHABET];
    int64_t most_rows, most_columns; /* over every group */
    pw_sw_hit *hits;
    int64_t *saturated; /* pairs for pw_sw (16 bits reached) */
    atomic_llong n_saturated, next;
    atomic_int failed;
    pw_batch_progress *progress;
} pairs_work;

static int by_lengths(const void *x, const void *y, void *arg)
{
    const pairs_work *w = arg;
    const int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    const int64_t bi = w->b->length[i], bj = w->b->length[j], ai = w->a->length[i], aj = w->a->length[j];
    if (bi != bj) return bi < bj ? -1 : 1;
    if (ai != aj) return ai < aj ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Group g's lanes' letters, the kernel, and each lane's hit. */
static void run_group(pairs_work *w, int64_t g, sw_pairs_lanes *job, int16_t *a, int16_t *b)
{
    const int V = w->lanes;
    const int64_t first = g * V, used = w->count - first < V ? w->count - first : V;
    int64_t rows = 1, cols = 1;
    for (int64_t l = 0; l < used; l++) {
        const int64_t k = w->order[first + l];
        rows = w->a->length[k] > rows ? w->a->length[k] : rows;
        cols = w->b->length[k] > cols ? w->b->length[k] : cols;
    }
    cols = (cols + PW_BATCH_STRIP - 1) / PW_BATCH_STRIP * PW_BATCH_STRIP;
    for (int64_t l = 0; l < V; l++) {
        const int64_t k = l < used ? w->order[first + l] : -1;
        const int64_t n = k >= 0 ? w->a->length[k] : 0, m = k >= 0 ? w->b->length[k] : 0;
        for (int64_t i = 0; i < rows; i++) {
            const int x = i < n ? w->t->code[(unsigned char)w->a->seq[k][i]] : 0;
            a[i * V + l] = (int16_t)(i < n && w->real[x] ? x : CODE_NOT_REAL_A); /* (rows past n: read by nobody) */
        }
        for (int64_t j = 0; j < cols; j++) {
            const int y = j < m ? w->t->code[(unsigned char)w->b->seq[k][j]] : 0;
            b[j * V + l] = (int16_t)(j >= m ? CODE_PAD_B : w->real[y] ? y : CODE_NOT_REAL_B);
        }
    }
    job->rows = rows, job->columns = cols;
    w->kernel(job);
    int64_t cells = 0;
    for (int64_t l = 0; l < used; l++) {
        const int64_t k = w->order[first + l], n = w->a->length[k];
        int16_t best = 0;
        int64_t at = -1;
        for (int64_t i = 0; i < n; i++)
            if (job->row_best[i * V + l] > best) best = job->row_best[i * V + l], at = i;
        if (best >= PW_BATCH_SATURATED) { /* (16 bits reached: exact only below; its cells are pw_sw's to count) */
            w->saturated[atomic_fetch_add(&w->n_saturated, 1)] = k;
            continue;
        }
        cells += n * w->b->length[k];
        w->hits[k].score = best;
        w->hits[k].end_query = at;
        w->hits[k].end_record = at >= 0 ? job->row_col[at * V + l] : -1;
    }
    pw_batch_progress_add(w->progress, cells);
}

static void pairs_worker(void *arg, int worker, int team_size)
{
    (void)worker, (void)team_size;
    pairs_work *w = arg;
    const int V = w->lanes;
    const size_t row_words = (size_t)w->most_rows * (size_t)V, col_words = (size_t)w->most_columns * (size_t)V;
    int16_t *mem = pw_malloc(sizeof(int16_t) * (5 * row_words + col_words));
    if (!mem) {
        int none = 0;
        atomic_compare_exchange_strong(&w->failed, &none, PW_ERR_OUT_OF_MEMORY);
        return;
    }
    sw_pairs_lanes job = {.match = w->match, .mismatch = w->mismatch, .gap_open = w->gap_open,
                          .gap_extend = w->gap_extend, .h = mem, .e = mem + row_words,
                          .row_best = mem + 2 * row_words, .row_col = mem + 3 * row_words};
    int16_t *a = mem + 4 * row_words, *b = mem + 5 * row_words;
    job.a = a, job.b = b;
    int64_t g;
    while (!atomic_load(&w->failed) && (g = atomic_fetch_add(&w->next, 1)) < w->groups) {
        if (pw_batch_progress_stopped(w->progress)) {
            int none = 0;
            atomic_compare_exchange_strong(&w->failed, &none, PW_ERR_CANCELLED);
            break;
        }
        run_group(w, g, &job, a, b);
    }
    free(mem);
}

pw_status pw_sw_pairs_cpu_lanes(const pw_seq_set *a, const pw_seq_set *b, const pw_score_table *t, int32_t gap_open,
                                int32_t gap_extend, pw_simd simd, int threads, pw_sw_hit *hits, int64_t *rest,
                                int64_t *n_rest, int64_t *laned, int64_t *saturated, pw_batch_progress *progress)
{
    pairs_work w = {.a = a, .b = b, .t = t, .hits = hits, .progress = progress};
    *n_rest = 0, *laned = 0, *saturated = 0;
    w.kernel = pairs_kernel(simd);
    const int32_t mt = t->size > 1 ? t->scores[0] : 0, mm = t->size > 1 ? t->scores[1] : 0; /* (an equality table's two values) */
    /* (a mismatch above 0, possible in a user's matrix of this form, would let padding win: the
     * file's argument needs mismatch <= 0) */
    const int fits = gap_open <= 32767 && gap_extend <= 32767 && mt <= 32767 && mt >= -32767 && mm <= 0 &&
                     mm >= -32767 && pw_sw_equality_table(t->scores, t->size, &w.match, &w.mismatch, w.real);
    const int64_t count = a->count;
    int64_t *order = fits && w.kernel ? pw_malloc(sizeof *order * (size_t)(count + 1)) : NULL;
    w.saturated = order ? pw_malloc(sizeof *w.saturated * (size_t)(count + 1)) : NULL;
    if (!order || !w.saturated) { /* (no lanes here, or scoring they do not take: every pair is the caller's) */
        free(order);
        free(w.saturated);
        for (int64_t k = 0; k < count; k++) rest[(*n_rest)++] = k;
        return fits && w.kernel ? PW_ERR_OUT_OF_MEMORY : PW_OK;
    }
    w.gap_open = (int16_t)gap_open, w.gap_extend = (int16_t)gap_extend;
    w.lanes = pw_simd_lanes16(simd);
    for (int64_t k = 0; k < count; k++) {
        if (a->length[k] <= PW_PAIRS_LANES_MAX_LENGTH && b->length[k] <= PW_PAIRS_LANES_MAX_LENGTH) order[w.count++] = k;
        else rest[(*n_rest)++] = k;
    }
    qsort_r(order, (size_t)w.count, sizeof *order, by_lengths, &w);
    w.order = order;
    w.groups = (w.count + w.lanes - 1) / w.lanes;
    for (int64_t k = 0; k < w.count; k++) {
        w.most_rows = a->length[order[k]] > w.most_rows ? a->length[order[k]] : w.most_rows;
        w.most_columns = b->length[order[k]] > w.most_columns ? b->length[order[k]] : w.most_columns;
    }
    w.most_columns = (w.most_columns + PW_BATCH_STRIP - 1) / PW_BATCH_STRIP * PW_BATCH_STRIP;
    atomic_init(&w.n_saturated, 0);
    atomic_init(&w.next, 0);
    atomic_init(&w.failed, 0);
    int team = 1;
    if (w.groups > 0) pw_team_run(threads < w.groups ? threads : (int)w.groups, pairs_worker, &w, &team);
    const pw_status st = (pw_status)atomic_load(&w.failed);
    *laned = w.count, *saturated = atomic_load(&w.n_saturated);
    for (int64_t s = 0; s < *saturated; s++) rest[(*n_rest)++] = w.saturated[s];
    free(order);
    free(w.saturated);
    return st;
}
