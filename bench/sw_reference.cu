/*
 * sw_reference.cu - an independent Smith-Waterman reference on the GPU for the largest checks of
 * issue 28 (whole genomes, 262144^2), where the CPU reference takes too long: one kernel launch
 * per anti-diagonal, a thread a cell, plain int32 Gotoh (no tiles, no lanes, no hand-overs, none
 * of the library's code).  Slow but obviously correct.  The same per-diagonal function also runs
 * on the host (--cpu), so its indexing is checked on any machine against `peerwave sw`.
 *
 *   nvcc -O3 -arch=sm_90 -o sw_reference bench/sw_reference.cu
 *   sw_reference [--cpu] [--match 2 --mismatch -1 --gap-open 1 --gap-extend 1] A.fa B.fa
 *
 * Scores as pw_sw's DNA scoring: A C G T (U = T, any case) match each other, every other letter
 * matches nothing; a gap of length L costs gap_open + (L - 1) gap_extend.  Reads the first record
 * of each FASTA file.  Prints score, end_a, end_b as `peerwave sw` does (1-based positions of the
 * last aligned letters, 0 when the score is 0; ties: the smallest end_a, then the smallest end_b)
 * and the seconds the diagonals took.
 *
 * Cells (i, j): i indexes a (rows), j indexes b; anti-diagonal d holds the cells with i + j = d.
 * Three rotating buffers indexed by i hold H, E (gap in a: from the left) and F (from above) of
 * diagonals d, d - 1 and d - 2.  Each row keeps its best (score, j): row i's cells come in order
 * of j, one a diagonal, written only by the thread of that cell, so a strict > keeps the smallest
 * j; the host then takes the best row with the smallest i.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "fasta_first.h"
#include <string.h>
#include <time.h>

#define NEG_INF (-(1 << 29)) /* far below any score, and no wrap when a penalty is taken off it */

typedef struct params {
    int32_t match, mismatch, open, extend;
} params;

typedef struct diagonals {
    int32_t *h[3], *e[3], *f[3]; /* [d % 3][i] */
    int32_t *best;               /* [i]: row i's best score so far */
    int64_t *best_j;             /* [i]: its smallest column */
} diagonals;

__host__ __device__ static inline int32_t max2(int32_t x, int32_t y) { return x > y ? x : y; }

/* Cell (i, d - i) of diagonal d. */
__host__ __device__ static inline void cell(const uint8_t *a, const uint8_t *b, params p, diagonals g, int64_t d,
                                            int64_t i)
{
    const int64_t j = d - i;
    const int cur = (int)(d % 3), prev = (int)((d + 2) % 3), prev2 = (int)((d + 1) % 3);
    /* left (i, j - 1) and up (i - 1, j) are on diagonal d - 1, diag (i - 1, j - 1) on d - 2 */
    const int32_t left_h = j > 0 ? g.h[prev][i] : 0, left_e = j > 0 ? g.e[prev][i] : NEG_INF;
    const int32_t up_h = i > 0 ? g.h[prev][i - 1] : 0, up_f = i > 0 ? g.f[prev][i - 1] : NEG_INF;
    const int32_t diag_h = i > 0 && j > 0 ? g.h[prev2][i - 1] : 0;
    const int32_t s = a[i] == b[j] && a[i] < 4 ? p.match : p.mismatch;
    const int32_t e = max2(left_e - p.extend, left_h - p.open);
    const int32_t f = max2(up_f - p.extend, up_h - p.open);
    const int32_t h = max2(max2(0, diag_h + s), max2(e, f));
    g.h[cur][i] = h, g.e[cur][i] = e, g.f[cur][i] = f;
    if (h > g.best[i]) g.best[i] = h, g.best_j[i] = j;
}

__global__ void diagonal_kernel(const uint8_t *a, const uint8_t *b, params p, diagonals g, int64_t d, int64_t i0,
                                int64_t count)
{
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) cell(a, b, p, g, d, i0 + k);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CHECK(x) CUDA_CHECK("sw_reference", x)

int main(int argc, char **argv)
{
    params p = {2, -1, 1, 1}; /* pw_sw_params_init's */
    int on_cpu = 0, files = 0;
    const char *path[2] = {NULL, NULL};
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--cpu")) on_cpu = 1;
        else if (k + 1 < argc && !strcmp(argv[k], "--match")) p.match = atoi(argv[++k]);
        else if (k + 1 < argc && !strcmp(argv[k], "--mismatch")) p.mismatch = atoi(argv[++k]);
        else if (k + 1 < argc && !strcmp(argv[k], "--gap-open")) p.open = atoi(argv[++k]);
        else if (k + 1 < argc && !strcmp(argv[k], "--gap-extend")) p.extend = atoi(argv[++k]);
        else if (files < 2) path[files++] = argv[k];
        else files = 3;
    }
    if (files != 2) {
        fprintf(stderr, "usage: sw_reference [--cpu] [--match M --mismatch X --gap-open O --gap-extend E] A.fa B.fa\n");
        return 2;
    }
    int64_t n = 0, m = 0;
    uint8_t *a = read_fasta(path[0], &n), *b = read_fasta(path[1], &m);
    if (!a || !b || n < 1 || m < 1) {
        fprintf(stderr, "sw_reference: cannot read a sequence from %s or %s\n", path[0], path[1]);
        return 1;
    }
    const size_t ints = sizeof(int32_t) * (size_t)n;
    diagonals g;
    uint8_t *da = a, *db = b;
    if (on_cpu) {
        for (int k = 0; k < 3; k++) g.h[k] = (int32_t *)malloc(ints), g.e[k] = (int32_t *)malloc(ints), g.f[k] = (int32_t *)malloc(ints);
        g.best = (int32_t *)calloc((size_t)n, sizeof(int32_t));
        g.best_j = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
    } else {
        CHECK(cudaMalloc(&da, (size_t)n));
        CHECK(cudaMalloc(&db, (size_t)m));
        CHECK(cudaMemcpy(da, a, (size_t)n, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, b, (size_t)m, cudaMemcpyHostToDevice));
        for (int k = 0; k < 3; k++) {
            CHECK(cudaMalloc(&g.h[k], ints));
            CHECK(cudaMalloc(&g.e[k], ints));
            CHECK(cudaMalloc(&g.f[k], ints));
        }
        CHECK(cudaMalloc(&g.best, ints));
        CHECK(cudaMalloc(&g.best_j, sizeof(int64_t) * (size_t)n));
        CHECK(cudaMemset(g.best, 0, ints));
    }
    const double t0 = now();
    for (int64_t d = 0; d <= n + m - 2; d++) {
        const int64_t i0 = d - (m - 1) > 0 ? d - (m - 1) : 0, i1 = d < n - 1 ? d : n - 1; /* rows of diagonal d */
        const int64_t count = i1 - i0 + 1;
        if (on_cpu) {
            for (int64_t i = i0; i <= i1; i++) cell(da, db, p, g, d, i);
        } else {
            diagonal_kernel<<<(unsigned)((count + 255) / 256), 256>>>(da, db, p, g, d, i0, count);
            if ((d & 65535) == 0) CHECK(cudaGetLastError());
        }
    }
    int32_t *best = g.best;
    int64_t *best_j = g.best_j;
    if (!on_cpu) {
        CHECK(cudaDeviceSynchronize());
        best = (int32_t *)malloc(ints);
        best_j = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
        CHECK(cudaMemcpy(best, g.best, ints, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(best_j, g.best_j, sizeof(int64_t) * (size_t)n, cudaMemcpyDeviceToHost));
    }
    const double seconds = now() - t0;
    int32_t score = 0;
    int64_t end_a = -1, end_b = -1;
    for (int64_t i = 0; i < n; i++)
        if (best[i] > score) score = best[i], end_a = i, end_b = best_j[i];
    printf("score: %d\nend_a: %lld\nend_b: %lld\ncells: %lld\nseconds: %.3f\n", score, (long long)(end_a + 1), (long long)(end_b + 1),
           (long long)(n * m), seconds);
    return 0;
}
