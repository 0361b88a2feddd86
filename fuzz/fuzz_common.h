/* fuzz_common.h - what the fuzz targets share: the input as a FILE, and touching results so the
 * sanitizers see every byte the readers claim to have filled. */
#ifndef PW_FUZZ_COMMON_H
#define PW_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* fmemopen cannot open zero bytes; such inputs are skipped (the readers' empty-file paths are
 * covered by test_formats). */
static inline FILE *fuzz_open(const uint8_t *data, size_t size)
{
    return size ? fmemopen((void *)data, size, "rb") : NULL;
}

static volatile unsigned fuzz_sink;

static inline void fuzz_touch(const void *p, size_t n)
{
    const unsigned char *c = p;
    unsigned s = 0;
    for (size_t k = 0; k < n; k++) s += c[k];
    fuzz_sink = s;
}

/* Every failure must come with a one-line message naming the input. */
static inline void fuzz_message(const char *err)
{
    if (!strstr(err, "fuzz.") || strchr(err, '\n')) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
