/*
 * sw_cell.h - one Smith-Waterman-Gotoh cell, shared by the CPU and CUDA engines.
 *
 *   E(i,j) = max(E(i,j-1) - ge, H(i,j-1) - go)        gap in a (horizontal)
 *   F(i,j) = max(F(i-1,j) - ge, H(i-1,j) - go)        gap in b (vertical)
 *   H(i,j) = max(0, H(i-1,j-1) + s(a_i, b_j), E(i,j), F(i,j))
 * A gap of length L costs go + (L-1) ge; go == ge is a linear gap.  Boundaries: H = 0,
 * E = F = -inf, with -inf a sentinel far enough from INT32_MIN that subtracting a penalty
 * (<= PW_MAX_SCORE_MAGNITUDE) cannot wrap.  E and F never fall below -go once past the boundary,
 * and H is bounded by min(n, m) * max score, which pw_sw() checks before running.
 */
#ifndef PW_SW_CELL_H
#define PW_SW_CELL_H

#include "../src/core/fixed_width.h"
#include "../src/core/hd.h"

#define PW_SW_NEG_INF (INT32_MIN / 2)

/* Letters of a score table at most (scoring.h; the GPU stages the table in shared memory). */
#define PW_SCORING_MAX_ALPHABET 32

typedef struct pw_sw_cell {
    int32_t h, e, f;
} pw_sw_cell;

PW_HD static inline int32_t pw_max32(int32_t a, int32_t b) { return a > b ? a : b; }

PW_HD static inline pw_sw_cell pw_sw_boundary(void)
{
    pw_sw_cell c = {0, PW_SW_NEG_INF, PW_SW_NEG_INF};
    return c;
}

PW_HD static inline pw_sw_cell pw_sw_step(int32_t subst, int32_t gap_open, int32_t gap_extend,
                                          pw_sw_cell up, pw_sw_cell left, pw_sw_cell diag)
{
    pw_sw_cell c;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    /* Hopper's DPX instructions: max(a + b, c) and max(a, b, c, 0) in one instruction each
     * (the same integers as the plain form below; other GPUs and the CPU take that). */
    c.e = __viaddmax_s32(left.e, -gap_extend, left.h - gap_open);
    c.f = __viaddmax_s32(up.f, -gap_extend, up.h - gap_open);
    c.h = __vimax3_s32_relu(diag.h + subst, c.e, c.f);
#else
    c.e = pw_max32(left.e - gap_extend, left.h - gap_open);
    c.f = pw_max32(up.f - gap_extend, up.h - gap_open);
    c.h = pw_max32(pw_max32(0, diag.h + subst), pw_max32(c.e, c.f));
#endif
    return c;
}

/* Linear gaps (gap_open == gap_extend == gap) need H alone: then
 *   E(i,j) = max(E(i,j-1) - gap, H(i,j-1) - gap) = H(i,j-1) - gap,
 * as H >= E everywhere (H is a max over E; at the boundary H = 0 > E = -inf), and F likewise, so
 *   H(i,j) = max(0, H(i-1,j-1) + s, H(i,j-1) - gap, H(i-1,j) - gap),
 * the H of pw_sw_step with go == ge, integer for integer.  The CUDA engine runs this for linear
 * gaps (a third of the state to carry); the CPU engine runs pw_sw_step, the reference it is
 * checked against.  up enters last: the GPU's warp processor has it last. */
PW_HD static inline int32_t pw_sw_step_linear(int32_t subst, int32_t gap, int32_t up, int32_t left, int32_t diag)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmax_s32_relu(up, -gap, __viaddmax_s32(left, -gap, diag + subst)); /* max(up - gap, ., 0) */
#else
    return pw_max32(pw_max32(0, diag + subst), pw_max32(left - gap, up - gap));
#endif
}

#endif
