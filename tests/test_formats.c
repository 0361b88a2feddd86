/*
 * test_formats.c - the file readers and writers: .npy round trips over every type and rank,
 * hand-made v2/v3 headers, PGM P2/P5 at 8 and 16 bits, PNG (written here with libpng), text/CSV
 * and .npy series, multi-FASTA by name; and for each a list of malformed inputs that must fail
 * with a message, never crash.  (Compared with numpy itself in test_numpy.sh.)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fasta.h"
#include "fasta_set.h"
#include "series_set.h"
#include "image_file.h"
#include "io_util.h"
#include "npy.h"
#include "series.h"
#include "test_util.h"
#ifdef PEERWAVE_HAVE_ZLIB
#include <zlib.h>
#endif

#ifdef PEERWAVE_HAVE_PNG
#include <png.h>
#endif

static char tmpdir[] = "/tmp/pw_formatsXXXXXX";

static const char *tmp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* ---- .npy ---------------------------------------------------------------------------------- */
static void npy_round_trips(void)
{
    for (int t = 0; t < 60; t++) {
        pw_dtype type = (pw_dtype)(t % PW_DTYPE_COUNT);
        int ndim = 1 + t / PW_DTYPE_COUNT % 3;
        int64_t shape[3], count = 1;
        for (int d = 0; d < ndim; d++) count *= shape[d] = test_range(1, 40);
        size_t bytes = (size_t)count * pw_dtype_size(type);
        unsigned char *data = malloc(bytes);
        for (size_t k = 0; k < bytes; k++) data[k] = (unsigned char)test_rand();
        char err[256];
        const char *path = tmp_path("rt.npy");
        int w = npy_write(path, type, ndim, shape, data, err, sizeof err);
        npy_array a;
        int r = w ? -1 : npy_read(path, &a, err, sizeof err);
        int same = r == 0 && a.type == type && a.ndim == ndim && a.count == count &&
                   memcmp(a.shape, shape, (size_t)ndim * sizeof *shape) == 0 && memcmp(a.data, data, bytes) == 0;
        CHECK(same, "npy round trip %s ndim %d: %s", pw_dtype_name(type), ndim, w || r ? err : "differs");
        FILE *f = fopen(path, "rb");
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fclose(f);
        CHECK((size_t)size >= bytes && (size - (long)bytes) % 64 == 0, "data not 64-byte aligned");
        if (r == 0) npy_free(&a);
        free(data);
    }
}

/* A .npy file from a header dict and data bytes, with format version major (1, 2 or 3). */
static size_t make_npy(unsigned char *buf, int major, const char *dict, const void *data, size_t n)
{
    size_t dl = strlen(dict), pre = major == 1 ? 10 : 12;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    buf[8] = (unsigned char)dl;
    buf[9] = (unsigned char)(dl >> 8);
    if (major > 1) buf[10] = buf[11] = 0;
    memcpy(buf + pre, dict, dl);
    memcpy(buf + pre + dl, data, n);
    return pre + dl + n;
}

static int npy_from_memory(const unsigned char *buf, size_t n, npy_array *a, char *err)
{
    FILE *f = fmemopen((void *)buf, n, "rb");
    int r = npy_read_stream(f, "mem.npy", a, err, 256);
    fclose(f);
    return r;
}

/* Other layouts numpy writes: big-endian data ('>'), and Fortran order (np.save of a transposed
 * array) in 2-D and 3-D, read into host byte order and C order; each element checked against
 * its index computed here.  A band read by offset refuses them, naming the file. */
static void npy_layouts(void)
{
    enum { D0 = 3, D1 = 4, D2 = 5 };
    unsigned char buf[2048];
    char err[256];
    npy_array a;
    /* big-endian int32 and float64 */
    unsigned char be[6 * 8];
    for (int e = 0; e < 6; e++) {
        const int32_t v = -1000 * e + 7;
        for (int b = 0; b < 4; b++) be[4 * e + b] = (unsigned char)((uint32_t)v >> (8 * (3 - b)));
    }
    size_t n = make_npy(buf, 1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2, 3), }", be, 24);
    int r = npy_from_memory(buf, n, &a, err);
    int ok = r == 0 && a.type == PW_I32 && a.big_endian;
    for (int e = 0; ok && e < 6; e++) ok = ((int32_t *)a.data)[e] == -1000 * e + 7;
    CHECK(ok, "big-endian int32: %s", r ? err : "wrong values");
    if (r == 0) npy_free(&a);
    for (int e = 0; e < 6; e++) {
        const double d = 0.25 * e - 1.5;
        uint64_t bits;
        memcpy(&bits, &d, 8);
        for (int b = 0; b < 8; b++) be[8 * e + b] = (unsigned char)(bits >> (8 * (7 - b)));
    }
    n = make_npy(buf, 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (6,), }", be, 48);
    r = npy_from_memory(buf, n, &a, err);
    ok = r == 0 && a.type == PW_F64;
    for (int e = 0; ok && e < 6; e++) ok = ((double *)a.data)[e] == 0.25 * e - 1.5;
    CHECK(ok, "big-endian float64: %s", r ? err : "wrong values");
    if (r == 0) npy_free(&a);
    /* Fortran order: the file holds element (i0, i1[, i2]) at i0 + D0 (i1 + D1 i2); value 100 i0 +
     * 10 i1 + i2 */
    for (int dims = 2; dims <= 3; dims++) {
        const int d2 = dims == 3 ? D2 : 1;
        uint16_t f[D0 * D1 * D2];
        for (int i0 = 0; i0 < D0; i0++)
            for (int i1 = 0; i1 < D1; i1++)
                for (int i2 = 0; i2 < d2; i2++) f[i0 + D0 * (i1 + D1 * i2)] = (uint16_t)(100 * i0 + 10 * i1 + i2);
        n = make_npy(buf, 1, dims == 2 ? "{'descr': '<u2', 'fortran_order': True, 'shape': (3, 4), }"
                                       : "{'descr': '<u2', 'fortran_order': True, 'shape': (3, 4, 5), }",
                     f, sizeof f[0] * (size_t)(D0 * D1 * d2));
        r = npy_from_memory(buf, n, &a, err);
        ok = r == 0 && a.ndim == dims && a.shape[0] == D0 && a.shape[1] == D1 && a.fortran_order;
        for (int i0 = 0; ok && i0 < D0; i0++)
            for (int i1 = 0; ok && i1 < D1; i1++)
                for (int i2 = 0; ok && i2 < d2; i2++)
                    ok = ((uint16_t *)a.data)[(i0 * D1 + i1) * d2 + i2] == 100 * i0 + 10 * i1 + i2;
        CHECK(ok, "Fortran order, %d-D: %s", dims, r ? err : "wrong order");
        if (r == 0) npy_free(&a);
        if (dims == 2) { /* the same file as a band of columns: refused */
            const char *path = tmp_path("fortran.npy");
            write_bytes(path, buf, n);
            int64_t cols = 0;
            err[0] = 0;
            r = npy_read_columns(path, 0, 2, &a, &cols, err, sizeof err);
            CHECK(r == -1 && strstr(err, "fortran.npy") && strstr(err, "C-order"), "band of a Fortran-order file: '%s'", err);
            if (r == 0) npy_free(&a);
        }
    }
}

static void npy_headers(void)
{
    unsigned char buf[1024];
    float v[6] = {1, 2, 3, 4, 5, 6};
    char err[256];
    npy_array a;
    for (int major = 1; major <= 3; major++) {
        size_t n = make_npy(buf, major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", v, sizeof v);
        int r = npy_from_memory(buf, n, &a, err);
        CHECK(r == 0 && a.type == PW_F32 && a.ndim == 2 && a.shape[0] == 2 && a.shape[1] == 3 &&
                  memcmp(a.data, v, sizeof v) == 0,
              "version %d header: %s", major, r ? err : "wrong contents");
        if (r == 0) npy_free(&a);
    }
    /* Spacing and key order as other writers produce them. */
    size_t n = make_npy(buf, 1, "{\"shape\":(6,),\"fortran_order\":False,\"descr\":\"|u1\"}", "abcdef", 6);
    CHECK(npy_from_memory(buf, n, &a, err) == 0 && a.ndim == 1 && a.count == 6, "compact header: %s", err);
    npy_free(&a);

    static const struct {
        const char *dict;
        size_t data;
        const char *why;
    } bad[] = {
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", 24, "not supported"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4, "scalar"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 6), }", 24, "dimensions"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", 0, "empty"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-6,), }", 24, "shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", 24, "shape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3000000000, 3000000000, 3000000000), }", 24, "overflow"},
        {"{'descr': '<f4', 'fortran_order': False }", 24, "lacks"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }", 24, "truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", 24, "longer"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", 24, "structured"},
        {"['descr', '<f4']", 24, "not a dict"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1}", 24, "unexpected key"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,", 24, "malformed"},
        {"{'descr': '<f4", 24, "descr"},
    };
    float data[6] = {0};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        n = make_npy(buf, 1, bad[k].dict, data, bad[k].data);
        err[0] = 0;
        int r = npy_from_memory(buf, n, &a, err);
        CHECK(r == -1 && strstr(err, "mem.npy") && strstr(err, bad[k].why), "bad header %zu (%s): r=%d '%s'", k,
              bad[k].why, r, err);
        if (r == 0) npy_free(&a);
    }
    /* Wrong magic, unknown version, header length past the end. */
    const char *junk[] = {"NUMPY\x01\x00", "\x93NUMPY\x07\x00\x10\x00", "\x93NUMPY\x01\x00\xff\x7f{'descr'"};
    for (int k = 0; k < 3; k++) {
        int r = npy_from_memory((const unsigned char *)junk[k], strlen(junk[k]) + (k == 1 ? 2 : 0), &a, err);
        CHECK(r == -1 && strstr(err, "mem.npy"), "junk %d accepted", k);
    }
}

/* ---- images ---------------------------------------------------------------------------------- */
static int image_from_memory(const void *buf, size_t n, pw_image *img, char *err)
{
    FILE *f = fmemopen((void *)buf, n, "rb");
    int r = image_read_stream(f, "mem.img", img, err, 256);
    fclose(f);
    return r;
}

/* The readers' warnings (io_set_warn), kept for a look. */
static char warned[512];
static int warnings;

static void keep_warning(const char *message)
{
    snprintf(warned, sizeof warned, "%s", message);
    warnings++;
}

static void pgm_cases(void)
{
    char err[256];
    pw_image img;
    const unsigned char p5[] = "P5\n# comment\n3 2\n255\n\x01\x02\x03\xfd\xfe\xff";
    CHECK(image_from_memory(p5, sizeof p5 - 1, &img, err) == 0 && img.type == PW_U8 && img.rows == 2 &&
              img.cols == 3 && ((uint8_t *)img.data)[5] == 255 && ((uint8_t *)img.data)[0] == 1,
          "P5 8-bit: %s", err);
    free(img.data);
    const unsigned char p5w[] = "P5 2 1 65535\n\x01\x02\xff\xfe";
    CHECK(image_from_memory(p5w, sizeof p5w - 1, &img, err) == 0 && img.type == PW_U16 &&
              ((uint16_t *)img.data)[0] == 0x0102 && ((uint16_t *)img.data)[1] == 0xfffe,
          "P5 16-bit big-endian: %s", err);
    free(img.data);
    const char p2[] = "P2\n2 2\n1000\n0 1000\n# mid-data comment\n7 999\n# a comment after the samples\n\n";
    CHECK(image_from_memory(p2, sizeof p2 - 1, &img, err) == 0 && img.type == PW_U16 &&
              ((uint16_t *)img.data)[1] == 1000 && ((uint16_t *)img.data)[3] == 999,
          "P2: %s", err);
    free(img.data);
    /* A comment may follow a number at once (pgm(5); Netpbm's pamfile reads these three as a 3x2
     * image of 1..6): after the width, after maxval (its newline the raster's one white space),
     * and after a plain sample. */
    const char *commented[] = {"P5\n3#c\n 2\n255\n\x01\x02\x03\x04\x05\x06", "P5\n3 2\n255#c\n\x01\x02\x03\x04\x05\x06",
                               "P2\n3 2\n255\n1 2 3#c\n4 5 6\n"};
    for (int k = 0; k < 3; k++) {
        err[0] = 0;
        const int r = image_from_memory(commented[k], strlen(commented[k]), &img, err);
        int sum = 0;
        for (int x = 0; r == 0 && x < 6; x++) sum += ((uint8_t *)img.data)[x];
        CHECK(r == 0 && img.rows == 2 && img.cols == 3 && sum == 21 && ((uint8_t *)img.data)[5] == 6,
              "PGM with a comment right after a number (%d): %s", k, err);
        if (r == 0) free(img.data);
    }
    /* A P5 file may hold several images: the first is read (as Netpbm's single-image programs
     * do), and a warning names what was left; white space alone after the raster is no image. */
    io_set_warn(keep_warning);
    const unsigned char two[] = "P5\n3 2\n255\n\x01\x02\x03\x04\x05\x06P5\n1 1\n255\n\xff";
    warnings = 0;
    CHECK(image_from_memory(two, sizeof two - 1, &img, err) == 0 && img.rows == 2 && img.cols == 3 &&
              ((uint8_t *)img.data)[0] == 1 && ((uint8_t *)img.data)[5] == 6,
          "P5 with a second image: the first one: %s", err);
    free(img.data);
    /* (12 bytes follow the first raster: "P5\n1 1\n255\n" and the sample) */
    CHECK(warnings == 1 && strstr(warned, "mem.img") && strstr(warned, "12 more bytes") && strstr(warned, "first"),
          "P5 with a second image: %d warnings, '%s'", warnings, warned);
    const unsigned char newline[] = "P5\n3 1\n255\n\x01\x02\x03\n";
    warnings = 0;
    CHECK(image_from_memory(newline, sizeof newline - 1, &img, err) == 0 && warnings == 0,
          "P5 and a final newline: %s, %d warnings ('%s')", err, warnings, warned);
    free(img.data);
    warnings = 0;
    CHECK(image_from_memory(p5, sizeof p5 - 1, &img, err) == 0 && warnings == 0, "P5 alone warned: '%s'", warned);
    free(img.data);
    io_set_warn(NULL);
    const char *bad[] = {"P5\n3 2\n255\n\x01\x02", "P5\n0 2\n255\n", "P5\n2 2\n0\n\x01\x01\x01\x01",
                         "P5\n2 2\n70000\n", "P2\n2 1\n10\n5 11\n", "P2\n2 1\n10\n5 x\n", "P6\n1 1\n255\nabc",
                         "P5\n99999999999 99999999999\n255\n", "GIF89a", "P2\n2 1\n10\n5 6\n7\n" /* a sample too many */};
    for (int k = 0; k < (int)(sizeof bad / sizeof bad[0]); k++) {
        err[0] = 0;
        int r = image_from_memory(bad[k], strlen(bad[k]), &img, err);
        CHECK(r == -1 && strstr(err, "mem.img"), "bad image %d accepted or no message: '%s'", k, err);
        if (r == 0) free(img.data);
    }
}

#ifdef PEERWAVE_HAVE_PNG
/* Write a PNG with libpng's writer: colour type and depth as given, pixel values from seed. */
static void write_png(const char *path, int w, int h, int colour, int depth, unsigned char *pixels)
{
    FILE *f = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, colour, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    int channels = colour == PNG_COLOR_TYPE_RGB ? 3 : colour == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
    size_t row = (size_t)w * (size_t)channels * (size_t)(depth / 8);
    for (int y = 0; y < h; y++) png_write_row(png, pixels + (size_t)y * row);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

static void png_cases(void)
{
    char err[256];
    pw_image img;
    int w = 37, h = 11;
    unsigned char *px = malloc((size_t)w * h * 4);
    for (int k = 0; k < w * h * 4; k++) px[k] = (unsigned char)test_rand();
    const char *path = tmp_path("g8.png");
    write_png(path, w, h, PNG_COLOR_TYPE_GRAY, 8, px);
    CHECK(image_read(path, &img, err, sizeof err) == 0 && img.type == PW_U8 && img.rows == h && img.cols == w &&
              memcmp(img.data, px, (size_t)w * h) == 0,
          "8-bit grey PNG: %s", err);
    free(img.data);
    path = tmp_path("g16.png");
    write_png(path, w, h, PNG_COLOR_TYPE_GRAY, 16, px); /* big-endian samples in the file */
    int ok = image_read(path, &img, err, sizeof err) == 0 && img.type == PW_U16;
    for (int k = 0; ok && k < w * h; k++) ok = ((uint16_t *)img.data)[k] == (px[2 * k] << 8 | px[2 * k + 1]);
    CHECK(ok, "16-bit grey PNG: %s", err);
    free(img.data);
    path = tmp_path("ga.png");
    write_png(path, w, h, PNG_COLOR_TYPE_GRAY_ALPHA, 8, px);
    ok = image_read(path, &img, err, sizeof err) == 0 && img.type == PW_U8;
    for (int k = 0; ok && k < w * h; k++) ok = ((uint8_t *)img.data)[k] == px[2 * k];
    CHECK(ok, "grey+alpha PNG keeps the grey channel: %s", err);
    free(img.data);
    path = tmp_path("rgb.png");
    write_png(path, w, h, PNG_COLOR_TYPE_RGB, 8, px);
    CHECK(image_read(path, &img, err, sizeof err) == -1 && strstr(err, "colour"), "RGB PNG refused: '%s'", err);
    /* Corrupt: cut the file short, and flip bytes inside the image data. */
    path = tmp_path("g8.png");
    FILE *f = fopen(path, "rb");
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(image_from_memory(buf, n / 2, &img, err) == -1 && strstr(err, "mem.img"), "truncated PNG accepted");
    for (size_t k = 60; k < n - 20; k += 7) buf[k] ^= 0x5a;
    int r = image_from_memory(buf, n, &img, err);
    CHECK(r == -1 && strstr(err, "corrupt PNG"), "corrupted PNG accepted: '%s'", err);
    if (r == 0) free(img.data);
    free(px);
}
#endif

/* ---- series and FASTA ---------------------------------------------------------------------- */
static int series_from_text(const char *text, const char *column, series *s, char *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "rb");
    int r = series_read_stream(f, "mem.txt", column, s, err, 256);
    fclose(f);
    return r;
}

static void series_cases(void)
{
    char err[256];
    series s;
    static const struct {
        const char *text, *column;
        int n;
        double last;
    } good[] = {
        {"1\n2.5\n-3e2\n", NULL, 3, -300},
        {"# comment\n\n  4 \r\n5\n", NULL, 2, 5},
        {"t,value\n0,1.5\n1,2.5\n", "value", 2, 2.5},
        {"t,value\n0,1.5\n1,2.5\n", "2", 2, 2.5},
        {"0,1.5\n1,2.5\n", "1", 2, 1},
        {"a\tb\n1\t2\n3\t4\n", "b", 2, 4},
        {"7", NULL, 1, 7},
        {"\"t\",\"value\"\n\"0\",\"1.5\"\n\"1\", \"2.5\" \n", "value", 2, 2.5}, /* (csv.QUOTE_ALL) */
        {"\"4\"\n\"5\"\n", NULL, 2, 5},
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        int r = series_from_text(good[k].text, good[k].column, &s, err);
        CHECK(r == 0 && s.type == PW_F64 && s.length == good[k].n && ((double *)s.data)[s.length - 1] == good[k].last,
              "series %zu: %s", k, r ? err : "wrong values");
        if (r == 0) series_free(&s);
    }
    static const struct {
        const char *text, *column, *why;
    } bad[] = {
        {"1\nnan\n", NULL, "not finite"},  {"1\ninf\n", NULL, "not finite"},
        {"1\nabc\n", NULL, "line 2"},      {"", NULL, "empty"},
        {"# only\n\n", NULL, "no numbers"}, {"1,2\n", NULL, "--column"},
        {"a,b\n1,2\n", "c", "no column"},  {"1,2\n3\n", "2", "line 2 has no field"},
        {"1\n2x\n", NULL, "line 2"},       {"1\n\0\n", NULL, "line"},
        {"1\n\"2\n", NULL, "line 2"}, /* (one quote: not a quoted field) */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = 0;
        size_t len = k == 9 ? 4 : strlen(bad[k].text);
        FILE *f = fmemopen((void *)bad[k].text, len ? len : 1, "rb");
        if (!len) fgetc(f); /* fmemopen cannot open 0 bytes: read the one to reach EOF */
        int r = series_read_stream(f, "mem.txt", bad[k].column, &s, err, sizeof err);
        fclose(f);
        CHECK(r == -1 && strstr(err, "mem.txt") && strstr(err, bad[k].why), "bad series %zu: '%s'", k, err);
        if (r == 0) series_free(&s);
    }
    /* .npy series: float32 (n,), float64 (n, 1); an int array and a 2-D grid are refused. */
    float f32[4] = {1, 2, 3, 4.5f};
    int64_t shape[2] = {4, 1};
    const char *path = tmp_path("s.npy");
    npy_write(path, PW_F32, 1, shape, f32, err, sizeof err);
    CHECK(series_read(path, NULL, &s, err, sizeof err) == 0 && s.type == PW_F32 && s.length == 4 &&
              ((float *)s.data)[3] == 4.5f, "f32 npy series: %s", err);
    series_free(&s);
    double f64[4] = {1, 2, 3, -1};
    npy_write(path, PW_F64, 2, shape, f64, err, sizeof err);
    CHECK(series_read(path, NULL, &s, err, sizeof err) == 0 && s.type == PW_F64 && s.length == 4, "(n,1) f64 series: %s", err);
    series_free(&s);
    int32_t i32[4] = {1, -2, 3, 2147483647};
    npy_write(path, PW_I32, 1, shape, i32, err, sizeof err);
    int r = series_read(path, NULL, &s, err, sizeof err);
    CHECK(r == 0 && s.type == PW_F64 && s.length == 4 && ((double *)s.data)[1] == -2 && ((double *)s.data)[3] == 2147483647.0,
          "int32 npy series as float64: %s", r ? err : "wrong values");
    if (r == 0) series_free(&s);
    int64_t i64[4] = {1, 2, (INT64_C(1) << 53) + 1, 4};
    npy_write(path, PW_I64, 1, shape, i64, err, sizeof err);
    err[0] = 0;
    CHECK(series_read(path, NULL, &s, err, sizeof err) == -1 && strstr(err, "2^53"), "int64 past 2^53 refused: '%s'", err);
    err[0] = 0;
    CHECK(series_read(path, "2", &s, err, sizeof err) == -1 && strstr(err, "no columns"), "--column of a .npy: '%s'", err);
    int64_t grid[2] = {2, 2};
    npy_write(path, PW_F32, 2, grid, f32, err, sizeof err);
    CHECK(series_read(path, NULL, &s, err, sizeof err) == -1, "2x2 npy series refused");
    f64[2] = 0.0 / 0.0;
    npy_write(path, PW_F64, 1, shape, f64, err, sizeof err);
    CHECK(series_read(path, NULL, &s, err, sizeof err) == -1 && strstr(err, "NaN"), "NaN in npy series: '%s'", err);
}

static void fasta_cases(void)
{
    char err[256];
    fasta_record r;
    const char *path = tmp_path("multi.fa");
    const char text[] = ">one first\nACGT\nacgt\n>two\nNNRY-KM\n>three\nW*\n";
    write_bytes(path, text, sizeof text - 1);
    CHECK(fasta_read(path, NULL, &r, err, sizeof err) == 0 && !strcmp(r.name, "one") && !strcmp(r.seq, "ACGTacgt"),
          "first record: %s", err);
    fasta_free(&r);
    CHECK(fasta_read(path, "two", &r, err, sizeof err) == 0 && !strcmp(r.seq, "NNRYKM"), "record by name: %s", err);
    fasta_free(&r);
    CHECK(fasta_read(path, "three", &r, err, sizeof err) == 0 && !strcmp(r.seq, "W*"), "last record: %s", err);
    fasta_free(&r);
    CHECK(fasta_read(path, "four", &r, err, sizeof err) == -1 && strstr(err, "no record named 'four'"), "missing name: %s", err);
    write_bytes(path, ">x\nAC\n>  two  words\nGG\n", 23);
    CHECK(fasta_read(path, "two", &r, err, sizeof err) == 0 && !strcmp(r.name, "two") && !strcmp(r.seq, "GG"),
          "a name after blanks picked: %s", err);
    fasta_free(&r);
    /* a header with no name is the record named "" (">" and "> " alike: only "> " was, before 2026-12-03) */
    for (int k = 0; k < 2; k++) {
        const char *nameless = k ? "> \nAC\n" : ">\nAC\n";
        write_bytes(path, nameless, strlen(nameless));
        CHECK(fasta_read(path, "", &r, err, sizeof err) == 0 && !strcmp(r.name, "") && !strcmp(r.seq, "AC"),
              "nameless record %d by its empty name: %s", k, err);
        fasta_free(&r);
    }
    /* line ends LF, CR LF and lone CR (old Mac files); a UTF-8 byte order mark; blanks before '>' */
    /* and blanks after it: the name is the header's first word ("> a desc" is a, as samtools reads it) */
    const char *fine[] = {">a b\rAC\rGT\r>c\rTT", "\xef\xbb\xbf>a\nACGT\n", "  >a\r\nAC\r\n\tGT\r\n >c\nTT\n",
                          "> a desc\nACGT\n", ">\t a\nAC\nGT"};
    for (int k = 0; k < 5; k++) {
        write_bytes(path, fine[k], strlen(fine[k]));
        int rc = fasta_read(path, NULL, &r, err, sizeof err);
        CHECK(rc == 0 && !strcmp(r.name, "a") && !strcmp(r.seq, "ACGT"), "FASTA form %d: %s", k, rc ? err : r.seq);
        if (rc == 0) fasta_free(&r);
    }
    /* a '>' inside a sequence line is a bad letter, not a new record (it was one until 2026-11-29) */
    const char *bad[] = {"", "ACGT\n", ">x\n", ">x\nAC GT\n>y\n", ">x\nAC\x01GT\n", ">x\nAC1\n", ">x\nAC>GT\nACGT\n",
                         "\xef\xbb>x\nAC\n", "\xef>x\nAC\n"};
    const char *name[] = {NULL, NULL, NULL, "y", NULL, NULL, NULL, NULL, NULL};
    const char *why[] = {"", "", "", "", "0x01", "0x31", "line 2: character 0x3e", "byte order mark", "byte order mark"};
    for (int k = 0; k < 9; k++) {
        write_bytes(path, bad[k], strlen(bad[k]));
        err[0] = 0;
        int rc = fasta_read(path, name[k], &r, err, sizeof err);
        CHECK(rc == -1 && strstr(err, path) && strstr(err, why[k]), "bad FASTA %d: '%s'", k, err);
        if (rc == 0) fasta_free(&r);
    }
}

/* Every record at once (the database search's reader): names, sequences, a bad record named by
 * its number, --skip-bad's list, and a file cut in the block reader's buffer boundaries. */
static int64_t skipped_numbers[8], skipped_count;
static void note_skip(void *user, int64_t record, const char *reason)
{
    (void)user;
    (void)reason;
    if (skipped_count < 8) skipped_numbers[skipped_count++] = record;
}

static void fasta_set_cases(void)
{
    char err[256];
    fasta_set s;
    const char *path = tmp_path("set.fa");
    const char text[] = ">one first\r\nACGT\r\nacgt\n>  two\tx\nNNRY-KM\n>\nWW\n>four\n*";
    write_bytes(path, text, sizeof text - 1);
    int rc = fasta_set_read(path, &s, NULL, NULL, err, sizeof err);
    CHECK(rc == 0 && s.count == 4 && !strcmp(fasta_set_name(&s, 0), "one") && !strcmp(fasta_set_seq(&s, 0), "ACGTacgt") &&
              fasta_set_length(&s, 0) == 8 && !strcmp(fasta_set_name(&s, 1), "two") && !strcmp(fasta_set_seq(&s, 1), "NNRYKM") && !strcmp(fasta_set_name(&s, 2), "") &&
              !strcmp(fasta_set_seq(&s, 3), "*") && fasta_set_length(&s, 3) == 1,
          "records: %s", err);
    if (rc == 0) fasta_set_free(&s);
    /* record 3 of 4 is bad: named; skipped with a callback */
    const char bad[] = ">a\nAC\n>b\nGT\n>c\nA#C\n>d\nTT\n>e\n\n>f\nG\n";
    write_bytes(path, bad, sizeof bad - 1);
    CHECK(fasta_set_read(path, &s, NULL, NULL, err, sizeof err) == -1 && strstr(err, "record 3 ('c')") && strstr(err, "line 6"),
          "bad record named: '%s'", err);
    skipped_count = 0;
    rc = fasta_set_read(path, &s, note_skip, NULL, err, sizeof err);
    CHECK(rc == 0 && s.count == 4 && s.skipped == 2 && skipped_count == 2 && skipped_numbers[0] == 3 &&
              skipped_numbers[1] == 5 && !strcmp(fasta_set_name(&s, 2), "d") && !strcmp(fasta_set_seq(&s, 3), "G"),
          "skip bad: rc %d count %lld skipped %lld (%s)", rc, (long long)s.count, (long long)s.skipped, err);
    if (rc == 0) fasta_set_free(&s);
    /* many records across the reader's 64 KB blocks */
    FILE *f = fopen(path, "w");
    for (int k = 0; k < 20000; k++) fprintf(f, ">r%d\n%.*s\n", k, 1 + k % 13, "ACGTACGTACGTACGT");
    fclose(f);
    rc = fasta_set_read(path, &s, NULL, NULL, err, sizeof err);
    int ok = rc == 0 && s.count == 20000;
    for (int k = 0; ok && k < 20000; k++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", k);
        ok = !strcmp(fasta_set_name(&s, k), name) && fasta_set_length(&s, k) == 1 + k % 13;
    }
    CHECK(ok, "20000 records: %s", err);
    if (rc == 0) fasta_set_free(&s);
    /* lone CRs, a byte order mark, blanks before '>' */
    const char forms[] = "\xef\xbb\xbf >a x\rAC\rGT\r\t>b\r\nTT\r\n>c\nG";
    write_bytes(path, forms, sizeof forms - 1);
    rc = fasta_set_read(path, &s, NULL, NULL, err, sizeof err);
    CHECK(rc == 0 && s.count == 3 && !strcmp(fasta_set_name(&s, 0), "a") && !strcmp(fasta_set_seq(&s, 0), "ACGT") &&
              !strcmp(fasta_set_name(&s, 1), "b") && !strcmp(fasta_set_seq(&s, 1), "TT") && !strcmp(fasta_set_seq(&s, 2), "G"),
          "FASTA set forms: %s", err);
    if (rc == 0) fasta_set_free(&s);
    const char *wrong[] = {"", "ACGT\n", ">x\n", ">x\n\n>y\n", ">x\nAC>GT\nACGT\n", "\xef\xbb>x\nAC\n"};
    const char *why[] = {"", "", "", "", "record 1 ('x'): line 2: character 0x3e", "byte order mark"};
    for (int k = 0; k < 6; k++) {
        write_bytes(path, wrong[k], strlen(wrong[k]));
        err[0] = 0;
        rc = fasta_set_read(path, &s, k == 3 ? note_skip : NULL, NULL, err, sizeof err);
        CHECK(rc == -1 && strstr(err, path) && strstr(err, why[k]), "bad FASTA set %d: '%s'", k, err);
        if (rc == 0) fasta_set_free(&s);
    }
    CHECK(fasta_set_read(tmp_path("missing.fa"), &s, NULL, NULL, err, sizeof err) == -1, "missing file");
}

/* Many series: text (a series a line) and 2-D .npy rows; malformed ones fail with a message. */
static void series_set_cases(void)
{
    char err[256];
    series_set s;
    const char *path = tmp_path("set.txt");
    const char text[] = "1 2 3\n# comment\n\n 4,5\t6 7\r\n-1e3\n";
    write_bytes(path, text, sizeof text - 1);
    int rc = series_set_read(path, &s, err, sizeof err);
    CHECK(rc == 0 && s.count == 3 && s.at[1] == 3 && s.at[2] == 7 && s.at[3] == 8 && s.values[3] == 4 &&
              s.values[6] == 7 && s.values[7] == -1000 && s.line[1] == 4,
          "text series: %s", err);
    if (rc == 0) series_set_free(&s);
    const char *npy = tmp_path("set.npy");
    float rows[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    npy_write(npy, PW_F32, 2, shape, rows, err, sizeof err);
    rc = series_set_read(npy, &s, err, sizeof err);
    CHECK(rc == 0 && s.count == 2 && s.at[1] == 3 && s.values[5] == 6, "npy rows: %s", err);
    if (rc == 0) series_set_free(&s);
    int64_t flat[1] = {6};
    npy_write(npy, PW_F32, 1, flat, rows, err, sizeof err);
    rc = series_set_read(npy, &s, err, sizeof err);
    CHECK(rc == 0 && s.count == 1 && s.at[1] == 6 && s.values[5] == 6, "1-D npy as one series: %s", rc ? err : "wrong");
    if (rc == 0) series_set_free(&s);
    int32_t ints[6] = {1, -2, 3, 4, 5, 600000};
    npy_write(npy, PW_I32, 2, shape, ints, err, sizeof err);
    rc = series_set_read(npy, &s, err, sizeof err);
    CHECK(rc == 0 && s.count == 2 && s.values[1] == -2 && s.values[5] == 600000, "int32 rows as float64: %s", rc ? err : "wrong");
    if (rc == 0) series_set_free(&s);
    int64_t cube[3] = {1, 2, 3};
    npy_write(npy, PW_F32, 3, cube, rows, err, sizeof err);
    err[0] = 0;
    CHECK(series_set_read(npy, &s, err, sizeof err) == -1 && strstr(err, "3-D"), "3-D npy refused: '%s'", err);
    const char *wrong[] = {"", "# only\n\n", "1 2 x\n", "1 nan\n", "1 inf\n", "1 2\n3 4z\n"};
    for (int k = 0; k < 6; k++) {
        write_bytes(path, wrong[k], strlen(wrong[k]));
        err[0] = 0;
        rc = series_set_read(path, &s, err, sizeof err);
        CHECK(rc == -1 && strstr(err, path), "bad series set %d: '%s'", k, err);
        if (rc == 0) series_set_free(&s);
    }
}

#ifdef PEERWAVE_HAVE_ZLIB
/* Data gzip-compressed by zlib into path, as `members` concatenated members (bgzip writes many). */
static void write_gzip(const char *path, const void *data, size_t n, int members)
{
    FILE *out = fopen(path, "wb");
    for (int m = 0; m < members; m++) {
        const size_t lo = n * (size_t)m / (size_t)members, hi = n * (size_t)(m + 1) / (size_t)members;
        unsigned char packed[4096];
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (unsigned char *)data + lo, z.avail_in = (uInt)(hi - lo);
        z.next_out = packed, z.avail_out = sizeof packed;
        deflate(&z, Z_FINISH);
        fwrite(packed, 1, sizeof packed - z.avail_out, out);
        deflateEnd(&z);
    }
    fclose(out);
}

/* Compressed input reads as the plain file: FASTA in one and in three members, a .npy, a series;
 * a truncated or corrupt archive is an error that names the file, never a shorter input. */
static void gzip_cases(void)
{
    char text[3000], err[256];
    int n = snprintf(text, sizeof text, ">chr1 test\n");
    for (int k = 0; k < 40; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, "ACGTTGCANNacgtRYKM%c%c\r\n", "ACGT"[k % 4], "TGCA"[k % 3]);
    const char *plain = tmp_path("plain.fa"), *gz = tmp_path("seq.fa.gz");
    write_bytes(plain, text, strlen(text));
    fasta_record want, got;
    CHECK(fasta_read(plain, NULL, &want, err, sizeof err) == 0, "plain FASTA: %s", err);
    for (int members = 1; members <= 3; members += 2) {
        write_gzip(gz, text, strlen(text), members);
        const int r = fasta_read(gz, NULL, &got, err, sizeof err);
        CHECK(r == 0 && got.length == want.length && !strcmp(got.seq, want.seq) && !strcmp(got.name, "chr1"),
              "gzip FASTA in %d member(s): %s", members, r ? err : "different record");
        if (r == 0) fasta_free(&got);
    }
    /* truncated: the archive's first half */
    write_gzip(gz, text, strlen(text), 1);
    FILE *f = fopen(gz, "rb");
    unsigned char packed[4096];
    const size_t size = fread(packed, 1, sizeof packed, f);
    fclose(f);
    write_bytes(gz, packed, size / 2);
    err[0] = 0;
    CHECK(fasta_read(gz, NULL, &got, err, sizeof err) == -1 && strstr(err, "seq.fa.gz") && strstr(err, "truncated"),
          "truncated gzip: '%s'", err);
    /* corrupt: a byte of the compressed data changed */
    packed[size / 2] ^= 0x55;
    write_bytes(gz, packed, size);
    err[0] = 0;
    CHECK(fasta_read(gz, NULL, &got, err, sizeof err) == -1 && strstr(err, "seq.fa.gz"), "corrupt gzip: '%s'", err);
    fasta_free(&want);
    /* a .npy */
    const float v[6] = {1.5f, -2, 3, 4, 5, 6.25f};
    const int64_t shape[2] = {2, 3};
    const char *npy = tmp_path("a.npy"), *npy_gz = tmp_path("a.npy.gz");
    CHECK(npy_write(npy, PW_F32, 2, shape, v, err, sizeof err) == 0, "npy write: %s", err);
    f = fopen(npy, "rb");
    unsigned char raw[512];
    const size_t raw_n = fread(raw, 1, sizeof raw, f);
    fclose(f);
    write_gzip(npy_gz, raw, raw_n, 1);
    npy_array a;
    const int r = npy_read(npy_gz, &a, err, sizeof err);
    CHECK(r == 0 && a.ndim == 2 && a.shape[1] == 3 && !memcmp(a.data, v, sizeof v), "gzip .npy: %s", r ? err : "different");
    if (r == 0) npy_free(&a);
}
#endif

int main(void)
{
    test_seed(777);
    if (!mkdtemp(tmpdir)) return 1;
    npy_round_trips();
    npy_headers();
    npy_layouts();
#ifdef PEERWAVE_HAVE_ZLIB
    gzip_cases();
#endif
    pgm_cases();
#ifdef PEERWAVE_HAVE_PNG
    png_cases();
#else
    printf("PNG cases skipped: built without libpng\n");
#endif
    series_cases();
    fasta_cases();
    fasta_set_cases();
    series_set_cases();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_finish();
}
