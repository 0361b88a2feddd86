/*
 * ops16_avx2.h - signed 16-bit lane operations on AVX2: 16 lanes, masks as all-ones lanes.
 * The same functions as ops16_avx512.h (which says how they are used).
 */
#include <immintrin.h>
#include <stdint.h>

#define V_LANES 16
typedef __m256i v16;
typedef __m256i vmask;

static inline v16 v_set1(int x) { return _mm256_set1_epi16((short)x); }
static inline v16 v_adds(v16 a, v16 b) { return _mm256_adds_epi16(a, b); }
static inline v16 v_subs(v16 a, v16 b) { return _mm256_subs_epi16(a, b); }
static inline v16 v_max(v16 a, v16 b) { return _mm256_max_epi16(a, b); }
static inline vmask v_gt(v16 a, v16 b) { return _mm256_cmpgt_epi16(a, b); }
static inline vmask v_eq(v16 a, v16 b) { return _mm256_cmpeq_epi16(a, b); }
static inline v16 v_blend(vmask m, v16 a, v16 b) { return _mm256_blendv_epi8(a, b, m); } /* m ? b : a */
static inline vmask v_and(vmask a, vmask b) { return _mm256_and_si256(a, b); }
static inline vmask v_andnot(vmask a, vmask b) { return _mm256_andnot_si256(b, a); }
static inline int v_any(vmask m) { return !_mm256_testz_si256(m, m); }
static inline v16 v_load16(const int16_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void v_store16(int16_t *p, v16 v) { _mm256_storeu_si256((__m256i *)p, v); }

static inline v16 v_lane_index(void)
{
    return _mm256_set_epi16(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/* [b[15], a[0], ..., a[14]]: t = (b's high half, a's low half), then each 128-bit half of a
 * shifted up one lane with t's top lane entering. */
static inline v16 v_shift_in(v16 a, v16 b)
{
    __m256i t = _mm256_permute2x128_si256(b, a, 0x21);
    return _mm256_alignr_epi8(a, t, 14);
}

static inline v16 v_load_rel(const int32_t *p, int32_t base)
{
    const __m256i floor = _mm256_set1_epi32(base - 32768), b = _mm256_set1_epi32(base);
    __m256i lo = _mm256_sub_epi32(_mm256_max_epi32(_mm256_loadu_si256((const __m256i *)p), floor), b);
    __m256i hi = _mm256_sub_epi32(_mm256_max_epi32(_mm256_loadu_si256((const __m256i *)(p + 8)), floor), b);
    return _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xD8); /* packs interleaves the halves */
}

static inline void v_store_abs(int32_t *p, v16 v, int32_t base, int32_t neg)
{
    const __m256i b = _mm256_set1_epi32(base), low = _mm256_set1_epi32(-32768), n = _mm256_set1_epi32(neg);
    __m256i lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v));
    __m256i hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(v, 1));
    lo = _mm256_blendv_epi8(_mm256_add_epi32(lo, b), n, _mm256_cmpeq_epi32(lo, low));
    hi = _mm256_blendv_epi8(_mm256_add_epi32(hi, b), n, _mm256_cmpeq_epi32(hi, low));
    _mm256_storeu_si256((__m256i *)p, lo);
    _mm256_storeu_si256((__m256i *)(p + 8), hi);
}

/* The 16 x 16 transpose of r (r[i] lane j <-> r[j] lane i): the 8 x 8 word transpose of
 * ops16_sse41.h in each 128-bit half of rows 0-7 and of rows 8-15 (the unpacks work half by half),
 * then the halves put together across the two sets. */
static inline void v_transpose(v16 r[V_LANES])
{
    __m256i o[2][8];
    for (int g = 0; g < 2; g++) {
        const __m256i *x = r + 8 * g;
        __m256i t[8], u[8];
        for (int k = 0; k < 4; k++) {
            t[2 * k] = _mm256_unpacklo_epi16(x[2 * k], x[2 * k + 1]);
            t[2 * k + 1] = _mm256_unpackhi_epi16(x[2 * k], x[2 * k + 1]);
        }
        for (int h = 0; h < 2; h++) {
            u[4 * h + 0] = _mm256_unpacklo_epi32(t[4 * h], t[4 * h + 2]);
            u[4 * h + 1] = _mm256_unpackhi_epi32(t[4 * h], t[4 * h + 2]);
            u[4 * h + 2] = _mm256_unpacklo_epi32(t[4 * h + 1], t[4 * h + 3]);
            u[4 * h + 3] = _mm256_unpackhi_epi32(t[4 * h + 1], t[4 * h + 3]);
        }
        for (int c = 0; c < 4; c++) { /* low half: column c's rows; high half: column 8 + c's */
            o[g][2 * c] = _mm256_unpacklo_epi64(u[c], u[4 + c]);
            o[g][2 * c + 1] = _mm256_unpackhi_epi64(u[c], u[4 + c]);
        }
    }
    for (int c = 0; c < 8; c++) {
        r[c] = _mm256_permute2x128_si256(o[0][c], o[1][c], 0x20);
        r[8 + c] = _mm256_permute2x128_si256(o[0][c], o[1][c], 0x31);
    }
}
