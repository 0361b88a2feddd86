/* image_file.c - pick the reader from the file's first bytes, not from its name. */
#include <errno.h>
#include <string.h>

#include "image_file.h"
#include "io_util.h"
#include "npy.h"

static int from_npy(FILE *f, const char *path, pw_image *img, char *err, int errlen)
{
    npy_array a;
    if (npy_read_stream(f, path, &a, err, errlen)) return -1;
    if (a.ndim != 2) {
        npy_free(&a);
        return io_fail(err, errlen, "%s: a %d-dimensional array; an image needs 2 (rows, cols)", path, a.ndim);
    }
    img->type = a.type;
    img->rows = a.shape[0];
    img->cols = img->stride = a.shape[1];
    img->data = a.data;
    return 0;
}

int image_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen)
{
    memset(img, 0, sizeof *img);
    unsigned char head[8] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    if (fseek(f, 0, SEEK_SET)) return io_fail(err, errlen, "%s: cannot seek (pipes are not supported)", path);
    if (got == 0) return io_fail(err, errlen, "%s: empty file", path);
    if (got >= 6 && memcmp(head, "\x93NUMPY", 6) == 0) return from_npy(f, path, img, err, errlen);
    if (got >= 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0) return png_read_stream(f, path, img, err, errlen);
    if (got >= 2 && head[0] == 'P' && (head[1] == '5' || head[1] == '2')) return pgm_read_stream(f, path, img, err, errlen);
    return io_fail(err, errlen, "%s: not a PGM, PNG or .npy file", path);
}

int image_read(const char *path, pw_image *img, char *err, int errlen)
{
    memset(img, 0, sizeof *img);
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    int r = image_read_stream(f, path, img, err, errlen);
    fclose(f);
    return r;
}
