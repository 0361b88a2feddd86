/* halo_band.c - see halo_band.h. */
#include <stddef.h>
#include <string.h>

#include "halo_band.h"

static int64_t width(const pw_halo_band *b) { return b->width > 0 ? b->width : 1; }

/* Rows [i0, i1) of the edge that starts at element `col` of a row (0: the band's first own one;
 * the left halo is at -width) to or from a packed chunk.  (Only the neighbours' halos are written:
 * the first band's left one, before the grid's start where its halo is narrower, never is.) */
static void column(const pw_halo_band *b, int64_t col, int64_t i0, int64_t i1, void *chunk, int put)
{
    const size_t bytes = (size_t)width(b) * b->elem;
    for (int64_t i = i0; i < i1; i++) {
        unsigned char *at = b->own + ((i + b->top) * b->stride + col) * (ptrdiff_t)b->elem;
        unsigned char *c = (unsigned char *)chunk + (size_t)(i - i0) * bytes;
        if (put) memcpy(at, c, bytes);
        else memcpy(c, at, bytes);
    }
}

static void put_left(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    column(app, -width(app), i0, i1, (void *)src, 1);
}

static void put_right(void *app, int64_t sweep, int64_t i0, int64_t i1, const void *src)
{
    (void)sweep;
    const pw_halo_band *b = app;
    column(b, b->cols, i0, i1, (void *)src, 1);
}

static void get_first(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    column(app, 0, i0, i1, dst, 0);
}

static void get_last(void *app, int64_t sweep, int64_t i0, int64_t i1, void *dst)
{
    (void)sweep;
    const pw_halo_band *b = app; /* (its last `width` own elements) */
    column(b, b->cols - width(b), i0, i1, dst, 0);
}

pw_band_io pw_halo_band_io(pw_halo_band *b)
{
    return (pw_band_io){.app = b, .bytes_per_row = (size_t)width(b) * b->elem, .put_left = put_left, .get_last = get_last,
                        .put_right = put_right, .get_first = get_first};
}
