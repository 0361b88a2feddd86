/* sat_simd.c - choosing and setting up the integer SAT / INTHIST vector tile processor (sat_simd.h). */
#include <stdlib.h>
#include <string.h>

#include "sat_simd.h"
#include "../src/core/alloc.h"

typedef void (*sat_simd_tile_fn)(const pw_sat_simd *, int64_t, int64_t, int);

/* The processor of this set for the pair, or NULL; inthist: the bin planes (in and out i32). */
static sat_simd_tile_fn sat_simd_pick(pw_simd simd, pw_dtype in, pw_dtype out, int inthist)
{
#ifdef PW_HAVE_X86_SIMD
#define SAT_PICK(SET)                                                                                        \
    if (inthist) return in == PW_I32 && out == PW_I32 ? pw_sat_simd_inthist_##SET : NULL;                    \
    if (in == PW_U8) return out == PW_I32 ? pw_sat_simd_u8_i32_##SET : out == PW_I64 ? pw_sat_simd_u8_i64_##SET : NULL; \
    if (in == PW_U16) return out == PW_I32 ? pw_sat_simd_u16_i32_##SET : out == PW_I64 ? pw_sat_simd_u16_i64_##SET : NULL; \
    if (in == PW_I32) return out == PW_I32 ? pw_sat_simd_i32_i32_##SET : out == PW_I64 ? pw_sat_simd_i32_i64_##SET : NULL; \
    return NULL;
    switch (simd) {
    case PW_SIMD_SSE41: SAT_PICK(sse41)
    case PW_SIMD_AVX2: SAT_PICK(avx2)
    case PW_SIMD_AVX512: SAT_PICK(avx512)
    default: return NULL;
    }
#undef SAT_PICK
#else
    (void)simd, (void)in, (void)out, (void)inthist;
    return NULL;
#endif
}

int pw_sat_simd_setup(pw_sat_simd *k, const pw_tiling *t, int workers, pw_simd simd, pw_dtype in, pw_dtype out,
                      int bins)
{
    sat_simd_tile_fn tile = sat_simd_pick(simd, in, out, bins > 0);
    const int planes = bins > 0 ? bins : 1;
    if (!tile || workers < 1) return 0;
    const size_t size = pw_dtype_size(out), line = 64 / size;
    /* the tile's column span (w + h - 1), whole cache lines; no more than the space's columns
     * reach (a tile starts at most h - 1 columns before column 0): --tile-w 2^31 on a 1x1 image
     * asked INTHIST's scratch for 40 GB */
    const int64_t span = t->w < t->cols ? t->w + t->h - 1 : t->cols + t->h - 1;
    const int64_t elems = (span + (int64_t)line - 1) / (int64_t)line * (int64_t)line;
    const size_t cached = (3 * (size_t)planes * (size_t)t->h * size + 63) / 64 * 64;
    const size_t per_worker = 64 + cached + (size_t)planes * (size_t)elems * size;
    void *block = pw_malloc((size_t)workers * per_worker + 64);
    if (!block) return -1;
    memset(k, 0, sizeof *k);
    k->t = t;
    k->planes = planes;
    k->tile = tile;
    k->scratch_block = block;
    k->scratch = (unsigned char *)block + (64 - (uintptr_t)block % 64) % 64;
    k->scratch_bytes = per_worker;
    k->buf_offset = 64 + cached;
    k->scratch_elems = elems;
    for (int w = 0; w < workers; w++) { /* no last tile yet */
        int64_t *last_tile = (int64_t *)(void *)((unsigned char *)k->scratch + (size_t)w * per_worker);
        last_tile[0] = last_tile[1] = -1;
    }
    return 1;
}

int pw_sat_simd_streams(const void *out, size_t table_bytes, size_t elem_size)
{
    return table_bytes >= PW_SAT_SIMD_STREAM_BYTES && (uintptr_t)out % elem_size == 0;
}

int pw_sat_float_simd_stages(pw_sat_simd *k, int workers, int lanes, int rows, size_t elem_size)
{
    const size_t per_worker = ((size_t)rows * PW_SAT_FLOAT_STAGE_BLOCKS * (size_t)lanes * elem_size + 63) / 64 * 64;
    void *block = pw_malloc((size_t)workers * per_worker + 64);
    if (!block) {
        k->stream = 0;
        return 0;
    }
    k->scratch_block = block;
    k->scratch = (unsigned char *)block + (64 - (uintptr_t)block % 64) % 64;
    k->scratch_bytes = per_worker;
    return 1;
}

void pw_sat_simd_free(pw_sat_simd *k)
{
    free(k->scratch_block);
    k->scratch_block = k->scratch = NULL;
}

void (*pw_sat_float_simd(pw_simd simd, pw_dtype type, int *lanes, int *rows))(const pw_sat_simd *, int64_t, int64_t,
                                                                               int)
{
    if (type != PW_F32 && type != PW_F64) return NULL;
    const int f32 = type == PW_F32;
#ifdef PW_HAVE_X86_SIMD
    switch (simd) {
    case PW_SIMD_SSE41:
        *lanes = f32 ? 4 : 2;
        *rows = *lanes * PW_SAT_FLOAT_SIMD_GROUPS_SSE41;
        return f32 ? pw_sat_simd_f32_f32_sse41 : pw_sat_simd_f64_f64_sse41;
    case PW_SIMD_AVX2:
        *lanes = f32 ? 8 : 4;
        *rows = *lanes * PW_SAT_FLOAT_SIMD_GROUPS_AVX2;
        return f32 ? pw_sat_simd_f32_f32_avx2 : pw_sat_simd_f64_f64_avx2;
    case PW_SIMD_AVX512:
        *lanes = f32 ? 16 : 8;
        *rows = *lanes * PW_SAT_FLOAT_SIMD_GROUPS_AVX512;
        return f32 ? pw_sat_simd_f32_f32_avx512 : pw_sat_simd_f64_f64_avx512;
    default: return NULL;
    }
#else
    (void)simd, (void)f32, (void)lanes, (void)rows;
    return NULL;
#endif
}

void pw_sat_simd_tile(void *ctx, int64_t r, int64_t c, int worker)
{
    const pw_sat_simd *k = ctx;
    k->tile(k, r, c, worker);
}
