/*
 * prmt.cuh - PTX's byte permute as an opaque instruction.
 */
#ifndef PW_DEVICE_PRMT_CUH
#define PW_DEVICE_PRMT_CUH

#include "../../core/fixed_width.h"

/* PRMT in its default mode, where a selector nibble's top bit replicates the chosen byte's sign
 * over the target byte (PTX ISA, prmt): __byte_perm masks that bit off.  Being inline assembly,
 * it is also opaque to the compiler's folds: a select between two of them stays a select of
 * values (sw_packed_lanes.cuh relies on that to keep its lanes in registers). */
__device__ __forceinline__ uint32_t pw_prmt(uint32_t a, uint32_t b, uint32_t selector)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
    return r;
}

#endif
