/* linear_buffers.c - see linear_buffers.h. */
#include <stdlib.h>

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
