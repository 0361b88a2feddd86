/*
 * suite.c - the benchmark suite (issue 6): every app at sizes that fill the GPU, every method
 * (GS, GS+HT, PW, PW+HT, PW+FHT, LAUNCH), data resident on the device (the device-pointer API,
 * so copies over PCIe are not in any figure), CUDA-event kernel time, median of RUNS runs after
 * one warm-up, every result checked against the CPU (bit-exact outputs for the integer
 * full-storage apps and HEAT/SOR, the float SAT within the bound of apps/sat_accuracy.h;
 * score/distance for SW and DTW from the threaded CPU engine).  The device's copy bandwidth
 * is measured in the same run.  Prints a table and writes CSV rows:
 *   app,type,rows,cols,method,tile_h,tile_w,blocks,ms,rate,unit,pct_copy_bw,vs_gs_ht,vs_launch,check
 *
 *   bench_suite [--small] [--runs N] [--csv FILE] [--only APP[,APP...]] [--tile-h H] [--tile-w W] [--max-blocks B] [--method M[,M...]]
 *               [--sweeps T] [--size N]
 * --small: a quarter of each side (a quick look); default: the sizes.  --tile-h: the
 * tile height (default 128; HEAT/SOR 64, the library's CUDA default for them); --tile-w: one width for every method; --sweeps: HEAT/SOR sweeps
 * per run (rates are per sweep; PEERWAVE_PIPELINE_SWEEPS=0 runs them one launch each); --size:
 * only the runs of that side (16384, 32768 for the grids; 65536, 262144 for SW and DTW).
 * SW runs three times: affine gaps (open 3, extend 1), linear ones (1), and proteins (BLOSUM62,
 * affine 11/1); --only SW runs all three, --only SWL the linear one, --only SWP the proteins; --only takes a comma-separated list (SAT,INTHIST).  PEERWAVE_LINEAR_PROCESSOR=block: SW/DTW on the block processor.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/checks.h"
#include "../apps/sat_accuracy.h"
#include "../src/core/auto_width.h"
#include "../src/core/model_train.h"
#include "../src/core/plan.h"
#include "../src/cuda/kernel_desc.h"
#include "bench_common.h"

#define CUDA_OK(call)                                                                       \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* ---- the problem being measured (one at a time) ------------------------------------------ */
typedef enum app_id { SW, SW_LINEAR_GAP, SW_PROTEIN, DTW, SAT_F32, SAT_U8, INTHIST, HEAT, SOR } app_id;

/* SW's gaps: affine (open 3, extend 1), or linear (1 a letter: the CUDA engine's H-only cell);
 * proteins: BLOSUM62, affine 11/1 (issue 28: at >= 90% of the DNA rate). */
static pw_sw_params sw_params(app_id app)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = app == SW ? 3 : 1;
    p.gap_extend = 1;
    if (app == SW_PROTEIN) {
        p.scoring = PW_SCORING_MATRIX;
        p.matrix = pw_matrix_by_name("BLOSUM62");
        p.gap_open = 11;
    }
    return p;
}

static int is_sw(app_id app) { return app == SW || app == SW_LINEAR_GAP || app == SW_PROTEIN; }

static struct problem {
    app_id app;
    int64_t rows, cols;
    int bins;
    void *d_in, *d_in2, *d_out, *d_init; /* device: inputs, output (or grid), saved grid */
    size_t out_bytes;                     /* full-storage apps: bytes of the output */
    void *h_ref;                          /* CPU reference output (full-storage apps) */
    pw_image *h_in;                       /* float SAT: its host input (checked by bound) */
    double ref_value;                     /* CPU reference score / distance (linear apps) */
} P;

static int64_t sweeps = 1; /* --sweeps: HEAT/SOR sweeps per run (peer runs pipeline them) */

static pw_image dimg(pw_dtype t, int64_t rows, int64_t cols, int64_t stride, void *data)
{
    pw_image m = {t, rows, cols, stride, data};
    return m;
}

/* Run the top-left rows x cols of the problem (the whole of it, or a training corner). */
static pw_status run_view(int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info, double *check)
{
    pw_status st;
    *check = 0;
    switch (P.app) {
    case SW:
    case SW_LINEAR_GAP:
    case SW_PROTEIN: {
        pw_sw_params p = sw_params(P.app);
        pw_sw_result r;
        st = pw_sw_device(P.d_in, rows, P.d_in2, cols, &p, o, &r);
        *info = r.info;
        *check = r.score + 1e-12 * (double)(r.end_a * 1000003 + r.end_b);
        return st;
    }
    case DTW: {
        pw_dtw_result r;
        st = pw_dtw_f32_device(P.d_in, rows, P.d_in2, cols, PW_DTW_ABSOLUTE, o, &r);
        *info = r.info;
        *check = r.distance;
        return st;
    }
    case SAT_F32:
    case SAT_U8: {
        pw_image in = dimg(P.app == SAT_F32 ? PW_F32 : PW_U8, rows, cols, P.cols, P.d_in);
        pw_image out = dimg(P.app == SAT_F32 ? PW_F32 : PW_I32, rows, cols, P.cols, P.d_out);
        return pw_sat_device(&in, &out, o, info);
    }
    case INTHIST: {
        pw_image in = dimg(PW_U8, rows, cols, P.cols, P.d_in);
        return pw_inthist_device(&in, P.bins, 0, 256, P.d_out, o, info);
    }
    default: {
        /* in place: start from the saved grid every time (not timed: kernel time only) */
        CUDA_OK(cudaMemcpy(P.d_out, P.d_init, P.out_bytes, cudaMemcpyDeviceToDevice));
        pw_image g = dimg(PW_F32, rows + 2, cols + 2, P.cols + 2, P.d_out);
        double residual;
        st = P.app == HEAT ? pw_heat_device(&g, sweeps, o, &residual, info) : pw_sor_device(&g, sweeps, 1.5, o, &residual, info);
        *check = residual;
        return st;
    }
    }
}

static pw_status run_full(const pw_options *o, pw_run_info *info, double *check)
{
    return run_view(P.rows, P.cols, o, info, check);
}

static pw_status run_corner(void *ctx, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    double check;
    (void)ctx;
    return run_view(rows, cols, o, info, &check);
}

/* ---- inputs and CPU references ------------------------------------------------------------ */
static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void *to_device(const void *host, size_t bytes)
{
    void *d;
    CUDA_OK(cudaMalloc(&d, bytes ? bytes : 1));
    CUDA_OK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

static pw_options cpu_options(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    return o;
}

static void setup(app_id app, int64_t rows, int64_t cols)
{
    memset(&P, 0, sizeof P);
    P.app = app, P.rows = rows, P.cols = cols, P.bins = rows > 16384 ? 4 : 8;
    pw_options cpu = cpu_options();
    pw_run_info info;
    if (is_sw(app)) { /* b: a's letters, one in five replaced (a related pair) */
        static const char amino[] = "ACDEFGHIKLMNPQRSTVWY";
        const int protein = app == SW_PROTEIN;
        char *a = malloc((size_t)rows), *b = malloc((size_t)cols);
        for (int64_t k = 0; k < rows; k++) a[k] = protein ? amino[next() % 20] : "ACGT"[next() & 3];
        for (int64_t k = 0; k < cols; k++)
            b[k] = k < rows && next() % 5 ? a[k] : protein ? amino[next() % 20] : "ACGT"[next() & 3];
        P.d_in = to_device(a, (size_t)rows), P.d_in2 = to_device(b, (size_t)cols);
        pw_sw_params p = sw_params(app);
        pw_sw_result r;
        if (pw_sw(a, rows, b, cols, &p, &cpu, &r) != PW_OK) exit(1);
        P.ref_value = r.score + 1e-12 * (double)(r.end_a * 1000003 + r.end_b);
        free(a), free(b);
        return;
    }
    if (app == DTW) {
        float *a = malloc(4 * (size_t)rows), *b = malloc(4 * (size_t)cols);
        for (int64_t k = 0; k < rows; k++) a[k] = (float)(next() % 1000) * 0.01f;
        for (int64_t k = 0; k < cols; k++) b[k] = (float)(next() % 1000) * 0.01f;
        P.d_in = to_device(a, 4 * (size_t)rows), P.d_in2 = to_device(b, 4 * (size_t)cols);
        pw_dtw_result r;
        if (pw_dtw_f32(a, rows, b, cols, PW_DTW_ABSOLUTE, &cpu, &r) != PW_OK) exit(1);
        P.ref_value = r.distance;
        free(a), free(b);
        return;
    }
    pw_options seq = cpu;
    seq.strategy = PW_STRATEGY_SEQUENTIAL;
    size_t cells = (size_t)(rows * cols);
    if (app == SAT_F32 || app == SAT_U8) {
        int f = app == SAT_F32;
        pw_image in = {f ? PW_F32 : PW_U8, rows, cols, 0, malloc(cells * (f ? 4 : 1))};
        for (size_t k = 0; k < cells; k++) {
            if (f) ((float *)in.data)[k] = (float)(next() % 8) * 0.125f;
            else ((uint8_t *)in.data)[k] = (uint8_t)(next() & 1); /* 0/1: u8 -> i32 sums fit at 32768^2 */
        }
        P.d_in = to_device(in.data, cells * (f ? 4 : 1));
        P.out_bytes = cells * 4;
        CUDA_OK(cudaMalloc(&P.d_out, P.out_bytes));
        if (f) { /* float sums: within the bound of apps/sat_accuracy.h of the exact ones */
            P.h_in = malloc(sizeof *P.h_in);
            *P.h_in = in;
            return;
        }
        pw_image ref = {PW_I32, rows, cols, 0, malloc(cells * 4)};
        if (pw_sat(&in, &ref, &seq, &info) != PW_OK) exit(1);
        P.h_ref = ref.data;
        free(in.data);
        return;
    }
    if (app == INTHIST) {
        pw_image in = {PW_U8, rows, cols, 0, malloc(cells)};
        for (size_t k = 0; k < cells; k++) ((uint8_t *)in.data)[k] = (uint8_t)next();
        P.out_bytes = cells * 4 * (size_t)P.bins;
        int32_t *ref = malloc(P.out_bytes);
        if (!ref || pw_inthist(&in, P.bins, 0, 256, ref, &seq, &info) != PW_OK) exit(1);
        P.d_in = to_device(in.data, cells);
        CUDA_OK(cudaMalloc(&P.d_out, P.out_bytes));
        P.h_ref = ref;
        free(in.data);
        return;
    }
    /* HEAT / SOR: an (rows + 2) x (cols + 2) grid, hot top edge, noise inside */
    size_t gcells = (size_t)((rows + 2) * (cols + 2));
    pw_image g = {PW_F32, rows + 2, cols + 2, 0, malloc(gcells * 4)};
    for (size_t k = 0; k < gcells; k++) ((float *)g.data)[k] = k < (size_t)(cols + 2) ? 1.0f : (float)(next() % 16) / 64.0f;
    P.out_bytes = gcells * 4;
    P.d_init = to_device(g.data, P.out_bytes);
    CUDA_OK(cudaMalloc(&P.d_out, P.out_bytes));
    double residual;
    pw_status st = app == HEAT ? pw_heat(&g, sweeps, &seq, &residual, &info) : pw_sor(&g, sweeps, 1.5, &seq, &residual, &info);
    if (st != PW_OK) exit(1);
    P.h_ref = g.data;
}

static void teardown(void)
{
    cudaFree(P.d_in), cudaFree(P.d_in2), cudaFree(P.d_out), cudaFree(P.d_init);
    free(P.h_ref);
    if (P.h_in) free(P.h_in->data), free(P.h_in);
    P.h_in = NULL;
}

/* The check of one method's result: bit-exact output, or the reference value; a float SAT
 * (summed by scans in another order than the recurrence) within the bound of
 * apps/sat_accuracy.h of the exact sums of its input. */
static int result_ok(double check)
{
    if (!P.h_ref && !P.h_in) return check == P.ref_value;
    void *h = malloc(P.out_bytes);
    if (!h) return 0;
    CUDA_OK(cudaMemcpy(h, P.d_out, P.out_bytes, cudaMemcpyDeviceToHost));
    int same;
    if (P.h_in) {
        pw_image out = {PW_F32, P.rows, P.cols, 0, h};
        double ratio = pw_sat_error_ratio(P.h_in, &out);
        same = ratio >= 0 && ratio <= 1;
    } else {
        same = memcmp(h, P.h_ref, P.out_bytes) == 0;
    }
    free(h);
    return same;
}

/* ---- copy bandwidth ------------------------------------------------------------------------ */
static double copy_bandwidth(void)
{
    size_t bytes = (size_t)2 << 30;
    void *a, *b;
    CUDA_OK(cudaMalloc(&a, bytes));
    CUDA_OK(cudaMalloc(&b, bytes));
    CUDA_OK(cudaMemset(a, 1, bytes));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float best = 1e30f;
    for (int r = 0; r < 8; r++) {
        cudaEventRecord(e0, 0);
        CUDA_OK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0 && ms < best) best = ms;
    }
    cudaFree(a), cudaFree(b);
    return 2.0 * (double)bytes / (best * 1e-3); /* read + write */
}

/* ---- the table ------------------------------------------------------------------------------ */
static const char *const app_names[] = {"SW", "SW", "SW", "DTW", "SAT", "SAT", "INTHIST", "HEAT", "SOR"};
/* the names the library's width model knows the runs by (src/core/auto_width.c) */
static const char *const model_names[] = {"sw", "sw", "sw", "dtw-f32", "sat-f32-f32", "sat-u8-i32", "inthist-u8", "heat-f32", "sor-f32"};
static const char *const type_names[] = {"i32 affine", "i32 lin-gap", "BLOSUM62", "f32", "f32", "u8->i32", "u8->i32", "f32", "f32"};

/* Bytes a cell moves at least once (input read + output written) for % of copy bandwidth. */
static double bytes_per_cell(app_id app, int bins)
{
    switch (app) {
    case SAT_F32: return 8;
    case SAT_U8: return 5;
    case INTHIST: return 1 + 4.0 * bins;
    case HEAT:
    case SOR: return 8;
    default: return 0;
    }
}

static int runs = 5, tile_h_asked = 0; /* --tile-h; 0: each app's default (tile_height_for) */
static int64_t tile_w = 0; /* --tile-w: every method's width (0: its own rule) */
static int max_blocks = 0; /* --max-blocks: a cap on every method's grid (0: occupancy decides) */
/* The tile height of every method: --tile-h, else the library's CUDA default for HEAT/SOR and
 * SW/DTW (their warp processors' best) and 128 for the others. */
static int tile_height_for(app_id app)
{
    if (tile_h_asked) return tile_h_asked;
    if (app == HEAT || app == SOR) return PW_STENCIL_CUDA_TILE_H;
    return app <= DTW ? PW_LINEAR_CUDA_TILE_H : 128;
}

static const char *only_method; /* --method: just these, comma-separated (e.g. PW+FHT or GS+HT,PW+FHT) */

/* Whether `name` is an item of the comma-separated `list`. */
static int listed(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}
static FILE *csv;

static void bench_app(app_id app, int64_t rows, int64_t cols, double copy_bw)
{
    const double t0 = bench_now();
    setup(app, rows, cols);
    const double t1 = bench_now();
    double ms[8] = {0}, rate[8] = {0};
    pw_run_info infos[8];
    int ok[8] = {0};
    const char *unit = app <= DTW ? "GCUPS" : "Gpix/s";
    for (int k = 0; k < bench_n_methods; k++) {
        const bench_method *m = &bench_methods[k];
        if (only_method && !listed(only_method, m->name)) continue;
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        o.strategy = m->strategy;
        o.shape = m->shape;
        const int tile_h = tile_height_for(app);
        o.tile_h = tile_h;
        o.max_blocks = max_blocks;
        o.tile_w = tile_w ? tile_w : tile_h * m->w_per_h;
        if (!m->w_per_h && !tile_w) { /* PW+FHT: the model's width, trained on a corner of this input */
            pw_model_fit fit;
            pw_plan plan;
            if (pw_model_train(run_corner, NULL, rows, cols, 0, 0.1, &o, 1, &fit) == PW_OK &&
                pw_plan_make(&o, rows, cols, 0, &plan) == PW_OK) {
                /* the library's rule (src/core/auto_width.c): CHUNKED where the processor waits
                 * inside its tiles */
                const double chunk = pw_app_waits_in_chunks(model_names[app], &plan) ? PW_CHUNK_STEPS : 0;
                if (chunk > 0) pw_model_fit_kind(&fit, PW_MODEL_CHUNKED, chunk, &fit.d, &fit.tau_s);
                o.tile_w = pw_auto_width_pick(&fit, chunk, rows, cols);
            }
        }
        double check = 0, kernel;
        pw_status st = bench_measure(run_full, &o, runs, &infos[k], &check, &kernel, NULL);
        if (st != PW_OK) {
            printf("%-8s %-11s %6lldx%-6lld %-7s failed: %s (%s)\n", app_names[app], type_names[app], (long long)rows,
                   (long long)cols, m->name, pw_status_str(st), pw_error_detail());
            continue;
        }
        ok[k] = result_ok(check) ? 1 : -1;
        ms[k] = kernel * 1e3;
        rate[k] = (double)rows * (double)cols * (app >= HEAT ? (double)sweeps : 1) / kernel / 1e9; /* per sweep */
    }
    for (int k = 0; k < bench_n_methods; k++) {
        if (!ok[k]) continue;
        double bpc = bytes_per_cell(app, P.bins), pct = bpc > 0 ? 100 * rate[k] * 1e9 * bpc / copy_bw : 0;
        double vs_gsht = ms[1] > 0 ? ms[1] / ms[k] : 0, vs_launch = ms[5] > 0 ? ms[5] / ms[k] : 0;
        printf("%-8s %-11s %6lldx%-6lld %-7s %4dx%-6lld %5d  %10.3f ms %9.2f %-6s %6.1f%%  x%-5.2f x%-5.2f %s\n", app_names[app],
               type_names[app], (long long)rows, (long long)cols, bench_methods[k].name, infos[k].tile_h,
               (long long)infos[k].tile_w, infos[k].threads, ms[k], rate[k], unit, pct, vs_gsht, vs_launch,
               ok[k] > 0 ? "ok" : "WRONG");
        if (csv)
            fprintf(csv, "%s,%s,%lld,%lld,%s,%d,%lld,%d,%.4f,%.4f,%s,%.2f,%.3f,%.3f,%s\n", app_names[app], type_names[app],
                    (long long)rows, (long long)cols, bench_methods[k].name, infos[k].tile_h, (long long)infos[k].tile_w,
                    infos[k].threads, ms[k], rate[k], unit, pct, vs_gsht, vs_launch, ok[k] > 0 ? "ok" : "WRONG");
    }
    if (csv) fflush(csv);
    /* where a suite's wall time goes (device calls have a time limit): on stderr, out of the table */
    fprintf(stderr, "# %s %s %lldx%lld: inputs and CPU reference %.1f s, methods with their checks %.1f s\n", app_names[app],
            type_names[app], (long long)rows, (long long)cols, t1 - t0, bench_now() - t1);
    fflush(stdout);
    teardown();
}

int main(int argc, char **argv)
{
    int small = 0;
    int64_t only_size = 0; /* --size: just the runs of this side (grid side or sequence length) */
    const char *only = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--small")) small = 1;
        else if (!strcmp(argv[k], "--runs") && k + 1 < argc) runs = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--csv") && k + 1 < argc) csv = fopen(argv[++k], "w");
        else if (!strcmp(argv[k], "--only") && k + 1 < argc) only = argv[++k];
        else if (!strcmp(argv[k], "--tile-h") && k + 1 < argc) tile_h_asked = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--tile-w") && k + 1 < argc) tile_w = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--max-blocks") && k + 1 < argc) max_blocks = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--method") && k + 1 < argc) only_method = argv[++k];
        else if (!strcmp(argv[k], "--sweeps") && k + 1 < argc) sweeps = atoll(argv[++k]);
        else if (!strcmp(argv[k], "--size") && k + 1 < argc) only_size = atoll(argv[++k]);
        else {
            fprintf(stderr, "usage: bench_suite [--small] [--runs N] [--csv FILE] [--only APP[,APP...]] [--tile-h H] [--tile-w W] [--max-blocks B] [--method M[,M...]] [--sweeps T] [--size N]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 64) runs = 5;
    if (sweeps < 1) sweeps = 1;
    double bw = copy_bandwidth();
    printf("device copy bandwidth (cudaMemcpy device to device, read + write): %.1f GB/s\n", bw / 1e9);
    printf("app      type       size          method  tile        blocks  median        rate          %%copy  vs GS+HT vs LAUNCH check\n");
    if (csv) fprintf(csv, "app,type,rows,cols,method,tile_h,tile_w,blocks,ms,rate,unit,pct_copy_bw,vs_gs_ht,vs_launch,check\n");
    const int64_t d = small ? 4 : 1;
    const int64_t grid_sizes[2] = {16384 / d, 32768 / d}, seq_sizes[2] = {65536 / d, 262144 / d};
    for (int s = 0; s < 2; s++) {
        if (only_size && grid_sizes[s] != only_size) continue;
        if (!only || listed(only, "SAT")) bench_app(SAT_F32, grid_sizes[s], grid_sizes[s], bw);
        if (!only || listed(only, "SAT")) bench_app(SAT_U8, grid_sizes[s], grid_sizes[s], bw);
        if (!only || listed(only, "INTHIST")) bench_app(INTHIST, grid_sizes[s], grid_sizes[s], bw);
        if (!only || listed(only, "HEAT")) bench_app(HEAT, grid_sizes[s], grid_sizes[s], bw);
        if (!only || listed(only, "SOR")) bench_app(SOR, grid_sizes[s], grid_sizes[s], bw);
    }
    for (int s = 0; s < 2; s++) {
        if (only_size && seq_sizes[s] != only_size) continue;
        if (!only || listed(only, "SW")) bench_app(SW, seq_sizes[s], seq_sizes[s], bw);
        if (!only || listed(only, "SW") || listed(only, "SWL")) bench_app(SW_LINEAR_GAP, seq_sizes[s], seq_sizes[s], bw);
        if (!only || listed(only, "SW") || listed(only, "SWP")) bench_app(SW_PROTEIN, seq_sizes[s], seq_sizes[s], bw);
        if (!only || listed(only, "DTW")) bench_app(DTW, seq_sizes[s], seq_sizes[s], bw);
    }
    if (csv) fclose(csv);
    return 0;
}
