/* sw_simd.c - set-up of the SW vector tile processors (sw_simd.h): profile, reversed bus, carries. */
#include <stdlib.h>
#include <string.h>

#include "sw_cell.h"
#include "sw_simd.h"
#include "../src/core/alloc.h"
#include "../src/cpu/simd/simd_isa.h"

/* What a pass's values may reach from its base (sw_simd.h): safely inside 16 bits. */
#define SW_SIMD_RANGE 32000

int64_t pw_sw_simd_pass_max(const int32_t *scores, int size, int32_t gap_open, int32_t gap_extend, int lanes)
{
    int64_t smax = 0, sabs = 0;
    for (int k = 0; k < size * size; k++) {
        int64_t v = scores[k];
        if (v > smax) smax = v;
        if (v > sabs) sabs = v;
        if (-v > sabs) sabs = -v;
    }
    const int64_t d = (int64_t)gap_open + gap_extend + sabs; /* a step's largest change of H */
    if (d < 1) return 0;
    int64_t steps = (SW_SIMD_RANGE - gap_open - gap_extend - smax) / d - 2 * PW_SW_SIMD_MAX_GROUPS * lanes - 2;
    if (steps > PW_SW_SIMD_MAX_PASS) steps = PW_SW_SIMD_MAX_PASS;
    steps = steps / lanes * lanes;
    return steps >= lanes ? steps : 0;
}

int pw_sw_simd_rows(pw_simd simd)
{
    const int lanes = pw_simd_lanes16(simd);
    switch (simd) {
    case PW_SIMD_SSE41: return lanes * PW_SW_SIMD_GROUPS_SSE41;
    case PW_SIMD_AVX2: return lanes * PW_SW_SIMD_GROUPS_AVX2;
    case PW_SIMD_AVX512: return lanes * PW_SW_SIMD_GROUPS_AVX512;
    default: return 1;
    }
}

void pw_sw_simd_free(pw_sw_simd *k)
{
    free(k->bus_h);
    free(k->bus_f);
    free(k->carry_h);
    free(k->carry_e);
    free(k->carry_f);
    free(k->carry_d);
    free(k->profile);
    free(k->b_codes);
    free(k->a_codes);
    free(k->scratch_block);
    *k = (pw_sw_simd){0};
}

static int32_t *alloc_filled(int64_t count, int32_t value)
{
    int32_t *p = pw_malloc(sizeof *p * (size_t)count);
    for (int64_t x = 0; p && x < count; x++) p[x] = value;
    return p;
}

int pw_sw_equality_table(const int32_t *s, int size, int16_t *match, int16_t *mismatch, int *real)
{
    if (size < 2 || size > PW_SCORING_MAX_ALPHABET) return 0;
    int32_t mt = s[0], mm = s[1];
    for (int x = 0; x < size; x++) {
        real[x] = s[x * size + x] == mt && mt != mm;
        for (int y = 0; y < size; y++)
            if (s[x * size + y] != (x == y && real[x] ? mt : mm)) return 0;
    }
    *match = (int16_t)mt;
    *mismatch = (int16_t)mm;
    return 1;
}

int pw_sw_simd_is_equality(const int32_t *scores, int size)
{
    int16_t match, mismatch;
    int real[PW_SCORING_MAX_ALPHABET];
    return pw_sw_equality_table(scores, size, &match, &mismatch, real);
}

pw_status pw_sw_simd_init(pw_sw_simd *k, pw_simd simd, int workers, const pw_tiling *t, const uint8_t *a_codes, int64_t n,
                          const uint8_t *b_codes, int64_t m, const int32_t *scores, int size, int32_t gap_open,
                          int32_t gap_extend, pw_sw_offer_fn offer, pw_sw_threshold_fn threshold,
                          void *offer_ctx)
{
    const int lanes = pw_simd_lanes16(simd);
    *k = (pw_sw_simd){0};
    k->t = t;
    k->n = n;
    k->m = m;
    k->lanes = lanes;
    k->pass_max = pw_sw_simd_pass_max(scores, size, gap_open, gap_extend, lanes);
    k->gap_open = (int16_t)gap_open;
    k->gap_extend = (int16_t)gap_extend;
    k->affine = gap_open != gap_extend;
    k->pad = (PW_SW_SIMD_MAX_GROUPS + 4) * lanes; /* past the farthest a block reaches past either end */
    k->size = size;
    k->offer = offer;
    k->threshold = threshold;
    k->offer_ctx = offer_ctx;
    int real[PW_SCORING_MAX_ALPHABET];
    k->eq = pw_sw_equality_table(scores, size, &k->match, &k->mismatch, real);
#ifdef PW_HAVE_X86_SIMD
    k->tile = simd == PW_SIMD_AVX512 ? pw_sw_simd_tile_avx512 : simd == PW_SIMD_AVX2 ? pw_sw_simd_tile_avx2
                                                                                   : pw_sw_simd_tile_sse41;
#else
    (void)simd;
    return PW_ERR_UNSUPPORTED; /* pw_simd_supported() never lets a vector set through */
#endif
    const int64_t len = m + 2 * k->pad, rows = n + lanes;
    k->plen = len;
    k->bus_h = alloc_filled(len, 0); /* row -1: H = 0, F = -infinity */
    k->bus_f = alloc_filled(len, PW_SW_NEG_INF);
    k->carry_h = alloc_filled(rows, 0); /* column -1 */
    k->carry_d = alloc_filled(rows, 0);
    k->carry_e = alloc_filled(rows, PW_SW_NEG_INF);
    k->carry_f = alloc_filled(rows, PW_SW_NEG_INF);
    if (k->eq)
        k->b_codes = pw_malloc(sizeof *k->b_codes * (size_t)len);
    else
        k->profile = pw_malloc(sizeof *k->profile * (size_t)(len * size));
    k->a_codes = pw_malloc(sizeof *k->a_codes * (size_t)rows);
    k->scratch_block = pw_malloc((size_t)(workers > 0 ? workers : 1) * PW_SW_SIMD_SCRATCH + 64);
    if (k->scratch_block) /* vectors are stored there: 64-byte alignment */
        k->scratch = (unsigned char *)k->scratch_block + (64 - (uintptr_t)k->scratch_block % 64) % 64;
    if (!k->bus_h || !k->bus_f || !k->carry_h || !k->carry_d || !k->carry_e || !k->carry_f ||
        !(k->profile || k->b_codes) || !k->a_codes || !k->scratch_block) {
        pw_sw_simd_free(k);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int64_t i = 0; i < rows; i++)
        k->a_codes[i] = (int16_t)(i >= n ? (k->eq ? -1 : 0) : k->eq && !real[a_codes[i]] ? -1 : a_codes[i]);
    for (int64_t p = 0; k->eq && p < len; p++) {
        int64_t j = k->pad + m - 1 - p;
        k->b_codes[p] = (int16_t)(j < 0 || j >= m ? -3 : real[b_codes[j]] ? b_codes[j] : -2);
    }
    /* row[p] is column j = pad + m - 1 - p (the reversed layout), 0 past either end: the pads
     * filled apart and the columns in one branch-free pass (with a test a position, the pads --
     * 2 pad of len -- were most of a short pair's setup: 10 us of a 256 x 256 protein pair's 40) */
    for (int x = 0; !k->eq && x < size; x++) {
        int16_t *row = k->profile + (int64_t)x * len;
        const int32_t *score_of = scores + x * size;
        memset(row, 0, sizeof *row * (size_t)k->pad);
        memset(row + k->pad + m, 0, sizeof *row * (size_t)(len - k->pad - m));
        for (int64_t q = 0; q < m; q++) row[k->pad + q] = (int16_t)score_of[b_codes[m - 1 - q]];
    }
    return PW_OK;
}

void pw_sw_simd_tile(void *ctx, int64_t r, int64_t c, int worker)
{
    const pw_sw_simd *k = ctx;
    k->tile(k, r, c, worker);
}
