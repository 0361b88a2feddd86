/*
 * test_orient.c - SW and DTW with the longer sequence first: the library runs them swapped
 * (apps/linear_orient.h), and the results must be the caller's all the same: DTW's distance bit
 * for bit, SW's score and end cell by the tie rule (the smallest end_a, then end_b), which the
 * swapped run must find again.  Against the sequential reference (which keeps the caller's
 * orientation), on random pairs whose shapes make the library swap, many of them built to tie:
 * two-letter sequences, motifs repeated along a, and one pair where the swapped run's first cell
 * is not the rule's, and chains of ties that pass the prefix runs' budget.  An asymmetric table
 * must not be swapped.  The auto rule against measured decisions.  --gpu: the same on the CUDA
 * backend (skipped, exit 77, without a GPU).
 */
#include <math.h>
#include <string.h>

#include "../apps/linear_orient.h"
#include "test_util.h"

static pw_backend backend = PW_BACKEND_CPU;

static pw_options library_options(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = backend;
    o.threads = (int)test_range(1, 4);
    return o;
}

/* pw_sw with these options against the sequential reference; expect_swap: info.transposed. */
static void check_sw(const char *what, const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *p,
                     int expect_swap)
{
    pw_options ref_opt = test_sequential_options(), opt = library_options();
    pw_sw_result ref, got;
    const pw_status s1 = pw_sw(a, n, b, m, p, &ref_opt, &ref);
    const pw_status s2 = pw_sw(a, n, b, m, p, &opt, &got);
    CHECK(s1 == PW_OK && s2 == PW_OK && ref.score == got.score && ref.end_a == got.end_a && ref.end_b == got.end_b &&
              got.info.transposed == expect_swap,
          "sw %s %" PRId64 " x %" PRId64 ": reference %d (%" PRId64 ", %" PRId64 "), library %d (%" PRId64 ", %" PRId64
          ") transposed %d (expected %d), status %d %d",
          what, n, m, ref.score, ref.end_a, ref.end_b, got.score, got.end_a, got.end_b, got.info.transposed,
          expect_swap, s1, s2);
}

static void test_sw_random(int trials)
{
    for (int t = 0; t < trials; t++) {
        const int64_t m = test_range(1, 120), ratio = test_range(2, 200);
        const int64_t n = m * ratio + test_range(0, 1);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        const int kind = (int)(test_rand() % 4);
        pw_sw_params p;
        pw_sw_params_init(&p);
        if (kind == 0) { /* protein, BLOSUM62 (symmetric) */
            test_random_sequence(a, n, "ARNDCQEGHILKMFPSTWYV");
            test_random_sequence(b, m, "ARNDCQEGHILKMFPSTWYV");
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_by_name("BLOSUM62");
        } else if (kind == 1) { /* two letters: ties everywhere */
            test_random_sequence(a, n, "AC");
            test_random_sequence(b, m, "AC");
        } else if (kind == 2) { /* b's motif planted along a, mutated here and there */
            test_random_sequence(b, m, "ACGT");
            test_random_sequence(a, n, "ACGT");
            for (int64_t at = 0; at + m <= n; at += m + test_range(0, 3 * m))
                for (int64_t k = 0; k < m; k++) a[at + k] = test_rand() % 8 ? b[k] : a[at + k];
        } else { /* random DNA */
            test_random_sequence(a, n, "ACGT");
            test_random_sequence(b, m, "ACGT");
        }
        if (kind != 0) {
            p.match = (int)test_range(1, 4);
            p.mismatch = -(int)test_range(0, 4);
        }
        p.gap_extend = (int)test_range(0, 3);
        p.gap_open = p.gap_extend + (test_rand() % 2 ? (int)test_range(0, 8) : 0);
        /* (the GPU's tile engines swap from 8x, the CPU from 2x: linear_orient.h) */
        check_sw(kind == 0 ? "protein" : kind == 1 ? "two letters" : kind == 2 ? "planted" : "DNA", a, n, b, m, &p,
                 ratio >= (backend == PW_BACKEND_CUDA ? 8 : 2));
        free(a);
        free(b);
    }
}

/* The swapped run's first cell is not the rule's: score 5 is reached at a's 14 with b's 7 and at
 * a's 304 with b's 4; the swapped run finds (304, 4) first (the smallest end_b), and the prefix
 * runs must come back with (14, 7). */
static void test_sw_tie_order(void)
{
    const char *b = "TTTTACGTTTTT"; /* ACGT ends at b's index 7 */
    const int64_t m = (int64_t)strlen(b);
    const int64_t n = 400;
    char a[400];
    memset(a, 'G', sizeof a);
    memcpy(a + 10, "TACGT", 5);     /* "TACGT" scores 5 ending at b's 7 (a index 14) */
    memcpy(a + 300, "TTTTA", 5);    /* "TTTTA" scores 5 ending at b's 4 (a index 304) */
    pw_sw_params p;
    pw_sw_params_init(&p);
    p.match = 1, p.mismatch = -9, p.gap_open = 9, p.gap_extend = 9;
    check_sw("tie order", a, n, b, m, &p, 1);
    /* and the reference's answer is the rule's: a's index 14 before 304 */
    pw_options ref_opt = test_sequential_options();
    pw_sw_result ref;
    CHECK(pw_sw(a, n, b, m, &p, &ref_opt, &ref) == PW_OK && ref.score == 5 && ref.end_a == 14 && ref.end_b == 7,
          "tie order: the reference gives %d at (%" PRId64 ", %" PRId64 "), expected 5 at (14, 7)", ref.score,
          ref.end_a, ref.end_b);
}

/* Pairs built to tie in a chain: b's pieces b[k .. k + L) planted along a in falling order of
 * k, each reaching the best score L with end_b = k + L - 1.  The swapped run finds the last piece
 * (the smallest end_b) first, each prefix run the one before it: with few pieces the runs find
 * the first piece themselves, with many they pass the pair's cells and a's prefix runs as given
 * (apps/sw.c). */
static void test_sw_tie_chain(void)
{
    const int L = 20;
    for (int pieces = 1; pieces <= 40; pieces += 3) {
        const int64_t m = 200, gap = 37;
        const int64_t n = (int64_t)pieces * (L + gap) + gap + 8 * m; /* (at least 8x: swapped on the GPU too) */
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        test_random_sequence(b, m, "ACGT");
        test_random_sequence(a, n, "ACGT");
        for (int k = 0; k < pieces; k++) /* piece k at the (pieces - 1 - k)-th place */
            memcpy(a + gap + (int64_t)(pieces - 1 - k) * (L + gap), b + k, (size_t)L);
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = 1, p.mismatch = -20, p.gap_open = 20, p.gap_extend = 20;
        check_sw("tie chain", a, n, b, m, &p, 1);
        free(a);
        free(b);
    }
}

/* The auto rule's decisions against the faster backend measured on an H200 and its host's 16
 * cores (bench/shapes.sh, docs/bench/shapes_h200_0173f1f.txt): each pair's kernel seconds on
 * both, so a rule that sends any of them the wrong way fails here. */
static void test_auto_rule(void)
{
    static const struct {
        int dtw;
        double n, m;
        int cpu_faster; /* measured */
    } pairs[] = {
        {0, 300, 4e6, 1},      {0, 3000, 4e6, 1},      {0, 30000, 4e6, 0},     {0, 16384, 131072, 0},
        {0, 32768, 131072, 0}, {0, 65536, 131072, 0},  {1, 256, 2e6, 1},       {1, 2048, 2e6, 1},
        {1, 16384, 2e6, 0},    {1, 16384, 131072, 0},  {1, 32768, 131072, 0},  {1, 65536, 131072, 0},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        const int cpu = pw_linear_cpu_first(pairs[k].n, pairs[k].m, 16, pairs[k].dtw ? PW_DTW_GPU_STEP_S : PW_SW_GPU_STEP_S,
                                            pairs[k].dtw ? PW_DTW_F32_CPU_CORE_CELLS_S : PW_SW_CPU_CORE_CELLS_S);
        CHECK(cpu == pairs[k].cpu_faster, "auto: %s %.0f x %.0f on 16 threads goes to the %s, measured faster on the %s",
              pairs[k].dtw ? "dtw" : "sw", pairs[k].n, pairs[k].m, cpu ? "CPU" : "GPU", pairs[k].cpu_faster ? "CPU" : "GPU");
    }
    /* more threads never send a pair back to the GPU */
    int monotone = 1;
    for (int t = 1; t < 256; t++)
        monotone &= !pw_linear_cpu_first(5000, 1e6, t, PW_SW_GPU_STEP_S, PW_SW_CPU_CORE_CELLS_S) ||
                    pw_linear_cpu_first(5000, 1e6, t + 1, PW_SW_GPU_STEP_S, PW_SW_CPU_CORE_CELLS_S);
    CHECK(monotone, "auto: more threads sent a pair to the GPU");
}

/* A table where a's x against b's y scores differently from a's y against b's x: never swapped. */
static void test_sw_asymmetric(void)
{
    static const int8_t scores[25] = {
        3, -4, 1, -2, -5,  /* A against A C G T * */
        -1, 2, -3, 0, -5,  /* C */
        -2, 1, 4, -3, -5,  /* G */
        0, -2, -1, 3, -5,  /* T */
        -5, -5, -5, -5, -5 /* * */
    };
    const pw_matrix skew = {"skew", "ACGT*", '*', 5, scores};
    for (int t = 0; t < 20; t++) {
        const int64_t m = test_range(1, 60), n = m * test_range(8, 100);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        test_random_sequence(a, n, "ACGT");
        test_random_sequence(b, m, "ACGT");
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.scoring = PW_SCORING_MATRIX;
        p.matrix = &skew;
        p.gap_open = 3, p.gap_extend = 1;
        check_sw("asymmetric table", a, n, b, m, &p, 0);
        free(a);
        free(b);
    }
}

/* Pairs the library keeps as given: a less than 2x longer, explicit tiles. */
static void test_sw_kept(void)
{
    const int64_t n = 8000, m = 100;
    char *a = malloc((size_t)n), *b = malloc((size_t)m);
    test_random_sequence(a, n, "ACGT");
    test_random_sequence(b, m, "ACGT");
    pw_sw_params p;
    pw_sw_params_init(&p);
    check_sw("1.5x", a, 3 * m / 2, b, m, &p, 0);
    pw_options opt = library_options();
    pw_sw_result got;
    opt.tile_h = 16;
    CHECK(pw_sw(a, n, b, m, &p, &opt, &got) == PW_OK && got.info.transposed == 0, "explicit height: transposed %d",
          got.info.transposed);
    opt.tile_h = 0, opt.tile_w = 64;
    CHECK(pw_sw(a, n, b, m, &p, &opt, &got) == PW_OK && got.info.transposed == 0, "explicit width: transposed %d",
          got.info.transposed);
    free(a);
    free(b);
}

/* DTW keeps the caller's order where tiles were given. */
static void test_dtw_kept(void)
{
    double a[600], b[50];
    for (int k = 0; k < 600; k++) a[k] = sin(k * 0.1);
    for (int k = 0; k < 50; k++) b[k] = cos(k * 0.2);
    pw_options opt = library_options(), ref_opt = test_sequential_options();
    opt.tile_h = 8;
    pw_dtw_result got, ref;
    CHECK(pw_dtw_f64(a, 600, b, 50, PW_DTW_ABSOLUTE, &opt, &got) == PW_OK &&
              pw_dtw_f64(a, 600, b, 50, PW_DTW_ABSOLUTE, &ref_opt, &ref) == PW_OK && got.info.transposed == 0 &&
              ref.info.transposed == 0 && got.distance == ref.distance,
          "dtw with tile_h 8: transposed %d (reference %d), %.17g against %.17g", got.info.transposed,
          ref.info.transposed, got.distance, ref.distance);
}

static void test_dtw_random(int trials)
{
    for (int t = 0; t < trials; t++) {
        const int64_t m = test_range(1, 300);
        const int64_t n = m * test_range(2, 300) + test_range(0, 5);
        double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
        float *af = malloc(sizeof *af * (size_t)n), *bf = malloc(sizeof *bf * (size_t)m);
        for (int64_t k = 0; k < n; k++) af[k] = (float)(a[k] = sin((double)k * 0.05) + test_unit());
        for (int64_t k = 0; k < m; k++) bf[k] = (float)(b[k] = cos((double)k * 0.03) + test_unit());
        const pw_dtw_cost cost = test_rand() % 2 ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        pw_options ref_opt = test_sequential_options(), opt = library_options();
        pw_dtw_result r64, g64, r32, g32;
        const int ok = pw_dtw_f64(a, n, b, m, cost, &ref_opt, &r64) == PW_OK &&
                       pw_dtw_f64(a, n, b, m, cost, &opt, &g64) == PW_OK &&
                       pw_dtw_f32(af, n, bf, m, cost, &ref_opt, &r32) == PW_OK &&
                       pw_dtw_f32(af, n, bf, m, cost, &opt, &g32) == PW_OK;
        CHECK(ok && r64.distance == g64.distance && r32.distance == g32.distance && g64.info.transposed == 1 &&
                  g32.info.transposed == 1,
              "dtw %" PRId64 " x %" PRId64 ": f64 %.17g vs %.17g, f32 %.9g vs %.9g, transposed %d %d", n, m,
              r64.distance, g64.distance, r32.distance, g32.distance, g64.info.transposed, g32.info.transposed);
        free(a);
        free(b);
        free(af);
        free(bf);
    }
}

int main(int argc, char **argv)
{
    test_seed(20261201);
    if (argc > 1 && !strcmp(argv[1], "--gpu")) {
        if (test_no_cuda_device()) return 77;
        backend = PW_BACKEND_CUDA;
    }
    test_auto_rule();
    test_sw_tie_order();
    test_sw_tie_chain();
    test_sw_random(backend == PW_BACKEND_CUDA ? 150 : 400);
    test_sw_asymmetric();
    test_sw_kept();
    test_dtw_kept();
    test_dtw_random(backend == PW_BACKEND_CUDA ? 60 : 200);
    return test_finish();
}
