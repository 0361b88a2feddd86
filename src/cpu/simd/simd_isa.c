/* simd_isa.c - instruction-set detection and choice for the CPU tile processors (simd_isa.h). */
#include <stdlib.h>
#include <string.h>

#include "simd_isa.h"
#include "../../core/status_detail.h"

static const char *const names[] = {"auto", "scalar", "sse41", "avx2", "avx512"};

const char *pw_simd_name(pw_simd simd)
{
    return (unsigned)simd < sizeof names / sizeof names[0] ? names[simd] : NULL;
}

/* What the processor has, before any debugging mask ($PEERWAVE_DEBUG_CPU_LACKS). */
static int cpu_has(pw_simd simd)
{
#if defined(PW_HAVE_X86_SIMD) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    switch (simd) {
    case PW_SIMD_SCALAR: return 1;
    case PW_SIMD_SSE41: return __builtin_cpu_supports("sse4.1");
    case PW_SIMD_AVX2: return __builtin_cpu_supports("avx2");
    case PW_SIMD_AVX512: return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    default: return 0;
    }
#else
    return simd == PW_SIMD_SCALAR;
#endif
}

int pw_simd_supported(pw_simd simd)
{
    if (!cpu_has(simd)) return 0;
    /* Reliability tests pretend the processor lacks a set (docs/RELIABILITY.md). */
    const char *lacks = getenv("PEERWAVE_DEBUG_CPU_LACKS");
    return !(lacks && simd != PW_SIMD_SCALAR && strstr(lacks, pw_simd_name(simd)));
}

pw_simd pw_simd_best(void)
{
    for (int s = PW_SIMD_AVX512; s > PW_SIMD_SCALAR; s--)
        if (pw_simd_supported((pw_simd)s)) return (pw_simd)s;
    return PW_SIMD_SCALAR;
}

pw_status pw_simd_resolve(pw_simd asked, pw_simd *used)
{
    if ((unsigned)asked > PW_SIMD_AVX512) return PW_ERR_INVALID_ARGUMENT;
    if (asked == PW_SIMD_AUTO) {
        const char *env = getenv("PEERWAVE_SIMD");
        if (env && *env) {
            int k = 0;
            while (k <= PW_SIMD_AVX512 && strcmp(env, names[k]) != 0) k++;
            if (k > PW_SIMD_AVX512) {
                pw_set_error_detail("PEERWAVE_SIMD=%s: expected auto, scalar, sse41, avx2 or avx512", env);
                return PW_ERR_INVALID_ARGUMENT;
            }
            asked = (pw_simd)k;
        }
    }
    if (asked == PW_SIMD_AUTO) {
        *used = pw_simd_best();
        return PW_OK;
    }
    if (!pw_simd_supported(asked)) {
        pw_set_error_detail("this processor (or this build) cannot run the %s tile processors; the best it has is %s",
                            pw_simd_name(asked), pw_simd_name(pw_simd_best()));
        return PW_ERR_UNSUPPORTED;
    }
    *used = asked;
    return PW_OK;
}

int pw_simd_lanes16(pw_simd simd)
{
    switch (simd) {
    case PW_SIMD_SSE41: return 8;
    case PW_SIMD_AVX2: return 16;
    case PW_SIMD_AVX512: return 32;
    default: return 1;
    }
}
