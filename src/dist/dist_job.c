/*
 * dist_job.c - pw_dist_job_run (peerwave_dist.h): a whole job of any application, held whole by
 * every rank (what `peerwave ... --mpi` has after reading its files), run as bands of columns;
 * then every rank gets the others' bands of the image results (SAT and INTHIST tables, swept
 * grids), so that each holds exactly what pw_job_run would have written (--check works on every
 * rank) -- unless the ranks are threads of one process sharing one output (`--gpus`: SAT and
 * INTHIST), which then holds every band already (pw_dist_gather_columns).  Reading and writing only a rank's band (inputs larger than one machine) is not here
 * yet: issue 29, item 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist_run.h"
#include "peerwave_batch.h"
#include "../core/alloc.h"
#include "../core/image.h"
#include "../core/status_detail.h"

/* This rank's band of an image's columns (a view), with `halo` extra columns each side. */
static pw_image band_view(const pw_image *img, int64_t first, int64_t count, int64_t halo)
{
    pw_image v = *img;
    v.stride = pw_image_stride(img);
    v.cols = count + 2 * halo;
    v.data = (char *)img->data + (size_t)first * pw_dtype_size(img->type);
    return v;
}

/* Every rank holds the job's image whole: before any band runs, the ranks compare a hash of it
 * (a file of one name with other contents on another host mixed the ranks' bands silently: a
 * table of rank 0's left half and rank 1's right half).  The same status on every rank. */
static pw_status agree_on_image(pw_comm *comm, const pw_image *img)
{
    uint64_t h = 0;
    if (img && img->data && img->rows > 0 && img->cols > 0) {
        const size_t row = (size_t)img->cols * pw_dtype_size(img->type), stride = (size_t)pw_image_stride(img) * pw_dtype_size(img->type);
        h = (uint64_t)img->rows * 1000003u + (uint64_t)img->cols * 31u + (uint64_t)img->type;
        for (int64_t i = 0; i < img->rows; i++) h = pw_dist_hash((const char *)img->data + (size_t)i * stride, row, h);
    }
    uint64_t *all = pw_malloc(sizeof *all * (size_t)comm->size);
    pw_status st = all ? pw_comm_allgather(comm, &h, all, sizeof h) : PW_ERR_OUT_OF_MEMORY;
    for (int r = 1; st == PW_OK && r < comm->size; r++)
        if (all[r] != all[0]) {
            pw_set_error_detail("rank %d holds other input values than rank 0 (one file name with other contents on "
                                "another host?): every rank must read the same input", r);
            st = PW_ERR_INVALID_ARGUMENT;
        }
    free(all);
    return st;
}

/* This rank's band of n columns; where n cannot be split (fewer columns than ranks: every rank
 * alike) an empty band, whose run every rank refuses, and the split's reason kept in why. */
static void split_band(const pw_comm *comm, int64_t n, int64_t *first, int64_t *count, char *why, size_t why_size)
{
    why[0] = '\0';
    if (pw_dist_split(comm, comm->rank, n, first, count) != PW_OK) {
        snprintf(why, why_size, "%s", pw_error_detail());
        *first = *count = 0;
    }
}

/* The run's status, told by the split's reason where the split failed (the empty band's own
 * check said "an image of 3 x 0" of a 3 x 2 image). */
static pw_status split_status(pw_status st, const char *why)
{
    if (st == PW_OK || !why[0]) return st;
    pw_set_error_detail("%s", why);
    return PW_ERR_INVALID_SIZE;
}

pw_status pw_dist_job_run(pw_comm *comm, const pw_job *job)
{
    char why[256];
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
        if ((st = agree_on_image(comm, in)) != PW_OK) return st;
        if (!in || !out) return PW_ERR_NULL_ARGUMENT;
        if (pw_image_stride(out) != out->cols) return PW_ERR_INVALID_ARGUMENT; /* (the same job on every rank) */
        split_band(comm, in->cols, &first, &count, why, sizeof why);
        pw_image vin = band_view(in, first, count, 0), vout = band_view(out, first, count, 0);
        st = split_status(pw_dist_sat(comm, &vin, &vout, o, job->info), why);
        if (st == PW_OK)
            st = pw_dist_gather_columns(comm, out->data, pw_dtype_size(out->type), out->rows, out->cols, 1, 0, out->cols);
        return st;
    }
    case PW_JOB_INTHIST: {
        const pw_image *in = job->u.inthist.in;
        if ((st = agree_on_image(comm, in)) != PW_OK) return st;
        if (!in || !job->u.inthist.out) return PW_ERR_NULL_ARGUMENT;
        split_band(comm, in->cols, &first, &count, why, sizeof why);
        pw_image vin = band_view(in, first, count, 0);
        const int bins = job->u.inthist.bins;
        /* the band's planes in their own array (rows x count each), then into the whole's */
        int32_t *band = pw_malloc(sizeof *band * (size_t)(in->rows * (count ? count : 1)) * (size_t)(bins > 0 ? bins : 1));
        /* (without memory for the band, NULL out: its check fails, and so does every rank's run) */
        st = split_status(pw_dist_inthist(comm, &vin, bins, job->u.inthist.lo, job->u.inthist.hi, band, o, job->info), why);
        if (!band && st == PW_ERR_NULL_ARGUMENT) st = PW_ERR_OUT_OF_MEMORY;
        for (int p = 0; st == PW_OK && p < bins; p++)
            for (int64_t i = 0; i < in->rows; i++)
                memcpy(job->u.inthist.out + ((int64_t)p * in->rows + i) * in->cols + first,
                       band + ((int64_t)p * in->rows + i) * count, sizeof *band * (size_t)count);
        free(band);
        if (st == PW_OK)
            st = pw_dist_gather_columns(comm, job->u.inthist.out, sizeof(int32_t), in->rows, in->cols, bins, 0, in->cols);
        return st;
    }
    case PW_JOB_CELL:
        st = pw_dist_cell_run(comm, job->u.cell.cell, &job->u.cell.args, o, job->u.cell.result);
        if (st == PW_OK && job->info && job->u.cell.result) *job->info = job->u.cell.result->info;
        return st;
    default:
        if (job->kind != PW_JOB_HEAT && job->kind != PW_JOB_SOR) {
            pw_set_error_detail("job kind %d is none of pw_job_kind's", (int)job->kind);
            return PW_ERR_INVALID_ARGUMENT;
        }
        /* fall through */
    case PW_JOB_HEAT:
    case PW_JOB_SOR: { /* bands of the interior columns with their halo columns */
        pw_image *grid = job->u.stencil.grid;
        if ((st = agree_on_image(comm, grid)) != PW_OK) return st;
        if (!grid) return PW_ERR_NULL_ARGUMENT;
        if (pw_image_stride(grid) != grid->cols) return PW_ERR_INVALID_ARGUMENT;
        split_band(comm, grid->cols - 2, &first, &count, why, sizeof why);
        pw_image band = band_view(grid, first, count, 1);
        st = job->kind == PW_JOB_SOR ? pw_dist_sor(comm, &band, job->u.stencil.sweeps, job->u.stencil.omega, o,
                                                   job->u.stencil.residual, job->info)
                                     : pw_dist_heat(comm, &band, job->u.stencil.sweeps, o, job->u.stencil.residual, job->info);
        st = split_status(st, why);
        if (st == PW_OK)
            st = pw_dist_gather_columns(comm, grid->data, pw_dtype_size(grid->type), grid->rows, grid->cols, 1, 1, grid->cols - 2);
        return st;
    }
    }
}
