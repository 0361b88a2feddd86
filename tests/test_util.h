/*
 * test_util.h - the little the tests share: a seeded RNG, random awkward shapes, and checks
 * that count failures.  Every test prints "N passed, N failed" last and exits non-zero on any
 * failure.  PW_TEST_SEED in the environment replays a run.
 */
#ifndef PW_TEST_UTIL_H
#define PW_TEST_UTIL_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peerwave.h"

static long test_passed, test_failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            test_passed++;                                                 \
        } else {                                                           \
            test_failed++;                                                 \
            if (test_failed <= 20) {                                       \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

/* Whether a CUDA device runs a 4 x 4 SW here (0 in a build without CUDA or where no GPU answers). */
static inline int test_cuda_device_runs(pw_status *why)
{
    pw_options probe;
    pw_options_init(&probe);
    probe.backend = PW_BACKEND_CUDA;
    pw_sw_params p;
    pw_sw_params_init(&p);
    pw_sw_result res;
    const pw_status st = pw_sw("ACGT", 4, "ACGT", 4, &p, &probe, &res);
    if (why) *why = st;
    return st != PW_ERR_NO_DEVICE && st != PW_ERR_UNSUPPORTED;
}

/* The GPU tests' first step: 1 (after printing SKIP) where no CUDA device runs a 4 x 4 SW, so
 * the caller returns 77 (CTest SKIP). */
static inline int test_no_cuda_device(void)
{
    pw_status st;
    if (test_cuda_device_runs(&st)) return 0;
    printf("SKIP: no CUDA device (%s)\n", pw_status_str(st));
    return 1;
}

static inline int test_finish(void)
{
    printf("%ld passed, %ld failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

/* wall-clock seconds, for a test's progress lines (never a pass criterion) */
static inline double test_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* splitmix64 */
static uint64_t test_rng_state;

static inline void test_seed(uint64_t fallback)
{
    const char *s = getenv("PW_TEST_SEED");
    test_rng_state = s ? strtoull(s, NULL, 10) : fallback;
    printf("seed %" PRIu64 "\n", test_rng_state);
}

static inline uint64_t test_rand(void)
{
    uint64_t z = (test_rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static inline int64_t test_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(test_rand() % (uint64_t)(hi - lo + 1));
}

static inline double test_unit(void) { return (double)(test_rand() >> 11) / 9007199254740992.0; }

/* n letters drawn from `alphabet` (a string). */
static inline void test_random_sequence(char *s, int64_t n, const char *alphabet)
{
    const size_t k = strlen(alphabet);
    for (int64_t x = 0; x < n; x++) s[x] = alphabet[test_rand() % k];
}

static const int64_t test_primes[] = {2, 3, 5, 7, 13, 31, 61, 127, 257, 509, 1021, 1999};

/* One dimension of an awkward shape: 1, tiny, prime, odd, or large (<= max). */
static inline int64_t test_dim(int64_t max)
{
    int64_t v;
    switch (test_rand() % 6) {
    case 0: v = 1; break;
    case 1: v = test_range(1, 9); break;
    case 2: v = test_primes[test_rand() % (sizeof test_primes / sizeof test_primes[0])]; break;
    case 3: v = test_range(10, 300); break;
    case 4: v = test_range(300, max); break;
    default: v = 64 * test_range(1, 8) + test_range(-1, 1); break; /* near tile multiples */
    }
    return v < 1 ? 1 : (v > max ? max : v);
}

/* A random shape with rows * cols <= max_cells. */
static inline void test_shape(int64_t max_dim, int64_t max_cells, int64_t *rows, int64_t *cols)
{
    do {
        *rows = test_dim(max_dim);
        *cols = test_dim(max_dim);
    } while (*rows * *cols > max_cells);
}

/* The CPU sequential reference engine. */
static inline pw_options test_sequential_options(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.strategy = PW_STRATEGY_SEQUENTIAL;
    return o;
}

/* Random engine options: a non-sequential strategy, shape, tile sizes and 1..8 threads. */
static inline void test_random_options(pw_options *o, int64_t rows, int64_t cols)
{
    pw_options_init(o);
    o->backend = PW_BACKEND_CPU;
    static const pw_strategy random_strategies[] = {PW_STRATEGY_PEER, PW_STRATEGY_GLOBAL_BARRIER, PW_STRATEGY_TASKS};
    o->strategy = random_strategies[test_rand() % 3];
    o->shape = test_rand() % 3 ? PW_TILE_HYPER : PW_TILE_SQUARE;
    o->threads = (int)test_range(1, 8);
    int64_t maxh = rows < 96 ? rows : 96;
    o->tile_h = test_rand() % 5 ? (int)test_range(1, maxh) : 0;
    int64_t maxw = cols + 40;
    o->tile_w = test_rand() % 5 ? test_range(1, maxw < 700 ? maxw : 700) : 0;
    if (o->shape == PW_TILE_SQUARE && test_rand() % 2) o->tile_w = o->tile_h;
    /* Keep the tile count (one hand-off each) bounded so oversubscribed CI cores stay quick. */
    if (o->tile_h && o->tile_w) {
        int64_t tiles = (rows / o->tile_h + 1) * (cols / o->tile_w + 1);
        if (tiles > 20000) o->tile_w = o->tile_w * (tiles / 20000 + 1);
    }
}

static inline const char *test_describe(const pw_options *o)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s %s h=%d w=%" PRId64 " threads=%d",
             o->strategy == PW_STRATEGY_PEER         ? "peer"
             : o->strategy == PW_STRATEGY_SEQUENTIAL ? "seq"
             : o->strategy == PW_STRATEGY_TASKS      ? "tasks"
                                                     : "barrier",
             o->shape == PW_TILE_HYPER ? "hyper" : "square", o->tile_h, o->tile_w, o->threads);
    return buf;
}

/* ---- allocation fault injection (src/core/alloc.h) ---------------------------------------- */
void pw_debug_alloc_reset(void);
long pw_debug_alloc_count(void);

/* Run every app on a small problem with the options given while allocation k fails, for k = 1,
 * 2, ... until a run needs fewer than k allocations.  Each run must return PW_OK (and then the
 * right answer: some failures are survived, e.g. by falling back to the scalar cells) or
 * PW_ERR_OUT_OF_MEMORY; leaks are the sanitizer build's and the caller's
 * business (after_run is called after every run, e.g. to compare free device memory). */
static inline void test_alloc_failures(const pw_options *o, void (*after_run)(const char *app, int k))
{
    static const char *const apps[] = {"sw", "dtw", "sat", "inthist", "heat", "generic"};
    int64_t rows = 67, cols = 93;
    uint8_t img[67 * 93];
    int32_t out32[8 * 67 * 93];
    double grid[67 * 93], series[93];
    for (int k = 0; k < rows * cols; k++) img[k] = (uint8_t)(k * 13), grid[k] = k % 7;
    for (int k = 0; k < cols; k++) series[k] = k % 5;
    char text[93];
    for (int k = 0; k < cols; k++) text[k] = "ACGT"[k * 7 % 4];
    for (int a = 0; a < 5; a++) {
        int failures = 0;
        for (int k = 1; k < 60; k++) {
            char v[16];
            snprintf(v, sizeof v, "%d", k);
            setenv("PEERWAVE_DEBUG_FAIL_ALLOC", v, 1);
            pw_debug_alloc_reset();
            pw_status st;
            int right = 1;
            if (a == 0) {
                pw_sw_params p;
                pw_sw_params_init(&p);
                pw_sw_result r;
                st = pw_sw(text, 67, text, 93, &p, o, &r);
                right = st != PW_OK || r.score == 134;
            } else if (a == 1) {
                pw_dtw_result r;
                st = pw_dtw_f64(series, 67, series, 93, PW_DTW_ABSOLUTE, o, &r);
            } else if (a == 2) {
                pw_image in = {PW_U8, rows, cols, 0, img}, out = {PW_I32, rows, cols, 0, out32};
                st = pw_sat(&in, &out, o, NULL);
                int64_t total = 0;
                for (int q = 0; q < rows * cols; q++) total += img[q];
                right = st != PW_OK || out32[rows * cols - 1] == total;
            } else if (a == 3) {
                pw_image in = {PW_U8, rows, cols, 0, img};
                st = pw_inthist(&in, 8, 0, 256, out32, o, NULL);
            } else {
                pw_image g = {PW_F64, rows, cols, 0, grid};
                st = pw_heat(&g, 2, o, NULL, NULL);
            }
            const long made = pw_debug_alloc_count();
            unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
            if (after_run) after_run(apps[a], k);
            CHECK(st == PW_OK || st == PW_ERR_OUT_OF_MEMORY, "%s with allocation %d failing: %s", apps[a], k, pw_status_str(st));
            CHECK(right, "%s with allocation %d failing: wrong answer", apps[a], k);
            if (made < k) break; /* fewer than k allocations: every one has been failed once */
            failures++;
        }
        CHECK(failures > 0, "%s: no allocation failure was injected", apps[a]);
    }
}

#endif
