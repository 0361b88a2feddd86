/* series_set.h - many series at once (DTW over many series): the rows of a 2-D .npy (float32 or
 * float64, shape (count, length)), or a text file with one series a line (numbers separated by
 * blanks, commas or tabs; blank lines and lines starting with '#' skipped).  Values as double. */
#ifndef PW_SERIES_SET_H
#define PW_SERIES_SET_H

#include <stdint.h>

typedef struct series_set {
    int64_t count;
    double *values;   /* every series back to back */
    int64_t *at;      /* count + 1 offsets: series k is values[at[k], at[k+1]) */
    int64_t *line;    /* text: the file line of each series (for messages); NULL for .npy */
} series_set;

/* 0, or -1 with a one-line reason naming the file (and line): not a number, NaN or infinite, an
 * empty file, a .npy that is not 2-D float, out of memory. */
int series_set_read(const char *path, series_set *s, char *err, int errlen);
void series_set_free(series_set *s);

#endif
