/* tile_graph.c - a wavefront's tiles as a task graph (tile_graph.h). */
#include <stdlib.h>

#include "alloc.h"
#include "tile_graph.h"

/* The task of row r - 1 that tile (r, c) waits for. */
static int64_t above(const pw_tiling *t, const int64_t *row_at, int64_t r, int64_t c)
{
    const int64_t first = pw_tiling_first_tile(t, r - 1), end = pw_tiling_end_tile(t, r - 1);
    int64_t cp = (pw_tiling_need(t, r, c) + t->w - 1) / t->w - 1;
    cp = cp < first ? first : cp >= end ? end - 1 : cp;
    return row_at[r - 1] + cp - first;
}

void pw_tile_graph_free(pw_tile_graph *g)
{
    free(g->row_at), free(g->tile_row), free(g->deps), free(g->succ_at), free(g->succ);
    g->row_at = g->tile_row = g->succ_at = g->succ = NULL;
    g->deps = NULL;
}

pw_status pw_tile_graph_build(const pw_tiling *t, pw_tile_graph *g)
{
    const int64_t rows = t->n_rows;
    g->count = 0;
    g->tile_row = g->succ_at = g->succ = NULL;
    g->deps = NULL;
    g->row_at = pw_malloc(sizeof *g->row_at * (size_t)(rows + 1));
    if (!g->row_at) return PW_ERR_OUT_OF_MEMORY;
    g->row_at[0] = 0;
    for (int64_t r = 0; r < rows; r++) g->row_at[r + 1] = g->row_at[r] + pw_tiling_end_tile(t, r) - pw_tiling_first_tile(t, r);
    const int64_t n = g->count = g->row_at[rows];
    const size_t n1 = (size_t)(n ? n : 1);
    g->deps = pw_calloc(n1, sizeof *g->deps);
    g->succ_at = pw_calloc((size_t)n + 2, sizeof *g->succ_at);
    g->succ = pw_malloc(sizeof *g->succ * (2 * n1));
    g->tile_row = pw_malloc(sizeof *g->tile_row * n1);
    int64_t *up = pw_malloc(sizeof *up * n1), *fill = pw_malloc(sizeof *fill * n1); /* (R, c)'s task above, or -1 */
    if (!g->deps || !g->succ_at || !g->succ || !g->tile_row || !up || !fill) {
        free(up), free(fill);
        pw_tile_graph_free(g);
        return PW_ERR_OUT_OF_MEMORY;
    }
    /* edges: left to right in a row, and from above; successors counted, then placed (CSR) */
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = g->row_at[r]; i < g->row_at[r + 1]; i++) {
            const int64_t c = pw_tiling_first_tile(t, r) + i - g->row_at[r];
            g->tile_row[i] = r;
            up[i] = r > 0 ? above(t, g->row_at, r, c) : -1;
            if (i > g->row_at[r]) g->deps[i]++, g->succ_at[i - 1 + 1]++;
            if (up[i] >= 0) g->deps[i]++, g->succ_at[up[i] + 1]++;
        }
    for (int64_t i = 0; i < n; i++) g->succ_at[i + 1] += g->succ_at[i];
    for (int64_t i = 0; i < n; i++) fill[i] = g->succ_at[i];
    for (int64_t r = 0; r < rows; r++)
        for (int64_t i = g->row_at[r]; i < g->row_at[r + 1]; i++) {
            if (i > g->row_at[r]) g->succ[fill[i - 1]++] = i;
            if (up[i] >= 0) g->succ[fill[up[i]]++] = i;
        }
    free(up), free(fill);
    return PW_OK;
}
