/*
 * ops16_sse41.h - signed 16-bit lane operations on SSE4.1: 8 lanes, masks as all-ones lanes.
 * The same functions as ops16_avx512.h (which says how they are used).
 */
#include <smmintrin.h>
#include <stdint.h>

#define V_LANES 8
typedef __m128i v16;
typedef __m128i vmask;

static inline v16 v_set1(int x) { return _mm_set1_epi16((short)x); }
static inline v16 v_adds(v16 a, v16 b) { return _mm_adds_epi16(a, b); }
static inline v16 v_subs(v16 a, v16 b) { return _mm_subs_epi16(a, b); }
static inline v16 v_max(v16 a, v16 b) { return _mm_max_epi16(a, b); }
static inline vmask v_gt(v16 a, v16 b) { return _mm_cmpgt_epi16(a, b); }
static inline vmask v_eq(v16 a, v16 b) { return _mm_cmpeq_epi16(a, b); }
static inline v16 v_blend(vmask m, v16 a, v16 b) { return _mm_blendv_epi8(a, b, m); } /* m ? b : a */
static inline vmask v_and(vmask a, vmask b) { return _mm_and_si128(a, b); }
static inline vmask v_andnot(vmask a, vmask b) { return _mm_andnot_si128(b, a); }
static inline int v_any(vmask m) { return !_mm_testz_si128(m, m); }
static inline v16 v_load16(const int16_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void v_store16(int16_t *p, v16 v) { _mm_storeu_si128((__m128i *)p, v); }
static inline v16 v_lane_index(void) { return _mm_set_epi16(7, 6, 5, 4, 3, 2, 1, 0); }

/* [b[7], a[0], ..., a[6]]. */
static inline v16 v_shift_in(v16 a, v16 b) { return _mm_alignr_epi8(a, b, 14); }

static inline v16 v_load_rel(const int32_t *p, int32_t base)
{
    const __m128i floor = _mm_set1_epi32(base - 32768), b = _mm_set1_epi32(base);
    __m128i lo = _mm_sub_epi32(_mm_max_epi32(_mm_loadu_si128((const __m128i *)p), floor), b);
    __m128i hi = _mm_sub_epi32(_mm_max_epi32(_mm_loadu_si128((const __m128i *)(p + 4)), floor), b);
    return _mm_packs_epi32(lo, hi);
}

static inline void v_store_abs(int32_t *p, v16 v, int32_t base, int32_t neg)
{
    const __m128i b = _mm_set1_epi32(base), low = _mm_set1_epi32(-32768), n = _mm_set1_epi32(neg);
    __m128i lo = _mm_cvtepi16_epi32(v), hi = _mm_cvtepi16_epi32(_mm_srli_si128(v, 8));
    lo = _mm_blendv_epi8(_mm_add_epi32(lo, b), n, _mm_cmpeq_epi32(lo, low));
    hi = _mm_blendv_epi8(_mm_add_epi32(hi, b), n, _mm_cmpeq_epi32(hi, low));
    _mm_storeu_si128((__m128i *)p, lo);
    _mm_storeu_si128((__m128i *)(p + 4), hi);
}

/* The 8 x 8 transpose of r (r[i] lane j <-> r[j] lane i): interleaving words, double words, then
 * quad words (the textbook three stages, 24 unpacks). */
static inline void v_transpose(v16 r[V_LANES])
{
    __m128i t[8], u[8];
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    for (int h = 0; h < 2; h++) { /* rows 4h .. 4h + 3 */
        u[4 * h + 0] = _mm_unpacklo_epi32(t[4 * h], t[4 * h + 2]);
        u[4 * h + 1] = _mm_unpackhi_epi32(t[4 * h], t[4 * h + 2]);
        u[4 * h + 2] = _mm_unpacklo_epi32(t[4 * h + 1], t[4 * h + 3]);
        u[4 * h + 3] = _mm_unpackhi_epi32(t[4 * h + 1], t[4 * h + 3]);
    }
    for (int c = 0; c < 4; c++) {
        r[2 * c] = _mm_unpacklo_epi64(u[c], u[4 + c]);
        r[2 * c + 1] = _mm_unpackhi_epi64(u[c], u[4 + c]);
    }
}
