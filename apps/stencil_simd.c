/* stencil_simd.c - choosing the HEAT/SOR vector tile processor (stencil_simd.h). */
#include "stencil_simd.h"
#include "../src/cpu/simd/simd_isa.h"

int pw_stencil_simd_lanes(pw_simd simd, int size) { return pw_simd_lanes16(simd) * 2 / size; }

int pw_stencil_simd_rows(pw_simd simd, int size)
{
    const int groups = simd == PW_SIMD_SSE41 ? PW_STENCIL_SIMD_GROUPS_SSE41
                       : simd == PW_SIMD_AVX2 ? PW_STENCIL_SIMD_GROUPS_AVX2 : PW_STENCIL_SIMD_GROUPS_AVX512;
    return pw_stencil_simd_lanes(simd, size) * groups;
}

void (*pw_stencil_simd_kernel(pw_simd simd, int size))(const pw_stencil_simd *, int64_t, int64_t, int)
{
#ifdef PW_HAVE_X86_SIMD
    switch (simd) {
    case PW_SIMD_SSE41: return size == 4 ? pw_stencil_simd_tile_f32_sse41 : pw_stencil_simd_tile_f64_sse41;
    case PW_SIMD_AVX2: return size == 4 ? pw_stencil_simd_tile_f32_avx2 : pw_stencil_simd_tile_f64_avx2;
    case PW_SIMD_AVX512: return size == 4 ? pw_stencil_simd_tile_f32_avx512 : pw_stencil_simd_tile_f64_avx512;
    default: return NULL;
    }
#else
    (void)simd, (void)size;
    return NULL;
#endif
}

void pw_stencil_simd_tile(void *ctx, int64_t r, int64_t c, int worker)
{
    const pw_stencil_simd *k = ctx;
    k->tile(k, r, c, worker);
}
