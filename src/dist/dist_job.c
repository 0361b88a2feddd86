/*
 * dist_job.c - pw_dist_job_run (peerwave_dist.h): a whole job of any application, held whole by
 * every rank (what `peerwave ... --mpi` has after reading its files), run as bands of columns;
 * then every rank gets the others' bands of the image results (SAT and INTHIST tables, swept
 * grids), so that each holds exactly what pw_job_run would have written (--check works on every
 * rank).  Reading and writing only a rank's band (inputs larger than one machine) is not here
 * yet: issue 29, item 3.
 */
#include <stdlib.h>
#include <string.h>

#include "dist_run.h"
#include "peerwave_batch.h"
#include "../core/alloc.h"
#include "../core/image.h"
#include "../core/status_detail.h"

#define GATHER_BYTES ((size_t)32 << 20) /* a message of the gather at most */

/* Every rank's columns [first, first + count) of `planes` planes of rows x cols elements at data
 * (row stride cols, plane stride rows * cols) to every other rank, a few rows a message; pairs in
 * one fixed order on every rank, so the blocking messages cannot wait on each other. */
static pw_status gather_columns(pw_comm *c, void *data, size_t elem, int64_t rows, int64_t cols, int planes,
                                int64_t col_offset, int64_t interior_cols)
{
    /* one buffer for the largest band, agreed on by every rank before any message (a rank without
     * it must not leave the others waiting) */
    int64_t widest = 0, first, count;
    for (int k = 0; k < c->size; k++)
        if (pw_dist_split(c, k, interior_cols, &first, &count) == PW_OK && count > widest) widest = count;
    const size_t widest_bytes = (size_t)widest * elem;
    int64_t per = (int64_t)(GATHER_BYTES / (widest_bytes ? widest_bytes : 1));
    if (per < 1) per = 1;
    if (per > rows) per = rows;
    unsigned char *buf = pw_malloc(widest_bytes * (size_t)per + 1);
    int ok = buf != NULL, *oks = pw_comm_results(c);
    pw_status st = pw_comm_allgather(c, &ok, oks, sizeof ok);
    for (int k = 0; st == PW_OK && k < c->size; k++)
        if (!oks[k]) st = PW_ERR_OUT_OF_MEMORY;
    for (int k = 0; k < c->size && st == PW_OK; k++) {
        st = pw_dist_split(c, k, interior_cols, &first, &count);
        const size_t row_bytes = (size_t)count * elem;
        for (int d = 0; d < c->size && st == PW_OK; d++) {
            if (d == k || (c->rank != k && c->rank != d)) continue;
            for (int p = 0; p < planes && st == PW_OK; p++)
                for (int64_t i0 = 0; i0 < rows && st == PW_OK; i0 += per) {
                    const int64_t i1 = i0 + per < rows ? i0 + per : rows;
                    unsigned char *at = (unsigned char *)data + ((size_t)p * (size_t)(rows * cols) +
                                                                (size_t)(i0 * cols + col_offset + first)) * elem;
                    if (c->rank == k) {
                        for (int64_t i = i0; i < i1; i++)
                            memcpy(buf + (size_t)(i - i0) * row_bytes, at + (size_t)((i - i0) * cols) * elem, row_bytes);
                        st = dist_message(c, 1, d, PW_TAG_GATHER, buf, row_bytes * (size_t)(i1 - i0));
                    } else {
                        st = dist_message(c, 0, k, PW_TAG_GATHER, buf, row_bytes * (size_t)(i1 - i0));
                        for (int64_t i = i0; st == PW_OK && i < i1; i++)
                            memcpy(at + (size_t)((i - i0) * cols) * elem, buf + (size_t)(i - i0) * row_bytes, row_bytes);
                    }
                }
        }
    }
    free(buf);
    return st;
}

/* This rank's band of an image's columns (a view), with `halo` extra columns each side. */
static pw_image band_view(const pw_image *img, int64_t first, int64_t count, int64_t halo)
{
    pw_image v = *img;
    v.stride = pw_image_stride(img);
    v.cols = count + 2 * halo;
    v.data = (char *)img->data + (size_t)first * pw_dtype_size(img->type);
    return v;
}

pw_status pw_dist_job_run(pw_comm *comm, const pw_job *job)
{
    if (!comm || !job) return PW_ERR_NULL_ARGUMENT;
    const pw_options *o = &job->options;
    pw_status st;
    int64_t first = 0, count = 0;
    switch (job->kind) {
    case PW_JOB_SW:
        st = pw_dist_sw(comm, job->u.sw.a, job->u.sw.n, job->u.sw.b, job->u.sw.m, &job->u.sw.params, o, job->u.sw.result);
        if (st == PW_OK && job->info) *job->info = job->u.sw.result->info;
        return st;
    case PW_JOB_DTW:
        st = job->u.dtw.type == PW_F64
                 ? pw_dist_dtw_f64(comm, job->u.dtw.a, job->u.dtw.n, job->u.dtw.b, job->u.dtw.m, job->u.dtw.cost, o, job->u.dtw.result)
                 : pw_dist_dtw_f32(comm, job->u.dtw.a, job->u.dtw.n, job->u.dtw.b, job->u.dtw.m, job->u.dtw.cost, o, job->u.dtw.result);
        if (st == PW_OK && job->info) *job->info = job->u.dtw.result->info;
        return st;
    case PW_JOB_SAT: {
        const pw_image *in = job->u.sat.in;
        pw_image *out = job->u.sat.out;
        if (!in || !out) return PW_ERR_NULL_ARGUMENT;
        if (pw_image_stride(out) != out->cols) return PW_ERR_INVALID_ARGUMENT; /* (the same job on every rank) */
        if (pw_dist_split(comm, comm->rank, in->cols, &first, &count) != PW_OK) count = 0; /* (refused by every rank below) */
        pw_image vin = band_view(in, first, count, 0), vout = band_view(out, first, count, 0);
        st = pw_dist_sat(comm, &vin, &vout, o, job->info);
        if (st == PW_OK)
            st = gather_columns(comm, out->data, pw_dtype_size(out->type), out->rows, out->cols, 1, 0, out->cols);
        return st;
    }
    case PW_JOB_INTHIST: {
        const pw_image *in = job->u.inthist.in;
        if (!in || !job->u.inthist.out) return PW_ERR_NULL_ARGUMENT;
        if (pw_dist_split(comm, comm->rank, in->cols, &first, &count) != PW_OK) count = 0;
        pw_image vin = band_view(in, first, count, 0);
        const int bins = job->u.inthist.bins;
        /* the band's planes in their own array (rows x count each), then into the whole's */
        int32_t *band = pw_malloc(sizeof *band * (size_t)(in->rows * (count ? count : 1)) * (size_t)(bins > 0 ? bins : 1));
        /* (without memory for the band, NULL out: its check fails, and so does every rank's run) */
        st = pw_dist_inthist(comm, &vin, bins, job->u.inthist.lo, job->u.inthist.hi, band, o, job->info);
        if (!band && st == PW_ERR_NULL_ARGUMENT) st = PW_ERR_OUT_OF_MEMORY;
        for (int p = 0; st == PW_OK && p < bins; p++)
            for (int64_t i = 0; i < in->rows; i++)
                memcpy(job->u.inthist.out + ((int64_t)p * in->rows + i) * in->cols + first,
                       band + ((int64_t)p * in->rows + i) * count, sizeof *band * (size_t)count);
        free(band);
        if (st == PW_OK)
            st = gather_columns(comm, job->u.inthist.out, sizeof(int32_t), in->rows, in->cols, bins, 0, in->cols);
        return st;
    }
    case PW_JOB_CELL:
        pw_set_error_detail("a user cell runs on one device or the CPU's cores; bands of a cell over several ranks "
                            "are not built yet");
        return PW_ERR_UNSUPPORTED;
    default: { /* heat, sor: bands of the interior columns with their halo columns */
        pw_image *grid = job->u.stencil.grid;
        if (!grid) return PW_ERR_NULL_ARGUMENT;
        if (pw_image_stride(grid) != grid->cols) return PW_ERR_INVALID_ARGUMENT;
        if (pw_dist_split(comm, comm->rank, grid->cols - 2, &first, &count) != PW_OK) count = 0;
        pw_image band = band_view(grid, first, count, 1);
        st = job->kind == PW_JOB_SOR ? pw_dist_sor(comm, &band, job->u.stencil.sweeps, job->u.stencil.omega, o,
                                                   job->u.stencil.residual, job->info)
                                     : pw_dist_heat(comm, &band, job->u.stencil.sweeps, o, job->u.stencil.residual, job->info);
        if (st == PW_OK)
            st = gather_columns(comm, grid->data, pw_dtype_size(grid->type), grid->rows, grid->cols, 1, 1, grid->cols - 2);
        return st;
    }
    }
}
