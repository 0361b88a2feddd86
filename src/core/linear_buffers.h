/*
 * linear_buffers.h - storage of linear-space (O(H + W)) recurrences.
 *
 *   bus[j]   : the last finished value of column j.  Row i reads (i-1, j) there and overwrites it
 *              with (i, j); the tile-row below reads it only after the progress counter says so.
 *   left[i]  : row i's value at the last column it finished: (i, j-1) for the next segment.
 *   diag[i]  : (i-1, j-1) for row i's next cell; kept per row because the bus entry is
 *              overwritten by row i before row i needs it as a diagonal.
 * Rows keep their own left/diag, so a worker never reads a bus entry after another row may have
 * overwritten it: the only cross-row reads are of the bus, ordered by the counters.
 */
#ifndef PW_LINEAR_BUFFERS_H
#define PW_LINEAR_BUFFERS_H

#include <stdint.h>
#include "peerwave.h"

typedef struct pw_linear_buffers {
    void *bus;  /* cols cells */
    void *left; /* rows cells */
    void *diag; /* rows cells */
    size_t cell_size;
    int64_t rows;
} pw_linear_buffers;

pw_status pw_linear_buffers_alloc(pw_linear_buffers *b, size_t cell_size, int64_t rows,
                                  int64_t cols);
void pw_linear_buffers_free(pw_linear_buffers *b);

/* A band of columns of a larger run (core/band.h): the left neighbour's last column is row i's
 * left value (i, -1) and row i+1's diagonal; the band's own last column is what left[] holds once
 * a row is done.  Fills io's app, bytes_per_row, put_left and get_last for b (after the segment's
 * _init filled the buffers: the chunks overwrite its boundary values). */
#include "band.h"
void pw_linear_band_io(pw_linear_buffers *b, pw_band_io *io);

#endif
