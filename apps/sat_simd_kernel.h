/*
 * sat_simd_kernel.h - the integer SAT vector segment (sat_simd.h), written once with the
 * compiler's vector extensions.  Define VBYTES, SS_IN (input type), SS_OUT (int32_t, int64_t),
 * SS_LANES (VBYTES / sizeof(SS_OUT)) and SS_NAME, then include.
 */
#include <string.h>

#include "sat_simd.h"

#define SS_CAT2(a, b) a##b
#define SS_CAT(a, b) SS_CAT2(a, b)
#define SSV SS_CAT(ss_vec_, SS_NAME)
#define SSX SS_CAT(ss_in_vec_, SS_NAME)

typedef SS_OUT SSV __attribute__((vector_size(VBYTES)));
typedef SS_IN SSX __attribute__((vector_size(SS_LANES * sizeof(SS_IN))));

/* v shifted up by k lanes, zeros entering: index lists for the prefix sum's log2(V) steps */
#if SS_LANES == 2
#define SS_PREFIX(v, z) v += __builtin_shufflevector(v, z, 2, 0);
#elif SS_LANES == 4
#define SS_PREFIX(v, z)                                  \
    v += __builtin_shufflevector(v, z, 4, 0, 1, 2);      \
    v += __builtin_shufflevector(v, z, 4, 4, 0, 1);
#elif SS_LANES == 8
#define SS_PREFIX(v, z)                                                  \
    v += __builtin_shufflevector(v, z, 8, 0, 1, 2, 3, 4, 5, 6);          \
    v += __builtin_shufflevector(v, z, 8, 8, 0, 1, 2, 3, 4, 5);          \
    v += __builtin_shufflevector(v, z, 8, 8, 8, 8, 0, 1, 2, 3);
#elif SS_LANES == 16
#define SS_PREFIX(v, z)                                                                                  \
    v += __builtin_shufflevector(v, z, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);            \
    v += __builtin_shufflevector(v, z, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);            \
    v += __builtin_shufflevector(v, z, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);            \
    v += __builtin_shufflevector(v, z, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7);
#else
#error "SS_LANES: 2, 4, 8 or 16"
#endif

void SS_NAME(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    (void)worker;
    const sat_ctx *ctx = vctx;
    const SS_IN *x = (const SS_IN *)ctx->in + i * ctx->in_stride;
    SS_OUT *row = (SS_OUT *)ctx->out + i * ctx->out_stride;
    const SS_OUT *up = i > 0 ? row - ctx->out_stride : NULL;
    /* the row's prefix sum up to j_begin - 1: S(i, j-1) - S(i-1, j-1) */
    SS_OUT carry = j_begin > 0 ? row[j_begin - 1] - (up ? up[j_begin - 1] : 0) : 0;
    const SSV zero = {0};
    int64_t j = j_begin;
    for (; j + SS_LANES <= j_end; j += SS_LANES) {
        SSX raw;
        memcpy(&raw, x + j, sizeof raw);
        SSV v = __builtin_convertvector(raw, SSV);
        SS_PREFIX(v, zero)
        v += carry;
        carry = v[SS_LANES - 1];
        if (up) {
            SSV above;
            memcpy(&above, up + j, sizeof above);
            v += above;
        }
        memcpy(row + j, &v, sizeof v);
    }
    for (; j < j_end; j++) {
        carry += (SS_OUT)x[j];
        row[j] = carry + (up ? up[j] : 0);
    }
}

#undef SS_IN
#undef SS_OUT
#undef SS_LANES
#undef SS_NAME
#undef SS_PREFIX
#undef SSV
#undef SSX
