/* job.c - one job of the job queue: its checks, its buffers and running it (job.h). */
#include <string.h>

#include "job.h"
#include "../core/plan.h"

static const char *const kind_names[PW_JOB_KIND_COUNT] = {"sw", "dtw", "sat", "inthist", "heat", "sor", "cell"};

const char *pw_job_kind_name(pw_job_kind kind)
{
    return (unsigned)kind < PW_JOB_KIND_COUNT ? kind_names[kind] : "?";
}

void pw_job_init(pw_job *job, pw_job_kind kind)
{
    if (!job) return;
    memset(job, 0, sizeof *job);
    job->kind = kind;
    pw_options_init(&job->options);
    if (kind == PW_JOB_SW) pw_sw_params_init(&job->u.sw.params);
    if (kind == PW_JOB_DTW) job->u.dtw.type = PW_F64;
    if (kind == PW_JOB_SOR) job->u.stencil.omega = 1.5;
}

static int image_ok(const pw_image *img)
{
    return img && img->data && pw_dtype_size(img->type) > 0 && img->rows >= 1 && img->cols >= 1 &&
           (img->stride == 0 || img->stride >= img->cols);
}

/* A whole image as a buffer. */
static job_buffer image_buffer(const pw_image *img, int copy_in, int copy_out)
{
    const int64_t e = (int64_t)pw_dtype_size(img->type);
    const int64_t stride = img->stride ? img->stride : img->cols;
    return (job_buffer){img->data, img->rows, img->cols * e, stride * e, copy_in, copy_out};
}

static job_buffer flat_buffer(const void *p, int64_t bytes, int copy_in, int copy_out)
{
    return (job_buffer){(void *)p, 1, bytes, bytes, copy_in, copy_out};
}

/* rows * cols * element below 2^62 (any real buffer is). */
static int size_ok(int64_t rows, int64_t cols, int64_t element)
{
    int64_t bytes;
    return rows >= 1 && cols >= 1 && !__builtin_mul_overflow(rows, cols, &bytes) &&
           !__builtin_mul_overflow(bytes, element, &bytes) && bytes < ((int64_t)1 << 62);
}

pw_status pw_job_describe(const pw_job *job, job_layout *l)
{
    if (!job || !l) return PW_ERR_NULL_ARGUMENT;
    memset(l, 0, sizeof *l);
    pw_status st = pw_options_check(&job->options);
    if (st != PW_OK) return st;
    switch (job->kind) {
    case PW_JOB_SW: {
        const int64_t n = job->u.sw.n, m = job->u.sw.m;
        if (!job->u.sw.a || !job->u.sw.b || !job->u.sw.result) return PW_ERR_NULL_ARGUMENT;
        if (!size_ok(n, m, 1)) return n < 1 || m < 1 ? PW_ERR_INVALID_SIZE : PW_ERR_SIZE_OVERFLOW;
        l->buffer[0] = flat_buffer(job->u.sw.a, n, 1, 0);
        l->buffer[1] = flat_buffer(job->u.sw.b, m, 1, 0);
        l->count = 2;
        l->cells = (double)n * (double)m;
        break;
    }
    case PW_JOB_DTW: {
        const int64_t n = job->u.dtw.n, m = job->u.dtw.m;
        if (!job->u.dtw.a || !job->u.dtw.b || !job->u.dtw.result) return PW_ERR_NULL_ARGUMENT;
        if (job->u.dtw.type != PW_F32 && job->u.dtw.type != PW_F64) return PW_ERR_INVALID_ARGUMENT;
        if (job->u.dtw.cost != PW_DTW_ABSOLUTE && job->u.dtw.cost != PW_DTW_SQUARED) return PW_ERR_INVALID_ARGUMENT;
        const int64_t e = (int64_t)pw_dtype_size(job->u.dtw.type);
        if (!size_ok(n, m, e)) return n < 1 || m < 1 ? PW_ERR_INVALID_SIZE : PW_ERR_SIZE_OVERFLOW;
        l->buffer[0] = flat_buffer(job->u.dtw.a, n * e, 1, 0);
        l->buffer[1] = flat_buffer(job->u.dtw.b, m * e, 1, 0);
        l->count = 2;
        l->cells = (double)n * (double)m;
        break;
    }
    case PW_JOB_SAT: {
        const pw_image *in = job->u.sat.in, *out = job->u.sat.out;
        if (!in || !out || !in->data || !out->data) return PW_ERR_NULL_ARGUMENT;
        if (!image_ok(in) || !image_ok(out)) return PW_ERR_INVALID_SIZE;
        if (in->rows != out->rows || in->cols != out->cols) return PW_ERR_INVALID_SIZE;
        l->buffer[0] = image_buffer(in, 1, 0);
        l->buffer[1] = image_buffer(out, 0, 1);
        l->count = 2;
        l->cells = (double)in->rows * (double)in->cols;
        break;
    }
    case PW_JOB_INTHIST: {
        const pw_image *in = job->u.inthist.in;
        const int bins = job->u.inthist.bins;
        if (!in || !in->data || !job->u.inthist.out) return PW_ERR_NULL_ARGUMENT;
        if (!image_ok(in)) return PW_ERR_INVALID_SIZE;
        if (bins < 1 || bins > PW_MAX_BINS) return PW_ERR_INVALID_ARGUMENT;
        if (!size_ok(in->rows * (int64_t)bins, in->cols, 4)) return PW_ERR_SIZE_OVERFLOW;
        l->buffer[0] = image_buffer(in, 1, 0);
        l->buffer[1] = flat_buffer(job->u.inthist.out, in->rows * in->cols * bins * 4, 0, 1);
        l->count = 2;
        l->cells = (double)in->rows * (double)in->cols * bins;
        break;
    }
    case PW_JOB_HEAT:
    case PW_JOB_SOR: {
        const pw_image *grid = job->u.stencil.grid;
        if (!grid || !grid->data) return PW_ERR_NULL_ARGUMENT;
        if (!image_ok(grid)) return PW_ERR_INVALID_SIZE;
        if (job->u.stencil.sweeps < 0) return PW_ERR_INVALID_ARGUMENT;
        l->buffer[0] = image_buffer(grid, 1, 1);
        l->count = 1;
        l->cells = (double)grid->rows * (double)grid->cols * (double)job->u.stencil.sweeps;
        break;
    }
    case PW_JOB_CELL: {
        /* (no buffers for the queue to move: the runtime copies its own; pw_cell_run checks the
         * arguments against the cell's declarations when the job runs) */
        const pw_cell_args *a = &job->u.cell.args;
        if (!job->u.cell.cell || !job->u.cell.result) return PW_ERR_NULL_ARGUMENT;
        if (a->rows < 1 || a->cols < 1 || a->planes < 0 || a->sweeps < 0) return PW_ERR_INVALID_SIZE;
        l->cells = (double)a->rows * (double)a->cols * (double)(a->planes ? a->planes : 1) *
                   (double)(a->sweeps ? a->sweeps : 1);
        break;
    }
    default:
        return PW_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < l->count; k++) {
        const int64_t bytes = l->buffer[k].rows * l->buffer[k].row_bytes;
        l->bytes_device += bytes;
        if (l->buffer[k].copy_in) l->bytes_in += bytes;
        if (l->buffer[k].copy_out) l->bytes_out += bytes;
    }
    return PW_OK;
}

/* The image img as packed device data at p. */
static pw_image packed(const pw_image *img, void *p)
{
    return (pw_image){img->type, img->rows, img->cols, img->cols, p};
}

void pw_job_on_device(const pw_job *job, const job_layout *l, void *const *dev, device_job *dj)
{
    (void)l;
    dj->job = *job;
    pw_job *d = &dj->job;
    switch (job->kind) {
    case PW_JOB_SW: d->u.sw.a = dev[0], d->u.sw.b = dev[1]; break;
    case PW_JOB_DTW: d->u.dtw.a = dev[0], d->u.dtw.b = dev[1]; break;
    case PW_JOB_SAT:
        dj->image[0] = packed(job->u.sat.in, dev[0]);
        dj->image[1] = packed(job->u.sat.out, dev[1]);
        d->u.sat.in = &dj->image[0], d->u.sat.out = &dj->image[1];
        break;
    case PW_JOB_INTHIST:
        dj->image[0] = packed(job->u.inthist.in, dev[0]);
        d->u.inthist.in = &dj->image[0], d->u.inthist.out = dev[1];
        break;
    case PW_JOB_CELL: break; /* (host arrays: the runtime copies them) */
    default: /* heat, sor */
        dj->image[0] = packed(job->u.stencil.grid, dev[0]);
        d->u.stencil.grid = &dj->image[0];
        break;
    }
}

/* The host functions and their _device twins have the same signatures. */
pw_status pw_job_call(const pw_job *j, int on_device)
{
    const pw_options *o = &j->options;
    pw_status st;
    switch (j->kind) {
    case PW_JOB_SW:
        st = (on_device ? pw_sw_device : pw_sw)(j->u.sw.a, j->u.sw.n, j->u.sw.b, j->u.sw.m, &j->u.sw.params, o,
                                                 j->u.sw.result);
        if (st == PW_OK && j->info) *j->info = j->u.sw.result->info;
        return st;
    case PW_JOB_DTW:
        if (j->u.dtw.type == PW_F32)
            st = (on_device ? pw_dtw_f32_device : pw_dtw_f32)(j->u.dtw.a, j->u.dtw.n, j->u.dtw.b, j->u.dtw.m,
                                                               j->u.dtw.cost, o, j->u.dtw.result);
        else
            st = (on_device ? pw_dtw_f64_device : pw_dtw_f64)(j->u.dtw.a, j->u.dtw.n, j->u.dtw.b, j->u.dtw.m,
                                                               j->u.dtw.cost, o, j->u.dtw.result);
        if (st == PW_OK && j->info) *j->info = j->u.dtw.result->info;
        return st;
    case PW_JOB_SAT: return (on_device ? pw_sat_device : pw_sat)(j->u.sat.in, j->u.sat.out, o, j->info);
    case PW_JOB_INTHIST:
        return (on_device ? pw_inthist_device : pw_inthist)(j->u.inthist.in, j->u.inthist.bins, j->u.inthist.lo,
                                                            j->u.inthist.hi, j->u.inthist.out, o, j->info);
    case PW_JOB_HEAT:
        return (on_device ? pw_heat_device : pw_heat)(j->u.stencil.grid, j->u.stencil.sweeps, o,
                                                      j->u.stencil.residual, j->info);
    case PW_JOB_SOR:
        return (on_device ? pw_sor_device : pw_sor)(j->u.stencil.grid, j->u.stencil.sweeps, j->u.stencil.omega, o,
                                                    j->u.stencil.residual, j->info);
    case PW_JOB_CELL: /* (on the device too from host arrays, on options.device and its stream) */
        st = pw_cell_run(j->u.cell.cell, &j->u.cell.args, o, j->u.cell.result);
        if (st == PW_OK && j->info) *j->info = j->u.cell.result->info;
        return st;
    default: return PW_ERR_INVALID_ARGUMENT;
    }
}

pw_status pw_job_run(const pw_job *job)
{
    job_layout l;
    pw_status st = pw_job_describe(job, &l);
    return st == PW_OK ? pw_job_call(job, 0) : st;
}

void pw_job_slice(int64_t len, int k, int parts, int64_t *lo, int64_t *hi)
{
    /* the ceiling of len / parts, rounded up to 4 KiB: parts * step >= len */
    const int64_t step = ((len + parts - 1) / parts + 4095) & ~(int64_t)4095;
    *lo = k * step < len ? k * step : len;
    *hi = (k + 1) * step < len ? (k + 1) * step : len;
}

/* Bytes [offset, offset + len) of the packed buffer between the host and mem, a row piece at a
 * time (one copy when the host rows are contiguous). */
static void copy_packed(const job_buffer *b, int64_t offset, int64_t len, unsigned char *mem, int to_host)
{
    for (int64_t done = 0; done < len;) {
        const int64_t x = offset + done, row = x / b->row_bytes, col = x % b->row_bytes;
        int64_t piece = b->host_stride == b->row_bytes ? len - done : b->row_bytes - col;
        if (piece > len - done) piece = len - done;
        unsigned char *host = (unsigned char *)b->host + row * b->host_stride + col;
        if (to_host)
            memcpy(host, mem + done, (size_t)piece);
        else
            memcpy(mem + done, host, (size_t)piece);
        done += piece;
    }
}

void pw_job_gather(const job_buffer *b, int64_t offset, int64_t len, void *dst)
{
    copy_packed(b, offset, len, dst, 0);
}

void pw_job_scatter(const job_buffer *b, int64_t offset, int64_t len, const void *src)
{
    copy_packed(b, offset, len, (unsigned char *)src, 1);
}
