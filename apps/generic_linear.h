/*
 * generic_linear.h - template: the linear-storage segment for user callbacks with cells held in
 * blobs of GL_BYTES bytes (define GL_BYTES, a multiple of 8, then include).  generic.c
 * instantiates a few sizes and picks the smallest that holds the user's cell_size.
 */
#define GL_CAT2(a, b) a##b
#define GL_CAT(a, b) GL_CAT2(a, b)
#define GL_BLOB GL_CAT(blob_, GL_BYTES)
#define GL_CTX GL_CAT(gl_ctx_, GL_BYTES)

typedef struct GL_BLOB {
    uint64_t words[GL_BYTES / 8];
} GL_BLOB;

typedef struct GL_CTX {
    GL_BLOB *bus, *left, *diag;
    const pw_problem *p;
} GL_CTX;

static inline GL_BLOB GL_CAT(gl_cell_, GL_BYTES)(const GL_CTX *ctx, int64_t i, int64_t j,
                                                  GL_BLOB up, GL_BLOB left, GL_BLOB diag)
{
    GL_BLOB out;
    ctx->p->cell(ctx->p->user, i, j, &up, &left, &diag, &out);
    return out;
}

static inline GL_BLOB GL_CAT(gl_boundary_, GL_BYTES)(const GL_CTX *ctx, int64_t i, int64_t j)
{
    GL_BLOB out;
    ctx->p->boundary(ctx->p->user, i, j, &out);
    return out;
}

#define PW_SEG_NAME GL_CAT(gl_segment_, GL_BYTES)
#define PW_SEG_CTX GL_CTX
#define PW_SEG_T GL_BLOB
#define PW_SEG_CELL GL_CAT(gl_cell_, GL_BYTES)
#define PW_SEG_BOUNDARY GL_CAT(gl_boundary_, GL_BYTES)
#include "../src/core/segment3.h"

/* Run p on the plan; copy the last row / column out when asked. */
static pw_status GL_CAT(gl_run_, GL_BYTES)(const pw_problem *p, const pw_plan *plan,
                                           pw_run_info *info)
{
    pw_linear_buffers buf;
    pw_status st = pw_linear_buffers_alloc(&buf, sizeof(GL_BLOB), p->rows, p->cols);
    if (st != PW_OK) return st;
    GL_CTX ctx = {buf.bus, buf.left, buf.diag, p};
    GL_CAT(GL_CAT(gl_segment_, GL_BYTES), _init)(&ctx, p->rows, p->cols);
    pw_kernel kernel = {.segment = GL_CAT(gl_segment_, GL_BYTES), .ctx = &ctx};
    st = pw_execute(plan, &kernel, info);
    if (st == PW_OK && p->last_row)
        for (int64_t j = 0; j < p->cols; j++)
            memcpy((char *)p->last_row + j * p->cell_size, &ctx.bus[j], p->cell_size);
    if (st == PW_OK && p->last_col)
        for (int64_t i = 0; i < p->rows; i++)
            memcpy((char *)p->last_col + i * p->cell_size, &ctx.left[i], p->cell_size);
    pw_linear_buffers_free(&buf);
    return st;
}

#undef GL_BYTES
#undef GL_BLOB
#undef GL_CTX
