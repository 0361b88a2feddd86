/*
 * sw_warp_rows.cu - the harness of SW's warp-rows engine (src/cuda/device/sw_warp_rows_proc.cuh,
 * which the library runs for long pairs: src/cuda/sw_warp_rows.cu) without building the library:
 * its kernels at any R (rows a thread) and blocks an SM, on random shapes against a CPU Gotoh
 * (score and end cell), on random pairs and on FASTA files, timed by CUDA events.  The issue-28
 * experiment that led to the engine (bench/sw_warp_rows_sweep.sh, _probe.sh) runs on it.
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -Ibench [-DPW_R=16] [-DPW_SWR_BLOCKS_PER_SM=3] -o sw_warp_rows bench/sw_warp_rows.cu
 *   sw_warp_rows --shapes 40                      random shapes against a CPU Gotoh (the check;
 *                                                 a third on one or two blocks: several rounds)
 *   sw_warp_rows --random 262144 262144 [--runs 3]  random DNA, median of the runs
 *   sw_warp_rows A.fa B.fa [--match 1 --mismatch -3 --gap-open 5 --gap-extend 2]
 *   (--pairs: the 16-bit pairs kernel for any of these; --balance: the fewest warps for the
 *   rounds the whole GPU needs, so that no round runs a few tile-rows alone, as the library does;
 *   --linear-cell: where gap open == extend, the H-only linear cell)
 * Scores as pw_sw's DNA scoring and bench/sw_reference.cu: A C G T (any case, U = T) match each
 * other, every other letter matches nothing; a gap of length L costs gap_open + (L - 1) gap_extend.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "fasta_first.h"
#include "../src/cuda/device/sw_warp_rows_proc.cuh"

#define CHECK(x) CUDA_CHECK("sw_warp_rows", x)

#ifndef PW_R /* rows a thread: -DPW_R=8, 12, 16, 20 (a multiple of 4) */
#define PW_R 16
#endif
enum { R = PW_R, ROWS = 32 * R, ALPHABET = 5, LETTERS = ALPHABET + 1, BLOCK_WARPS = PW_SWR_BLOCK_WARPS };

/* ---- host ---------------------------------------------------------------------------------- */

typedef struct params { int match, mismatch, open, extend; } params;

static int pair_score(const params *p, uint8_t x, uint8_t y) { return x < 4 && x == y ? p->match : p->mismatch; }

/* A best cell: the score, and (pw_sw's rule) the smallest row, then column, holding it. */
typedef struct best_cell { int score, i, j; } best_cell;

/* The pairs' stored 0 as src/cuda/sw_warp_rows.cu sets it: -32768 + max(128, open + extend). */
static int pair_floor(const params *p) { return -32768 + (p->open + p->extend > 128 ? p->open + p->extend : 128); }

/* The textbook Gotoh in linear space (rows of a, columns of b): the best cell, row by row with a
 * strict > (so the smallest row, then column). */
static best_cell cpu_best(const uint8_t *a, int n, const uint8_t *b, int m, const params *p)
{
    int *H = (int *)calloc((size_t)m + 1, sizeof(int)), *F = (int *)malloc(sizeof(int) * ((size_t)m + 1));
    for (int j = 0; j <= m; j++) F[j] = -(1 << 29);
    best_cell best = {0, -1, -1};
    for (int i = 1; i <= n; i++) {
        int diag = 0, left = 0, E = -(1 << 29);
        for (int j = 1; j <= m; j++) {
            E = (E - p->extend > left - p->open) ? E - p->extend : left - p->open;
            F[j] = (F[j] - p->extend > H[j] - p->open) ? F[j] - p->extend : H[j] - p->open;
            int h = diag + pair_score(p, a[i - 1], b[j - 1]);
            h = h > E ? h : E;
            h = h > F[j] ? h : F[j];
            h = h > 0 ? h : 0;
            diag = H[j];
            H[j] = h;
            left = h;
            if (h > best.score) best = (best_cell){h, i - 1, j - 1};
        }
    }
    free(H);
    free(F);
    return best;
}

/* One run: the best cell, and the kernel's seconds (CUDA events). */
static int max_blocks; /* --blocks B: at most B blocks (the shape check's rounds); 0: as many as fit */

static int balance;    /* --balance: as few warps as give the same rounds (every round full) */
static int last_warps, last_rounds; /* the last run's W and rounds, for the report */
static int pairs;      /* --pairs: the 16-bit pairs kernel (two tile-rows a warp) */
static int overflowed; /* the last pairs run's best may have wrapped */
static int linear_cell; /* --linear-cell: where gap open == extend, the kernels' H-only linear cell */

static best_cell run_gpu(const uint8_t *a, int n, const uint8_t *b, int m, const params *p, double *seconds)
{
    const int64_t tile_rows = (n + ROWS - 1) / ROWS;
    const bool linear = linear_cell && p->open == p->extend;
    const void *kernel = pairs ? (linear ? (const void *)pw_swr_pairs_kernel<R, false, false, true>
                                         : (const void *)pw_swr_pairs_kernel<R>)
                               : (linear ? (const void *)pw_swr_kernel<R, false, false, true> : (const void *)pw_swr_kernel<R>);
    const size_t smem = pw_swr_smem_bytes(LETTERS, R, pairs);
    int dev = 0, sms = 0, per_sm = 0, coop = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    /* (above 48 KiB a kernel must ask: the library's pw_allow_dynamic_smem) */
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, PW_SWR_THREADS, smem));
    if (!coop) { /* (every warp must be resident: a warp waits on its neighbours) */
        fprintf(stderr, "sw_warp_rows: the GPU has no cooperative launch\n");
        exit(1);
    }
    /* (pairs: a warp takes two tile-rows a round) */
    const int64_t warps_needed = pairs ? (tile_rows + 1) / 2 : tile_rows;
    int64_t grid = (int64_t)sms * per_sm, need = (warps_needed + BLOCK_WARPS - 1) / BLOCK_WARPS;
    if (grid > need) grid = need;
    if (max_blocks > 0 && grid > max_blocks) grid = max_blocks;
    if (grid < 1) grid = 1;
    if (balance) { /* the rounds the full grid needs, then the fewest blocks that still need no more */
        const int64_t per_warp = pairs ? 2 : 1, full_rounds = (tile_rows + per_warp * grid * BLOCK_WARPS - 1) /
                                                             (per_warp * grid * BLOCK_WARPS);
        grid = (tile_rows + per_warp * full_rounds * BLOCK_WARPS - 1) / (per_warp * full_rounds * BLOCK_WARPS);
    }
    const int warps = (int)grid * BLOCK_WARPS;
    const int lag = pairs ? 64 * warps + 256 : 0; /* (sw_warp_rows_proc.cuh, pairs: D) */
    const int64_t columns = (int64_t)m + lag;    /* step-columns */
    const int64_t per_round = (pairs ? 2 : 1) * (int64_t)warps, rounds = (tile_rows + per_round - 1) / per_round;
    if ((rounds + 1) * (columns + 1) >= (int64_t)1 << 32 || n > INT32_MAX - ROWS || columns > INT32_MAX / 2) {
        fprintf(stderr, "sw_warp_rows: %d x %d is too large for the counters\n", n, m);
        exit(1);
    }
    int32_t table[ALPHABET * ALPHABET];
    for (int x = 0; x < ALPHABET; x++)
        for (int y = 0; y < ALPHABET; y++) table[x * ALPHABET + y] = pair_score(p, (uint8_t)x, (uint8_t)y);
    uint8_t *da;
    int32_t *dtable;
    pw_swr_args args;
    memset(&args, 0, sizeof args);
    const size_t prof_words = (size_t)tile_rows * LETTERS * (R / 4) * 32;
    CHECK(cudaMalloc(&da, (size_t)n + 1));
    CHECK(cudaMemcpy(da, a, (size_t)n, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dtable, sizeof table));
    CHECK(cudaMemcpy(dtable, table, sizeof table, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc((void **)&args.profile, prof_words * sizeof(uint32_t)));
    pw_swr_profile_kernel<R><<<1024, 256>>>(da, n, dtable, LETTERS, (int)tile_rows, (uint32_t *)args.profile);
    CHECK(cudaGetLastError());
    CHECK(cudaMalloc((void **)&args.b, (size_t)m + 1));
    CHECK(cudaMemcpy((void *)args.b, b, (size_t)m, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&args.ring, sizeof(int2) * (size_t)warps * PW_SWR_RING));
    CHECK(cudaMalloc(&args.full, sizeof(int2) * 2 * ((size_t)columns + 1)));
    CHECK(cudaMalloc(&args.prod, sizeof(unsigned) * (size_t)warps));
    CHECK(cudaMalloc(&args.cons, sizeof(unsigned) * (size_t)warps));
    CHECK(cudaMalloc(&args.warp_best, sizeof(int4) * (size_t)warps));
    CHECK(cudaMalloc(&args.overflow, 2 * sizeof(int)));
    CHECK(cudaMemset(args.overflow, 0, 2 * sizeof(int)));
    CHECK(cudaMemset(args.prod, 0, sizeof(unsigned) * (size_t)warps));
    CHECK(cudaMemset(args.cons, 0, sizeof(unsigned) * (size_t)warps));
    const int top_score = p->match > p->mismatch ? p->match : p->mismatch;
    args.tile_rows = (int)tile_rows, args.n = n, args.m = m, args.letters = LETTERS;
    args.gap_open = p->open, args.gap_extend = p->extend, args.warps = warps, args.lag = lag;
    args.limit16 = 32767 - (top_score > 0 ? top_score : 0);
    args.floor16 = pair_floor(p); /* (the library's: pairs reach 65535 - K - top) */
    args.error = args.overflow + 1;
    /* PW_SWR_WATCHDOG_S: a profiler's instrumented replays are far slower than a run, and a
     * neighbour's stall there is not a hang (bench/sw_warp_rows_profile.sh sets it). */
    const char *watchdog_s = getenv("PW_SWR_WATCHDOG_S");
    args.watchdog_ns = (long long)((watchdog_s ? atof(watchdog_s) : 10.0) * 1e9);
    last_warps = warps, last_rounds = (int)rounds;
    void *params_list[] = {&args};
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    CHECK(cudaLaunchCooperativeKernel(kernel, dim3((unsigned)grid), dim3(PW_SWR_THREADS), params_list, smem, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    *seconds = ms / 1e3;
    int flags[2];
    CHECK(cudaMemcpy(flags, args.overflow, sizeof flags, cudaMemcpyDeviceToHost));
    overflowed = flags[0];
    if (flags[1]) {
        fprintf(stderr, "sw_warp_rows: the watchdog fired (no progress for PW_SWR_WATCHDOG_S, default 10 s)\n");
        exit(1);
    }
    int4 *bests = (int4 *)malloc(sizeof(int4) * (size_t)warps);
    CHECK(cudaMemcpy(bests, args.warp_best, sizeof(int4) * (size_t)warps, cudaMemcpyDeviceToHost));
    best_cell best = {0, -1, -1};
    for (int w = 0; w < warps; w++)
        if (bests[w].x > best.score || (bests[w].x == best.score && bests[w].x > 0 &&
                                        (bests[w].y < best.i || (bests[w].y == best.i && bests[w].z < best.j))))
            best = (best_cell){bests[w].x, bests[w].y, bests[w].z};
    free(bests);
    cudaFree(da), cudaFree(dtable), cudaFree((void *)args.profile), cudaFree((void *)args.b), cudaFree(args.ring);
    cudaFree(args.full), cudaFree(args.prod), cudaFree(args.cons), cudaFree(args.warp_best), cudaFree(args.overflow);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    return best;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* A random pair: b random DNA, a copies stretches of b with mutations (so scores grow), or random. */
static void random_pair(uint8_t *a, int n, uint8_t *b, int m, int related)
{
    for (int j = 0; j < m; j++) b[j] = (uint8_t)(next_rand() % 4);
    for (int i = 0; i < n; i++) {
        if (related && m > 0 && next_rand() % 20) a[i] = b[(i + 7) % m];
        else a[i] = (uint8_t)(next_rand() % 5 == 4 && next_rand() % 16 == 0 ? 4 : next_rand() % 4);
    }
}

static int by_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    params p = {2, -1, 1, 1};
    int shapes = 0, runs = 1, n = 0, m = 0;
    const char *files[2] = {NULL, NULL};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) max_blocks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pairs")) pairs = 1;
        else if (!strcmp(argv[i], "--balance")) balance = 1;
        else if (!strcmp(argv[i], "--linear-cell")) linear_cell = 1;
        else if (!strcmp(argv[i], "--random") && i + 2 < argc) n = atoi(argv[++i]), m = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--match") && i + 1 < argc) p.match = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--mismatch") && i + 1 < argc) p.mismatch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gap-open") && i + 1 < argc) p.open = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gap-extend") && i + 1 < argc) p.extend = atoi(argv[++i]);
        else if (!files[0]) files[0] = argv[i];
        else if (!files[1]) files[1] = argv[i];
        else {
            fprintf(stderr, "usage: sw_warp_rows --shapes N | --random N M [--runs K] | A.fa B.fa [scores] [--blocks B]\n");
            return 2;
        }
    }
    if (p.match > 127 || p.match < -128 || p.mismatch > 127 || p.mismatch < -127 || p.open < p.extend || p.extend < 0 ||
        p.open + p.extend > 8000) {
        fprintf(stderr, "sw_warp_rows: scores must fit a signed byte, gap open >= gap extend >= 0, open + extend <= 8000\n");
        return 2;
    }
    if (shapes > 0) { /* random shapes against the CPU: awkward sizes (1, primes, around 512) */
        static const int sizes[] = {1, 2, 31, 32, 33, 97, 511, 512, 513, 1000, 1031, 2047, 2048, 2049, 4099, 6007};
        const int count = (int)(sizeof sizes / sizeof sizes[0]);
        int bad = 0;
        for (int k = 0; k < shapes; k++) {
            int sn = k < count ? sizes[k] : sizes[next_rand() % count] + (int)(next_rand() % 300);
            const int sm = sizes[next_rand() % count] + (int)(next_rand() % 3000) + (k % 4 == 3 ? 9000 : 0);
            max_blocks = k % 3 == 2 ? 1 + (int)(next_rand() % 2) : 0; /* rounds, the wrap buffers, ring reuse */
            /* (pairs take two tile-rows a warp a round: rows for more than two rounds of 8 or 16 warps) */
            if (pairs && max_blocks) sn += 2 * 2 * BLOCK_WARPS * max_blocks * ROWS + (int)(next_rand() % ROWS);
            uint8_t *a = (uint8_t *)malloc((size_t)sn + 1), *b = (uint8_t *)malloc((size_t)sm + 1);
            random_pair(a, sn, b, sm, (int)(next_rand() % 2));
            params q = p;
            if (k % 3 == 1) q = (params){1, -3, 5, 2};
            double sec;
            const best_cell got = run_gpu(a, sn, b, sm, &q, &sec), want = cpu_best(a, sn, b, sm, &q);
            if (got.score != want.score || got.i != want.i || got.j != want.j || (pairs && overflowed)) {
                bad++;
                printf("FAIL shape %d x %d (scores %d/%d/%d/%d, %d blocks): %d at (%d, %d)%s, the CPU %d at (%d, %d)\n",
                       sn, sm, q.match, q.mismatch, q.open, q.extend, max_blocks, got.score, got.i, got.j,
                       pairs && overflowed ? " (flagged)" : "", want.score, want.i, want.j);
            }
            free(a);
            free(b);
        }
        max_blocks = 0;
        if (pairs) { /* a score past the pairs' range must be flagged: a pair of equal sequences of 40000 */
            const int len = 40000;
            uint8_t *a = (uint8_t *)malloc(len), *b = (uint8_t *)malloc(len);
            random_pair(a, len, b, len, 0);
            memcpy(a, b, len);
            double sec;
            const params equal = {2, -1, 1, 1}; /* (the score is 80000, whatever the command line says) */
            run_gpu(a, len, b, len, &equal, &sec);
            const int want = cpu_best(a, len, b, len, &equal).score;
            shapes++;
            if (!(overflowed && want > 32767 - equal.match - pair_floor(&equal))) {
                bad++;
                printf("FAIL 40000 equal letters (score %d): overflow %sflagged\n", want, overflowed ? "" : "not ");
            }
            free(a);
            free(b);
        }
        printf("%d shapes: %d passed, %d failed\n", shapes, shapes - bad, bad);
        return bad ? 1 : 0;
    }
    uint8_t *a, *b;
    if (files[0] && files[1]) {
        int64_t la = 0, lb = 0;
        a = read_fasta(files[0], &la);
        b = read_fasta(files[1], &lb);
        if (!a || !b || la > INT32_MAX || lb > INT32_MAX) {
            fprintf(stderr, "sw_warp_rows: cannot read %s and %s (or one is longer than 2^31 letters)\n", files[0], files[1]);
            return 1;
        }
        n = (int)la, m = (int)lb;
    } else if (n > 0 && m > 0) {
        a = (uint8_t *)malloc((size_t)n + 1);
        b = (uint8_t *)malloc((size_t)m + 1);
        random_pair(a, n, b, m, 0);
    } else {
        fprintf(stderr, "usage: sw_warp_rows --shapes N | --random N M [--runs K] | A.fa B.fa [scores]\n");
        return 2;
    }
    double *t = (double *)malloc(sizeof(double) * (size_t)(runs > 0 ? runs : 1));
    best_cell score = {0, -1, -1};
    for (int r = 0; r < runs; r++) score = run_gpu(a, n, b, m, &p, &t[r]);
    qsort(t, (size_t)runs, sizeof *t, by_double);
    const double median = t[runs / 2];
    printf("sw_warp_rows (R = %d, %s%s, %d warps, %d rounds): %d x %d, scores %d/%d/%d/%d: score %d at (%d, %d)%s, kernel %.3f s "
           "(median of %d), %.1f GCUPS\n",
           R, pairs ? "16-bit pairs" : "32-bit lanes", linear_cell && p.open == p.extend ? ", linear cell" : "", last_warps, last_rounds, n, m, p.match, p.mismatch, p.open, p.extend,
           score.score, score.i, score.j,
           pairs && overflowed ? " (16 bits may have wrapped: rerun without --pairs)" : "", median, runs,
           (double)n * m / median / 1e9);
    free(a);
    free(b);
    free(t);
    return 0;
}
