/* tile_graph.c - a wavefront's tiles as a task graph (tile_graph.h). */
#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"
#include "tile_graph.h"

/* The task (in sweep 0's numbering) of row r's tile that brings its progress to `need`. */
static int64_t task_reaching(const pw_tiling *t, const int64_t *row_at, int64_t r, int64_t need)
{
    return row_at[r] + pw_tiling_tile_reaching(t, r, need) - pw_tiling_first_tile(t, r);
}

/* The most tasks a task waits for: left, above, and the previous sweep's rows R .. R + M (those
 * that exist). */
static int64_t max_predecessors(const pw_tiling *t)
{
    const int64_t rows = pw_tiling_sweep_rows_below(t) + 1;
    return 2 + (rows < t->n_rows ? rows : t->n_rows);
}

/* The tasks task k = s * per_sweep + i waits for, into pred[] (at most max_predecessors); their
 * count. */
static int predecessors(const pw_tiling *t, const pw_tile_graph *g, int64_t k, int64_t *pred)
{
    const int64_t s = k / g->per_sweep, i = k % g->per_sweep, base = s * g->per_sweep, r = g->tile_row[i];
    const int64_t c = pw_tiling_first_tile(t, r) + i - g->row_at[r];
    int n = 0;
    if (i > g->row_at[r]) pred[n++] = k - 1;                                              /* left */
    if (r > 0) pred[n++] = base + task_reaching(t, g->row_at, r - 1, pw_tiling_need(t, r, c)); /* above */
    if (s > 0) {
        const int64_t prev = base - g->per_sweep;
        for (int64_t m = 0; m <= pw_tiling_sweep_rows_below(t) && r + m < t->n_rows; m++) {
            const int64_t need = pw_tiling_need_prev(t, r, m, c);
            if (need > 0) pred[n++] = prev + task_reaching(t, g->row_at, r + m, need);
        }
    }
    return n;
}

void pw_tile_graph_free(pw_tile_graph *g)
{
    free(g->row_at), free(g->tile_row), free(g->deps), free(g->succ_at), free(g->succ);
    g->row_at = g->tile_row = g->succ_at = g->succ = NULL;
    g->deps = NULL;
}

pw_status pw_tile_graph_build(const pw_tiling *t, pw_tile_graph *g) { return pw_tile_graph_build_sweeps(t, 1, g); }

pw_status pw_tile_graph_build_sweeps(const pw_tiling *t, int64_t sweeps, pw_tile_graph *g)
{
    const int64_t rows = t->n_rows;
    g->count = g->per_sweep = 0;
    g->row_at = g->tile_row = g->succ_at = g->succ = NULL;
    g->deps = NULL;
    const int64_t most = max_predecessors(t);
    if (sweeps < 1) return PW_ERR_UNSUPPORTED;
    g->row_at = pw_malloc(sizeof *g->row_at * (size_t)(rows + 1));
    if (!g->row_at) return PW_ERR_OUT_OF_MEMORY;
    g->row_at[0] = 0;
    for (int64_t r = 0; r < rows; r++) g->row_at[r + 1] = g->row_at[r] + pw_tiling_end_tile(t, r) - pw_tiling_first_tile(t, r);
    const int64_t per = g->per_sweep = g->row_at[rows];
    int64_t n;
    if (__builtin_mul_overflow(per, sweeps, &n) || n > (int64_t)(SIZE_MAX / 16 / (size_t)most)) { /* (exec.c batches far below) */
        pw_tile_graph_free(g);
        return PW_ERR_SIZE_OVERFLOW;
    }
    g->count = n;
    const size_t n1 = (size_t)(n ? n : 1);
    g->deps = pw_calloc(n1, sizeof *g->deps);
    g->succ_at = pw_calloc((size_t)n + 2, sizeof *g->succ_at);
    int64_t *pred = pw_malloc(sizeof *pred * (size_t)most);
    g->tile_row = pw_malloc(sizeof *g->tile_row * (size_t)(per ? per : 1));
    int64_t *fill = pw_malloc(sizeof *fill * n1);
    if (!g->deps || !g->succ_at || !g->tile_row || !fill || !pred) {
        free(fill);
        free(pred);
        pw_tile_graph_free(g);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = g->row_at[r]; i < g->row_at[r + 1]; i++) g->tile_row[i] = r;
    /* edges into each task: counted as successors of their sources, then placed (CSR) */
    for (int64_t k = 0; k < n; k++) {
        const int m = predecessors(t, g, k, pred);
        g->deps[k] = m;
        for (int e = 0; e < m; e++) g->succ_at[pred[e] + 1]++;
    }
    for (int64_t k = 0; k < n; k++) g->succ_at[k + 1] += g->succ_at[k];
    g->succ = pw_malloc(sizeof *g->succ * (size_t)(g->succ_at[n] ? g->succ_at[n] : 1)); /* (the edges, counted) */
    if (!g->succ) {
        free(fill);
        free(pred);
        pw_tile_graph_free(g);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t k = 0; k < n; k++) fill[k] = g->succ_at[k];
    for (int64_t k = 0; k < n; k++) {
        const int m = predecessors(t, g, k, pred);
        for (int e = 0; e < m; e++) g->succ[fill[pred[e]]++] = k;
    }
    free(fill);
    free(pred);
    return PW_OK;
}
