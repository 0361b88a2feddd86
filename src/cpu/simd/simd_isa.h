/*
 * simd_isa.h - which x86 vector instruction set the CPU tile processors run with.
 *
 * Resolved once per plan (pw_plan.simd): the caller's choice (pw_options.simd), else
 * $PEERWAVE_SIMD, else the widest set this processor has.  Each processor is compiled for its
 * own set in its own file (flags per file: CMakeLists.txt), and is only ever called after
 * pw_simd_supported() said yes, so a processor without AVX-512 never meets its instructions.
 */
#ifndef PW_SIMD_ISA_H
#define PW_SIMD_ISA_H

#include "peerwave.h"

/* 1 if this build has the processor and this CPU runs its instructions. */
int pw_simd_supported(pw_simd simd);

/* The widest supported set (PW_SIMD_SCALAR if none). */
pw_simd pw_simd_best(void);

/* Resolve `asked` (AUTO: $PEERWAVE_SIMD, else the best) into *used.  PW_ERR_UNSUPPORTED with a
 * detail naming the missing instructions; PW_ERR_INVALID_ARGUMENT for an unknown name. */
pw_status pw_simd_resolve(pw_simd asked, pw_simd *used);

/* 16-bit lanes of a vector of that set (1 for SCALAR). */
int pw_simd_lanes16(pw_simd simd);

#endif
