/* bench_common.h - what the GPU benchmarks share: the paper's six methods (strategy x tile
 * shape x width rule) and the timing loop (one warm-up, median of the timed runs, kernel time
 * from CUDA events as the library reports it in pw_run_info.seconds). */
#ifndef PW_BENCH_COMMON_H
#define PW_BENCH_COMMON_H

#include "peerwave.h"

typedef struct bench_method {
    const char *name;
    pw_strategy strategy;
    pw_tile_shape shape;
    int w_per_h; /* tile_w = w_per_h * h; 0 = the tile-width model (PW+FHT) or automatic */
} bench_method;

extern const bench_method bench_methods[];
extern const int bench_n_methods;

/* One run of the benchmarked call; *check gets a value that must agree across methods. */
typedef pw_status (*bench_fn)(const pw_options *o, pw_run_info *info, double *check);

/* Seconds on the monotonic clock (wall time). */
double bench_now(void);

/* One warm-up and `runs` (1..64) timed runs: median kernel seconds, and median wall seconds of
 * the whole call when wall != NULL; info and check from the last run. */
pw_status bench_measure(bench_fn fn, const pw_options *o, int runs, pw_run_info *info, double *check, double *kernel,
                        double *wall);

#endif
