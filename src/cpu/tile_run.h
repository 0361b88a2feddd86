/* tile_run.h - compute one tile on the CPU: by the kernel's tile processor when it has one, else
 * its lanes in order, each a left-to-right segment. */
#ifndef PW_TILE_RUN_H
#define PW_TILE_RUN_H

#include "../core/exec.h"

static inline void pw_cpu_run_tile(const pw_tiling *t, const pw_kernel *k, int64_t r, int64_t c,
                                   int worker)
{
    if (k->tile) {
        k->tile(k->ctx, r, c, worker);
        return;
    }
    int64_t lanes = pw_tiling_lanes(t, r);
    for (int64_t lane = 0; lane < lanes; lane++) {
        int64_t jb, je;
        pw_tiling_segment(t, r, c, lane, &jb, &je);
        if (jb < je) k->segment(k->ctx, r * t->h + lane, jb, je, worker);
    }
}

#endif
