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
    int64_t col0; /* a band of a distributed run: its first column (the callbacks see the whole's j) */
} GL_CTX;

static inline GL_BLOB GL_CAT(gl_cell_, GL_BYTES)(const GL_CTX *ctx, int64_t i, int64_t j,
                                                  GL_BLOB up, GL_BLOB left, GL_BLOB diag)
{
    GL_BLOB out;
    ctx->p->cell(ctx->p->user, i, j + ctx->col0, &up, &left, &diag, &out);
    return out;
}

/* (a band's column -1 is its left neighbour's last column, which the link writes over these
 * values before a row reads them; row -1's are the whole's boundary, diag[0] included) */
static inline GL_BLOB GL_CAT(gl_boundary_, GL_BYTES)(const GL_CTX *ctx, int64_t i, int64_t j)
{
    GL_BLOB out;
    ctx->p->boundary(ctx->p->user, i, j + ctx->col0, &out);
    return out;
}

#define PW_SEG_NAME GL_CAT(gl_segment_, GL_BYTES)
#define PW_SEG_CTX GL_CTX
#define PW_SEG_T GL_BLOB
#define PW_SEG_CELL GL_CAT(gl_cell_, GL_BYTES)
#define PW_SEG_BOUNDARY GL_CAT(gl_boundary_, GL_BYTES)
#include "../src/core/segment3.h"

/* Run p on the plan (band: one band of columns of a distributed run, p's columns being the
 * band's); copy the last row / column out when asked. */
static pw_status GL_CAT(gl_run_, GL_BYTES)(const pw_problem *p, const pw_plan *plan, const pw_band *band,
                                           pw_run_info *info)
{
    pw_linear_buffers buf;
    pw_status st = pw_linear_buffers_alloc(&buf, sizeof(GL_BLOB), p->rows, p->cols);
    if (st != PW_OK) return st;
    GL_CTX ctx = {buf.bus, buf.left, buf.diag, p, band ? band->col0 : 0};
    GL_CAT(GL_CAT(gl_segment_, GL_BYTES), _init)(&ctx, band && band->col0 > 0 ? 0 : p->rows, p->cols);
    if (band && band->col0 > 0) { /* column -1 is the left neighbour's: the link writes it (the user's
                                     boundary is only asked for what lies outside the space) */
        memset(buf.left, 0, sizeof(GL_BLOB) * (size_t)p->rows);
        memset(buf.diag, 0, sizeof(GL_BLOB) * (size_t)p->rows);
        ctx.diag[0] = GL_CAT(gl_boundary_, GL_BYTES)(&ctx, -1, -1);
    }
    pw_kernel kernel = {.segment = GL_CAT(gl_segment_, GL_BYTES), .ctx = &ctx};
    pw_plan run = *plan;
    pw_band_io io;
    pw_band_edges edges;
    if (band) {
        pw_linear_band_io(&buf, &io);
        st = band->attach(band->ctx, &io, &edges);
        run.edges = &edges;
    }
    if (st == PW_OK) st = pw_execute(&run, &kernel, info);
    if (band) band->detach(band->ctx, st);
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
