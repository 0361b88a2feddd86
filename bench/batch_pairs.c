/*
 * batch_pairs.c - the batch engines for many small matrices that bench_batch_sw does not time:
 * DTW of many series (pw_dtw_search: every query against every series) and SW of many pairs
 * (pw_sw_pairs: pair k alone).  Each runs on --backend (cuda, or cpu), median of --runs of the
 * scoring time (pw_batch_info.seconds), and is checked against the CPU backend: every DTW
 * distance bit for bit (a sample of --sample queries, all their records), every pair's score and
 * end cell; the CPU's own time beside it.
 *
 *   bench_batch_pairs [--backend cuda|cpu] [--queries Q] [--db D] [--series-length L]
 *                     [--pairs P] [--pair-length N] [--runs R] [--sample S]
 *                     [--only sw|dtw] [--protein 0|1] [--mixed 0|1] [--gpus N]
 *
 * Inputs: random walks (steps uniform in [-1, 1]) for DTW; random DNA pairs for SW, the second
 * of each pair a mutated copy of the first (10% substitutions) so that scores grow, DNA 1/-3 with
 * gaps 5/2; --protein 1: protein pairs (20 letters), BLOSUM62 with gaps 11/1; --mixed 1: each
 * pair's two lengths uniform in [N/4, N] (else both N); --gpus N: the SW pairs over GPUs 0 .. N - 1
 * (pw_sw_pairs_batch), each GPU's share and rate printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_batch.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double uniform(void) { return (double)(next_rand() >> 11) * (1.0 / 9007199254740992.0); }

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* count random walks of length len, in one block: values[k] points into it */
static double **walks(int64_t count, int64_t len, int64_t **lengths)
{
    double **v = malloc(sizeof *v * (size_t)count), *block = malloc(sizeof *block * (size_t)(count * len));
    *lengths = malloc(sizeof **lengths * (size_t)count);
    if (!v || !block || !*lengths) {
        fprintf(stderr, "bench_batch_pairs: out of memory\n");
        exit(1);
    }
    for (int64_t k = 0; k < count; k++) {
        double x = 0;
        v[k] = block + k * len;
        (*lengths)[k] = len;
        for (int64_t i = 0; i < len; i++) v[k][i] = x += 2 * uniform() - 1;
    }
    return v;
}

/* `runs` calls of call(ctx, info): the median of their scoring seconds, info from the last. */
typedef pw_status (*batch_call)(void *ctx, pw_batch_info *info);
static pw_status timed(batch_call call, void *ctx, int runs, pw_batch_info *info, double *median)
{
    double t[64];
    pw_status st = PW_OK;
    for (int r = 0; r < runs && st == PW_OK; r++) {
        st = call(ctx, info);
        t[r] = info->seconds;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    *median = t[runs / 2];
    return st;
}

typedef struct dtw_call {
    const pw_series_set *q, *d;
    const pw_options *o;
    int top;
    pw_dtw_hit *hits;
} dtw_call;
static pw_status run_dtw(void *p, pw_batch_info *info)
{
    const dtw_call *c = p;
    return pw_dtw_search(c->q, c->d, PW_DTW_ABSOLUTE, c->o, c->top, c->hits, info);
}

typedef struct pairs_call {
    const pw_seq_set *a, *b;
    const pw_sw_params *p;
    const pw_options *o;
    const pw_batch_options *batch; /* --gpus N: GPUs 0 .. N - 1 */
    pw_sw_hit *hits;
} pairs_call;
static pw_status run_pairs(void *p, pw_batch_info *info)
{
    const pairs_call *c = p;
    return pw_sw_pairs_batch(c->a, c->b, c->p, c->o, c->batch, c->hits, info);
}

typedef struct options_in {
    pw_backend backend;
    int64_t queries, db, series_len, pairs, pair_len;
    int runs, sample;
    int only;   /* 0 both, 1 SW pairs, 2 DTW */
    int gpus;   /* SW pairs over GPUs 0 .. gpus - 1 (0: options.device alone) */
    int protein, mixed;
} options_in;

static int bench_dtw(const options_in *in)
{
    int64_t *ql, *dl;
    double **q = walks(in->queries, in->series_len, &ql), **d = walks(in->db, in->series_len, &dl);
    pw_series_set qs = {in->queries, (const double *const *)q, ql}, ds = {in->db, (const double *const *)d, dl};
    const int top = 5;
    pw_dtw_hit *hits = malloc(sizeof *hits * (size_t)(in->queries * top));
    pw_options o;
    pw_options_init(&o);
    o.backend = in->backend;
    pw_batch_info info;
    double median;
    dtw_call call = {&qs, &ds, &o, top, hits};
    pw_status st = timed(run_dtw, &call, in->runs, &info, &median);
    if (st != PW_OK) {
        printf("DTW FAILED: %s (%s)\n", pw_status_str(st), pw_error_detail());
        return 1;
    }
    /* the check: the CPU backend on a sample of the queries, every hit bit for bit */
    const int64_t sample = in->sample < in->queries ? in->sample : in->queries;
    pw_series_set ss = {sample, (const double *const *)q, ql};
    pw_dtw_hit *ref = malloc(sizeof *ref * (size_t)(sample * top));
    pw_options cpu = o;
    cpu.backend = PW_BACKEND_CPU;
    pw_batch_info cinfo;
    st = pw_dtw_search(&ss, &ds, PW_DTW_ABSOLUTE, &cpu, top, ref, &cinfo);
    int64_t bad = 0;
    for (int64_t k = 0; st == PW_OK && k < sample * top; k++)
        bad += ref[k].record != hits[k].record || memcmp(&ref[k].distance, &hits[k].distance, sizeof ref[k].distance) != 0;
    const double cpu_rate = st == PW_OK && cinfo.seconds > 0 ? (double)cinfo.cells / cinfo.seconds / 1e9 : 0;
    printf("DTW %lld queries x %lld series of %lld samples: %s %.4f s (median of %d), %.1f GCUPS; CPU %.1f GCUPS on "
           "%lld queries; check %s (%lld of %lld hits differ)\n",
           (long long)in->queries, (long long)in->db, (long long)in->series_len,
           info.backend == PW_BACKEND_CUDA ? "cuda" : "cpu", median, in->runs, (double)info.cells / median / 1e9, cpu_rate,
           (long long)sample, st == PW_OK && bad == 0 ? "equal" : "DIFFERENT", (long long)bad, (long long)(sample * top));
    free(q[0]), free(q), free(ql), free(d[0]), free(d), free(dl), free(hits), free(ref);
    return st != PW_OK || bad != 0;
}

static int bench_pairs(const options_in *in)
{
    const int64_t n = in->pairs, len = in->pair_len;
    char *block = malloc((size_t)(2 * n * len));
    const char **a = malloc(sizeof *a * (size_t)n), **b = malloc(sizeof *b * (size_t)n);
    int64_t *lengths = malloc(sizeof *lengths * (size_t)n);
    pw_sw_hit *hits = malloc(sizeof *hits * (size_t)n), *ref = malloc(sizeof *ref * (size_t)n);
    if (!block || !a || !b || !lengths || !hits || !ref) {
        fprintf(stderr, "bench_batch_pairs: out of memory\n");
        return 1;
    }
    const char *letters = in->protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
    const uint64_t k_letters = in->protein ? 20 : 4;
    int64_t *lengths_b = malloc(sizeof *lengths_b * (size_t)n);
    if (!lengths_b) return 1;
    for (int64_t k = 0; k < n; k++) {
        char *x = block + 2 * k * len, *y = x + len;
        for (int64_t i = 0; i < len; i++) {
            x[i] = letters[next_rand() % k_letters];
            y[i] = uniform() < 0.1 ? letters[next_rand() % k_letters] : x[i];
        }
        a[k] = x, b[k] = y, lengths[k] = lengths_b[k] = len;
        if (in->mixed) {
            lengths[k] = len / 4 + (int64_t)(next_rand() % (uint64_t)(len - len / 4 + 1));
            lengths_b[k] = len / 4 + (int64_t)(next_rand() % (uint64_t)(len - len / 4 + 1));
            if (lengths[k] < 1) lengths[k] = 1;
            if (lengths_b[k] < 1) lengths_b[k] = 1;
        }
    }
    pw_seq_set as = {n, a, lengths}, bs = {n, b, lengths_b};
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.match = 1, p.mismatch = -3, p.gap_open = 5, p.gap_extend = 2;
    if (in->protein) {
        p.scoring = PW_SCORING_MATRIX;
        p.matrix = pw_matrix_by_name("BLOSUM62");
        p.gap_open = 11, p.gap_extend = 1;
    }
    pw_options o;
    pw_options_init(&o);
    o.backend = in->backend;
    pw_batch_info info;
    double median;
    int devices[PW_BATCH_MAX_GPUS];
    for (int d = 0; d < PW_BATCH_MAX_GPUS; d++) devices[d] = d;
    const pw_batch_options batch = {.schedule = PW_BATCH_ONE, .devices = devices, .n_devices = in->gpus};
    pairs_call call = {&as, &bs, &p, &o, &batch, hits};
    pw_status st = timed(run_pairs, &call, in->runs, &info, &median);
    if (st != PW_OK) {
        printf("SW pairs FAILED: %s (%s)\n", pw_status_str(st), pw_error_detail());
        return 1;
    }
    pw_options cpu = o;
    cpu.backend = PW_BACKEND_CPU;
    pw_batch_info cinfo;
    st = pw_sw_pairs(&as, &bs, &p, &cpu, ref, &cinfo);
    int64_t bad = 0;
    for (int64_t k = 0; st == PW_OK && k < n; k++)
        bad += ref[k].score != hits[k].score || ref[k].end_query != hits[k].end_query || ref[k].end_record != hits[k].end_record;
    printf("SW pairs %lld of %s%lld x %lld%s: %s %.4f s (median of %d), %.1f GCUPS, %d-bit lanes, %lld recomputed; CPU %.1f "
           "GCUPS; check %s (%lld of %lld differ)\n",
           (long long)n, in->mixed ? "up to " : "", (long long)len, (long long)len, in->protein ? " protein" : " DNA",
           info.backend == PW_BACKEND_CUDA ? "cuda" : "cpu", median, in->runs, (double)info.cells / median / 1e9,
           info.lane_bits, (long long)info.recomputed,
           st == PW_OK && cinfo.seconds > 0 ? (double)cinfo.cells / cinfo.seconds / 1e9 : 0.0,
           st == PW_OK && bad == 0 ? "equal" : "DIFFERENT", (long long)bad, (long long)n);
    for (int g = 0; info.gpus > 1 && g < info.gpus; g++)
        printf("SW pairs: GPU %d: %.1f%% of the cells at %.1f GCUPS\n", info.gpu_device[g], 100 * info.gpu_device_share[g],
               info.gpu_device_rate[g] / 1e9);
    free(block), free(a), free(b), free(lengths), free(lengths_b), free(hits), free(ref);
    return st != PW_OK || bad != 0;
}

int main(int argc, char **argv)
{
    options_in in = {PW_BACKEND_CUDA, 1000, 1000, 256, 100000, 256, 3, 20, 0, 0, 0, 0};
    for (int k = 1; k + 1 < argc; k += 2) {
        const char *v = argv[k + 1];
        if (!strcmp(argv[k], "--backend")) in.backend = !strcmp(v, "cpu") ? PW_BACKEND_CPU : PW_BACKEND_CUDA;
        else if (!strcmp(argv[k], "--queries")) in.queries = atoll(v);
        else if (!strcmp(argv[k], "--db")) in.db = atoll(v);
        else if (!strcmp(argv[k], "--series-length")) in.series_len = atoll(v);
        else if (!strcmp(argv[k], "--pairs")) in.pairs = atoll(v);
        else if (!strcmp(argv[k], "--pair-length")) in.pair_len = atoll(v);
        else if (!strcmp(argv[k], "--runs")) in.runs = atoi(v);
        else if (!strcmp(argv[k], "--sample")) in.sample = atoi(v);
        else if (!strcmp(argv[k], "--only") && (!strcmp(v, "sw") || !strcmp(v, "dtw"))) in.only = !strcmp(v, "sw") ? 1 : 2;
        else if (!strcmp(argv[k], "--protein")) in.protein = atoi(v) != 0;
        else if (!strcmp(argv[k], "--mixed")) in.mixed = atoi(v) != 0;
        else if (!strcmp(argv[k], "--gpus")) in.gpus = atoi(v);
        else {
            fprintf(stderr, "bench_batch_pairs: unknown option %s\n", argv[k]);
            return 2;
        }
    }
    if (in.queries < 1 || in.db < 1 || in.series_len < 1 || in.pairs < 1 || in.pair_len < 1 || in.runs < 1 || in.runs > 64 ||
        in.sample < 1 || in.gpus < 0 || in.gpus > PW_BATCH_MAX_GPUS) {
        fprintf(stderr, "usage: bench_batch_pairs [--backend cuda|cpu] [--queries Q] [--db D] [--series-length L] "
                        "[--pairs P] [--pair-length N] [--runs 1..64] [--sample S] [--only sw|dtw] [--protein 0|1] "
                        "[--mixed 0|1] [--gpus N]\n");
        return 2;
    }
    const int failed = (in.only != 1 && bench_dtw(&in)) | (in.only != 2 && bench_pairs(&in));
    return failed ? 1 : 0;
}
