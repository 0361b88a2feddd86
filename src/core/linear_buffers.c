/* linear_buffers.c - see linear_buffers.h. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "linear_buffers.h"
#include "alloc.h"

pw_status pw_linear_buffers_alloc(pw_linear_buffers *b, size_t cell_size, int64_t rows,
                                  int64_t cols)
{
    size_t bus_bytes, col_bytes;
    b->bus = b->left = b->diag = NULL;
    if (!pw_checked_bytes(cols, 1, cell_size, &bus_bytes) ||
        !pw_checked_bytes(rows, 1, cell_size, &col_bytes))
        return PW_ERR_SIZE_OVERFLOW;
    b->cell_size = cell_size;
    b->rows = rows;
    b->bus = pw_malloc(bus_bytes);
    b->left = pw_malloc(col_bytes);
    b->diag = pw_malloc(col_bytes);
    if (!b->bus || !b->left || !b->diag) {
        pw_linear_buffers_free(b);
        return PW_ERR_OUT_OF_MEMORY;
    }
    return PW_OK;
}

void pw_linear_buffers_free(pw_linear_buffers *b)
{
    free(b->bus);
    free(b->left);
    free(b->diag);
    b->bus = b->left = b->diag = NULL;
}

static void linear_put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    const pw_linear_buffers *b = app;
    const size_t cell = b->cell_size;
    memcpy((char *)b->left + (size_t)i0 * cell, src, (size_t)(i1 - i0) * cell);
    const int64_t end = i1 < b->rows - 1 ? i1 : b->rows - 1; /* diag[i + 1] for rows i0 .. end - 1 */
    if (end > i0) memcpy((char *)b->diag + (size_t)(i0 + 1) * cell, src, (size_t)(end - i0) * cell);
}

static void linear_get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    const pw_linear_buffers *b = app;
    memcpy(dst, (const char *)b->left + (size_t)i0 * b->cell_size, (size_t)(i1 - i0) * b->cell_size);
}

void pw_linear_band_io(pw_linear_buffers *b, pw_band_io *io)
{
    *io = (pw_band_io){.app = b, .bytes_per_row = b->cell_size, .put_left = linear_put_left,
                       .get_last = linear_get_last};
}
