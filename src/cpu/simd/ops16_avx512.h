/*
 * ops16_avx512.h - signed 16-bit lane operations on AVX-512BW: 32 lanes, masks in k registers.
 * One of three headers with the same functions (ops16_avx2.h, ops16_sse41.h); a vector tile
 * processor is written once against them and compiled once per set (e.g. apps/sw_simd_kernel.h).
 */
#include <immintrin.h>
#include <stdint.h>

#define V_LANES 32
typedef __m512i v16;
typedef __mmask32 vmask;

static inline v16 v_set1(int x) { return _mm512_set1_epi16((short)x); }
static inline v16 v_adds(v16 a, v16 b) { return _mm512_adds_epi16(a, b); }
static inline v16 v_subs(v16 a, v16 b) { return _mm512_subs_epi16(a, b); }
static inline v16 v_max(v16 a, v16 b) { return _mm512_max_epi16(a, b); }
static inline vmask v_gt(v16 a, v16 b) { return _mm512_cmpgt_epi16_mask(a, b); }
static inline vmask v_eq(v16 a, v16 b) { return _mm512_cmpeq_epi16_mask(a, b); }
static inline v16 v_blend(vmask m, v16 a, v16 b) { return _mm512_mask_blend_epi16(m, a, b); } /* m ? b : a */
static inline vmask v_and(vmask a, vmask b) { return a & b; }
static inline vmask v_andnot(vmask a, vmask b) { return a & (vmask)~b; }
static inline int v_any(vmask m) { return m != 0; }
static inline v16 v_load16(const int16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline void v_store16(int16_t *p, v16 v) { _mm512_storeu_si512((void *)p, v); }

static inline v16 v_lane_index(void)
{
    return _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                            10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/* [b[31], a[0], ..., a[30]]: lanes move up by one, the last lane of b enters at lane 0. */
static inline v16 v_shift_in(v16 a, v16 b)
{
    const __m512i idx = _mm512_set_epi16(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                                         12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 63);
    return _mm512_permutex2var_epi16(a, idx, b);
}

/* 32 int32 values minus base, saturated to 16 bits (values at or below base - 32768, such as
 * -infinity sentinels, become -32768). */
static inline v16 v_load_rel(const int32_t *p, int32_t base)
{
    const __m512i floor = _mm512_set1_epi32(base - 32768), b = _mm512_set1_epi32(base);
    __m512i lo = _mm512_sub_epi32(_mm512_max_epi32(_mm512_loadu_si512((const void *)p), floor), b);
    __m512i hi = _mm512_sub_epi32(_mm512_max_epi32(_mm512_loadu_si512((const void *)(p + 16)), floor), b);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtsepi32_epi16(lo)), _mm512_cvtsepi32_epi16(hi), 1);
}

/* The inverse: base + v, with -32768 back to the sentinel `neg`. */
static inline void v_store_abs(int32_t *p, v16 v, int32_t base, int32_t neg)
{
    const __m512i b = _mm512_set1_epi32(base), low = _mm512_set1_epi32(-32768), n = _mm512_set1_epi32(neg);
    __m512i lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(v));
    __m512i hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(v, 1));
    lo = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(lo, low), _mm512_add_epi32(lo, b), n);
    hi = _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(hi, low), _mm512_add_epi32(hi, b), n);
    _mm512_storeu_si512((void *)p, lo);
    _mm512_storeu_si512((void *)(p + 16), hi);
}

/* The 32 x 32 transpose of r (r[i] lane j <-> r[j] lane i): the 8 x 8 word transpose of
 * ops16_sse41.h in each 128-bit block of each set of 8 rows (o[g][c], block k: column 8k + c of
 * rows 8g .. 8g + 7), then the 4 x 4 transpose of those blocks across the sets, two shuffles deep. */
static inline void v_transpose(v16 r[V_LANES])
{
    __m512i o[4][8];
    for (int g = 0; g < 4; g++) {
        const __m512i *x = r + 8 * g;
        __m512i t[8], u[8];
        for (int k = 0; k < 4; k++) {
            t[2 * k] = _mm512_unpacklo_epi16(x[2 * k], x[2 * k + 1]);
            t[2 * k + 1] = _mm512_unpackhi_epi16(x[2 * k], x[2 * k + 1]);
        }
        for (int h = 0; h < 2; h++) {
            u[4 * h + 0] = _mm512_unpacklo_epi32(t[4 * h], t[4 * h + 2]);
            u[4 * h + 1] = _mm512_unpackhi_epi32(t[4 * h], t[4 * h + 2]);
            u[4 * h + 2] = _mm512_unpacklo_epi32(t[4 * h + 1], t[4 * h + 3]);
            u[4 * h + 3] = _mm512_unpackhi_epi32(t[4 * h + 1], t[4 * h + 3]);
        }
        for (int c = 0; c < 4; c++) {
            o[g][2 * c] = _mm512_unpacklo_epi64(u[c], u[4 + c]);
            o[g][2 * c + 1] = _mm512_unpackhi_epi64(u[c], u[4 + c]);
        }
    }
    for (int c = 0; c < 8; c++) {
        const __m512i e = _mm512_shuffle_i64x2(o[0][c], o[1][c], 0x44), f = _mm512_shuffle_i64x2(o[0][c], o[1][c], 0xEE);
        const __m512i g = _mm512_shuffle_i64x2(o[2][c], o[3][c], 0x44), h = _mm512_shuffle_i64x2(o[2][c], o[3][c], 0xEE);
        r[c] = _mm512_shuffle_i64x2(e, g, 0x88);      /* blocks 0 of the four sets */
        r[8 + c] = _mm512_shuffle_i64x2(e, g, 0xDD);  /* blocks 1 */
        r[16 + c] = _mm512_shuffle_i64x2(f, h, 0x88); /* blocks 2 */
        r[24 + c] = _mm512_shuffle_i64x2(f, h, 0xDD); /* blocks 3 */
    }
}
