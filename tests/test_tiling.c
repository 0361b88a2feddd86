/*
 * test_tiling.c - the tile geometry proved on many shapes without running any recurrence.
 *
 * For random (H, W, dependence set -> skew, shape, h, w) it checks that
 *   1. the segments of all tiles cover every cell exactly once;
 *   2. peer rule: every dependence of a cell in tile (R, c) is either earlier in the same tile
 *      (lane order, then column order), in an earlier tile of row R, or in a row above that
 *      tile-row R-1 has finished when its progress reaches need(R, c);
 *   3. barrier rule: every dependence lies in an earlier tile diagonal, or earlier in the same tile;
 *      and no two tiles of one diagonal write the same column range's bus entries out of order
 *      (checked as: no cell of a concurrent tile is a dependence);
 *   4. pipelined sweeps (skew 0): need_prev_same / need_prev_below cover the previous sweep's
 *      right and lower neighbours of every cell, and are reachable;
 *   5. the step forms (hyper tiles, waits inside a tile): need_at / need_prev_same_at /
 *      need_prev_below_at at a cell's own step cover its dependences, and grow with the step;
 *   6. the barrier's pipelined sweeps (pw_tiling_sweep_lag) and the tasks engine's graph over
 *      sweeps (tile_graph.h): every cell's tile comes after the tiles of its upper and left
 *      neighbours in its sweep and of its own cell, right and lower neighbours in the sweep
 *      before (a path in the graph; an earlier barrier step).
 */
#include <string.h>

#include "../src/core/tile_graph.h"
#include "../src/core/tiling.h"
#include "test_util.h"

typedef struct cell_place {
    int64_t tile_row, tile, order; /* order: position in the tile's lane-major visit order */
    int64_t step;                  /* the step at which the cell's tile-row processes it */
} cell_place;

static void place_cells(const pw_tiling *t, cell_place *place, int *covered)
{
    for (int64_t r = 0; r < t->n_rows; r++)
        for (int64_t c = pw_tiling_first_tile(t, r); c < pw_tiling_end_tile(t, r); c++) {
            int64_t order = 0;
            for (int64_t k = 0; k < pw_tiling_lanes(t, r); k++) {
                int64_t jb, je, i = r * t->h + k;
                pw_tiling_segment(t, r, c, k, &jb, &je);
                for (int64_t j = jb; j < je; j++) {
                    cell_place *p = &place[i * t->cols + j];
                    covered[i * t->cols + j]++;
                    p->tile_row = r;
                    p->tile = c;
                    p->order = order++;
                    int64_t x = j + (int64_t)t->skew * i;
                    p->step = t->shape == PW_TILE_HYPER ? x + k : x;
                }
            }
        }
}

/* 6 for the graph over `sweeps` sweeps: the dependences (above) with no path in the graph, or
 * edges that point backwards; -1 when the graph is too large to check here. */
static int64_t sweep_graph_misses(const pw_tiling *t, const cell_place *place, int64_t sweeps)
{
    pw_tile_graph g;
    if (pw_tile_graph_build_sweeps(t, sweeps, &g) != PW_OK) return 1;
    const int64_t n = g.count, words = (n + 63) / 64, H = t->rows, W = t->cols;
    if (n > 3000) {
        pw_tile_graph_free(&g);
        return -1;
    }
    /* ancestors as bit sets, in task order (every edge must point forward) */
    uint64_t *anc = calloc((size_t)(n * words), sizeof *anc);
    int64_t misses = 0;
    for (int64_t k = 0; k < n; k++) {
        anc[k * words + k / 64] |= 1ull << (k % 64);
        for (int64_t e = g.succ_at[k]; e < g.succ_at[k + 1]; e++) {
            const int64_t v = g.succ[e];
            if (v <= k) { misses++; continue; }
            for (int64_t x = 0; x < words; x++) anc[v * words + x] |= anc[k * words + x];
        }
    }
#define TASK(sw, p) ((sw) * g.per_sweep + g.row_at[(p)->tile_row] + (p)->tile - pw_tiling_first_tile(t, (p)->tile_row))
#define BEFORE(a, b) ((anc[(b) * words + (a) / 64] >> ((a) % 64)) & 1)
    for (int64_t sw = 0; sw < sweeps; sw++)
        for (int64_t i = 0; i < H; i++)
            for (int64_t j = 0; j < W; j++) {
                const cell_place *me = &place[i * W + j];
                const int64_t k = TASK(sw, me);
                if (i > 0) misses += !BEFORE(TASK(sw, &place[(i - 1) * W + j]), k);
                if (j > 0) misses += !BEFORE(TASK(sw, &place[i * W + j - 1]), k);
                if (sw == 0) continue;
                misses += !BEFORE(TASK(sw - 1, me), k);
                if (i + 1 < H) misses += !BEFORE(TASK(sw - 1, &place[(i + 1) * W + j]), k);
                if (j + 1 < W) misses += !BEFORE(TASK(sw - 1, &place[i * W + j + 1]), k);
            }
#undef TASK
#undef BEFORE
    free(anc);
    pw_tile_graph_free(&g);
    return misses;
}

static int earlier_in_tile(const cell_place *dep, const cell_place *me)
{
    return dep->tile_row == me->tile_row && dep->tile == me->tile && dep->order < me->order;
}

int main(void)
{
    test_seed(12345);
    int graphs_checked = 0;
    for (int trial = 0; trial < 400; trial++) {
        int64_t H = test_range(1, 70), W = test_range(1, 70);
        pw_dep deps[4];
        int n = 0;
        deps[n++] = (pw_dep){1, 0};
        deps[n++] = (pw_dep){0, 1};
        if (test_rand() % 2) deps[n++] = (pw_dep){1, 1};
        if (test_rand() % 3 == 0) deps[n++] = (pw_dep){(int)test_range(1, 3), -(int)test_range(1, 4)};
        int skew;
        CHECK(pw_deps_skew(deps, n, &skew) == PW_OK, "skew");
        pw_tile_shape shape = test_rand() % 2 ? PW_TILE_HYPER : PW_TILE_SQUARE;
        int64_t h = test_range(1, 20), w = test_range(1, 40);
        pw_tiling t;
        CHECK(pw_tiling_init(&t, H, W, skew, shape, h, w) == PW_OK, "init");
        cell_place *place = calloc((size_t)(H * W), sizeof *place);
        int *covered = calloc((size_t)(H * W), sizeof *covered);
        place_cells(&t, place, covered);
        int bad_cover = 0, bad_peer = 0, bad_barrier = 0;
        for (int64_t i = 0; i < H; i++)
            for (int64_t j = 0; j < W; j++) {
                bad_cover += covered[i * W + j] != 1;
                const cell_place *me = &place[i * W + j];
                for (int d = 0; d < n; d++) {
                    int64_t di = i - deps[d].di, dj = j - deps[d].dj;
                    if (di < 0 || dj < 0 || dj >= W) continue;
                    const cell_place *dep = &place[di * W + dj];
                    /* peer */
                    int ok = earlier_in_tile(dep, me) ||
                             (dep->tile_row == me->tile_row && dep->tile < me->tile) ||
                             (dep->tile_row == me->tile_row - 1 &&
                              dep->step < pw_tiling_need(&t, me->tile_row, me->tile)) ||
                             dep->tile_row < me->tile_row - 1;
                    bad_peer += !ok;
                    /* step form: R-1 at need_at(the cell's step) has done the dependence */
                    if (shape == PW_TILE_HYPER && dep->tile_row == me->tile_row - 1)
                        bad_peer += !(dep->step < pw_tiling_need_at(&t, me->tile_row, me->step));
                    /* barrier */
                    int64_t dd = pw_tiling_diagonal(&t, dep->tile_row, dep->tile);
                    int64_t md = pw_tiling_diagonal(&t, me->tile_row, me->tile);
                    bad_barrier += !(dd < md || earlier_in_tile(dep, me));
                }
            }
        /* Pipelined in-place sweeps (skew 0): sweep t-1 has computed the right and lower
         * neighbours of every cell of tile (R, c) once its rows R and R + 1 reach need_prev_same
         * and need_prev_below, and those needs are reachable. */
        for (int64_t i = 0; i < H && skew == 0; i++)
            for (int64_t j = 0; j < W; j++) {
                const cell_place *me = &place[i * W + j];
                const cell_place *right = j + 1 < W ? &place[i * W + j + 1] : NULL;
                const cell_place *below = i + 1 < H ? &place[(i + 1) * W + j] : NULL;
                const cell_place *nbs[2] = {right, below};
                for (int k = 0; k < 2; k++) {
                    const cell_place *nb = nbs[k];
                    if (!nb) continue;
                    if (nb->tile_row == me->tile_row) {
                        bad_peer += !(nb->step < pw_tiling_need_prev_same(&t, me->tile_row, me->tile));
                        if (shape == PW_TILE_HYPER)
                            bad_peer += !(nb->step < pw_tiling_need_prev_same_at(&t, me->tile_row, me->step));
                    } else {
                        bad_peer += !(nb->tile_row == me->tile_row + 1 &&
                                      nb->step < pw_tiling_need_prev_below(&t, me->tile_row, me->tile));
                        if (shape == PW_TILE_HYPER && nb->tile_row == me->tile_row + 1)
                            bad_peer += !(nb->step < pw_tiling_need_prev_below_at(&t, me->tile_row, me->step));
                    }
                }
            }
        /* The barrier's pipelined sweeps: sweep t's tile at step diagonal + t L comes after sweep
         * t-1's tiles holding its cells' right and lower neighbours (which it overwrites while
         * sweep t-1 still reads them), looked at cell by cell. */
        const int64_t L = skew == 0 ? pw_tiling_sweep_lag(&t) : 1;
        bad_barrier += L < 1;
        int64_t bad_graph = 0;
        if (skew == 0) {
            const int64_t m = sweep_graph_misses(&t, place, 3);
            bad_graph = m > 0 ? m : 0;
            graphs_checked += m >= 0;
        }
        for (int64_t i = 0; i < H && skew == 0; i++)
            for (int64_t j = 0; j < W; j++) {
                const cell_place *me = &place[i * W + j];
                const int64_t md = pw_tiling_diagonal(&t, me->tile_row, me->tile);
                if (j + 1 < W) {
                    const cell_place *right = &place[i * W + j + 1];
                    bad_barrier += !(pw_tiling_diagonal(&t, right->tile_row, right->tile) < md + L);
                }
                if (i + 1 < H) {
                    const cell_place *below = &place[(i + 1) * W + j];
                    bad_barrier += !(pw_tiling_diagonal(&t, below->tile_row, below->tile) < md + L);
                }
            }
        for (int64_t r = 0; r < t.n_rows && skew == 0; r++)
            for (int64_t c = pw_tiling_first_tile(&t, r); c < pw_tiling_end_tile(&t, r); c++) {
                bad_peer += pw_tiling_need_prev_same(&t, r, c) > pw_tiling_done(&t, r, pw_tiling_end_tile(&t, r) - 1);
                if (r + 1 < t.n_rows)
                    bad_peer += pw_tiling_need_prev_below(&t, r, c) > pw_tiling_done(&t, r + 1, pw_tiling_end_tile(&t, r + 1) - 1);
            }
        /* The step forms never shrink as the step grows (a later wait covers an earlier one). */
        for (int64_t r = 0; r < t.n_rows && shape == PW_TILE_HYPER; r++)
            for (int64_t e = pw_tiling_first_step(&t, r); e + 1 < pw_tiling_end_step(&t, r); e++) {
                if (r > 0) bad_peer += pw_tiling_need_at(&t, r, e + 1) < pw_tiling_need_at(&t, r, e);
                bad_peer += pw_tiling_need_prev_same_at(&t, r, e + 1) < pw_tiling_need_prev_same_at(&t, r, e);
                if (r + 1 < t.n_rows)
                    bad_peer += pw_tiling_need_prev_below_at(&t, r, e + 1) < pw_tiling_need_prev_below_at(&t, r, e);
            }
        /* A row's progress must reach the end of its steps: need() is clamped there.  And the
         * tile rule is the step form at the tile's last step (the CUDA runtime's tile wait is
         * written that way). */
        for (int64_t r = 1; r < t.n_rows; r++) {
            int64_t last = pw_tiling_end_tile(&t, r - 1) - 1;
            for (int64_t c = pw_tiling_first_tile(&t, r); c < pw_tiling_end_tile(&t, r); c++) {
                bad_peer += pw_tiling_need(&t, r, c) > pw_tiling_done(&t, r - 1, last);
                bad_peer += pw_tiling_need(&t, r, c) != pw_tiling_need_at(&t, r, pw_tiling_last_step(&t, r, c));
            }
        }
        CHECK(bad_cover == 0 && bad_peer == 0 && bad_barrier == 0 && bad_graph == 0,
              "H=%" PRId64 " W=%" PRId64 " skew=%d %s h=%" PRId64 " w=%" PRId64
              ": cover %d peer %d barrier %d graph %" PRId64, H, W, skew, shape == PW_TILE_HYPER ? "hyper" : "square",
              h, w, bad_cover, bad_peer, bad_barrier, bad_graph);
        free(place);
        free(covered);
    }
    CHECK(graphs_checked >= 100, "only %d graphs over sweeps small enough to check", graphs_checked);
    /* Hand-derived values of DESIGN.md section 3: f = 0, hyper, h = 8, w = 4: tile j of row r+1
     * needs (j+1)w + h - 1 steps of row r. */
    pw_tiling t;
    pw_tiling_init(&t, 100, 100, 0, PW_TILE_HYPER, 8, 4);
    CHECK(pw_tiling_need(&t, 1, 0) == 11 && pw_tiling_need(&t, 1, 5) == 31, "need values");
    CHECK(t.lag == 2, "lag = ceil(7/4) = 2, got %" PRId64, t.lag);
    int skew = -1;
    CHECK(pw_deps_skew((pw_dep[]){{1, 0}, {0, 1}, {1, 1}}, 3, &skew) == PW_OK && skew == 0, "skew 0");
    CHECK(pw_deps_skew((pw_dep[]){{1, -1}, {0, 1}}, 2, &skew) == PW_OK && skew == 1, "skew 1");
    CHECK(pw_deps_skew((pw_dep[]){{2, -3}}, 1, &skew) == PW_OK && skew == 2, "skew ceil(3/2)");
    return test_finish();
}
