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

static inline int test_finish(void)
{
    printf("%ld passed, %ld failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
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
    o->strategy = test_rand() % 2 ? PW_STRATEGY_PEER : PW_STRATEGY_GLOBAL_BARRIER;
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
             o->strategy == PW_STRATEGY_PEER ? "peer" : o->strategy == PW_STRATEGY_SEQUENTIAL ? "seq" : "barrier",
             o->shape == PW_TILE_HYPER ? "hyper" : "square", o->tile_h, o->tile_w, o->threads);
    return buf;
}

#endif
