/*
 * sw_batch_lanes_kernel.h - the CPU batch kernel (sw_batch_lanes.h), written once against the
 * 16-bit lane operations of src/cpu/simd/ops16_<set>.h and compiled once per set by
 * sw_batch_lanes_<set>.c, which defines SW_BATCH_LANES_FN and includes its ops header first.
 *
 * Columns go in strips of PW_BATCH_STRIP: a row's cells of the strip's columns are made one after
 * the other, each column with its own F chain down the rows.  One column alone is a chain of
 * dependent max operations a row (F and H wait on the row above: latency-bound, measured 3.3-4.4
 * GCUPS a Zen core on AVX2); four chains interleave, and H and E of a row are loaded and stored
 * once a strip instead of once a column.
 */
#include <string.h>

#include "sw_batch_lanes.h"
#include "sw_lanes_cell.h"

/* The strip's profiles: profile[(c * alphabet + x) * V] = score(x, column c's letters). */
static inline void batch_profile(const sw_batch_lanes *job, const uint8_t *codes, int16_t *out)
{
#if V_LANES == 32
    /* AVX-512BW: each letter's row of 64 scores is two registers; one permute picks the lanes' */
    const __m512i idx = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)codes));
    for (int x = 0; x < job->alphabet; x++) {
        const int16_t *row = job->table + x * PW_BATCH_TABLE_COLS;
        const __m512i lo = _mm512_loadu_si512((const void *)row), hi = _mm512_loadu_si512((const void *)(row + 32));
        _mm512_storeu_si512((void *)(out + x * V_LANES), _mm512_permutex2var_epi16(lo, idx, hi));
    }
#else
    if (job->table8) {
        /* byte scores: two 16-entry byte shuffles, a blend on the code's bit 4, widened to 16 bits */
        const __m128i idx = V_LANES == 16 ? _mm_loadu_si128((const __m128i *)codes)
                                          : _mm_loadl_epi64((const __m128i *)codes);
        const __m128i high = _mm_cmpgt_epi8(idx, _mm_set1_epi8(15));
        for (int x = 0; x < job->alphabet; x++) {
            const int8_t *row = job->table8 + x * 32;
            const __m128i t0 = _mm_loadu_si128((const __m128i *)row), t1 = _mm_loadu_si128((const __m128i *)(row + 16));
            const __m128i b = _mm_blendv_epi8(_mm_shuffle_epi8(t0, idx), _mm_shuffle_epi8(t1, idx), high);
#if V_LANES == 16
            _mm256_storeu_si256((__m256i *)(out + x * V_LANES), _mm256_cvtepi8_epi16(b));
#else
            _mm_storeu_si128((__m128i *)(out + x * V_LANES), _mm_cvtepi8_epi16(b));
#endif
        }
        return;
    }
    for (int x = 0; x < job->alphabet; x++) {
        const int16_t *row = job->table + x * PW_BATCH_TABLE_COLS;
        int16_t *o = out + x * V_LANES;
        for (int l = 0; l < V_LANES; l++) o[l] = row[codes[l]];
    }
#endif
}

void SW_BATCH_LANES_FN(const sw_batch_lanes *job)
{
    enum { S = PW_BATCH_STRIP };
    const int64_t n = job->n, A = job->alphabet;
    const v16 zero = v_set1(0), neg = v_set1(-32768), go = v_set1(job->gap_open), ge = v_set1(job->gap_extend);
    int16_t *restrict h = job->h, *restrict e = job->e;
    for (int64_t i = 0; i < n; i++) {
        v_store16(h + i * V_LANES, zero);  /* H(i, -1) = 0 */
        v_store16(e + i * V_LANES, neg);   /* E(i, -1) = -infinity */
    }
    v16 best = zero;
    for (int64_t j = 0; j < job->columns; j += S) { /* columns: a multiple of S (padded) */
        for (int c = 0; c < S; c++) batch_profile(job, job->cols + (j + c) * V_LANES, job->profile + c * A * V_LANES);
        v16 f[S], up[S], corner = zero; /* row -1: H = 0, F = -infinity; corner: H(i - 1, j - 1) */
        for (int c = 0; c < S; c++) f[c] = neg, up[c] = zero;
        for (int64_t i = 0; i < n; i++) {
            const int16_t *prof = job->profile + job->query[i] * V_LANES;
            const v16 left = v_load16(h + i * V_LANES);
            v16 ei = v_load16(e + i * V_LANES), hl = left, diag = corner;
#pragma GCC unroll 8
            for (int c = 0; c < S; c++) {
                const v16 s = v_load16(prof + c * A * V_LANES);
                best = v_max(best, sw_lanes_cell(&ei, &f[c], &up[c], &diag, &hl, s, go, ge, zero));
            }
            corner = left;
            v_store16(h + i * V_LANES, hl);
            v_store16(e + i * V_LANES, ei);
        }
    }
    v_store16(job->best, best);
}
