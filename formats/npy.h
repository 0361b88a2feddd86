/* npy.h - NumPy .npy files: format versions 1.0, 2.0 and 3.0.  Whole arrays are read in either
 * byte order and in C or Fortran order (np.save writes a transposed array in Fortran order) and
 * come back in host order, C order; bands by offset (npy_read_columns) need little-endian C
 * order; files are written little-endian, C order.  Element types are the library's (u1 u2 i4 i8
 * f4 f8 = PW_U8 .. PW_F64). */
#ifndef PW_NPY_H
#define PW_NPY_H

#include <stdint.h>
#include <stdio.h>

#include "peerwave.h"

#define NPY_MAX_DIMS 3

#define NPY_NO_DTYPE ((pw_dtype)-1) /* npy_array.type of int8, int16 and uint32 (npy_read_elements) */

typedef struct npy_array {
    pw_dtype type;                /* NPY_NO_DTYPE: a type the library's images do not have (descr) */
    char descr[4];                /* the element type as .npy names it in host order: "|u1", "<i2", .. */
    int esize;                    /* its bytes */
    int ndim;                     /* 1 .. NPY_MAX_DIMS */
    int64_t shape[NPY_MAX_DIMS];
    int64_t count;                /* product of the shape */
    void *data;                   /* count elements, malloc'd, host byte order, C order */
    int big_endian, fortran_order; /* the file's layout, as its header says (data is converted) */
} npy_array;

/* Read path into *a (big-endian data swapped, a Fortran-order array reordered into C order).
 * Returns 0, or -1 with a one-line reason in err naming the file: not .npy, unsupported version,
 * malformed header, an element type we do not take (the message lists those we do), zero or more
 * than 3 dimensions, data shorter or longer than the shape says, or more memory than this
 * machine has. */
int npy_read(const char *path, npy_array *a, char *err, int errlen);

/* The same, also taking int8, int16 and uint32 arrays (a user cell's inputs and values may have
 * those types): a->type is then NPY_NO_DTYPE, a->descr says which ("|i1", "<i2", "<u4"). */
int npy_read_elements(const char *path, npy_array *a, char *err, int errlen);

/* The header only: *a's type, ndim, shape, count and layout (data NULL), the stream left at the
 * data. */
int npy_read_header(FILE *f, const char *path, npy_array *a, char *err, int errlen);

/* The same from an open stream positioned at the magic string; path only names it in messages. */
int npy_read_stream(FILE *f, const char *path, npy_array *a, char *err, int errlen);

/* Write ndim (1..3) dimensions of type `type` from data (C order) to path in format 1.0 (its
 * header always fits for 3 dimensions).  Returns 0 or -1 with a reason. */
int npy_write(const char *path, pw_dtype type, int ndim, const int64_t *shape, const void *data,
              char *err, int errlen);

/* The header of such an array, at the stream's position (the data then follows). */
int npy_write_header(FILE *f, const char *path, pw_dtype type, int ndim, const int64_t *shape, char *err, int errlen);

/* The same by the element's .npy descr ("<i2", as npy_array.descr gives it): the library's types
 * and int8, int16, uint32.  npy_descr_of names a pw_dtype's. */
int npy_write_elements(const char *path, const char *descr, int ndim, const int64_t *shape, const void *data, char *err,
                       int errlen);
const char *npy_descr_of(pw_dtype type);

void npy_free(npy_array *a);

/* a's values as float64 in place of its data (a->type becomes PW_F64; exact for every u8, u16,
 * i32 and f32 value, and for i64 up to 2^53 in magnitude); -1 for an i64 past that, or no
 * memory (a unchanged). */
int npy_to_f64(npy_array *a);

/* Bands of columns of a 2-D .npy (one run over several ranks: docs/DISTRIBUTED.md), each rank
 * touching only its own part of the file.  npy_read_columns reads columns [first, first + count)
 * of every row into a rows x count array (a->shape is that; *file_cols the file's columns).
 * npy_create writes a rows x cols array's header and sets the file to its full size (zero data);
 * npy_write_columns writes a rows x count block (row stride `stride` elements, of the file's type)
 * into columns [first, first + count) of such a file.  0, or -1 with a reason. */
int npy_read_columns(const char *path, int64_t first, int64_t count, npy_array *a, int64_t *file_cols, char *err,
                     int errlen);
int npy_create(const char *path, pw_dtype type, int64_t rows, int64_t cols, char *err, int errlen);
int npy_write_columns(const char *path, int64_t first, int64_t count, int64_t stride, pw_dtype type, const void *data,
                      char *err, int errlen);

#endif
