/*
 * cpu_sw.c - CPU engine benchmark: Smith-Waterman N x N (default 20000) on the sequential
 * reference, the peer engine and the global-barrier engine; median wall time of R runs (default
 * 3) after one warm-up; GCUPS; every result checked against the sequential score.
 *   bench_cpu_sw [N] [THREADS] [RUNS] [TILE_H] [TILE_W]
 */
#include <stdio.h>
#include <stdlib.h>

#include "peerwave.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 20000;
    int threads = argc > 2 ? atoi(argv[2]) : 2, runs = argc > 3 ? atoi(argv[3]) : 3;
    int tile_h = argc > 4 ? atoi(argv[4]) : 0;
    int64_t tile_w = argc > 5 ? atoll(argv[5]) : 0;
    char *a = malloc((size_t)n), *b = malloc((size_t)n);
    uint64_t x = 88172645463325252ULL;
    for (int64_t k = 0; k < n; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[k] = "ACGT"[x & 3];
        b[k] = (x >> 8) % 5 ? a[k] : "ACGT"[(x >> 20) & 3]; /* related: long alignment */
    }
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = 3;
    p.gap_extend = 1;
    struct { const char *name; pw_strategy s; pw_tile_shape shape; } cases[] = {
        {"sequential", PW_STRATEGY_SEQUENTIAL, PW_TILE_HYPER},
        {"peer+hyper", PW_STRATEGY_PEER, PW_TILE_HYPER},
        {"peer+square", PW_STRATEGY_PEER, PW_TILE_SQUARE},
        {"barrier+hyper", PW_STRATEGY_GLOBAL_BARRIER, PW_TILE_HYPER},
        {"barrier+square", PW_STRATEGY_GLOBAL_BARRIER, PW_TILE_SQUARE},
    };
    int32_t ref_score = -1;
    double seq_time = 0;
    printf("SW %lld x %lld, affine 3/1, %d threads, median of %d runs\n", (long long)n, (long long)n, threads, runs);
    printf("%-16s %8s %8s %8s %10s %9s %s\n", "engine", "tile_h", "tile_w", "threads", "seconds", "GCUPS", "vs seq");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.strategy = cases[c].s;
        o.shape = cases[c].shape;
        o.threads = threads;
        o.tile_h = tile_h;
        o.tile_w = cases[c].shape == PW_TILE_SQUARE ? 0 : tile_w;
        pw_sw_result r;
        double t[64];
        int ok = 1;
        for (int k = 0; k <= runs && k < 64; k++) {
            if (pw_sw(a, n, b, n, &p, &o, &r) != PW_OK) return 1;
            if (ref_score < 0) ref_score = r.score;
            ok &= r.score == ref_score;
            if (k > 0) t[k - 1] = r.info.seconds; /* run 0 is the warm-up */
        }
        qsort(t, (size_t)runs, sizeof t[0], cmp_double);
        double med = t[runs / 2];
        if (c == 0) seq_time = med;
        printf("%-16s %8d %8lld %8d %10.3f %9.3f %6.2fx %s\n", cases[c].name, r.info.tile_h,
               (long long)r.info.tile_w, r.info.threads, med, r.info.cells / med / 1e9, seq_time / med,
               ok ? "" : "SCORE MISMATCH");
    }
    free(a);
    free(b);
    return 0;
}
