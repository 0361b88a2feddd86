/* npy_band.c - bands of columns of a 2-D .npy (npy.h): read, create, write, each rank only its
 * own columns, a row segment at a time. */
#define _FILE_OFFSET_BITS 64
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "io_util.h"
#include "npy.h"

/* Open path and read its header: a 2-D array whose data the file holds exactly.  *data_at: the
 * data's offset.  The stream, or NULL after io_fail. */
static FILE *open_2d(const char *path, const char *mode, npy_array *a, off_t *data_at, char *err, int errlen)
{
    FILE *f = fopen(path, mode);
    if (!f) {
        io_fail(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (npy_read_header(f, path, a, err, errlen)) {
        fclose(f);
        return NULL;
    }
    if (a->big_endian || (a->fortran_order && a->ndim > 1)) {
        io_fail(err, errlen, "%s: a band of columns is read by offset and needs a little-endian, C-order array "
                "(np.save(path, np.ascontiguousarray(a, dtype=a.dtype.newbyteorder('<'))))", path);
        fclose(f);
        return NULL;
    }
    *data_at = ftello(f);
    const uint64_t need = (uint64_t)a->count * pw_dtype_size(a->type);
    const int64_t left = io_remaining_bytes(f);
    if (a->ndim != 2 || left < 0 || (uint64_t)left != need) {
        io_fail(err, errlen, a->ndim != 2 ? "%s: a band of columns needs a 2-D array" : "%s: the data does not match the shape",
                path);
        fclose(f);
        return NULL;
    }
    return f;
}

int npy_read_columns(const char *path, int64_t first, int64_t count, npy_array *a, int64_t *file_cols, char *err,
                     int errlen)
{
    off_t at;
    FILE *f = open_2d(path, "rb", a, &at, err, errlen);
    if (!f) return -1;
    const int64_t rows = a->shape[0], cols = a->shape[1];
    const size_t elem = pw_dtype_size(a->type);
    if (first < 0 || count < 1 || first + count > cols) {
        fclose(f);
        return io_fail(err, errlen, "%s: columns %lld..%lld are outside its %lld", path, (long long)first,
                       (long long)(first + count - 1), (long long)cols);
    }
    a->data = io_alloc((uint64_t)rows * (uint64_t)count, elem, "a band of columns", err, errlen);
    if (!a->data) {
        fclose(f);
        return -1;
    }
    for (int64_t i = 0; i < rows; i++) {
        if (fseeko(f, at + (off_t)((i * cols + first) * (int64_t)elem), SEEK_SET) ||
            fread((char *)a->data + (size_t)(i * count) * elem, elem, (size_t)count, f) != (size_t)count) {
            npy_free(a);
            fclose(f);
            return io_fail(err, errlen, "%s: read failed at row %lld", path, (long long)i);
        }
    }
    fclose(f);
    *file_cols = cols;
    a->shape[1] = count;
    a->count = rows * count;
    return 0;
}

int npy_create(const char *path, pw_dtype type, int64_t rows, int64_t cols, char *err, int errlen)
{
    const int64_t shape[2] = {rows, cols};
    if (io_is_stdout(path)) /* (bands are written at their offsets: a file, not a stream) */
        return io_fail(err, errlen, "%s: an output written in bands (--mpi, --gpus) needs a file, not standard output", path);
    FILE *f = fopen(path, "wb");
    if (!f) return io_fail(err, errlen, "%s: %s", path, strerror(errno));
    if (npy_write_header(f, path, type, 2, shape, err, errlen)) {
        fclose(f);
        return -1;
    }
    const off_t at = ftello(f);
    int ok = fclose(f) == 0;
    const uint64_t bytes = (uint64_t)rows * (uint64_t)cols * pw_dtype_size(type);
    if (!ok || truncate(path, at + (off_t)bytes)) return io_fail(err, errlen, "%s: %s", path, strerror(errno));
    return 0;
}

int npy_write_columns(const char *path, int64_t first, int64_t count, int64_t stride, pw_dtype type, const void *data,
                      char *err, int errlen)
{
    npy_array a;
    off_t at;
    FILE *f = open_2d(path, "r+b", &a, &at, err, errlen);
    if (!f) return -1;
    const int64_t rows = a.shape[0], cols = a.shape[1];
    const size_t elem = pw_dtype_size(type);
    if (a.type != type || first < 0 || count < 1 || first + count > cols) {
        fclose(f);
        return io_fail(err, errlen, "%s: not a %s array with columns %lld..%lld", path, pw_dtype_name(type),
                       (long long)first, (long long)(first + count - 1));
    }
    for (int64_t i = 0; i < rows; i++) {
        if (fseeko(f, at + (off_t)((i * cols + first) * (int64_t)elem), SEEK_SET) ||
            fwrite((const char *)data + (size_t)(i * stride) * elem, elem, (size_t)count, f) != (size_t)count) {
            fclose(f);
            return io_fail(err, errlen, "%s: write failed at row %lld (%s)", path, (long long)i, strerror(errno));
        }
    }
    return fclose(f) == 0 ? 0 : io_fail(err, errlen, "%s: %s", path, strerror(errno));
}
