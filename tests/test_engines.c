/*
 * test_engines.c - every app x every CPU engine against the sequential reference engine, on
 * random awkward shapes (1 x N, N x 1, primes, near tile multiples, up to 2000), random tile
 * shapes and sizes and 1..8 threads.  Integer results must be bit-exact; float results too,
 * since the generic engine evaluates every cell identically (FMA contraction is off).
 * PW_TEST_SHAPES overrides the number of shapes per app (default 200).
 */
#include <math.h>
#include <string.h>

#include "test_util.h"

static int n_shapes(void)
{
    const char *s = getenv("PW_TEST_SHAPES");
    return s ? atoi(s) : 200;
}

static void test_sw(void)
{
    for (int t = 0; t < n_shapes(); t++) {
        int64_t n, m;
        test_shape(2000, 1500000, &n, &m);
        int protein = test_rand() % 2;
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        /* Related sequences give long alignments and many ties; random ones short local hits. */
        test_random_sequence(a, n, protein ? "ARNDCQEGHILKMFPSTWYVBZX" : "ACGTN");
        test_random_sequence(b, m, protein ? "ARNDCQEGHILKMFPSTWYVBZX" : "ACGTN");
        if (test_rand() % 2)
            for (int64_t j = 0; j < m && j < n; j++)
                if (test_rand() % 4) b[j] = a[j];
        pw_sw_params p;
        pw_sw_params_init(&p);
        if (protein) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_by_name("BLOSUM62");
        } else {
            p.match = (int)test_range(1, 5);
            p.mismatch = -(int)test_range(0, 5);
        }
        p.gap_extend = (int)test_range(0, 3);
        p.gap_open = p.gap_extend + (test_rand() % 2 ? (int)test_range(0, 10) : 0);
        pw_options ref_opt = test_sequential_options(), opt;
        test_random_options(&opt, n, m);
        pw_sw_result ref, got;
        pw_status s1 = pw_sw(a, n, b, m, &p, &ref_opt, &ref);
        pw_status s2 = pw_sw(a, n, b, m, &p, &opt, &got);
        CHECK(s1 == PW_OK && s2 == PW_OK && ref.score == got.score && ref.end_a == got.end_a &&
                  ref.end_b == got.end_b,
              "sw %" PRId64 "x%" PRId64 " %s: ref %d (%" PRId64 ",%" PRId64 ") got %d (%" PRId64
              ",%" PRId64 ") status %d %d", n, m, test_describe(&opt), ref.score, ref.end_a,
              ref.end_b, got.score, got.end_a, got.end_b, s1, s2);
        free(a);
        free(b);
    }
}

static void test_dtw(void)
{
    for (int t = 0; t < n_shapes(); t++) {
        int64_t n, m;
        test_shape(2000, 1500000, &n, &m);
        double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
        float *af = malloc(sizeof *af * (size_t)n), *bf = malloc(sizeof *bf * (size_t)m);
        for (int64_t k = 0; k < n; k++) af[k] = (float)(a[k] = sin(k * 0.05) + test_unit());
        for (int64_t k = 0; k < m; k++) bf[k] = (float)(b[k] = cos(k * 0.03) + test_unit());
        pw_dtw_cost cost = test_rand() % 2 ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        pw_options ref_opt = test_sequential_options(), opt;
        test_random_options(&opt, n, m);
        pw_dtw_result r64, g64, r32, g32;
        int ok = pw_dtw_f64(a, n, b, m, cost, &ref_opt, &r64) == PW_OK &&
                 pw_dtw_f64(a, n, b, m, cost, &opt, &g64) == PW_OK &&
                 pw_dtw_f32(af, n, bf, m, cost, &ref_opt, &r32) == PW_OK &&
                 pw_dtw_f32(af, n, bf, m, cost, &opt, &g32) == PW_OK;
        CHECK(ok && r64.distance == g64.distance && r32.distance == g32.distance,
              "dtw %" PRId64 "x%" PRId64 " %s: f64 %.17g vs %.17g, f32 %.9g vs %.9g", n, m,
              test_describe(&opt), r64.distance, g64.distance, r32.distance, g32.distance);
        free(a);
        free(b);
        free(af);
        free(bf);
    }
}

/* Fill an image of the given type with random values; floats in [-1, 1) or small integers. */
static void random_image(pw_image *img)
{
    int64_t stride = img->stride ? img->stride : img->cols, n = img->rows * stride;
    for (int64_t k = 0; k < n; k++) {
        switch (img->type) {
        case PW_U8: ((uint8_t *)img->data)[k] = (uint8_t)test_rand(); break;
        case PW_U16: ((uint16_t *)img->data)[k] = (uint16_t)test_rand(); break;
        case PW_I32: ((int32_t *)img->data)[k] = (int32_t)test_range(-100000, 100000); break;
        case PW_F32: ((float *)img->data)[k] = (float)(2 * test_unit() - 1); break;
        case PW_F64: ((double *)img->data)[k] = 2 * test_unit() - 1; break;
        default: break;
        }
    }
}

static pw_image make_image(pw_dtype type, int64_t rows, int64_t cols, int padded)
{
    pw_image img = {type, rows, cols, padded ? cols + test_range(1, 5) : 0, NULL};
    int64_t stride = img.stride ? img.stride : cols;
    img.data = calloc((size_t)(rows * stride), pw_dtype_size(type));
    return img;
}

static void test_sat(void)
{
    static const pw_dtype ins[] = {PW_U8, PW_U16, PW_I32, PW_F32, PW_F64};
    for (int t = 0; t < n_shapes(); t++) {
        int64_t rows, cols;
        test_shape(2000, 1000000, &rows, &cols);
        pw_dtype in_t = ins[test_rand() % 5];
        pw_dtype out_t = in_t >= PW_F32 ? (test_rand() % 2 ? PW_F32 : PW_F64)
                                        : (pw_dtype)(PW_I32 + test_rand() % 4);
        /* Keep i32 outputs within range (pw_sat refuses otherwise; test_api checks that). */
        if (in_t == PW_U16 && out_t == PW_I32 && rows * cols > 30000) out_t = PW_I64;
        if (in_t == PW_I32 && out_t == PW_I32 && rows * cols > 20000) out_t = PW_I64;
        pw_image in = make_image(in_t, rows, cols, test_rand() % 4 == 0);
        random_image(&in);
        pw_image ref = make_image(out_t, rows, cols, 0), got = make_image(out_t, rows, cols, test_rand() % 4 == 0);
        pw_options ref_opt = test_sequential_options(), opt;
        test_random_options(&opt, rows, cols);
        pw_status s1 = pw_sat(&in, &ref, &ref_opt, NULL), s2 = pw_sat(&in, &got, &opt, NULL);
        int same = s1 == PW_OK && s2 == PW_OK;
        size_t es = pw_dtype_size(out_t);
        int64_t gs = got.stride ? got.stride : cols;
        for (int64_t i = 0; same && i < rows; i++)
            same = !memcmp((char *)ref.data + i * cols * es, (char *)got.data + i * gs * es, (size_t)cols * es);
        CHECK(same, "sat %s->%s %" PRId64 "x%" PRId64 " %s: status %d %d", pw_dtype_name(in_t),
              pw_dtype_name(out_t), rows, cols, test_describe(&opt), s1, s2);
        free(in.data);
        free(ref.data);
        free(got.data);
    }
}

static void test_inthist(void)
{
    for (int t = 0; t < n_shapes(); t++) {
        int64_t rows, cols;
        test_shape(2000, 400000, &rows, &cols);
        pw_dtype in_t = (pw_dtype[]){PW_U8, PW_U16, PW_F32}[test_rand() % 3];
        pw_image in = make_image(in_t, rows, cols, test_rand() % 4 == 0);
        random_image(&in);
        int bins = (int)test_range(1, 9);
        double lo = in_t == PW_F32 ? -1 : 0, hi = in_t == PW_U8 ? 256 : in_t == PW_U16 ? 65536 : 1;
        if (test_rand() % 3 == 0) { /* a range that leaves some values out */
            lo = lo + (hi - lo) * 0.2;
            hi = hi - (hi - lo) * 0.3;
        }
        size_t plane = (size_t)(rows * cols);
        int32_t *ref = calloc(plane * (size_t)bins, 4), *got = calloc(plane * (size_t)bins, 4);
        pw_options ref_opt = test_sequential_options(), opt;
        test_random_options(&opt, rows, cols);
        pw_status s1 = pw_inthist(&in, bins, lo, hi, ref, &ref_opt, NULL);
        pw_status s2 = pw_inthist(&in, bins, lo, hi, got, &opt, NULL);
        CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(ref, got, plane * (size_t)bins * 4),
              "inthist %s bins=%d %" PRId64 "x%" PRId64 " %s: status %d %d", pw_dtype_name(in_t),
              bins, rows, cols, test_describe(&opt), s1, s2);
        free(in.data);
        free(ref);
        free(got);
    }
}

static void test_stencils(void)
{
    for (int t = 0; t < n_shapes(); t++) {
        int64_t rows, cols;
        test_shape(1000, 300000, &rows, &cols);
        rows += 2;
        cols += 2; /* the interior is the random shape */
        pw_dtype type = test_rand() % 2 ? PW_F32 : PW_F64;
        pw_image ref = make_image(type, rows, cols, test_rand() % 4 == 0);
        random_image(&ref);
        pw_image got = ref;
        size_t bytes = (size_t)(rows * (ref.stride ? ref.stride : cols)) * pw_dtype_size(type);
        got.data = malloc(bytes);
        memcpy(got.data, ref.data, bytes);
        int sor = test_rand() % 2;
        int64_t sweeps = test_range(1, 6); /* the peer, barrier and tasks engines pipeline them */
        double omega = 0.2 + 1.7 * test_unit(), r1 = -1, r2 = -2;
        pw_options ref_opt = test_sequential_options(), opt;
        test_random_options(&opt, rows - 2, cols - 2);
        pw_status s1 = sor ? pw_sor(&ref, sweeps, omega, &ref_opt, &r1, NULL)
                           : pw_heat(&ref, sweeps, &ref_opt, &r1, NULL);
        pw_status s2 = sor ? pw_sor(&got, sweeps, omega, &opt, &r2, NULL)
                           : pw_heat(&got, sweeps, &opt, &r2, NULL);
        CHECK(s1 == PW_OK && s2 == PW_OK && !memcmp(ref.data, got.data, bytes) && r1 == r2,
              "%s %s %" PRId64 "x%" PRId64 " sweeps=%" PRId64 " %s: status %d %d", sor ? "sor" : "heat",
              pw_dtype_name(type), rows, cols, sweeps, test_describe(&opt), s1, s2);
        free(ref.data);
        free(got.data);
    }
}

int main(void)
{
    test_seed(20261121);
    test_sw();
    test_dtw();
    test_sat();
    test_inthist();
    test_stencils();
    return test_finish();
}
