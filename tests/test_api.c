/* test_api.c - API misuse returns the documented status codes, and nothing runs. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "peerwave_align.h"
#include "peerwave_batch.h"
#include "peerwave_dist.h"
#include "peerwave_runtime.h"
#include "test_util.h"

static int64_t test_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t pw_test_sat_total(const uint8_t *x, int64_t n)
{
    int64_t s = 0;
    for (int64_t k = 0; k < n; k++) s += x[k];
    return s;
}

static void noop_row(void *u, int64_t i, int64_t jb, int64_t je) { (void)u, (void)i, (void)jb, (void)je; }

static void check_options(void)
{
    const char *a = "ACGT";
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_result r;
    pw_options o;
#define WITH(field, value, expect)                                                   \
    pw_options_init(&o);                                                             \
    o.field = value;                                                                 \
    CHECK(pw_sw(a, 4, a, 4, &p, &o, &r) == (expect), "option " #field " = " #value);
    WITH(backend, (pw_backend)7, PW_ERR_INVALID_ARGUMENT)
    WITH(strategy, (pw_strategy)-1, PW_ERR_INVALID_ARGUMENT)
    WITH(shape, (pw_tile_shape)3, PW_ERR_INVALID_ARGUMENT)
    WITH(tile_h, -1, PW_ERR_INVALID_TILE)
    WITH(tile_h, PW_MAX_TILE_H + 1, PW_ERR_INVALID_TILE)
    WITH(tile_w, -5, PW_ERR_INVALID_TILE)
    WITH(threads, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(threads, PW_MAX_THREADS + 1, PW_ERR_INVALID_ARGUMENT)
    WITH(device, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(max_blocks, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(watchdog_ms, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(rows_per_thread, 3, PW_ERR_INVALID_ARGUMENT)
    WITH(rows_per_thread, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(rows_per_thread, 4, PW_OK) /* CPU: ignored */
    WITH(layout, (pw_layout)3, PW_ERR_INVALID_ARGUMENT)
    WITH(layout, PW_LAYOUT_HYBRID, PW_OK) /* CPU: ignored */
    WITH(watchdog_ms, INT64_MAX, PW_ERR_INVALID_ARGUMENT)
    WITH(sw_prune, 2, PW_ERR_INVALID_ARGUMENT)
    WITH(sw_prune, -1, PW_ERR_INVALID_ARGUMENT)
    WITH(sw_prune, 1, PW_OK) /* CPU: ignored */
    WITH(tile_w, 0, PW_OK) /* 0 = automatic */
    WITH(tile_h, 0, PW_OK)
    /* LAUNCH is a GPU-only baseline: the CPU backend refuses it rather than pretending. */
    o.backend = PW_BACKEND_CPU;
    o.strategy = PW_STRATEGY_LAUNCH;
    CHECK(pw_sw(a, 4, a, 4, &p, &o, &r) == PW_ERR_UNSUPPORTED, "launch on cpu");
#undef WITH
}

static void check_sw(void)
{
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_result r;
    CHECK(pw_sw(NULL, 1, "A", 1, &p, NULL, &r) == PW_ERR_NULL_ARGUMENT, "sw NULL a");
    CHECK(pw_sw("A", 1, "A", 1, NULL, NULL, &r) == PW_ERR_NULL_ARGUMENT, "sw NULL params");
    CHECK(pw_sw("A", 1, "A", 1, &p, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "sw NULL result");
    CHECK(pw_sw("A", 0, "A", 1, &p, NULL, &r) == PW_ERR_INVALID_SIZE, "sw n = 0");
    CHECK(pw_sw("A", 1, "A", -3, &p, NULL, &r) == PW_ERR_INVALID_SIZE, "sw m < 0");
    CHECK(pw_sw("A1", 2, "A", 1, &p, NULL, &r) == PW_ERR_BAD_INPUT, "sw digit in sequence");
    p.mismatch = 3;
    CHECK(pw_sw("A", 1, "A", 1, &p, NULL, &r) == PW_ERR_INVALID_ARGUMENT, "sw positive mismatch");
    pw_sw_params_init(&p);
    p.gap_open = -1;
    CHECK(pw_sw("A", 1, "A", 1, &p, NULL, &r) == PW_ERR_INVALID_ARGUMENT, "sw negative gap");
    pw_sw_params_init(&p);
    p.scoring = PW_SCORING_MATRIX;
    CHECK(pw_sw("A", 1, "A", 1, &p, NULL, &r) == PW_ERR_NULL_ARGUMENT, "sw matrix NULL");
    /* Scores that could pass 32 bits are refused before any work: 3000 x 2^20 > 2^31. */
    pw_sw_params_init(&p);
    p.match = PW_MAX_SCORE_MAGNITUDE;
    char *s = malloc(3000);
    memset(s, 'A', 3000);
    CHECK(pw_sw(s, 3000, s, 3000, &p, NULL, &r) == PW_ERR_OVERFLOW, "sw overflow refused");
    CHECK(pw_sw(s, 2000, s, 2000, &p, NULL, &r) == PW_OK && r.score == 2000 * PW_MAX_SCORE_MAGNITUDE,
          "sw just below the bound runs and is exact");
    free(s);
    pw_sw_params_init(&p);
    CHECK(pw_sw("NNNN", 4, "NNNN", 4, &p, NULL, &r) == PW_OK && r.score == 0 && r.end_a == -1,
          "N never matches, score 0 has no end");
    CHECK(pw_matrix_by_name("nosuch") == NULL && pw_matrix_by_name(NULL) == NULL, "unknown matrix");
    /* A caller's matrix: letters (either case, each meaning both, as sequences are folded) and
     * '*', each once; any other byte or a letter again is refused, naming the byte and its index. */
    static const int8_t four[16] = {1, -1, -1, -1, -1, 1, -1, -1, -1, -1, 1, -1, -1, -1, -1, 1};
    pw_matrix mx = {"probe", "ACGT", 't', 4, four};
    p.scoring = PW_SCORING_MATRIX;
    p.matrix = &mx;
    CHECK(pw_sw("acgt", 4, "ACGT", 4, &p, NULL, &r) == PW_OK && r.score == 4, "custom matrix, either case");
    mx.alphabet = "acg*"; /* (lower case letters, '*' a symbol of its own, the wildcard '*') */
    mx.wildcard = '*';
    CHECK(pw_sw("ACG*N", 5, "acg*W", 5, &p, NULL, &r) == PW_OK && r.score == 5, "custom matrix: lower case and '*'");
    static const struct {
        const char *alphabet, *detail;
    } bad[] = {
        {"AC1T", "alphabet[2] is '1' (0x31)"},  {"AC-T", "alphabet[2] is '-' (0x2d)"},
        {"A CT", "alphabet[1] is ' ' (0x20)"},  {"ACG\xc3", "alphabet[3] is 0xc3"},
        {"ACAT", "alphabet[2] is 'A' (0x41), already alphabet[0]"},
        {"TCGt", "alphabet[3] is 't' (0x74), already alphabet[0]"},
    };
    mx.wildcard = 'C';
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mx.alphabet = bad[k].alphabet;
        pw_status st = pw_sw("ACGT", 4, "ACGT", 4, &p, NULL, &r);
        CHECK(st == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), bad[k].detail) &&
                  strstr(pw_error_detail(), "matrix probe"),
              "custom alphabet %zu refused: %s (%s)", k, pw_status_str(st), pw_error_detail());
    }
    mx.alphabet = "ACGT";
    mx.wildcard = 'N';
    CHECK(pw_sw("ACGT", 4, "ACGT", 4, &p, NULL, &r) == PW_ERR_INVALID_ARGUMENT &&
              strstr(pw_error_detail(), "the wildcard 'N' (0x4e) is not in the alphabet"),
          "custom matrix: wildcard not in the alphabet (%s)", pw_error_detail());
    mx.wildcard = 'T';
    mx.size = 3;
    CHECK(pw_sw("ACGT", 4, "ACGT", 4, &p, NULL, &r) == PW_ERR_INVALID_ARGUMENT &&
              strstr(pw_error_detail(), "size 3, alphabet of 4 bytes"),
          "custom matrix: size not the alphabet's (%s)", pw_error_detail());
}

static void check_dtw(void)
{
    double x[3] = {1, 2, 3}, bad[2] = {1, NAN}, inf[1] = {INFINITY}, huge[2] = {1e308, -1e308};
    pw_dtw_result r;
    CHECK(pw_dtw_f64(NULL, 3, x, 3, PW_DTW_ABSOLUTE, NULL, &r) == PW_ERR_NULL_ARGUMENT, "dtw NULL");
    CHECK(pw_dtw_f64(x, 0, x, 3, PW_DTW_ABSOLUTE, NULL, &r) == PW_ERR_INVALID_SIZE, "dtw n = 0");
    CHECK(pw_dtw_f64(bad, 2, x, 3, PW_DTW_ABSOLUTE, NULL, &r) == PW_ERR_BAD_INPUT, "dtw NaN");
    CHECK(pw_dtw_f64(inf, 1, x, 3, PW_DTW_ABSOLUTE, NULL, &r) == PW_ERR_BAD_INPUT, "dtw inf");
    CHECK(pw_dtw_f64(x, 3, x, 3, (pw_dtw_cost)9, NULL, &r) == PW_ERR_INVALID_ARGUMENT, "dtw cost");
    CHECK(pw_dtw_f64(huge, 2, huge + 1, 1, PW_DTW_SQUARED, NULL, &r) == PW_ERR_OVERFLOW, "dtw inf result");
    CHECK(pw_dtw_f64(x, 3, x, 3, PW_DTW_ABSOLUTE, NULL, &r) == PW_OK && r.distance == 0, "dtw same = 0");
}

static void check_images(void)
{
    uint8_t px[4] = {1, 2, 3, 4};
    int32_t out32[4];
    int64_t out64[4];
    pw_image in = {PW_U8, 2, 2, 0, px}, out = {PW_I32, 2, 2, 0, out32};
    CHECK(pw_sat(NULL, &out, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "sat NULL in");
    pw_image nodata = in;
    nodata.data = NULL;
    CHECK(pw_sat(&nodata, &out, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "sat NULL data");
    pw_image zero = in;
    zero.rows = 0;
    CHECK(pw_sat(&zero, &out, NULL, NULL) == PW_ERR_INVALID_SIZE, "sat 0 rows");
    pw_image big = in;
    big.rows = INT64_MAX / 2;
    big.cols = 64;
    CHECK(pw_sat(&big, &out, NULL, NULL) == PW_ERR_SIZE_OVERFLOW, "sat byte count overflow");
    pw_image stride = in;
    stride.stride = 1;
    CHECK(pw_sat(&stride, &out, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sat stride < cols");
    pw_image other = out;
    other.cols = 1;
    CHECK(pw_sat(&in, &other, NULL, NULL) == PW_ERR_INVALID_SIZE, "sat shape mismatch");
    pw_image badtype = in;
    badtype.type = (pw_dtype)42;
    CHECK(pw_sat(&badtype, &out, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sat unknown type");
    float fpx[4] = {1, 2, 3, 4};
    pw_image fin = {PW_F32, 2, 2, 0, fpx};
    CHECK(pw_sat(&fin, &out, NULL, NULL) == PW_ERR_UNSUPPORTED, "sat float -> int refused");
    int32_t ipx[4] = {INT32_MAX, INT32_MAX, 0, 0};
    pw_image iin = {PW_I32, 2, 2, 0, ipx};
    CHECK(pw_sat(&iin, &out, NULL, NULL) == PW_ERR_OVERFLOW, "sat i32 overflow refused");
    pw_image out64i = {PW_I64, 2, 2, 0, out64};
    CHECK(pw_sat(&iin, &out64i, NULL, NULL) == PW_OK && out64[3] == 2LL * INT32_MAX, "sat i64 widens");
    CHECK(pw_sat(&in, &out, NULL, NULL) == PW_OK && out32[3] == 10, "sat 2x2");
    /* pw_sat_fits for float tables: the sum of |x| within half the type's range, every value finite */
    float fbig[4] = {1e38f, -1e38f, 0, 0}, fnan[4] = {1, NAN, 2, 3};
    double dbig[4] = {5e307, 5e307, -5e307, 1};
    pw_image ffits = {PW_F32, 2, 2, 0, fpx}, fover = {PW_F32, 2, 2, 0, fbig}, fbad = {PW_F32, 2, 2, 0, fnan},
             dover = {PW_F64, 2, 2, 0, dbig};
    CHECK(pw_sat_fits(&ffits, PW_F32) && pw_sat_fits(&fover, PW_F64) && !pw_sat_fits(&fover, PW_F32) &&
              !pw_sat_fits(&fbad, PW_F32) && !pw_sat_fits(&fbad, PW_F64) && !pw_sat_fits(&dover, PW_F64) &&
              pw_sat_fits(&in, PW_F32),
          "sat_fits for float outputs");

    int32_t hist[8];
    CHECK(pw_inthist(&in, 0, 0, 256, hist, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "inthist 0 bins");
    CHECK(pw_inthist(&in, 2, 5, 5, hist, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "inthist lo == hi");
    CHECK(pw_inthist(&in, 2, 0, NAN, hist, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "inthist NaN hi");
    CHECK(pw_inthist(&in, 2, 0, 256, NULL, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "inthist NULL out");
    CHECK(pw_inthist(&iin, 2, 0, 256, hist, NULL, NULL) == PW_ERR_UNSUPPORTED, "inthist i32 input");
    { /* numpy's default range of an f32 image, and its closed last bin: a strided 2 x 3 view */
        float px[2][4] = {{2, -1, 7, 99}, {7, 0.5f, 3, 99}}, nan_px[2] = {1, NAN}, one[2] = {16777216.0f, 16777216.0f};
        pw_image f = {PW_F32, 2, 3, 4, px}, fnan = {PW_F32, 1, 2, 0, nan_px}, fone = {PW_F32, 1, 2, 0, one};
        double lo = 0, hi = 0;
        int closed = -1;
        CHECK(pw_inthist_default_range(&f, &lo, &hi, &closed) == PW_OK && lo == -1 && hi == 7 && closed == 1,
              "inthist_default_range [min, max] of a strided view: [%g, %g] %d", lo, hi, closed);
        CHECK(pw_inthist_default_range(&fnan, &lo, &hi, &closed) == PW_ERR_BAD_INPUT, "inthist_default_range NaN");
        CHECK(pw_inthist_default_range(&in, &lo, &hi, &closed) == PW_ERR_UNSUPPORTED, "inthist_default_range u8");
        CHECK(pw_inthist_default_range(&f, NULL, &hi, &closed) == PW_ERR_NULL_ARGUMENT, "inthist_default_range NULL");
        /* one value at 2^24, where 0.5 is below a float's spacing (2): [v - 2, v + 2) */
        CHECK(pw_inthist_default_range(&fone, &lo, &hi, &closed) == PW_OK && lo == 16777214.0 && hi == 16777218.0 &&
                  closed == 0, "inthist_default_range of one value: [%.1f, %.1f) %d", lo, hi, closed);
        /* the two 7s (at (0, 2) and (1, 0)) into the last of 2 planes: its SAT of [x == 7] */
        int32_t planes[2 * 6] = {0};
        CHECK(pw_inthist_close_last_bin(&f, 2, 7, planes) == PW_OK, "inthist_close_last_bin");
        const int32_t want[6] = {0, 0, 1, 1, 1, 2};
        int same = 1;
        for (int k = 0; k < 6; k++) same &= planes[k] == 0 && planes[6 + k] == want[k];
        CHECK(same, "inthist_close_last_bin: the 7s' summed-area table in the last plane only");
        CHECK(pw_inthist_close_last_bin(&f, 0, 7, planes) == PW_ERR_INVALID_ARGUMENT, "inthist_close_last_bin 0 bins");
    }

    double g[9] = {0};
    pw_image grid = {PW_F64, 3, 3, 0, g}, small = {PW_F64, 2, 3, 0, g}, u8grid = {PW_U8, 3, 3, 0, g};
    CHECK(pw_heat(&small, 1, NULL, NULL, NULL) == PW_ERR_INVALID_SIZE, "heat 2 rows");
    CHECK(pw_heat(&u8grid, 1, NULL, NULL, NULL) == PW_ERR_UNSUPPORTED, "heat u8 grid");
    CHECK(pw_heat(&grid, -1, NULL, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "heat negative sweeps");
    CHECK(pw_sor(&grid, 1, 2.0, NULL, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sor omega 2");
    CHECK(pw_sor(&grid, 1, 0.0, NULL, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sor omega 0");
    CHECK(pw_sor(&grid, 1, NAN, NULL, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sor omega NaN");
}

static void check_generic(void)
{
    pw_problem p = {0};
    pw_dep good[] = {{1, 0}, {0, 1}};
    p.rows = 4;
    p.cols = 4;
    p.deps = good;
    p.n_deps = 2;
    p.row = noop_row;
    CHECK(pw_run(NULL, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "run NULL");
    CHECK(pw_run(&p, NULL, NULL) == PW_OK, "run ok");
    pw_dep illegal[][1] = {{{0, 0}}, {{0, -1}}, {{-1, 5}}, {{1, -PW_MAX_DEP_DISTANCE - 1}}};
    for (int k = 0; k < 4; k++) {
        p.deps = illegal[k];
        p.n_deps = 1;
        CHECK(pw_run(&p, NULL, NULL) == PW_ERR_ILLEGAL_DEPENDENCE, "illegal dep %d (%d,%d)", k,
              illegal[k][0].di, illegal[k][0].dj);
        /* the detail says which rule: the order (the first three) or the window (the last) */
        const char *why = k < 3 ? "not lexicographically positive" : "outside the window";
        CHECK(strstr(pw_error_detail(), why) != NULL, "illegal dep %d: detail '%s'", k, pw_error_detail());
    }
    p.deps = good;
    p.n_deps = 0;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "no deps");
    p.n_deps = PW_MAX_DEPS + 1;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "too many deps");
    p.n_deps = 2;
    p.deps = NULL;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "deps NULL");
    p.deps = good;
    p.rows = 0;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_INVALID_SIZE, "rows 0");
    p.rows = 4;
    p.row = NULL;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "row callback NULL");
    p.row = noop_row;
    p.storage = PW_STORAGE_LINEAR;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "linear without callbacks");
    p.storage = (pw_storage)5;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "unknown storage");
    p.storage = PW_STORAGE_FULL;
    p.rows = INT64_MAX;
    p.cols = INT64_MAX;
    CHECK(pw_run(&p, NULL, NULL) == PW_ERR_SIZE_OVERFLOW, "rows x cols overflow");
    int skew = 0;
    CHECK(pw_deps_skew(good, 2, NULL) == PW_ERR_NULL_ARGUMENT, "skew NULL out");
    CHECK(pw_deps_skew((pw_dep[]){{3, -7}}, 1, &skew) == PW_OK && skew == 3, "skew ceil(7/3) = 3");
}

static void check_strings(void)
{
    int distinct = 1;
    for (int a = 0; a < PW_STATUS_COUNT; a++)
        for (int b = a + 1; b < PW_STATUS_COUNT; b++)
            distinct &= strcmp(pw_status_str((pw_status)a), pw_status_str((pw_status)b)) != 0;
    CHECK(distinct, "every status has its own message");
    CHECK(pw_status_str((pw_status)999) != NULL, "unknown status has a message");
    CHECK(strcmp(pw_version(), "0.1.0") == 0, "version %s", pw_version());
    CHECK(pw_dtype_size(PW_F64) == 8 && pw_dtype_size((pw_dtype)99) == 0, "dtype sizes");
}

/* Fault injection: a tile-row that never publishes its progress.  The peer engine must end in
 * PW_ERR_TIMEOUT within the watchdog bound (plus scheduling slack), never hang; a stuck last
 * row (nobody waits on it) and the engines without counters still finish correctly. */
static void check_fault_injection(void)
{
    int64_t rows = 257, cols = 301;
    uint8_t *x = malloc((size_t)(rows * cols));
    int64_t *out = malloc(sizeof *out * (size_t)(rows * cols));
    for (int64_t k = 0; k < rows * cols; k++) x[k] = (uint8_t)(k * 7);
    pw_image in = {PW_U8, rows, cols, 0, x}, img = {PW_I64, rows, cols, 0, out};
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.tile_h = 8; /* 33 tile-rows */
    o.threads = 3;
    o.watchdog_ms = 300;
    setenv("PEERWAVE_DEBUG_STUCK_ROW", "5", 1);
    int64_t t0 = test_now_ns();
    pw_status st = pw_sat(&in, &img, &o, NULL);
    double waited = (double)(test_now_ns() - t0) / 1e9;
    CHECK(st == PW_ERR_TIMEOUT && waited < 0.3 + 5.0, "stuck row 5: %s after %.2f s", pw_status_str(st), waited);
    setenv("PEERWAVE_DEBUG_STUCK_ROW", "32", 1);
    CHECK(pw_sat(&in, &img, &o, NULL) == PW_OK && out[rows * cols - 1] == pw_test_sat_total(x, rows * cols),
          "a stuck last row delays nobody");
    setenv("PEERWAVE_DEBUG_STUCK_ROW", "5", 1);
    o.strategy = PW_STRATEGY_GLOBAL_BARRIER;
    CHECK(pw_sat(&in, &img, &o, NULL) == PW_OK && out[rows * cols - 1] == pw_test_sat_total(x, rows * cols),
          "the barrier engine has no counters to starve");
    unsetenv("PEERWAVE_DEBUG_STUCK_ROW");
    free(x);
    free(out);
}

/* Misuse a review probe found (2026-11-30): each was a crash, a hang or a silently wrong answer. */
static void check_probe_findings(void)
{
    pw_options cpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    /* a warping path's n + m past what an allocation can count (it wrapped to 8 bytes) */
    double a[4] = {0, 0, 0, 0};
    pw_warp_path wp;
    CHECK(pw_dtw_path_f64(a, INT64_C(1) << 61, a, 1, PW_DTW_ABSOLUTE, &cpu, &wp) == PW_ERR_SIZE_OVERFLOW, "dtw_path 2^61 rows");
    CHECK(pw_dtw_path_f64(a, INT64_C(1) << 62, a, INT64_C(1) << 62, PW_DTW_ABSOLUTE, &cpu, &wp) == PW_ERR_SIZE_OVERFLOW,
          "dtw_path 2^62 x 2^62");
    /* inthist ranges whose bin width or its inverse leaves double's range (looped, or binned nothing) */
    uint8_t px[4] = {0, 5, 100, 240};
    int32_t planes[4 * 4];
    pw_image img = {PW_U8, 2, 2, 0, px};
    CHECK(pw_inthist(&img, 4, 0, 5e-324, planes, &cpu, NULL) == PW_ERR_INVALID_ARGUMENT, "inthist width 5e-324 / 4");
    CHECK(pw_inthist(&img, 4, -1e308, 1e308, planes, &cpu, NULL) == PW_ERR_INVALID_ARGUMENT, "inthist [-1e308, 1e308)");
    CHECK(pw_inthist(&img, 4, -1e300, 1e300, planes, &cpu, NULL) == PW_OK, "inthist [-1e300, 1e300) runs");
    /* a summed-area table into its own input, shifted */
    int32_t buf[64];
    for (int k = 0; k < 64; k++) buf[k] = 1;
    pw_image in = {PW_I32, 4, 4, 0, buf}, out = {PW_I32, 4, 4, 0, buf + 8};
    CHECK(pw_sat(&in, &out, &cpu, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "overlap"), "sat overlap");
    /* pw_run's options: a backend of 99 ran, and a refused option names itself */
    pw_options odd = cpu;
    odd.backend = (pw_backend)99;
    pw_problem p = {0};
    p.rows = p.cols = 3;
    p.storage = PW_STORAGE_FULL;
    p.row = noop_row;
    CHECK(pw_run(&p, &odd, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "options.backend"),
          "pw_run backend 99: %s", pw_error_detail());
    /* accessors of a NULL cell */
    int n = -1;
    CHECK(pw_cell_value_size(NULL) == 0 && pw_cell_fields(NULL, &n) && n == 0 && pw_cell_reduced_field(NULL) == -1 &&
              !strcmp(pw_cell_compile_log(NULL), ""),
          "NULL cell accessors");
    /* a gather whose bytes overflow; a band of a distributed heat with a NaN */
    pw_comm *c[1];
    if (pw_comm_local(1, c) == PW_OK) {
        char one = 0, all[2];
        CHECK(pw_comm_allgather(c[0], &one, all, SIZE_MAX) == PW_ERR_SIZE_OVERFLOW, "allgather SIZE_MAX bytes");
        CHECK(pw_comm_allgather(c[0], NULL, NULL, 0) == PW_OK, "allgather of nothing");
        double g[25];
        for (int k = 0; k < 25; k++) g[k] = 1;
        g[7] = NAN;
        pw_image band = {PW_F64, 5, 5, 0, g};
        double res = 0;
        CHECK(pw_dist_heat(c[0], &band, 2, &cpu, &res, NULL) == PW_ERR_BAD_INPUT, "dist heat with a NaN");
        g[7] = 1;
        CHECK(pw_heat(&band, INT64_MAX, &cpu, &res, NULL) == PW_ERR_SIZE_OVERFLOW, "heat with INT64_MAX sweeps");
        pw_job job;
        pw_job_init(&job, PW_JOB_SW);
        job.kind = (pw_job_kind)99;
        CHECK(pw_dist_job_run(c[0], &job) == PW_ERR_INVALID_ARGUMENT, "a job of kind 99");
        pw_comm_free(c[0]);
    }
}

int main(void)
{
    check_options();
    check_probe_findings();
    check_sw();
    check_dtw();
    check_images();
    check_generic();
    check_strings();
    check_fault_injection();
    { /* the device-pointer API: argument checks as on the host; no GPU here (or no CUDA build) */
        uint8_t x[4] = {1, 2, 3, 4};
        int32_t y[4];
        pw_image in = {PW_U8, 2, 2, 0, x}, out = {PW_I32, 2, 2, 0, y}, bad = {PW_U8, 2, 3, 0, y};
        CHECK(pw_sat_device(NULL, &out, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "sat_device NULL");
        CHECK(pw_sat_device(&in, &bad, NULL, NULL) == PW_ERR_INVALID_SIZE, "sat_device shape mismatch");
        pw_options on_cpu;
        pw_options_init(&on_cpu);
        on_cpu.backend = PW_BACKEND_CPU;
        pw_status st = pw_sat_device(&in, &out, &on_cpu, NULL);
        CHECK(st == PW_ERR_INVALID_ARGUMENT || st == PW_ERR_UNSUPPORTED, "sat_device on the CPU backend: %s", pw_status_str(st));
        CHECK(pw_sor_device(&out, 1, 2.5, NULL, NULL, NULL) == PW_ERR_INVALID_ARGUMENT, "sor_device omega");
    }
    pw_options cpu;
    pw_options_init(&cpu);
    cpu.backend = PW_BACKEND_CPU;
    cpu.threads = 3;
    test_alloc_failures(&cpu, NULL);
    return test_finish();
}
