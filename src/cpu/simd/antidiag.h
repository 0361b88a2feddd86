/*
 * antidiag.h - how a CPU vector tile processor walks a hyper-tile (docs/DESIGN-NOTES.md, "SW on
 * CPU vectors"), shared by every such processor (apps/sw_simd_kernel.h, apps/dtw_simd_kernel.h).
 *
 * A vector of V lanes holds V consecutive rows of a tile-row (a group); at step s lane l of the
 * group whose first lane is lane g of the tile-row computes column s - g - l.  Up to G groups run
 * in lockstep as one set (group q's lane 0 takes group q-1's last lane of the previous step).  A
 * set works from step g (its lane 0 at column 0) until its last row reaches column m - 1, in
 * blocks of V steps (the FIFO's period); the bus is kept in reversed column order.
 */
#ifndef PW_ANTIDIAG_H
#define PW_ANTIDIAG_H

#include <stdint.h>

#include "../../core/tiling_geometry.h"

#define PW_AD_MAX_GROUPS 4

typedef struct pw_ad_set {
    int64_t i0;                    /* the set's first row */
    int64_t g;                     /* its first lane in the tile-row = its first step */
    int groups;                    /* groups in the set (1 .. max) */
    int valid[PW_AD_MAX_GROUPS];   /* rows of each group inside the tile-row (the last may be short) */
    int64_t b0, b1;                /* its steps in this tile, multiples of V: [b0, b1) */
} pw_ad_set;

/* The set of tile (r, c) that starts at lane *g (advanced past it), at most max_groups groups
 * of V rows.  Returns 0 when the tile-row has no lanes left.  s->b0 >= s->b1: nothing to do in
 * this tile.  (t->w and every group start are multiples of V.) */
static inline int pw_ad_next_set(const pw_tiling *t, int64_t r, int64_t c, int64_t m, int V, int max_groups,
                                 int64_t *g, pw_ad_set *s)
{
    const int64_t lanes = pw_tiling_lanes(t, r);
    if (*g >= lanes) return 0;
    const int64_t groups_left = (lanes - *g + V - 1) / V;
    s->groups = groups_left < max_groups ? (int)groups_left : max_groups;
    s->g = *g;
    s->i0 = r * t->h + *g;
    for (int q = 0; q < s->groups; q++) {
        int64_t left = lanes - *g - (int64_t)q * V;
        s->valid[q] = (int)(left < V ? left : V);
    }
    const int64_t s_begin = c * t->w, s_end = (c + 1) * t->w;
    const int64_t last = m - 1 + *g + (int64_t)(s->groups - 1) * V + s->valid[s->groups - 1] - 1;
    s->b0 = s_begin > *g ? s_begin : *g;
    int64_t b1 = s_end < last + 1 ? s_end : last + 1;
    s->b1 = s->b0 + (b1 - s->b0 + V - 1) / V * V;
    *g += (int64_t)s->groups * V;
    return 1;
}

/* Does the block whose first group's lane 0 starts at column j0 have lanes outside the matrix
 * (left of column 0, right of column m - 1, or rows past the tile-row: the last of the groups has
 * valid_last rows)? */
static inline int pw_ad_block_is_edge(int64_t j0, int groups, int valid_last, int V, int64_t m)
{
    return j0 - (int64_t)(groups - 1) * V < V - 1 || j0 + V - 1 >= m || valid_last < V;
}

/* The slot of a store of rows every - 1, 2 every - 1, ... (`slots` of them) that set s of tile-row
 * r fills as it writes the bus, or -1: only the set whose last group's last lane (the lane the bus
 * takes) is the tile-row's last row, and only where that row is a saved one.  (With `every` a
 * multiple of the tile height a saved row always ends a whole tile-row, whose groups are whole.) */
static inline int64_t pw_ad_saved_slot(const pw_tiling *t, int64_t r, const pw_ad_set *s, int V, int64_t every,
                                       int64_t slots)
{
    const int64_t lanes = pw_tiling_lanes(t, r);
    if (every < 1 || s->g + (int64_t)s->groups * V < lanes || s->valid[s->groups - 1] != V) return -1;
    const int64_t row = s->i0 + (int64_t)(s->groups - 1) * V + V - 1;
    if (row != r * t->h + lanes - 1 || (row + 1) % every != 0) return -1;
    const int64_t slot = (row + 1) / every - 1;
    return slot < slots ? slot : -1;
}

#endif
