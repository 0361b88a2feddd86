/*
 * cpu_simd.c - the CPU's SW vector tile processors beside parasail, in the same run.
 *
 *   bench_cpu_simd LENGTH KIND [RUNS] [THREADS] [GAP_OPEN GAP_EXTEND MATCH MISMATCH [TILE_H]]
 *
 * KIND: random (two independent DNA sequences), related (b = a with 1% substitutions and 0.5%
 * insertions and deletions each) or protein (two random protein sequences, BLOSUM62, gaps 11/1
 * unless given).  Scores default to 2/-3 with gaps 5/2 (parasail's convention:
 * a gap of length L costs open + (L-1) extend, the same as ours).  Each row is the median wall
 * time of RUNS runs after a warm-up: PeerWave on one thread per instruction set (scalar, SSE4.1,
 * AVX2, AVX-512BW; with a substitution table, proteins, one thread runs the striped engine:
 * apps/sw_striped.h; PEERWAVE_SW_CPU_ENGINE=tiles times the tiles instead), PeerWave on THREADS
 * threads (default: all cores) with the best set, and every
 * parasail SW routine without traceback (striped, scan, diag; 16 and 32 bits; SSE4.1 and AVX2).
 * Every score is checked against PeerWave's scalar run (too slow to repeat: run once); a parasail
 * 16-bit run that saturates is reported as such, not timed as a result.
 * For pairs too large for that (1 Mb): PW_BENCH_REFERENCE=0 skips the scalar run and checks every
 * score against the first vector run (and so against parasail's exact ones), PW_BENCH_SETS=avx512
 * keeps the named sets only, and PW_BENCH_PARASAIL=striped_avx2_16,striped_avx2_32 the named
 * routines only (names as printed, spaces as underscores); PW_BENCH_WARMUP=0 drops the warm-up.
 */
#include <parasail.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "peerwave.h"

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

typedef parasail_result_t *(*parasail_fn)(const char *, int, const char *, int, int, int, const parasail_matrix_t *);

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_cpu_simd LENGTH random|related [RUNS] [THREADS] [OPEN EXTEND MATCH MISMATCH]\n");
        return 2;
    }
    const int64_t n = atoll(argv[1]);
    const int related = strcmp(argv[2], "related") == 0, protein = strcmp(argv[2], "protein") == 0;
    const char *letters = protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
    const int alphabet = protein ? 20 : 4;
    const int runs = argc > 3 ? atoi(argv[3]) : 3, threads = argc > 4 ? atoi(argv[4]) : 0;
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = argc > 5 ? atoi(argv[5]) : protein ? 11 : 5;
    p.gap_extend = argc > 6 ? atoi(argv[6]) : protein ? 1 : 2;
    if (protein) {
        p.scoring = PW_SCORING_MATRIX;
        p.matrix = pw_matrix_by_name("BLOSUM62");
    }
    p.match = argc > 7 ? atoi(argv[7]) : 2;
    p.mismatch = argc > 8 ? atoi(argv[8]) : -3;
    char *a = malloc((size_t)n + 1), *b = malloc((size_t)n * 2 + 1);
    for (int64_t k = 0; k < n; k++) a[k] = letters[next() % (uint64_t)alphabet];
    int64_t m = 0;
    for (int64_t k = 0; k < n; k++) {
        if (!related) {
            b[m++] = letters[next() % (uint64_t)alphabet];
            continue;
        }
        uint64_t r = next() % 1000;
        if (r < 5) continue;                      /* deletion */
        if (r < 10) b[m++] = "ACGT"[next() & 3];  /* insertion */
        b[m++] = r < 20 ? "ACGT"[next() & 3] : a[k]; /* substitution (a quarter keep the letter) */
    }
    a[n] = b[m] = 0;
    const double cells = (double)n * (double)m;
    if (protein)
        printf("SW protein %lld x %lld, BLOSUM62, gaps %d/%d, median of %d runs\n", (long long)n, (long long)m,
               p.gap_open, p.gap_extend, runs);
    else
        printf("SW %s DNA %lld x %lld, match %d mismatch %d gaps %d/%d, median of %d runs\n", argv[2], (long long)n,
               (long long)m, p.match, p.mismatch, p.gap_open, p.gap_extend, runs);
    printf("%-34s %10s %9s %8s %s\n", "routine", "seconds", "GCUPS", "score", "check");

    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = 1;
    o.width_model = -1;
    o.simd = PW_SIMD_SCALAR;
    o.tile_h = argc > 9 ? atoi(argv[9]) : 0; /* 0: the library's choice */
    pw_sw_result ref;
    const char *want_ref = getenv("PW_BENCH_REFERENCE"), *sets = getenv("PW_BENCH_SETS");
    const char *routines = getenv("PW_BENCH_PARASAIL"), *warm = getenv("PW_BENCH_WARMUP");
    const int first = warm && strcmp(warm, "0") == 0; /* the first timed run: 1 after a warm-up */
    int have_ref = !(want_ref && strcmp(want_ref, "0") == 0);
    if (have_ref) {
        double t0 = bench_now();
        if (pw_sw(a, n, b, m, &p, &o, &ref) != PW_OK) return 1;
        double sec = bench_now() - t0;
        printf("%-34s %10.3f %9.3f %8d %s\n", "peerwave scalar, 1 thread", sec, cells / sec / 1e9, ref.score,
               "reference (one run)");
    }
    int failed = 0;
    double best_one = 0;
    for (int s = PW_SIMD_SSE41; s <= PW_SIMD_AVX512 + 1; s++) {
        pw_options v = o;
        v.simd = s <= PW_SIMD_AVX512 ? (pw_simd)s : PW_SIMD_AUTO;
        v.threads = s <= PW_SIMD_AVX512 ? 1 : threads;
        if (sets && s <= PW_SIMD_AVX512 && !strstr(sets, pw_simd_name((pw_simd)s))) continue;
        double t[64];
        pw_sw_result r;
        int ok = 1, k;
        for (k = first; k <= runs && k < 64; k++) {
            double start = bench_now();
            pw_status st = pw_sw(a, n, b, m, &p, &v, &r);
            t[k] = bench_now() - start;
            if (st == PW_ERR_UNSUPPORTED) break;
            if (st == PW_OK && !have_ref) {
                ref = r;
                have_ref = 1;
            }
            if (st != PW_OK || r.score != ref.score || r.end_a != ref.end_a || r.end_b != ref.end_b) ok = 0;
        }
        if (k <= runs && k < 64) {
            printf("peerwave %-25s %10s\n", pw_simd_name((pw_simd)s), "(this processor lacks it)");
            continue;
        }
        double med = bench_median(t + 1, runs); /* t[0] is the warm-up */
        char name[64];
        snprintf(name, sizeof name, "peerwave %s, %d thread%s", pw_simd_name(r.info.simd), r.info.threads,
                 r.info.threads > 1 ? "s" : "");
        printf("%-34s %10.3f %9.3f %8d %s\n", name, med, cells / med / 1e9, r.score, ok ? "ok" : "WRONG");
        if (s <= PW_SIMD_AVX512 && cells / med > best_one) best_one = cells / med;
        failed |= !ok;
    }

    parasail_matrix_t *matrix =
        protein ? parasail_matrix_copy(parasail_matrix_lookup("blosum62")) : parasail_matrix_create("ACGT", p.match, p.mismatch);
    struct {
        const char *name;
        parasail_fn fn;
    } ps[] = {
        {"parasail striped sse41 16", parasail_sw_striped_sse41_128_16},
        {"parasail striped sse41 32", parasail_sw_striped_sse41_128_32},
        {"parasail striped avx2 16", parasail_sw_striped_avx2_256_16},
        {"parasail striped avx2 32", parasail_sw_striped_avx2_256_32},
        {"parasail scan sse41 16", parasail_sw_scan_sse41_128_16},
        {"parasail scan sse41 32", parasail_sw_scan_sse41_128_32},
        {"parasail scan avx2 16", parasail_sw_scan_avx2_256_16},
        {"parasail scan avx2 32", parasail_sw_scan_avx2_256_32},
        {"parasail diag sse41 16", parasail_sw_diag_sse41_128_16},
        {"parasail diag sse41 32", parasail_sw_diag_sse41_128_32},
        {"parasail diag avx2 16", parasail_sw_diag_avx2_256_16},
        {"parasail diag avx2 32", parasail_sw_diag_avx2_256_32},
    };
    double best_parasail = 0;
    const char *best_name = "none";
    for (size_t q = 0; q < sizeof ps / sizeof ps[0]; q++) {
        char key[64];
        snprintf(key, sizeof key, "%s", ps[q].name + strlen("parasail "));
        for (char *c = key; *c; c++)
            if (*c == ' ') *c = '_';
        if (routines && !strstr(routines, key)) continue;
        double t[64];
        int score = 0, saturated = 0;
        for (int k = first; k <= runs && k < 64; k++) {
            double start = bench_now();
            parasail_result_t *r = ps[q].fn(a, (int)n, b, (int)m, p.gap_open, p.gap_extend, matrix);
            t[k] = bench_now() - start;
            score = parasail_result_get_score(r);
            saturated |= parasail_result_is_saturated(r);
            parasail_result_free(r);
        }
        double med = bench_median(t + 1, runs);
        const char *check = saturated ? "saturated (not exact)" : score == ref.score ? "ok" : "WRONG";
        printf("%-34s %10.3f %9.3f %8d %s\n", ps[q].name, med, cells / med / 1e9, score, check);
        if (!saturated && score == ref.score && cells / med > best_parasail) {
            best_parasail = cells / med;
            best_name = ps[q].name;
        }
    }
    parasail_matrix_free(matrix);
    printf("one core: peerwave %.3f GCUPS, fastest exact parasail (%s) %.3f GCUPS: %.2fx\n", best_one / 1e9, best_name,
           best_parasail / 1e9, best_parasail > 0 ? best_one / best_parasail : 0);
    free(a);
    free(b);
    return failed;
}
