/* series.c - number series from text/CSV or .npy. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_util.h"
#include "npy.h"
#include "series.h"

static int from_npy(FILE *f, const char *path, series *s, char *err, int errlen)
{
    npy_array a;
    if (npy_read_stream(f, path, &a, err, errlen)) return -1;
    int one_d = a.ndim == 1 || (a.ndim == 2 && (a.shape[0] == 1 || a.shape[1] == 1));
    if (a.type != PW_F32 && a.type != PW_F64 && npy_to_f64(&a)) {
        npy_free(&a);
        return io_fail(err, errlen, "%s: an int64 sample beyond 2^53 has no exact float64 (a series is float64 "
                       "arithmetic)", path);
    }
    if (!one_d) {
        npy_free(&a);
        return io_fail(err, errlen, "%s: a series needs a 1-D array (shape (n,), (n,1) or (1,n))", path);
    }
    for (int64_t k = 0; k < a.count; k++) {
        double v = a.type == PW_F32 ? ((float *)a.data)[k] : ((double *)a.data)[k];
        if (!isfinite(v)) {
            npy_free(&a);
            return io_fail(err, errlen, "%s: element %lld is %s", path, (long long)k, isnan(v) ? "NaN" : "infinite");
        }
    }
    s->type = a.type;
    s->length = a.count;
    s->data = a.data;
    return 0;
}

/* Field `index` (0-based) of line split at sep (a comma, a tab, or ' ' for runs of blanks), NUL-terminated in
 * place; NULL if missing. */
static char *field(char *line, char sep, long index)
{
    if (sep == ' ') { /* fields apart by runs of blanks (space-separated columns, leading blanks ignored) */
        char *p = line + strspn(line, " \t");
        for (long k = 0; k < index; k++) {
            p += strcspn(p, " \t");
            p += strspn(p, " \t");
            if (!*p) return NULL;
        }
        if (!*p) return NULL;
        p[strcspn(p, " \t")] = 0;
        return p;
    }
    char *p = line;
    for (long k = 0; k < index; k++) {
        p = strchr(p, sep);
        if (!p) return NULL;
        p++;
    }
    char *end = strchr(p, sep);
    if (end) *end = 0;
    return p;
}

/* A field without its surrounding blanks and one pair of double quotes around it, in place
 * (spreadsheets and Python's csv.QUOTE_ALL write "2.5" and "name"). */
static char *unquote(char *text)
{
    text += strspn(text, " \t");
    size_t n = strlen(text);
    while (n && strchr(" \t\r\n", text[n - 1])) text[--n] = 0;
    if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
        text[n - 1] = 0;
        text++;
    }
    return text;
}

/* Parse a whole number field (surrounding blanks allowed); 0 ok, -1 not a number, -2 not finite. */
static int number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || memchr(text, 'x', (size_t)(end - text)) || memchr(text, 'X', (size_t)(end - text)))
        return -1; /* (decimal only: strtod would read 0x10 as 16) */
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
    if (*end) return -1;
    if (!isfinite(v)) return -2;
    *out = v;
    return 0;
}

static int from_text(FILE *f, const char *path, const char *column, series *s, char *err, int errlen)
{
    char *line = NULL;
    size_t cap = 0;
    long len;
    int64_t lineno = 0, n = 0, alloc = 0;
    double *values = NULL;
    long index = -1; /* field index; -1 = whole line */
    char sep = ',';
    int by_name = 0, first = 1, failed = 0;
    if (column) {
        char *end;
        long v = strtol(column, &end, 10);
        if (*end == 0 && v >= 1) index = v - 1;
        else by_name = 1; /* (a number below 1 too: a header may name a column "0", as pandas writes) */
    }
    while (!failed && (len = io_getline(&line, &cap, f)) != -1) { /* (LF, CR LF or a lone CR: a file of old-Mac
                                                                  lines was read as its first sample) */
        lineno++;
        if (memchr(line, 0, (size_t)len)) {
            failed = io_fail(err, errlen, "%s: line %lld: binary data in a text series", path, (long long)lineno);
            break;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (lineno == 1) io_drop_bom(line, strlen(line)); /* (as some editors write it) */
        char *p = line + strspn(line, " \t");
        if (!*p || *p == '#') continue;
        if (first && column) sep = strchr(line, '\t') ? '\t' : strchr(line, ',') ? ',' : ' '; /* (' ': blanks) */
        if (first && by_name) { /* find the named column in the header */
            first = 0;
            for (long k = 0;; k++) {
                char copy[4096];
                snprintf(copy, sizeof copy, "%s", line);
                char *name = field(copy, sep, k);
                if (!name && index >= 0) break; /* (the header's end, the column found) */
                if (!name) {
                    char shown[48];
                    char *end;
                    const long v = strtol(column, &end, 10);
                    failed = io_fail(err, errlen, "%s: no column named '%s' in the header line%s", path,
                                     io_printable(column, shown, sizeof shown),
                                     *column && !*end && v < 1 ? " (column numbers start at 1)" : "");
                    break;
                }
                if (!strcmp(unquote(name), column)) {
                    if (index >= 0) { /* (the first was taken silently: which one the user meant is unknown) */
                        char shown[48];
                        failed = io_fail(err, errlen, "%s: the header names columns %ld and %ld '%s': name it by number "
                                         "instead", path, index + 1, k + 1, io_printable(column, shown, sizeof shown));
                        break;
                    }
                    index = k;
                }
            }
            if (failed) break;
            continue;
        }
        char *text = index >= 0 ? field(line, sep, index) : p;
        if (!text) {
            failed = io_fail(err, errlen, "%s: line %lld has no field %ld", path, (long long)lineno, index + 1);
            break;
        }
        text = unquote(text);
        double v;
        int r = number(text, &v);
        if (r == -1 && first && index >= 0 && !by_name) { /* a header line */
            first = 0;
            continue;
        }
        first = 0;
        if (r == -1) {
            char shown[48];
            failed = io_fail(err, errlen, "%s: line %lld: '%s' is not a number%s", path, (long long)lineno,
                             io_printable(text, shown, sizeof shown),
                             !column && (strchr(text, ',') || strchr(text, '\t') || strchr(text, ' '))
                                 ? " (several fields: choose one with --column; or, for a series a line, --query/--db)"
                                 : "");
            break;
        }
        if (r == -2) {
            char shown[48];
            failed = io_fail(err, errlen, "%s: line %lld: '%s' is not finite (NaN and infinities are not allowed)", path,
                             (long long)lineno, io_printable(text, shown, sizeof shown));
            break;
        }
        if (n == alloc) {
            alloc = alloc ? 2 * alloc : 4096;
            double *grown = realloc(values, (size_t)alloc * sizeof *values);
            if (!grown) {
                failed = io_fail(err, errlen, "%s: out of memory", path);
                break;
            }
            values = grown;
        }
        values[n++] = v;
    }
    free(line);
    if (!failed && ferror(f)) failed = io_fail(err, errlen, "%s: read error", path);
    if (!failed && n == 0) failed = io_fail(err, errlen, "%s: no numbers in the file", path);
    if (failed) {
        free(values);
        return -1;
    }
    s->type = PW_F64;
    s->length = n;
    s->data = values;
    return 0;
}

int series_read_stream(FILE *f, const char *path, const char *column, series *s, char *err, int errlen)
{
    memset(s, 0, sizeof *s);
    int c = getc(f);
    if (c == EOF) return io_fail(err, errlen, "%s: empty file", path);
    ungetc(c, f);
    if (c == 0x93 && column) /* (a column of a .npy series would be a silent no-op) */
        return io_fail(err, errlen, "%s: a .npy series has no columns to choose (--column is for CSV/TSV text; --column-a and --column-b name one file's)", path);
    if (c == 0x93) return from_npy(f, path, s, err, errlen);
    return from_text(f, path, column, s, err, errlen);
}

int series_read(const char *path, const char *column, series *s, char *err, int errlen)
{
    memset(s, 0, sizeof *s);
    FILE *f = io_open_input(path, err, errlen);
    if (!f) return -1;
    int r = series_read_stream(f, path, column, s, err, errlen);
    fclose(f);
    return r;
}

void series_free(series *s)
{
    free(s->data);
    s->data = NULL;
}
