/*
 * peerwave_cell.h - the language of a user cell (docs/EXTENDING.md is the guide).
 *
 * A cell file is plain C: a few declaration lines, then the cell function.  The library compiles
 * the same text twice: with the system C compiler for the CPU engines and with NVRTC for the GPU
 * engines, in both cases after this header and after the types it generates from the declarations
 * (pw_value, pw_ctx), so a cell file needs no #include.  Example (edit distance):
 *
 *     PW_FORM(linear)
 *     PW_VALUE(int32_t)
 *     PW_INPUT(uint8_t, a, i)
 *     PW_INPUT(uint8_t, b, j)
 *     PW_PARAM(int32_t, sub)
 *
 *     PW_FN pw_value pw_boundary(const pw_ctx *c, int64_t i, int64_t j)
 *     {
 *         return (pw_value)(i < 0 ? j + 1 : i + 1);
 *     }
 *     PW_FN pw_value pw_cell(const pw_ctx *c, int64_t i, int64_t j, pw_value up, pw_value left, pw_value diag)
 *     {
 *         pw_value d = diag + (c->a[i] == c->b[j] ? 0 : c->sub);
 *         pw_value g = (up < left ? up : left) + 1;
 *         return d < g ? d : g;
 *     }
 *
 * Declarations (one a line, each line starting with its name; they expand to nothing here and
 * are read by the library, pw_cell_create):
 *   PW_FORM(linear)          cell (i, j) from up (i-1, j), left (i, j-1) and diag (i-1, j-1);
 *                            linear space: the library keeps one row and one column.  Needs
 *                            pw_boundary (row -1 and column -1) and pw_cell as above.
 *   PW_FORM(grid)            in place over a grid the caller owns (full storage), any legal
 *                            dependences (PW_DEP), several sweeps; pw_cell(c, i, j) returns the
 *                            new value of (i, j) and reads any cell with pw_at(c, i', j').
 *   PW_FORM(stencil)         in place over a grid with a border of one fixed cell on every side,
 *                            several sweeps, Gauss-Seidel order: pw_cell(c, self, up, left, down,
 *                            right) returns the new value of a cell from its own old value, the
 *                            new up and left and the old down and right.  The GPU runs it on the
 *                            row-major stencil processors of `peerwave heat`.  A PW_VALUE, and
 *                            parameters only (the cell does not see its position).
 *   PW_FORM(grid3)           the grid form in 3-D: a rows x cols x planes grid (i, j, k; k
 *                            fastest in memory), dependences PW_DEP3(di, dj, dk), pw_cell(c, i,
 *                            j, k), pw_at3(c, i', j', k'); several sweeps.
 *   PW_VALUE(T)              the element: T is int32_t, uint32_t, int64_t, float or double;
 *   PW_FIELD(T, name)        or, repeated, a struct pw_value of such fields (SW's H, E, F).
 *   PW_INPUT(T, name, axes)  a read-only array c->name: axes i (rows elements), j (cols) or ij
 *                            (rows x cols, row-major: c->name[i * c->cols + j]); in 3-D also k
 *                            (planes) and ijk (c->name[(i * c->cols + j) * c->planes + k]); or a
 *                            number N (1 .. 2^24): a table of N elements whatever the sizes (a
 *                            substitution matrix, coefficients); T any of the value types or
 *                            int8_t, uint8_t, int16_t, uint16_t.
 *   PW_PARAM(T, name)        a scalar c->name, given at run time.
 *   PW_DEP(di, dj)           grid form: (i, j) reads (i - di, j - dj) as computed earlier in the
 *                            same sweep; lexicographically positive (di > 0, or di == 0 and
 *                            dj > 0), |di|, |dj| <= PW_CELL_MAX_DEP.  A read of an old value
 *                            (a cell updated later in the sweep: Gauss-Seidel's (i+1, j)) is
 *                            listed too, as the vector from (i, j) to it: (i+1, j) is
 *                            PW_DEP(1, 0), (i+1, j-1) PW_DEP(1, -1) -- that cell must not be
 *                            updated before (i, j) reads it (docs/EXTENDING.md); a read left out
 *                            is a race on every parallel engine.
 *   PW_DEP3(di, dj, dk)      grid3 form: the same in 3-D (lexicographically positive).
 *   PW_HALO(n)               grid forms: the grid has n extra cells on every side (fixed
 *                            boundary values, never written): pw_at reads rows -n .. rows+n-1.
 *   PW_REDUCE(max)           linear form: also report the largest value (of field name, for a
 *   PW_REDUCE(max, name)     struct) and its cell: the smallest row, then the smallest column.
 *
 * The cell's code must be valid C and valid CUDA C++ (no C library calls except the maths that
 * both have: use the PW_ helpers below; no static data; no recursion), deterministic, and must not
 * write anywhere: it returns its value.  c->rows, c->cols (and c->planes) are the space's size.  Floating-point
 * results are bit-identical on both backends when the operations are (fused multiply-add is off
 * in both compilers).
 */
#ifndef PEERWAVE_CELL_H
#define PEERWAVE_CELL_H

/* Declarations: read by the library, nothing for the compilers. */
#define PW_FORM(form)
#define PW_VALUE(type)
#define PW_FIELD(type, name)
#define PW_INPUT(type, name, axes)
#define PW_PARAM(type, name)
#define PW_DEP(di, dj)
#define PW_DEP3(di, dj, dk)
#define PW_HALO(n)
#define PW_REDUCE(...)

#define PW_CELL_MAX_DEP 64

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
/* NVRTC: the fixed-width types come from the library's embedded headers, included first. */
#define PW_FN static __device__ __forceinline__
#define PW_CELL_ON_GPU 1
#else
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#define PW_FN static inline
#define PW_CELL_ON_GPU 0
#endif

/* min and max (a < b ? a : b), the same instructions on both backends. */
#define PW_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PW_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Floating-point remainder x - n y (n = trunc(x / y)): exact in IEEE arithmetic, so the same
 * bits on both backends (seed 004's demonstrator cell is made of it).
 *
 * On the GPU by the quotient, without data-dependent branches (the library's fmodf takes three,
 * which split a warp whose lanes hold different values): q0 = trunc(|x| * (1 / |y|)) is within
 * one of n = trunc(|x| / |y|) while that quotient is below 2^20 (2^49 in double: the two
 * roundings are off by less than 1/8); the fused |x| - q0 |y| is then exact when q0 = n and
 * otherwise on the right side of 0 or |y| (rounding is monotonic), which mends q0 to n, and
 * |x| - n |y| is exact.  Larger quotients, infinities, NaNs and y = 0 take fmodf; the reciprocal
 * is of the divisor alone, so a loop with a fixed modulus computes it once.  The same bits as
 * fmodf (tests/test_cells.c, on both backends).  It needs subnormals kept (no flush to zero:
 * 1 / |y| for |y| > 2^126 is subnormal), as NVRTC and nvcc keep them unless told otherwise
 * (-ftz, --use_fast_math).  The CPU keeps the C library's fmodf (no fused multiply-add in
 * hardware without -mfma). */
#if PW_CELL_ON_GPU
#define PW_RCP_RN_F(y) __frcp_rn(y)
#define PW_RCP_RN_D(y) __drcp_rn(y)
#else
#define PW_RCP_RN_F(y) (1.0f / (y))
#define PW_RCP_RN_D(y) (1.0 / (y))
#endif
PW_FN float pw_fmodf_by_quotient(float x, float y)
{
    const float ax = fabsf(x), ay = fabsf(y), q0 = truncf(ax * PW_RCP_RN_F(ay));
    if (!(q0 < 1048576.0f) || !(ay <= 3.40282347e38f)) return fmodf(x, y);
    const float r0 = fmaf(-q0, ay, ax);
    const float q = r0 < 0.0f ? q0 - 1.0f : r0 >= ay ? q0 + 1.0f : q0;
    return copysignf(fmaf(-q, ay, ax), x);
}
PW_FN double pw_fmod_by_quotient(double x, double y)
{
    const double ax = fabs(x), ay = fabs(y), q0 = trunc(ax * PW_RCP_RN_D(ay));
    if (!(q0 < 562949953421312.0) || !(ay <= 1.7976931348623157e308)) return fmod(x, y);
    const double r0 = fma(-q0, ay, ax);
    const double q = r0 < 0.0 ? q0 - 1.0 : r0 >= ay ? q0 + 1.0 : q0;
    return copysign(fma(-q, ay, ax), x);
}
#if PW_CELL_ON_GPU
PW_FN float pw_fmodf(float x, float y) { return pw_fmodf_by_quotient(x, y); }
PW_FN double pw_fmod(double x, double y) { return pw_fmod_by_quotient(x, y); }
#else
PW_FN float pw_fmodf(float x, float y) { return fmodf(x, y); }
PW_FN double pw_fmod(double x, double y) { return fmod(x, y); }
#endif

/* Integer maxima that Hopper GPUs (sm_90) do in one DPX instruction each, and the CPU and other
 * GPUs in plain code: the same integers everywhere.  Alignment cells are made of them:
 *   pw_addmax(a, b, c)     = max(a + b, c)
 *   pw_max3(a, b, c)       = max(a, b, c)
 *   pw_max3_relu(a, b, c)  = max(a, b, c, 0)
 * (a + b must not overflow, as in plain C.) */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
PW_FN int32_t pw_addmax(int32_t a, int32_t b, int32_t c) { return __viaddmax_s32(a, b, c); }
PW_FN int32_t pw_max3(int32_t a, int32_t b, int32_t c) { return __vimax3_s32(a, b, c); }
PW_FN int32_t pw_max3_relu(int32_t a, int32_t b, int32_t c) { return __vimax3_s32_relu(a, b, c); }
#else
PW_FN int32_t pw_addmax(int32_t a, int32_t b, int32_t c) { return PW_MAX(a + b, c); }
PW_FN int32_t pw_max3(int32_t a, int32_t b, int32_t c) { return PW_MAX(PW_MAX(a, b), c); }
PW_FN int32_t pw_max3_relu(int32_t a, int32_t b, int32_t c) { return PW_MAX(PW_MAX(a, b), PW_MAX(c, 0)); }
#endif

#endif
