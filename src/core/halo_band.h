/*
 * halo_band.h - the band glue of in-place sweeps over a grid with a halo (core/band.h): a band of
 * columns whose first and last columns are halo columns -- the neighbours' last and first own
 * columns, written by the link while the sweeps run -- and whose own first and last columns go
 * back to them.  Interior row i is grid row i + 1.  One glue for every element size: HEAT and
 * SOR (apps/stencil_impl.h) and users' stencil cells (src/jit/cell_cpu.c).
 */
#ifndef PW_HALO_BAND_H
#define PW_HALO_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "band.h"

typedef struct pw_halo_band {
    unsigned char *grid; /* row 0 of the band's left halo column */
    size_t elem;         /* bytes an element */
    int64_t stride;      /* elements from one grid row to the next */
    int64_t cols;        /* the band's own (interior) columns */
} pw_halo_band;

/* The link's callbacks on b (which must outlive the band's run). */
pw_band_io pw_halo_band_io(pw_halo_band *b);

#endif
