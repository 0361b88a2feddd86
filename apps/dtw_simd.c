/* dtw_simd.c - set-up of the DTW vector tile processors (dtw_simd.h): padded and reversed series,
 * the reversed bus, the carries. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtw_simd.h"
#include "../src/core/alloc.h"
#include "../src/cpu/simd/antidiag.h"
#include "../src/cpu/simd/simd_isa.h"

/* lanes of `size`-byte elements in a vector of that set */
static int lanes_of(pw_simd simd, int size) { return pw_simd_lanes16(simd) * 2 / size; }

int pw_dtw_simd_rows(pw_simd simd, int size) { return lanes_of(simd, size) * PW_DTW_SIMD_GROUPS; }

void pw_dtw_simd_free(pw_dtw_simd *k)
{
    free(k->bus);
    free(k->b);
    free(k->a);
    free(k->carry_h);
    free(k->carry_d);
    *k = (pw_dtw_simd){0};
}

/* count elements of `size` bytes, each `value` */
static void *fill(int size, int64_t count, double value)
{
    char *p = pw_malloc((size_t)size * (size_t)count);
    for (int64_t x = 0; p && x < count; x++) {
        if (size == 4) ((float *)p)[x] = (float)value;
        else ((double *)p)[x] = value;
    }
    return p;
}

/* element `from` of src into element `at` of p */
static void put(void *p, int size, int64_t at, const void *src, int64_t from)
{
    memcpy((char *)p + (size_t)at * (size_t)size, (const char *)src + (size_t)from * (size_t)size, (size_t)size);
}

pw_status pw_dtw_simd_init(pw_dtw_simd *k, pw_simd simd, int size, const pw_tiling *t, const void *a, int64_t n,
                           const void *b, int64_t m, int squared, double *distance)
{
    *k = (pw_dtw_simd){0};
    k->t = t;
    k->n = n;
    k->m = m;
    k->lanes = lanes_of(simd, size);
    k->squared = squared;
    k->distance = distance;
    k->pad = (int64_t)(PW_AD_MAX_GROUPS + 4) * k->lanes; /* past the farthest a block reaches past either end */
#ifdef PW_HAVE_X86_SIMD
    if (size == 4)
        k->tile = simd == PW_SIMD_AVX512 ? pw_dtw_simd_tile_f32_avx512
                  : simd == PW_SIMD_AVX2 ? pw_dtw_simd_tile_f32_avx2 : pw_dtw_simd_tile_f32_sse41;
    else
        k->tile = simd == PW_SIMD_AVX512 ? pw_dtw_simd_tile_f64_avx512
                  : simd == PW_SIMD_AVX2 ? pw_dtw_simd_tile_f64_avx2 : pw_dtw_simd_tile_f64_sse41;
#else
    (void)simd;
    return PW_ERR_UNSUPPORTED; /* pw_simd_supported() never lets a vector set through */
#endif
    const int64_t len = m + 2 * k->pad, rows = n + (int64_t)PW_AD_MAX_GROUPS * k->lanes;
    k->bus = fill(size, len, INFINITY); /* row -1: +inf (its corner, D(-1,-1) = 0, is the set's first diagonal) */
    k->b = fill(size, len, 0);
    k->a = fill(size, rows, 0);
    k->carry_h = fill(size, rows, INFINITY); /* column -1 */
    k->carry_d = fill(size, rows, INFINITY);
    if (!k->bus || !k->b || !k->a || !k->carry_h || !k->carry_d) {
        pw_dtw_simd_free(k);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t j = 0; j < m; j++) put(k->b, size, k->pad + m - 1 - j, b, j);
    for (int64_t i = 0; i < n; i++) put(k->a, size, i, a, i);
    return PW_OK;
}

void pw_dtw_simd_tile(void *ctx, int64_t r, int64_t c, int worker)
{
    const pw_dtw_simd *k = ctx;
    k->tile(k, r, c, worker);
}
