/*
 * cpu_sat.c - summed-area tables on CPU threads against one core's memcpy bandwidth.
 *
 *   bench_cpu_sat N [RUNS] [THREADS] [TILE_H TILE_W] [BINS]
 *
 * N x N images, u8 (values 0..31, so that i32 holds the sums) -> i32 and f32 -> f32: the scalar cells and the widest vector set on one
 * thread, and the vector set on THREADS threads (default: all cores); then an integral histogram
 * of the u8 image into BINS planes (default 16) of an N/4 x N/4 corner (2048^2 x 16 planes: a
 * table as large as the SAT's; 1 GB of planes ran at erratic speeds on the CI kind's VM).  Bandwidth counts the
 * bytes a SAT must move at least, the input read once and the table written once; memcpy's counts
 * its reads and writes of a buffer of the same size as the table (one thread).  Tiles: the
 * library's choice as a user gets it (the tile-width model for runs of 2^26 cells and more: the
 * warm-up run trains it, or the wisdom file has it), unless TILE_H TILE_W are given (0 0: the
 * library's).  Median of RUNS after the warm-up; every table checked against the scalar
 * sequential reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "peerwave.h"

/* One table to compute: a SAT (bins 0) or an integral histogram of `in` into out (bytes long),
 * whose right result is want; `bytes`: what it must move at least. */
typedef struct sat_job {
    const char *label;
    pw_image in, out;
    int bins;
    void *want;
    size_t out_bytes;
    double bytes;
} sat_job;

static pw_status run_job(const sat_job *j, const pw_options *o, pw_run_info *info)
{
    if (j->bins) return pw_inthist(&j->in, j->bins, 0, 32, j->out.data, o, info);
    pw_image out = j->out;
    return pw_sat(&j->in, &out, o, info);
}

/* The scalar cells and the widest set on one thread, the widest set on `threads`: one line each.
 * Returns 1 if a result was wrong or a run failed. */
static int measure(const sat_job *j, int runs, int threads, int tile_h, int64_t tile_w, double memcpy_gbs)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.strategy = PW_STRATEGY_PEER;
    o.tile_h = tile_h;
    o.tile_w = tile_w;
    const pw_simd sets[] = {PW_SIMD_SCALAR, PW_SIMD_AUTO, PW_SIMD_AUTO};
    double t[64];
    int failed = 0;
    for (int s = 0; s < 3; s++) {
        o.simd = sets[s];
        o.threads = s < 2 ? 1 : threads;
        pw_run_info info;
        int ok = 1;
        for (int k = 0; k <= runs; k++) {
            memset(j->out.data, 0, j->out_bytes);
            double start = bench_now();
            if (run_job(j, &o, &info) != PW_OK) return 1;
            if (k > 0) t[k - 1] = bench_now() - start;
            ok &= memcmp(j->want, j->out.data, j->out_bytes) == 0;
        }
        double med = bench_median(t, runs);
        char name[64];
        snprintf(name, sizeof name, "%s, %d thread%s", pw_simd_name(info.simd), info.threads, info.threads > 1 ? "s" : "");
        printf("%-12s %-22s %10.4f %9.1f %11.0f%% %-6s %d x %lld\n", j->label, name, med, j->bytes / med / 1e9,
               100 * j->bytes / med / 1e9 / memcpy_gbs, ok ? "ok" : "WRONG", info.tile_h, (long long)info.tile_w);
        failed |= !ok;
    }
    return failed;
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 8192;
    const int runs = argc > 2 ? atoi(argv[2]) : 5, threads = argc > 3 ? atoi(argv[3]) : 0;
    const int tile_h = argc > 4 ? atoi(argv[4]) : 0;
    const int64_t tile_w = argc > 5 ? atoll(argv[5]) : 0;
    const int bins = argc > 6 ? atoi(argv[6]) : 16;
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
    printf("%-12s %-22s %10s %9s %12s %-6s %s\n", "types", "engine", "seconds", "GB/s", "of memcpy", "check", "tile");
    pw_options seq;
    pw_options_init(&seq);
    seq.backend = PW_BACKEND_CPU;
    seq.strategy = PW_STRATEGY_SEQUENTIAL;
    int failed = 0;
    for (int f = 0; f < 2; f++) {
        sat_job j = {f ? "f32->f32" : "u8->i32", {f ? PW_F32 : PW_U8, n, n, n, f ? (void *)f32 : (void *)u8},
                     {f ? PW_F32 : PW_I32, n, n, n, got}, 0, want, cells * 4, (double)cells * (f ? 8 : 5)};
        pw_image ref = {j.out.type, n, n, n, want};
        if (pw_sat(&j.in, &ref, &seq, NULL) != PW_OK) return 1;
        failed |= measure(&j, runs, threads, tile_h, tile_w, memcpy_gbs);
    }
    /* the integral histogram of the top-left corner: plane b counts bins b (values 0..31, bins
     * wide 32 / BINS); the bytes: the image read, every plane written */
    const int64_t q = n / 4;
    const size_t planes_cells = (size_t)(q * q) * (size_t)bins;
    int32_t *hist_want = malloc(planes_cells * 4), *hist_got = malloc(planes_cells * 4);
    sat_job h = {"u8->bins", {PW_U8, q, q, n, u8}, {PW_I32, q, q, q, hist_got}, bins, hist_want, planes_cells * 4,
                 (double)(q * q) + (double)planes_cells * 4};
    if (!hist_want || !hist_got || pw_inthist(&h.in, bins, 0, 32, hist_want, &seq, NULL) != PW_OK) return 1;
    printf("INTHIST of the %lld x %lld corner, %d bins (%.0f MB of planes)\n", (long long)q, (long long)q, bins,
           (double)planes_cells * 4 / 1e6);
    failed |= measure(&h, runs, threads, tile_h, tile_w, memcpy_gbs);
    free(hist_want);
    free(hist_got);
    free(u8);
    free(f32);
    free(want);
    free(got);
    free(copy);
    return failed;
}
