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
static inline v16 v_load_merge(v16 src, vmask m, const int16_t *p) { return _mm512_mask_loadu_epi16(src, m, p); }

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

/* Gathers: lane l reads base[idx[l]] (16-bit entries; idx of 32 bits). */
#define V_HAS_GATHER 1
typedef struct vgidx {
    __m512i lo, hi;
} vgidx;

static inline vgidx v_gidx_load(const int32_t *idx)
{
    vgidx g = {_mm512_loadu_si512((const void *)idx), _mm512_loadu_si512((const void *)(idx + 16))};
    return g;
}

/* (each gather reads 4 bytes at base + 2 idx: one entry past the last must be readable) */
static inline v16 v_gather16(const int16_t *base, vgidx g)
{
    __m512i lo = _mm512_i32gather_epi32(g.lo, (const void *)base, 2);
    __m512i hi = _mm512_i32gather_epi32(g.hi, (const void *)base, 2);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(lo)), _mm512_cvtepi32_epi16(hi), 1);
}
