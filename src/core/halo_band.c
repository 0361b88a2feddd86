/* halo_band.c - see halo_band.h. */
#include <string.h>

#include "halo_band.h"

/* Rows [i0, i1) of grid column `column` (0: the left halo) to or from a packed chunk. */
static void column(const pw_halo_band *b, int64_t col, int64_t i0, int64_t i1, void *chunk, int put)
{
    for (int64_t i = i0; i < i1; i++) {
        unsigned char *at = b->grid + ((size_t)(i + 1) * (size_t)b->stride + (size_t)col) * b->elem;
        unsigned char *c = (unsigned char *)chunk + (size_t)(i - i0) * b->elem;
        if (put) memcpy(at, c, b->elem);
        else memcpy(c, at, b->elem);
    }
}

static void put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    column(app, 0, i0, i1, (void *)src, 1);
}

static void put_right(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    column(app, ((pw_halo_band *)app)->cols + 1, i0, i1, (void *)src, 1);
}

static void get_first(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    column(app, 1, i0, i1, dst, 0);
}

static void get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    column(app, ((pw_halo_band *)app)->cols, i0, i1, dst, 0);
}

pw_band_io pw_halo_band_io(pw_halo_band *b)
{
    return (pw_band_io){.app = b, .bytes_per_row = b->elem, .put_left = put_left, .get_last = get_last,
                        .put_right = put_right, .get_first = get_first};
}
