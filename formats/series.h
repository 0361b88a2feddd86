/* series.h - a 1-D series of numbers from text (one number per line, or one column of a CSV/TSV
 * file) or from .npy (float32 or float64, shape (n,), (n, 1) or (1, n)). */
#ifndef PW_SERIES_H
#define PW_SERIES_H

#include <stdint.h>
#include <stdio.h>

#include "peerwave.h"

typedef struct series {
    pw_dtype type;   /* PW_F64 (text, float64 .npy) or PW_F32 (float32 .npy) */
    int64_t length;  /* >= 1 */
    void *data;      /* length values of `type`, malloc'd */
} series;

/* column: NULL for one number per line; else a 1-based field number or a header name of a
 * comma- or tab-separated file (the separator is the first line's: tab if it has one).  With a
 * name the first line is the header; with a number a first line whose field is not a number is
 * taken as a header.  Blank lines and lines starting with '#' are skipped.  Errors (one line,
 * naming file and line): not a number, NaN or infinite, missing field, empty series. */
int series_read(const char *path, const char *column, series *s, char *err, int errlen);
int series_read_stream(FILE *f, const char *path, const char *column, series *s, char *err, int errlen);

void series_free(series *s);

#endif
