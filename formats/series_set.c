/* series_set.c - many series from a 2-D .npy or from text, one series a line (series_set.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_util.h"
#include "npy.h"
#include "series_set.h"


static int read_npy(FILE *f, const char *path, series_set *s, char *err, int errlen)
{
    npy_array a;
    if (npy_read_stream(f, path, &a, err, errlen)) return -1;
    if (a.ndim == 1) a.ndim = 2, a.shape[1] = a.shape[0], a.shape[0] = 1; /* (one series) */
    if (a.ndim != 2) {
        npy_free(&a);
        return io_fail(err, errlen, "%s: a %d-D array; series are the rows of a 2-D array (or one 1-D series)", path,
                       a.ndim);
    }
    if (npy_to_f64(&a)) { /* (integers as float64, as a single series is read) */
        npy_free(&a);
        return io_fail(err, errlen, "%s: an int64 sample beyond 2^53 has no exact float64", path);
    }
    s->count = a.shape[0];
    s->values = malloc(sizeof(double) * (size_t)a.count);
    s->at = malloc(sizeof(int64_t) * (size_t)(s->count + 1));
    if (!s->values || !s->at) {
        npy_free(&a);
        return io_fail(err, errlen, "%s: out of memory", path);
    }
    for (int64_t k = 0; k < a.count; k++) {
        s->values[k] = ((const double *)a.data)[k];
        if (!isfinite(s->values[k])) {
            npy_free(&a);
            return io_fail(err, errlen, "%s: row %lld, column %lld: NaN or infinite", path, (long long)(k / a.shape[1]),
                           (long long)(k % a.shape[1]));
        }
    }
    for (int64_t k = 0; k <= s->count; k++) s->at[k] = k * a.shape[1];
    npy_free(&a);
    return 0;
}

/* Append v to a growing array. */
static int push(void **data, int64_t *len, int64_t *cap, size_t size, const void *v)
{
    if (*len == *cap) {
        int64_t c = *cap ? 2 * *cap : 1024;
        void *p = realloc(*data, (size_t)c * size);
        if (!p) return -1;
        *data = p;
        *cap = c;
    }
    memcpy((char *)*data + (size_t)*len * size, v, size);
    (*len)++;
    return 0;
}

/* Text, one series a line: samples split by blanks or a comma (one comma between two samples: an
 * empty field is an error, not a sample dropped); blank lines and # comments skipped (a record is
 * named by its line number in reports). */
static int read_text(FILE *f, const char *path, series_set *s, char *err, int errlen)
{
    char *line = NULL;
    size_t cap = 0;
    int64_t nv = 0, cv = 0, na = 0, ca = 0, nl = 0, cl = 0, lineno = 0, zero = 0;
    int failed = push((void **)&s->at, &na, &ca, sizeof(int64_t), &zero);
    long len;
    while (!failed && (len = io_getline(&line, &cap, f)) != -1) { /* (LF, CR LF or a lone CR) */
        lineno++;
        if (memchr(line, 0, (size_t)len)) {
            failed = io_fail(err, errlen, "%s: line %lld: binary data in a text series", path, (long long)lineno);
            break;
        }
        char *p = line + (lineno == 1 ? io_bom_length(line) : 0); /* (a UTF-8 byte order mark) */
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0' || *p == '#') continue;
        int64_t before = nv;
        int comma = 1; /* (a comma before the line's first sample is an empty field too) */
        while (!failed) {
            while (*p == ' ' || *p == '\t') p++;
            if (*p == ',') {
                if (comma) {
                    failed = io_fail(err, errlen, "%s: line %lld: an empty field (two commas, or a comma at the "
                                                  "line's start)", path, (long long)lineno);
                    break;
                }
                comma = 1;
                p++;
                continue;
            }
            if (*p == '\0') {
                if (comma && nv > before)
                    failed = io_fail(err, errlen, "%s: line %lld: an empty field after the last comma", path, (long long)lineno);
                break;
            }
            comma = 0;
            char *end;
            errno = 0;
            double v = strtod(p, &end);
            if (memchr(p, 'x', (size_t)(end - p)) || memchr(p, 'X', (size_t)(end - p))) end = p; /* (decimal only: not 0x10) */
            if (end == p || !isfinite(v)) {
                failed = io_fail(err, errlen, "%s: line %lld: %s", path, (long long)lineno,
                                 end == p ? "not a number" : "NaN or infinite");
                break;
            }
            if (*end && *end != ' ' && *end != '\t' && *end != ',') {
                failed = io_fail(err, errlen, "%s: line %lld: not a number", path, (long long)lineno);
                break;
            }
            if (push((void **)&s->values, &nv, &cv, sizeof(double), &v))
                failed = io_fail(err, errlen, "%s: out of memory", path);
            p = end;
        }
        if (!failed && nv > before &&
            (push((void **)&s->at, &na, &ca, sizeof(int64_t), &nv) || push((void **)&s->line, &nl, &cl, sizeof(int64_t), &lineno)))
            failed = io_fail(err, errlen, "%s: out of memory", path);
    }
    free(line);
    if (!failed && ferror(f)) failed = io_fail(err, errlen, "%s: read error", path);
    s->count = na - 1;
    if (!failed && s->count < 1) failed = io_fail(err, errlen, "%s: no series (one a line expected)", path);
    return failed ? -1 : 0;
}

int series_set_read(const char *path, series_set *s, char *err, int errlen)
{
    memset(s, 0, sizeof *s);
    /* gzip-compressed files too, and .npy told by its magic bytes, not its name (as a single
     * series is read) */
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    const int c = getc(f);
    int rc;
    if (c == EOF) rc = io_fail(err, errlen, "%s: empty file", path);
    else {
        ungetc(c, f);
        rc = c == 0x93 ? read_npy(f, path, s, err, errlen) : read_text(f, path, s, err, errlen);
    }
    fclose(f);
    if (rc) series_set_free(s);
    return rc;
}

void series_set_free(series_set *s)
{
    free(s->values);
    free(s->at);
    free(s->line);
    memset(s, 0, sizeof *s);
}
