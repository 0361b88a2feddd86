/*
 * test_simd.c - the CPU's vector tile processors against the sequential scalar reference.
 *
 * Every instruction set this processor has (SSE4.1, AVX2, AVX-512BW), forced one at a time
 * through pw_options.simd, over random awkward shapes (1 x N, primes, heights that are not
 * multiples of the lanes), every engine and thread count.  SW: DNA and every built-in matrix,
 * affine and linear gaps, related and unrelated sequences, scores far beyond 16 bits (the relative
 * lanes' bases) and penalties that force short passes or no vector processor at all; score and
 * end cell must be identical (ties: the smallest end_a, then end_b).  DTW: f32 and f64, absolute
 * and squared costs, series of mixed scales; the distance must be the same bits.  SAT: u8, u16
 * and i32 images (negative values too) into i32 and i64 tables, strided, at any alignment, and
 * tables large enough to be streamed; every entry equal; f32 and f64 tables, the same bits.  INTHIST: u8, u16 and f32 images, 1-40
 * bins, every plane's every entry.
 * HEAT and SOR: f32 and f64 grids, strided, 1-4 sweeps (pipelined on the peer engine); every
 * value the same bits.  Sets the processor lacks are
 * reported and skipped; refusing them (and bad $PEERWAVE_SIMD values) is checked by pretending
 * the processor lacks a set ($PEERWAVE_DEBUG_CPU_LACKS).
 */
#include <string.h>

#include "test_util.h"

static const pw_simd sets[] = {PW_SIMD_SSE41, PW_SIMD_AVX2, PW_SIMD_AVX512};
static const int lanes_of[] = {8, 16, 32};

static void random_dna(char *s, int64_t n, int with_n)
{
    for (int64_t k = 0; k < n; k++) s[k] = "ACGT"[test_rand() & 3];
    if (with_n)
        for (int64_t k = 0; k < n / 50; k++) s[test_range(0, n - 1)] = 'N';
}

static void random_protein(char *s, int64_t n)
{
    static const char letters[] = "ARNDCQEGHILKMFPSTWYVBZX";
    for (int64_t k = 0; k < n; k++) s[k] = letters[test_rand() % (sizeof letters - 1)];
}

/* b: a copy of a with substitutions, insertions and deletions at rate 1/`every` each. */
static int64_t mutate(const char *a, int64_t n, char *b, int64_t cap, int every, int protein)
{
    int64_t m = 0;
    for (int64_t k = 0; k < n && m < cap; k++) {
        int r = (int)test_range(0, 3 * every - 1);
        if (r == 0) continue; /* deletion */
        if (r == 1 && m < cap) b[m++] = protein ? "ACDEFGHIKLMNPQRSTVWY"[test_rand() % 20] : "ACGT"[test_rand() & 3];
        if (m < cap) b[m++] = r == 2 ? (protein ? 'W' : "ACGT"[test_rand() & 3]) : a[k];
    }
    if (m == 0) b[m++] = a[0];
    return m;
}

/* One of the built-in matrices, at random. */
static void random_matrix(pw_sw_params *p)
{
    int count = 0;
    while (pw_matrix_at(count)) count++;
    p->scoring = PW_SCORING_MATRIX;
    p->matrix = pw_matrix_at((int)test_range(0, count - 1));
}

static int64_t awkward_length(void)
{
    static const int64_t special[] = {1, 2, 3, 7, 8, 9, 31, 32, 33, 61, 64, 97, 127, 128, 129, 257};
    int kind = (int)test_range(0, 9);
    if (kind < 4) return special[test_range(0, sizeof special / sizeof special[0] - 1)];
    if (kind < 9) return test_range(1, 400);
    return test_range(400, 2500);
}

typedef struct sw_case {
    const char *a, *b;
    int64_t n, m;
    pw_sw_params p;
} sw_case;

static long vector_runs, runs;

/* Runs per app, and how many of them the vector processor took: each app's share is checked, so
 * one app falling back to the scalar cells cannot hide behind the others. */
enum { APP_SW, APP_DTW, APP_SAT, APP_SAT_FLOAT, APP_INTHIST, APP_STENCIL, APP_COUNT };
static const char *const app_names[APP_COUNT] = {"sw", "dtw", "sat (integers)", "sat (floats)", "inthist", "heat/sor"};
static long app_runs[APP_COUNT], app_vector_runs[APP_COUNT];

static void count_run(int app, int vectorised)
{
    runs++, app_runs[app]++;
    if (vectorised) vector_runs++, app_vector_runs[app]++;
}

/* One case on one set with random engine options, against the sequential reference. */
static void check_case(const sw_case *c, pw_simd simd, int lanes, const char *what)
{
    pw_options ref_o;
    pw_options_init(&ref_o);
    ref_o.backend = PW_BACKEND_CPU;
    ref_o.strategy = PW_STRATEGY_SEQUENTIAL;
    pw_sw_result ref, got;
    pw_status st = pw_sw(c->a, c->n, c->b, c->m, &c->p, &ref_o, &ref);
    CHECK(st == PW_OK, "%s: reference status %d", what, st);
    if (st != PW_OK) return;

    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.simd = simd;
    o.width_model = -1;
    o.strategy = test_range(0, 3) ? PW_STRATEGY_PEER : PW_STRATEGY_GLOBAL_BARRIER;
    o.threads = (int)test_range(1, 3);
    int kind = (int)test_range(0, 5);
    if (kind == 1) o.tile_h = lanes * (int)test_range(1, 4);      /* given, a multiple */
    if (kind == 2) o.tile_h = (int)test_range(1, 3 * lanes);      /* given, rounded up to whole vectors */
    if (test_range(0, 1)) o.tile_w = test_range(1, 6 * lanes);     /* rounded up to a multiple */
    st = pw_sw(c->a, c->n, c->b, c->m, &c->p, &o, &got);
    CHECK(st == PW_OK, "%s %s: status %d (%s)", what, pw_simd_name(simd), st, pw_error_detail());
    if (st != PW_OK) return;
    count_run(APP_SW, got.info.simd == simd);
    /* (a narrower set when the scores need longer passes than these lanes allow, or the scalar cells) */
    CHECK(got.info.simd <= simd, "%s: info.simd %d", what, got.info.simd);
    CHECK(got.info.simd != simd || got.info.tile_w % lanes == 0, "%s: tile_w %lld", what, (long long)got.info.tile_w);
    CHECK(got.score == ref.score && got.end_a == ref.end_a && got.end_b == ref.end_b,
          "%s %s %lldx%lld go %d ge %d h %d w %lld threads %d strategy %d: (%d, %lld, %lld) != reference (%d, %lld, %lld)",
          what, pw_simd_name(got.info.simd), (long long)c->n, (long long)c->m, c->p.gap_open, c->p.gap_extend,
          got.info.tile_h, (long long)got.info.tile_w, got.info.threads, o.strategy, got.score, (long long)got.end_a,
          (long long)got.end_b, ref.score, (long long)ref.end_a, (long long)ref.end_b);
}

static void random_cases(pw_simd simd, int lanes, int count)
{
    int64_t cap = 6000;
    char *a = malloc((size_t)cap), *b = malloc((size_t)cap);
    for (int k = 0; k < count; k++) {
        sw_case c = {a, b, awkward_length(), 0, {0}};
        pw_sw_params_init(&c.p);
        int protein = test_range(0, 3) == 0;
        if (protein) {
            random_matrix(&c.p);
            random_protein(a, c.n);
        } else {
            c.p.match = (int)test_range(1, 5);
            c.p.mismatch = -(int)test_range(0, 6);
            random_dna(a, c.n, test_range(0, 3) == 0);
        }
        c.p.gap_open = (int)test_range(0, 12);
        c.p.gap_extend = test_range(0, 2) ? (int)test_range(0, c.p.gap_open + 2) : c.p.gap_open; /* linear a third */
        if (test_range(0, 1)) {
            c.m = mutate(a, c.n, b, cap, (int)test_range(5, 40), protein);
        } else {
            c.m = awkward_length();
            if (protein) random_protein(b, c.m);
            else random_dna(b, c.m, 0);
        }
        check_case(&c, simd, lanes, "random");
    }
    free(a);
    free(b);
}

/* Asked for `simd`, the run uses `want` (the widest set whose passes hold the scores). */
static void check_set_chosen(const sw_case *c, pw_simd simd, pw_simd want)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.simd = simd;
    pw_sw_result r;
    CHECK(pw_sw(c->a, c->n, c->b, c->m, &c->p, &o, &r) == PW_OK && r.info.simd == want, "go %d ge %d match %d: %s, not %s",
          c->p.gap_open, c->p.gap_extend, c->p.match, pw_simd_name(r.info.simd), pw_simd_name(want));
}

/* Scores beyond 16 bits: long related pairs with large matches (bases far above 32767, many
 * passes), and penalties so large that passes are one vector long or impossible. */
static void large_scores(pw_simd simd, int lanes)
{
    const int64_t n = 5000;
    char *a = malloc((size_t)n), *b = malloc((size_t)n + 10);
    random_dna(a, n, 0);
    sw_case c = {a, b, n, mutate(a, n, b, n + 10, 60, 0), {0}};
    pw_sw_params_init(&c.p);
    c.p.match = 9;
    c.p.mismatch = -7;
    c.p.gap_open = 11;
    c.p.gap_extend = 3;
    for (int k = 0; k < 3; k++) check_case(&c, simd, lanes, "large scores");
    c.p.gap_extend = 11; /* linear */
    check_case(&c, simd, lanes, "large scores, linear");
    c.n = c.m = 700;
    /* d = go + ge + max|s| of 100: passes of one block at 32 lanes; 150: AVX-512 gives way to AVX2;
     * then none at all */
    const int big[][3] = {{45, 35, 20}, {40, 35, 35}, {70, 50, 30}, {100, 150, 50}, {200, 250, 0}, {400, 900, 900},
                          {5000, 20000, 1}};
    for (size_t k = 0; k < sizeof big / sizeof big[0]; k++) {
        c.p.match = big[k][0];
        c.p.mismatch = -big[k][0];
        c.p.gap_open = big[k][1];
        c.p.gap_extend = big[k][2];
        check_case(&c, simd, lanes, "large penalties");
        if (simd == PW_SIMD_AVX512 && k == 0) /* d = 100 keeps AVX-512, in passes of one block */
            check_set_chosen(&c, simd, PW_SIMD_AVX512);
        if (simd == PW_SIMD_AVX512 && k == 2) /* d = 150: AVX2's passes hold it, AVX-512's do not */
            check_set_chosen(&c, simd, PW_SIMD_AVX2);
    }
    free(a);
    free(b);
}

/* The sequential reference's options, and a random engine's with `simd` forced. */
static void engine_options(pw_options *ref_o, pw_options *o, pw_simd simd)
{
    pw_options_init(ref_o);
    ref_o->backend = PW_BACKEND_CPU;
    ref_o->strategy = PW_STRATEGY_SEQUENTIAL;
    pw_options_init(o);
    o->backend = PW_BACKEND_CPU;
    o->simd = simd;
    o->width_model = -1;
    o->strategy = test_range(0, 3) ? PW_STRATEGY_PEER : PW_STRATEGY_GLOBAL_BARRIER;
    o->threads = (int)test_range(1, 3);
}

/* DTW: the distance's bits against the sequential reference, f32 and f64. */
static void dtw_cases(pw_simd simd, int lanes16, int count)
{
    double *a = malloc(sizeof *a * 3000), *b = malloc(sizeof *b * 3000);
    float *af = malloc(sizeof *af * 3000), *bf = malloc(sizeof *bf * 3000);
    for (int k = 0; k < count; k++) {
        int64_t n = awkward_length(), m = awkward_length();
        double scale = test_range(0, 2) ? 1.0 : 1e6;
        for (int64_t x = 0; x < n; x++) af[x] = (float)(a[x] = scale * ((double)test_range(-100000, 100000) / 7919.0));
        for (int64_t x = 0; x < m; x++) bf[x] = (float)(b[x] = scale * ((double)test_range(-100000, 100000) / 7919.0));
        if (test_range(0, 4) == 0) /* a flat stretch: many equal costs and ties in the minimum */
            for (int64_t x = 0; x < n / 2; x++) af[x] = (float)(a[x] = 0.0);
        pw_dtw_cost cost = test_range(0, 1) ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE;
        pw_options ref_o, o;
        engine_options(&ref_o, &o, simd);
        int f64 = (int)test_range(0, 1), lanes = f64 ? lanes16 / 4 : lanes16 / 2;
        if (test_range(0, 4) == 0) o.tile_h = lanes * (int)test_range(1, 8);
        if (test_range(0, 1)) o.tile_w = test_range(1, 6 * lanes);
        pw_dtw_result ref, got;
        pw_status s1 = f64 ? pw_dtw_f64(a, n, b, m, cost, &ref_o, &ref) : pw_dtw_f32(af, n, bf, m, cost, &ref_o, &ref);
        pw_status s2 = f64 ? pw_dtw_f64(a, n, b, m, cost, &o, &got) : pw_dtw_f32(af, n, bf, m, cost, &o, &got);
        CHECK(s1 == s2, "dtw %s %lldx%lld: status %d, reference %d", pw_simd_name(simd), (long long)n, (long long)m, s2, s1);
        if (s1 != PW_OK || s2 != PW_OK) continue;
        count_run(APP_DTW, got.info.simd == simd);
        CHECK(memcmp(&got.distance, &ref.distance, sizeof ref.distance) == 0,
              "dtw %s %s %s %lldx%lld h %d w %lld threads %d: %.17g != reference %.17g", pw_simd_name(got.info.simd),
              f64 ? "f64" : "f32", cost == PW_DTW_SQUARED ? "squared" : "absolute", (long long)n, (long long)m,
              got.info.tile_h, (long long)got.info.tile_w, got.info.threads, got.distance, ref.distance);
    }
    free(a);
    free(b);
    free(af);
    free(bf);
}

/* SAT of integers: every entry against the sequential reference.  `large`: tables past
 * PW_SAT_SIMD_STREAM_BYTES (16 MB: apps/sat_simd.h), which the processor writes with non-temporal
 * stores.  Outputs start anywhere (an element or a few after a cache line) with padded rows, so
 * rows' streams begin at every offset in a line. */
static void sat_cases(pw_simd simd, int count, int large)
{
    const pw_dtype ins[] = {PW_U8, PW_U16, PW_I32}, outs[] = {PW_I32, PW_I64};
    for (int k = 0; k < count; k++) {
        int64_t rows = awkward_length() % 700 + 1, cols = awkward_length() % 700 + 1, pad = test_range(0, 5);
        pw_dtype it = ins[test_range(0, 2)], ot = outs[test_range(0, 1)];
        if (large) {
            rows = test_range(1100, 1500);
            cols = test_range(1500, 2500);
            it = ins[test_range(0, 1)]; /* u8, u16: small values, sums that fit i32 */
            ot = outs[test_range(0, 1)];   /* i64 streams lines of 8 */
            const int64_t osize = ot == PW_I32 ? 4 : 8;
            if (rows * cols * osize < (int64_t)16 << 20) cols = ((int64_t)16 << 20) / (osize * rows) + 1;
        }
        size_t isz = it == PW_U8 ? 1 : it == PW_U16 ? 2 : 4, osz = ot == PW_I32 ? 4 : 8;
        const int64_t opad = test_range(0, 17), shift = test_range(0, 3), ostride = cols + opad;
        const size_t ocells = (size_t)(rows * ostride + shift);
        unsigned char *in = malloc(isz * (size_t)(rows * (cols + pad)));
        for (int64_t x = 0; x < rows * (cols + pad); x++) {
            uint64_t r = test_rand();
            if (it == PW_U8) in[x] = (unsigned char)(large ? r & 31 : r);
            else if (it == PW_U16) ((uint16_t *)in)[x] = (uint16_t)(large ? r & 255 : r);
            else ((int32_t *)in)[x] = (int32_t)(r % 2000001) - 1000000;
        }
        unsigned char *want = calloc(ocells, osz), *got = calloc(ocells, osz);
        pw_image im = {it, rows, cols, cols + pad, in}, wi = {ot, rows, cols, ostride, want + shift * osz},
                 gi = {ot, rows, cols, ostride, got + shift * osz};
        pw_options ref_o, o;
        engine_options(&ref_o, &o, simd);
        if (test_range(0, 1)) o.tile_h = (int)test_range(1, 70);
        if (test_range(0, 1)) o.tile_w = large ? test_range(1, 3000) : test_range(1, 200);
        pw_run_info ri, gi_info;
        pw_status s1 = pw_sat(&im, &wi, &ref_o, &ri), s2 = pw_sat(&im, &gi, &o, &gi_info);
        CHECK(s1 == s2, "sat %s: status %d, reference %d", pw_simd_name(simd), s2, s1);
        if (s1 == PW_OK && s2 == PW_OK) {
            count_run(APP_SAT, gi_info.simd == simd);
            CHECK(memcmp(want, got, osz * ocells) == 0,
                  "sat %s %s -> %s %lldx%lld stride %lld, out stride %lld + %lld, h %d w %lld threads %d strategy %d",
                  pw_simd_name(gi_info.simd), pw_dtype_name(it), pw_dtype_name(ot), (long long)rows, (long long)cols,
                  (long long)(cols + pad), (long long)ostride, (long long)shift, gi_info.tile_h,
                  (long long)gi_info.tile_w, gi_info.threads, o.strategy);
        }
        free(in);
        free(want);
        free(got);
    }
}

/* SAT of floats (f32 -> f32, f64 -> f64): the bits of every entry against the sequential
 * reference, values of mixed signs and scales (so that the order of the adds shows); `large`:
 * tables written through the stages (sat_simd.h). */
static void sat_float_cases(pw_simd simd, int count, int large)
{
    for (int k = 0; k < count; k++) {
        int64_t rows = awkward_length() % 500 + 1, cols = awkward_length() % 500 + 1, pad = test_range(0, 5);
        const int f64 = (int)test_range(0, 1);
        if (large) { /* past the streaming size (16 MB): through the stages */
            rows = test_range(1000, 1300);
            cols = (((int64_t)16 << 20) / (f64 ? 8 : 4)) / rows + test_range(1, 600);
        }
        const size_t esz = f64 ? 8 : 4;
        const int64_t opad = test_range(0, 9);
        unsigned char *in = malloc(esz * (size_t)(rows * (cols + pad)));
        unsigned char *want = calloc((size_t)(rows * (cols + opad)), esz), *got = calloc((size_t)(rows * (cols + opad)), esz);
        for (int64_t x = 0; x < rows * (cols + pad); x++) {
            const double v = (double)test_range(-1000000, 1000000) / (test_range(0, 3) ? 997.0 : 0.0137);
            if (f64) ((double *)in)[x] = v;
            else ((float *)in)[x] = (float)v;
        }
        const pw_dtype type = f64 ? PW_F64 : PW_F32;
        pw_image im = {type, rows, cols, cols + pad, in}, wi = {type, rows, cols, cols + opad, want},
                 gi = {type, rows, cols, cols + opad, got};
        pw_options ref_o, o;
        engine_options(&ref_o, &o, simd);
        if (test_range(0, 1)) o.tile_h = (int)test_range(1, 70);
        if (test_range(0, 1)) o.tile_w = large ? test_range(1, 3000) : test_range(1, 200);
        pw_run_info ri, g_info;
        pw_status s1 = pw_sat(&im, &wi, &ref_o, &ri), s2 = pw_sat(&im, &gi, &o, &g_info);
        CHECK(s1 == PW_OK && s2 == PW_OK, "sat float %s: status %d, reference %d", pw_simd_name(simd), s2, s1);
        if (s1 == PW_OK && s2 == PW_OK) {
            count_run(APP_SAT_FLOAT, g_info.simd == simd);
            CHECK(memcmp(want, got, esz * (size_t)(rows * (cols + opad))) == 0,
                  "sat %s %s %lldx%lld stride %lld, out stride %lld, h %d w %lld threads %d strategy %d",
                  pw_simd_name(g_info.simd), f64 ? "f64" : "f32", (long long)rows, (long long)cols, (long long)(cols + pad),
                  (long long)(cols + opad), g_info.tile_h, (long long)g_info.tile_w, g_info.threads, o.strategy);
        }
        free(in);
        free(want);
        free(got);
    }
}

/* Integral histograms: every plane's every entry against the sequential reference; `large`:
 * planes past the streaming size together. */
static void inthist_cases(pw_simd simd, int count, int large)
{
    const pw_dtype ins[] = {PW_U8, PW_U16, PW_F32};
    for (int k = 0; k < count; k++) {
        int64_t rows = awkward_length() % 300 + 1, cols = awkward_length() % 300 + 1, pad = test_range(0, 5);
        int bins = (int)test_range(1, 40);
        if (large) { /* at least 800 x 1000 x 6 x 4 bytes: past the 16 MB streaming size */
            rows = test_range(800, 900);
            cols = test_range(1000, 1200);
            bins = (int)test_range(6, 8);
        }
        const pw_dtype it = ins[test_range(0, 2)];
        const size_t isz = it == PW_U8 ? 1 : it == PW_U16 ? 2 : 4, cells = (size_t)(rows * cols);
        unsigned char *in = malloc(isz * (size_t)(rows * (cols + pad)));
        for (int64_t x = 0; x < rows * (cols + pad); x++) {
            uint64_t r = test_rand();
            if (it == PW_U8) in[x] = (unsigned char)r;
            else if (it == PW_U16) ((uint16_t *)in)[x] = (uint16_t)(r % 3000);
            else ((float *)in)[x] = (float)((double)(r % 200000) / 997.0 - 20.0);
        }
        /* a range that leaves some values out on both sides */
        const double lo = it == PW_F32 ? -3.5 : 7, hi = it == PW_U8 ? 250 : it == PW_U16 ? 2800 : 150.25;
        int32_t *want = calloc(cells * (size_t)bins, 4), *got = calloc(cells * (size_t)bins, 4);
        pw_image im = {it, rows, cols, cols + pad, in};
        pw_options ref_o, o;
        engine_options(&ref_o, &o, simd);
        if (test_range(0, 1)) o.tile_h = (int)test_range(1, 70);
        if (test_range(0, 1)) o.tile_w = test_range(1, 300);
        pw_run_info ri, gi;
        pw_status s1 = pw_inthist(&im, bins, lo, hi, want, &ref_o, &ri), s2 = pw_inthist(&im, bins, lo, hi, got, &o, &gi);
        CHECK(s1 == PW_OK && s2 == PW_OK, "inthist %s: status %d, reference %d", pw_simd_name(simd), s2, s1);
        if (s1 == PW_OK && s2 == PW_OK) {
            count_run(APP_INTHIST, gi.simd == simd);
            CHECK(memcmp(want, got, 4 * cells * (size_t)bins) == 0,
                  "inthist %s %s %lldx%lld stride %lld bins %d h %d w %lld threads %d strategy %d", pw_simd_name(gi.simd),
                  pw_dtype_name(it), (long long)rows, (long long)cols, (long long)(cols + pad), bins, gi.tile_h,
                  (long long)gi.tile_w, gi.threads, o.strategy);
        }
        free(in);
        free(want);
        free(got);
    }
}

/* HEAT and SOR in place: the whole grid's bits against the sequential reference. */
static void stencil_cases(pw_simd simd, int count)
{
    for (int k = 0; k < count; k++) {
        int64_t rows = awkward_length() % 300 + 3, cols = awkward_length() % 300 + 3, pad = test_range(0, 3);
        const int f64 = (int)test_range(0, 1), sor = (int)test_range(0, 1);
        const int64_t sweeps = test_range(1, 4);
        const double omega = 0.5 + (double)test_range(0, 1000) / 1000.0;
        const size_t esz = f64 ? 8 : 4, bytes = esz * (size_t)(rows * (cols + pad));
        unsigned char *want = malloc(bytes), *got = malloc(bytes);
        for (int64_t x = 0; x < rows * (cols + pad); x++) {
            double v = (double)test_range(-1000000, 1000000) / 997.0;
            if (f64) ((double *)want)[x] = v;
            else ((float *)want)[x] = (float)v;
        }
        memcpy(got, want, bytes);
        pw_image wg = {f64 ? PW_F64 : PW_F32, rows, cols, cols + pad, want}, gg = wg;
        gg.data = got;
        pw_options ref_o, o;
        engine_options(&ref_o, &o, simd);
        if (test_range(0, 1)) o.tile_h = (int)test_range(1, 70);
        if (test_range(0, 1)) o.tile_w = test_range(1, 200);
        pw_run_info ri, gi;
        pw_status s1 = sor ? pw_sor(&wg, sweeps, omega, &ref_o, NULL, &ri) : pw_heat(&wg, sweeps, &ref_o, NULL, &ri);
        pw_status s2 = sor ? pw_sor(&gg, sweeps, omega, &o, NULL, &gi) : pw_heat(&gg, sweeps, &o, NULL, &gi);
        CHECK(s1 == PW_OK && s2 == PW_OK, "%s %s: status %d, reference %d", sor ? "sor" : "heat", pw_simd_name(simd), s2, s1);
        if (s1 == PW_OK && s2 == PW_OK) {
            count_run(APP_STENCIL, gi.simd == simd);
            CHECK(memcmp(want, got, bytes) == 0, "%s %s %s %lldx%lld stride %lld sweeps %lld h %d w %lld threads %d strategy %d",
                  sor ? "sor" : "heat", pw_simd_name(gi.simd), f64 ? "f64" : "f32", (long long)rows, (long long)cols,
                  (long long)(cols + pad), (long long)sweeps, gi.tile_h, (long long)gi.tile_w, gi.threads, o.strategy);
        }
        free(want);
        free(got);
    }
}

static void refusals(void)
{
    const char a[] = "ACGTTGCA", b[] = "ACGTAGCA";
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    pw_sw_result r;
    setenv("PEERWAVE_DEBUG_CPU_LACKS", "avx512,avx2", 1);
    o.simd = PW_SIMD_AVX512;
    pw_status st = pw_sw(a, 8, b, 8, &p, &o, &r);
    CHECK(st == PW_ERR_UNSUPPORTED && strstr(pw_error_detail(), "avx512"), "a missing set: %d %s", st, pw_error_detail());
    o.simd = PW_SIMD_AUTO;
    st = pw_sw(a, 8, b, 8, &p, &o, &r);
    CHECK(st == PW_OK && r.info.simd != PW_SIMD_AVX512 && r.info.simd != PW_SIMD_AVX2, "auto without them: %d %d", st,
          r.info.simd);
    unsetenv("PEERWAVE_DEBUG_CPU_LACKS");
    setenv("PEERWAVE_SIMD", "avx9000", 1);
    st = pw_sw(a, 8, b, 8, &p, &o, &r);
    CHECK(st == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "PEERWAVE_SIMD"), "bad name: %d", st);
    setenv("PEERWAVE_SIMD", "scalar", 1);
    st = pw_sw(a, 8, b, 8, &p, &o, &r);
    CHECK(st == PW_OK && r.info.simd == PW_SIMD_SCALAR, "PEERWAVE_SIMD=scalar: %d %d", st, r.info.simd);
    unsetenv("PEERWAVE_SIMD");
    o.simd = (pw_simd)17;
    CHECK(pw_sw(a, 8, b, 8, &p, &o, &r) == PW_ERR_INVALID_ARGUMENT, "an unknown set");
    CHECK(strcmp(pw_simd_name(PW_SIMD_AVX2), "avx2") == 0 && pw_simd_name((pw_simd)9) == NULL, "names");
}

/* Options for the CPU backend with this strategy. */
static pw_options cpu_options(pw_strategy strategy)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.strategy = strategy;
    return o;
}

/* The sequential reference's answer for c (the scalar cells: never a vector engine, whatever
 * $PEERWAVE_SW_CPU_ENGINE says; checked below). */
static pw_status sw_reference(const sw_case *c, pw_sw_result *ref)
{
    pw_options o = cpu_options(PW_STRATEGY_SEQUENTIAL);
    o.simd = PW_SIMD_SCALAR;
    const pw_status st = pw_sw(c->a, c->n, c->b, c->m, &c->p, &o, ref);
    CHECK(st != PW_OK || (ref->info.simd == PW_SIMD_SCALAR && ref->info.lane_bits == 0), "the reference ran %s, %d-bit lanes",
          pw_simd_name(ref->info.simd), ref->info.lane_bits);
    return st;
}

/* The striped one-core engine (apps/sw_striped.h), forced through $PEERWAVE_SW_CPU_ENGINE, against
 * the sequential reference: awkward shapes (1 x N, N x 1, lengths around the lanes), DNA and every
 * matrix, affine, linear, free and extension-dearer-than-opening gaps, related and unrelated pairs.
 * It must have run (16-bit lanes, one thread) exactly where the best score stays below 32767 minus
 * the table's top score, and have handed the pair to the tiles past that (the large matches). */
static void striped_cases(pw_simd simd, int count)
{
    const int64_t cap = 5000;
    char *a = malloc((size_t)cap), *b = malloc((size_t)cap + 10);
    long striped = 0, handed_over = 0;
    setenv("PEERWAVE_SW_CPU_ENGINE", "striped", 1);
    for (int k = 0; k < count; k++) {
        sw_case c = {a, b, k % 7 == 0 ? 1 : awkward_length(), 0, {0}};
        pw_sw_params_init(&c.p);
        const int protein = test_range(0, 2) == 0, large = k % 11 == 5;
        int32_t top;
        if (protein) {
            random_matrix(&c.p);
            random_protein(a, c.n);
            top = 0;
            for (int x = 0; x < c.p.matrix->size * c.p.matrix->size; x++)
                top = c.p.matrix->scores[x] > top ? c.p.matrix->scores[x] : top;
        } else {
            c.p.match = large ? (int)test_range(20, 60) : (int)test_range(1, 5);
            c.p.mismatch = -(int)test_range(0, 6);
            if (large) c.n = test_range(800, cap - 10);
            random_dna(a, c.n, test_range(0, 3) == 0);
            top = c.p.match > c.p.mismatch ? c.p.match : c.p.mismatch;
        }
        c.p.gap_open = (int)test_range(0, 12);
        const int gaps = (int)test_range(0, 3);
        c.p.gap_extend = gaps == 0 ? c.p.gap_open : gaps == 1 ? (int)test_range(c.p.gap_open, c.p.gap_open + 3)
                                                              : (int)test_range(0, c.p.gap_open);
        if (large || test_range(0, 1)) {
            c.m = mutate(a, c.n, b, cap, (int)test_range(5, 40), protein);
        } else {
            c.m = k % 5 == 0 ? 1 : awkward_length();
            if (protein) random_protein(b, c.m);
            else random_dna(b, c.m, 0);
        }
        if (test_range(0, 1)) { /* (either sequence down the rows) */
            const char *t = c.a;
            c.a = c.b, c.b = t;
            const int64_t tn = c.n;
            c.n = c.m, c.m = tn;
        }
        pw_options o = cpu_options(PW_STRATEGY_PEER);
        o.simd = simd;
        pw_sw_result ref, got;
        const pw_status s1 = sw_reference(&c, &ref), s2 = pw_sw(c.a, c.n, c.b, c.m, &c.p, &o, &got);
        CHECK(s1 == PW_OK && s2 == PW_OK && got.score == ref.score && got.end_a == ref.end_a && got.end_b == ref.end_b,
              "striped %s %lldx%lld go %d ge %d: (%d, %lld, %lld) != reference (%d, %lld, %lld), status %d %d",
              pw_simd_name(simd), (long long)c.n, (long long)c.m, c.p.gap_open, c.p.gap_extend, got.score,
              (long long)got.end_a, (long long)got.end_b, ref.score, (long long)ref.end_a, (long long)ref.end_b, s1, s2);
        const int ran = got.info.lane_bits == 16 && got.info.threads == 1 && got.info.strategy == PW_STRATEGY_SEQUENTIAL;
        CHECK(s2 != PW_OK || ran == (ref.score < 32767 - top), "striped %s %lldx%lld: score %d, top %d, %s", pw_simd_name(simd),
              (long long)c.n, (long long)c.m, ref.score, top, ran ? "ran striped" : "handed to the tiles");
        striped += ran, handed_over += !ran;
        c.a = a, c.b = b;
    }
    setenv("PEERWAVE_SW_CPU_ENGINE", "tiles", 1);
    CHECK(striped > count / 2 && handed_over > 0, "striped %s: %ld striped, %ld handed over", pw_simd_name(simd), striped,
          handed_over);
    printf("%s striped: %ld runs, %ld handed to the tiles past 16 bits\n", pw_simd_name(simd), striped, handed_over);
    free(a);
    free(b);
}

/* Left to itself (one thread, the default strategy) pw_sw takes the striped engine for a table
 * the tiles gather from, never for match/mismatch scoring; a similar pair gives up on it (its lazy
 * passes) or saturates, and the answer is the reference's all the same. */
static void striped_automatic(void)
{
    const int64_t n = 3000;
    char *a = malloc((size_t)n), *b = malloc((size_t)n + 10);
    unsetenv("PEERWAVE_SW_CPU_ENGINE");
    for (int k = 0; k < 4; k++) { /* unrelated, near-identical, DNA; a middling pair (either way) */
        pw_sw_params p;
        pw_sw_params_init(&p);
        int64_t m = n;
        if (k != 2) {
            p.scoring = PW_SCORING_MATRIX;
            p.matrix = pw_matrix_by_name("BLOSUM62");
            p.gap_open = 11, p.gap_extend = 1; /* (long chains off a similar pair's diagonal) */
            random_protein(a, n);
            if (k == 0) random_protein(b, n);
            else m = mutate(a, n, b, n + 10, k == 1 ? 40 : 8, 1); /* similar: long gap chains */
        } else {
            random_dna(a, n, 0);
            random_dna(b, n, 0);
        }
        pw_options o = cpu_options(PW_STRATEGY_PEER);
        o.threads = 1;
        const sw_case c = {a, b, n, m, p};
        pw_sw_result ref, got;
        const pw_status s1 = sw_reference(&c, &ref), s2 = pw_sw(a, n, b, m, &p, &o, &got);
        CHECK(s1 == PW_OK && s2 == PW_OK && got.score == ref.score && got.end_a == ref.end_a && got.end_b == ref.end_b,
              "automatic case %d: (%d, %lld, %lld) != reference (%d, %lld, %lld)", k, got.score, (long long)got.end_a,
              (long long)got.end_b, ref.score, (long long)ref.end_a, (long long)ref.end_b);
        const int ran = got.info.lane_bits == 16 && got.info.strategy == PW_STRATEGY_SEQUENTIAL;
        CHECK(k == 3 || ran == (k == 0), "automatic case %d: the striped engine %s", k, ran ? "ran" : "did not run");
    }
    /* the cancel flag stops it (checked every 64 rows, the first among them) */
    setenv("PEERWAVE_SW_CPU_ENGINE", "striped", 1);
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o = cpu_options(PW_STRATEGY_PEER);
    pw_sw_result r;
    /* asked for, it still leaves the other strategies alone: the sequential loop stays the reference */
    p.scoring = PW_SCORING_MATRIX;
    p.matrix = pw_matrix_by_name("BLOSUM62");
    o.strategy = PW_STRATEGY_SEQUENTIAL;
    CHECK(pw_sw(a, 100, a, 100, &p, &o, &r) == PW_OK && r.info.lane_bits == 0 && r.info.tile_w == 100,
          "striped asked for: a sequential run took it (lane bits %d)", r.info.lane_bits);
    o.strategy = PW_STRATEGY_PEER;
    static const volatile int stop = 1;
    o.cancel = &stop;
    CHECK(pw_sw(a, n, a, n, &p, &o, &r) == PW_ERR_CANCELLED, "striped: the cancel flag did not stop it");
    setenv("PEERWAVE_SW_CPU_ENGINE", "tiles", 1);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    test_seed(20261124);
    int count = argc > 1 ? atoi(argv[1]) : 300;
    unsetenv("PEERWAVE_SIMD");
    unsetenv("PEERWAVE_DEBUG_CPU_LACKS");
    /* (the tile processors here; the striped engine in striped_cases) */
    setenv("PEERWAVE_SW_CPU_ENGINE", "tiles", 1);
    int tested = 0;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.simd = sets[s];
        pw_sw_params p;
        pw_sw_params_init(&p);
        pw_sw_result r;
        if (pw_sw("ACGT", 4, "ACGT", 4, &p, &o, &r) == PW_ERR_UNSUPPORTED) {
            printf("%s: this processor lacks it, skipped\n", pw_simd_name(sets[s]));
            continue;
        }
        tested++;
        long before_runs = runs, before_vector = vector_runs;
        random_cases(sets[s], lanes_of[s], count);
        large_scores(sets[s], lanes_of[s]);
        striped_cases(sets[s], count / 2);
        if (sets[s] == PW_SIMD_AVX2) striped_automatic();
        dtw_cases(sets[s], lanes_of[s], count);
        sat_cases(sets[s], count / 3, 0);
        sat_cases(sets[s], 3, 1);
        sat_float_cases(sets[s], count / 3, 0);
        sat_float_cases(sets[s], 3, 1);
        inthist_cases(sets[s], count / 6, 0);
        inthist_cases(sets[s], 2, 1);
        stencil_cases(sets[s], count / 3);
        long ran = runs - before_runs, vec = vector_runs - before_vector;
        printf("%s: %ld runs, %ld of them on the vector processor\n", pw_simd_name(sets[s]), ran, vec);
        /* most runs of every app must really have used the vectors, or this test proves nothing */
        for (int a = 0; a < APP_COUNT; a++) {
            CHECK(app_vector_runs[a] * 10 >= app_runs[a] * 6 && app_runs[a] > 0, "%s %s: only %ld of %ld runs vectorised",
                  pw_simd_name(sets[s]), app_names[a], app_vector_runs[a], app_runs[a]);
            app_runs[a] = app_vector_runs[a] = 0;
        }
    }
    refusals();
    printf("%d instruction sets tested\n", tested);
    return test_finish();
}
