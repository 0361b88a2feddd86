/*
 * test_gpu.c - the CUDA backend against the CPU sequential reference: every app x every GPU
 * strategy (peer, global barrier, launch, tasks) x hyper/square tiles on random awkward shapes, plus
 * large shapes (PW_GPU_LARGE=1: SW 100000 x 100000 linear, SAT 16384 x 16384).  Exits 77
 * (CTest SKIP) when there is no GPU.  PW_TEST_SHAPES sets the shapes per app (default 100).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "../../apps/inthist_cell.h"
#include "../../apps/sat_accuracy.h"
#include "../test_util.h"

/* Every strategy the GPU runs. */
static const pw_strategy gpu_strategies[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_LAUNCH,
                                             PW_STRATEGY_TASKS};
#define GPU_STRATEGIES 4

static pw_options gpu_options(int64_t rows, int64_t cols)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CUDA;
    o.strategy = gpu_strategies[test_rand() % GPU_STRATEGIES];
    o.shape = test_rand() % 3 ? PW_TILE_HYPER : PW_TILE_SQUARE;
    static const int hs[] = {1, 2, 31, 32, 33, 64, 128, 256};
    o.tile_h = test_rand() % 4 ? hs[test_rand() % 8] : 0;
    o.tile_w = test_rand() % 4 ? test_range(1, 600) : 0;
    /* several rows per thread (SW, DTW): any divisor of the tile height */
    static const int rs[] = {0, 1, 2, 4, 8};
    int R = rs[test_rand() % 5], h = o.tile_h ? o.tile_h : 128;
    o.rows_per_thread = R && h % R ? 1 : R;
    o.layout = (pw_layout)(test_rand() % 3); /* auto, row-major, hybrid (SAT, HEAT, SOR) */
    /* keep launch counts sane for the per-diagonal baseline */
    if (o.tile_w && o.tile_h && (cols / o.tile_w + 1) * (rows / o.tile_h + 1) > 40000) o.tile_w = 0;
    (void)rows;
    return o;
}

static const char *strategy_name(pw_strategy s)
{
    return s == PW_STRATEGY_PEER ? "peer" : s == PW_STRATEGY_GLOBAL_BARRIER ? "barrier" : s == PW_STRATEGY_TASKS ? "tasks" : "launch";
}

#define DESCRIBE(o) strategy_name((o).strategy), (o).shape == PW_TILE_HYPER ? "hyper" : "square", (o).tile_h * 10 + (o).rows_per_thread, (o).tile_w
/* (h is printed as tile_h * 10 + rows_per_thread: "1284" = h 128, 4 rows per thread) */

static int force_sor = -1; /* small runs pick heat or SOR by shape index, else at random */

static int n_shapes(void)
{
    const char *s = getenv("PW_TEST_SHAPES");
    return s ? atoi(s) : 100;
}

static void sw_case(int64_t n, int64_t m, pw_options *gpu_given)
{
    pw_options gpu_copy = *gpu_given, *gpu = &gpu_copy;
    gpu->sw_prune = test_rand() % 2; /* block pruning half the time: the same score and end cell */
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    for (int64_t k = 0; k < n; k++) a[k] = "ACGT"[test_rand() % 4];
    for (int64_t k = 0; k < m; k++) b[k] = k < n && test_rand() % 4 ? a[k] : "ACGT"[test_rand() % 4];
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.gap_open = (int)test_range(1, 6);
    /* half linear (the CUDA engine's own recurrence, pw_sw_step_linear), half any */
    p.gap_extend = test_rand() % 2 ? p.gap_open : (int)test_range(1, p.gap_open);
    pw_options cpu = test_sequential_options();
    if (n * m > 100000000) cpu.strategy = PW_STRATEGY_PEER; /* large: the threaded CPU engine */
    pw_sw_result r, g;
    pw_status s1 = pw_sw(a, n, b, m, &p, &cpu, &r), s2 = pw_sw(a, n, b, m, &p, gpu, &g);
    CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
          "sw %" PRId64 "x%" PRId64 " gaps %d/%d %s %s h=%d w=%" PRId64 " prune %d: cpu %d (%" PRId64 ",%" PRId64
          ") gpu %d (%" PRId64 ",%" PRId64 ") status %d %d", n, m, p.gap_open, p.gap_extend, DESCRIBE(*gpu), gpu->sw_prune,
          r.score, r.end_a, r.end_b, g.score, g.end_a, g.end_b, s1, s2);
    if (s2 == PW_OK && n * m > 100000000)
        printf("large sw %" PRId64 "x%" PRId64 " %s: %.3f s kernel, %.1f GCUPS\n", n, m, strategy_name(gpu->strategy),
               g.info.seconds, g.info.cells / g.info.seconds / 1e9);
    free(a);
    free(b);
}

/* SW's 16-bit lanes (sw_packed_lanes.cuh: two cells a register, values relative to a base the
 * warp moves) where 16 bits cannot hold the scores, against the threaded CPU engine:
 *   kind 0: identical sequences (the score passes 65535: the base only rises),
 *   kind 1: a related pair (5% substitutions, short indels) then unrelated tails (the base rises,
 *           then falls back to 0 where the scores decay),
 *   kind 2: protein (BLOSUM62: two loads a pair instead of the pair table), related,
 *   kind 3: ties (a motif planted many times in random DNA: the smallest row, then column).
 * On the heights that pair lanes (64, 128, 256) and every strategy; lane_bits must say 16 on a
 * GPU with DPX (sm_90), where the library picks the pairs.  The pairs are EXPERIMENTAL (opt-in by
 * PEERWAVE_SW_LANES=pairs: correct, but slower than the 32-bit lanes, 2026-11-28), so these cases
 * run only with PW_TEST_SW_PAIRS=1; the last case checks the default lanes. */
static char *related_copy(const char *a, int64_t n, const char *letters, int nl, int64_t *m_out)
{
    char *b = malloc((size_t)(n + n / 8 + 16));
    int64_t m = 0;
    for (int64_t k = 0; k < n; k++) {
        const int r = (int)(test_rand() % 1000);
        if (r < 50) b[m++] = letters[test_rand() % (uint64_t)nl]; /* substitution */
        else if (r < 55) continue;                                /* deletion */
        else if (r < 60) {                                        /* insertion */
            b[m++] = letters[test_rand() % (uint64_t)nl];
            b[m++] = a[k];
        } else b[m++] = a[k];
    }
    *m_out = m;
    return b;
}

#ifdef PW_TEST_HAVE_HOG
int pw_test_compute_major(void);
#endif

/* PEERWAVE_SW_LANES for a few cases, then back to what the caller set (bench/sw_lanes.sh runs the
 * whole test with the pairs requested: later cases must keep them) */
static char lanes_before[32];
static int lanes_were_set;
static void lanes_pairs(void)
{
    const char *v = getenv("PEERWAVE_SW_LANES");
    lanes_were_set = v != NULL;
    if (v) snprintf(lanes_before, sizeof lanes_before, "%s", v);
    setenv("PEERWAVE_SW_LANES", "pairs", 1);
}
static void lanes_restore(void)
{
    if (lanes_were_set) setenv("PEERWAVE_SW_LANES", lanes_before, 1);
    else unsetenv("PEERWAVE_SW_LANES");
}

static void packed_cases(int has_dpx /* 1, 0, -1: not known */)
{
    static const char dna[] = "ACGT", protein[] = "ARNDCQEGHILKMFPSTWYV";
    static const int heights[] = {64, 128, 256};
    lanes_pairs();
    for (int kind = 0; kind < 4; kind++)
        for (int hk = 0; hk < 3; hk++)
            for (int affine = 0; affine < 2; affine++) {
                const char *letters = kind == 2 ? protein : dna;
                const int nl = kind == 2 ? 20 : 4;
                int64_t n = kind == 0 ? 36000 : kind == 1 ? 40000 : kind == 2 ? 9000 : 3000, m = n;
                char *a = malloc((size_t)n + 1);
                for (int64_t k = 0; k < n; k++) a[k] = letters[test_rand() % (uint64_t)nl];
                char *b;
                if (kind == 0) {
                    b = malloc((size_t)n);
                    memcpy(b, a, (size_t)n);
                } else if (kind == 3) {
                    b = malloc((size_t)m);
                    for (int64_t k = 0; k < m; k++) b[k] = dna[test_rand() % 4];
                    static const char motif[] = "GATTACACATTAGGCCATGA"; /* 20 letters */
                    for (int c = 0; c < 6; c++) {
                        memcpy(a + test_range(0, n - 21), motif, 20);
                        memcpy(b + test_range(0, m - 21), motif, 20);
                    }
                } else {
                    b = related_copy(a, n, letters, nl, &m);
                    if (kind == 1) { /* unrelated tails after the related part */
                        const int64_t tail = 8000;
                        a = realloc(a, (size_t)(n + tail));
                        b = realloc(b, (size_t)(m + tail));
                        for (int64_t k = 0; k < tail; k++) {
                            a[n + k] = dna[test_rand() % 4];
                            b[m + k] = dna[test_rand() % 4];
                        }
                        n += tail;
                        m += tail;
                    }
                }
                pw_sw_params p;
                pw_sw_params_init(&p);
                if (kind == 2) {
                    p.scoring = PW_SCORING_MATRIX;
                    p.matrix = pw_matrix_by_name("BLOSUM62");
                    p.gap_open = 11;
                    p.gap_extend = affine ? 1 : 11;
                } else {
                    p.match = kind == 3 ? 2 : 2 + hk % 2; /* scores up to 3 x 36000 */
                    p.mismatch = -3;
                    p.gap_open = 5;
                    p.gap_extend = affine ? 2 : 5;
                }
                pw_options cpu;
                pw_options_init(&cpu);
                cpu.backend = PW_BACKEND_CPU;
                pw_options gpu;
                pw_options_init(&gpu);
                gpu.backend = PW_BACKEND_CUDA;
                gpu.strategy = gpu_strategies[(kind + hk + affine) % GPU_STRATEGIES];
                gpu.tile_h = heights[hk];
                pw_sw_result r, g;
                pw_status s1 = pw_sw(a, n, b, m, &p, &cpu, &r), s2 = pw_sw(a, n, b, m, &p, &gpu, &g);
                CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
                      "packed kind %d h=%d %s %s: cpu %d (%" PRId64 ",%" PRId64 ") gpu %d (%" PRId64 ",%" PRId64
                      ") status %d %d",
                      kind, heights[hk], affine ? "affine" : "linear", strategy_name(gpu.strategy), r.score, r.end_a,
                      r.end_b, g.score, g.end_a, g.end_b, s1, s2);
                CHECK(s2 != PW_OK || has_dpx < 0 || g.info.lane_bits == (has_dpx ? 16 : 32), "packed kind %d h=%d: lane_bits %d",
                      kind, heights[hk], g.info.lane_bits);
                if (kind < 2) CHECK(r.score > 65535, "packed kind %d: score %d fits 16 bits", kind, r.score);
                if (hk == 0 && affine)
                    printf("packed kind %d: score %d at (%" PRId64 ",%" PRId64 "), %d-bit lanes\n", kind, g.score,
                           g.end_a, g.end_b, g.info.lane_bits);
                free(a);
                free(b);
            }
    /* the default lanes (32-bit), same answer */
    unsetenv("PEERWAVE_SW_LANES");
    {
        const int64_t n = 20000;
        char *a = malloc((size_t)n);
        for (int64_t k = 0; k < n; k++) a[k] = dna[test_rand() % 4];
        int64_t m;
        char *b = related_copy(a, n, dna, 4, &m);
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.gap_open = 5;
        p.gap_extend = 2;
        pw_options cpu, gpu;
        pw_options_init(&cpu);
        cpu.backend = PW_BACKEND_CPU;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        pw_sw_result r, g;
        pw_status s1 = pw_sw(a, n, b, m, &p, &cpu, &r), s2 = pw_sw(a, n, b, m, &p, &gpu, &g);
        CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b &&
                  g.info.lane_bits == 32,
              "default lanes: cpu %d gpu %d, lane_bits %d", r.score, g.score, g.info.lane_bits);
        free(a);
        free(b);
    }
    lanes_restore();
}

/* Block pruning (pw_options.sw_prune) on pairs built for it: a close pair (whose best alignment
 * runs along the diagonal, so the corners fall below the bound: most of the matrix is skipped),
 * the same with the pair's best match near its end, an unrelated pair, proteins, and close pairs
 * of unequal lengths both ways (one with linear gaps); every strategy.  The same score and end
 * cell as the CPU, and cells skipped where they must be. */
static void prune_cases(void)
{
    const pw_strategy *strategies = gpu_strategies;
    static const char *const kinds[] = {"close", "close at the end", "unrelated", "protein, close",
                                        "close, 12000 x 8000, linear gaps", "close, 8000 x 12000"};
    char *a = malloc(12000), *b = malloc(12000);
    for (int kind = 0; kind < 6; kind++) {
        const int64_t n = kind == 5 ? 8000 : 12000, m = kind == 4 ? 8000 : 12000;
        const int protein = kind == 3;
        const char *letters = protein ? "ACDEFGHIKLMNPQRSTVWY" : "ACGT";
        const int size = protein ? 20 : 4;
        for (int64_t k = 0; k < n; k++) a[k] = letters[test_rand() % size];
        for (int64_t k = 0; k < m; k++) /* close: one letter in 30 changed; unrelated: all random */
            b[k] = kind != 2 && k < n && test_rand() % 30 ? a[k] : letters[test_rand() % size];
        if (kind == 1) /* the close stretch only in the last third: the best is found late */
            for (int64_t k = 0; k < 2 * n / 3; k++) b[k] = letters[test_rand() % size];
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = 2, p.mismatch = -3, p.gap_open = 5, p.gap_extend = 2;
        if (protein) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_by_name("BLOSUM62");
            p.gap_open = 11, p.gap_extend = 1;
        }
        if (kind == 4) p.gap_open = p.gap_extend = 3; /* the H-only cell */
        pw_options cpu;
        pw_options_init(&cpu);
        cpu.backend = PW_BACKEND_CPU;
        pw_sw_result r;
        pw_status s1 = pw_sw(a, n, b, m, &p, &cpu, &r);
        for (int s = 0; s < GPU_STRATEGIES; s++) {
            pw_options gpu;
            pw_options_init(&gpu);
            gpu.backend = PW_BACKEND_CUDA;
            gpu.strategy = strategies[s];
            gpu.sw_prune = 1;
            if (kind == 0 && s == 0) gpu.tile_h = 128; /* four rows a thread */
            pw_sw_result g;
            pw_status s2 = pw_sw(a, n, b, m, &p, &gpu, &g);
            CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
                  "prune kind %d %s: cpu %d (%" PRId64 ",%" PRId64 ") gpu %d (%" PRId64 ",%" PRId64 ") status %d %d",
                  kind, strategy_name(gpu.strategy), r.score, r.end_a, r.end_b, g.score, g.end_a, g.end_b, s1, s2);
            const double share = (double)g.info.pruned_cells / ((double)n * (double)m);
            printf("prune kind %d (%s) %s: score %d, %.1f%% of the cells skipped\n", kind, kinds[kind],
                   strategy_name(gpu.strategy), g.score, 100 * share);
            /* a close pair's corners must go; an unrelated one's best is too small to cut much */
            if (kind == 0 || kind == 3 || kind >= 4) /* BLOSUM62's bound counts 11 a move (W-W): looser */
                CHECK(share > (kind == 3 ? 0.02 : 0.05), "prune kind %d: only %.3f skipped", kind, share);
        }
    }
    free(a);
    free(b);
}

static void dtw_case(int64_t n, int64_t m, pw_options *gpu)
{
    float *a = malloc(4 * (size_t)n), *b = malloc(4 * (size_t)m);
    for (int64_t k = 0; k < n; k++) a[k] = (float)test_unit();
    for (int64_t k = 0; k < m; k++) b[k] = (float)test_unit();
    pw_options cpu = test_sequential_options();
    pw_dtw_result r, g;
    pw_dtw_cost cost = test_rand() % 2 ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
    pw_status s1 = pw_dtw_f32(a, n, b, m, cost, &cpu, &r), s2 = pw_dtw_f32(a, n, b, m, cost, gpu, &g);
    CHECK(s1 == PW_OK && s2 == PW_OK && r.distance == g.distance,
          "dtw %" PRId64 "x%" PRId64 " %s %s h=%d w=%" PRId64 ": %.9g vs %.9g status %d %d", n, m, DESCRIBE(*gpu),
          r.distance, g.distance, s1, s2);
    free(a);
    free(b);
}

static void sat_case(int64_t rows, int64_t cols, pw_options *gpu, pw_dtype in_t, pw_dtype out_t)
{
    /* the SAT tile processor: scans (the default), shared-memory diagonal buffers or global
     * neighbours; the last two add in the sequential recurrence's order (bit-exact floats), the
     * scans in another (floats within the bound of apps/sat_accuracy.h, integers exact) */
    static const char *const procs[] = {"scan", "scan", "diag", "global"};
    const char *proc = procs[test_rand() % 4];
    setenv("PEERWAVE_SAT_PROCESSOR", proc, 1);
    const int scans = !strcmp(proc, "scan") && (gpu->tile_h ? gpu->tile_h : 128) <= 128 && gpu->layout != PW_LAYOUT_HYBRID;
    const int by_bound = scans && (out_t == PW_F32 || out_t == PW_F64);
    size_t ie = pw_dtype_size(in_t), oe = pw_dtype_size(out_t), cells = (size_t)(rows * cols);
    pw_image in = {in_t, rows, cols, 0, malloc(cells * ie)};
    pw_image r = {out_t, rows, cols, 0, malloc(cells * oe)}, g = {out_t, rows, cols, 0, malloc(cells * oe)};
    for (size_t k = 0; k < cells; k++) {
        if (in_t == PW_U8) ((uint8_t *)in.data)[k] = (uint8_t)test_rand();
        else ((float *)in.data)[k] = (float)test_unit();
    }
    memset(g.data, 0xA5, cells * oe); /* poison: every output must be written */
    pw_options cpu = test_sequential_options();
    if (cells > 10000000) cpu.strategy = PW_STRATEGY_PEER;
    pw_run_info gi;
    pw_status s1 = pw_sat(&in, &r, &cpu, NULL), s2 = pw_sat(&in, &g, gpu, &gi);
    double ratio = by_bound && s2 == PW_OK ? pw_sat_error_ratio(&in, &g) : 0;
    CHECK(s1 == PW_OK && s2 == PW_OK && (by_bound ? ratio >= 0 && ratio <= 1 : !memcmp(r.data, g.data, cells * oe)),
          "sat %s->%s %" PRId64 "x%" PRId64 " %s %s h=%d w=%" PRId64 " %s: status %d %d, error/bound %.3g",
          pw_dtype_name(in_t), pw_dtype_name(out_t), rows, cols, DESCRIBE(*gpu), proc, s1, s2, ratio);
    if (s2 == PW_OK && cells > 10000000)
        printf("large sat %" PRId64 "x%" PRId64 " %s: %.3f s kernel, %.2f Gpix/s\n", rows, cols,
               strategy_name(gpu->strategy), gi.seconds, gi.cells / gi.seconds / 1e9);
    free(in.data);
    free(r.data);
    free(g.data);
}

#ifdef PW_TEST_HAVE_HOG
/* gpu_helpers.cu: the CUDA runtime for the device-pointer cases */
void *pw_test_to_device(const void *host, size_t bytes);
int pw_test_from_device(void *host, const void *dev, size_t bytes);
void pw_test_device_release(void *dev);
void *pw_test_stream_create(void);
void pw_test_stream_destroy(void *s);

/* pw_inthist_device on copies of `in` and `out` (bins computed on the device). */
static pw_status inthist_on_device(const pw_image *in, int bins, double lo, double hi, int32_t *out, const pw_options *gpu)
{
    size_t cells = (size_t)(in->rows * in->cols), out_bytes = 4 * cells * (size_t)bins;
    void *din = pw_test_to_device(in->data, cells * pw_dtype_size(in->type)), *dout = pw_test_to_device(out, out_bytes);
    pw_image d = *in;
    d.data = din;
    pw_status st = pw_inthist_device(&d, bins, lo, hi, dout, gpu, NULL);
    pw_test_from_device(out, dout, out_bytes);
    pw_test_device_release(din);
    pw_test_device_release(dout);
    return st;
}
#endif

static int inthist_device_cases, inthist_wide_device_cases; /* printed at the end: what the random cases covered */

/* An f32 image: values of one random scale, a quarter of them on the float edges of [lo, hi) in
 * `bins` parts or a float either side (where an edge's rounding decides the bin), lo and hi the
 * image's min and max (the CLI's default range) or a range wider than the values. */
static void f32_inthist_image(pw_image *in, int bins, double *lo, double *hi, pw_inthist_edges edges)
{
    float *x = in->data;
    const int64_t cells = in->rows * in->cols;
    const double scale = pow(10.0, (double)test_range(-3, 11));
    float mn = INFINITY, mx = -INFINITY;
    for (int64_t k = 0; k < cells; k++) {
        x[k] = (float)((test_unit() * 2 - 1) * scale);
        mn = fminf(mn, x[k]), mx = fmaxf(mx, x[k]);
    }
    *lo = mn, *hi = mx > mn ? mx : mn + 1.0;
    if (test_rand() % 4 == 0) *lo -= scale * 3, *hi += scale * 7;
    for (int64_t k = 0; k < cells; k++)
        if (test_rand() % 4 == 0) {
            const float e = (float)pw_inthist_edge((int32_t)test_range(0, bins), bins, *lo, *hi, edges);
            const int side = (int)(test_rand() % 3);
            x[k] = side == 0 ? e : nextafterf(e, side == 1 ? -INFINITY : INFINITY);
        }
}

/* The host API hands the device int32 bin indices; the device API (half the cases where the
 * test links the CUDA runtime) computes bytes for up to 255 bins and int32 past them, so small
 * shapes also try 255 and 256 bins (bins 0: chosen at random), and half the cases a range that
 * leaves values in no bin.  A third of the images are f32 (the device's bins by
 * apps/inthist_cell.h, as the host's: f32 edges, values on them). */
static void inthist_case(int64_t rows, int64_t cols, pw_options *gpu, int bins)
{
    size_t cells = (size_t)(rows * cols);
    if (!bins) bins = cells <= 100000 && test_rand() % 4 == 0 ? (test_rand() % 2 ? 255 : 256) : (int)test_range(1, cells <= 100000 ? 40 : 6);
    const int f32 = test_rand() % 3 == 0;
    double lo = test_rand() % 2 ? 0 : 10, hi = lo ? 250 : 256;
    setenv("PEERWAVE_SAT_PROCESSOR", test_rand() % 3 ? "scan" : "global", 1); /* both exact */
    pw_image in = {f32 ? PW_F32 : PW_U8, rows, cols, 0, malloc(cells * (f32 ? 4 : 1))};
    pw_options cpu = test_sequential_options(), gpu_edges = *gpu;
    gpu = &gpu_edges; /* either f32 edge rule, the same for both */
    cpu.inthist_f32_edges = gpu->inthist_f32_edges = f32 && test_rand() % 2;
    cpu.inthist_closed = gpu->inthist_closed = test_rand() % 2; /* (numpy's closed last bin: the values equal to hi) */
    if (f32) f32_inthist_image(&in, bins, &lo, &hi, (pw_inthist_edges)pw_inthist_rule_of(1, cpu.inthist_f32_edges, 0));
    else
        for (size_t k = 0; k < cells; k++) ((uint8_t *)in.data)[k] = (uint8_t)test_rand();
    int32_t *r = malloc(4 * cells * (size_t)bins), *g = malloc(4 * cells * (size_t)bins);
    memset(g, 0xff, 4 * cells * (size_t)bins);
    int on_device = 0;
    pw_status s1 = pw_inthist(&in, bins, lo, hi, r, &cpu, NULL), s2;
#ifdef PW_TEST_HAVE_HOG
    on_device = bins > 6 || test_rand() % 2; /* 255 and 256 bins: where the bin type is chosen */
    inthist_device_cases += on_device, inthist_wide_device_cases += on_device && bins > 255;
    if (on_device) s2 = inthist_on_device(&in, bins, lo, hi, g, gpu);
    else
#endif
        s2 = pw_inthist(&in, bins, lo, hi, g, gpu, NULL);
    size_t bad = 0; /* the first plane entry that differs, for the message */
    while (bad < cells * (size_t)bins && r[bad] == g[bad]) bad++;
    CHECK(s1 == PW_OK && s2 == PW_OK && bad == cells * (size_t)bins,
          "inthist%s %s%s %" PRId64 "x%" PRId64 " bins %d [%.9g, %.9g%s %s %s h=%d w=%" PRId64 ": status %d %d, "
          "plane %zu pixel %zu (value %.9g): %d, the CPU %d",
          on_device ? "_device" : "", f32 ? "f32" : "u8", cpu.inthist_f32_edges ? " (f32 math)" : "", rows, cols, bins, lo, hi,
          cpu.inthist_closed ? "]" : ")", DESCRIBE(*gpu), s1, s2,
          bad / cells, bad % cells,
          bad < cells * (size_t)bins ? (f32 ? ((float *)in.data)[bad % cells] : ((uint8_t *)in.data)[bad % cells]) : 0.0,
          bad < cells * (size_t)bins ? g[bad] : 0, bad < cells * (size_t)bins ? r[bad] : 0);
    free(in.data);
    free(r);
    free(g);
}

static void stencil_case(int64_t rows, int64_t cols, pw_options *gpu)
{
    rows += 2;
    cols += 2;
    size_t cells = (size_t)(rows * cols);
    int sor = force_sor >= 0 ? force_sor : (int)(test_rand() % 2);
    int64_t sweeps = test_range(1, 12); /* peer and barrier runs pipeline them in one launch */
    /* the warp processor (the default on hyper tiles, row-major, h <= 128), the shared-memory
     * window processor, or FullProc; all bit-exact.  Under racecheck (PW_TEST_RACECHECK) not the
     * warp processor: its warps hand chunk buffers over by bar.arrive, which racecheck does not
     * follow (bench/racecheck_probe.cu: a hazard reported on an ordered hand-over); memcheck and
     * synccheck run it. */
    static const char *const procs[] = {"warp", "warp", "window", "global"};
    const char *proc = procs[test_rand() % 4];
    if (getenv("PW_TEST_RACECHECK") && *getenv("PW_TEST_RACECHECK") && !strcmp(proc, "warp")) proc = "window";
    setenv("PEERWAVE_STENCIL_PROCESSOR", proc, 1);
    pw_image r = {PW_F32, rows, cols, 0, malloc(4 * cells)}, g = r;
    g.data = malloc(4 * cells);
    for (size_t k = 0; k < cells; k++) ((float *)r.data)[k] = ((float *)g.data)[k] = (float)test_unit();
    pw_options cpu = test_sequential_options();
    pw_status s1 = sor ? pw_sor(&r, sweeps, 1.7, &cpu, NULL, NULL) : pw_heat(&r, sweeps, &cpu, NULL, NULL);
    pw_status s2 = sor ? pw_sor(&g, sweeps, 1.7, gpu, NULL, NULL) : pw_heat(&g, sweeps, gpu, NULL, NULL);
    CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(r.data, g.data, 4 * cells),
          "%s %" PRId64 "x%" PRId64 " sweeps %" PRId64 " %s %s h=%d w=%" PRId64 ": status %d %d", sor ? "sor" : "heat",
          rows, cols, sweeps, DESCRIBE(*gpu), s1, s2);
    free(r.data);
    free(g.data);
}

#ifdef PW_TEST_HAVE_HOG
int pw_test_hog_start(int free_sms, int ms);
int pw_test_hog_running(void);
int pw_test_hog_finish(void);

/* Forward progress while another kernel holds all but 8 SMs for 3 s: the peer run has a 1 s
 * watchdog, so if any tile-row waited on a block that is not resident the run would end in
 * PW_ERR_TIMEOUT; with rows claimed from the ticket only by running blocks it must finish
 * correctly.  The cooperative barrier launch must wait for room and then finish too. */
static void concurrent_kernel_cases(void)
{
    const pw_strategy *all = gpu_strategies;
    for (int s = 0; s < GPU_STRATEGIES; s++) {
        int taken = pw_test_hog_start(8, 3000);
        CHECK(taken > 0, "hog kernel did not start");
        if (taken <= 0) return;
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.strategy = all[s];
        gpu.watchdog_ms = 1000;
        gpu.tile_h = 32;
        int running_before = pw_test_hog_running();
        sat_case(4099, 3001, &gpu, PW_U8, PW_I64); /* 129 tile-rows */
        printf("concurrent kernel on %d SMs: %s finished correctly (hog running at start: %d, after: %d)\n", taken,
               strategy_name(all[s]), running_before, pw_test_hog_running());
        CHECK(pw_test_hog_finish() == 0, "hog kernel failed");
    }
}
#endif

/* Fault injection: tile-row 3 never hands anything over (plan.h).  The run must end in
 * PW_ERR_TIMEOUT within the watchdog bound (0.5 s) plus launch and copy slack, and the device
 * must work afterwards.  The apps cover each way a tile-row waits: SAT on progress counters,
 * SW on its bus words, HEAT on the edge words of the tile-row above. */
typedef struct stuck_job {
    pw_image in, out;   /* SAT */
    char *a, *b;        /* SW: 4096 'A's each */
    pw_sw_params p;
    pw_sw_result res;
    pw_image grid;      /* HEAT: f32, zero but the top border */
} stuck_job;

static pw_status run_sat(stuck_job *j, const pw_options *o) { return pw_sat(&j->in, &j->out, o, NULL); }
static pw_status run_sw(stuck_job *j, const pw_options *o) { return pw_sw(j->a, 4096, j->b, 4096, &j->p, o, &j->res); }
static pw_status run_heat(stuck_job *j, const pw_options *o) { return pw_heat(&j->grid, 1, o, NULL, NULL); }

static void stuck_row_case(const char *app, pw_status (*run)(stuck_job *, const pw_options *), stuck_job *j,
                           int tile_h)
{
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    gpu.tile_h = tile_h;
    gpu.watchdog_ms = 500;
    struct timespec t0, t1;
    setenv("PEERWAVE_DEBUG_STUCK_ROW", "3", 1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pw_status st = run(j, &gpu);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsetenv("PEERWAVE_DEBUG_STUCK_ROW");
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    CHECK(st == PW_ERR_TIMEOUT && s < 0.5 + 3.0, "stuck row in %s on the GPU: %s after %.2f s", app, pw_status_str(st), s);
    printf("fault injection (%s): %s after %.3f s (watchdog 0.5 s)\n", app, pw_status_str(st), s);
    gpu.watchdog_ms = 0;
    CHECK(run(j, &gpu) == PW_OK, "%s on the GPU after a timeout", app);
}

static void fault_injection_case(void)
{
    const int64_t n = 2048;
    stuck_job j;
    memset(&j, 0, sizeof j);
    j.in = (pw_image){PW_U8, n, n, 0, calloc((size_t)(n * n), 1)};
    j.out = (pw_image){PW_I64, n, n, 0, malloc(8 * (size_t)(n * n))};
    stuck_row_case("sat", run_sat, &j, 32);
    CHECK(((int64_t *)j.out.data)[n * n - 1] == 0, "SAT of zeros after a timeout");
    j.a = malloc(4096);
    j.b = malloc(4096);
    memset(j.a, 'A', 4096);
    memset(j.b, 'A', 4096);
    pw_sw_params_init(&j.p);
    stuck_row_case("sw", run_sw, &j, 64);
    CHECK(j.res.score == 4096 * j.p.match, "SW score after a timeout: %d", j.res.score);
    /* HEAT: the top border 1, the rest 0; after the timeout a fresh grid, checked against the CPU */
    j.grid = (pw_image){PW_F32, n, n, 0, calloc((size_t)(n * n), 4)};
    pw_image want = {PW_F32, n, n, 0, calloc((size_t)(n * n), 4)};
    for (int64_t x = 0; x < n; x++) ((float *)j.grid.data)[x] = ((float *)want.data)[x] = 1;
    pw_options cpu = test_sequential_options();
    CHECK(pw_heat(&want, 1, &cpu, NULL, NULL) == PW_OK, "heat on the CPU");
    stuck_row_case("heat", run_heat, &j, 64); /* its second run starts from the timed-out grid */
    memset(j.grid.data, 0, 4 * (size_t)(n * n));
    for (int64_t x = 0; x < n; x++) ((float *)j.grid.data)[x] = 1;
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    gpu.tile_h = 64;
    CHECK(pw_heat(&j.grid, 1, &gpu, NULL, NULL) == PW_OK && !memcmp(j.grid.data, want.data, 4 * (size_t)(n * n)),
          "HEAT after a timeout matches the CPU");
    free(j.in.data);
    free(j.out.data);
    free(j.a);
    free(j.b);
    free(j.grid.data);
    free(want.data);
}

/* ---- tracing: every tile recorded once, in dependence order, lanes never overlapping ---- */
typedef struct trace_log {
    pw_trace_record rec[8192];
    int n, overflow;
} trace_log;

static void trace_sink(void *user, const pw_trace_record *r)
{
    trace_log *log = user;
    if (log->n == 8192) log->overflow = 1;
    else log->rec[log->n++] = *r;
}

static int by_start(const void *x, const void *y)
{
    const pw_trace_record *a = x, *b = y;
    if (a->worker != b->worker) return a->worker - b->worker;
    return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static void trace_cases(void)
{
    static trace_log log;
    for (int s = 0; s < 2; s++) {
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.strategy = s ? PW_STRATEGY_GLOBAL_BARRIER : PW_STRATEGY_PEER;
        gpu.shape = PW_TILE_SQUARE; /* square, skew 0: tile (r, c) needs exactly (r - 1, c) */
        gpu.tile_h = 32;
        gpu.tile_w = 50;
        gpu.trace = trace_sink;
        gpu.trace_user = &log;
        log.n = log.overflow = 0;
        sw_case(3001, 2999, &gpu); /* 94 tile-rows x 60 tiles; the result is checked there */
        int n_rows = 94, n_cols = 60, bad_time = 0, bad_id = 0, overlap = 0, order = 0;
        static int64_t end_of[94][60];
        static int seen[94][60];
        memset(seen, 0, sizeof seen);
        for (int k = 0; k < log.n; k++) {
            const pw_trace_record *r = &log.rec[k];
            if (!(r->wait_ns >= 0 && r->wait_ns <= r->start_ns && r->start_ns <= r->end_ns)) bad_time++;
            if (r->tile_row < 0 || r->tile_row >= n_rows || r->tile_col < 0 || r->tile_col >= n_cols ||
                seen[r->tile_row][r->tile_col]++) {
                bad_id++;
                continue;
            }
            end_of[r->tile_row][r->tile_col] = r->end_ns;
        }
        for (int k = 0; k < log.n && !bad_id; k++) {
            const pw_trace_record *r = &log.rec[k];
            if (r->tile_row > 0 && r->start_ns < end_of[r->tile_row - 1][r->tile_col]) order++;
        }
        qsort(log.rec, (size_t)log.n, sizeof log.rec[0], by_start);
        for (int k = 1; k < log.n; k++)
            if (log.rec[k].worker == log.rec[k - 1].worker && log.rec[k].start_ns < log.rec[k - 1].end_ns) overlap++;
        CHECK(!log.overflow && log.n == n_rows * n_cols && !bad_time && !bad_id && !order && !overlap,
              "trace %s: %d records (want %d), %d bad times, %d bad ids, %d out of dependence order, %d overlaps",
              strategy_name(gpu.strategy), log.n, n_rows * n_cols, bad_time, bad_id, order, overlap);
    }
}

#ifdef PW_TEST_HAVE_HOG
long long pw_test_device_free(void);
long long pw_test_device_total(void);
static long long free_before;

static void device_memory_unchanged(const char *app, int k)
{
    long long now = pw_test_device_free();
    CHECK(now == free_before, "%s with allocation %d failing: device free memory %lld -> %lld", app, k, free_before, now);
}

static void print_free(const char *app, int k)
{
    if (getenv("PW_GPU_MEMORY_TRACE")) printf("  %s k=%d free %lld\n", app, k, pw_test_device_free());
}

/* Out of memory, injected at every device and host allocation of every app, returns
 * PW_ERR_OUT_OF_MEMORY and frees everything; a problem larger than the device is refused
 * before any allocation. */
static void memory_cases(void)
{
    pw_options gpu;
    pw_options_init(&gpu);
    gpu.backend = PW_BACKEND_CUDA;
    /* The driver's allocator keeps some freed pages for reuse, so free memory may drop a few MB
     * on the first passes; a leak drops it on every pass.  Two warm-up passes, then two more
     * must leave free memory exactly where it was. */
    for (int pass = 0; pass < 2; pass++) test_alloc_failures(&gpu, print_free);
    free_before = pw_test_device_free();
    for (int pass = 0; pass < 2; pass++) test_alloc_failures(&gpu, print_free);
    device_memory_unchanged("two passes of every app with every allocation failing", 0);
    /* f32 -> f32 with in + out 15% larger than the device (110000^2 = 97 GB on an 80 GB H100) */
    int64_t n = (int64_t)sqrt((double)pw_test_device_total() * 1.15 / 8) + 1;
    double gb = (double)n * (double)n * 8 / 1e9;
    float *in = calloc((size_t)(n * n), sizeof(float)), *out = calloc((size_t)(n * n), sizeof(float));
    if (in && out) {
        pw_image a = {PW_F32, n, n, 0, in}, b = {PW_F32, n, n, 0, out};
        /* (with the automatic width the library would first train on a corner, about a second
         * at this size, before the whole run finds it does not fit: this times the refusal) */
        gpu.width_model = -1;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pw_status st = pw_sat(&a, &b, &gpu, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        CHECK(st == PW_ERR_OUT_OF_MEMORY && s < 1.0, "%.0f GB SAT on the GPU: %s after %.2f s", gb, pw_status_str(st), s);
        printf("memory: %" PRId64 "^2 f32 SAT (%.0f GB) refused: %s in %.3f s; free device memory after the injected-failure passes: %lld -> %lld\n",
               n, gb, pw_status_str(st), s, free_before, pw_test_device_free());
        device_memory_unchanged("after the larger-than-device refusal", 0);
    } else {
        printf("memory: could not reserve %.0f GB of host address space; large refusal case skipped\n", gb);
    }
    free(in);
    free(out);
}
#endif

#ifdef PW_TEST_HAVE_HOG

/* The device-pointer entry points on a non-blocking stream against the host functions on the
 * CPU reference: every app, random shapes and strategies, bit-exact (heat/sor residuals too: one
 * order everywhere, apps/stencil_cell.h), and the data checks that run on the device. */
static void device_api_cases(void)
{
    void *stream = pw_test_stream_create();
    pw_options cpu = test_sequential_options();
    for (int t = 0; t < 30; t++) {
        int64_t rows, cols;
        test_shape(700, 300000, &rows, &cols);
        pw_options gpu = gpu_options(rows, cols);
        gpu.cuda_stream = stream;
        size_t cells = (size_t)(rows * cols);
        int app = t % 5;
        if (app == 0) { /* SW */
            char *a = malloc((size_t)rows), *b = malloc((size_t)cols);
            for (int64_t k = 0; k < rows; k++) a[k] = "ACGTacgtN"[test_rand() % 9];
            for (int64_t k = 0; k < cols; k++) b[k] = k < rows && test_rand() % 3 ? a[k] : "ACGT"[test_rand() % 4];
            pw_sw_params p;
            pw_sw_params_init(&p);
            p.gap_open = 3;
            pw_sw_result r, g;
            char *da = pw_test_to_device(a, (size_t)rows), *db = pw_test_to_device(b, (size_t)cols);
            pw_status s1 = pw_sw(a, rows, b, cols, &p, &cpu, &r), s2 = pw_sw_device(da, rows, db, cols, &p, &gpu, &g);
            CHECK(s1 == PW_OK && s2 == PW_OK && r.score == g.score && r.end_a == g.end_a && r.end_b == g.end_b,
                  "sw_device %" PRId64 "x%" PRId64 " %s: %d vs %d (%s)", rows, cols, strategy_name(gpu.strategy), r.score,
                  g.score, pw_status_str(s2));
            a[rows / 2] = '#'; /* a letter the table refuses, found on the device */
            pw_test_device_release(da);
            da = pw_test_to_device(a, (size_t)rows);
            CHECK(pw_sw_device(da, rows, db, cols, &p, &gpu, &g) == PW_ERR_BAD_INPUT, "sw_device bad letter");
            pw_test_device_release(da);
            pw_test_device_release(db);
            free(a);
            free(b);
        } else if (app == 1) { /* DTW f32 and f64 */
            double *a = malloc(sizeof(double) * (size_t)rows), *b = malloc(sizeof(double) * (size_t)cols);
            float *af = malloc(sizeof(float) * (size_t)rows), *bf = malloc(sizeof(float) * (size_t)cols);
            for (int64_t k = 0; k < rows; k++) af[k] = (float)(a[k] = test_unit() * 4 - 2);
            for (int64_t k = 0; k < cols; k++) bf[k] = (float)(b[k] = test_unit() * 4 - 2);
            double *da = pw_test_to_device(a, sizeof(double) * (size_t)rows), *db = pw_test_to_device(b, sizeof(double) * (size_t)cols);
            float *daf = pw_test_to_device(af, sizeof(float) * (size_t)rows), *dbf = pw_test_to_device(bf, sizeof(float) * (size_t)cols);
            pw_dtw_result r, g;
            pw_status s1 = pw_dtw_f64(a, rows, b, cols, PW_DTW_SQUARED, &cpu, &r);
            pw_status s2 = pw_dtw_f64_device(da, rows, db, cols, PW_DTW_SQUARED, &gpu, &g);
            CHECK(s1 == PW_OK && s2 == PW_OK && r.distance == g.distance, "dtw_f64_device %" PRId64 "x%" PRId64 ": %.17g vs %.17g (%s)",
                  rows, cols, r.distance, g.distance, pw_status_str(s2));
            s1 = pw_dtw_f32(af, rows, bf, cols, PW_DTW_ABSOLUTE, &cpu, &r);
            s2 = pw_dtw_f32_device(daf, rows, dbf, cols, PW_DTW_ABSOLUTE, &gpu, &g);
            CHECK(s1 == PW_OK && s2 == PW_OK && r.distance == g.distance, "dtw_f32_device: %.9g vs %.9g", r.distance, g.distance);
            bf[cols - 1] = 0.0f / 0.0f;
            pw_test_device_release(dbf);
            dbf = pw_test_to_device(bf, sizeof(float) * (size_t)cols);
            CHECK(pw_dtw_f32_device(daf, rows, dbf, cols, PW_DTW_ABSOLUTE, &gpu, &g) == PW_ERR_BAD_INPUT, "dtw_device NaN");
            pw_test_device_release(da), pw_test_device_release(db), pw_test_device_release(daf), pw_test_device_release(dbf);
            free(a), free(b), free(af), free(bf);
        } else if (app == 2 || app == 3) { /* SAT u16 -> i64 with a stride; INTHIST f32 */
            int64_t stride = cols + (int64_t)(test_rand() % 5);
            pw_dtype in_t = app == 2 ? PW_U16 : PW_F32;
            size_t es = pw_dtype_size(in_t), in_bytes = (size_t)(rows * stride) * es;
            unsigned char *x = malloc(in_bytes);
            for (size_t k = 0; k < in_bytes / es; k++) {
                if (in_t == PW_U16) ((uint16_t *)x)[k] = (uint16_t)test_rand();
                else ((float *)x)[k] = (float)test_unit();
            }
            void *dx = pw_test_to_device(x, in_bytes);
            pw_image in = {in_t, rows, cols, stride, x}, din = {in_t, rows, cols, stride, dx};
            int bins = 5;
            size_t out_bytes = app == 2 ? cells * 8 : cells * 4 * (size_t)bins;
            void *r = malloc(out_bytes), *g = malloc(out_bytes), *dout = pw_test_to_device(g, out_bytes);
            pw_status s1, s2;
            if (app == 2) {
                pw_image ro = {PW_I64, rows, cols, 0, r}, go = {PW_I64, rows, cols, 0, dout};
                s1 = pw_sat(&in, &ro, &cpu, NULL);
                s2 = pw_sat_device(&din, &go, &gpu, NULL);
            } else {
                s1 = pw_inthist(&in, bins, 0.1, 0.9, r, &cpu, NULL);
                s2 = pw_inthist_device(&din, bins, 0.1, 0.9, dout, &gpu, NULL);
            }
            pw_test_from_device(g, dout, out_bytes);
            CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(r, g, out_bytes), "%s_device %" PRId64 "x%" PRId64 " stride %" PRId64 " %s: %s",
                  app == 2 ? "sat" : "inthist", rows, cols, stride, strategy_name(gpu.strategy), pw_status_str(s2));
            if (app == 2) { /* u16 sums that pass i32 must be refused on the device too */
                pw_image go = {PW_I32, rows, cols, 0, dout};
                int big = cells * 65535 > (size_t)INT32_MAX;
                pw_status want = pw_sat(&in, &(pw_image){PW_I32, rows, cols, 0, r}, &cpu, NULL);
                CHECK(pw_sat_device(&din, &go, &gpu, NULL) == want && (want == PW_ERR_OVERFLOW) <= big,
                      "sat_device overflow guard: %s", pw_status_str(want));
            }
            pw_test_device_release(dx);
            pw_test_device_release(dout);
            free(x), free(r), free(g);
        } else { /* HEAT / SOR f64 */
            int64_t h = rows < 3 ? 3 : rows > 400 ? 400 : rows, w = cols < 3 ? 3 : cols > 400 ? 400 : cols;
            size_t bytes = sizeof(double) * (size_t)(h * w);
            double *a = malloc(bytes), *b = malloc(bytes);
            for (int64_t k = 0; k < h * w; k++) a[k] = test_unit();
            double *dg = pw_test_to_device(a, bytes);
            pw_image ga = {PW_F64, h, w, 0, a}, gd = {PW_F64, h, w, 0, dg};
            double r1 = 0, r2 = 0;
            int sor = t % 2;
            pw_status s1 = sor ? pw_sor(&ga, 3, 1.3, &cpu, &r1, NULL) : pw_heat(&ga, 3, &cpu, &r1, NULL);
            pw_status s2 = sor ? pw_sor_device(&gd, 3, 1.3, &gpu, &r2, NULL) : pw_heat_device(&gd, 3, &gpu, &r2, NULL);
            pw_test_from_device(b, dg, bytes);
            CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(a, b, bytes) && !memcmp(&r1, &r2, sizeof r1),
                  "%s_device %" PRId64 "x%" PRId64 ": residual %.17g vs %.17g (%s)", sor ? "sor" : "heat", h, w, r1, r2,
                  pw_status_str(s2));
            pw_test_device_release(dg);
            free(a), free(b);
        }
    }
    pw_options on_cpu;
    pw_options_init(&on_cpu);
    on_cpu.backend = PW_BACKEND_CPU;
    pw_dtw_result g;
    float one = 1;
    CHECK(pw_dtw_f32_device(&one, 1, &one, 1, PW_DTW_ABSOLUTE, &on_cpu, &g) == PW_ERR_INVALID_ARGUMENT,
          "device API with the CPU backend");
    pw_test_stream_destroy(stream);
    printf("device-pointer API: 30 random cases on a non-blocking stream done\n");
}
#endif

int main(void)
{
    test_seed(90);
    if (test_no_cuda_device()) return 77;
    pw_options probe;
    pw_options_init(&probe);
    probe.backend = PW_BACKEND_CUDA;
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_result res;
    pw_status st = pw_sw("ACGT", 4, "ACGT", 4, &p, &probe, &res);
    CHECK(st == PW_OK && res.info.backend == PW_BACKEND_CUDA && res.score == 8, "probe run: %s", pw_status_str(st));
    probe.device = 1000; /* CUDA failures say why, through pw_error_detail() */
    st = pw_sw("ACGT", 4, "ACGT", 4, &p, &probe, &res);
    CHECK(st == PW_ERR_NO_DEVICE && strstr(pw_error_detail(), "device 1000"), "missing device: %s '%s'",
          pw_status_str(st), pw_error_detail());
#ifdef PW_TEST_HAVE_HOG
    if (getenv("PW_GPU_ONLY_MEMORY")) {
        memory_cases();
        return test_finish();
    }
#endif
    for (int t = 0; t < n_shapes(); t++) {
        int64_t rows, cols;
        if (getenv("PW_GPU_SMALL")) test_shape(200, 20000, &rows, &cols);
        else test_shape(2000, 1500000, &rows, &cols);
        pw_options gpu = gpu_options(rows, cols);
        /* Small (sanitizer) runs: shape t covers app t % 5 with strategy t / 5 % 4, heat or SOR by
         * t / 20 % 2, so 40 shapes cover every app x strategy pair. */
        if (getenv("PW_GPU_SMALL")) {
            gpu.strategy = gpu_strategies[t / 5 % GPU_STRATEGIES];
            force_sor = t / 20 % 2;
        }
        switch (t % 5) {
        case 0: sw_case(rows, cols, &gpu); break;
        case 1: dtw_case(rows, cols, &gpu); break;
        case 2: sat_case(rows, cols, &gpu, test_rand() % 2 ? PW_U8 : PW_F32, PW_F64); break;
        case 3: inthist_case(rows, cols, &gpu, 0); break;
        default: stencil_case(rows > 700 ? 700 : rows, cols > 700 ? 700 : cols, &gpu); break;
        }
    }
    /* Every strategy once more on each app with the automatic tiles, and u8 -> i32 SAT
     * (skipped with PW_GPU_SMALL, for the sanitizers). */
    for (int s = 0; s < GPU_STRATEGIES && !getenv("PW_GPU_SMALL"); s++) {
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.strategy = gpu_strategies[s];
        sw_case(1999, 3001, &gpu);
        dtw_case(2048, 1023, &gpu);
        sat_case(1025, 2047, &gpu, PW_U8, PW_I32);
        inthist_case(509, 700, &gpu, 0);
        for (int wide = 255; wide <= 256; wide++) inthist_case(97, 301, &gpu, wide); /* byte and int32 bins */
        stencil_case(513, 257, &gpu);
    }
    /* SW's 16-bit pairs (experimental, PW_TEST_SW_PAIRS) on small shapes too, so that the
     * sanitizer runs (PW_GPU_SMALL) see them: h = 64 pairs lanes, on every strategy */
    for (int k = 0; k < GPU_STRATEGIES && getenv("PW_TEST_SW_PAIRS"); k++) {
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.strategy = gpu_strategies[k];
        gpu.tile_h = 64;
        lanes_pairs();
        sw_case(test_range(1, 700), test_range(1, 900), &gpu);
        lanes_restore();
    }
    /* Forward progress: far more tile-rows than blocks, grids smaller than the SM count. */
    for (int k = 0; k < 5 && !getenv("PW_GPU_SMALL"); k++) {
        static const int caps[] = {1, 2, 7, 131, 1};
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        gpu.strategy = k % 2 ? PW_STRATEGY_GLOBAL_BARRIER : k ? PW_STRATEGY_TASKS : PW_STRATEGY_PEER; /* tasks: 7 and 1 */
        gpu.tile_h = 32;
        gpu.max_blocks = caps[k];
        sw_case(3001, 2999, &gpu); /* 94 tile-rows */
        sat_case(2049, 1537, &gpu, PW_F32, PW_F64);
        stencil_case(301, 203, &gpu); /* pipelined sweeps: 10 tile-rows x up to 12 sweeps */
    }
    if (!getenv("PW_GPU_SMALL")) {
        if (getenv("PW_TEST_SW_PAIRS")) {
#ifdef PW_TEST_HAVE_HOG
            packed_cases(pw_test_compute_major() >= 9);
#else
            packed_cases(-1);
#endif
        }
        prune_cases();
        trace_cases();
        fault_injection_case();
#ifdef PW_TEST_HAVE_HOG
        concurrent_kernel_cases();
        memory_cases();
        device_api_cases();
#endif
    }
    if (getenv("PW_GPU_LARGE")) {
        const pw_strategy *all = gpu_strategies;
        for (int s = 0; s < GPU_STRATEGIES; s++) {
            pw_options gpu;
            pw_options_init(&gpu);
            gpu.backend = PW_BACKEND_CUDA;
            gpu.strategy = all[s];
            sat_case(16384, 16384, &gpu, PW_U8, PW_I64); /* random u8 sums pass i32 at this size */
        }
        pw_options gpu;
        pw_options_init(&gpu);
        gpu.backend = PW_BACKEND_CUDA;
        sw_case(100000, 100000, &gpu);
    }
    printf("inthist: %d cases through the device API, %d of them with int32 bins (> 255 bins)\n", inthist_device_cases,
           inthist_wide_device_cases);
    return test_finish();
}
