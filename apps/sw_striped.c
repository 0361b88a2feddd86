/* sw_striped.c - the striped SW engine's setup (sw_striped.h): the profile, the work rows, the
 * kernel of the vector set. */
#include <stdlib.h>
#include <string.h>

#include "sw_striped.h"
#include "../src/core/alloc.h"
#include "../src/cpu/simd/simd_isa.h"

int pw_sw_striped_fits(const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend)
{
    /* H stays in [0, 32767 - top) or the run stops; E and F in [-gap_open, H]; a score must leave
     * diag + score unsaturated from below only where it matters, which max(., 0) makes moot */
    if (gap_open < 0 || gap_extend < 0 || gap_open > 32767 || gap_extend > 32767) return 0;
    for (int k = 0; k < alphabet * alphabet; k++)
        if (scores[k] < -32767 || scores[k] > 16383) return 0;
    return 1;
}

pw_status pw_sw_striped(const pw_sw_striped_job *job, pw_simd simd, int32_t *score, int64_t *end_a, int64_t *end_b)
{
    int (*kernel)(const pw_sw_striped_run *, int32_t *, int64_t *, int64_t *) = NULL;
#ifdef PW_HAVE_X86_SIMD
    /* AVX-512's 32 lanes only for long rows: each lazy pass crosses twice as many lanes, and below
     * 4096 columns 16 lanes (AVX2) run faster on every pair (BLOSUM62 11/1, thread CPU time of a
     * Zen 5 core, 2026-11-30: 256^2 unrelated / 90% identity 20.3 / 46 us against 25.3 / 66,
     * 1024^2 143 / 575 against 152 / 818; at 4096^2 unrelated 32 lanes 9% faster, related 30%
     * slower) */
    if (simd == PW_SIMD_AVX512 && job->m < 4096 && pw_simd_supported(PW_SIMD_AVX2)) simd = PW_SIMD_AVX2;
    if (simd == PW_SIMD_AVX512) kernel = pw_sw_striped_avx512;
    else if (simd == PW_SIMD_AVX2) kernel = pw_sw_striped_avx2;
    else if (simd == PW_SIMD_SSE41) kernel = pw_sw_striped_sse41;
#endif
    if (!kernel || !pw_simd_supported(simd) || job->n < 1 || job->m < 1 ||
        !pw_sw_striped_fits(job->scores, job->alphabet, job->gap_open, job->gap_extend))
        return PW_ERR_UNSUPPORTED;
    const int V = pw_simd_lanes16(simd);
    const int64_t S = (job->m + V - 1) / V, words = S * V;
    pw_sw_striped_run r = {job, NULL, NULL, NULL, NULL, S, 0};
    int16_t *profile = pw_malloc(sizeof *profile * (size_t)(words * job->alphabet));
    int16_t *work = pw_malloc(sizeof *work * (size_t)(3 * words));
    if (!profile || !work) {
        free(profile);
        free(work);
        return PW_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; k < job->alphabet * job->alphabet; k++)
        if (job->scores[k] > r.top) r.top = (int16_t)job->scores[k];
    /* profile[x][t][l] = score(x, b[l S + t]); past column m - 1 the lowest score, so that those
     * columns (the last lanes' tails, which no real column reads) never pass a real H */
    for (int x = 0; x < job->alphabet; x++)
        for (int64_t t = 0; t < S; t++)
            for (int l = 0; l < V; l++) {
                const int64_t j = l * S + t;
                profile[(x * S + t) * V + l] =
                    (int16_t)(j < job->m ? job->scores[x * job->alphabet + job->b[j]] : -32768);
            }
    r.profile = profile;
    r.h0 = work, r.h1 = work + words, r.f = work + 2 * words;
    const int rc = kernel(&r, score, end_a, end_b);
    free(profile);
    free(work);
    return rc == 0 ? PW_OK : rc == 1 ? PW_ERR_OVERFLOW : rc == 2 ? PW_ERR_CANCELLED : PW_ERR_UNSUPPORTED;
}
