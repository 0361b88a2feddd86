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
 *   4. pipelined sweeps: need_prev over rows R .. R + M covers every cell a cell reads of the
 *      previous sweep (the stencils' right and lower neighbours, or random sweep reads set by
 *      pw_tiling_set_sweep_reads: the dependences the other way and farther downwind points),
 *      and is reachable;
 *   5. the step forms (hyper tiles, waits inside a tile): need_at / need_prev_at at a cell's own
 *      step cover its dependences and reads, and grow with the step;
 *   6. the barrier's pipelined sweeps (pw_tiling_sweep_lag) and the tasks engine's graph over
 *      sweeps (tile_graph.h): every cell's tile comes after the tiles of its dependences in its
 *      sweep and of its own cell and its reads in the sweep before (a path in the graph; an
 *      earlier barrier step).
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
static int64_t sweep_graph_misses(const pw_tiling *t, const cell_place *place, int64_t sweeps, const pw_dep *deps, int n_deps,
                                   const pw_dep *reads, int n_reads)
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
                for (int d = 0; d < n_deps; d++) {
                    const int64_t di = i - deps[d].di, dj = j - deps[d].dj;
                    if (di >= 0 && dj >= 0 && dj < W) misses += !BEFORE(TASK(sw, &place[di * W + dj]), k);
                }
                if (sw == 0) continue;
                misses += !BEFORE(TASK(sw - 1, me), k);
                for (int d = 0; d < n_reads; d++) {
                    const int64_t ri = i + reads[d].di, rj = j + reads[d].dj;
                    if (ri < H && rj >= 0 && rj < W) misses += !BEFORE(TASK(sw - 1, &place[ri * W + rj]), k);
                }
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
        /* What a later sweep reads of the one before: the stencils' (1, 0), (0, 1) (pw_tiling_init's
         * default) half the time, else the dependences the other way (a grid cell's) and up to two
         * more downwind points (a 3-D cell's halo, flattened) */
        pw_dep reads[6] = {{1, 0}, {0, 1}};
        int n_reads = 2;
        if (test_rand() % 2) {
            memcpy(reads, deps, sizeof deps[0] * (size_t)n);
            n_reads = n;
            for (int e = (int)test_range(0, 2); e > 0; e--) {
                const int a = (int)test_range(0, 3);
                reads[n_reads++] = (pw_dep){a, (int)test_range(-skew * a, 6)};
            }
            CHECK(pw_tiling_set_sweep_reads(&t, reads, n_reads) == PW_OK, "sweep reads");
        }
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
        /* Pipelined in-place sweeps: sweep t-1 has computed every cell a cell of tile (R, c) reads
         * (its own and the reads) once rows R + m, m = 0 .. M, reach need_prev(m) (and the step
         * form at the cell's own step, hyper tiles), and those needs are reachable. */
        const int64_t M = pw_tiling_sweep_rows_below(&t);
        for (int64_t i = 0; i < H; i++)
            for (int64_t j = 0; j < W; j++) {
                const cell_place *me = &place[i * W + j];
                for (int d = -1; d < n_reads; d++) {
                    const int64_t ri = i + (d < 0 ? 0 : reads[d].di), rj = j + (d < 0 ? 0 : reads[d].dj);
                    if (ri >= H || rj < 0 || rj >= W) continue;
                    const cell_place *nb = &place[ri * W + rj];
                    const int64_t m = nb->tile_row - me->tile_row;
                    if (m < 0 || m > M) {
                        bad_peer++;
                        continue;
                    }
                    bad_peer += !(nb->step < pw_tiling_need_prev(&t, me->tile_row, m, me->tile));
                    if (shape == PW_TILE_HYPER) bad_peer += !(nb->step < pw_tiling_need_prev_at(&t, me->tile_row, m, me->step));
                }
            }
        /* The barrier's pipelined sweeps: sweep t's tile at step diagonal + t L comes after sweep
         * t-1's tiles holding the cells its cells read (which it overwrites while sweep t-1 still
         * reads them), looked at cell by cell. */
        const int64_t L = pw_tiling_sweep_lag(&t);
        bad_barrier += L < 1;
        int64_t bad_graph = 0;
        const int64_t gm = sweep_graph_misses(&t, place, 3, deps, n, reads, n_reads);
        bad_graph = gm > 0 ? gm : 0;
        graphs_checked += gm >= 0;
        for (int64_t i = 0; i < H; i++)
            for (int64_t j = 0; j < W; j++) {
                const cell_place *me = &place[i * W + j];
                const int64_t md = pw_tiling_diagonal(&t, me->tile_row, me->tile);
                for (int d = 0; d < n_reads; d++) {
                    const int64_t ri = i + reads[d].di, rj = j + reads[d].dj;
                    if (ri >= H || rj < 0 || rj >= W) continue;
                    const cell_place *nb = &place[ri * W + rj];
                    bad_barrier += !(pw_tiling_diagonal(&t, nb->tile_row, nb->tile) < md + L);
                }
            }
        for (int64_t r = 0; r < t.n_rows; r++)
            for (int64_t c = pw_tiling_first_tile(&t, r); c < pw_tiling_end_tile(&t, r); c++)
                for (int64_t m = 0; m <= M && r + m < t.n_rows; m++)
                    bad_peer += pw_tiling_need_prev(&t, r, m, c) > pw_tiling_done(&t, r + m, pw_tiling_end_tile(&t, r + m) - 1);
        /* The step forms never shrink as the step grows (a later wait covers an earlier one). */
        for (int64_t r = 0; r < t.n_rows && shape == PW_TILE_HYPER; r++)
            for (int64_t e = pw_tiling_first_step(&t, r); e + 1 < pw_tiling_end_step(&t, r); e++) {
                if (r > 0) bad_peer += pw_tiling_need_at(&t, r, e + 1) < pw_tiling_need_at(&t, r, e);
                for (int64_t m = 0; m <= M && r + m < t.n_rows; m++)
                    bad_peer += pw_tiling_need_prev_at(&t, r, m, e + 1) < pw_tiling_need_prev_at(&t, r, m, e);
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
