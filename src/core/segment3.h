/*
 * segment3.h - template header: a segment function (exec.h) from a cell definition on the three
 * neighbours up (i-1, j), left (i, j-1) and diag (i-1, j-1).
 *
 * Define before including (all are #undef'd afterwards):
 *   PW_SEG_NAME                  name of the generated pw_segment_fn
 *   PW_SEG_CTX                   context struct type
 *   PW_SEG_T                     cell type
 *   PW_SEG_CELL(ctx,i,j,up,left,diag)  expression: the new value of (i, j)
 * Storage.  By default linear storage (linear_buffers.h): the context has members
 * `T *bus, *left, *diag`, and PW_SEG_BOUNDARY(ctx,i,j) (row -1 / column -1 values) must be
 * defined; PW_SEG_NAME##_init(ctx, rows, cols) is generated to fill the buffers.
 * Full storage instead defines all of:
 *   PW_SEG_ROW(ctx, i)            statements run once per segment (declare row pointers)
 *   PW_SEG_UP(ctx, i, j)          value of (i-1, j)
 *   PW_SEG_LEFT0(ctx, i, j)       value of (i, j-1) for the first cell j of the segment
 *   PW_SEG_DIAG0(ctx, i, j)       value of (i-1, j-1) for the first cell
 *   PW_SEG_STORE(ctx, i, j, v)    write (i, j)
 * Optional per-segment reduction (e.g. SW's best cell):
 *   PW_SEG_ACC_T, PW_SEG_ACC_INIT(ctx, acc), PW_SEG_ACC_ADD(acc, i, j, v),
 *   PW_SEG_ACC_FLUSH(ctx, worker, acc)
 */
#include <stdint.h>

#define PW_SEG_CAT2(a, b) a##b
#define PW_SEG_CAT(a, b) PW_SEG_CAT2(a, b)

#ifndef PW_SEG_STORE /* linear storage */
#define PW_SEG_LINEAR_DEFAULTS
#define PW_SEG_ROW(ctx, i) PW_SEG_T *bus_ = (ctx)->bus;
#define PW_SEG_UP(ctx, i, j) bus_[j]
#define PW_SEG_LEFT0(ctx, i, j) (ctx)->left[i]
#define PW_SEG_DIAG0(ctx, i, j) (ctx)->diag[i]
#define PW_SEG_STORE(ctx, i, j, v) bus_[j] = (v)

static void PW_SEG_CAT(PW_SEG_NAME, _init)(PW_SEG_CTX *ctx, int64_t rows, int64_t cols)
{
    for (int64_t j = 0; j < cols; j++) ctx->bus[j] = PW_SEG_BOUNDARY(ctx, -1, j);
    for (int64_t i = 0; i < rows; i++) {
        ctx->left[i] = PW_SEG_BOUNDARY(ctx, i, -1);
        ctx->diag[i] = PW_SEG_BOUNDARY(ctx, i - 1, -1);
    }
}
#endif

static void PW_SEG_NAME(void *vctx, int64_t i, int64_t j_begin, int64_t j_end, int worker)
{
    PW_SEG_CTX *ctx = (PW_SEG_CTX *)vctx;
    PW_SEG_ROW(ctx, i)
    PW_SEG_T left = PW_SEG_LEFT0(ctx, i, j_begin);
    PW_SEG_T diag = PW_SEG_DIAG0(ctx, i, j_begin);
#ifdef PW_SEG_ACC_T
    PW_SEG_ACC_T acc;
    PW_SEG_ACC_INIT(ctx, acc);
#endif
    for (int64_t j = j_begin; j < j_end; j++) {
        PW_SEG_T up = PW_SEG_UP(ctx, i, j);
        PW_SEG_T v = PW_SEG_CELL(ctx, i, j, up, left, diag);
        PW_SEG_STORE(ctx, i, j, v);
        diag = up;
        left = v;
#ifdef PW_SEG_ACC_ADD
        PW_SEG_ACC_ADD(acc, i, j, v);
#endif
    }
#ifdef PW_SEG_LINEAR_DEFAULTS
    /* Rows keep their own carries (linear_buffers.h explains why). */
    ctx->left[i] = left;
    ctx->diag[i] = diag;
#endif
#ifdef PW_SEG_ACC_T
    PW_SEG_ACC_FLUSH(ctx, worker, acc);
#else
    (void)worker;
    (void)left;
    (void)diag;
#endif
}

#undef PW_SEG_NAME
#undef PW_SEG_CTX
#undef PW_SEG_T
#undef PW_SEG_CELL
#undef PW_SEG_BOUNDARY
#undef PW_SEG_ROW
#undef PW_SEG_UP
#undef PW_SEG_LEFT0
#undef PW_SEG_DIAG0
#undef PW_SEG_STORE
#undef PW_SEG_LINEAR_DEFAULTS
#undef PW_SEG_ACC_T
#undef PW_SEG_ACC_INIT
#undef PW_SEG_ACC_ADD
#undef PW_SEG_ACC_FLUSH
