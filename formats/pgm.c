/* pgm.c - Netpbm greymaps: P5 (binary; 16-bit samples big-endian) and P2 (plain text), maxval
 * 1 .. 65535.  Samples above maxval and truncated data are errors, not clamped or zero-filled.
 * A P5 file's first image is read; anything after it is named in a warning (io_warn). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "image_file.h"
#include "io_util.h"

/* The next character that is not white space or in a '#' comment (EOF at the end). */
static int next_token_char(FILE *f)
{
    int c;
    for (;;) {
        c = getc(f);
        if (c == '#')
            while (c != '\n' && c != EOF) c = getc(f);
        else if (!isspace(c))
            return c;
    }
}

/* The next header number, skipping white space and '#' comments; -1 if none. */
static int64_t header_number(FILE *f)
{
    int c = next_token_char(f);
    if (!isdigit(c)) return -1;
    int64_t v = 0;
    while (isdigit(c)) {
        if (v > 100000000) return -1;
        v = v * 10 + (c - '0');
        c = getc(f);
    }
    /* a comment may follow a number at once (pgm(5); Netpbm's pm_getc reads it as the newline that
     * ends it): "3#c\n 2" is 3 and 2, and after maxval the comment's newline is the one white space
     * character before the raster */
    if (c == '#')
        while (c != '\n' && c != EOF) c = getc(f);
    if (c != EOF && !isspace(c)) return -1;
    return v; /* the one white space character after maxval has been consumed */
}

int pgm_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen)
{
    memset(img, 0, sizeof *img);
    char m[2];
    if (fread(m, 1, 2, f) != 2 || m[0] != 'P' || (m[1] != '5' && m[1] != '2'))
        return io_fail(err, errlen, "%s: not a PGM file (P2 or P5)", path);
    int binary = m[1] == '5';
    int64_t w = header_number(f), h = header_number(f), maxval = header_number(f);
    if (w <= 0 || h <= 0) return io_fail(err, errlen, "%s: bad PGM width or height", path);
    if (maxval < 1 || maxval > 65535) return io_fail(err, errlen, "%s: bad PGM maxval (1..65535)", path);
    int wide = maxval > 255;
    /* Before allocating: the samples must be in the file (P5: 1 or 2 bytes each, P2: at least 2). */
    int64_t left = io_remaining_bytes(f);
    if (left >= 0 && (uint64_t)w * (uint64_t)h > (uint64_t)left / (binary ? (wide ? 2 : 1) : 2) + 1)
        return io_fail(err, errlen, "%s: truncated PGM: %lldx%lld samples need more than the %lld bytes left",
                       path, (long long)w, (long long)h, (long long)left);
    img->type = wide ? PW_U16 : PW_U8;
    img->rows = h;
    img->cols = img->stride = w;
    img->data = io_alloc((uint64_t)w * (uint64_t)h, wide ? 2 : 1, path, err, errlen);
    if (!img->data) return -1;
    uint8_t *p8 = img->data;
    uint16_t *p16 = img->data;
    int64_t n = w * h;
    for (int64_t k = 0; k < n; k++) {
        int64_t v;
        if (binary) {
            int hi = wide ? getc(f) : 0, lo = getc(f);
            if (hi == EOF || lo == EOF) {
                free(img->data), img->data = NULL;
                return io_fail(err, errlen, "%s: truncated PGM data (%lld of %lld samples)", path, (long long)k, (long long)n);
            }
            v = hi << 8 | lo;
        } else {
            v = header_number(f);
            if (v < 0) {
                free(img->data), img->data = NULL;
                return io_fail(err, errlen, "%s: sample %lld of %lld is missing or not a number", path, (long long)k + 1, (long long)n);
            }
        }
        if (v > maxval) {
            free(img->data), img->data = NULL;
            return io_fail(err, errlen, "%s: sample %lld is %lld, above maxval %lld", path, (long long)k + 1, (long long)v, (long long)maxval);
        }
        if (wide) p16[k] = (uint16_t)v;
        else p8[k] = (uint8_t)v;
    }
    if (!binary && next_token_char(f) != EOF) { /* a plain PGM holds one image: only blanks and comments after it */
        free(img->data), img->data = NULL;
        return io_fail(err, errlen, "%s: data after the %lld samples of a %lldx%lld plain PGM", path, (long long)n,
                       (long long)w, (long long)h);
    }
    if (binary) {
        /* A P5 file may hold a sequence of images (Netpbm, since 2000).  Like Netpbm's own
         * single-image programs we take the first one -- but say so, rather than drop the rest
         * unseen.  (White space alone after the raster is a harmless slip of some writers.) */
        int c;
        do c = getc(f);
        while (c != EOF && isspace(c));
        if (c != EOF) {
            const int64_t more = io_remaining_bytes(f); /* (after c; -1 on a pipe) */
            char bytes[48] = "more data";
            if (more >= 0) snprintf(bytes, sizeof bytes, "%lld more bytes", (long long)more + 1);
            io_warn("%s: %s after the %lldx%lld image (a P5 file may hold several images): only the first is read",
                    path, bytes, (long long)w, (long long)h);
        }
    }
    return 0;
}
