/*
 * sat_simd_kernel.h - the integer SAT / INTHIST vector tile processor (sat_simd.h), written once
 * with the compiler's vector extensions.  sat_simd_set.h includes it once a processor, with
 * VBYTES, SS_STREAM(p, v) (a non-temporal store of one vector) and SS_FENCE() from the set's file,
 * and SS_IN (input type), SS_OUT (int32_t, int64_t), SS_LANES (VBYTES / sizeof(SS_OUT)), SS_WIDEN(p)
 * (a vector of inputs at p as outputs), SS_INDICATOR (1: INTHIST, the input is bin indices and
 * plane b counts bin b) and SS_NAME. */
#include <string.h>

#include "sat_simd.h"
#include "../src/core/tiling_geometry.h"

#define SS_CAT2(a, b) a##b
#define SS_CAT(a, b) SS_CAT2(a, b)
#define SS_F(name) SS_CAT(name, SS_NAME)
#define SS_INLINE static inline __attribute__((always_inline))
#define SSV SS_F(ss_vec_)
#define SS_LINE (64 / (int)sizeof(SS_OUT)) /* outputs in a cache line */
#define SS_AHEAD 2                        /* rows whose inputs are prefetched ahead */

typedef SS_OUT SSV __attribute__((vector_size(VBYTES)));

/* v += v shifted up by k lanes (zeros entering), for k = 1, 2, 4 ...: the prefix over the lanes;
 * and the last lane in every lane (the carry into the next vector). */
#if SS_LANES == 2
#define SS_PREFIX(v, z) v += __builtin_shufflevector(v, z, 2, 0);
#define SS_LAST(v) __builtin_shufflevector(v, v, 1, 1)
#elif SS_LANES == 4
#define SS_PREFIX(v, z)                                  \
    v += __builtin_shufflevector(v, z, 4, 0, 1, 2);      \
    v += __builtin_shufflevector(v, z, 4, 4, 0, 1);
#define SS_LAST(v) __builtin_shufflevector(v, v, 3, 3, 3, 3)
#elif SS_LANES == 8
#define SS_PREFIX(v, z)                                                  \
    v += __builtin_shufflevector(v, z, 8, 0, 1, 2, 3, 4, 5, 6);          \
    v += __builtin_shufflevector(v, z, 8, 8, 0, 1, 2, 3, 4, 5);          \
    v += __builtin_shufflevector(v, z, 8, 8, 8, 8, 0, 1, 2, 3);
#define SS_LAST(v) __builtin_shufflevector(v, v, 7, 7, 7, 7, 7, 7, 7, 7)
#elif SS_LANES == 16
#define SS_PREFIX(v, z)                                                                                  \
    v += __builtin_shufflevector(v, z, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);            \
    v += __builtin_shufflevector(v, z, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);            \
    v += __builtin_shufflevector(v, z, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);            \
    v += __builtin_shufflevector(v, z, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7);
#define SS_LAST(v) __builtin_shufflevector(v, v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15)
#else
#error "SS_LANES: 2, 4, 8 or 16"
#endif

/* The cell's input as an output value: the pixel, or whether its bin is b. */
SS_INLINE SS_OUT SS_F(ss_value_)(SS_IN x, SS_OUT b)
{
#if SS_INDICATOR
    return x == b;
#else
    (void)b;
    return (SS_OUT)x;
#endif
}

SS_INLINE SSV SS_F(ss_values_)(const SS_IN *x, SS_OUT b)
{
    const SSV v = (SSV)SS_WIDEN(x);
#if SS_INDICATOR
    return -(SSV)(v == b);
#else
    (void)b;
    return v;
#endif
}

/* V cells from column j: the row's prefix (carry: the prefix before j, in every lane; updated)
 * plus the row above (above[0 ..]). */
SS_INLINE SSV SS_F(ss_step_)(const SS_IN *x, const SS_OUT *above, SSV *carry, SS_OUT b)
{
    const SSV zero = {0};
    SSV v = SS_F(ss_values_)(x, b);
    SS_PREFIX(v, zero)
    v += *carry;
    *carry = SS_LAST(v);
    SSV a;
    memcpy(&a, above, sizeof a);
    return v + a;
}

/* n cells from column j one by one (a stream's cells before its first line boundary, a row's
 * last cells; a vector's worth of copies through memcpy measured slower).  a[j]: the row above at
 * column j, replaced by this row's cell.  Returns the row's prefix after the n cells. */
SS_INLINE SS_OUT SS_F(ss_part_)(const SS_IN *x, SS_OUT *row, SS_OUT *a, int64_t j, int64_t n, SS_OUT carry, SS_OUT b)
{
    for (const int64_t end = j + n; j < end; j++) {
        carry += SS_F(ss_value_)(x[j], b);
        row[j] = a[j] = carry + a[j];
    }
    return carry;
}

/* Cells [jb, je) of one row (the caller passes x, row and a from the segment's first column,
 * jb 0).  a[j] (j in [jb, je)) holds the row above at column j on entry and this row's cell on
 * exit; carry is the row's prefix sum before jb.  Returns it after je - 1. */
SS_INLINE SS_OUT SS_F(ss_row_)(const SS_IN *x, SS_OUT *row, SS_OUT *a, int64_t jb, int64_t je, SS_OUT carry,
                               SS_OUT b, int stream)
{
    int64_t j = jb;
    if (stream) {
        /* plain stores up to the first cache line boundary, then whole lines streamed */
        int64_t head = (int64_t)((64 - (uintptr_t)(row + j) % 64) % 64 / sizeof(SS_OUT));
        if (head > je - j) head = je - j;
        carry = SS_F(ss_part_)(x, row, a, j, head, carry, b);
        j += head;
        SSV cv = (SSV){0} + carry;
        for (; j + SS_LINE <= je; j += SS_LINE)
            for (int q = 0; q < SS_LINE; q += SS_LANES) {
                const SSV v = SS_F(ss_step_)(x + j + q, a + j + q, &cv, b);
                memcpy(a + j + q, &v, sizeof v);
                SS_STREAM(row + j + q, v);
            }
        carry = cv[0];
    }
    SSV cv = (SSV){0} + carry;
    for (; j + SS_LANES <= je; j += SS_LANES) {
        const SSV v = SS_F(ss_step_)(x + j, a + j, &cv, b);
        memcpy(a + j, &v, sizeof v);
        memcpy(row + j, &v, sizeof v);
    }
    carry = cv[0];
    if (j < je) carry = SS_F(ss_part_)(x, row, a, j, je - j, carry, b);
    return carry;
}

/* Ask for the lines of lane's row that the tile will read, and the two it will write only in part
 * (plain stores, the table's other cells in those lines: the segment's ends).  The segments are
 * too short for the hardware prefetchers, and a partial line's store otherwise waits for the
 * line to come from memory (an INTHIST tile's rows run through many planes, so the line a
 * plane's row left there a tile before has been evicted). */
SS_INLINE void SS_F(ss_prefetch_)(const pw_sat_simd *k, int64_t r, int64_t c, int64_t lane)
{
    int64_t jb, je;
    pw_tiling_segment(k->t, r, c, lane, &jb, &je);
    if (jb >= je) return;
    const int64_t i = r * k->t->h + lane;
    const char *x = (const char *)((const SS_IN *)k->in + i * k->in_stride);
    for (int64_t off = jb * (int64_t)sizeof(SS_IN); off < je * (int64_t)sizeof(SS_IN); off += 64)
        __builtin_prefetch(x + off);
    for (int p = 0; p < k->planes; p++) {
        const SS_OUT *row = (const SS_OUT *)k->out + p * k->plane_stride + i * k->out_stride;
        __builtin_prefetch(row + jb, 1);
        __builtin_prefetch(row + je - 1, 1);
    }
}

/* Tile (r, c).  A worker's scratch (sat_simd.h) holds, besides a row of cells a plane, what its
 * last tile left: each row's prefix sum and last cell a plane.  When that tile was (r, c - 1) (the
 * peer engine: always), a row's carry and the cell above its first one come from there, not from
 * the table (whose lines may have been streamed out of the caches). */
void SS_NAME(const pw_sat_simd *k, int64_t r, int64_t c, int worker)
{
    const pw_tiling *t = k->t;
    const int64_t lanes = pw_tiling_lanes(t, r), h = t->h;
    const int64_t span_lo = c * t->w - (h - 1); /* the tile's first column */
    unsigned char *mine = (unsigned char *)k->scratch + (size_t)worker * k->scratch_bytes;
    int64_t *last_tile = (int64_t *)(void *)mine; /* (r, c) of the worker's last tile */
    /* lasts by the tile's parity: row i reads row i-1's of tile c - 1 after row i-1 wrote tile c's */
    SS_OUT *carries = (SS_OUT *)(void *)(mine + 64), *lasts = carries + k->planes * h * (1 + (c & 1));
    const SS_OUT *lasts_before = carries + k->planes * h * (1 + ((c + 1) & 1));
    SS_OUT *bufs = (SS_OUT *)(void *)(mine + k->buf_offset);
    const int cached = last_tile[0] == r && last_tile[1] == c - 1;
    int64_t valid_lo = 0, valid_hi = 0; /* columns whose row-above cell is in the scratch */
    for (int64_t lane = 0; lane < lanes; lane++) {
        int64_t jb, je;
        pw_tiling_segment(t, r, c, lane, &jb, &je);
        if (jb >= je) {
            valid_lo = valid_hi = 0;
            continue;
        }
        const int64_t i = r * h + lane;
        const int from_left = cached && jb == c * t->w - lane; /* the row went on from tile c - 1 */
        const SS_IN *x = (const SS_IN *)k->in + i * k->in_stride;
        if (lane + SS_AHEAD < lanes) SS_F(ss_prefetch_)(k, r, c, lane + SS_AHEAD);
        for (int p = 0; p < k->planes; p++) {
            SS_OUT *row = (SS_OUT *)k->out + p * k->plane_stride + i * k->out_stride;
            const SS_OUT *up = i > 0 ? row - k->out_stride : NULL;
            SS_OUT *buf = bufs + p * k->scratch_elems + (jb - span_lo); /* buf[j - jb]: column j */
            SS_OUT *carry_of = carries + p * h, *last_of = lasts + p * h;
            const SS_OUT *last_before = lasts_before + p * h;
            /* the row above's cells the previous row did not leave in the scratch */
            int64_t j = jb;
            if (from_left && lane > 0 && valid_lo == jb + 1) buf[j++ - jb] = last_before[lane - 1];
            for (; j < je && j < valid_lo; j++) buf[j - jb] = up ? up[j] : 0;
            for (j = jb > valid_hi ? jb : valid_hi; j < je; j++) buf[j - jb] = up ? up[j] : 0;
            SS_OUT carry = 0;
            if (jb > 0) {
                carry = from_left ? carry_of[lane] : row[jb - 1] - (up ? up[jb - 1] : 0);
            } else if (k->left) { /* a band: the row's prefix up to column -1, from the column there */
                const SS_OUT *left = (const SS_OUT *)k->left + p * k->left_rows;
                carry = left[i] - (i > 0 ? left[i - 1] : 0);
            }
            /* the row from column jb: the segment's own indices (no pointer before an array) */
            carry_of[lane] = SS_F(ss_row_)(x + jb, row + jb, buf, 0, je - jb, carry, (SS_OUT)p, k->stream);
            last_of[lane] = buf[je - 1 - jb];
        }
        valid_lo = jb;
        valid_hi = je;
    }
    last_tile[0] = r;
    last_tile[1] = c;
    if (k->stream) SS_FENCE(); /* the tile's streamed cells before the engine publishes it */
}

#undef SS_IN
#undef SS_OUT
#undef SS_LANES
#undef SS_INDICATOR
#undef SS_NAME
#undef SS_PREFIX
#undef SS_LAST
#undef SSV
#undef SS_WIDEN
#undef SS_LINE
#undef SS_AHEAD
#undef SS_F
