/* test_model.c - the tile-width model (src/core/model.h) against values worked out by hand, its
 * clamps and edge cases, its closed forms against the numeric minimum of its own T, and the
 * integer search against brute force. */
#include <unistd.h>
#include <math.h>
#include <string.h>

#include "../src/core/model.h"
#include "../src/core/auto_width.h"
#include "../src/core/model_train.h"
#include "test_util.h"

static int near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* tile_w = 0 in the API: the library's width rule (auto_width.h), as the CLI's --tile-w. */
static void test_api_width(void)
{
    char path[] = "/tmp/pw_test_wisdom_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temporary wisdom file");
    if (fd >= 0) close(fd);
    remove(path); /* the library creates it */
    enum { N = 700, M = 900 };
    char *a = malloc(N), *b = malloc(M);
    for (int k = 0; k < N; k++) a[k] = "ACGT"[test_rand() % 4];
    for (int k = 0; k < M; k++) b[k] = "ACGT"[test_rand() % 4];
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = 2;
    o.wisdom = path;
    pw_sw_result ref, r1, r2, r3, r4;
    o.tile_w = 64;
    CHECK(pw_sw(a, N, b, M, &p, &o, &ref) == PW_OK && ref.info.width_source == PW_WIDTH_GIVEN, "given width");
    o.tile_w = 0; /* small: the fixed default */
    CHECK(pw_sw(a, N, b, M, &p, &o, &r1) == PW_OK && r1.info.width_source == PW_WIDTH_DEFAULT, "default under 2^26 cells");
    o.width_model = 1; /* whatever the size: trained on the corner, then remembered */
    CHECK(pw_sw(a, N, b, M, &p, &o, &r2) == PW_OK && r2.info.width_source == PW_WIDTH_MODEL &&
              r2.info.wisdom == PW_WISDOM_SAVED && r2.info.training_rows == N / 10 && r2.info.training_cols == M / 10 &&
              r2.info.training_seconds > 0 && r2.info.tile_w >= 1,
          "model: trained (%d, rows %" PRId64 ", %.6f s)", (int)r2.info.wisdom, r2.info.training_rows,
          r2.info.training_seconds);
    CHECK(pw_sw(a, N, b, M, &p, &o, &r3) == PW_OK && r3.info.wisdom == PW_WISDOM_HIT && r3.info.training_seconds == 0 &&
              r3.info.tile_w == r2.info.tile_w,
          "model: the second run finds the fit (%d)", (int)r3.info.wisdom);
    CHECK(r1.score == ref.score && r2.score == ref.score && r3.score == ref.score && r2.end_a == ref.end_a &&
              r2.end_b == ref.end_b,
          "the same alignment whatever the width");
    o.width_model = -1;
    CHECK(pw_sw(a, N, b, M, &p, &o, &r4) == PW_OK && r4.info.width_source == PW_WIDTH_DEFAULT, "never the model");
    o.width_model = 2;
    CHECK(pw_sw(a, N, b, M, &p, &o, &r4) == PW_ERR_INVALID_ARGUMENT, "width_model 2 is refused");
    o.width_model = 0;
    o.train_ratio = 1.5;
    CHECK(pw_sw(a, N, b, M, &p, &o, &r4) == PW_ERR_INVALID_ARGUMENT, "train_ratio 1.5 is refused");
    o.train_ratio = 0;
    o.width_model = 1;
    o.wisdom = "none";
    CHECK(pw_sw(a, N, b, M, &p, &o, &r4) == PW_OK && r4.info.wisdom == PW_WISDOM_OFF && r4.info.training_seconds > 0,
          "wisdom none: trained every time");
    /* the other host functions go the same way */
    const int64_t rows = 300, cols = 200;
    uint8_t *px = malloc(rows * cols);
    int64_t *sat = malloc(sizeof *sat * rows * cols);
    double *grid = calloc((size_t)((rows + 2) * (cols + 2)), sizeof *grid);
    for (int64_t k = 0; k < rows * cols; k++) px[k] = (uint8_t)test_rand();
    pw_image in = {PW_U8, rows, cols, 0, px}, out = {PW_I64, rows, cols, 0, sat}, g = {PW_F64, rows + 2, cols + 2, 0, grid};
    pw_run_info info;
    CHECK(pw_sat(&in, &out, &o, &info) == PW_OK && info.width_source == PW_WIDTH_MODEL && sat[rows * cols - 1] > 0,
          "sat through the model");
    int64_t total = 0;
    for (int64_t k = 0; k < rows * cols; k++) total += px[k];
    CHECK(sat[rows * cols - 1] == total, "sat's last sum after the corner runs: %" PRId64 " vs %" PRId64, sat[rows * cols - 1], total);
    grid[0] = 1;
    CHECK(pw_heat(&g, 3, &o, NULL, &info) == PW_OK && info.width_source == PW_WIDTH_MODEL && info.cells == 3 * rows * cols,
          "heat through the model (the corners on a copy)");
    remove(path);
    free(a), free(b), free(px), free(sat), free(grid);
}

/* A corner that runs as the TILED model says (d 2.5 ns, tau 0.7 us, 4 threads), except that the
 * calls named in `slow` (a bit each, counted from the first) take three times as long: a machine
 * busy for a moment. */
typedef struct hiccup_corner {
    int calls;
    unsigned slow;
} hiccup_corner;

static const double corner_d = 2.5e-9, corner_tau = 7e-7;

static pw_status hiccup_run(void *ctx, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    hiccup_corner *c = ctx;
    memset(info, 0, sizeof *info);
    const int64_t h = o->tile_h > 0 ? o->tile_h : 64, w = o->tile_w > 0 ? o->tile_w : 64;
    const pw_model_params truth = {(double)rows, (double)cols, (double)h, 4, corner_d, corner_tau, 0};
    info->seconds = pw_model_time(&truth, PW_MODEL_TILED, (double)w) * (c->calls < 32 && (c->slow >> c->calls & 1) ? 3 : 1);
    info->tile_h = (int)h, info->tile_w = w, info->threads = info->threads_available = 4;
    c->calls++;
    return PW_OK;
}

/* The automatic width's training: a fit that a moment's slowness drives to the floor (its first
 * two samples, widths 1 and 2, thrown) is measured again with medians of three and comes out as
 * the machine's; a clean first fit is kept after one run a width. */
static void training_retries_clamped_fits(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.threads = 4;
    o.width_model = 1;
    o.wisdom = "none";
    const int64_t rows = 3000, cols = 3000;
    hiccup_corner c = {0, 1u << 1 | 1u << 2}; /* (call 0 is the warm-up) */
    pw_model_fit once;
    pw_options to = o;
    to.tile_h = 64;
    CHECK(pw_model_train(hiccup_run, &c, rows, cols, 0, 0.1, &to, 1, &once) == PW_OK &&
              pw_model_fit_clamped(once.d, once.tau_s),
          "the hiccup's premise: one run a width fits d %.3g tau %.3g", once.d, once.tau_s);
    for (int slow = 0; slow < 2; slow++) {
        c = (hiccup_corner){0, slow ? 1u << 1 | 1u << 2 : 0};
        pw_run_info info;
        CHECK(pw_run_with_width("sat", &o, 0, hiccup_run, &c, rows, cols, &info) == PW_OK &&
                  near(info.model_d_s, corner_d, 1e-6) && near(info.model_tau_s, corner_tau, 1e-6),
              "training %s: d %.4g tau %.4g, want %.4g %.4g", slow ? "after a hiccup" : "clean", info.model_d_s,
              info.model_tau_s, corner_d, corner_tau);
        /* calls: a training's warm-up and six widths (three runs each the second time), the run */
        CHECK(c.calls == (slow ? 7 + 19 + 1 : 7 + 1), "training %s: %d calls", slow ? "after a hiccup" : "clean", c.calls);
    }
}

/* pw_model_fit_kind recovers d and tau_s from timings made by a model of that kind (each kind
 * from its own samples, and a kind refitted from another's samples differs). */
static void test_fit_kind(void)
{
    const pw_model_kind kinds[] = {PW_MODEL_TILED, PW_MODEL_CHUNKED};
    const double widths[PW_MODEL_SAMPLES] = {1, 2, 4, 8, 32, 256}, d0 = 2.5e-9, tau0 = 7e-7;
    for (int k = 0; k < 2; k++) {
        pw_model_fit fit;
        memset(&fit, 0, sizeof fit);
        fit.widths_used = PW_MODEL_SAMPLES;
        for (int s = 0; s < PW_MODEL_SAMPLES; s++) {
            const pw_model_params unit = {26214, 26214, 128, 205, 0, 1, 0};
            pw_model_params truth = unit;
            truth.d = d0, truth.tau_s = tau0, truth.chunk = 32;
            fit.sample_unit[s] = unit;
            fit.sample_w[s] = widths[s];
            fit.sample_t[s] = pw_model_time(&truth, kinds[k], widths[s]);
        }
        double d, tau;
        pw_model_fit_kind(&fit, kinds[k], 32, &d, &tau);
        CHECK(near(d, d0, 1e-9) && near(tau, tau0, 1e-9), "kind %d: fit d %.6g tau %.6g, want %.6g %.6g", (int)kinds[k], d,
              tau, d0, tau0);
        pw_model_fit_kind(&fit, kinds[1 - k], 32, &d, &tau);
        CHECK(!(near(d, d0, 1e-6) && near(tau, tau0, 1e-6)), "kind %d's samples fitted as kind %d give the same d, tau",
              (int)kinds[k], (int)kinds[1 - k]);
    }
}

/* The automatic rule's pick (pw_auto_width_pick): under CHUNKED, whatever the fit, about 1/16 of
 * the row (its time falls with the width; 16 tiles a row for the progress reports), never more;
 * under TILED, pw_model_fit_width's. */
static void auto_width_pick(void)
{
    for (int k = 0; k < 300; k++) {
        pw_model_fit fit;
        memset(&fit, 0, sizeof fit);
        fit.h = 32 << test_range(0, 2);
        fit.workers_available = (int)test_range(1, 3000);
        fit.d = pow(10, -(double)test_range(6, 12)) * (double)test_range(1, 100);
        fit.tau_s = pow(10, -(double)test_range(4, 8)) * (double)test_range(1, 100);
        const int64_t rows = test_range(1, 300000), cols = test_range(1, 300000);
        const int64_t most = (cols + 15) / 16, w = pw_auto_width_pick(&fit, 32, rows, cols);
        CHECK(w >= 1 && w <= most && w >= most - most / 50 - 1, "chunked pick %lld for %lld columns (at most %lld)",
              (long long)w, (long long)cols, (long long)most);
        CHECK(pw_auto_width_pick(&fit, 0, rows, cols) == pw_model_fit_width(&fit, rows, cols, PW_MODEL_TILED),
              "tiled pick as pw_model_fit_width");
    }
}

int main(void)
{
    /* By hand: H = W = 1024, h = w = 64, P = 4, d = 1 ns, tau_s = 1 us: c = 1.064 us,
     * (W + h)/w = 17, lag = 2, rounds = 4, fill = 16 * 2 c = 32c, tail = 15c;
     * paper B = (17 - 4)c = 13c -> T = 32c + 3 * 13c + 15c = 86c;
     * consistent B = (17 - 4 * 2)c = 9c -> T = 32c + 27c + 15c = 74c. */
    pw_model_params p = {1024, 1024, 64, 4, 1e-9, 1e-6, 0};
    double c = 1.064e-6;
    CHECK(near(pw_model_time(&p, PW_MODEL_PAPER, 64), 86 * c, 1e-12), "paper T = %.9g, want %.9g",
          pw_model_time(&p, PW_MODEL_PAPER, 64), 86 * c);
    CHECK(near(pw_model_time(&p, PW_MODEL_CONSISTENT, 64), 74 * c, 1e-12), "consistent T = %.9g, want %.9g",
          pw_model_time(&p, PW_MODEL_CONSISTENT, 64), 74 * c);

    /* B clamps at 0: P = 16 gives paper B = (17 - 16)c = c, consistent (17 - 32)c -> 0; with
     * H/(hP) = 1 round there is no stall term at all.  P beyond the tile-rows counts as 16. */
    pw_model_params q = {1024, 1024, 64, 16, 1e-9, 1e-6, 0};
    CHECK(near(pw_model_time(&q, PW_MODEL_CONSISTENT, 64), 32 * c + 15 * c, 1e-12), "B clamp");
    pw_model_params r = q;
    r.P = 1000;
    CHECK(pw_model_time(&r, PW_MODEL_PAPER, 64) == pw_model_time(&q, PW_MODEL_PAPER, 64), "P clamp to tile-rows");

    /* P = 1: no closed form, but T and the search work (one worker: fewer, wider tiles). */
    pw_model_params one = {4096, 4096, 64, 1, 1e-9, 1e-6, 0};
    CHECK(pw_model_closed_form(&one, PW_MODEL_PAPER) < 0, "P = 1 has no closed form");
    double t1 = pw_model_time(&one, PW_MODEL_CONSISTENT, 100);
    CHECK(isfinite(t1) && t1 > 0, "P = 1 time %.9g", t1);
    int64_t w1 = pw_model_best_width(&one, PW_MODEL_CONSISTENT, 5000);
    CHECK(w1 >= 1 && w1 <= 5000, "P = 1 best width %" PRId64, w1);

    /* Closed forms are the minima of their own unclamped T: compare with a fine scan, on cases
     * where no clamp acts near the optimum (P below the tile-rows, several rounds, B > 0). */
    pw_model_params cases[] = {{65536, 65536, 128, 32, 2e-9, 1e-7, 0}, {20000, 20000, 64, 2, 5e-8, 2e-7, 0},
                               {262144, 262144, 256, 64, 1e-9, 5e-8, 0}};
    for (int k = 0; k < 3; k++)
        for (int kind = 0; kind < 2; kind++) {
            double wc = pw_model_closed_form(&cases[k], (pw_model_kind)kind), best = 0, best_t = INFINITY;
            for (double w = 1; w < 200000; w *= 1.0005) {
                double t = pw_model_time(&cases[k], (pw_model_kind)kind, w);
                if (t < best_t) best_t = t, best = w;
            }
            CHECK(wc > 0 && near(wc, best, 0.01), "case %d kind %d: closed form %.2f, scan %.2f", k, kind, wc, best);
        }

    /* The integer search agrees with brute force over every width, and its pick is feasible. */
    for (int k = 0; k < 6; k++) {
        pw_model_kind kind = k < 3 ? PW_MODEL_CONSISTENT : PW_MODEL_TILED;
        int64_t w = pw_model_best_width(&cases[k % 3], kind, 20000), brute = 1;
        for (int64_t x = 2; x <= 20000; x++)
            if (pw_model_time(&cases[k % 3], kind, (double)x) < pw_model_time(&cases[k % 3], kind, (double)brute))
                brute = x;
        CHECK(w == brute, "case %d: search %" PRId64 " vs brute force %" PRId64, k, w, brute);
        CHECK(pw_model_best_width(&cases[k % 3], kind, 7) <= 7, "w_max respected");
    }

    /* TILED: the engines' integer lag.  h = 128: w = 32 -> ceil(127/32) + 1 = 5 tiles of lag,
     * w = 29 -> 6; so with the same d and tau_s T(29) > T(32) although 29 is below 32, and at
     * divisors of h the fill equals the continuous model's (h/w + 1 = 5 at w = 32). */
    pw_model_params g = {65536, 65536, 128, 512, 3e-9, 5e-7, 0};
    CHECK(pw_model_time(&g, PW_MODEL_TILED, 29) > pw_model_time(&g, PW_MODEL_TILED, 32), "tiled lag penalises w = 29");
    pw_model_params one_round = {65536, 65536, 128, 512, 3e-9, 5e-7, 0}; /* 512 tile-rows, P = 512: fill + tail only */
    double fill32 = 512 * 5 * (32 * 3e-9 + 5e-7), tail32 = (65536.0 / 32 - 1) * (32 * 3e-9 + 5e-7);
    CHECK(near(pw_model_time(&one_round, PW_MODEL_TILED, 32), fill32 + tail32, 1e-12), "tiled T(32) = %.9g, want %.9g",
          pw_model_time(&one_round, PW_MODEL_TILED, 32), fill32 + tail32);
    CHECK(pw_model_closed_form(&g, PW_MODEL_TILED) < 0, "tiled has no closed form");

    /* CHUNKED: a lag of (h - 1 + chunk) steps whatever w is.  By hand, the one-round case above
     * with chunk 32 at w = 32: L = (127 + 32)/32 = 4.96875 tiles, fill 512 L c, tail as before; at
     * w = 4096, L c = 159 (d + tau_s/4096): the fill shrinks as tiles widen, where TILED's grows. */
    pw_model_params gc = one_round;
    gc.chunk = 32;
    const double c32 = 32 * 3e-9 + 5e-7, fillc32 = 512 * (159.0 / 32) * c32;
    CHECK(near(pw_model_time(&gc, PW_MODEL_CHUNKED, 32), fillc32 + tail32, 1e-12), "chunked T(32) = %.9g, want %.9g",
          pw_model_time(&gc, PW_MODEL_CHUNKED, 32), fillc32 + tail32);
    const double c4096 = 4096 * 3e-9 + 5e-7, fillc4096 = 512 * 159 * (3e-9 + 5e-7 / 4096), tail4096 = (65536.0 / 4096 - 1) * c4096;
    CHECK(near(pw_model_time(&gc, PW_MODEL_CHUNKED, 4096), fillc4096 + tail4096, 1e-12), "chunked T(4096) = %.9g, want %.9g",
          pw_model_time(&gc, PW_MODEL_CHUNKED, 4096), fillc4096 + tail4096);
    CHECK(pw_model_best_width(&gc, PW_MODEL_CHUNKED, 65536 + 128) > pw_model_best_width(&gc, PW_MODEL_TILED, 65536 + 128),
          "chunked picks wider tiles than tiled (%" PRId64 " vs %" PRId64 ")",
          pw_model_best_width(&gc, PW_MODEL_CHUNKED, 65536 + 128), pw_model_best_width(&gc, PW_MODEL_TILED, 65536 + 128));
    CHECK(pw_model_closed_form(&gc, PW_MODEL_CHUNKED) < 0, "chunked has no closed form");
    test_fit_kind();
    training_retries_clamped_fits();
    test_api_width();
    auto_width_pick();
    return test_finish();
}
