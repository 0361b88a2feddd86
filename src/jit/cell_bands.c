/*
 * cell_bands.c - a user cell over several ranks on GPU bands (pw_dist_cell_run with the CUDA
 * backend, `peerwave run --gpus N`, `--mpi --backend cuda`): each rank's band of columns runs on
 * its GPU through the same NVRTC kernels as a one-GPU run (src/cuda/user_cells.cu), its edge
 * columns moved by the band link (src/dist/) as the built-in apps' are:
 *   linear form: the left neighbour's last column flows right in chunks of rows; the cell sees
 *     the whole space's (i, j); afterwards every rank holds the whole last row and column, the
 *     last value and the PW_REDUCE best (the best of the ranks' bests by the reduction's rule);
 *   stencil and grid forms (grid cells whose dependences have dj >= 0: cell.c's band_reach):
 *     bands of in-place sweeps with edge columns both ways, the cell's reach wide (pipelined
 *     sweeps overlap across the GPUs where one GPU's would), the whole grid on every rank
 *     afterwards; a grid cell sees the whole space's (i, j).  grid3 cells whose dependences the
 *     3-D processor takes run as slabs of j on it (a column: a row's planes, one element to the
 *     band's storage and link: user_cells.cu), the others in bands on the CPU only (cell_cpu.c).
 * The CPU bands of the same forms are cell_cpu.c's; the ranks' agreement on the cell, its inputs
 * and parameters is cell.c's signature.
 */
#include <stdlib.h>
#include <string.h>

#include "peerwave_dist.h"
#include "../core/best_cell.h"
#include "../core/status_detail.h"
#include "../dist/dist_run.h"
#include "cell_gpu.h"
#include "cell_internal.h"

typedef struct rank_best {
    int64_t found, i, j;
    unsigned char key[8]; /* the reduced field (a value type: at most 8 bytes) */
} rank_best;

pw_status pw_cell_best_of_ranks(pw_cell *cell, pw_comm *comm, pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_field *f = &d->fields[d->reduce_field].f;
    const size_t key_bytes = pw_cell_type_size(f->type);
    rank_best mine = {res->best_i >= 0, res->best_i, res->best_j, {0}};
    memcpy(mine.key, res->best + f->offset, key_bytes);
    _Static_assert(sizeof(rank_best) <= PW_COMM_RESULT, "a rank's best fits the comm's result scratch");
    rank_best *all = pw_comm_results(comm); /* (no allocation: every rank takes part) */
    const int ranks = pw_comm_size(comm);
    pw_status st = pw_comm_allgather(comm, &mine, all, sizeof mine);
    if (st != PW_OK) return st;
    unsigned char a[PW_MAX_CELL_SIZE], b[PW_MAX_CELL_SIZE];
    const rank_best *best = NULL;
    for (int k = 0; k < ranks; k++) {
        if (!all[k].found) continue;
        if (best) {
            memset(a, 0, sizeof a), memset(b, 0, sizeof b);
            memcpy(a + f->offset, all[k].key, key_bytes);
            memcpy(b + f->offset, best->key, key_bytes);
            const int more = cell->host.greater(a, b), same = !more && !cell->host.greater(b, a);
            if (!more && !(same && pw_best_cell_tie_first(all[k].i, all[k].j, best->i, best->j))) continue;
        }
        best = &all[k];
    }
    memset(res->best, 0, sizeof res->best);
    res->best_i = res->best_j = -1;
    if (best) {
        memcpy(res->best + f->offset, best->key, key_bytes);
        res->best_i = best->i, res->best_j = best->j;
    }
    return PW_OK;
}

#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)

typedef struct gpu_bands {
    pw_cell *cell;
    pw_cell_job job; /* the caller's, with the module compiled before the run */
    pw_plan plan;    /* the band's, made before the run (its processor is the module's) */
    pw_cell_result *res;
} gpu_bands;

static pw_status gpu_band_run(void *x, const pw_options *o, const pw_band *band, pw_run_info *info)
{
    (void)o; /* (the plan was made from the same options before the run: pw_cell_run_gpu_bands) */
    gpu_bands *g = x;
    pw_plan plan = g->plan;
    plan.band = band;
    const pw_status st = pw_cell_run_gpu(g->cell, &plan, &g->job, g->res);
    *info = g->res->info;
    return st;
}

/* The band's own columns (band_out: rows + 2 halo rows of cols columns of cv bytes) into the
 * caller's grid (job->stride values, grid_cols columns a row). */
static void put_band_columns(const pw_cell_job *job, size_t cv, int64_t grid_cols, int64_t halo, int64_t col0, int64_t cols,
                             const unsigned char *band_out)
{
    unsigned char *grid = job->args->grid;
    for (int64_t r = 0; r < job->args->rows + 2 * halo; r++)
        memcpy(grid + (size_t)(r * grid_cols + col0 + halo) * cv, band_out + (size_t)(r * cols) * cv, (size_t)cols * cv);
}

pw_status pw_cell_run_gpu_bands(pw_cell *cell, const pw_options *options, const pw_cell_job *job, pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_args *a = job->args;
    pw_comm *comm = job->comm;
    const size_t vs = d->value_size;
    const int in_place = d->form != PW_CELL_LINEAR; /* (the stencil form, or a grid cell that reads as it does) */
    /* a column's bytes a row: a grid3 cell's planes and their halo (job->stride is values a row) */
    const size_t cv = vs * (size_t)pw_cell_column_values(d, job);
    gpu_bands g = {cell, *job, {0}, res};
    int64_t col0 = 0, cols = 0;
    /* This rank's band (as pw_dist_run_user_band will cut it), its plan and its module, before
     * the ranks start waiting on each other: a compile takes seconds, their watchdogs fewer. */
    pw_status local = pw_dist_split(comm, pw_comm_rank(comm), a->cols, &col0, &cols);
    if (local == PW_OK) local = pw_cell_make_plan(d, job, options, cols, &g.plan);
    const int64_t halo = d->halo;
    if (local == PW_OK && in_place && !(g.job.band_out = malloc((size_t)((a->rows + 2 * halo) * cols) * cv))) local = PW_ERR_OUT_OF_MEMORY;
    if (local == PW_OK) {
        /* (ranks that are threads of one process share the cell: one compile or load at a time) */
        pthread_mutex_lock(&cell->lock);
        local = pw_cell_gpu_prepare(cell, &g.plan, job, &g.job.gpu_module, res);
        pthread_mutex_unlock(&cell->lock);
    }
    *job->joined = 1;
    /* (whether a last row and column are asked for enters the agreement: the collectives after
     * the run that spread them must be made by every rank or by none) */
    const int64_t word = job->signature ^ (a->last_row ? 0x5bd1e995LL : 0) ^ (a->last_col ? 0x1b873593LL << 24 : 0);
    pw_status st = pw_dist_run_user_band(comm, local, options, a->rows, a->cols, job->planes, in_place ? job->sweeps : 1, in_place, word,
                                         gpu_band_run, &g, &res->info);
    if (st == PW_OK && in_place) { /* the whole grid on every rank, as pw_cell_run leaves it */
        put_band_columns(job, cv, a->cols + 2 * halo, halo, col0, cols, g.job.band_out);
        st = pw_dist_gather_columns(comm, a->grid, cv, a->rows + 2 * halo, a->cols + 2 * halo, 1, halo, a->cols);
    } else if (st == PW_OK) { /* the whole last row and column, the last value and the best on every rank */
        if (a->last_row) st = pw_dist_gather_columns(comm, a->last_row, vs, 1, a->cols, 1, 0, a->cols);
        if (st == PW_OK && a->last_col) st = pw_dist_from_last_rank(comm, a->last_col, (size_t)a->rows * vs);
        if (st == PW_OK) st = pw_dist_from_last_rank(comm, res->last, vs);
        if (st == PW_OK && d->reduce_field >= 0) st = pw_cell_best_of_ranks(cell, comm, res);
    }
    free(g.job.band_out);
    return st;
}

#else

pw_status pw_cell_run_gpu_bands(pw_cell *cell, const pw_options *options, const pw_cell_job *job, pw_cell_result *res)
{
    (void)cell, (void)res;
    pw_set_error_detail("this build has no CUDA with a run-time compiler (NVRTC): a user cell's bands run on the CPU");
    *job->joined = 1; /* (every rank fails with this status, none waits for this one) */
    return pw_dist_run_user_band(job->comm, PW_ERR_UNSUPPORTED, options, 1, 1, 1, 1, 0, job->signature, NULL, NULL, NULL);
}

#endif
