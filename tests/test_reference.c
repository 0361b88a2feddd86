/*
 * test_reference.c - the library against textbook implementations written here independently:
 * full-matrix Smith-Waterman-Gotoh and DTW, summed-area tables and histograms by direct prefix
 * sums, plain Gauss-Seidel loops, and user recurrences through pw_run() with skewed
 * dependences (f = 1, 2) and linear-storage callbacks.  Each case runs on a random engine, so
 * this also checks the non-sequential engines against something that shares no code with them.
 */
#include <math.h>
#include <string.h>

#include "../apps/sat_accuracy.h"
#include "../apps/sw_cell.h"
#include "test_util.h"

#define NEG (INT64_MIN / 4)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Textbook SWG on full matrices; ties: first (i, j) in row-major order. */
static void naive_sw(const char *a, int64_t n, const char *b, int64_t m, int match, int mismatch,
                     int go, int ge, int64_t *score, int64_t *ei, int64_t *ej)
{
    int64_t *H = calloc((size_t)((n + 1) * (m + 1)), 8), *E = malloc((size_t)((n + 1) * (m + 1)) * 8),
            *F = malloc((size_t)((n + 1) * (m + 1)) * 8);
    for (int64_t k = 0; k < (n + 1) * (m + 1); k++) E[k] = F[k] = NEG;
    *score = 0;
    *ei = *ej = -1;
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++) {
            int64_t k = i * (m + 1) + j;
            E[k] = max64(E[k - 1] - ge, H[k - 1] - go);
            F[k] = max64(F[k - (m + 1)] - ge, H[k - (m + 1)] - go);
            int same = a[i - 1] == b[j - 1] && strchr("ACGT", a[i - 1]);
            H[k] = max64(max64(0, H[k - (m + 1) - 1] + (same ? match : mismatch)), max64(E[k], F[k]));
            if (H[k] > *score) {
                *score = H[k];
                *ei = i - 1;
                *ej = j - 1;
            }
        }
    free(H);
    free(E);
    free(F);
}

static void check_sw(void)
{
    for (int t = 0; t < 150; t++) {
        int64_t n = test_dim(400), m = test_dim(400);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = "ACGTN"[test_rand() % 5];
        for (int64_t k = 0; k < m; k++) b[k] = test_rand() % 3 && k < n ? a[k] : "ACGT"[test_rand() % 4];
        pw_sw_params p;
        pw_sw_params_init(&p);
        p.match = (int)test_range(1, 4);
        p.mismatch = -(int)test_range(0, 4);
        p.gap_extend = (int)test_range(0, 3);
        p.gap_open = p.gap_extend + (int)test_range(0, 6);
        pw_options o;
        test_random_options(&o, n, m);
        pw_sw_result r;
        int64_t score, ei, ej;
        naive_sw(a, n, b, m, p.match, p.mismatch, p.gap_open, p.gap_extend, &score, &ei, &ej);
        pw_status st = pw_sw(a, n, b, m, &p, &o, &r);
        CHECK(st == PW_OK && r.score == score && r.end_a == ei && r.end_b == ej,
              "sw vs naive %" PRId64 "x%" PRId64 " %s: %d (%" PRId64 ",%" PRId64 ") vs %" PRId64
              " (%" PRId64 ",%" PRId64 ")", n, m, test_describe(&o), r.score, r.end_a, r.end_b,
              score, ei, ej);
        free(a);
        free(b);
    }
}

/* pw_sw_step_linear (the CUDA engine's cell for linear gaps; here its host form) over a whole
 * matrix against the textbook SWG with gap_open == gap_extend. */
static void check_sw_linear_cell(void)
{
    for (int t = 0; t < 100; t++) {
        int64_t n = test_dim(200), m = test_dim(200);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = "ACGT"[test_rand() % 4];
        for (int64_t k = 0; k < m; k++) b[k] = test_rand() % 3 && k < n ? a[k] : "ACGT"[test_rand() % 4];
        int match = (int)test_range(1, 4), mismatch = -(int)test_range(0, 4), gap = (int)test_range(0, 5);
        int32_t *H = calloc((size_t)((n + 1) * (m + 1)), sizeof *H), best = 0;
        int64_t bi = -1, bj = -1, score, ei, ej;
        for (int64_t i = 1; i <= n; i++)
            for (int64_t j = 1; j <= m; j++) {
                int64_t k = i * (m + 1) + j;
                int32_t subst = a[i - 1] == b[j - 1] ? match : mismatch;
                H[k] = pw_sw_step_linear(subst, gap, H[k - (m + 1)], H[k - 1], H[k - (m + 1) - 1]);
                if (H[k] > best) best = H[k], bi = i - 1, bj = j - 1;
            }
        naive_sw(a, n, b, m, match, mismatch, gap, gap, &score, &ei, &ej);
        CHECK(best == score && bi == ei && bj == ej, "linear-gap cell %" PRId64 "x%" PRId64 " gap %d: %d vs %" PRId64, n,
              m, gap, best, score);
        free(H), free(a), free(b);
    }
}

static void check_dtw(void)
{
    for (int t = 0; t < 100; t++) {
        int64_t n = test_dim(300), m = test_dim(300);
        double *a = malloc(8 * (size_t)n), *b = malloc(8 * (size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = 10 * test_unit();
        for (int64_t k = 0; k < m; k++) b[k] = 10 * test_unit();
        int squared = test_rand() % 2;
        double *D = malloc(8 * (size_t)((n + 1) * (m + 1)));
        for (int64_t k = 0; k < (n + 1) * (m + 1); k++) D[k] = INFINITY;
        D[0] = 0;
        for (int64_t i = 1; i <= n; i++)
            for (int64_t j = 1; j <= m; j++) {
                double d = a[i - 1] - b[j - 1], c = squared ? d * d : fabs(d);
                double best = fmin(fmin(D[(i - 1) * (m + 1) + j], D[i * (m + 1) + j - 1]),
                                   D[(i - 1) * (m + 1) + j - 1]);
                D[i * (m + 1) + j] = c + best;
            }
        pw_options o;
        test_random_options(&o, n, m);
        pw_dtw_result r;
        pw_status st = pw_dtw_f64(a, n, b, m, squared ? PW_DTW_SQUARED : PW_DTW_ABSOLUTE, &o, &r);
        double want = D[n * (m + 1) + m];
        CHECK(st == PW_OK && r.distance == want, "dtw vs naive %" PRId64 "x%" PRId64 ": %.17g vs %.17g",
              n, m, r.distance, want);
        free(a);
        free(b);
        free(D);
    }
}

/* Direct prefix sums in int64 (exact) or long double. */
static void check_sat(void)
{
    for (int t = 0; t < 100; t++) {
        int64_t rows = test_dim(300), cols = test_dim(300);
        int as_float = test_rand() % 2;
        pw_image in = {as_float ? PW_F32 : PW_U8, rows, cols, 0, malloc(4 * (size_t)(rows * cols))};
        pw_image out = {as_float ? PW_F64 : PW_I64, rows, cols, 0, malloc(8 * (size_t)(rows * cols))};
        for (int64_t k = 0; k < rows * cols; k++) {
            if (as_float) ((float *)in.data)[k] = (float)(test_unit() - 0.5);
            else ((uint8_t *)in.data)[k] = (uint8_t)test_rand();
        }
        pw_options o;
        test_random_options(&o, rows, cols);
        pw_status st = pw_sat(&in, &out, &o, NULL);
        long bad = 0;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++) {
                long double sum = 0, abs_sum = 0;
                for (int64_t y = 0; y <= i; y++)
                    for (int64_t x = 0; x <= j; x++) {
                        double v = as_float ? ((float *)in.data)[y * cols + x] : ((uint8_t *)in.data)[y * cols + x];
                        sum += v;
                        abs_sum += fabs(v);
                    }
                if (as_float) bad += fabsl(((double *)out.data)[i * cols + j] - sum) > 1e-12L * (abs_sum + 1);
                else bad += ((int64_t *)out.data)[i * cols + j] != (int64_t)sum;
                if (i * j > 3000) j = cols; /* the quartic loop: sample the far corner sparsely */
            }
        CHECK(st == PW_OK && bad == 0, "sat vs naive %" PRId64 "x%" PRId64 " %s: %ld bad", rows, cols,
              as_float ? "f32->f64" : "u8->i64", bad);
        free(in.data);
        free(out.data);
    }
}

static void check_inthist(void)
{
    for (int t = 0; t < 60; t++) {
        int64_t rows = test_dim(120), cols = test_dim(120);
        int bins = (int)test_range(1, 12);
        pw_image in = {PW_U8, rows, cols, 0, malloc((size_t)(rows * cols))};
        for (int64_t k = 0; k < rows * cols; k++) ((uint8_t *)in.data)[k] = (uint8_t)test_rand();
        int32_t *out = malloc(4 * (size_t)(rows * cols * bins));
        pw_options o;
        test_random_options(&o, rows, cols);
        /* half the cases [lo, lo + bins * width) with whole widths, so a value's bin is plain
         * integer division; half of those with the last bin closed (numpy's: hi itself in it) */
        const int ranged = t % 2, width = (int)test_range(1, 30), lo = ranged ? (int)test_range(0, 100) : 0;
        const int hi = ranged ? lo + bins * width : 256;
        o.inthist_closed = ranged && test_rand() % 2;
        pw_status st = pw_inthist(&in, bins, lo, hi, out, &o, NULL);
        long bad = 0;
        for (int b = 0; b < bins; b++)
            for (int64_t i = 0; i < rows; i++)
                for (int64_t j = 0; j < cols; j++) {
                    int32_t count = 0;
                    for (int64_t y = 0; y <= i; y++)
                        for (int64_t x = 0; x <= j; x++) {
                            const int v = ((uint8_t *)in.data)[y * cols + x];
                            const int inside = v >= lo && (v < hi || (o.inthist_closed && v == hi));
                            count += inside && (ranged ? (v == hi ? bins - 1 : (v - lo) / width) : v * bins / 256) == b;
                        }
                    bad += out[(b * rows + i) * cols + j] != count;
                    if (i * j > 2000) j = cols;
                }
        CHECK(st == PW_OK && bad == 0, "inthist vs naive %" PRId64 "x%" PRId64 " bins %d [%d, %d%s: %ld bad",
              rows, cols, bins, lo, hi, o.inthist_closed ? "]" : ")", bad);
        free(in.data);
        free(out);
    }
}

static void check_stencils(void)
{
    for (int t = 0; t < 60; t++) {
        int64_t rows = test_dim(150) + 2, cols = test_dim(150) + 2, sweeps = test_range(1, 4);
        double omega = test_rand() % 2 ? 1.5 : 0;
        double *g = malloc(8 * (size_t)(rows * cols)), *want = malloc(8 * (size_t)(rows * cols));
        for (int64_t k = 0; k < rows * cols; k++) g[k] = want[k] = test_unit();
        for (int64_t s = 0; s < sweeps; s++)
            for (int64_t i = 1; i < rows - 1; i++)
                for (int64_t j = 1; j < cols - 1; j++) {
                    double *p = &want[i * cols + j];
                    double sum = ((p[cols] + p[1]) + p[-1]) + p[-cols]; /* (((down + right) + left) + up) */
                    *p = omega ? (1 - omega) * *p + omega / 4 * sum : sum / 4;
                }
        pw_image grid = {PW_F64, rows, cols, 0, g};
        pw_options o;
        test_random_options(&o, rows - 2, cols - 2);
        pw_status st = omega ? pw_sor(&grid, sweeps, omega, &o, NULL, NULL) : pw_heat(&grid, sweeps, &o, NULL, NULL);
        CHECK(st == PW_OK && !memcmp(g, want, 8 * (size_t)(rows * cols)),
              "%s vs naive %" PRId64 "x%" PRId64 " sweeps %" PRId64, omega ? "sor" : "heat", rows, cols, sweeps);
        free(g);
        free(want);
    }
}

/* User recurrence, full storage, reads (i-1, j+1): skew 1; optionally (i-2, j+3): skew 2. */
typedef struct user_grid {
    int64_t *a;
    int64_t cols;
    int far;
} user_grid;

static int64_t user_at(const user_grid *u, int64_t i, int64_t j)
{
    return (i < 0 || j < 0 || j >= u->cols) ? 1 : u->a[i * u->cols + j];
}

static int64_t user_cell(const user_grid *u, int64_t i, int64_t j)
{
    int64_t v = user_at(u, i - 1, j + 1) * 3 + user_at(u, i, j - 1) * 5 + user_at(u, i - 1, j) + i + j;
    if (u->far) v += 7 * user_at(u, i - 2, j + 3);
    return v % 1000003;
}

static void user_row(void *user, int64_t i, int64_t jb, int64_t je)
{
    user_grid *u = user;
    for (int64_t j = jb; j < je; j++) u->a[i * u->cols + j] = user_cell(u, i, j);
}

static void check_user_full(void)
{
    for (int t = 0; t < 100; t++) {
        int64_t rows = test_dim(300), cols = test_dim(300);
        int far = test_rand() % 2;
        pw_dep deps[] = {{1, -1}, {0, 1}, {1, 0}, {2, -3}};
        user_grid want = {calloc((size_t)(rows * cols), 8), cols, far};
        user_grid got = {calloc((size_t)(rows * cols), 8), cols, far};
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++) want.a[i * cols + j] = user_cell(&want, i, j);
        pw_problem p = {0};
        p.rows = rows;
        p.cols = cols;
        p.deps = deps;
        p.n_deps = far ? 4 : 3;
        p.storage = PW_STORAGE_FULL;
        p.row = user_row;
        p.user = &got;
        pw_options o;
        test_random_options(&o, rows, cols);
        pw_run_info info;
        pw_status st = pw_run(&p, &o, &info);
        CHECK(st == PW_OK && info.skew == (far ? 2 : 1) && !memcmp(want.a, got.a, 8 * (size_t)(rows * cols)),
              "user full skew %d %" PRId64 "x%" PRId64 " %s: status %d", far ? 2 : 1, rows, cols,
              test_describe(&o), st);
        free(want.a);
        free(got.a);
    }
}

/* User recurrence, linear storage: LCS length, with a padded cell to exercise every blob size. */
typedef struct lcs_cell {
    int64_t len;
    char pad[40];
} lcs_cell;

typedef struct lcs_user {
    const char *a, *b;
    size_t cell_size;
} lcs_user;

static void lcs_cell_fn(void *user, int64_t i, int64_t j, const void *up, const void *left,
                        const void *diag, void *out)
{
    const lcs_user *u = user;
    int64_t vu, vl, vd, v;
    memcpy(&vu, up, 8);
    memcpy(&vl, left, 8);
    memcpy(&vd, diag, 8);
    v = u->a[i] == u->b[j] ? vd + 1 : max64(vu, vl);
    memset(out, 0, u->cell_size);
    memcpy(out, &v, 8);
}

static void lcs_boundary(void *user, int64_t i, int64_t j, void *out)
{
    (void)i, (void)j;
    memset(out, 0, ((const lcs_user *)user)->cell_size);
}

static void check_user_linear(void)
{
    static const size_t sizes[] = {8, 12, 24, 48};
    for (int t = 0; t < 100; t++) {
        int64_t n = test_dim(300), m = test_dim(300);
        char *a = malloc((size_t)n), *b = malloc((size_t)m);
        for (int64_t k = 0; k < n; k++) a[k] = "ACG"[test_rand() % 3];
        for (int64_t k = 0; k < m; k++) b[k] = "ACG"[test_rand() % 3];
        int64_t *L = calloc((size_t)((n + 1) * (m + 1)), 8);
        for (int64_t i = 1; i <= n; i++)
            for (int64_t j = 1; j <= m; j++)
                L[i * (m + 1) + j] = a[i - 1] == b[j - 1] ? L[(i - 1) * (m + 1) + j - 1] + 1
                                                          : max64(L[(i - 1) * (m + 1) + j], L[i * (m + 1) + j - 1]);
        lcs_user u = {a, b, sizes[t % 4]};
        char *last_row = malloc(u.cell_size * (size_t)m), *last_col = malloc(u.cell_size * (size_t)n);
        pw_problem p = {0};
        p.rows = n;
        p.cols = m;
        p.storage = PW_STORAGE_LINEAR;
        p.cell_size = u.cell_size;
        p.cell = lcs_cell_fn;
        p.boundary = lcs_boundary;
        p.last_row = last_row;
        p.last_col = last_col;
        p.user = &u;
        pw_options o;
        test_random_options(&o, n, m);
        pw_status st = pw_run(&p, &o, NULL);
        long bad = 0;
        for (int64_t j = 0; j < m; j++) {
            int64_t v;
            memcpy(&v, last_row + (size_t)j * u.cell_size, 8);
            bad += v != L[n * (m + 1) + j + 1];
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t v;
            memcpy(&v, last_col + (size_t)i * u.cell_size, 8);
            bad += v != L[(i + 1) * (m + 1) + m];
        }
        CHECK(st == PW_OK && bad == 0, "user linear LCS %" PRId64 "x%" PRId64 " cell %zu %s: %ld bad",
              n, m, u.cell_size, test_describe(&o), bad);
        free(a);
        free(b);
        free(L);
        free(last_row);
        free(last_col);
    }
}

/* pw_sat_error_ratio: exact tables pass, a table summed by row prefixes then column sums (the
 * GPU's order) in f32 passes, one cell off by 0.01 fails, and non-float tables are refused. */
static void check_sat_accuracy(void)
{
    for (int t = 0; t < 40; t++) {
        int64_t rows = test_dim(200), cols = test_dim(200), n = rows * cols;
        pw_image in = {PW_F32, rows, cols, 0, malloc(4 * (size_t)n)};
        float *x = in.data, *scan = malloc(4 * (size_t)n), *row_prefix = malloc(4 * (size_t)n);
        double *exact = malloc(8 * (size_t)n);
        for (int64_t k = 0; k < n; k++) x[k] = (float)(test_unit() - 0.3);
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++) {
                int64_t k = i * cols + j;
                row_prefix[k] = (j ? row_prefix[k - 1] : 0.0f) + x[k];
                scan[k] = (i ? scan[k - cols] : 0.0f) + row_prefix[k];
                exact[k] = (double)x[k] + (i ? exact[k - cols] : 0) + (j ? exact[k - 1] : 0) - (i && j ? exact[k - cols - 1] : 0);
            }
        pw_image f32 = {PW_F32, rows, cols, 0, scan}, f64 = {PW_F64, rows, cols, 0, exact};
        double r_scan = pw_sat_error_ratio(&in, &f32), r_exact = pw_sat_error_ratio(&in, &f64);
        /* A cell near the origin (bound below 0.002 there) off by 0.01, like a lost input. */
        int64_t k = (int64_t)(test_rand() % (uint64_t)(rows < 20 ? rows : 20)) * cols +
                    (int64_t)(test_rand() % (uint64_t)(cols < 20 ? cols : 20));
        exact[k] += 0.01;
        double r_off = pw_sat_error_ratio(&in, &f64);
        CHECK(r_scan >= 0 && r_scan <= 1 && r_exact >= 0 && r_exact <= 1 && r_off > 1,
              "sat accuracy %" PRId64 "x%" PRId64 ": scan %.3g exact %.3g one cell off %.3g", rows, cols, r_scan,
              r_exact, r_off);
        pw_image i32 = {PW_I32, rows, cols, 0, scan};
        CHECK(pw_sat_error_ratio(&in, &i32) < 0, "an integer table is not judged by the float bound");
        free(x), free(scan), free(row_prefix), free(exact);
    }
}

int main(void)
{
    test_seed(777);
    check_sw();
    check_sw_linear_cell();
    check_dtw();
    check_sat();
    check_sat_accuracy();
    check_inthist();
    check_stencils();
    check_user_full();
    check_user_linear();
    return test_finish();
}
