/*
 * cpu_dtw.c - the CPU's DTW vector tile processors against the scalar cells.
 *
 *   bench_cpu_dtw N [RUNS] [THREADS]
 *
 * Two random-walk series of N samples, absolute cost, f64 and f32: the scalar cells on one thread
 * (the reference: every other distance must have the same bits), each vector set the processor
 * has on one thread, and the widest on THREADS threads (default: all cores).  Median wall time of
 * RUNS runs after a warm-up (the scalar reference: one run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "peerwave.h"

static pw_status run(int f64, const double *a, const float *af, int64_t n, const pw_options *o, pw_dtw_result *r)
{
    return f64 ? pw_dtw_f64(a, n, a + n, n, PW_DTW_ABSOLUTE, o, r) : pw_dtw_f32(af, n, af + n, n, PW_DTW_ABSOLUTE, o, r);
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 32768;
    const int runs = argc > 2 ? atoi(argv[2]) : 3, threads = argc > 3 ? atoi(argv[3]) : 0;
    double *a = malloc(sizeof *a * (size_t)(2 * n));
    float *af = malloc(sizeof *af * (size_t)(2 * n));
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    double walk = 0;
    for (int64_t k = 0; k < 2 * n; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        walk += (double)(x % 2001) / 1000.0 - 1.0;
        af[k] = (float)(a[k] = walk);
    }
    const double cells = (double)n * (double)n;
    int failed = 0;
    for (int f64 = 1; f64 >= 0; f64--) {
        printf("DTW %s %lld x %lld, absolute cost, median of %d runs\n", f64 ? "f64" : "f32", (long long)n,
               (long long)n, runs);
        printf("%-30s %10s %9s %s\n", "engine", "seconds", "GCUPS", "check");
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.threads = 1;
        o.width_model = -1;
        o.simd = PW_SIMD_SCALAR;
        pw_dtw_result ref;
        double t0 = bench_now();
        if (run(f64, a, af, n, &o, &ref) != PW_OK) return 1;
        const double scalar = bench_now() - t0;
        printf("%-30s %10.3f %9.3f %s\n", "scalar, 1 thread", scalar, cells / scalar / 1e9, "reference (one run)");
        for (int s = PW_SIMD_SSE41; s <= PW_SIMD_AVX512 + 1; s++) {
            pw_options v = o;
            v.simd = s <= PW_SIMD_AVX512 ? (pw_simd)s : PW_SIMD_AUTO;
            v.threads = s <= PW_SIMD_AVX512 ? 1 : threads;
            double t[64];
            pw_dtw_result r;
            int ok = 1, k;
            for (k = 0; k <= runs && k < 64; k++) {
                double start = bench_now();
                pw_status st = run(f64, a, af, n, &v, &r);
                t[k] = bench_now() - start;
                if (st == PW_ERR_UNSUPPORTED) break;
                if (st != PW_OK || memcmp(&r.distance, &ref.distance, sizeof r.distance) != 0) ok = 0;
            }
            if (k <= runs && k < 64) continue; /* the processor lacks it */
            double med = bench_median(t + 1, runs);
            char name[64];
            snprintf(name, sizeof name, "%s, %d thread%s", pw_simd_name(r.info.simd), r.info.threads,
                     r.info.threads > 1 ? "s" : "");
            printf("%-30s %10.3f %9.3f %s (%.1fx scalar)\n", name, med, cells / med / 1e9, ok ? "ok" : "WRONG",
                   scalar / med);
            failed |= !ok;
        }
    }
    free(a);
    free(af);
    return failed;
}
