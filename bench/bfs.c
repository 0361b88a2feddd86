/*
 * bfs.c - breadth-first search on the task engine against the textbook queue (issue 31), CPU:
 *   - a road-network-like grid (rows x cols, 4 neighbours, both ways: a diameter of rows + cols);
 *   - an R-MAT (Kronecker) graph, scale S, 16 edges a vertex, both ways (a low diameter).
 * Each engine: median of 3 runs, the levels checked against the textbook search's.  --gpu: the
 * GPU's engines (task engine on per-SM queues and on one queue, and the one-launch-per-level
 * baseline; kernel time, not the graph's copy) against the same CPU textbook search.
 *
 *   bench_bfs [--grid RxC] [--rmat SCALE] [--threads T] [--gpu]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_tasks.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

typedef struct edge_array {
    int64_t *from, *to, n, cap;
} edge_array;

static void push(edge_array *e, int64_t u, int64_t v)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1 << 20;
        e->from = realloc(e->from, sizeof(int64_t) * (size_t)e->cap);
        e->to = realloc(e->to, sizeof(int64_t) * (size_t)e->cap);
        if (!e->from || !e->to) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    e->from[e->n] = u, e->to[e->n] = v, e->n++;
}

static pw_graph csr(int64_t vertices, const edge_array *e)
{
    int64_t *off = calloc((size_t)vertices + 1, sizeof *off), *tg = malloc(sizeof *tg * (size_t)(e->n + 1));
    for (int64_t k = 0; k < e->n; k++) off[e->from[k] + 1]++;
    for (int64_t v = 0; v < vertices; v++) off[v + 1] += off[v];
    int64_t *fill = malloc(sizeof *fill * (size_t)vertices);
    memcpy(fill, off, sizeof *fill * (size_t)vertices);
    for (int64_t k = 0; k < e->n; k++) tg[fill[e->from[k]]++] = e->to[k];
    free(fill);
    return (pw_graph){vertices, off, tg};
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int measure(const char *name, const pw_graph *g, int threads, int gpu)
{
    int32_t *ref = malloc(sizeof *ref * (size_t)g->vertices), *got = malloc(sizeof *got * (size_t)g->vertices);
    static const pw_bfs_engine engines[4] = {PW_BFS_SEQUENTIAL, PW_BFS_TASKS, PW_BFS_TASKS_CENTRAL, PW_BFS_LEVELS};
    static const char *const names[4] = {"textbook", "tasks-DQ", "tasks-CQ", "levels"};
    double base = 0;
    int bad = 0;
    pw_options o;
    pw_options_init(&o);
    o.threads = threads;
    for (int e = 0; e < (gpu ? 4 : 3); e++) {
        double t[3];
        pw_bfs_info info = {0};
        o.backend = gpu && e > 0 ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
        for (int r = 0; r < 3; r++) {
            if (pw_bfs(g, 0, engines[e], &o, e == 0 ? ref : got, &info) != PW_OK) {
                printf("%s %s: %s\n", name, names[e], pw_error_detail());
                return 1;
            }
            t[r] = info.seconds;
        }
        qsort(t, 3, sizeof t[0], cmp_double);
        const int same = e == 0 || !memcmp(ref, got, sizeof *ref * (size_t)g->vertices);
        bad += !same;
        if (e == 0) base = t[1];
        printf("%-6s %-4s %-9s %9.2f ms  %8.1f MTEPS  %6.2fx textbook  depth %d  reached %lld  tasks %lld  steals %lld  "
               "threads %d  %s\n",
               name, o.backend == PW_BACKEND_CUDA ? "gpu" : "cpu", names[e], 1e3 * t[1], (double)info.edges / t[1] / 1e6, base / t[1], info.depth,
               (long long)info.reached, (long long)info.tasks, (long long)info.steals, info.threads,
               same ? "levels checked" : "LEVELS DIFFER");
    }
    free(ref), free(got);
    return bad;
}

int main(int argc, char **argv)
{
    int64_t rows = 2048, cols = 2048, scale = 20;
    int threads = 0, gpu = 0;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--grid") && k + 1 < argc) sscanf(argv[++k], "%ldx%ld", &rows, &cols);
        else if (!strcmp(argv[k], "--rmat") && k + 1 < argc) scale = atol(argv[++k]);
        else if (!strcmp(argv[k], "--threads") && k + 1 < argc) threads = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--gpu")) gpu = 1;
        else {
            fprintf(stderr, "usage: bench_bfs [--grid RxC] [--rmat SCALE] [--threads T] [--gpu]\n");
            return 2;
        }
    }
    int bad = 0;
    edge_array e = {0};
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            const int64_t v = i * cols + j;
            if (i + 1 < rows) push(&e, v, v + cols), push(&e, v + cols, v);
            if (j + 1 < cols) push(&e, v, v + 1), push(&e, v + 1, v);
        }
    pw_graph grid = csr(rows * cols, &e);
    printf("grid %ldx%ld: %lld vertices, %lld edges\n", (long)rows, (long)cols, (long long)grid.vertices, (long long)e.n);
    bad += measure("grid", &grid, threads, gpu);
    free((void *)grid.offsets), free((void *)grid.targets);
    e.n = 0;
    const int64_t n = (int64_t)1 << scale;
    for (int64_t k = 0; k < 8 * n; k++) { /* R-MAT, a = 0.57, b = c = 0.19 (Graph 500) */
        int64_t u = 0, v = 0;
        for (int64_t bit = 0; bit < scale; bit++) {
            const double x = (double)(next_rand() >> 11) / 9007199254740992.0;
            const int right = x >= 0.57 && x < 0.76, down = x >= 0.76 && x < 0.95, both = x >= 0.95;
            u = 2 * u + (down || both), v = 2 * v + (right || both);
        }
        push(&e, u, v), push(&e, v, u);
    }
    pw_graph rmat = csr(n, &e);
    printf("rmat scale %ld: %lld vertices, %lld edges\n", (long)scale, (long long)n, (long long)e.n);
    bad += measure("rmat", &rmat, threads, gpu);
    free((void *)rmat.offsets), free((void *)rmat.targets), free(e.from), free(e.to);
    return bad ? 1 : 0;
}
