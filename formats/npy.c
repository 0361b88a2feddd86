/* npy.c - reading and writing NumPy .npy files (format: numpy.lib.format, versions 1.0 - 3.0).
 * Whole arrays in either byte order and either memory order are read into host and C order.
 *
 * The header is a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False,
 * 'shape': (3, 4), }.  We parse exactly the three keys numpy writes, with a small tokenizer that
 * never reads past the header, so a hostile file can only produce an error message. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io_util.h"
#include "npy.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c assumes a little-endian host (.npy data here is little-endian)"
#endif

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
#define NPY_MAX_HEADER (1 << 20)

static const struct {
    const char *descr;
    pw_dtype type;
    int size;
} descrs[] = {{"|u1", PW_U8, 1},  {"<u1", PW_U8, 1},  {"<u2", PW_U16, 2}, {"<i4", PW_I32, 4},
              {"<i8", PW_I64, 8}, {"<f4", PW_F32, 4}, {"<f8", PW_F64, 8},
              /* (npy_read_elements and npy_write_elements only: a user cell's other types) */
              {"|i1", NPY_NO_DTYPE, 1}, {"<i1", NPY_NO_DTYPE, 1}, {"<i2", NPY_NO_DTYPE, 2}, {"<u4", NPY_NO_DTYPE, 4}};
/* (descr_of writes the first of each type after "|u1"; '>' types are read as the '<' ones,
 * swapped, and '=' as the host's, '<' here) */
#define N_DESCRS (sizeof descrs / sizeof descrs[0])

/* The table's entry of a descr in '<' or '|' form, or -1. */
static int descr_index(const char *descr)
{
    for (size_t k = 0; k < N_DESCRS; k++)
        if (!strcmp(descr, descrs[k].descr)) return (int)k;
    return -1;
}

static const char *descr_of(pw_dtype t)
{
    if (t == NPY_NO_DTYPE) return NULL; /* (several types: npy_write_elements names its own) */
    for (size_t k = 1; k < N_DESCRS; k++)
        if (descrs[k].type == t) return descrs[k].descr;
    return t == PW_U8 ? "|u1" : NULL;
}

/* ---- header tokenizer --------------------------------------------------------------------- */
typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_space(cursor *c)
{
    while (c->p < c->end && isspace((unsigned char)*c->p)) c->p++;
}

static int take_char(cursor *c, char want)
{
    skip_space(c);
    if (c->p < c->end && *c->p == want) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A quoted string ('...' or "...") without escapes into out (size n). */
static int take_string(cursor *c, char *out, size_t n)
{
    skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
    char q = *c->p++;
    size_t len = 0;
    while (c->p < c->end && *c->p != q) {
        if (len + 1 >= n) return 0;
        out[len++] = *c->p++;
    }
    if (c->p >= c->end) return 0;
    c->p++;
    out[len] = 0;
    return 1;
}

static int take_word(cursor *c, const char *w)
{
    skip_space(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

/* (d0, d1, ...) with 0 .. NPY_MAX_DIMS non-negative integers; -1 on syntax, -2 too many dims. */
static int take_shape(cursor *c, int64_t *shape, int *ndim)
{
    if (!take_char(c, '(')) return -1;
    *ndim = 0;
    for (;;) {
        if (take_char(c, ')')) return 0;
        skip_space(c);
        if (c->p >= c->end || !isdigit((unsigned char)*c->p)) return -1;
        int64_t v = 0;
        while (c->p < c->end && isdigit((unsigned char)*c->p)) {
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (*c->p++ - '0');
        }
        if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
        if (*ndim == NPY_MAX_DIMS) return -2;
        shape[(*ndim)++] = v;
        if (!take_char(c, ',')) {
            if (take_char(c, ')')) return 0;
            return -1;
        }
    }
}

static int parse_header(const char *text, size_t len, const char *path, npy_array *a, int any, char *err,
                        int errlen)
{
    cursor c = {text, text + len};
    int have_descr = 0, have_order = 0, have_shape = 0, fortran = 0;
    char key[32], descr[32], shown[48];
    if (!take_char(&c, '{')) return io_fail(err, errlen, "%s: .npy header is not a dict", path);
    while (!take_char(&c, '}')) {
        if (!take_string(&c, key, sizeof key) || !take_char(&c, ':'))
            return io_fail(err, errlen, "%s: malformed .npy header", path);
        if (!strcmp(key, "descr")) {
            if (!take_string(&c, descr, sizeof descr))
                return io_fail(err, errlen, "%s: .npy descr is not a simple type string (structured arrays are not supported)", path);
            have_descr = 1;
        } else if (!strcmp(key, "fortran_order")) {
            if (take_word(&c, "True")) fortran = 1;
            else if (!take_word(&c, "False"))
                return io_fail(err, errlen, "%s: malformed fortran_order in .npy header", path);
            have_order = 1;
        } else if (!strcmp(key, "shape")) {
            int r = take_shape(&c, a->shape, &a->ndim);
            if (r == -2) return io_fail(err, errlen, "%s: more than %d dimensions", path, NPY_MAX_DIMS);
            if (r) return io_fail(err, errlen, "%s: malformed shape in .npy header", path);
            have_shape = 1;
        } else {
            return io_fail(err, errlen, "%s: unexpected key '%s' in .npy header", path,
                           io_printable(key, shown, sizeof shown));
        }
        if (!take_char(&c, ',')) {
            if (take_char(&c, '}')) break;
            return io_fail(err, errlen, "%s: malformed .npy header", path);
        }
    }
    if (!have_descr || !have_order || !have_shape)
        return io_fail(err, errlen, "%s: .npy header lacks descr, fortran_order or shape", path);
    a->fortran_order = fortran;
    a->big_endian = descr[0] == '>' && strcmp(descr, ">u1") != 0 && strcmp(descr, ">i1") != 0; /* (one byte has no order) */
    if (descr[0] == '>' || descr[0] == '=') descr[0] = '<';
    const int k = descr_index(descr);
    if (k < 0 || (!any && descrs[k].type == NPY_NO_DTYPE))
        return io_fail(err, errlen, "%s: element type '%s' is not supported (use uint8, uint16, int32, int64, float32 or float64%s)",
                       path, io_printable(descr, shown, sizeof shown), any ? ", or int8, int16, uint32 for a cell's input" : "");
    a->type = descrs[k].type;
    a->esize = descrs[k].size;
    snprintf(a->descr, sizeof a->descr, "%s", descrs[k].size == 1 ? (descr[1] == 'i' ? "|i1" : "|u1") : descr);
    if (a->ndim == 0) return io_fail(err, errlen, "%s: a 0-dimensional (scalar) array", path);
    a->count = 1;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] == 0) return io_fail(err, errlen, "%s: empty array (dimension %d is 0)", path, d);
        if (a->count > INT64_MAX / a->shape[d]) return io_fail(err, errlen, "%s: shape overflows 64 bits", path);
        a->count *= a->shape[d];
    }
    return 0;
}

static int read_header(FILE *f, const char *path, npy_array *a, int any, char *err, int errlen)
{
    memset(a, 0, sizeof *a);
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, magic, 6))
        return io_fail(err, errlen, "%s: not a .npy file (no \\x93NUMPY magic)", path);
    int major = pre[6];
    uint64_t hlen;
    if (major == 1) {
        if (fread(pre + 8, 1, 2, f) != 2) return io_fail(err, errlen, "%s: truncated .npy header", path);
        hlen = pre[8] | (uint64_t)pre[9] << 8;
    } else if (major == 2 || major == 3) {
        if (fread(pre + 8, 1, 4, f) != 4) return io_fail(err, errlen, "%s: truncated .npy header", path);
        hlen = pre[8] | (uint64_t)pre[9] << 8 | (uint64_t)pre[10] << 16 | (uint64_t)pre[11] << 24;
    } else {
        return io_fail(err, errlen, "%s: .npy format version %d.%d is not supported", path, major, pre[7]);
    }
    if (hlen > NPY_MAX_HEADER) return io_fail(err, errlen, "%s: .npy header of %llu bytes is implausibly long", path, (unsigned long long)hlen);
    char *header = malloc((size_t)hlen + 1);
    if (!header) return io_fail(err, errlen, "%s: out of memory", path);
    if (fread(header, 1, (size_t)hlen, f) != hlen) {
        free(header);
        return io_fail(err, errlen, "%s: truncated .npy header", path);
    }
    header[hlen] = 0;
    int r = parse_header(header, (size_t)hlen, path, a, any, err, errlen);
    free(header);
    return r ? -1 : 0;
}

int npy_read_header(FILE *f, const char *path, npy_array *a, char *err, int errlen)
{
    return read_header(f, path, a, 0, err, errlen);
}

/* Each of count elements of `size` bytes reversed in place (big-endian to the host's order). */
static void swap_bytes(void *data, int64_t count, size_t size)
{
    unsigned char *p = data;
    for (int64_t e = 0; e < count; e++, p += size)
        for (size_t lo = 0, hi = size - 1; lo < hi; lo++, hi--) {
            const unsigned char t = p[lo];
            p[lo] = p[hi], p[hi] = t;
        }
}

/* A Fortran-order array's data (its first index varying fastest) into C order, the same shape:
 * element (i0, i1, i2) is at i0 + d0 (i1 + d1 i2) in the file and at (i0 d1 + i1) d2 + i2 in C
 * order.  Nonzero: no memory for the copy. */
static int to_c_order(npy_array *a, uint64_t esize)
{
    const int64_t d0 = a->shape[0], d1 = a->shape[1], d2 = a->ndim == 3 ? a->shape[2] : 1;
    unsigned char *c = malloc((size_t)a->count * (size_t)esize);
    if (!c) return -1;
    const unsigned char *f = a->data;
    for (int64_t i0 = 0; i0 < d0; i0++)
        for (int64_t i1 = 0; i1 < d1; i1++)
            for (int64_t i2 = 0; i2 < d2; i2++)
                memcpy(c + (size_t)(((i0 * d1 + i1) * d2 + i2) * (int64_t)esize),
                       f + (size_t)((i0 + d0 * (i1 + d1 * i2)) * (int64_t)esize), (size_t)esize);
    free(a->data);
    a->data = c;
    return 0;
}

static int read_stream(FILE *f, const char *path, npy_array *a, int any, char *err, int errlen)
{
    if (read_header(f, path, a, any, err, errlen)) return -1;
    uint64_t esize = (uint64_t)a->esize;
    /* Before allocating: the file must hold exactly the data the shape claims (-1: a pipe,
     * where a short read is caught below instead). */
    int64_t left = io_remaining_bytes(f);
    if (left >= 0) {
        uint64_t have = (uint64_t)left;
        if ((uint64_t)a->count > UINT64_MAX / esize)
            return io_fail(err, errlen, "%s: shape needs more than 2^64 bytes", path);
        uint64_t need = (uint64_t)a->count * esize;
        if (have != need)
            return io_fail(err, errlen, "%s: %s: holds %llu data bytes, its shape needs %llu", path,
                           have < need ? "truncated" : "data longer than the shape",
                           (unsigned long long)have, (unsigned long long)need);
    }
    char what[64];
    snprintf(what, sizeof what, "the array in %s", path);
    a->data = io_alloc((uint64_t)a->count, esize, what, err, errlen);
    if (!a->data) return -1;
    size_t bytes = (size_t)a->count * (size_t)esize;
    if (fread(a->data, 1, bytes, f) != bytes) {
        npy_free(a);
        return io_fail(err, errlen, "%s: truncated .npy data", path);
    }
    if (fgetc(f) != EOF) {
        npy_free(a);
        return io_fail(err, errlen, "%s: data longer than the shape says", path);
    }
    if (a->big_endian) swap_bytes(a->data, a->count, (size_t)esize);
    if (a->fortran_order && a->ndim > 1 && to_c_order(a, esize)) {
        npy_free(a);
        return io_fail(err, errlen, "%s: no memory to reorder the Fortran-order array into C order", path);
    }
    return 0;
}

int npy_read_stream(FILE *f, const char *path, npy_array *a, char *err, int errlen)
{
    return read_stream(f, path, a, 0, err, errlen);
}

static int read_file(const char *path, npy_array *a, int any, char *err, int errlen)
{
    memset(a, 0, sizeof *a);
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    int r = read_stream(f, path, a, any, err, errlen);
    fclose(f);
    return r;
}

int npy_read(const char *path, npy_array *a, char *err, int errlen) { return read_file(path, a, 0, err, errlen); }

int npy_read_elements(const char *path, npy_array *a, char *err, int errlen) { return read_file(path, a, 1, err, errlen); }

static int write_header(FILE *f, const char *path, const char *descr, int ndim, const int64_t *shape, char *err, int errlen)
{
    if (!descr || descr_index(descr) < 0 || ndim < 1 || ndim > NPY_MAX_DIMS)
        return io_fail(err, errlen, "%s: cannot write this array type", path);
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int d = 0; d < ndim; d++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, d ? ", %lld" : "%lld", (long long)shape[d]);
    n += snprintf(dict + n, sizeof dict - (size_t)n, ndim == 1 ? ",), }" : "), }");
    /* Pad with spaces and a final newline so the data starts on a 64-byte boundary. */
    int major = 1, pre = 10;
    int total = (pre + n + 1 + 63) / 64 * 64;
    int hlen = total - pre;
    char header[320];
    memcpy(header, dict, (size_t)n);
    memset(header + n, ' ', (size_t)(hlen - n - 1));
    header[hlen - 1] = '\n';
    unsigned char start[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0,
                               (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    if (fwrite(start, 1, 10, f) != 10 || fwrite(header, 1, (size_t)hlen, f) != (size_t)hlen)
        return io_fail(err, errlen, "%s: write failed (%s)", path, strerror(errno));
    return 0;
}

int npy_write_header(FILE *f, const char *path, pw_dtype type, int ndim, const int64_t *shape, char *err, int errlen)
{
    return write_header(f, path, descr_of(type), ndim, shape, err, errlen);
}

const char *npy_descr_of(pw_dtype type) { return descr_of(type); }

int npy_write(const char *path, pw_dtype type, int ndim, const int64_t *shape, const void *data,
              char *err, int errlen)
{
    return npy_write_elements(path, descr_of(type), ndim, shape, data, err, errlen);
}

int npy_write_elements(const char *path, const char *descr, int ndim, const int64_t *shape, const void *data, char *err,
                       int errlen)
{
    const int k = descr ? descr_index(descr) : -1;
    if (k < 0 || ndim < 1 || ndim > NPY_MAX_DIMS) return io_fail(err, errlen, "%s: cannot write this array type", path);
    uint64_t count = 1;
    for (int d = 0; d < ndim; d++) count *= (uint64_t)shape[d];
    io_output out; /* (whole or not at all: a run killed while writing leaves no truncated .npy) */
    if (io_output_open(&out, path, err, errlen)) return -1;
    size_t bytes = (size_t)(count * (uint64_t)descrs[k].size);
    if (write_header(out.f, path, descr, ndim, shape, err, errlen)) {
        io_output_close(&out, path, 0, NULL, 0);
        return -1;
    }
    const int ok = fwrite(data, 1, bytes, out.f) == bytes;
    return io_output_close(&out, path, ok, err, errlen);
}

int npy_to_f64(npy_array *a)
{
    if (a->type == PW_F64) return 0;
    if (a->type == NPY_NO_DTYPE) return -1; /* (npy_read_elements' other types: not converted here) */
    double *d = malloc(sizeof *d * (size_t)a->count);
    if (!d) return -1;
    for (int64_t k = 0; k < a->count; k++) {
        switch (a->type) {
        case PW_U8: d[k] = ((const uint8_t *)a->data)[k]; break;
        case PW_U16: d[k] = ((const uint16_t *)a->data)[k]; break;
        case PW_I32: d[k] = ((const int32_t *)a->data)[k]; break;
        case PW_F32: d[k] = ((const float *)a->data)[k]; break;
        default: {
            const int64_t v = ((const int64_t *)a->data)[k];
            if (v > (INT64_C(1) << 53) || v < -(INT64_C(1) << 53)) {
                free(d);
                return -1;
            }
            d[k] = (double)v;
        }
        }
    }
    free(a->data);
    a->data = d;
    a->type = PW_F64;
    a->esize = 8;
    snprintf(a->descr, sizeof a->descr, "<f8");
    return 0;
}

void npy_free(npy_array *a)
{
    free(a->data);
    a->data = NULL;
}
