/*
 * cpu_sat.c - summed-area tables on CPU threads against one core's memcpy bandwidth.
 *
 *   bench_cpu_sat N [RUNS] [THREADS] [TILE_H TILE_W]
 *
 * N x N images, u8 (values 0..31, so that i32 holds the sums) -> i32 and f32 -> f32: the scalar cells and the widest vector set on one
 * thread, and the vector set on THREADS threads (default: all cores).  Bandwidth counts the bytes
 * a SAT must move at least, the input read once and the table written once; memcpy's counts its
 * reads and writes of a buffer of the same size as the table (one thread).  Median of RUNS after a
 * warm-up; every table checked against the scalar sequential reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "peerwave.h"

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 8192;
    const int runs = argc > 2 ? atoi(argv[2]) : 5, threads = argc > 3 ? atoi(argv[3]) : 0;
    const int tile_h = argc > 4 ? atoi(argv[4]) : 0;
    const int64_t tile_w = argc > 5 ? atoll(argv[5]) : 0;
    const size_t cells = (size_t)(n * n);
    unsigned char *u8 = malloc(cells);
    float *f32 = malloc(cells * 4), *want = malloc(cells * 4), *got = malloc(cells * 4), *copy = malloc(cells * 4);
    uint64_t x = 88172645463325252ULL;
    for (size_t k = 0; k < cells; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        u8[k] = (unsigned char)(x & 31); /* the table must fit i32: 8192^2 x 31 < 2^31 */
        f32[k] = (float)(x % 1000) / 1000.0f;
    }
    double t[64];
    memcpy(copy, want, cells * 4); /* touch both */
    for (int k = 0; k < runs; k++) {
        double s = bench_now();
        memcpy(copy, got, cells * 4);
        t[k] = bench_now() - s;
    }
    const double memcpy_gbs = 2.0 * (double)cells * 4 / bench_median(t, runs) / 1e9;
    printf("SAT %lld x %lld; memcpy of %zu MB on one thread: %.1f GB/s (reads + writes)\n", (long long)n, (long long)n,
           cells * 4 >> 20, memcpy_gbs);
    printf("%-12s %-22s %10s %9s %12s %s\n", "types", "engine", "seconds", "GB/s", "of memcpy", "check");
    int failed = 0;
    for (int f = 0; f < 2; f++) {
        pw_image in = {f ? PW_F32 : PW_U8, n, n, n, f ? (void *)f32 : (void *)u8};
        pw_image ref = {f ? PW_F32 : PW_I32, n, n, n, want}, out = {f ? PW_F32 : PW_I32, n, n, n, got};
        const double bytes = (double)cells * (f ? 8 : 5);
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.strategy = PW_STRATEGY_SEQUENTIAL;
        if (pw_sat(&in, &ref, &o, NULL) != PW_OK) return 1;
        o.strategy = PW_STRATEGY_PEER;
        o.width_model = -1;
        o.tile_h = tile_h;
        o.tile_w = tile_w;
        const pw_simd sets[] = {PW_SIMD_SCALAR, PW_SIMD_AUTO, PW_SIMD_AUTO};
        for (int s = 0; s < 3; s++) {
            o.simd = sets[s];
            o.threads = s < 2 ? 1 : threads;
            pw_run_info info;
            int ok = 1;
            for (int k = 0; k <= runs; k++) {
                memset(got, 0, cells * 4);
                double start = bench_now();
                if (pw_sat(&in, &out, &o, &info) != PW_OK) return 1;
                if (k > 0) t[k - 1] = bench_now() - start;
                ok &= memcmp(want, got, cells * 4) == 0;
            }
            double med = bench_median(t, runs);
            char name[64];
            snprintf(name, sizeof name, "%s, %d thread%s", pw_simd_name(info.simd), info.threads, info.threads > 1 ? "s" : "");
            printf("%-12s %-22s %10.4f %9.1f %11.0f%% %s\n", f ? "f32->f32" : "u8->i32", name, med, bytes / med / 1e9,
                   100 * bytes / med / 1e9 / memcpy_gbs, ok ? "ok" : "WRONG");
            failed |= !ok;
        }
    }
    free(u8);
    free(f32);
    free(want);
    free(got);
    free(copy);
    return failed;
}
