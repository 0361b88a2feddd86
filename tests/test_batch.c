/*
 * test_batch.c - the database search (peerwave_batch.h) against a textbook full-matrix Gotoh
 * written here, pair by pair: random batches (DNA and every built-in matrix, affine and linear
 * gaps, awkward lengths), every vector set, 16-bit saturation and its recomputation, pairs, bad
 * input.  --gpu: the same on the CUDA backend (exit 77 where there is no GPU), DTW's with queries of
 * several warp segments.
 */
#include <math.h>
#include <string.h>

#include "peerwave_batch.h"
#include "test_util.h"

static int on_gpu;
/* Whether this build and machine have a GPU: AUTO picks it for large batches even in the CPU run
 * (ctest's test_batch without --gpu on a GPU machine) */
static int gpu_here;

/* Score and end cell of a against b: the full matrix, ties to the smallest i, then j. */
static pw_sw_hit textbook(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *p)
{
    const pw_matrix *mx = p->scoring == PW_SCORING_MATRIX ? p->matrix : NULL;
    int64_t w = m + 1;
    int32_t *H = calloc((size_t)((n + 1) * w), 4), *E = calloc((size_t)((n + 1) * w), 4), *F = calloc((size_t)((n + 1) * w), 4);
    const int32_t NEG = -(1 << 29);
    pw_sw_hit best = {0, 0, 0, -1, -1};
    for (int64_t j = 0; j <= m; j++) E[j] = F[j] = NEG;
    for (int64_t i = 1; i <= n; i++) {
        E[i * w] = F[i * w] = NEG;
        for (int64_t j = 1; j <= m; j++) {
            int s;
            if (mx) {
                const char *pa = strchr(mx->alphabet, a[i - 1] & ~32), *pb = strchr(mx->alphabet, b[j - 1] & ~32);
                const char *wild = strchr(mx->alphabet, mx->wildcard);
                int x = (int)((pa && a[i - 1] != '*' ? pa : a[i - 1] == '*' ? strchr(mx->alphabet, '*') : wild) - mx->alphabet);
                int y = (int)((pb && b[j - 1] != '*' ? pb : b[j - 1] == '*' ? strchr(mx->alphabet, '*') : wild) - mx->alphabet);
                s = mx->scores[x * mx->size + y];
            } else {
                int ca = a[i - 1] & ~32, cb = b[j - 1] & ~32;
                s = ca == cb && strchr("ACGT", ca) ? p->match : p->mismatch;
            }
            int32_t e = E[i * w + j - 1] - p->gap_extend, eo = H[i * w + j - 1] - p->gap_open;
            int32_t f = F[(i - 1) * w + j] - p->gap_extend, fo = H[(i - 1) * w + j] - p->gap_open;
            E[i * w + j] = e > eo ? e : eo;
            F[i * w + j] = f > fo ? f : fo;
            int32_t h = H[(i - 1) * w + j - 1] + s;
            if (h < 0) h = 0;
            if (E[i * w + j] > h) h = E[i * w + j];
            if (F[i * w + j] > h) h = F[i * w + j];
            H[i * w + j] = h;
            if (h > best.score) best = (pw_sw_hit){0, 0, h, i - 1, j - 1}; /* rows, then columns, grow: first max kept */
        }
    }
    free(H);
    free(E);
    free(F);
    return best;
}

typedef struct seqs {
    int64_t count;
    char **seq;
    int64_t *len;
    pw_seq_set set;
} seqs;

static void seqs_random(seqs *s, int64_t count, int64_t lo, int64_t hi, const char *alphabet)
{
    s->count = count;
    s->seq = calloc((size_t)count, sizeof *s->seq);
    s->len = calloc((size_t)count, sizeof *s->len);
    const int64_t k = (int64_t)strlen(alphabet);
    for (int64_t r = 0; r < count; r++) {
        s->len[r] = test_range(lo, hi);
        s->seq[r] = malloc((size_t)s->len[r] + 1);
        for (int64_t j = 0; j < s->len[r]; j++) s->seq[r][j] = alphabet[test_range(0, k - 1)];
        s->seq[r][s->len[r]] = 0;
    }
    /* related records now and then: a query's best hits are then clear winners */
    s->set = (pw_seq_set){count, (const char *const *)s->seq, s->len};
}

static void seqs_free(seqs *s)
{
    for (int64_t r = 0; r < s->count; r++) free(s->seq[r]);
    free(s->seq);
    free(s->len);
}

/* Every query's top hits against the textbook's, in order. */
static const pw_batch_options *schedule; /* NULL: one backend; else HDSS or STATIC (random_batches) */

static void check_search(const seqs *q, const seqs *db, const pw_sw_params *p, pw_simd simd, int threads, int top,
                         const char *what)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.simd = simd;
    o.threads = threads;
    pw_sw_hit *hits = calloc((size_t)(q->count * top), sizeof *hits);
    pw_batch_info info;
    pw_status st = pw_sw_search(&q->set, &db->set, p, &o, schedule, top, hits, &info);
    CHECK(st == PW_OK, "%s: search: %s (%s)", what, pw_status_str(st), pw_error_detail());
    if (st != PW_OK) {
        free(hits);
        return;
    }
    pw_sw_hit *ref = calloc((size_t)db->count, sizeof *ref);
    for (int64_t k = 0; k < q->count; k++) {
        for (int64_t r = 0; r < db->count; r++) {
            ref[r] = textbook(q->seq[k], q->len[k], db->seq[r], db->len[r], p);
            ref[r].record = r;
        }
        /* the expected order: score descending, record ascending (selection is enough here) */
        for (int t = 0; t < top; t++) {
            int64_t pick = -1;
            for (int64_t r = 0; r < db->count; r++)
                if (ref[r].query == 0 && (pick < 0 || ref[r].score > ref[pick].score)) pick = r;
            const pw_sw_hit *h = &hits[k * top + t];
            if (pick < 0) {
                CHECK(h->record == -1 && h->score == 0, "%s: query %lld slot %d should be empty", what, (long long)k, t);
                continue;
            }
            ref[pick].query = 1; /* taken */
            CHECK(h->query == k && h->record == pick && h->score == ref[pick].score &&
                      h->end_query == ref[pick].end_query && h->end_record == ref[pick].end_record,
                  "%s: query %lld hit %d: got record %lld score %d end (%lld, %lld), want %lld %d (%lld, %lld)", what,
                  (long long)k, t, (long long)h->record, h->score, (long long)h->end_query, (long long)h->end_record,
                  (long long)pick, ref[pick].score, (long long)ref[pick].end_query, (long long)ref[pick].end_record);
        }
    }
    CHECK(info.pairs == q->count * db->count, "%s: pairs %lld", what, (long long)info.pairs);
    if (schedule && schedule->schedule != PW_BATCH_ONE) { /* the devices' shares add up (the last chunk of queries) */
        double gpus = 0;
        for (int g = 0; g < info.gpus; g++) gpus += info.gpu_device_share[g];
        CHECK(info.gpus >= 0 && info.gpus <= (schedule->n_devices > 1 ? schedule->n_devices : 1) &&
                  (info.gpus == 0 || fabs(gpus - info.gpu_share) < 1e-9) && fabs(info.gpu_share + info.cpu_share - 1) < 1e-6,
              "%s: %d GPUs, shares %g (GPUs' %g) + %g", what, info.gpus, info.gpu_share, gpus, info.cpu_share);
        CHECK(!on_gpu || info.gpus >= 1, "%s: no GPU took part", what);
    }
    free(ref);
    free(hits);
}

static void random_batches(void)
{
    static const pw_simd sets[] = {PW_SIMD_SCALAR, PW_SIMD_SSE41, PW_SIMD_AVX2, PW_SIMD_AVX512};
    for (int round = 0; round < 24; round++) {
        pw_sw_params p;
        pw_sw_params_init(&p);
        const char *alphabet = "ACGTACGTACGTN";
        if (round % 3 == 1) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_at((int)test_range(0, 7));
            alphabet = "ARNDCQEGHILKMFPSTWYVBZX*";
            p.gap_open = (int)test_range(5, 12);
            p.gap_extend = (int)test_range(1, 2);
        } else {
            p.match = (int)test_range(1, 5);
            p.mismatch = -(int)test_range(1, 6);
            p.gap_open = (int)test_range(0, 8);
            /* gap_extend > gap_open now and then: the GPU's long F chain (batch_sw_proc.cuh) */
            p.gap_extend = round % 3 == 2 ? p.gap_open : (int)test_range(0, p.gap_open + 3);
        }
        seqs q, db;
        seqs_random(&q, test_range(1, 4), 1, round < 4 ? 3 : 180, alphabet);
        seqs_random(&db, test_range(1, 75), 1, round < 4 ? 3 : 260, alphabet);
        for (int64_t r = 0; r + 1 < db.count; r += 5) { /* some records contain a query: strong hits */
            int64_t n = q.len[0] < db.len[r] ? q.len[0] : db.len[r];
            memcpy(db.seq[r], q.seq[0], (size_t)n);
        }
        char what[96];
        for (int s = 0; s < 4; s++) {
            snprintf(what, sizeof what, "round %d %s gaps %d/%d %s", round, p.matrix ? p.matrix->name : "DNA",
                     p.gap_open, p.gap_extend, pw_simd_name(sets[s]));
            pw_options probe;
            pw_options_init(&probe);
            if (!on_gpu && s > 0) { /* a set this CPU lacks is refused: skip it */
                pw_sw_hit h;
                pw_batch_info info;
                probe.simd = sets[s];
                probe.backend = PW_BACKEND_CPU;
                pw_seq_set first = {1, q.set.seq, q.set.length};
                if (pw_sw_search(&first, &first, &p, &probe, NULL, 1, &h, &info) == PW_ERR_UNSUPPORTED) continue;
            }
            check_search(&q, &db, &p, sets[s], (int)test_range(1, 3), (int)test_range(1, (int)db.count + 2), what);
            if (on_gpu) break; /* the set is the CPU's */
        }
        /* the same shared between devices: HDSS and a static split (on the CPU: two groups) */
        /* (and over GPUs 0 and 1: each a session of its own where it exists; a GPU that is not there
         * leaves its share to the others, and without CUDA both CPU groups do the work) */
        static const int two[2] = {0, 1};
        static const pw_batch_options shared[] = {{.schedule = PW_BATCH_HDSS},
                                                  {.schedule = PW_BATCH_STATIC, .gpu_weight = 3, .cpu_weight = 1},
                                                  {.schedule = PW_BATCH_HDSS, .devices = two, .n_devices = 2}};
        static const char *const names[] = {"hdss", "static", "hdss on GPUs 0 and 1"};
        for (int k = 0; k < 3; k++) {
            schedule = &shared[k];
            snprintf(what, sizeof what, "round %d %s", round, names[k]);
            check_search(&q, &db, &p, PW_SIMD_AUTO, (int)test_range(2, 4), (int)test_range(1, (int)db.count + 2), what);
            schedule = NULL;
        }
        seqs_free(&q);
        seqs_free(&db);
    }
}

/* Scores past 16 bits: the lanes saturate, the pairs are scored again (and at exactly 32767). */
static void saturation(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.match = 100;
    p.mismatch = -100;
    p.gap_open = 300;
    p.gap_extend = 50;
    seqs q, db;
    seqs_random(&q, 2, 330, 420, "ACGT");
    seqs_random(&db, 40, 100, 420, "ACGT");
    for (int64_t r = 0; r < db.count; r += 3) { /* copies of the first query: scores up to 42000 */
        int64_t n = q.len[0] < db.len[r] ? q.len[0] : db.len[r];
        memcpy(db.seq[r], q.seq[0], (size_t)n);
    }
    check_search(&q, &db, &p, PW_SIMD_AUTO, 2, 12, "saturation");
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    pw_sw_hit hits[24];
    pw_batch_info info;
    if (pw_sw_search(&q.set, &db.set, &p, &o, NULL, 12, hits, &info) == PW_OK && info.lane_bits == 16)
        CHECK(info.recomputed > 0 && info.recomputed < info.pairs, "saturation: %lld of %lld pairs recomputed",
              (long long)info.recomputed, (long long)info.pairs);
    seqs_free(&q);
    seqs_free(&db);
    /* a score of exactly 32767 (the saturation value itself) and one of 32766 */
    p.match = 32767;
    p.mismatch = -1;
    p.gap_open = p.gap_extend = 1;
    seqs_random(&q, 1, 1, 1, "A");
    seqs_random(&db, 3, 1, 1, "ACA");
    db.seq[0][0] = 'A';
    check_search(&q, &db, &p, PW_SIMD_AUTO, 1, 3, "score 32767");
    p.match = 16383;
    seqs_free(&db);
    seqs_random(&db, 2, 2, 2, "A");
    check_search(&q, &db, &p, PW_SIMD_AUTO, 1, 2, "score 16383");
    /* penalties past 16 bits: 32-bit cells throughout */
    p.match = 3;
    p.gap_open = 40000;
    p.gap_extend = 1;
    seqs_free(&q);
    seqs_free(&db);
    seqs_random(&q, 2, 10, 60, "ACGT");
    seqs_random(&db, 20, 10, 60, "ACGT");
    check_search(&q, &db, &p, PW_SIMD_AUTO, 2, 5, "gap 40000");
    seqs_free(&q);
    seqs_free(&db);
}

/* Queries of several GPU segments (more than 512 rows: the last row of one goes through memory to
 * the next) and a record too long for the batch kernels (the single-pair engine takes it). */
static void long_ones(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.scoring = PW_SCORING_MATRIX;
    p.matrix = pw_matrix_by_name("BLOSUM62");
    p.gap_open = 11;
    p.gap_extend = 1;
    seqs q, db;
    seqs_random(&q, 3, 513, 1300, "ARNDCQEGHILKMFPSTWYV");
    seqs_random(&db, 12, 1, 700, "ARNDCQEGHILKMFPSTWYV");
    free(db.seq[5]);
    db.len[5] = 8200 + test_range(0, 300);
    db.seq[5] = malloc((size_t)db.len[5] + 1);
    for (int64_t j = 0; j < db.len[5]; j++) db.seq[5][j] = "ARNDCQEGHILKMFPSTWYV"[test_range(0, 19)];
    db.seq[5][db.len[5]] = 0;
    memcpy(db.seq[5] + 4000, q.seq[1], (size_t)q.len[1]); /* the long record holds a query */
    memcpy(db.seq[2], q.seq[0], (size_t)(db.len[2] < q.len[0] ? db.len[2] : q.len[0]));
    check_search(&q, &db, &p, PW_SIMD_AUTO, 2, 12, "long queries and records");
    seqs_free(&q);
    seqs_free(&db);
}

/* Record k against record k against a textbook Gotoh, DNA and protein (BLOSUM62), with the
 * longest query at most 64, 128, 384 and 700 rows (on the GPU a launch takes 4 or 8 rows a thread
 * in 16-bit lanes, 2, 4 or 8 in 32-bit ones, by its longest query: one segment or several), and
 * one pair too long for the GPU's pair kernels (the CPU takes it).  On the GPU both kernels, the
 * 16-bit one with nothing to recompute (these scores stay far below 16 bits: a wrong -1 would
 * otherwise hide behind the 32-bit rerun). */
static void pairs(void)
{
    static const int longest[] = {64, 128, 384, 700};
    for (int round = 0; round < 8; round++) {
        const int protein = round % 2 == 1, cap = longest[round / 2];
        const char *letters = protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGTN";
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.gap_open = protein ? 11 : 3;
        p.gap_extend = 1;
        if (protein) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_by_name("BLOSUM62");
        }
        seqs a, b;
        seqs_random(&a, 33, 1, cap, letters);
        seqs_random(&b, 33, 1, protein ? 600 : 200, letters);
        if (protein && cap == 700) { /* pair 7: a query longer than the pair kernel takes, holding its record */
            free(a.seq[7]);
            a.len[7] = 8200 + test_range(0, 100);
            a.seq[7] = malloc((size_t)a.len[7] + 1);
            for (int64_t j = 0; j < a.len[7]; j++) a.seq[7][j] = letters[test_range(0, 19)];
            a.seq[7][a.len[7]] = 0;
            memcpy(a.seq[7] + 3000, b.seq[7], (size_t)b.len[7]);
        }
        pw_sw_hit hits[33];
        pw_batch_info info;
        pw_options o;
        pw_options_init(&o);
        o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        pw_status st = PW_OK;
        /* on the GPU both kernels: two pairs a warp in 16-bit lanes, then PEERWAVE_PAIRS_LANES=32 */
        for (int wide = 0; wide < (on_gpu ? 2 : 1); wide++) {
            if (wide) setenv("PEERWAVE_PAIRS_LANES", "32", 1);
            st = pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info);
            unsetenv("PEERWAVE_PAIRS_LANES");
            CHECK(st == PW_OK && info.backend == o.backend, "pairs: %s on backend %d", pw_status_str(st), (int)info.backend);
            CHECK(!on_gpu || (info.lane_bits == (wide ? 32 : 16) && info.recomputed == 0),
                  "pairs on the GPU, wide %d: lane_bits %d, recomputed %lld", wide, info.lane_bits, (long long)info.recomputed);
            for (int64_t k = 0; st == PW_OK && k < a.count; k++) {
                pw_sw_hit r = textbook(a.seq[k], a.len[k], b.seq[k], b.len[k], &p);
                CHECK(hits[k].query == k && hits[k].record == k && hits[k].score == r.score &&
                          hits[k].end_query == r.end_query && hits[k].end_record == r.end_record,
                      "%s pair %lld (queries to %d, %d-bit lanes): %d (%lld, %lld) want %d (%lld, %lld)",
                      protein ? "protein" : "DNA", (long long)k, cap, info.lane_bits, hits[k].score,
                      (long long)hits[k].end_query, (long long)hits[k].end_record, r.score, (long long)r.end_query,
                      (long long)r.end_record);
            }
        }
        b.set.count = 32;
        CHECK(pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info) == PW_ERR_INVALID_SIZE, "pairs of unequal counts");
        seqs_free(&a);
        seqs_free(&b);
    }
}

/* DNA pairs in narrow lanes against a textbook Gotoh: on the CPU's vector lanes (a lane a pair:
 * src/batch/sw_pairs_cpu.c) on every vector set this machine has, on the GPU two pairs a warp in
 * 16-bit lanes (pairs_sw16_proc.cuh: an H100 or later); lengths that differ within a group (a
 * warp), N (which matches nothing, itself included), scores full of ties (mismatch 0, gaps 0),
 * pairs past 16 bits (scored again: by pw_sw on the CPU, in 32-bit lanes on the GPU), scores past
 * a byte (the GPU's 32-bit lanes from the start) and pairs longer than the lanes take. */
static void pairs_on_lanes(void)
{
    static const int scores[][4] = {{2, -1, 3, 1}, {1, 0, 0, 0}, {1, -3, 5, 2}, {700, -700, 700, 700}, {3, 1, 2, 1},
                                    {100, -100, 300, 50}};
    static const pw_simd sets[] = {PW_SIMD_SCALAR, PW_SIMD_SSE41, PW_SIMD_AVX2, PW_SIMD_AVX512};
    /* the last: a matrix of the equality form whose mismatch is positive (padding that scores
     * above 0 could win there: the lanes must leave it to pw_sw) */
    static const int8_t plus[16] = {3, 1, 1, 1, 1, 3, 1, 1, 1, 1, 3, 1, 1, 1, 1, 3};
    static const pw_matrix positive = {"positive", "ACGT", 'A', 4, plus};
    for (int sc = 0; sc < 6; sc++) {
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = scores[sc][0], p.mismatch = scores[sc][1], p.gap_open = scores[sc][2], p.gap_extend = scores[sc][3];
        if (sc == 4) p.scoring = PW_SCORING_MATRIX, p.matrix = &positive;
        seqs a, b;
        seqs_random(&a, 75, 1, 300, "ACGTN");
        seqs_random(&b, 75, 1, 300, "ACGTN");
        for (int k = 0; k < 75; k += 5) { /* related pairs: long runs of equal letters, high scores */
            const int64_t len = a.len[k] < b.len[k] ? a.len[k] : b.len[k];
            for (int64_t j = 0; j < len; j++)
                if (test_range(0, 9)) b.seq[k][j] = a.seq[k][j] == 'N' ? 'A' : a.seq[k][j], a.seq[k][j] = b.seq[k][j];
        }
        if (sc == 5) { /* pair 0: 500 equal letters, a best of 50000 */
            for (int side = 0; side < 2; side++) {
                seqs *x = side ? &b : &a;
                free(x->seq[0]);
                x->len[0] = 500;
                x->seq[0] = malloc(501);
                for (int j = 0; j < 500; j++) x->seq[0][j] = "ACGT"[j * 7 % 11 % 4];
                x->seq[0][500] = 0;
            }
        }
        if (sc == 0) { /* pair 3: longer than the lanes take */
            free(a.seq[3]);
            a.len[3] = 8200;
            a.seq[3] = malloc((size_t)a.len[3] + 1);
            for (int64_t j = 0; j < a.len[3]; j++) a.seq[3][j] = "ACGT"[test_range(0, 3)];
            a.seq[3][a.len[3]] = 0;
        }
        for (int v = 0; v < (on_gpu ? 1 : 4); v++) {
            pw_options o;
            pw_options_init(&o);
            o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
            o.simd = sets[v];
            o.threads = 3;
            pw_sw_hit hits[75];
            pw_batch_info info;
            const pw_status st = pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info);
            if (st == PW_ERR_UNSUPPORTED) continue; /* (a set this machine lacks) */
            CHECK(st == PW_OK, "lanes pairs %d/%d/%d/%d, simd %d: %s (%s)", p.match, p.mismatch, p.gap_open, p.gap_extend,
                  (int)sets[v], pw_status_str(st), pw_error_detail());
            /* the summary: 16-bit lanes where they ran, the pairs past them counted (the related
             * ones at 700 or 100 a match pass 32767).  The CPU's lanes take equality tables whose
             * mismatch is at most 0, the GPU's any table within signed bytes. */
            const int lanes_ran = on_gpu ? sc != 3 : sets[v] != PW_SIMD_SCALAR && sc != 4;
            /* on the GPU exactly the pairs whose best passes 32767 - top (the table's largest) */
            int64_t past = 0;
            for (int64_t k = 0; on_gpu && k < a.count; k++)
                past += textbook(a.seq[k], a.len[k], b.seq[k], b.len[k], &p).score > 32767 - p.match;
            CHECK(info.lane_bits == (lanes_ran ? 16 : 32) &&
                      (on_gpu && lanes_ran ? info.recomputed == past
                                           : lanes_ran && sc >= 3 && sc != 4 ? info.recomputed > 0 : info.recomputed == 0),
                  "lanes pairs %d/%d/%d/%d, simd %d: lane_bits %d, recomputed %lld", p.match, p.mismatch, p.gap_open,
                  p.gap_extend, (int)sets[v], info.lane_bits, (long long)info.recomputed);
            for (int64_t k = 0; st == PW_OK && k < a.count; k++) {
                const pw_sw_hit r = textbook(a.seq[k], a.len[k], b.seq[k], b.len[k], &p);
                CHECK(hits[k].score == r.score && hits[k].end_query == r.end_query && hits[k].end_record == r.end_record,
                      "lanes pairs %d/%d/%d/%d, simd %d, pair %lld (%lld x %lld): %d (%lld, %lld) want %d (%lld, %lld)",
                      p.match, p.mismatch, p.gap_open, p.gap_extend, (int)sets[v], (long long)k, (long long)a.len[k],
                      (long long)b.len[k], hits[k].score, (long long)hits[k].end_query, (long long)hits[k].end_record,
                      r.score, (long long)r.end_query, (long long)r.end_record);
            }
        }
        seqs_free(&a);
        seqs_free(&b);
    }
}

/* How many of the pairs' hits differ from the textbook's (score or end cell); *first: the first such. */
static int64_t textbook_misses(const seqs *a, const seqs *b, const pw_sw_params *p, const pw_sw_hit *hits, int64_t *first)
{
    int64_t wrong = 0;
    *first = -1;
    for (int64_t k = 0; k < a->count; k++) {
        const pw_sw_hit r = textbook(a->seq[k], a->len[k], b->seq[k], b->len[k], p);
        const int bad = hits[k].score != r.score || hits[k].end_query != r.end_query || hits[k].end_record != r.end_record;
        wrong += bad;
        if (bad && *first < 0) *first = k;
    }
    return wrong;
}

/* Many pairs (on the GPU: many chunks, each staging slot and device lane used several times,
 * chunks of differing lengths), every one against the textbook; some related (long runs of equal
 * letters). */
static void pairs_many(void)
{
    enum { N = 20000 };
    seqs a, b;
    seqs_random(&a, N, 1, 150, "ACGTN");
    seqs_random(&b, N, 1, 150, "ACGTN");
    for (int k = 0; k < N; k += 3) {
        const int64_t len = a.len[k] < b.len[k] ? a.len[k] : b.len[k];
        for (int64_t j = 0; j < len; j++)
            if (test_range(0, 9)) b.seq[k][j] = a.seq[k][j];
    }
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = 4, p.gap_extend = 1;
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    pw_sw_hit *hits = malloc(sizeof *hits * N);
    pw_batch_info info;
    const pw_status st = pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info);
    CHECK(st == PW_OK && info.backend == o.backend, "many pairs: %s (%s)", pw_status_str(st), pw_error_detail());
    int64_t first = -1;
    const int64_t wrong = st == PW_OK ? textbook_misses(&a, &b, &p, hits, &first) : 0;
    CHECK(wrong == 0, "many pairs: %lld of %d differ from the textbook, the first pair %lld", (long long)wrong, N,
          (long long)first);
    free(hits);
    seqs_free(&a);
    seqs_free(&b);
}

/* Pairs over a list of GPUs (pw_sw_pairs_batch): GPU 0 named twice, so two parts run side by side
 * on a one-GPU machine (on the CPU backend the list is not used), every pair against the
 * textbook and the parts' shares reported; HDSS and bad lists refused. */
static void pairs_over_gpus(void)
{
    enum { N = 3001 };
    seqs a, b;
    seqs_random(&a, N, 1, 400, "ACGT");
    seqs_random(&b, N, 1, 400, "ACGT");
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    static const int twice[2] = {0, 0};
    pw_batch_options batch = {.schedule = PW_BATCH_ONE, .devices = twice, .n_devices = 2};
    pw_sw_hit *hits = malloc(sizeof *hits * N);
    pw_batch_info info;
    pw_status st = pw_sw_pairs_batch(&a.set, &b.set, &p, &o, &batch, hits, &info);
    CHECK(st == PW_OK, "pairs over GPUs 0, 0: %s (%s)", pw_status_str(st), pw_error_detail());
    CHECK(!on_gpu || (info.gpus == 2 && info.gpu_device_share[0] > 0.3 && info.gpu_device_share[1] > 0.3 &&
                      fabs(info.gpu_share - 1) < 1e-9 && info.lane_bits == 16),
          "pairs over GPUs 0, 0: %d GPUs, shares %.3f and %.3f, lane_bits %d", info.gpus, info.gpu_device_share[0],
          info.gpu_device_share[1], info.lane_bits);
    int64_t first = -1;
    const int64_t wrong = st == PW_OK ? textbook_misses(&a, &b, &p, hits, &first) : 0;
    CHECK(wrong == 0, "pairs over GPUs 0, 0: %lld of %d differ from the textbook, the first pair %lld", (long long)wrong,
          N, (long long)first);
    batch.schedule = PW_BATCH_HDSS;
    CHECK(pw_sw_pairs_batch(&a.set, &b.set, &p, &o, &batch, hits, &info) == PW_ERR_UNSUPPORTED, "pairs under HDSS refused");
    batch.schedule = PW_BATCH_ONE;
    batch.n_devices = PW_BATCH_MAX_GPUS + 1;
    CHECK(pw_sw_pairs_batch(&a.set, &b.set, &p, &o, &batch, hits, &info) == PW_ERR_INVALID_ARGUMENT, "too many devices refused");
    static const int negative[1] = {-1};
    batch.devices = negative, batch.n_devices = 1;
    CHECK(pw_sw_pairs_batch(&a.set, &b.set, &p, &o, &batch, hits, &info) == PW_ERR_INVALID_ARGUMENT, "device -1 refused");
    free(hits);
    seqs_free(&a);
    seqs_free(&b);
}

/* A pair whose best is exactly the GPU's 16-bit limit (32767 - the top score: it stays in 16 bits),
 * one a match past it (32767: scored again in 32-bit lanes) and one two matches past it (its
 * 16-bit values really wrap), equal letters of the pair's length. */
static void pairs_at_limit16(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.match = 7, p.mismatch = -3, p.gap_open = 5, p.gap_extend = 2;
    const int64_t limit = 32767 - 7;
    seqs a, b;
    seqs_random(&a, 4, 10, 20, "ACGT");
    seqs_random(&b, 4, 10, 20, "ACGT");
    for (int k = 0; k < 3; k++) /* pair 0: limit / 7 letters, a best of exactly the limit; pairs 1, 2: one, two more */
        for (int side = 0; side < 2; side++) {
            seqs *x = side ? &b : &a;
            free(x->seq[k]);
            x->len[k] = limit / 7 + k;
            x->seq[k] = malloc((size_t)x->len[k] + 1);
            for (int64_t j = 0; j < x->len[k]; j++) x->seq[k][j] = "ACGT"[(j * 5 + j / 3) % 4];
            x->seq[k][x->len[k]] = 0;
        }
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    pw_sw_hit hits[4];
    pw_batch_info info;
    const pw_status st = pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info);
    CHECK(st == PW_OK, "pairs at the 16-bit limit: %s (%s)", pw_status_str(st), pw_error_detail());
    CHECK(!on_gpu || (info.lane_bits == 16 && info.recomputed == 2), "pairs at the 16-bit limit on the GPU: lane_bits %d, recomputed %lld",
          info.lane_bits, (long long)info.recomputed);
    for (int64_t k = 0; st == PW_OK && k < a.count; k++) {
        const pw_sw_hit r = textbook(a.seq[k], a.len[k], b.seq[k], b.len[k], &p);
        CHECK(hits[k].score == r.score && hits[k].end_query == r.end_query && hits[k].end_record == r.end_record &&
                  (k > 2 || r.score == limit + 7 * k),
              "pair %lld at the 16-bit limit: %d (%lld, %lld) want %d (%lld, %lld)", (long long)k, hits[k].score,
              (long long)hits[k].end_query, (long long)hits[k].end_record, r.score, (long long)r.end_query,
              (long long)r.end_record);
    }
    seqs_free(&a);
    seqs_free(&b);
}

/* Bad letters in sets large enough to be encoded over several threads (> 2^20 letters): the
 * error names the first bad record (the database's in its sorted order: equal lengths keep
 * theirs), on the CPU and on the GPU (pw_sw_pairs checks both sides before either engine). */
static void bad_letters_in_large_sets(void)
{
    enum { N = 3000, L = 500 };
    char **seq = malloc(sizeof *seq * N);
    int64_t *len = malloc(sizeof *len * N);
    for (int k = 0; k < N; k++) {
        len[k] = L;
        seq[k] = malloc(L + 1);
        for (int j = 0; j < L; j++) seq[k][j] = "ACGT"[test_rand() % 4];
        seq[k][L] = 0;
    }
    seq[2100][17] = '#', seq[2900][3] = '#', seq[2950][0] = '#';
    const pw_seq_set set = {N, (const char *const *)seq, len}, one = {1, (const char *const *)seq, len};
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.threads = 4;
    pw_sw_hit *hits = malloc(sizeof *hits * N);
    pw_batch_info info;
    pw_status st = pw_sw_search(&one, &set, &p, &o, NULL, 1, hits, &info);
    CHECK(st == PW_ERR_BAD_INPUT && strstr(pw_error_detail(), "database record 2100") && strstr(pw_error_detail(), "position 17"),
          "large database, bad letters: %s / %s", pw_status_str(st), pw_error_detail());
    st = pw_sw_pairs(&set, &set, &p, &o, hits, &info);
    CHECK(st == PW_ERR_BAD_INPUT && strstr(pw_error_detail(), "record 2100"), "large pairs, bad letters: %s / %s",
          pw_status_str(st), pw_error_detail());
    for (int k = 0; k < N; k++) free(seq[k]);
    free(seq), free(len), free(hits);
}

static void bad_input(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    const char *good[] = {"ACGT", "GATTACA"}, *bad[] = {"ACGT", "GAT#ACA"};
    int64_t len[] = {4, 7}, zero[] = {4, 0};
    pw_seq_set q = {1, good, len}, db = {2, good, len}, dbad = {2, bad, len}, dzero = {2, good, zero}, empty = {0, good, len};
    pw_sw_hit hits[4];
    pw_batch_info info;
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    pw_status st = pw_sw_search(&q, &dbad, &p, &o, NULL, 2, hits, &info);
    CHECK(st == PW_ERR_BAD_INPUT && strstr(pw_error_detail(), "database record 1") && strstr(pw_error_detail(), "position 3"),
          "bad letter: %s / %s", pw_status_str(st), pw_error_detail());
    CHECK(pw_sw_search(&q, &dzero, &p, &o, NULL, 2, hits, &info) == PW_ERR_INVALID_SIZE, "empty record");
    CHECK(pw_sw_search(&empty, &db, &p, &o, NULL, 2, hits, &info) == PW_ERR_INVALID_SIZE, "empty query set");
    CHECK(pw_sw_search(&q, &empty, &p, &o, NULL, 2, hits, &info) == PW_ERR_INVALID_SIZE, "empty database");
    CHECK(pw_sw_search(&q, &db, &p, &o, NULL, 0, hits, &info) == PW_ERR_INVALID_ARGUMENT, "top 0");
    CHECK(pw_sw_search(&q, &db, &p, &o, NULL, 2, NULL, &info) == PW_ERR_NULL_ARGUMENT, "no hits");
    CHECK(pw_sw_search(NULL, &db, &p, &o, NULL, 2, hits, &info) == PW_ERR_NULL_ARGUMENT, "no queries");
    CHECK(pw_sw_search(&q, &db, NULL, &o, NULL, 2, hits, &info) == PW_ERR_NULL_ARGUMENT, "no params");
    pw_batch_options bad_static = {.schedule = PW_BATCH_STATIC, .gpu_weight = 1}, bad_kind = {.schedule = (pw_batch_schedule)7};
    CHECK(pw_sw_search(&q, &db, &p, &o, &bad_static, 2, hits, &info) == PW_ERR_INVALID_ARGUMENT, "static without weights");
    CHECK(pw_sw_search(&q, &db, &p, &o, &bad_kind, 2, hits, &info) == PW_ERR_INVALID_ARGUMENT, "unknown schedule");
    /* the GPU list: at most PW_BATCH_MAX_GPUS, listed, none negative or twice, several only shared */
    const int twice[2] = {1, 1}, negative[1] = {-1}, pair[2] = {0, 1}, many[PW_BATCH_MAX_GPUS + 1] = {0};
    const pw_batch_options bad_devices[] = {{.schedule = PW_BATCH_HDSS, .devices = twice, .n_devices = 2},
                                            {.schedule = PW_BATCH_HDSS, .devices = negative, .n_devices = 1},
                                            {.schedule = PW_BATCH_HDSS, .devices = NULL, .n_devices = 2},
                                            {.schedule = PW_BATCH_HDSS, .devices = many, .n_devices = PW_BATCH_MAX_GPUS + 1},
                                            {.schedule = PW_BATCH_HDSS, .devices = pair, .n_devices = -1},
                                            {.schedule = PW_BATCH_ONE, .devices = pair, .n_devices = 2}};
    for (size_t k = 0; k < sizeof bad_devices / sizeof bad_devices[0]; k++)
        CHECK(pw_sw_search(&q, &db, &p, &o, &bad_devices[k], 2, hits, &info) == PW_ERR_INVALID_ARGUMENT &&
                  strstr(pw_error_detail(), "batch options"),
              "bad device list %zu: %s", k, pw_error_detail());
    p.match = PW_MAX_SCORE_MAGNITUDE + 1;
    CHECK(pw_sw_search(&q, &db, &p, &o, NULL, 2, hits, &info) == PW_ERR_INVALID_ARGUMENT, "match out of range");
}

/* ---- DTW over many series: against a textbook full matrix, ties to the smaller record -------- */

static double textbook_dtw(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost)
{
    double *D = malloc(sizeof *D * (size_t)(n * m));
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            const double x = a[i] - b[j], c = cost == PW_DTW_SQUARED ? x * x : fabs(x);
            double best = i == 0 && j == 0 ? 0 : INFINITY;
            if (i > 0 && D[(i - 1) * m + j] < best) best = D[(i - 1) * m + j];
            if (j > 0 && D[i * m + j - 1] < best) best = D[i * m + j - 1];
            if (i > 0 && j > 0 && D[(i - 1) * m + j - 1] < best) best = D[(i - 1) * m + j - 1];
            D[i * m + j] = c + best;
        }
    const double d = D[n * m - 1];
    free(D);
    return d;
}

typedef struct series_list {
    int64_t count, *len;
    double **v;
    pw_series_set set;
} series_list;

static void series_random(series_list *s, int64_t count, int64_t lo, int64_t hi, int integers)
{
    s->count = count;
    s->len = malloc(sizeof *s->len * (size_t)count);
    s->v = malloc(sizeof *s->v * (size_t)count);
    for (int64_t k = 0; k < count; k++) {
        s->len[k] = test_range(lo, hi);
        s->v[k] = malloc(sizeof(double) * (size_t)s->len[k]);
        for (int64_t j = 0; j < s->len[k]; j++)
            s->v[k][j] = integers ? (double)test_range(0, 3) : (double)test_range(-1000000, 1000000) / 7919.0;
    }
    s->set = (pw_series_set){count, (const double *const *)s->v, s->len};
}

static void series_free(series_list *s)
{
    for (int64_t k = 0; k < s->count; k++) free(s->v[k]);
    free(s->v);
    free(s->len);
}

static void dtw_batches(void)
{
    for (int round = 0; round < 12; round++) {
        const pw_dtw_cost cost = round % 2 ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        const int integers = round % 3 == 0; /* small integers: equal distances, the tie rule */
        series_list q, db;
        /* (on the GPU queries past a warp's 128 rows too: several segments, bottom rows) */
        series_random(&q, test_range(1, 3), 1, on_gpu ? 400 : 60, integers);
        series_random(&db, test_range(1, 40), 1, on_gpu ? 300 : 70, integers);
        const int top = (int)test_range(1, (int)db.count + 2);
        pw_dtw_hit *hits = calloc((size_t)(q.count * top), sizeof *hits);
        pw_batch_info info;
        pw_options o;
        pw_options_init(&o);
        o.threads = (int)test_range(1, 3);
        o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        pw_status st = pw_dtw_search(&q.set, &db.set, cost, &o, top, hits, &info);
        CHECK(st == PW_OK, "dtw round %d: %s", round, pw_status_str(st));
        CHECK(st != PW_OK || info.backend == o.backend, "dtw round %d ran on backend %d", round, (int)info.backend);
        double *ref = malloc(sizeof *ref * (size_t)db.count);
        char *taken = malloc((size_t)db.count);
        for (int64_t k = 0; st == PW_OK && k < q.count; k++) {
            for (int64_t r = 0; r < db.count; r++) ref[r] = textbook_dtw(q.v[k], q.len[k], db.v[r], db.len[r], cost), taken[r] = 0;
            for (int t = 0; t < top; t++) {
                int64_t pick = -1;
                for (int64_t r = 0; r < db.count; r++)
                    if (!taken[r] && (pick < 0 || ref[r] < ref[pick])) pick = r;
                const pw_dtw_hit *h = &hits[k * top + t];
                if (pick < 0) {
                    CHECK(h->record == -1, "dtw round %d query %lld slot %d should be empty", round, (long long)k, t);
                    continue;
                }
                taken[pick] = 1;
                CHECK(h->query == k && h->record == pick && h->distance == ref[pick],
                      "dtw round %d query %lld hit %d: record %lld %.17g, want %lld %.17g", round, (long long)k, t,
                      (long long)h->record, h->distance, (long long)pick, ref[pick]);
            }
        }
        /* pairs: query k against record k */
        if (q.count <= db.count) {
            pw_series_set first = {q.count, db.set.values, db.set.length};
            st = pw_dtw_pairs(&q.set, &first, cost, &o, hits, &info);
            for (int64_t k = 0; st == PW_OK && k < q.count; k++)
                CHECK(hits[k].distance == textbook_dtw(q.v[k], q.len[k], db.v[k], db.len[k], cost), "dtw pair %lld", (long long)k);
            CHECK(st == PW_OK, "dtw pairs: %s", pw_status_str(st));
        }
        free(ref);
        free(taken);
        free(hits);
        series_free(&q);
        series_free(&db);
    }
    /* bad input */
    double good[] = {1, 2, 3}, bad[] = {1, NAN, 3};
    const double *gv[] = {good}, *bv[] = {bad};
    int64_t len[] = {3}, zero[] = {0};
    pw_series_set g = {1, gv, len}, b = {1, bv, len}, z = {1, gv, zero}, none = {0, gv, len};
    pw_dtw_hit h[2];
    pw_batch_info info;
    pw_status st = pw_dtw_search(&g, &b, PW_DTW_ABSOLUTE, NULL, 1, h, &info);
    CHECK(st == PW_ERR_BAD_INPUT && strstr(pw_error_detail(), "database series 0: sample 1"), "dtw NaN: %s",
          pw_error_detail());
    CHECK(pw_dtw_search(&g, &z, PW_DTW_ABSOLUTE, NULL, 1, h, &info) == PW_ERR_INVALID_SIZE, "dtw empty series");
    CHECK(pw_dtw_search(&none, &g, PW_DTW_ABSOLUTE, NULL, 1, h, &info) == PW_ERR_INVALID_SIZE, "dtw empty set");
    CHECK(pw_dtw_search(&g, &g, (pw_dtw_cost)5, NULL, 1, h, &info) == PW_ERR_INVALID_ARGUMENT, "dtw cost");
    CHECK(pw_dtw_search(&g, &g, PW_DTW_ABSOLUTE, NULL, 0, h, &info) == PW_ERR_INVALID_ARGUMENT, "dtw top 0");
    /* A distance past double's range (squared costs of 1e300): PW_ERR_OVERFLOW naming the pair and
     * their lengths, also when a worker thread (not the caller's) met it.  (The detail is per
     * thread: a worker's own was lost with the thread.) */
    double near[2] = {1, 2}, far[2] = {1e300, -1e300};
    const double *dbv[8] = {near, near, near, near, near, far, near, near}, *qv[2] = {good, good};
    int64_t dbl[8] = {2, 2, 2, 2, 2, 2, 2, 2}, ql[2] = {3, 3};
    pw_series_set q1 = {1, qv, ql}, db8 = {8, dbv, dbl}, q2 = {2, qv, ql}, b2 = {2, dbv + 4, dbl};
    pw_options four;
    pw_options_init(&four);
    four.threads = 4;
    pw_dtw_hit h8[8];
    st = pw_dtw_search(&q1, &db8, PW_DTW_SQUARED, on_gpu ? NULL : &four, 1, h8, &info);
    CHECK(st == PW_ERR_OVERFLOW && strstr(pw_error_detail(), "query 0 (3 samples) against record 5 (2 samples)") &&
              strstr(pw_error_detail(), "range"),
          "dtw search overflow: %s (%s)", pw_status_str(st), pw_error_detail());
    st = pw_dtw_pairs(&q2, &b2, PW_DTW_SQUARED, on_gpu ? NULL : &four, h8, &info);
    CHECK(st == PW_ERR_OVERFLOW && strstr(pw_error_detail(), "query 1 (3 samples) against record 1 (2 samples)"),
          "dtw pairs overflow: %s (%s)", pw_status_str(st), pw_error_detail());
    CHECK(pw_dtw_search(&q1, &db8, PW_DTW_ABSOLUTE, &four, 1, h8, &info) == PW_OK && h8[0].record == 0,
          "dtw absolute costs of 1e300 fit");
}

/* Under AUTO a batch too small to repay the GPU's start-up runs on the CPU threads (fewer than
 * PW_AUTO_GPU_MIN_CELLS cells a thread: pw_backend_small_work), a larger one on the GPU where there
 * is one (also in the run without --gpu); the answers are the textbook's either way.  (Without a
 * GPU both run on the CPU.) */
static void auto_small_batches(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_AUTO;
    o.threads = 1;
    for (int big = 0; big < 2; big++) {
        /* 16 pairs of <= 100^2 cells, or 256 of 500^2 (6.4e7 cells, past one thread's 5e7) */
        const int64_t n = big ? 256 : 16, len = big ? 500 : 100;
        seqs a, b;
        seqs_random(&a, n, len, len, "ACGT");
        seqs_random(&b, n, big ? len : 1, len, "ACGT");
        pw_sw_hit *hits = malloc(sizeof *hits * (size_t)n);
        pw_batch_info info;
        pw_status st = pw_sw_pairs(&a.set, &b.set, &p, &o, hits, &info);
        const pw_backend want = big && gpu_here ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        CHECK(st == PW_OK && info.backend == want, "auto pairs (%s): %s on backend %d", big ? "large" : "small",
              pw_status_str(st), (int)info.backend);
        int64_t first = -1;
        CHECK(st != PW_OK || textbook_misses(&a, &b, &p, hits, &first) == 0, "auto pairs: pair %lld differs",
              (long long)first);
        /* the search: every query against every record (small: 2 x 16 records of <= 100) */
        if (!big) {
            pw_seq_set two = {2, a.set.seq, a.set.length};
            pw_sw_hit top[2];
            st = pw_sw_search(&two, &b.set, &p, &o, NULL, 1, top, &info);
            CHECK(st == PW_OK && info.backend == PW_BACKEND_CPU, "auto search (small): %s on backend %d",
                  pw_status_str(st), (int)info.backend);
        }
        free(hits);
        seqs_free(&a);
        seqs_free(&b);
    }
    /* DTW: a small search stays on the CPU as well */
    const double v[4] = {0, 1, 2, 3};
    const double *vs[1] = {v};
    const int64_t vl[1] = {4};
    pw_series_set one = {1, vs, vl};
    pw_dtw_hit h;
    pw_batch_info info;
    const pw_status st = pw_dtw_search(&one, &one, PW_DTW_ABSOLUTE, &o, 1, &h, &info);
    CHECK(st == PW_OK && info.backend == PW_BACKEND_CPU && h.record == 0 && h.distance == 0,
          "auto dtw (small): %s on backend %d", pw_status_str(st), (int)info.backend);
}

int main(int argc, char **argv)
{
    on_gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    gpu_here = test_cuda_device_runs(NULL);
    if (on_gpu && !gpu_here) {
        printf("no GPU: skipped\n");
        return 77;
    }
    test_seed(30);
    random_batches();
    saturation();
    if (on_gpu) { /* the GPU's query profiles one at a time before each launch (by default all kept on the device) */
        setenv("PEERWAVE_BATCH_PROFILES", "each", 1);
        random_batches();
        saturation();
        unsetenv("PEERWAVE_BATCH_PROFILES");
    }
    long_ones();
    pairs();
    pairs_on_lanes();
    pairs_at_limit16();
    pairs_many();
    pairs_over_gpus();
    auto_small_batches();
    bad_letters_in_large_sets();
    if (!on_gpu) bad_input();
    dtw_batches();
    return test_finish();
}
