/*
 * test_cells.c - the runtime API on the example cells (examples/cells/), every engine against an
 * independent textbook loop written here (not our engines), over random awkward shapes; and the
 * API's refusals (bad declarations, illegal dependences, compile errors with their line,
 * parameters that do not fit, missing inputs).
 *
 *   test_cells            the CPU engines (sequential, peer, barrier; random tiles and threads)
 *   test_cells --gpu      the GPU engines (peer, barrier, per-diagonal launch), SKIP without one
 *   test_cells --nvrtc    every example cell compiled by NVRTC for each processor it can take
 *                         (sm_90, and compute_80 PTX): needs no GPU, so CI runs it
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_cell.h" /* pw_fmodf_by_quotient: the GPU's pw_fmodf, checked here on the CPU too */
#undef PW_FORM             /* a cell's declaration; kernel_desc.h's PW_FORM is a processor's bit */
#include "peerwave_runtime.h"
#include "test_util.h"
#include "../src/cuda/device/proc_shapes.h" /* the 3-D processor's default tiles (plain C) */
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
#include "../src/cuda/kernel_desc.h"
#include "../src/jit/cell_gpu.h"
#endif

static int use_gpu;

static char *slurp(const char *name)
{
    char path[1024];
    const char *tree = getenv("PW_SOURCE_DIR"); /* (a binary carried to another machine's checkout) */
    snprintf(path, sizeof path, "%s/examples/cells/%s", tree && *tree ? tree : PW_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) exit(1);
    s[n] = 0;
    fclose(f);
    return s;
}

static pw_cell *load(const char *name)
{
    char *text = slurp(name);
    pw_cell *c = NULL;
    pw_status st = pw_cell_create(text, name, &c);
    free(text);
    if (st != PW_OK) {
        fprintf(stderr, "%s: %s: %s\n", name, pw_status_str(st), pw_error_detail());
        exit(1);
    }
    return c;
}

/* An engine to run on: the GPU's four strategies, or a random CPU set-up. */
static void engine(pw_options *o, int64_t rows, int64_t cols, int k)
{
    if (!use_gpu) {
        if (k % 4 == 0) *o = test_sequential_options();
        else test_random_options(o, rows, cols);
        return;
    }
    pw_options_init(o);
    o->backend = PW_BACKEND_CUDA;
    static const pw_strategy all[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_LAUNCH, PW_STRATEGY_TASKS};
    o->strategy = all[k % 4];
    static const int h[] = {0, 32, 64, 128, 256};
    o->tile_h = h[test_rand() % 5];
    o->tile_w = test_rand() % 3 ? 0 : test_range(1, 300);
    if (o->strategy == PW_STRATEGY_PEER && test_rand() % 4 == 0) o->max_blocks = (int)test_range(1, 4); /* few blocks: tickets in order */
}

static void random_letters(uint8_t *s, int64_t n, int alphabet)
{
    for (int64_t k = 0; k < n; k++) s[k] = (uint8_t)('A' + test_rand() % (uint64_t)alphabet);
}

/* ---- textbook references ------------------------------------------------------------------- */

static int32_t ref_nw(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, int32_t ma, int32_t mi, int32_t gap)
{
    int32_t *prev = malloc(sizeof(int32_t) * (size_t)(m + 1)), *cur = malloc(sizeof(int32_t) * (size_t)(m + 1));
    for (int64_t j = 0; j <= m; j++) prev[j] = (int32_t)(-gap * j);
    for (int64_t i = 1; i <= n; i++) {
        cur[0] = (int32_t)(-gap * i);
        for (int64_t j = 1; j <= m; j++) {
            int32_t best = prev[j - 1] + (a[i - 1] == b[j - 1] ? ma : mi);
            if (prev[j] - gap > best) best = prev[j] - gap;
            if (cur[j - 1] - gap > best) best = cur[j - 1] - gap;
            cur[j] = best;
        }
        int32_t *t = prev;
        prev = cur;
        cur = t;
    }
    int32_t d = prev[m];
    free(prev);
    free(cur);
    return d;
}

/* The edit distance is the negated best global alignment with match 0, mismatch -1, gap 1. */
static int32_t ref_levenshtein(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m)
{
    return -ref_nw(a, n, b, m, 0, -1, 1);
}

static int32_t ref_lcs(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m)
{
    int32_t *prev = calloc((size_t)(m + 1), sizeof(int32_t)), *cur = calloc((size_t)(m + 1), sizeof(int32_t));
    for (int64_t i = 1; i <= n; i++) {
        for (int64_t j = 1; j <= m; j++)
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : (prev[j] > cur[j - 1] ? prev[j] : cur[j - 1]);
        int32_t *t = prev;
        prev = cur;
        cur = t;
    }
    int32_t d = prev[m];
    free(prev);
    free(cur);
    return d;
}

/* Gotoh, full matrices, the best H at the smallest i, then j (a score of 0 is at (0, 0), where
 * `peerwave sw` reports no alignment: the reduction is a plain maximum). */
static void ref_gotoh(const uint8_t *a, int64_t n, const uint8_t *b, int64_t m, int32_t ma, int32_t mi, int32_t go,
                      int32_t ge, int32_t *score, int64_t *bi, int64_t *bj)
{
    const int32_t ninf = -1073741824;
    size_t w = (size_t)m + 1;
    int32_t *H = calloc(w * (size_t)(n + 1), 4), *E = malloc(4 * w * (size_t)(n + 1)), *F = malloc(4 * w * (size_t)(n + 1));
    for (size_t k = 0; k < w * (size_t)(n + 1); k++) E[k] = F[k] = ninf;
    *score = INT32_MIN; /* the largest H over every cell, as PW_REDUCE(max, h) defines it */
    *bi = *bj = -1;
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++) {
            size_t at = (size_t)i * w + (size_t)j;
            int32_t e = E[at - 1] - ge, f = F[at - w] - ge;
            if (H[at - 1] - go > e) e = H[at - 1] - go;
            if (H[at - w] - go > f) f = H[at - w] - go;
            int32_t h = H[at - w - 1] + (a[i - 1] == b[j - 1] ? ma : mi);
            if (h < 0) h = 0;
            if (e > h) h = e;
            if (f > h) h = f;
            E[at] = e, F[at] = f, H[at] = h;
            if (h > *score) *score = h, *bi = i - 1, *bj = j - 1;
        }
    free(H);
    free(E);
    free(F);
}

/* Gauss-Seidel in row-major order, the additions in the cell's order. */
static void ref_heat(float *g, int64_t rows, int64_t cols, int64_t sweeps)
{
    const int64_t s = cols + 2;
    for (int64_t t = 0; t < sweeps; t++)
        for (int64_t i = 1; i <= rows; i++)
            for (int64_t j = 1; j <= cols; j++)
                g[i * s + j] = (((g[(i + 1) * s + j] + g[i * s + j + 1]) + g[i * s + j - 1]) + g[(i - 1) * s + j]) / 4.0f;
}

/* Seed 004's demonstrator (lu = 0) or the LU-like sweep (Listing 2, p: iterations, modulus, tc,
 * td, nc, nd, wc, wd, rc, rd) over a grid with a border of one, in lexicographic order. */
static void ref_3d(float *g, int64_t I, int64_t J, int64_t K, int64_t sweeps, int lu, const double *p)
{
    const int64_t sk = K + 2, sj = (J + 2) * sk;
#define AT(i, j, k) g[((i) + 1) * sj + ((j) + 1) * sk + (k) + 1]
    for (int64_t t = 0; t < sweeps; t++)
        for (int64_t i = 0; i < I; i++)
            for (int64_t j = 0; j < J; j++)
                for (int64_t k = 0; k < K; k++) {
                    float result = AT(i, j, k), top = AT(i, j, k - 1), north = AT(i, j - 1, k), west = AT(i - 1, j, k);
                    if (!lu) {
                        AT(i, j, k) = fmodf(result + top + north + west, (float)p[0]);
                        continue;
                    }
                    for (int n = 0; n < (int)p[0]; n++) {
                        result = fmodf(result + top + north + west, (float)p[1]);
                        top = (float)p[2] * top + (float)p[3];
                        north = (float)p[4] * north + (float)p[5];
                        west = (float)p[6] * west + (float)p[7];
                        result = (float)p[8] * result + (float)p[9];
                    }
                    AT(i, j, k) = result;
                }
#undef AT
}

/* ---- pw_fmodf and pw_fmod: the GPU's quotient route gives fmodf's bits ------------------------- */

static uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static uint64_t double_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

/* Operands that reach every branch of the quotient route: remainders near 0 and near |y| (x one
 * ulp off a multiple of y, where the estimated quotient is one off), quotients around the route's
 * limit (2^20, 2^49), signed zeros, subnormals, infinities, NaNs and raw bit patterns. */
static void fmod_operands(float *x, float *y, double *xd, double *yd, size_t n)
{
    static const float special[] = {0.0f, -0.0f, 1.4e-45f, -1.4e-45f, 1.1754942e-38f, 3.4028235e38f, -3.4028235e38f,
                                    INFINITY, -INFINITY, NAN, 7.0f, -7.0f, 0.1f, 1.0f, 1048575.0f, 1048576.0f};
    const int n_special = (int)(sizeof special / sizeof *special);
    for (size_t q = 0; q < n; q++) {
        const int kind = (int)(test_rand() % 6);
        float a, b;
        double ad, bd;
        if (kind == 0) { /* the demonstrator's operands: sums of four values below the modulus */
            b = (float)(test_unit() * 100 + 0.5);
            a = (float)(test_unit() * 4) * b;
            bd = test_unit() * 100 + 0.5;
            ad = test_unit() * 4 * bd;
        } else if (kind == 1) { /* a multiple of y: exact (y of few bits, k small), or one ulp off */
            const int off = (int)(test_rand() % 3);
            if (off) {
                b = (float)(test_unit() * 1000 + 1e-3);
                a = nextafterf((float)test_range(0, 1 << 21) * b, off == 1 ? INFINITY : 0.0f);
                bd = test_unit() * 1000 + 1e-3;
                ad = nextafter((double)test_range(0, 1 << 30) * (double)test_range(0, 1 << 20) * bd, off == 1 ? INFINITY : 0.0);
            } else { /* k y with k below 16 and y of 20 (45) bits: exactly representable */
                b = ldexpf((float)test_range(1, 1 << 20), -(int)test_range(0, 40));
                a = (float)test_range(0, 15) * b;
                bd = ldexp((double)test_range(1, (int64_t)1 << 45), -(int)test_range(0, 80));
                ad = (double)test_range(0, 15) * bd;
            }
        } else if (kind == 2) { /* special values */
            a = special[test_rand() % n_special];
            b = special[test_rand() % n_special];
            ad = a;
            bd = b;
        } else if (kind == 3) { /* raw bit patterns: every exponent */
            const uint32_t u = (uint32_t)test_rand(), v = (uint32_t)test_rand();
            memcpy(&a, &u, 4);
            memcpy(&b, &v, 4);
            const uint64_t ud = test_rand(), vd = test_rand();
            memcpy(&ad, &ud, 8);
            memcpy(&bd, &vd, 8);
        } else { /* quotients from below 1 to about 2^23 (2^52), and subnormal operands */
            b = (float)(test_unit() * 10 + 1e-6) * (kind == 4 ? 1.0f : 1e-39f);
            a = (float)(test_unit() * (double)(1 << test_range(0, 23))) * b;
            bd = (test_unit() * 10 + 1e-6) * (kind == 4 ? 1.0 : 1e-310);
            ad = test_unit() * (double)((int64_t)1 << test_range(0, 52)) * bd;
        }
        if (test_rand() % 2) a = -a, ad = -ad;
        if (test_rand() % 2) b = -b, bd = -bd;
        x[q] = a;
        y[q] = b;
        xd[q] = ad;
        yd[q] = bd;
    }
}

/* the same bits, or both NaN (NaN payloads may differ between C libraries) */
static int same_float(float a, float b) { return float_bits(a) == float_bits(b) || (isnan(a) && isnan(b)); }
static int same_double(double a, double b) { return double_bits(a) == double_bits(b) || (isnan(a) && isnan(b)); }

static void test_fmod_by_quotient(void)
{
    const size_t n = 4000000;
    float *x = malloc(4 * n), *y = malloc(4 * n);
    double *xd = malloc(8 * n), *yd = malloc(8 * n);
    fmod_operands(x, y, xd, yd, n);
    size_t bad = 0, bad_d = 0, first = n, first_d = n;
    for (size_t q = 0; q < n; q++) {
        if (!same_float(pw_fmodf_by_quotient(x[q], y[q]), fmodf(x[q], y[q])) && bad++ == 0) first = q;
        if (!same_double(pw_fmod_by_quotient(xd[q], yd[q]), fmod(xd[q], yd[q])) && bad_d++ == 0) first_d = q;
    }
    CHECK(bad == 0, "pw_fmodf_by_quotient differs from fmodf %zu times, first fmodf(%a, %a)", bad, first < n ? x[first] : 0.0f,
          first < n ? y[first] : 0.0f);
    CHECK(bad_d == 0, "pw_fmod_by_quotient differs from fmod %zu times, first fmod(%a, %a)", bad_d, first_d < n ? xd[first_d] : 0.0,
          first_d < n ? yd[first_d] : 0.0);
    free(x);
    free(y);
    free(xd);
    free(yd);
}

/* pw_fmodf and pw_fmod in a cell against the C library's fmodf and fmod, element by element: a
 * grid cell that overwrites each point with the remainder of its two inputs.  It tests the
 * quotient route under --gpu (compiled by NVRTC; each of the four strategies); on the CPU, where
 * pw_fmodf is fmodf, the cell's path (inputs, grid) on the engines test_random_options picks. */
static void test_fmod_cell(void)
{
    static const char *texts[2] = {
        "PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 0)\nPW_HALO(1)\nPW_INPUT(float, x, ij)\nPW_INPUT(float, y, ij)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return pw_fmodf(c->x[i * c->cols + j], c->y[i * c->cols + j]); }\n",
        "PW_FORM(grid)\nPW_VALUE(double)\nPW_DEP(1, 0)\nPW_HALO(1)\nPW_INPUT(double, x, ij)\nPW_INPUT(double, y, ij)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return pw_fmod(c->x[i * c->cols + j], c->y[i * c->cols + j]); }\n"};
    const int64_t rows = use_gpu ? 1000 : 200, cols = use_gpu ? 1000 : 100;
    const size_t n = (size_t)(rows * cols), cells = (size_t)(rows + 2) * (size_t)(cols + 2);
    float *x = malloc(4 * n), *y = malloc(4 * n);
    double *xd = malloc(8 * n), *yd = malloc(8 * n), *g = calloc(cells, 8);
    fmod_operands(x, y, xd, yd, n);
    for (int r = 0; r < 8; r++) {
        const int t = r % 2; /* float, double; engine r / 2 */
        pw_cell *cell = NULL;
        CHECK(pw_cell_create(texts[t], t ? "fmod.c" : "fmodf.c", &cell) == PW_OK, "fmod cell: %s", pw_error_detail());
        const void *in[2] = {t ? (const void *)xd : (const void *)x, t ? (const void *)yd : (const void *)y};
        pw_cell_args args = {.rows = rows, .cols = cols, .inputs = in, .grid = g};
        pw_options o;
        engine(&o, rows, cols, r / 2);
        pw_status st = cell ? pw_cell_run(cell, &args, &o, NULL) : PW_ERR_INVALID_ARGUMENT;
        size_t bad = 0, first = n;
        for (size_t q = 0; st == PW_OK && q < n; q++) {
            const size_t at = (q / (size_t)cols + 1) * (size_t)(cols + 2) + q % (size_t)cols + 1;
            const int same = t ? same_double(g[at], fmod(xd[q], yd[q])) : same_float(((float *)g)[at], fmodf(x[q], y[q]));
            if (!same && bad++ == 0) first = q;
        }
        CHECK(st == PW_OK && bad == 0, "%s cell %s: %s, %zu of %zu differ from the C library, first (%a, %a)",
              t ? "pw_fmod" : "pw_fmodf", test_describe(&o), pw_status_str(st), bad, n,
              first < n ? (t ? xd[first] : (double)x[first]) : 0.0, first < n ? (t ? yd[first] : (double)y[first]) : 0.0);
        pw_cell_free(cell);
    }
    free(x);
    free(y);
    free(xd);
    free(yd);
    free(g);
}

/* ---- row and column inputs of every type ------------------------------------------------------
 * A linear cell reading inputs of all nine types, the narrow ones along both axes (on the GPU's
 * warp processor a row's inputs are held with its index and a column's are passed lane to lane,
 * the narrow ones widened to 32-bit words: user_cells.cu), against a textbook loop: its last
 * row and column, bit for bit (int64 arithmetic).  Three inputs take the names of types the GPU
 * glue once generated (Row, Col, Staged). */
static int64_t types_cell(int64_t up, int64_t left, int64_t diag, int8_t ai, int16_t bi, uint32_t ci, float di,
                          uint8_t ej, uint16_t fj, int64_t gj, double hj, int32_t kj)
{
    int64_t m = up > left ? up : left;
    m = diag > m ? diag : m;
    return (m % 1000003) + (ai - ej) + (bi ^ fj) + (int64_t)(ci % 7u) + gj % 11 + (int64_t)di + (int64_t)hj + kj % 5;
}

static const char types_cell_text[] =
        "PW_FORM(linear)\nPW_VALUE(int64_t)\n"
        "PW_INPUT(int8_t, Row, i)\nPW_INPUT(int16_t, bi, i)\nPW_INPUT(uint32_t, ci, i)\nPW_INPUT(float, di, i)\n"
        "PW_INPUT(uint8_t, Col, j)\nPW_INPUT(uint16_t, fj, j)\nPW_INPUT(int64_t, gj, j)\nPW_INPUT(double, Staged, j)\n"
        "PW_INPUT(int32_t, kj, j)\n"
        "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { (void)c; return 3 * i - 2 * j; }\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)\n"
        "{\n    pw_value m = up > left ? up : left;\n    m = diag > m ? diag : m;\n"
        "    return (m % 1000003) + (c->Row[i] - c->Col[j]) + (c->bi[i] ^ c->fj[j]) + (int64_t)(c->ci[i] % 7u) + c->gj[j] % 11 +\n"
        "           (int64_t)c->di[i] + (int64_t)c->Staged[j] + c->kj[j] % 5;\n}\n";

static void test_input_types(int rounds)
{
    pw_cell *cell = NULL;
    CHECK(pw_cell_create(types_cell_text, "types.c", &cell) == PW_OK, "types cell: %s", pw_error_detail());
    if (!cell) return;
    for (int r = 0; r < rounds; r++) {
        const int64_t n = r % 5 == 0 ? 1 : test_range(1, use_gpu ? 700 : 90), m = r % 7 == 1 ? 1 : test_range(1, use_gpu ? 900 : 90);
        int8_t *ai = malloc((size_t)n);
        int16_t *bi = malloc(2 * (size_t)n);
        uint32_t *ci = malloc(4 * (size_t)n);
        float *di = malloc(4 * (size_t)n);
        uint8_t *ej = malloc((size_t)m);
        uint16_t *fj = malloc(2 * (size_t)m);
        int64_t *gj = malloc(8 * (size_t)m), *last_row = malloc(8 * (size_t)m), *last_col = malloc(8 * (size_t)n);
        double *hj = malloc(8 * (size_t)m);
        int32_t *kj = malloc(4 * (size_t)m);
        for (int64_t i = 0; i < n; i++) {
            ai[i] = (int8_t)(test_rand() & 0xff), bi[i] = (int16_t)(test_rand() & 0xffff), ci[i] = (uint32_t)test_rand();
            di[i] = (float)test_range(-1000, 1000) / 8;
        }
        for (int64_t j = 0; j < m; j++) {
            ej[j] = (uint8_t)test_rand(), fj[j] = (uint16_t)test_rand(), gj[j] = test_range(-(1LL << 40), 1LL << 40);
            hj[j] = (double)test_range(-100000, 100000) / 16, kj[j] = (int32_t)test_range(INT32_MIN, INT32_MAX);
        }
        /* the textbook loop, a row at a time */
        int64_t *prev = malloc(8 * (size_t)(m + 1)), *cur = malloc(8 * (size_t)(m + 1));
        for (int64_t j = 0; j <= m; j++) prev[j] = 3 * -1 - 2 * (j - 1); /* row -1: boundary (-1, j - 1) */
        for (int64_t i = 0; i < n; i++) {
            cur[0] = 3 * i - 2 * -1; /* column -1 */
            for (int64_t j = 0; j < m; j++)
                cur[j + 1] = types_cell(prev[j + 1], cur[j], prev[j], ai[i], bi[i], ci[i], di[i], ej[j], fj[j], gj[j], hj[j], kj[j]);
            last_col[i] = cur[m];
            int64_t *t = prev;
            prev = cur, cur = t;
        }
        const void *in[9] = {ai, bi, ci, di, ej, fj, gj, hj, kj};
        int64_t *got_row = calloc((size_t)m, 8), *got_col = calloc((size_t)n, 8);
        pw_cell_args args = {.rows = n, .cols = m, .inputs = in, .last_row = got_row, .last_col = got_col};
        pw_options o;
        engine(&o, n, m, r);
        pw_cell_result res;
        const pw_status st = pw_cell_run(cell, &args, &o, &res);
        memcpy(last_row, prev + 1, 8 * (size_t)m);
        int64_t last = 0;
        memcpy(&last, res.last, 8);
        CHECK(st == PW_OK && !memcmp(got_row, last_row, 8 * (size_t)m) && !memcmp(got_col, last_col, 8 * (size_t)n) &&
                  last == last_row[m - 1],
              "inputs of every type %" PRId64 "x%" PRId64 " %s: %s", n, m, test_describe(&o), pw_status_str(st));
        free(prev), free(cur), free(got_row), free(got_col);
        free(ai), free(bi), free(ci), free(di), free(ej), free(fj), free(gj), free(hj), free(kj), free(last_row), free(last_col);
    }
    pw_cell_free(cell);
}

/* ---- one cell, several threads ------------------------------------------------------------------ */

/* pw_cell_run locks its cell: threads sharing one fresh cell (its first runs compile and load it)
 * all get the textbook answers.  Inputs made and answers checked on this thread.  Without the
 * lock the answers still come out right on the CPU, but ThreadSanitizer reports the races on the
 * cell's lazily built state (three on 2026-11-28; none with it): build with -fsanitize=thread to
 * see them. */
typedef struct shared_run {
    pw_cell *cell;
    int use_gpu;
    uint8_t *a[3], *b[3];
    int64_t n[3], m[3];
    int32_t got[3];
    pw_status st[3];
} shared_run;

static void *run_shared(void *p)
{
    shared_run *r = p;
    for (int k = 0; k < 3; k++) {
        const void *inputs[] = {r->a[k], r->b[k]};
        pw_cell_args args = {.rows = r->n[k], .cols = r->m[k], .inputs = inputs};
        pw_options o;
        pw_options_init(&o);
        o.backend = r->use_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        o.threads = 2;
        pw_cell_result res;
        r->st[k] = pw_cell_run(r->cell, &args, &o, &res);
        memcpy(&r->got[k], res.last, 4);
    }
    return NULL;
}

static void test_shared_cell(void)
{
    enum { THREADS = 4 };
    pw_cell *lev = load("levenshtein.c");
    shared_run runs[THREADS];
    pthread_t tid[THREADS];
    for (int t = 0; t < THREADS; t++) {
        runs[t].cell = lev;
        runs[t].use_gpu = use_gpu;
        for (int k = 0; k < 3; k++) {
            runs[t].n[k] = test_range(1, 400);
            runs[t].m[k] = test_range(1, 400);
            runs[t].a[k] = malloc((size_t)runs[t].n[k]);
            runs[t].b[k] = malloc((size_t)runs[t].m[k]);
            random_letters(runs[t].a[k], runs[t].n[k], 4);
            random_letters(runs[t].b[k], runs[t].m[k], 4);
        }
    }
    int started = 0;
    for (; started < THREADS; started++)
        if (pthread_create(&tid[started], NULL, run_shared, &runs[started]) != 0) break;
    CHECK(started == THREADS, "started %d of %d threads", started, THREADS);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
    for (int t = 0; t < started; t++)
        for (int k = 0; k < 3; k++) {
            const int32_t want = ref_levenshtein(runs[t].a[k], runs[t].n[k], runs[t].b[k], runs[t].m[k]);
            CHECK(runs[t].st[k] == PW_OK && runs[t].got[k] == want, "shared cell, thread %d run %d (%lldx%lld): %s %d vs %d",
                  t, k, (long long)runs[t].n[k], (long long)runs[t].m[k], pw_status_str(runs[t].st[k]), runs[t].got[k],
                  want);
        }
    for (int t = 0; t < THREADS; t++)
        for (int k = 0; k < 3; k++) free(runs[t].a[k]), free(runs[t].b[k]);
    pw_cell_free(lev);
}

/* ---- the example cells ----------------------------------------------------------------------- */

static void test_linear_examples(int rounds)
{
    pw_cell *lev = load("levenshtein.c"), *nw = load("needleman_wunsch.c"), *lcs = load("lcs.c"), *sw = load("sw_gotoh.c");
    for (int k = 0; k < rounds; k++) {
        int64_t n, m;
        test_shape(use_gpu ? 3000 : 700, use_gpu ? 4000000 : 120000, &n, &m);
        uint8_t *a = malloc((size_t)n), *b = malloc((size_t)m);
        int alphabet = (int)test_range(2, 20);
        random_letters(a, n, alphabet);
        random_letters(b, m, alphabet);
        if (test_rand() % 3 == 0) memcpy(b, a, (size_t)(n < m ? n : m)); /* long matches too */
        const void *inputs[] = {a, b};
        pw_cell_args args = {.rows = n, .cols = m, .inputs = inputs};
        pw_options o;
        pw_cell_result r;
        int32_t got;

        engine(&o, n, m, k);
        pw_status st = pw_cell_run(lev, &args, &o, &r);
        memcpy(&got, r.last, 4);
        CHECK(st == PW_OK && got == ref_levenshtein(a, n, b, m), "levenshtein %lldx%lld %s: %s %d vs %d", (long long)n,
              (long long)m, test_describe(&o), pw_status_str(st), got, ref_levenshtein(a, n, b, m));

        double nwp[] = {(double)test_range(1, 5), (double)-test_range(0, 5), (double)test_range(1, 6)};
        args.params = nwp;
        engine(&o, n, m, k + 1);
        st = pw_cell_run(nw, &args, &o, &r);
        memcpy(&got, r.last, 4);
        int32_t want = ref_nw(a, n, b, m, (int32_t)nwp[0], (int32_t)nwp[1], (int32_t)nwp[2]);
        CHECK(st == PW_OK && got == want, "nw %lldx%lld %s: %s %d vs %d", (long long)n, (long long)m, test_describe(&o),
              pw_status_str(st), got, want);

        args.params = NULL;
        engine(&o, n, m, k + 2);
        st = pw_cell_run(lcs, &args, &o, &r);
        memcpy(&got, r.last, 4);
        CHECK(st == PW_OK && got == ref_lcs(a, n, b, m), "lcs %lldx%lld %s: %s", (long long)n, (long long)m,
              test_describe(&o), pw_status_str(st));

        int32_t go = (int32_t)test_range(1, 8), ge = (int32_t)test_range(1, go);
        double swp[] = {(double)test_range(1, 4), (double)-test_range(1, 5), go, ge};
        int32_t score;
        int64_t bi, bj;
        ref_gotoh(a, n, b, m, (int32_t)swp[0], (int32_t)swp[1], go, ge, &score, &bi, &bj);
        args.params = swp;
        int32_t *last_row = malloc(sizeof(int32_t) * 3 * (size_t)m);
        args.last_row = last_row;
        engine(&o, n, m, k + 3);
        st = pw_cell_run(sw, &args, &o, &r);
        int32_t best_h;
        memcpy(&best_h, r.best, 4);
        CHECK(st == PW_OK && best_h == score && r.best_i == bi && r.best_j == bj,
              "sw_gotoh %lldx%lld %s: %s score %d at (%lld,%lld) vs %d at (%lld,%lld)", (long long)n, (long long)m,
              test_describe(&o), pw_status_str(st), best_h, (long long)r.best_i, (long long)r.best_j, score,
              (long long)bi, (long long)bj);
        CHECK(st != PW_OK || !memcmp(r.last, last_row + 3 * (m - 1), 12), "last cell = last_row's end");
        free(last_row);
        free(a);
        free(b);
    }
    pw_cell_free(lev);
    pw_cell_free(nw);
    pw_cell_free(lcs);
    pw_cell_free(sw);
}

static void test_heat_example(const char *file, int rounds)
{
    pw_cell *heat = load(file);
    for (int k = 0; k < rounds; k++) {
        int64_t n, m;
        test_shape(use_gpu ? 1500 : 400, use_gpu ? 1000000 : 60000, &n, &m);
        int64_t sweeps = test_range(1, 5);
        size_t cells = (size_t)(n + 2) * (size_t)(m + 2);
        float *g = malloc(4 * cells), *want = malloc(4 * cells);
        for (size_t q = 0; q < cells; q++) g[q] = want[q] = (float)(test_unit() * 100);
        ref_heat(want, n, m, sweeps);
        pw_cell_args args = {.rows = n, .cols = m, .grid = g, .sweeps = sweeps};
        pw_options o;
        engine(&o, n, m, k);
        pw_status st = pw_cell_run(heat, &args, &o, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 4 * cells), "%s %lldx%lld x%lld %s: %s", file, (long long)n, (long long)m,
              (long long)sweeps, test_describe(&o), pw_status_str(st));
        free(g);
        free(want);
    }
    pw_cell_free(heat);
}

/* The largest tile-row a traced CPU run reported: tickets are sweep-major (sweep x tile-rows + r),
 * so all of a run's sweeps in one run of the engine -- pipelined -- reach sweeps x tile-rows - 1. */
static void note_tile_row(void *user, const pw_trace_record *r)
{
    int64_t *most = user;
    if (r->tile_row > *most) *most = r->tile_row;
}

/* Is a CPU run with these options one whose sweeps the engine pipelines?  (the sequential strategy
 * runs them one after another) */
static int cpu_pipelines(const pw_options *o) { return !use_gpu && o->strategy != PW_STRATEGY_SEQUENTIAL; }

/* 2-D grid cells whose sweeps read further than HEAT's neighbours, pipelined on the CPU engines
 * (each sweep's tiles wait for what they read of the previous sweep: tiling_geometry.h), against
 * Gauss-Seidel loops in row-major order: a two-wide cross (halo 2, (1,0) (0,1) (2,0) (0,2)), a
 * skewed one (reads (i-1, j+1) new and (i+1, j-1) old: (1,-1), skew 1), a diagonal one ((1,1),
 * (1,0), (0,1)), and one that reads old values two down and right within its halo 2 without
 * declaring them (the dependences order them within a sweep; the halo corner across sweeps).  Where the CPU pipelines, a trace shows every sweep in one run of the engine. */
static void test_grid_reach(int rounds)
{
    static const char *texts[] = {
        "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_DEP(2, 0)\nPW_DEP(0, 2)\nPW_HALO(2)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return (pw_at(c, i - 1, j) * 3 + pw_at(c, i, j - 1) * 5 + pw_at(c, i - 2, j) * 7 + pw_at(c, i, j - 2) * 11\n"
        "          + pw_at(c, i, j) + pw_at(c, i + 1, j) * 13 + pw_at(c, i, j + 1) * 17 + pw_at(c, i + 2, j) * 19\n"
        "          + pw_at(c, i, j + 2) * 23) % 1000000007; }\n",
        "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, -1)\nPW_DEP(0, 1)\nPW_HALO(1)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return (pw_at(c, i - 1, j + 1) * 3 + pw_at(c, i, j - 1) * 5 + pw_at(c, i, j) + pw_at(c, i + 1, j - 1) * 7\n"
        "          + pw_at(c, i, j + 1) * 11) % 1000000007; }\n",
        "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 1)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_HALO(1)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return (pw_at(c, i - 1, j - 1) * 3 + pw_at(c, i - 1, j) * 5 + pw_at(c, i, j - 1) * 7 + pw_at(c, i, j)\n"
        "          + pw_at(c, i + 1, j + 1) * 11 + pw_at(c, i + 1, j) * 13 + pw_at(c, i, j + 1) * 17) % 1000000007; }\n",
        "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_HALO(2)\n" /* (undeclared reads downwind in the halo) */
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ return (pw_at(c, i - 1, j) * 3 + pw_at(c, i, j - 1) * 5 + pw_at(c, i, j) + pw_at(c, i + 2, j) * 7\n"
        "          + pw_at(c, i + 2, j + 2) * 11 + pw_at(c, i + 1, j + 2) * 13 + pw_at(c, i, j + 2) * 17) % 1000000007; }\n"};
    /* the reads of each, (di, dj, weight), the cell's own first */
    static const int reads[4][9][3] = {
        {{0, 0, 1}, {-1, 0, 3}, {0, -1, 5}, {-2, 0, 7}, {0, -2, 11}, {1, 0, 13}, {0, 1, 17}, {2, 0, 19}, {0, 2, 23}},
        {{0, 0, 1}, {-1, 1, 3}, {0, -1, 5}, {1, -1, 7}, {0, 1, 11}},
        {{0, 0, 1}, {-1, -1, 3}, {-1, 0, 5}, {0, -1, 7}, {1, 1, 11}, {1, 0, 13}, {0, 1, 17}},
        {{0, 0, 1}, {-1, 0, 3}, {0, -1, 5}, {2, 0, 7}, {2, 2, 11}, {1, 2, 13}, {0, 2, 17}}};
    static const int n_reads[4] = {9, 5, 7, 7}, halos[4] = {2, 1, 1, 2};
    for (int v = 0; v < 4; v++) {
        pw_cell *cell = NULL;
        CHECK(pw_cell_create(texts[v], "reach2.c", &cell) == PW_OK, "reach2 %d: %s", v, pw_error_detail());
        for (int r = 0; r < rounds && cell; r++) {
            const int H = halos[v];
            int64_t n, m;
            test_shape(use_gpu ? 600 : 120, use_gpu ? 200000 : 12000, &n, &m);
            const int64_t sweeps = test_range(2, 6), s = m + 2 * H;
            const size_t cells = (size_t)(n + 2 * H) * (size_t)s;
            int64_t *g = malloc(8 * cells), *want = malloc(8 * cells);
            for (size_t q = 0; q < cells; q++) g[q] = want[q] = test_range(0, 1000000);
            for (int64_t t = 0; t < sweeps; t++)
                for (int64_t i = H; i < n + H; i++)
                    for (int64_t j = H; j < m + H; j++) {
                        int64_t sum = 0;
                        for (int k = 0; k < n_reads[v]; k++)
                            sum += want[(i + reads[v][k][0]) * s + j + reads[v][k][1]] * reads[v][k][2];
                        want[i * s + j] = sum % 1000000007;
                    }
            pw_cell_args args = {.rows = n, .cols = m, .grid = g, .sweeps = sweeps};
            pw_options o;
            engine(&o, n, m, r);
            if (!use_gpu && r % 3 == 2) { /* one thread on the barrier schedule runs a step's later sweeps
                                           * first: a tile a sweep too early is then wrong for sure */
                o.strategy = PW_STRATEGY_GLOBAL_BARRIER, o.threads = 1;
                o.tile_h = (int)test_range(1, 3), o.tile_w = test_range(1, 8);
            }
            int64_t most = -1;
            if (cpu_pipelines(&o)) o.trace = note_tile_row, o.trace_user = &most;
            pw_cell_result res;
            pw_status st = pw_cell_run(cell, &args, &o, &res);
            CHECK(st == PW_OK && !memcmp(g, want, 8 * cells), "reach2 %d %lldx%lld x%lld %s: %s %s", v, (long long)n,
                  (long long)m, (long long)sweeps, test_describe(&o), pw_status_str(st), pw_error_detail());
            if (st == PW_OK && cpu_pipelines(&o)) {
                const int64_t tile_rows = (n + res.info.tile_h - 1) / res.info.tile_h;
                CHECK(most == sweeps * tile_rows - 1, "reach2 %d %lldx%lld x%lld %s: sweeps not pipelined (last tile-row %lld of %lld)",
                      v, (long long)n, (long long)m, (long long)sweeps, test_describe(&o), (long long)most,
                      (long long)(sweeps * tile_rows));
            }
            free(g);
            free(want);
        }
        pw_cell_free(cell);
    }
}

/* The previous sweep's rows further down than the next tile-row: a cell reading (i + 3, j) old
 * (PW_DEP(3, 0)) on tile-rows of one or two rows, more workers than tile-rows, and rows i with
 * i & 4 slow (a loop of `spin` steps), so that a later sweep's fast tile-row would overtake the
 * previous sweep's slow rows three below it if it waited only on the next one.  The peer, tasks
 * and barrier engines (CPU threads, or GPU blocks on FullProc), against row-major loops. */
static void test_grid_deep(int rounds)
{
    static const char text[] =
        "PW_FORM(grid)\nPW_VALUE(int64_t)\nPW_DEP(1, 0)\nPW_DEP(0, 1)\nPW_DEP(3, 0)\nPW_HALO(3)\nPW_PARAM(int64_t, spin)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j)\n"
        "{ int64_t acc = 0;\n"
        "  for (int64_t q = 0; q < ((i & 4) ? c->spin : 0); q++) acc = (acc * 31 + q) % 1000003;\n"
        "  return (pw_at(c, i - 1, j) * 3 + pw_at(c, i, j - 1) * 5 + pw_at(c, i - 3, j) * 7 + pw_at(c, i, j)\n"
        "          + pw_at(c, i + 1, j) * 11 + pw_at(c, i, j + 1) * 13 + pw_at(c, i + 3, j) * 17 + acc) % 1000000007; }\n";
    pw_cell *cell = NULL;
    CHECK(pw_cell_create(text, "deep2.c", &cell) == PW_OK, "deep2: %s", pw_error_detail());
    const int64_t spin = 2000;
    int64_t acc = 0;
    for (int64_t q = 0; q < spin; q++) acc = (acc * 31 + q) % 1000003;
    for (int r = 0; r < rounds && cell; r++) {
        const int64_t n = test_range(6, 16), m = test_range(20, 120), sweeps = test_range(3, 6), s = m + 6;
        const size_t cells = (size_t)(n + 6) * (size_t)s;
        int64_t *g = malloc(8 * cells), *want = malloc(8 * cells);
        for (size_t q = 0; q < cells; q++) g[q] = want[q] = test_range(0, 1000000);
        for (int64_t t = 0; t < sweeps; t++)
            for (int64_t i = 3; i < n + 3; i++)
                for (int64_t j = 3; j < m + 3; j++) {
                    int64_t *p = want + i * s + j;
                    *p = (p[-s] * 3 + p[-1] * 5 + p[-3 * s] * 7 + p[0] + p[s] * 11 + p[1] * 13 + p[3 * s] * 17 +
                          (((i - 3) & 4) ? acc : 0)) % 1000000007;
                }
        const double params[] = {(double)spin};
        pw_cell_args args = {.rows = n, .cols = m, .grid = g, .sweeps = sweeps, .params = params};
        pw_options o;
        pw_options_init(&o);
        o.backend = use_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        o.strategy = r % 3 == 2 ? PW_STRATEGY_GLOBAL_BARRIER : r % 3 ? PW_STRATEGY_TASKS : PW_STRATEGY_PEER;
        o.threads = 8;
        o.tile_h = (int)test_range(1, 2);
        o.tile_w = test_range(4, 40);
        pw_status st = pw_cell_run(cell, &args, &o, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 8 * cells), "deep2 %lldx%lld x%lld %s: %s %s", (long long)n, (long long)m,
              (long long)sweeps, test_describe(&o), pw_status_str(st), pw_error_detail());
        free(g);
        free(want);
    }
    pw_cell_free(cell);
}

static int64_t max_3d; /* 0: the usual sizes (below); larger for the 3-D processor's tall tiles */

static void test_3d_example(const char *file, int lu, int rounds)
{
    pw_cell *cell = load(file);
    for (int k = 0; k < rounds; k++) {
        const int64_t max = max_3d ? max_3d : use_gpu ? 90 : 40;
        int64_t I = test_range(1, max), J = test_range(1, max), K = test_range(1, max), sweeps = test_range(1, use_gpu ? 6 : 3);
        if (test_rand() % 4 == 0) J = 1; /* thin shapes */
        if (test_rand() % 4 == 0) K = 1;
        size_t cells = (size_t)(I + 2) * (size_t)(J + 2) * (size_t)(K + 2);
        float *g = malloc(4 * cells), *want = malloc(4 * cells);
        for (size_t q = 0; q < cells; q++) g[q] = want[q] = (float)(test_unit() * 10);
        double demo[] = {7.5 + (double)test_range(0, 20)};
        double lup[] = {(double)test_range(1, 10), 50, 0.5, 1, 0.25, 2, 0.75, 3, 0.5, 1};
        ref_3d(want, I, J, K, sweeps, lu, lu ? lup : demo);
        pw_cell_args args = {.rows = I, .cols = J, .planes = K, .grid = g, .sweeps = sweeps, .params = lu ? lup : demo};
        pw_options o;
        engine(&o, I, J * K, k);
        pw_status st = pw_cell_run(cell, &args, &o, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 4 * cells), "%s %lldx%lldx%lld x%lld %s: %s %s", file, (long long)I,
              (long long)J, (long long)K, (long long)sweeps, test_describe(&o), pw_status_str(st), pw_error_detail());
        free(g);
        free(want);
    }
    pw_cell_free(cell);
}

/* An environment switch set for a while, and put back as the caller had it. */
typedef struct saved_env {
    const char *name;
    char *value; /* NULL: unset */
} saved_env;
static saved_env env_set(const char *name, const char *value)
{
    const char *old = getenv(name);
    saved_env e = {name, old ? strdup(old) : NULL};
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    return e;
}
static void env_restore(saved_env e)
{
    if (e.value) setenv(e.name, e.value, 1);
    else unsetenv(e.name);
    free(e.value);
}

/* The 3-D processor's sweeps pipelined in one launch (warp3_proc.cuh): the same grid as the
 * reference with and without PEERWAVE_PIPELINE_SWEEPS=0, and as many blocks as one launch has
 * tickets (the face's tiles times the sweeps) against the face's tiles for a sweep a launch.
 * GPU only (the CPU runs grid3 sweeps one after another); the default 3-D layout and tiles. */
static void test_3d_pipelined(void)
{
    pw_cell *cell = load("demonstrator3d.c");
    const saved_env layout = env_set("PEERWAVE_3D", NULL), tile = env_set("PEERWAVE_3D_TILE", NULL);
    static const int64_t shapes[][4] = {{40, 70, 50, 4}, {97, 33, 130, 3}, {1, 65, 9, 5}, {64, 1, 1, 6}};
    for (size_t n = 0; n < sizeof shapes / sizeof shapes[0]; n++) {
        const int64_t I = shapes[n][0], J = shapes[n][1], K = shapes[n][2], sweeps = shapes[n][3];
        const int64_t tiles = pw_warp3_tiles_j(J, PW_WARP3_CHAINS) * pw_warp3_tiles_k(K, PW_WARP3_KW, PW_WARP3_NW);
        const size_t cells = (size_t)(I + 2) * (size_t)(J + 2) * (size_t)(K + 2);
        float *want = malloc(4 * cells), *g = malloc(4 * cells), *start = malloc(4 * cells);
        for (size_t q = 0; q < cells; q++) want[q] = start[q] = (float)(test_unit() * 10);
        double demo[] = {11.5};
        ref_3d(want, I, J, K, sweeps, 0, demo);
        for (int off = 0; off < 2; off++) {
            const saved_env pipe = env_set("PEERWAVE_PIPELINE_SWEEPS", off ? "0" : NULL);
            memcpy(g, start, 4 * cells);
            pw_cell_args args = {.rows = I, .cols = J, .planes = K, .grid = g, .sweeps = sweeps, .params = demo};
            pw_options o;
            pw_options_init(&o);
            o.backend = PW_BACKEND_CUDA;
            pw_cell_result res;
            pw_status st = pw_cell_run(cell, &args, &o, &res);
            const int64_t blocks = off ? tiles : tiles * sweeps;
            CHECK(st == PW_OK && !memcmp(g, want, 4 * cells) && res.info.threads == blocks,
                  "pipelined 3-D %lldx%lldx%lld x%lld%s: %s %s, %d blocks (want %lld)", (long long)I, (long long)J,
                  (long long)K, (long long)sweeps, off ? " (a sweep a launch)" : "", pw_status_str(st), pw_error_detail(),
                  res.info.threads, (long long)blocks);
            env_restore(pipe);
        }
        free(g);
        free(want);
        free(start);
    }
    env_restore(layout);
    env_restore(tile);
    pw_cell_free(cell);
}

/* A progress hook that counts its final reports (exactly one a successful run, also where the
 * sweeps ran twice: monitor.h, hold_final). */
static int count_finals(void *user, const pw_progress *p)
{
    if (p->final) ++*(int *)user;
    return 0;
}

static void count_records(void *user, const pw_trace_record *r)
{
    (void)r;
    ++*(int64_t *)user;
}

/* The tile records of one sweep of `cell` over a scratch copy of args' grid (bytes long) under o. */
static int64_t records_a_sweep(pw_cell *cell, const pw_cell_args *args, size_t bytes, pw_options o)
{
    int64_t records = 0;
    pw_cell_args one = *args;
    one.sweeps = 1;
    one.grid = malloc(bytes);
    memcpy(one.grid, args->grid, bytes);
    o.trace = count_records;
    o.trace_user = &records;
    o.progress = NULL;
    const pw_status st = pw_cell_run(cell, &one, &o, NULL);
    CHECK(st == PW_OK, "a traced sweep %s: %s %s", test_describe(&o), pw_status_str(st), pw_error_detail());
    free(one.grid);
    return records;
}

/* What a grid3 cell on the 3-D processor may read besides its dependences, with its sweeps
 * pipelined: any downwind point within its halo (here 3: across tiles in j and k, and across
 * warps), and, beyond the halo, any downwind point at all -- such a read is flagged and the
 * sweeps run again, one a launch (the run's note says so).  Against lexicographic loops. */
static void test_3d_reach(int rounds)
{
    static const char near_text[] =
        "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, 0)\nPW_DEP3(0, 1, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(3)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
        "{ return (pw_at3(c, i - 1, j, k) * 3 + pw_at3(c, i, j - 1, k) * 5 + pw_at3(c, i, j, k - 1) * 7 + pw_at3(c, i, j, k)\n"
        "          + pw_at3(c, i + 3, j + 3, k + 3) * 11 + pw_at3(c, i, j, k + 3) + pw_at3(c, i, j + 3, k) * 13\n"
        "          + pw_at3(c, i + 3, j, k) * 17 + pw_at3(c, i + 1, j + 2, k + 3)) % 1000000007; }\n";
    static const char far_text[] =
        "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, 0)\nPW_DEP3(0, 1, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(1)\n"
        "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
        "{ return (pw_at3(c, i - 1, j, k) * 3 + pw_at3(c, i, j - 1, k) * 5 + pw_at3(c, i, j, k - 1) * 7 + pw_at3(c, i, j, k)\n"
        "          + (i + 20 < c->rows ? pw_at3(c, i + 20, j, k) : 0) * 11) % 1000000007; }\n";
    for (int far = 0; far < 2; far++) {
        pw_cell *cell = NULL;
        const int H = far ? 1 : 3;
        CHECK(pw_cell_create(far ? far_text : near_text, far ? "far3.c" : "near3.c", &cell) == PW_OK, "reach3: %s", pw_error_detail());
        for (int r = 0; r < rounds && cell; r++) {
            const int64_t I = test_range(far ? 25 : 1, 90), J = test_range(1, 90), K = test_range(1, 90), sweeps = test_range(2, 5);
            const int64_t sk = K + 2 * H, sj = (J + 2 * H) * sk;
            const size_t cells = (size_t)(I + 2 * H) * (size_t)sj;
            int64_t *g = malloc(8 * cells), *want = malloc(8 * cells);
            for (size_t q = 0; q < cells; q++) g[q] = want[q] = test_range(0, 1000000);
            for (int64_t s = 0; s < sweeps; s++)
                for (int64_t i = H; i < I + H; i++)
                    for (int64_t j = H; j < J + H; j++)
                        for (int64_t k = H; k < K + H; k++) {
                            int64_t *p = want + i * sj + j * sk + k, v = p[-sj] * 3 + p[-sk] * 5 + p[-1] * 7 + p[0];
                            if (far) v += (i - H + 20 < I ? p[20 * sj] : 0) * 11;
                            else v += p[3 * sj + 3 * sk + 3] * 11 + p[3] + p[3 * sk] * 13 + p[3 * sj] * 17 + p[sj + 2 * sk + 3];
                            *p = v % 1000000007;
                        }
            pw_cell_args args = {.rows = I, .cols = J, .planes = K, .grid = g, .sweeps = sweeps};
            pw_options o;
            engine(&o, I, J * K, r);
            if (use_gpu && r % 3 == 2) o.tile_h = (int)test_range(1, 3); /* (near3 reads 3 rows down: M > 1, the deep waits) */
            int finals = 0;
            o.progress = count_finals;
            o.progress_user = &finals;
            /* every other round traced: a run whose sweeps ran again gives the tiles of the
             * sweeps that stand, `sweeps` times a sweep's (not the thrown-away run's too) */
            int64_t records = 0;
            const int64_t want_records = r % 2 ? sweeps * records_a_sweep(cell, &args, 8 * cells, o) : 0;
            if (r % 2) o.trace = count_records, o.trace_user = &records;
            pw_cell_result res;
            pw_status st = pw_cell_run(cell, &args, &o, &res);
            CHECK(st == PW_OK && !memcmp(g, want, 8 * cells), "%s %lldx%lldx%lld x%lld %s: %s %s", far ? "far3" : "near3",
                  (long long)I, (long long)J, (long long)K, (long long)sweeps, test_describe(&o), pw_status_str(st),
                  pw_error_detail());
            CHECK(st != PW_OK || finals == 1, "%s %lldx%lldx%lld x%lld %s: %d final progress reports", far ? "far3" : "near3",
                  (long long)I, (long long)J, (long long)K, (long long)sweeps, test_describe(&o), finals);
            CHECK(st != PW_OK || records == want_records, "%s %lldx%lldx%lld x%lld %s: %lld tile records, %lld wanted",
                  far ? "far3" : "near3", (long long)I, (long long)J, (long long)K, (long long)sweeps, test_describe(&o),
                  (long long)records, (long long)want_records);
            /* (the far read is flagged where the sweeps run pipelined: the GPU's 3-D processor and
             * its flattened space on the peer, barrier and tasks schedules, the CPU's peer, barrier
             * and tasks engines; not plane by plane) */
            const char *layout = getenv("PEERWAVE_3D");
            const char *piping = getenv("PEERWAVE_PIPELINE_SWEEPS");
            const int flagged = piping && !strcmp(piping, "0") ? 0
                                : use_gpu ? o.strategy != PW_STRATEGY_LAUNCH && !(layout && !strcmp(layout, "plane"))
                                          : cpu_pipelines(&o);
            if (st == PW_OK && flagged)
                CHECK((strstr(res.note, "downwind") != NULL) == far, "%s %lldx%lldx%lld x%lld %s: rerun noted? (%s)",
                      far ? "far3" : "near3", (long long)I, (long long)J, (long long)K, (long long)sweeps, test_describe(&o), res.note);
            free(g);
            free(want);
        }
        pw_cell_free(cell);
    }
}

/* A 3-D cell whose dependences a plane-by-plane run cannot honour ((i-1, j-1, k+1) is read):
 * on the GPU it takes the flattened engines, on the CPU the same as every grid3 cell. */
static void test_3d_skewed(int rounds)
{
    static const char text[] = "PW_FORM(grid3)\nPW_VALUE(int32_t)\nPW_DEP3(1, 1, -1)\nPW_DEP3(0, 0, 1)\nPW_HALO(1)\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
                               "{ return (pw_at3(c, i - 1, j - 1, k + 1) * 3 + pw_at3(c, i, j, k - 1) + 1) % 1000003; }\n";
    pw_cell *cell = NULL;
    CHECK(pw_cell_create(text, "skewed3.c", &cell) == PW_OK, "skewed3: %s", pw_error_detail());
    for (int r = 0; r < rounds && cell; r++) {
        const int64_t I = test_range(1, 30), J = test_range(1, 30), K = test_range(1, 30);
        const int64_t sk = K + 2, sj = (J + 2) * sk;
        const size_t cells = (size_t)(I + 2) * (size_t)sj;
        int32_t *g = malloc(4 * cells), *want = malloc(4 * cells);
        for (size_t q = 0; q < cells; q++) g[q] = want[q] = (int32_t)test_range(0, 1000);
        for (int64_t i = 1; i <= I; i++)
            for (int64_t j = 1; j <= J; j++)
                for (int64_t k = 1; k <= K; k++)
                    want[i * sj + j * sk + k] = (want[(i - 1) * sj + (j - 1) * sk + k + 1] * 3 + want[i * sj + j * sk + k - 1] + 1) % 1000003;
        pw_cell_args args = {.rows = I, .cols = J, .planes = K, .grid = g};
        pw_options o;
        engine(&o, I, J * K, r);
        pw_status st = pw_cell_run(cell, &args, &o, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 4 * cells), "skewed3 %lldx%lldx%lld %s: %s %s", (long long)I, (long long)J,
              (long long)K, test_describe(&o), pw_status_str(st), pw_error_detail());
        free(g);
        free(want);
    }
    pw_cell_free(cell);
}

/* A 3-D cell of 8-byte integers with the three upwind dependences that also reads two cells not
 * yet updated in the sweep ((i+1, j, k) and (i, j+1, k+1): their old values): the GPU's 3-D
 * processor (Warp3Proc) on 8-byte values, and what a cell may read besides its dependences. */
static void test_3d_int64(int rounds)
{
    static const char text[] = "PW_FORM(grid3)\nPW_VALUE(int64_t)\nPW_DEP3(1, 0, 0)\nPW_DEP3(0, 1, 0)\nPW_DEP3(0, 0, 1)\nPW_HALO(1)\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, int64_t k)\n"
                               "{ return (pw_at3(c, i - 1, j, k) * 3 + pw_at3(c, i, j - 1, k) * 5 + pw_at3(c, i, j, k - 1) * 7\n"
                               "          + pw_at3(c, i, j, k) + pw_at3(c, i + 1, j, k) + pw_at3(c, i, j + 1, k + 1)) % 1000000007; }\n";
    pw_cell *cell = NULL;
    CHECK(pw_cell_create(text, "int64_3d.c", &cell) == PW_OK, "int64_3d: %s", pw_error_detail());
    for (int r = 0; r < rounds && cell; r++) {
        const int64_t max = use_gpu ? 80 : 30;
        const int64_t I = test_range(1, max), J = test_range(1, max), K = test_range(1, max), sweeps = test_range(1, use_gpu ? 5 : 2);
        const int64_t sk = K + 2, sj = (J + 2) * sk;
        const size_t cells = (size_t)(I + 2) * (size_t)sj;
        int64_t *g = malloc(8 * cells), *want = malloc(8 * cells);
        for (size_t q = 0; q < cells; q++) g[q] = want[q] = test_range(0, 1000000);
        for (int64_t s = 0; s < sweeps; s++)
            for (int64_t i = 1; i <= I; i++)
                for (int64_t j = 1; j <= J; j++)
                    for (int64_t k = 1; k <= K; k++) {
                        int64_t *p = want + i * sj + j * sk + k;
                        *p = (p[-sj] * 3 + p[-sk] * 5 + p[-1] * 7 + p[0] + p[sj] + p[sk + 1]) % 1000000007;
                    }
        pw_cell_args args = {.rows = I, .cols = J, .planes = K, .grid = g, .sweeps = sweeps};
        pw_options o;
        engine(&o, I, J * K, r);
        pw_status st = pw_cell_run(cell, &args, &o, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 8 * cells), "int64_3d %lldx%lldx%lld x%lld %s: %s %s", (long long)I,
              (long long)J, (long long)K, (long long)sweeps, test_describe(&o), pw_status_str(st), pw_error_detail());
        free(g);
        free(want);
    }
    pw_cell_free(cell);
}

/* pw_ctx's sizes reach the cell on every engine: D = max(up, left) + planes + (rows == R) gives
 * (i + j + 1) * (1 + 1) at (i, j) when planes is 1 and rows is R. */
static void test_ctx_sizes(void)
{
    static const char text[] = "PW_FORM(linear)\nPW_VALUE(int64_t)\nPW_PARAM(int64_t, r)\n"
                               "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }\n"
                               "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value u, pw_value l, pw_value d)\n"
                               "{ return PW_MAX(u, l) + c->planes + (c->rows == c->r); }\n";
    pw_cell *cell = NULL;
    CHECK(pw_cell_create(text, "sizes.c", &cell) == PW_OK, "sizes.c: %s", pw_error_detail());
    for (int k = 0; cell && k < 6; k++) {
        int64_t n = test_range(1, 300), m = test_range(1, 300), got;
        double r[] = {(double)n};
        pw_cell_args args = {.rows = n, .cols = m, .params = r};
        pw_options o;
        pw_cell_result res;
        engine(&o, n, m, k);
        pw_status st = pw_cell_run(cell, &args, &o, &res);
        memcpy(&got, res.last, 8);
        CHECK(st == PW_OK && got == 2 * (n + m - 1), "sizes %lldx%lld %s: %s %lld", (long long)n, (long long)m,
              test_describe(&o), pw_status_str(st), (long long)got);
    }
    pw_cell_free(cell);
}

/* ---- refusals -------------------------------------------------------------------------------- */

static void expect_create(const char *text, pw_status want, const char *detail_has)
{
    pw_cell *c = NULL;
    pw_status st = pw_cell_create(text, "bad.c", &c);
    CHECK(st == want && !c && strstr(pw_error_detail(), detail_has), "create -> %s (%s), wanted %s with '%s'",
          pw_status_str(st), pw_error_detail(), pw_status_str(want), detail_has);
    pw_cell_free(c);
}

static void test_refusals(void)
{
    expect_create("PW_VALUE(int32_t)\n", PW_ERR_BAD_INPUT, "PW_FORM");
    expect_create("PW_FORM(linear)\n", PW_ERR_BAD_INPUT, "no value");
    expect_create("PW_FORM(linear)\nPW_VALUE(int16_t)\n", PW_ERR_BAD_INPUT, "int32_t, uint32_t");
    expect_create("PW_FORM(linear)\nPW_VALUE(long double)\n", PW_ERR_BAD_INPUT, "bad.c:2: unknown type");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(0, -1)\n", PW_ERR_ILLEGAL_DEPENDENCE, "bad.c:3: PW_DEP(0, -1)");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(-1, 5)\n", PW_ERR_ILLEGAL_DEPENDENCE, "lexicographically");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(0, 0)\n", PW_ERR_ILLEGAL_DEPENDENCE, "PW_DEP(0, 0)");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 99999)\n", PW_ERR_BAD_INPUT, "PW_DEP(di, dj)");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\n", PW_ERR_BAD_INPUT, "PW_DEP(di, dj) lines");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, rows, i)\n", PW_ERR_BAD_INPUT, "taken");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_PARAM(int32_t, planes)\n", PW_ERR_BAD_INPUT, "taken");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, i, i)\n", PW_ERR_BAD_INPUT, "taken");
    /* C keywords and the cells' macros too (they failed in the generated declarations, naming no line) */
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_PARAM(int32_t, int)\n", PW_ERR_BAD_INPUT, "taken");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_PARAM(int32_t, return)\n", PW_ERR_BAD_INPUT, "taken");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, NULL, i)\n", PW_ERR_BAD_INPUT, "taken");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_PARAM(int32_t, new)\n", PW_ERR_BAD_INPUT, "keywords");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUT(uint8_t, a, q)\n", PW_ERR_BAD_INPUT, "axes");
    /* fields by the keywords too, with their line (int failed in the generated types, class on
     * NVRTC alone); pw_ctx's names are free for a field (a struct member) */
    expect_create("PW_FORM(linear)\nPW_FIELD(int32_t, h)\nPW_FIELD(int32_t, int)\n", PW_ERR_BAD_INPUT, "bad.c:3: 'int' is taken");
    expect_create("PW_FORM(linear)\nPW_FIELD(int32_t, class)\n", PW_ERR_BAD_INPUT, "bad.c:2: 'class' is taken");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 0)\nPW_HALO(1)\nPW_HALO(2)\n", PW_ERR_BAD_INPUT,
                  "bad.c:5: PW_HALO given twice");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_PARAM(int32_t, x)\nPW_PARAM(float, x)\n", PW_ERR_BAD_INPUT, "two");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_REDUCE(max, h)\n", PW_ERR_BAD_INPUT, "names no field");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t) junk\n", PW_ERR_BAD_INPUT, "text after");
    expect_create("PW_FORM(stencil)\nPW_VALUE(float)\nPW_DEP(1, 0)\n", PW_ERR_BAD_INPUT, "no PW_DEP");
    expect_create("PW_FORM(grid3)\nPW_VALUE(float)\nPW_DEP3(0, 0, -1)\n", PW_ERR_ILLEGAL_DEPENDENCE, "PW_DEP3(0, 0, -1)");
    expect_create("PW_FORM(grid3)\nPW_VALUE(float)\nPW_DEP(1, 0)\n", PW_ERR_BAD_INPUT, "PW_DEP3");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP3(1, 0, 0)\n", PW_ERR_BAD_INPUT, "PW_DEP3 is for");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 0)\nPW_INPUT(float, w, k)\n", PW_ERR_BAD_INPUT, "along k");
    expect_create("PW_FORM(stencil)\nPW_FIELD(float, x)\n", PW_ERR_BAD_INPUT, "PW_VALUE, not fields");
    expect_create("PW_FORM(stencil)\nPW_VALUE(float)\nPW_INPUT(float, a, i)\n", PW_ERR_BAD_INPUT, "no PW_INPUT");
    /* a declaration's name mistyped: refused at its line, not later as generated code's compile error */
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEP(1, 0)\nPW_HAL0(1)\n", PW_ERR_BAD_INPUT,
                  "bad.c:4: unknown declaration PW_HAL0");
    expect_create("PW_FORM(grid)\nPW_VALUE(float)\nPW_DEPS(1, 0)\n", PW_ERR_BAD_INPUT, "bad.c:3: unknown declaration PW_DEPS");
    expect_create("PW_FORM(linear)\nPW_VALUE(int32_t)\nPW_INPUTS(uint8_t, a, i);\n", PW_ERR_BAD_INPUT, "unknown declaration");
    /* the cell language's own macros at the start of a line are code, as are the cell's own PW_
     * macros and any line inside a function */
    static const char *const code[] = {
        "PW_FORM(linear)\nPW_VALUE(int32_t)\n#define BIG(a, b) (a)\nPW_MAX(1, 2);\n",
        "PW_FORM(linear)\nPW_VALUE(int32_t)\n#define PW_MY_PAIR(t, n) typedef t n;\nPW_MY_PAIR(int, my_int)\n",
        "PW_FORM(linear)\nPW_VALUE(int32_t)\n  #  define PW_SQ(x) ((x) * (x))\nint f(int a)\n{\n    return\n"
        "        PW_SQ(a);\n}\n",
        "PW_FORM(linear)\nPW_VALUE(int32_t)\nint g(int a)\n{\n    return a +\n        PW_LATER(a);\n}\n"};
    for (size_t k = 0; k < sizeof code / sizeof *code; k++) {
        pw_cell *m = NULL;
        CHECK(pw_cell_create(code[k], "m.c", &m) == PW_OK, "code %zu is not a declaration: %s", k, pw_error_detail());
        pw_cell_free(m);
    }
    /* declarations in comments are comments */
    pw_cell *c = NULL;
    CHECK(pw_cell_create("/* PW_DEP(0, -1) */ PW_FORM(linear)\n// PW_VALUE(bad)\nPW_VALUE(double)\n", "c.c", &c) == PW_OK,
          "comments: %s", pw_error_detail());
    pw_cell_free(c);

    /* a cell that does not compile: the first error, at its line in the cell's file */
    const char *broken = "PW_FORM(linear)\nPW_VALUE(int32_t)\n"
                         "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }\n"
                         "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)\n"
                         "{\n    return up + undeclared_thing;\n}\n";
    CHECK(pw_cell_create(broken, "broken.c", &c) == PW_OK, "broken parses");
    pw_cell_args args = {.rows = 5, .cols = 5};
    pw_options o = test_sequential_options();
    if (use_gpu) o.backend = PW_BACKEND_CUDA, o.strategy = PW_STRATEGY_PEER;
    pw_status st = pw_cell_run(c, &args, &o, NULL);
    /* cc says "broken.c:6:", NVRTC "broken.c(6):" */
    CHECK(st == PW_ERR_COMPILE && (strstr(pw_error_detail(), "broken.c:6") || strstr(pw_error_detail(), "broken.c(6)")) &&
              strstr(pw_error_detail(), "undeclared_thing") &&
              strlen(pw_cell_compile_log(c)) > 0,
          "compile error: %s: %s", pw_status_str(st), pw_error_detail());
    pw_cell_free(c);

    /* run-time arguments */
    c = load("needleman_wunsch.c");
    uint8_t s[4] = "ACGT";
    const void *inputs[] = {s, s}, *missing[] = {s, NULL};
    double fine[] = {1, -1, 2}, frac[] = {1.5, -1, 2}, huge[] = {1, -1, 1e12};
    pw_cell_args a = {.rows = 4, .cols = 4, .inputs = inputs, .params = fine};
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_OK, "nw fine: %s", pw_error_detail());
    a.params = frac;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "match"), "fraction for int32");
    a.params = huge;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "gap"), "1e12 for int32");
    a.params = NULL;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_NULL_ARGUMENT, "no params");
    a.params = fine;
    a.inputs = missing;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_NULL_ARGUMENT && strstr(pw_error_detail(), "input b"), "missing b");
    a.inputs = inputs;
    /* sweeps are for grid and stencil cells (a linear cell's were ignored here, refused by the CLI) */
    a.sweeps = 3;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_INVALID_ARGUMENT && strstr(pw_error_detail(), "a linear cell runs once"),
          "sweeps on a linear cell: %s", pw_error_detail());
    a.sweeps = 1;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_OK, "sweeps 1 on a linear cell: %s", pw_error_detail());
    a.sweeps = 0;
    a.rows = 0;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_INVALID_SIZE && strstr(pw_error_detail(), "rows 0"), "0 rows");
    a.rows = INT64_MAX / 2;
    a.cols = INT64_MAX / 2;
    CHECK(pw_cell_run(c, &a, &o, NULL) == PW_ERR_SIZE_OVERFLOW, "huge");
    pw_cell_free(c);
}

/* Every example cell through NVRTC, on each processor the selector may give it. */
static int nvrtc_examples(void)
{
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    static const char *linear[] = {"levenshtein.c", "needleman_wunsch.c", "lcs.c", "sw_gotoh.c"};
    static const struct {
        int proc, r, wide;
        const char *target;
    } procs[] = {{PW_PROC_WARP, 4, 0, "sm_90"}, {PW_PROC_LINEAR, 1, 0, "sm_90"}, {PW_PROC_WARP, 1, 1, "compute_80"}};
    for (int k = 0; k < 4; k++) {
        pw_cell *c = load(linear[k]);
        for (int q = 0; q < 3; q++) {
            if (q == 2 && k != 3) continue; /* the portable target (and 64-bit indices) once, on the largest cell */
            pw_status st = pw_cell_gpu_compile_check(c, procs[q].target, procs[q].proc, procs[q].r, procs[q].wide);
            CHECK(st == PW_OK, "%s on %d/%d for %s: %s: %s", linear[k], procs[q].proc, procs[q].r, procs[q].target,
                  pw_status_str(st), pw_error_detail());
        }
        pw_cell_free(c);
    }
    /* the generated rows and columns for inputs of every type (test_input_types) */
    pw_cell *types = NULL;
    CHECK(pw_cell_create(types_cell_text, "types.c", &types) == PW_OK, "types cell: %s", pw_error_detail());
    for (int q = 0; types && q < 3; q++) {
        pw_status st = pw_cell_gpu_compile_check(types, procs[q].target, procs[q].proc, procs[q].r, procs[q].wide);
        CHECK(st == PW_OK, "types.c on %d/%d for %s: %s: %s", procs[q].proc, procs[q].r, procs[q].target, pw_status_str(st),
              pw_error_detail());
    }
    pw_cell_free(types);
    static const char *grids[] = {"demonstrator3d.c", "lu_like.c"};
    for (int k = 0; k < 2; k++) {
        pw_cell *g3 = load(grids[k]);
        for (int layout = 0; layout < 4; layout++) { /* flattened, plane by plane, 3-D tiles, flattened and pipelined */
            pw_status st3 = pw_cell_gpu_compile_check(g3, "sm_90", PW_PROC_FULL, 1, -layout);
            CHECK(st3 == PW_OK, "%s (layout %d): %s: %s", grids[k], layout, pw_status_str(st3), pw_error_detail());
        }
        pw_cell_free(g3);
    }
    pw_cell *heat = load("heat_grid.c");
    pw_status st = pw_cell_gpu_compile_check(heat, "sm_90", PW_PROC_FULL, 1, 0);
    CHECK(st == PW_OK, "heat_grid.c: %s: %s", pw_status_str(st), pw_error_detail());
    pw_cell_free(heat);
    heat = load("heat.c");
    static const int stencil_procs[][2] = {{PW_PROC_STENCIL_WARP, 4}, {PW_PROC_STENCIL_WINDOW, 1}, {PW_PROC_FULL, 1}};
    for (int k = 0; k < 3; k++) {
        st = pw_cell_gpu_compile_check(heat, "sm_90", stencil_procs[k][0], stencil_procs[k][1], 0);
        CHECK(st == PW_OK, "heat.c on %d: %s: %s", stencil_procs[k][0], pw_status_str(st), pw_error_detail());
    }
    pw_cell_free(heat);
    /* a compile error points into the cell's file */
    pw_cell *c = NULL;
    pw_cell_create("PW_FORM(linear)\nPW_VALUE(float)\n"
                   "PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j) { return 0; }\n"
                   "PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value u, pw_value l, pw_value d)\n"
                   "{ return u + nothing_here; }\n",
                   "oops.c", &c);
    st = pw_cell_gpu_compile_check(c, "sm_90", PW_PROC_WARP, 2, 0);
    CHECK(st == PW_ERR_COMPILE && strstr(pw_error_detail(), "oops.c(5)") && strstr(pw_error_detail(), "nothing_here"),
          "nvrtc error: %s: %s", pw_status_str(st), pw_error_detail());
    pw_cell_free(c);
    return test_finish();
#else
    printf("SKIP: built without CUDA and NVRTC\n");
    return 77;
#endif
}

/* Is section `name` in PW_TEST_ONLY's comma list (or is there no list)? */
static int section_wanted(const char *name)
{
    const char *only = getenv("PW_TEST_ONLY");
    if (!only) return 1;
    const size_t n = strlen(name);
    for (const char *p = only; (p = strstr(p, name)); p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n])) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--nvrtc")) return nvrtc_examples();
    use_gpu = argc > 1 && !strcmp(argv[1], "--gpu");
    test_seed(24);
    if (use_gpu) {
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        pw_cell *c = load("lcs.c");
        uint8_t s[1] = {'A'};
        const void *in[] = {s, s};
        pw_cell_args a = {.rows = 1, .cols = 1, .inputs = in};
        pw_status st = pw_cell_run(c, &a, &o, NULL);
        pw_cell_free(c);
        if (st == PW_ERR_NO_DEVICE || st == PW_ERR_UNSUPPORTED) {
            printf("SKIP: no GPU cells here (%s: %s)\n", pw_status_str(st), pw_error_detail());
            return 77;
        }
    }
    const char *rounds = getenv("PW_TEST_ROUNDS"); /* fewer under compute-sanitizer */
    const int n = rounds ? atoi(rounds) : 40;
    /* PW_TEST_ONLY=NAME[,NAME...] runs those sections (names as printed); each prints its name and
     * seconds as it ends, so a device log shows where a slow run spent its time (every new cell
     * and processor costs an NVRTC compile of about 2 s on a cold cache) */
#define SECTION(name, call)                                                                              \
    do {                                                                                                 \
        if (!section_wanted(name)) break;                                                                \
        const double t0 = test_seconds();                                                                \
        call;                                                                                            \
        printf("section %s: %.1f s\n", name, test_seconds() - t0);                                       \
        fflush(stdout);                                                                                  \
    } while (0)
    SECTION("refusals", test_refusals());
    SECTION("ctx", test_ctx_sizes());
    SECTION("fmod", (test_fmod_by_quotient(), test_fmod_cell()));
    SECTION("types", test_input_types(use_gpu ? 24 : 12));
    SECTION("shared", test_shared_cell());
    SECTION("linear", test_linear_examples(n));
    SECTION("heat", (test_heat_example("heat.c", n), test_heat_example("heat_grid.c", n)));
    SECTION("reach2", (test_grid_reach(n / 4), test_grid_deep(n / 4)));
    SECTION("3d", (test_3d_example("demonstrator3d.c", 0, n), test_3d_example("lu_like.c", 1, n / 2), test_3d_skewed(n / 2),
                   test_3d_int64(n / 2), test_3d_reach(n / 4), use_gpu ? test_3d_pipelined() : (void)0));
    if (use_gpu) { /* the 3-D cells on the other layouts too (kernel_desc.h's pw_layout_3d) */
        static const char *layouts[] = {"plane", "flat"};
        for (int k = 0; k < 2; k++) {
            setenv("PEERWAVE_3D", layouts[k], 1);
            SECTION(layouts[k], (test_3d_example("demonstrator3d.c", 0, n / 2), test_3d_example("lu_like.c", 1, n / 4),
                                 k == 0 ? test_3d_skewed(n / 4) : test_3d_reach(n / 4))); /* skewed is not plane-ordered: still flattened */
        }
        unsetenv("PEERWAVE_3D");
        /* the 3-D processor's other knobs (PEERWAVE_3D_TILE): one slice ahead and a hand-over
         * every step; odd chunks and more blocks an SM than the registers allow by default */
        static const char *tiles[] = {"4x8x1x1", "2x4x3x5x8"};
        for (int k = 0; k < 2; k++) {
            setenv("PEERWAVE_3D_TILE", tiles[k], 1);
            SECTION(tiles[k], (test_3d_example("demonstrator3d.c", 0, n / 4), test_3d_example("lu_like.c", 1, n / 8),
                               test_3d_int64(n / 8), test_3d_reach(n / 8))); /* (small tiles: downwind reads across tiles, sweeps pipelined) */
        }
        /* two and four rows a thread (tiles of 64 and 128 rows j): shapes up to 300 so that whole
         * tiles and their every-chain-inside steps occur, besides thin and partial ones */
        static const char *chains[] = {"4x8x4x4x0x2", "2x4x2x3x0x4", "1x2x4x4x0x2"};
        max_3d = 300;
        for (int k = 0; k < 3; k++) {
            setenv("PEERWAVE_3D_TILE", chains[k], 1);
            SECTION(chains[k], (test_3d_example("demonstrator3d.c", 0, n / 4), test_3d_example("lu_like.c", 1, n / 8),
                                test_3d_reach(n / 8)));
        }
        max_3d = 0;
        unsetenv("PEERWAVE_3D_TILE");
    }
#undef SECTION
    return test_finish();
}
