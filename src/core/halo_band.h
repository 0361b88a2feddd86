/*
 * halo_band.h - the band glue of in-place sweeps over a grid with a halo (core/band.h): a band of
 * columns whose first and last `width` elements a row are halo -- the neighbours' last and first
 * own ones, written by the link while the sweeps run -- and whose own first and last `width` go
 * back to them.  Interior row i is grid row i + top.  One glue for every element size and width:
 * HEAT and SOR (apps/stencil_impl.h: width 1, top 1) and users' stencil and grid cells
 * (src/jit/cell_cpu.c: a grid cell's reach, a grid3 cell's whole (j) slabs of planes).
 */
#ifndef PW_HALO_BAND_H
#define PW_HALO_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "band.h"

typedef struct pw_halo_band {
    unsigned char *own;  /* grid row 0's first element of the band's own: the left halo is the
                            `width` elements before it, the right halo the `width` after its own */
    size_t elem;         /* bytes an element */
    int64_t stride;      /* elements from one grid row to the next */
    int64_t cols;        /* the band's own elements a row, at least width */
    int64_t width;       /* elements a row of each edge (0: 1) */
    int64_t top;         /* grid rows above interior row 0 */
} pw_halo_band;

/* The link's callbacks on b (which must outlive the band's run). */
pw_band_io pw_halo_band_io(pw_halo_band *b);

#endif
