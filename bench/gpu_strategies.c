/*
 * gpu_strategies.c - first kernel-time table of the CUDA engine: one large shape per app, each
 * GPU strategy (the paper's GS, GS+HT, PW, PW+HT, PW+FHT and LAUNCH), median of RUNS (default 3)
 * after one warm-up, kernel time from CUDA events (pw_run_info.seconds).  Results of all
 * strategies are compared with each other (the CPU reference is checked by test_gpu).
 *   bench_gpu_strategies [RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

static int runs = 3;

static pw_status measure(bench_fn fn, const pw_options *o, pw_run_info *info, double *check, double *kernel,
                         double *wall)
{
    return bench_measure(fn, o, runs, info, check, kernel, wall);
}

static void bench(const char *app, const char *unit, bench_fn fn)
{
    double base_check = 0;
    for (int k = 0; k < bench_n_methods; k++) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        o.strategy = bench_methods[k].strategy;
        o.shape = bench_methods[k].shape;
        o.tile_h = 128;
        o.tile_w = bench_methods[k].w_per_h ? 128 * bench_methods[k].w_per_h : 0;
        double check = 0, med;
        pw_run_info info;
        pw_status st = measure(fn, &o, &info, &check, &med, NULL);
        if (st != PW_OK) {
            printf("%-8s %-7s failed: %s\n", app, bench_methods[k].name, pw_status_str(st));
            continue;
        }
        if (k == 0) base_check = check;
        printf("%-8s %-7s tile %dx%-6lld grid %5d  %9.3f ms  %8.2f %s  %s\n", app, bench_methods[k].name, info.tile_h,
               (long long)info.tile_w, info.threads, med * 1e3, info.cells / med / 1e9, unit,
               check == base_check ? "" : "RESULT DIFFERS");
    }
}

static char *seq_a, *seq_b;
static int64_t sw_n;
static pw_status run_sw(const pw_options *o, pw_run_info *info, double *check)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = 3;
    p.gap_extend = 1;
    pw_sw_result r;
    pw_status st = pw_sw(seq_a, sw_n, seq_b, sw_n, &p, o, &r);
    *info = r.info;
    *check = r.score + 1e-9 * (double)r.end_a;
    return st;
}

static float *series_a, *series_b;
static int64_t dtw_n;
static pw_status run_dtw(const pw_options *o, pw_run_info *info, double *check)
{
    pw_dtw_result r;
    pw_status st = pw_dtw_f32(series_a, dtw_n, series_b, dtw_n, PW_DTW_ABSOLUTE, o, &r);
    *info = r.info;
    *check = r.distance;
    return st;
}

static pw_image img_in, img_out;
static pw_status run_sat(const pw_options *o, pw_run_info *info, double *check)
{
    pw_status st = pw_sat(&img_in, &img_out, o, info);
    *check = ((float *)img_out.data)[img_out.rows * img_out.cols - 1];
    return st;
}

static pw_image hist_in;
static int32_t *hist_out;
static pw_status run_inthist(const pw_options *o, pw_run_info *info, double *check)
{
    pw_status st = pw_inthist(&hist_in, 8, 0, 256, hist_out, o, info);
    *check = hist_out[hist_in.rows * hist_in.cols * 8 - 1];
    return st;
}

static pw_image grid;
static float *grid_init;
static int sor_mode;
static pw_status run_stencil(const pw_options *o, pw_run_info *info, double *check)
{
    memcpy(grid.data, grid_init, (size_t)(grid.rows * grid.cols) * 4);
    pw_status st = sor_mode ? pw_sor(&grid, 1, 1.5, o, NULL, info) : pw_heat(&grid, 1, o, NULL, info);
    *check = ((float *)grid.data)[grid.cols + 1];
    return st;
}

/* Rows per thread (LinearProc) for the linear apps: PW+HT with tile heights 64..512. */
static void rows_sweep(const char *app, bench_fn fn)
{
    static const int hs[] = {64, 128, 256, 512};
    static const int rs[] = {1, 2, 4, 8};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            if (hs[a] / rs[b] < 32 || hs[a] / rs[b] > 1024) continue; /* at least a warp per block */
            pw_options o;
            pw_options_init(&o);
            o.backend = PW_BACKEND_CUDA;
            o.tile_h = hs[a];
            o.tile_w = hs[a];
            o.rows_per_thread = rs[b];
            double check, med;
            pw_run_info info;
            pw_status st = measure(fn, &o, &info, &check, &med, NULL);
            if (st != PW_OK) {
                printf("%-8s rows/thread %d h %d failed: %s\n", app, rs[b], hs[a], pw_status_str(st));
                continue;
            }
            printf("%-8s PW+HT   tile %dx%-5d rows/thread %d  threads %3d  grid %5d  %9.3f ms  %8.2f GCUPS  check %.9g\n", app,
                   hs[a], hs[a], rs[b], hs[a] / rs[b], info.threads, med * 1e3, info.cells / med / 1e9, check);
        }
}

/* Row-major against hybrid row/diagonal layout for the full-storage apps: kernel time (events)
 * and the wall time of the whole host call (copies and, for hybrid, the two conversions). */
static void layout_sweep(const char *app, const char *unit, bench_fn fn)
{
    static const char *const names[] = {"row-major", "hybrid"};
    static const pw_layout layouts[] = {PW_LAYOUT_ROW_MAJOR, PW_LAYOUT_HYBRID};
    static const int methods_used[] = {1, 3}; /* GS+HT and PW+HT */
    for (int m = 0; m < 2; m++)
        for (int l = 0; l < 2; l++) {
            const bench_method *me = &bench_methods[methods_used[m]];
            pw_options o;
            pw_options_init(&o);
            o.backend = PW_BACKEND_CUDA;
            o.strategy = me->strategy;
            o.shape = me->shape;
            o.tile_h = 128;
            o.tile_w = 128;
            o.layout = layouts[l];
            double check = 0, kernel, wall;
            pw_run_info info;
            pw_status st = measure(fn, &o, &info, &check, &kernel, &wall);
            if (st != PW_OK) {
                printf("%-8s %-7s %-9s failed: %s\n", app, me->name, names[l], pw_status_str(st));
                continue;
            }
            printf("%-8s %-7s %-9s kernel %9.3f ms  %8.2f %s   whole call %9.3f ms   check %.9g\n", app, me->name, names[l],
                   kernel * 1e3, info.cells / kernel / 1e9, unit, wall * 1e3, check);
        }
}

int main(int argc, char **argv)
{
    if (argc > 1) runs = atoi(argv[1]);
    if (runs < 1 || runs > 16) runs = 3;
    uint64_t x = 1;
    sw_n = 65536;
    seq_a = malloc((size_t)sw_n);
    seq_b = malloc((size_t)sw_n);
    for (int64_t k = 0; k < sw_n; k++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        seq_a[k] = "ACGT"[x >> 62];
        seq_b[k] = (x >> 40) % 5 ? seq_a[k] : "ACGT"[(x >> 20) & 3];
    }
    printf("app      method  tiles            blocks       median        rate\n");
    bench("SW", "GCUPS", run_sw);
    dtw_n = 32768;
    series_a = malloc(4 * (size_t)dtw_n);
    series_b = malloc(4 * (size_t)dtw_n);
    for (int64_t k = 0; k < dtw_n; k++) series_a[k] = (float)(k % 97) * 0.1f, series_b[k] = (float)(k % 89) * 0.1f;
    bench("DTW", "GCUPS", run_dtw);
    rows_sweep("SW", run_sw);
    rows_sweep("DTW", run_dtw);
    int64_t n = 16384;
    img_in = (pw_image){PW_F32, n, n, 0, malloc(4 * (size_t)(n * n))};
    img_out = (pw_image){PW_F32, n, n, 0, malloc(4 * (size_t)(n * n))};
    for (int64_t k = 0; k < n * n; k++) ((float *)img_in.data)[k] = (float)(k % 7) * 0.25f;
    bench("SAT", "Gpix/s", run_sat);
    layout_sweep("SAT", "Gpix/s", run_sat); /* row-major rows: the default (diagonal-buffer) processor */
    setenv("PEERWAVE_SAT_PROCESSOR", "global", 1);
    printf("SAT with the global-neighbour processor (PEERWAVE_SAT_PROCESSOR=global):\n");
    bench("SAT", "Gpix/s", run_sat);
    unsetenv("PEERWAVE_SAT_PROCESSOR");
    int64_t hn = 4096;
    hist_in = (pw_image){PW_U8, hn, hn, 0, malloc((size_t)(hn * hn))};
    for (int64_t k = 0; k < hn * hn; k++) ((uint8_t *)hist_in.data)[k] = (uint8_t)(k * 2654435761u >> 24);
    hist_out = malloc(4 * 8 * (size_t)(hn * hn));
    bench("INTHIST", "Gpix/s", run_inthist);
    int64_t g = 8192;
    grid = (pw_image){PW_F32, g, g, 0, malloc(4 * (size_t)(g * g))};
    grid_init = malloc(4 * (size_t)(g * g));
    for (int64_t k = 0; k < g * g; k++) grid_init[k] = (float)(k % 13);
    bench("HEAT", "Gpix/s", run_stencil);
    layout_sweep("HEAT", "Gpix/s", run_stencil);
    sor_mode = 1;
    bench("SOR", "Gpix/s", run_stencil);
    layout_sweep("SOR", "Gpix/s", run_stencil);
    return 0;
}
