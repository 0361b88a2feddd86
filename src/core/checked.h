/* checked.h - size arithmetic that refuses to overflow instead of wrapping. */
#ifndef PW_CHECKED_H
#define PW_CHECKED_H

#include <stddef.h>
#include <stdint.h>

/* *out = a * b * c as a byte count; 0 on overflow (any factor negative also fails). */
static inline int pw_checked_bytes(int64_t a, int64_t b, size_t c, size_t *out)
{
    if (a < 0 || b < 0) return 0;
    size_t r;
    if (__builtin_mul_overflow((size_t)a, (size_t)b, &r)) return 0;
    if (__builtin_mul_overflow(r, c, &r)) return 0;
    *out = r;
    return 1;
}

/* *out = a * b for non-negative 64-bit counts; 0 on overflow. */
static inline int pw_checked_cells(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0) return 0;
    return !__builtin_mul_overflow(a, b, out);
}

#endif
