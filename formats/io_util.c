/* io_util.c - error text, memory limits and checked allocation for the file readers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io_util.h"

int io_fail(char *err, int errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen > 0) vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    return -1;
}

const char *io_printable(const char *text, char *out, size_t n)
{
    size_t k = 0;
    for (; text[k] && k < 40 && k + 1 < n; k++) out[k] = text[k] >= 0x20 && text[k] < 0x7f ? text[k] : '?';
    out[k] = 0;
    return out;
}

int64_t io_remaining_bytes(FILE *f)
{
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0) return -1;
    long end = ftell(f);
    if (fseek(f, here, SEEK_SET) != 0 || end < here) return -1;
    return (int64_t)(end - here);
}

uint64_t io_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return UINT64_MAX / 2;
    return (uint64_t)pages * (uint64_t)page;
}

int io_bom_step(int *state, int c)
{
    static const int mark[3] = {0xef, 0xbb, 0xbf};
    if (*state >= 3) return 0; /* past the mark, or no mark */
    if (c == mark[*state]) {
        ++*state;
        return 1;
    }
    if (*state > 0) return -1;
    *state = 3;
    return 0;
}

const char *io_bytes_text(uint64_t bytes, char *buf)
{
    static const char *const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1000 && u < 6) v /= 1000, u++;
    snprintf(buf, 32, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

void *io_alloc(uint64_t count, uint64_t size, const char *what, char *err, int errlen)
{
    char need[32], have[32];
    if (size && count > UINT64_MAX / size) {
        io_fail(err, errlen, "%s: size overflows 64 bits", what);
        return NULL;
    }
    uint64_t bytes = count * size;
    uint64_t mem = io_physical_memory();
    if (bytes > mem || bytes > (uint64_t)SIZE_MAX) {
        io_fail(err, errlen, "%s needs %s, more than this machine's %s of memory", what,
                io_bytes_text(bytes, need), io_bytes_text(mem, have));
        return NULL;
    }
    void *p = malloc(bytes ? (size_t)bytes : 1);
    if (!p) io_fail(err, errlen, "%s: out of memory allocating %s", what, io_bytes_text(bytes, need));
    return p;
}
