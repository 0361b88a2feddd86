/*
 * batch_sw.c - the database search (pw_sw_search) on simulated proteins: a database of N
 * records of one length or of a Swiss-Prot-like length mix, queries of the given lengths,
 * BLOSUM62 with gaps 11/1; GCUPS of the scoring (info.seconds), every result checked:
 *   - each query's best hit and a sample of records scored again by the 32-bit scalar cells;
 *   - with parasail (built with it): the same sample by parasail's striped 16-bit code, and its
 *     time over the whole database on the same threads (the CPU comparator).
 *
 *   bench_batch_sw [--records N] [--length L | --mix | --skewed] [--queries 144,464,...]
 *                  [--backend cpu|cuda] [--threads T] [--sample S] [--parasail] [--schedules]
 *
 * --skewed: 98% of the records short (16 to 64 letters), 2% long (2000 to 6000): about a third of
 * the cells in short records, where a GPU warp's fill costs most and a training run on records of
 * 256 letters says least (HDSS against a static split, issue 30).
 *
 * --schedules: the same search again on the CPU alone, under HDSS (the GPU and the CPU cores
 * together) and under a static split whose weights come from a training run (HDSS on 200000
 * records of length 256, the rates it reports); with the ideal combined time
 * 1 / (1 / T_gpu + 1 / T_cpu) of the first two.  Every run's hits must equal the first run's.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "peerwave_batch.h"
#ifdef PW_BENCH_PARASAIL
#include <parasail.h>
#include <pthread.h>
#endif

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double uniform(void) { return (double)(next_rand() >> 11) * (1.0 / 9007199254740992.0); }

/* Swiss-Prot's amino-acid frequencies (UniProt release statistics), in ARNDCQEGHILKMFPSTWYV order */
static const char amino[] = "ARNDCQEGHILKMFPSTWYV";
static const double freq[] = {8.25, 5.53, 4.06, 5.46, 1.38, 3.93, 6.72, 7.07, 2.27, 5.91,
                              9.64, 5.80, 2.41, 3.86, 4.74, 6.65, 5.36, 1.10, 2.92, 6.86};

/* letters by frequency: 4096 slots, each random draw of 12 bits picks one */
static char letter_table[4096];
static void letter_table_init(void)
{
    double acc = 0;
    int at = 0;
    for (int k = 0; k < 20; k++) {
        acc += freq[k];
        const int end = k == 19 ? 4096 : (int)(acc / 99.92 * 4096);
        while (at < end) letter_table[at++] = amino[k];
    }
}

static char *random_protein(int64_t n)
{
    char *s = malloc((size_t)n + 1);
    for (int64_t k = 0; k < n; k += 5) {
        uint64_t r = next_rand();
        for (int b = 0; b < 5 && k + b < n; b++, r >>= 12) s[k + b] = letter_table[r & 4095];
    }
    s[n] = 0;
    return s;
}

/* Swiss-Prot-like lengths: log-normal, median 300, clipped to [10, 35000] */
static int64_t mix_length(void)
{
    double z = sqrt(-2 * log(uniform() + 1e-300)) * cos(2 * M_PI * uniform());
    double l = exp(log(300.0) + 0.62 * z);
    return l < 10 ? 10 : l > 35000 ? 35000 : (int64_t)l;
}

/* --skewed: 98% short records (16 .. 64 letters), 2% long ones (2000 .. 6000) */
static int64_t skewed_length(void)
{
    return uniform() < 0.98 ? 16 + (int64_t)(uniform() * 49) : 2000 + (int64_t)(uniform() * 4001);
}

#ifdef PW_BENCH_PARASAIL /* (parasail's runs are timed here; ours report their own times) */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
#endif

/* The textbook's score (32-bit, linear space), the bench's own check. */
static int32_t score32(const char *a, int64_t n, const char *b, int64_t m, const pw_matrix *mx, int go, int ge)
{
    int idx[256];
    for (int c = 0; c < 256; c++) idx[c] = (int)(strchr(mx->alphabet, 'X') - mx->alphabet);
    for (int k = 0; k < mx->size; k++) idx[(unsigned char)mx->alphabet[k]] = k;
    int32_t *h = calloc((size_t)n, 4), *e = malloc((size_t)n * 4), best = 0;
    for (int64_t i = 0; i < n; i++) e[i] = -(1 << 29);
    for (int64_t j = 0; j < m; j++) {
        int32_t f = -(1 << 29), diag = 0, up = 0;
        for (int64_t i = 0; i < n; i++) {
            int32_t left = h[i], ei = e[i] - ge > left - go ? e[i] - ge : left - go;
            f = f - ge > up - go ? f - ge : up - go;
            int32_t v = diag + mx->scores[idx[(unsigned char)a[i]] * mx->size + idx[(unsigned char)b[j]]];
            v = v > 0 ? v : 0;
            v = v > ei ? v : ei;
            v = v > f ? v : f;
            h[i] = v, e[i] = ei, diag = left, up = v;
            best = v > best ? v : best;
        }
    }
    free(h);
    free(e);
    return best;
}

/* the same hits, field by field (the struct has padding) */
static int same_hits(const pw_sw_hit *a, const pw_sw_hit *b, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        if (a[k].query != b[k].query || a[k].record != b[k].record || a[k].score != b[k].score ||
            a[k].end_query != b[k].end_query || a[k].end_record != b[k].end_record)
            return 0;
    return 1;
}

#ifdef PW_BENCH_PARASAIL
typedef struct ps_work {
    const char *q;
    int n;
    char **db;
    int64_t *len, count;
    const parasail_matrix_t *matrix;
    atomic_llong next;
    int32_t *scores;
} ps_work;

static void *ps_worker(void *p)
{
    ps_work *w = p;
    parasail_profile_t *prof = parasail_profile_create_avx_256_16(w->q, w->n, w->matrix);
    int64_t k;
    while ((k = atomic_fetch_add(&w->next, 64)) < w->count)
        for (int64_t r = k; r < k + 64 && r < w->count; r++) {
            parasail_result_t *res = parasail_sw_striped_profile_avx2_256_16(prof, w->db[r], (int)w->len[r], 11, 1);
            int s = parasail_result_get_score(res);
            w->scores[r] = parasail_result_is_saturated(res) ? -1 : s;
            parasail_result_free(res);
        }
    parasail_profile_free(prof);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    int64_t records = 100000, length = 0, sample = 1000;
    int mix = 0, skewed = 0, threads = 0, with_parasail = 0, with_schedules = 0;
    const char *queries_arg = "144,464,1000,2005,5478", *backend = "auto";
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--records") && k + 1 < argc) records = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--length") && k + 1 < argc) length = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--mix")) mix = 1;
        else if (!strcmp(argv[k], "--skewed")) skewed = 1;
        else if (!strcmp(argv[k], "--queries") && k + 1 < argc) queries_arg = argv[++k];
        else if (!strcmp(argv[k], "--backend") && k + 1 < argc) backend = argv[++k];
        else if (!strcmp(argv[k], "--threads") && k + 1 < argc) threads = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--sample") && k + 1 < argc) sample = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--parasail")) with_parasail = 1;
        else if (!strcmp(argv[k], "--schedules")) with_schedules = 1;
        else {
            fprintf(stderr, "usage: %s [--records N] [--length L | --mix | --skewed] [--queries L1,L2,...] [--backend cpu|cuda] "
                            "[--threads T] [--sample S] [--parasail]\n", argv[0]);
            return 2;
        }
    }
    if (!length && !mix && !skewed) length = 256;
    letter_table_init();
    char **db = malloc(sizeof *db * (size_t)records);
    int64_t *len = malloc(sizeof *len * (size_t)records);
    double cells_per_query = 0;
    for (int64_t r = 0; r < records; r++) {
        len[r] = mix ? mix_length() : skewed ? skewed_length() : length;
        db[r] = random_protein(len[r]);
        cells_per_query += (double)len[r];
    }
    pw_seq_set dbset = {records, (const char *const *)db, len};
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.scoring = PW_SCORING_MATRIX;
    p.matrix = pw_matrix_by_name("BLOSUM62");
    p.gap_open = 11;
    p.gap_extend = 1;
    pw_options o;
    pw_options_init(&o);
    o.backend = !strcmp(backend, "cpu") ? PW_BACKEND_CPU : !strcmp(backend, "cuda") ? PW_BACKEND_CUDA : PW_BACKEND_AUTO;
    o.threads = threads;
    printf("database: %lld records, %s, %.4g letters; BLOSUM62 11/1\n", (long long)records,
           mix ? "Swiss-Prot-like length mix" : skewed ? "skewed lengths (98% 16-64, 2% 2000-6000)" : "one length",
           cells_per_query);
    int failures = 0;
    /* the queries, all in one search (as `peerwave sw --query Q.fa --db DB.fa` runs them) */
    int64_t nq = 0, qlen[64];
    for (const char *at = queries_arg; *at && nq < 64;) {
        qlen[nq++] = atoll(at);
        at = strchr(at, ',') ? strchr(at, ',') + 1 : at + strlen(at);
    }
    char *qseq[64];
    double query_letters = 0;
    for (int64_t k = 0; k < nq; k++) qseq[k] = random_protein(qlen[k]), query_letters += (double)qlen[k];
    pw_seq_set qset = {nq, (const char *const *)qseq, qlen};
    pw_sw_hit *hits = malloc(sizeof *hits * (size_t)(nq * 10));
    pw_batch_info info;
    { /* warm-up: the process's CUDA context is made here, not in the timed search */
        pw_seq_set one = {1, (const char *const *)qseq, qlen}, first = {1, (const char *const *)db, len};
        pw_sw_search(&one, &first, &p, &o, NULL, 1, hits, &info);
    }
    pw_status st = pw_sw_search(&qset, &dbset, &p, &o, NULL, 10, hits, &info);
    if (st != PW_OK) {
        fprintf(stderr, "search: %s (%s)\n", pw_status_str(st), pw_error_detail());
        return 1;
    }
    /* the check: each query's best hit, and a sample of records through the whole search (top = all) */
    const int64_t ns = sample < records ? sample : records;
    const char **ss = malloc(sizeof *ss * (size_t)ns);
    int64_t *sl = malloc(sizeof *sl * (size_t)ns), *pick = malloc(sizeof *pick * (size_t)ns);
    for (int64_t k = 0; k < ns; k++) {
        pick[k] = (int64_t)(next_rand() % (uint64_t)records);
        ss[k] = db[pick[k]];
        sl[k] = len[pick[k]];
    }
    pw_seq_set sset = {ns, ss, sl};
    pw_sw_hit *all = malloc(sizeof *all * (size_t)(ns * nq));
    pw_batch_info sinfo;
    if (pw_sw_search(&qset, &sset, &p, &o, NULL, (int)ns, all, &sinfo) != PW_OK) failures++;
    int64_t checked = 0;
    for (int64_t q = 0; q < nq; q++) {
        const pw_sw_hit *h = &hits[q * 10];
        failures += score32(qseq[q], qlen[q], db[h->record], len[h->record], p.matrix, 11, 1) != h->score;
        for (int64_t k = 0; k < ns; k++, checked++) {
            const pw_sw_hit *a = &all[q * ns + k];
            failures += a->record < 0 || score32(qseq[q], qlen[q], ss[a->record], sl[a->record], p.matrix, 11, 1) != a->score;
        }
        printf("query %6lld: best %d (record %lld)\n", (long long)qlen[q], h->score, (long long)h->record);
    }
    printf("search: %lld queries (%.0f letters) x %lld records: %.3f s scoring (%.3f s in all) %.1f GCUPS; %s, %d-bit lanes, "
           "%lld recomputed, %lld long; check %s (%lld pairs)\n",
           (long long)nq, query_letters, (long long)records, info.seconds, info.total_seconds,
           (double)info.cells / info.seconds / 1e9, info.backend == PW_BACKEND_CUDA ? "cuda" : pw_simd_name(info.simd),
           info.lane_bits, (long long)info.recomputed, (long long)info.long_pairs, failures ? "FAILED" : "ok",
           (long long)(checked + nq));
    if (with_schedules) {
        pw_sw_hit *again = malloc(sizeof *again * (size_t)(nq * 10));
        pw_batch_info cpu, hdss, stat, train;
        pw_options oc = o;
        oc.backend = PW_BACKEND_CPU;
        const pw_batch_options h = {.schedule = PW_BATCH_HDSS};
        int same = 1;
        st = pw_sw_search(&qset, &dbset, &p, &oc, NULL, 10, again, &cpu);
        same &= st == PW_OK && same_hits(again, hits, nq * 10);
        st = pw_sw_search(&qset, &dbset, &p, &o, &h, 10, again, &hdss);
        same &= st == PW_OK && same_hits(again, hits, nq * 10);
        /* the training run: uniform records of length 256 */
        const int64_t nt = records < 200000 ? records : 200000;
        char **tdb = malloc(sizeof *tdb * (size_t)nt);
        int64_t *tlen = malloc(sizeof *tlen * (size_t)nt);
        for (int64_t k = 0; k < nt; k++) tlen[k] = 256, tdb[k] = random_protein(256);
        pw_seq_set tset = {nt, (const char *const *)tdb, tlen};
        st = pw_sw_search(&qset, &tset, &p, &o, &h, 10, again, &train);
        const pw_batch_options sb = {.schedule = PW_BATCH_STATIC, .gpu_weight = train.gpu_rate > 0 ? train.gpu_rate : 1,
                                     .cpu_weight = train.cpu_rate > 0 ? train.cpu_rate : 1};
        st = pw_sw_search(&qset, &dbset, &p, &o, &sb, 10, again, &stat);
        same &= st == PW_OK && same_hits(again, hits, nq * 10);
        const double ideal = 1 / (1 / info.seconds + 1 / cpu.seconds);
        printf("schedules: gpu alone %.3f s, cpu alone %.3f s (%.1f GCUPS), ideal together %.3f s\n", info.seconds,
               cpu.seconds, (double)cpu.cells / cpu.seconds / 1e9, ideal);
        printf("  hdss   %.3f s = %.3fx ideal, %.3fx gpu alone; gpu %.1f%% cpu %.1f%% of the work, spread %.2f%%\n",
               hdss.seconds, hdss.seconds / ideal, info.seconds / hdss.seconds, 100 * hdss.gpu_share,
               100 * hdss.cpu_share, 100 * hdss.spread);
        printf("  static %.3f s = %.3fx ideal (weights %.3g, %.3g from a training run on %lld records of length 256); "
               "hdss %.2fx static; spread %.2f%%; hits %s\n",
               stat.seconds, stat.seconds / ideal, sb.gpu_weight, sb.cpu_weight, (long long)nt, stat.seconds / hdss.seconds,
               100 * stat.spread, same ? "the same in every run" : "DIFFER");
        failures += !same;
        for (int64_t k = 0; k < nt; k++) free(tdb[k]);
        free(tdb);
        free(tlen);
        free(again);
    }
#ifdef PW_BENCH_PARASAIL
    if (with_parasail) {
        parasail_matrix_t *mx = parasail_matrix_copy(parasail_matrix_lookup("blosum62"));
        int T = threads > 0 ? threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
        double total = 0;
        int64_t mismatch = 0, saturated = 0;
        for (int64_t q = 0; q < nq; q++) {
            ps_work w = {qseq[q], (int)qlen[q], db, len, records, mx, 0, malloc(sizeof(int32_t) * (size_t)records)};
            atomic_init(&w.next, 0);
            pthread_t tid[256];
            double t0 = now();
            for (int t = 0; t < T; t++) pthread_create(&tid[t], NULL, ps_worker, &w);
            for (int t = 0; t < T; t++) pthread_join(tid[t], NULL);
            total += now() - t0;
            for (int64_t k = 0; k < ns; k++) {
                const int32_t sc = w.scores[pick[k]];
                if (sc < 0) saturated++;
                else if (sc != score32(qseq[q], qlen[q], ss[k], sl[k], p.matrix, 11, 1)) mismatch++;
            }
            free(w.scores);
        }
        printf("parasail striped avx2 16-bit, %d threads: %.3f s %.1f GCUPS (ours %.2fx); sample: %lld differ, %lld "
               "saturated\n", T, total, (double)info.cells / total / 1e9, total / info.seconds, (long long)mismatch,
               (long long)saturated);
        failures += mismatch > 0;
        parasail_matrix_free(mx);
    }
#else
    (void)with_parasail;
#endif
    printf("summary: %.1f GCUPS, %s\n", (double)info.cells / info.seconds / 1e9, failures ? "CHECK FAILED" : "every check ok");
    return failures ? 1 : 0;
}
