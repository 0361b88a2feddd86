/* png_read.c - 8- and 16-bit greyscale PNG through libpng (grey 1/2/4-bit is widened to 8 bits,
 * an alpha channel is dropped).  Colour images are refused rather than converted: summing
 * channels silently would give numbers the user did not ask for. */
#include <stdlib.h>
#include <string.h>

#include "image_file.h"
#include "io_util.h"

#ifdef PEERWAVE_HAVE_PNG
#include <png.h>

typedef struct png_failure {
    char *err;
    int errlen;
    const char *path;
} png_failure;

static void on_error(png_structp png, png_const_charp message)
{
    png_failure *fail = png_get_error_ptr(png);
    io_fail(fail->err, fail->errlen, "%s: corrupt PNG (%s)", fail->path, message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png, (void)message; /* benign (e.g. unknown ancillary chunks): not worth a line */
}

int png_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen)
{
    memset(img, 0, sizeof *img);
    png_failure fail = {err, errlen, path};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &fail, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return io_fail(err, errlen, "%s: out of memory", path);
    }
    /* volatile: these change between setjmp and a longjmp back into it. */
    void *volatile data = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(data);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), colour = png_get_color_type(png, info);
    if (colour != PNG_COLOR_TYPE_GRAY && colour != PNG_COLOR_TYPE_GRAY_ALPHA) {
        io_fail(err, errlen, "%s: colour PNG; convert it to greyscale first (8 or 16 bit)", path);
        png_longjmp(png, 1);
    }
    if (depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (colour & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
    if (depth == 16) png_set_swap(png); /* PNG is big-endian; we want host order */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t esize = depth == 16 ? 2 : 1;
    /* Deflate cannot compress by more than 1032:1, so a header claiming more pixels than that
     * over the whole file is corrupt: refuse before allocating. */
    int64_t file_bytes = io_remaining_bytes(f);
    if (file_bytes >= 0 && (uint64_t)w * h * esize / 1032 > (uint64_t)file_bytes + 1024) {
        io_fail(err, errlen, "%s: corrupt PNG (%lux%lu pixels cannot fit in %lld bytes)", path, (unsigned long)w,
                (unsigned long)h, (long long)file_bytes);
        png_longjmp(png, 1);
    }
    data = io_alloc((uint64_t)w * h, esize, path, err, errlen);
    rows = data ? malloc(sizeof *rows * h) : NULL;
    if (!rows) {
        if (data) io_fail(err, errlen, "%s: out of memory", path);
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = (png_bytep)data + (size_t)y * w * esize;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    img->type = depth == 16 ? PW_U16 : PW_U8;
    img->rows = h;
    img->cols = img->stride = w;
    img->data = data;
    return 0;
}
#else
int png_read_stream(FILE *f, const char *path, pw_image *img, char *err, int errlen)
{
    (void)f;
    memset(img, 0, sizeof *img);
    return io_fail(err, errlen, "%s: this build has no PNG support (install libpng-dev and rebuild)", path);
}
#endif
