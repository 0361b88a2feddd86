/*
 * cpu_stencil.c - the CPU's HEAT vector tile processors against the scalar cells.
 *
 *   bench_cpu_stencil N [RUNS] [THREADS] [SWEEPS]
 *
 * An N x N grid (f64, then f32), SWEEPS Gauss-Seidel sweeps (default 1): the scalar cells on one
 * thread (the reference: every other grid must have the same bits), each vector set on one
 * thread, and the widest on THREADS threads (default: all cores).  Median wall time of RUNS runs,
 * each from the same starting grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "peerwave.h"

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 4096, sweeps = argc > 4 ? atoll(argv[4]) : 1;
    const int runs = argc > 2 ? atoi(argv[2]) : 5, threads = argc > 3 ? atoi(argv[3]) : 0;
    const size_t cells = (size_t)(n * n);
    double *start = malloc(cells * 8), *want = malloc(cells * 8), *got = malloc(cells * 8);
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (size_t k = 0; k < cells; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        start[k] = (double)(x % 100000) / 1000.0;
    }
    int failed = 0;
    for (int f64 = 1; f64 >= 0; f64--) {
        const size_t bytes = cells * (f64 ? 8 : 4);
        if (!f64)
            for (size_t k = 0; k < cells; k++) ((float *)start)[k] = (float)start[k];
        printf("HEAT %s %lld x %lld, %lld sweep%s, median of %d runs\n", f64 ? "f64" : "f32", (long long)n, (long long)n,
               (long long)sweeps, sweeps > 1 ? "s" : "", runs);
        printf("%-24s %10s %12s %s\n", "engine", "seconds", "Gcells/s", "check");
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.threads = 1;
        o.width_model = -1;
        double scalar = 0;
        for (int s = PW_SIMD_SCALAR; s <= PW_SIMD_AVX512 + 1; s++) {
            o.simd = s <= PW_SIMD_AVX512 ? (pw_simd)s : PW_SIMD_AUTO;
            o.threads = s <= PW_SIMD_AVX512 ? 1 : threads;
            double t[64];
            pw_run_info info;
            int ok = 1, k;
            for (k = 0; k < runs && k < 64; k++) {
                memcpy(got, start, bytes);
                pw_image g = {f64 ? PW_F64 : PW_F32, n, n, n, got};
                pw_status st = pw_heat(&g, sweeps, &o, NULL, &info);
                if (st == PW_ERR_UNSUPPORTED) break;
                if (st != PW_OK) return 1;
                t[k] = info.seconds;
                if (s == PW_SIMD_SCALAR && k == 0) memcpy(want, got, bytes);
                ok &= memcmp(want, got, bytes) == 0;
            }
            if (k < runs) continue; /* the processor lacks it */
            double med = bench_median(t, runs);
            if (s == PW_SIMD_SCALAR) scalar = med;
            char name[64];
            snprintf(name, sizeof name, "%s, %d thread%s", pw_simd_name(info.simd), info.threads, info.threads > 1 ? "s" : "");
            printf("%-24s %10.4f %12.3f %s (%.1fx scalar)\n", name, med, (double)cells * (double)sweeps / med / 1e9,
                   ok ? "ok" : "WRONG", scalar / med);
            failed |= !ok;
        }
    }
    free(start);
    free(want);
    free(got);
    return failed;
}
