/* cell_cpu.c - user cells on the CPU engines: the compiled entry points (cell_host.h) as the
 * linear cell callbacks of pw_run, or as the segment function of a full-storage run. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_dist.h"
#include "../core/alloc.h" /* pw_machine_memory */
#include "../core/best_cell.h"
#include "../core/exec.h"
#include "../core/halo_band.h"
#include "../core/status_detail.h"
#include "../core/trace_hold.h"
#include "../dist/dist_run.h" /* pw_dist_run_signed */
#include "../cuda/device/user_args.h"
#include "cell_internal.h"

/* What the linear callbacks see: the entry points, the pw_ctx image and the per-row reduction
 * (row i's best value and its smallest column: a row's cells come left to right, one at a time). */
typedef struct linear_run {
    const pw_cell_host *host;
    const unsigned char *ctx;
    size_t vsize;
    unsigned char *row_best; /* rows x vsize, NULL without PW_REDUCE */
    int64_t *row_best_col;
} linear_run;

static void linear_cell(void *user, int64_t i, int64_t j, const void *up, const void *left, const void *diag, void *out)
{
    const linear_run *r = user;
    r->host->cell(r->ctx, i, j, up, left, diag, out);
    if (r->row_best) {
        unsigned char *best = r->row_best + (size_t)i * r->vsize;
        if (r->host->greater(out, best)) {
            memcpy(best, out, r->vsize);
            r->row_best_col[i] = j;
        }
    }
}

static void linear_boundary(void *user, int64_t i, int64_t j, void *out)
{
    const linear_run *r = user;
    r->host->boundary(r->ctx, i, j, out);
}

static pw_status run_linear(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, const unsigned char *ctx,
                            pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_args *a = job->args;
    const size_t vs = d->value_size;
    linear_run r = {&cell->host, ctx, vs, NULL, NULL};
    /* a row and a column of values (and a best value a row): refused up front past the machine's
     * memory, with the size (a sanitizer aborts on an impossible malloc; a system that
     * overcommits may kill the process later) */
    const double need = (double)(a->rows + a->cols) * (double)vs +
                        (d->reduce_field >= 0 ? (double)a->rows * (double)(vs + sizeof(int64_t)) : 0),
                 memory = pw_machine_memory();
    if (memory > 0 && need > memory) {
        pw_set_error_detail("%lld x %lld cells: a row and a column of %zu-byte values%s need %.1f GB, more than this "
                            "machine's %.1f GB", (long long)a->rows, (long long)a->cols, vs,
                            d->reduce_field >= 0 ? " and a best value a row" : "", need / 1e9, memory / 1e9);
        return PW_ERR_OUT_OF_MEMORY;
    }
    unsigned char *last_row = a->last_row ? a->last_row : malloc((size_t)a->cols * vs);
    pw_status st = last_row ? PW_OK : PW_ERR_OUT_OF_MEMORY;
    if (st == PW_OK && d->reduce_field >= 0) {
        r.row_best = malloc((size_t)a->rows * vs);
        r.row_best_col = malloc((size_t)a->rows * sizeof(int64_t));
        if (!r.row_best || !r.row_best_col) st = PW_ERR_OUT_OF_MEMORY;
        for (int64_t i = 0; st == PW_OK && i < a->rows; i++) {
            cell->host.lowest(r.row_best + (size_t)i * vs);
            r.row_best_col[i] = -1;
        }
    }
    if (st == PW_OK) {
        pw_problem p;
        memset(&p, 0, sizeof p);
        p.rows = a->rows;
        p.cols = a->cols;
        p.storage = PW_STORAGE_LINEAR;
        p.cell_size = vs;
        p.cell = linear_cell;
        p.boundary = linear_boundary;
        p.last_row = last_row;
        p.last_col = a->last_col;
        p.user = &r;
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CPU;
        o.strategy = plan->strategy;
        o.shape = (pw_tile_shape)plan->tiling.shape;
        o.tile_h = (int)plan->tiling.h;
        o.tile_w = plan->tiling.w;
        o.threads = plan->workers_available;
        o.trace = plan->trace;
        o.trace_user = plan->trace_user;
        o.watchdog_ms = plan->watchdog_ns / 1000000;
        o.progress = plan->monitor.fn;
        o.progress_user = plan->monitor.user;
        o.progress_interval_ms = plan->monitor.interval_ns / 1000000;
        o.cancel = plan->monitor.cancel;
        if (job->comm) *job->joined = 1;
        st = job->comm ? pw_dist_run_signed(job->comm, &p, &o, &res->info, job->signature) : pw_run(&p, &o, &res->info);
    }
    if (st == PW_OK) memcpy(res->last, last_row + (size_t)(a->cols - 1) * vs, vs);
    if (st == PW_OK && r.row_best) { /* rows in order, strict >: the smallest row wins ties */
        const unsigned char *best = NULL;
        for (int64_t i = 0; i < a->rows; i++)
            if (r.row_best_col[i] >= 0 && (!best || cell->host.greater(r.row_best + (size_t)i * vs, best))) {
                best = r.row_best + (size_t)i * vs;
                res->best_i = i;
                res->best_j = r.row_best_col[i];
            }
        /* the reduced field alone, as the GPU keeps it (the others stay zero) */
        const pw_cell_field *f = &d->fields[d->reduce_field].f;
        if (best) memcpy(res->best + f->offset, best + f->offset, pw_cell_type_size(f->type));
        if (job->comm) st = pw_cell_best_of_ranks(cell, job->comm, res);
    }
    if (last_row != a->last_row) free(last_row);
    free(r.row_best);
    free(r.row_best_col);
    return st;
}

typedef struct grid_run {
    const pw_cell *cell;
    const pw_cell_host *host; /* the cell's build: cell->host, or cell->host_checked (the reference) */
    const unsigned char *ctx;
    int64_t col0; /* a band's first column: the engine's j is the band's, the cell's the whole's */
    unsigned *far; /* grid3, sweeps pipelined: set when the cell read past its downwind halo */
} grid_run;

static void grid_segment(void *user, int64_t i, int64_t j0, int64_t j1, int worker)
{
    (void)worker;
    const grid_run *g = user;
    if (g->far)
        g->host->row_watch(g->ctx, i, g->col0 + j0, g->col0 + j1, g->far);
    else
        g->host->row(g->ctx, i, g->col0 + j0, g->col0 + j1);
}

pw_status pw_cell_cpu_ready(pw_cell *cell, int checked, pw_cell_result *res)
{
    pw_cell_host *host = checked ? &cell->host_checked : &cell->host;
    if (host->handle) return PW_OK;
    char *log = NULL;
    const double t0 = pw_seconds_now();
    pw_status st = pw_cell_host_build(&cell->decl, cell->types, cell->text, cell->name, checked, host, &log, &res->compiled,
                                      res->note, sizeof res->note);
    res->compile_seconds = pw_seconds_now() - t0;
    pw_cell_keep_log(cell, log);
    return st;
}

/* A grid or stencil cell's sweeps: pipelined in one run of the engine where `pipelined` (the
 * tiling's sweep reads say how far each waits for the one before), else one run a sweep (a band's
 * link counts them over the whole run: edge_sweep0). */
static pw_status run_sweeps(const pw_plan *plan, const pw_kernel *k, int pipelined, int64_t sweeps, pw_run_info *info)
{
    if (pipelined) return pw_execute_sweeps(plan, k, sweeps, info);
    pw_plan one = *plan;
    pw_status st = PW_OK;
    for (int64_t s = 0; s < sweeps && st == PW_OK; s++) {
        one.edge_sweep0 = plan->edge_sweep0 + s;
        st = pw_execute(&one, k, info);
    }
    return st;
}

/* One process's sweeps of a grid, stencil or grid3 cell: pipelined, each waiting for what its cells
 * read of the one before (job->sweep_reads).  A grid3 cell may read any downwind point, and the
 * previous sweep is only known to be done within its halo: pw_at3 flags a read past it, and then
 * the sweeps run again from the grid as it was, one after another (the GPU's rule:
 * user_cells.cu), said in the note. */
static pw_status run_in_place(const pw_plan *plan, const pw_cell_job *job, grid_run *g, pw_cell_result *res)
{
    const pw_cell_decl *d = &g->cell->decl;
    pw_kernel k = {.segment = grid_segment, .ctx = g};
    pw_plan piped = *plan;
    const int pipelined = job->pipelined_reads && job->sweeps > 1 && pw_execute_sweeps_a_run(plan) > 1 &&
                          pw_tiling_set_sweep_reads(&piped.tiling, job->sweep_reads, job->n_sweep_reads) == PW_OK;
    if (!pipelined || d->form != PW_CELL_GRID3) return run_sweeps(&piped, &k, pipelined, job->sweeps, &res->info);
    const pw_cell_args *a = job->args;
    const size_t bytes = (size_t)(a->rows + 2 * d->halo) * (size_t)job->stride * d->value_size;
    /* (no copy -- none allocated, or one that would take more than a quarter of the memory, where
     * an overcommitting system would rather kill the process than fail the allocation -- no
     * pipelining) */
    const double memory = pw_machine_memory();
    void *before = memory > 0 && (double)bytes > memory / 4 ? NULL : malloc(bytes);
    if (!before) return run_sweeps(plan, &k, 0, job->sweeps, &res->info);
    memcpy(before, a->grid, bytes);
    unsigned far = 0;
    g->far = &far;
    /* "done" and the tiles only from the run that gives the result */
    piped.monitor.hold_final = 1;
    pw_trace_buffer held = {0};
    if (plan->trace) {
        piped.trace = pw_trace_buffer_keep;
        piped.trace_user = &held;
    }
    pw_status st = run_sweeps(&piped, &k, 1, job->sweeps, &res->info);
    g->far = NULL;
    const int again = st == PW_OK && __atomic_load_n(&far, __ATOMIC_RELAXED);
    const pw_status traced = pw_trace_buffer_release(&held, again ? NULL : plan->trace, plan->trace_user);
    if (st == PW_OK && !again) st = traced;
    if (st == PW_OK && !again) pw_monitor_finish(&plan->monitor, res->info.cells, NULL);
    if (again) {
        memcpy(a->grid, before, bytes);
        pw_run_info_clear(&res->info);
        st = run_sweeps(plan, &k, 0, job->sweeps, &res->info);
        const size_t used = strlen(res->note);
        snprintf(res->note + used, sizeof res->note - used, "%sthe cell read a point more than PW_HALO(%d) downwind: its sweeps ran one after another",
                 used ? "; " : "", d->halo);
    }
    free(before);
    return st;
}

/* ---- a stencil or grid cell's band of a distributed run: halo columns both ways ---- */

/* A band's run: the whole grid on every rank; this band sweeps its own copy of its columns and
 * `side` more each side (core/halo_band.h's edges write into it).  A copy, not the caller's grid:
 * ranks that are threads of one process may pass one grid, and there a band's halo is its
 * neighbour's own columns -- the link would write them (the same values, in the order the waits
 * keep) while the neighbour's engine reads them, a data race in C's terms.  The copy goes back
 * into the caller's grid once every rank has finished (run_in_place_bands).  The cell sees the
 * whole space (its ctx's cols, and its j: grid_run.col0; its grid pointer shifted so that the
 * whole space's j lands in the copy), as in one process's run.  What crosses an edge is the cell's
 * reach (cell.c, band_reach): its last `band_reach` columns flow right as each sweep makes them,
 * its first ones flow left for the next sweep; a grid3 cell's band is whole j slabs of planes (its
 * engine's columns j x planes + k), and what crosses is whole slabs, the k halo with them.
 * Sweeps overlap where the dependences are within (1, 0), (0, 1) and the halo is 1 (job->pipelined,
 * the stencils' rule: the band link's edges know no other); else each is one run of the engine,
 * the band link counting them over the whole run. */
typedef struct in_place_band {
    pw_cell *cell;
    const pw_cell_job *job;
    const unsigned char *grid; /* the caller's whole grid (read at the start) */
    size_t vsize;
    int64_t slab;              /* grid elements a column (j) of a row: 1, or planes + 2 halo (grid3) */
    int64_t side;              /* columns the copy holds each side: max(reach, halo) */
    unsigned char *copy;       /* rows + 2 halo rows of (cols + 2 side) slabs; freed by the caller */
    int64_t col0, cols;        /* the band's */
} in_place_band;

/* Elements a row of the band's copy. */
static int64_t copy_stride(const in_place_band *b) { return (b->cols + 2 * b->side) * b->slab; }

/* The band's columns and `side` more each side of every grid row, from the caller's grid (fewer at
 * the space's ends: there the halo is all there is, and all the cell reads). */
static pw_status copy_in(in_place_band *b)
{
    const pw_cell_args *a = b->job->args;
    const int64_t halo = b->cell->decl.halo, rows = a->rows + 2 * halo, stride = copy_stride(b);
    const int64_t from = b->col0 + halo - b->side; /* the grid's column of the copy's column 0 */
    const int64_t lo = from > 0 ? from : 0, hi = from + b->cols + 2 * b->side < a->cols + 2 * halo ? from + b->cols + 2 * b->side
                                                                                                  : a->cols + 2 * halo;
    b->copy = calloc((size_t)(rows * stride), b->vsize);
    if (!b->copy) return PW_ERR_OUT_OF_MEMORY;
    const size_t column = (size_t)b->slab * b->vsize;
    for (int64_t r = 0; r < rows; r++)
        memcpy(b->copy + ((size_t)(r * stride) + (size_t)(lo - from) * (size_t)b->slab) * b->vsize,
               b->grid + ((size_t)(r * b->job->stride) + (size_t)lo * (size_t)b->slab) * b->vsize, (size_t)(hi - lo) * column);
    return PW_OK;
}

/* The band's own columns of its copy into the caller's grid. */
static void copy_out(const in_place_band *b, unsigned char *grid)
{
    const pw_cell_args *a = b->job->args;
    const int64_t halo = b->cell->decl.halo, stride = copy_stride(b);
    const size_t column = (size_t)b->slab * b->vsize;
    for (int64_t r = 0; r < a->rows + 2 * halo; r++)
        memcpy(grid + ((size_t)(r * b->job->stride) + (size_t)(b->col0 + halo) * (size_t)b->slab) * b->vsize,
               b->copy + ((size_t)(r * stride) + (size_t)b->side * (size_t)b->slab) * b->vsize, (size_t)b->cols * column);
}

static pw_status in_place_band_run(void *x, const pw_options *o, const pw_band *band, pw_run_info *info)
{
    in_place_band *b = x;
    const pw_cell_job *job = b->job;
    const pw_cell_args *a = job->args;
    const int64_t halo = b->cell->decl.halo, planes = job->planes;
    b->col0 = band->col0, b->cols = band->cols;
    pw_plan plan;
    pw_status st = pw_plan_make(o, a->rows, band->cols * planes, 0, &plan);
    if (st == PW_OK) st = copy_in(b);
    int64_t ctx[PW_USER_CTX_WORDS];
    /* (the whole space's j at the copy's column j - col0 + side) */
    unsigned char *at = st == PW_OK ? b->copy + (b->side - halo - band->col0) * b->slab * (ptrdiff_t)b->vsize : NULL;
    if (st == PW_OK)
        st = pw_cell_decl_ctx(&b->cell->decl, a->rows, a->cols, planes, at, copy_stride(b), a->inputs, a->params,
                              (unsigned char *)ctx);
    if (st != PW_OK) return st;
    grid_run g = {b->cell, &b->cell->host, (const unsigned char *)ctx, band->col0 * planes, NULL};
    pw_kernel k = {.segment = grid_segment, .ctx = &g};
    pw_halo_band edge = {.own = b->copy + (size_t)(b->side * b->slab) * b->vsize,
                         .elem = b->vsize,
                         .stride = copy_stride(b),
                         .cols = band->cols * b->slab,
                         .width = job->band_reach * b->slab,
                         .top = halo};
    const pw_band_io io = pw_halo_band_io(&edge);
    pw_band_edges edges;
    st = band->attach(band->ctx, &io, &edges);
    plan.edges = &edges;
    plan.edge_cols = job->band_reach * planes;
    plan.edge_rows_below = job->band_below;
    pw_run_info_clear(info);
    if (st == PW_OK) st = run_sweeps(&plan, &k, job->pipelined, job->sweeps, info);
    band->detach(band->ctx, st);
    return st;
}

/* The whole grid on every rank afterwards, as pw_cell_run leaves it (each band's columns into the
 * caller's grid once every rank has finished, then sent to every other rank). */
static pw_status run_in_place_bands(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, pw_cell_result *res)
{
    const pw_cell_args *a = job->args;
    const int64_t halo = cell->decl.halo;
    in_place_band b = {cell, job, a->grid, cell->decl.value_size, cell->decl.form == PW_CELL_GRID3 ? job->planes + 2 * halo : 1,
                       pw_cell_band_side(&cell->decl, job), NULL, 0, 0};
    const size_t column_bytes = (size_t)b.slab * b.vsize;
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU, o.strategy = plan->strategy, o.threads = plan->workers_available;
    /* (the caller's tiles, or the whole space's: cell.c's pw_cell_make_plan gives spaces of few
     * rows 16 tile-rows a worker, so that a band need not wait a whole round for its left
     * neighbour's first tile-row) */
    o.shape = (pw_tile_shape)plan->tiling.shape;
    o.tile_h = (int)plan->tiling.h;
    o.tile_w = plan->tiling.w;
    o.watchdog_ms = plan->watchdog_ns / 1000000;
    *job->joined = 1;
    /* (pw_dist_run_user_band returns once every rank has finished its band: collective) */
    pw_status st = pw_dist_run_user_band(job->comm, PW_OK, &o, a->rows, a->cols, job->planes, job->sweeps, 1, job->signature,
                                         in_place_band_run, &b, &res->info);
    if (st == PW_OK) copy_out(&b, a->grid);
    free(b.copy);
    if (st == PW_OK) st = pw_dist_gather_columns(job->comm, a->grid, column_bytes, a->rows + 2 * halo, a->cols + 2 * halo, 1, halo, a->cols);
    return st;
}

pw_status pw_cell_run_cpu(pw_cell *cell, const pw_plan *plan, const pw_cell_job *job, pw_cell_result *res)
{
    const pw_cell_decl *d = &cell->decl;
    const pw_cell_args *a = job->args;
    /* the sequential engine, the reference, checks a grid cell's reads (cell_decl.c) */
    const int checked = (d->form == PW_CELL_GRID || d->form == PW_CELL_GRID3) && !job->comm &&
                        plan->strategy == PW_STRATEGY_SEQUENTIAL;
    pw_status st = pw_cell_cpu_ready(cell, checked, res);
    if (st != PW_OK) return st;
    int64_t ctx[PW_USER_CTX_WORDS]; /* the pw_ctx image, as the GPU gets it */
    st = pw_cell_decl_ctx(d, a->rows, a->cols, job->planes, a->grid, job->stride, a->inputs, a->params, (unsigned char *)ctx);
    if (st != PW_OK) return st;
    if (d->form == PW_CELL_LINEAR) return run_linear(cell, plan, job, (const unsigned char *)ctx, res);
    if (job->comm) return run_in_place_bands(cell, plan, job, res); /* (the forms cell.c lets through) */
    const pw_cell_host *host = checked ? &cell->host_checked : &cell->host;
    grid_run g = {cell, host, (const unsigned char *)ctx, 0, NULL};
    int64_t at[3];
    if (checked) (void)host->outside(at); /* (forget a failed run's point) */
    st = run_in_place(plan, job, &g, res);
    if (st == PW_OK && checked && host->outside(at)) {
        char where[96];
        if (d->form == PW_CELL_GRID3) snprintf(where, sizeof where, "pw_at3(c, %lld, %lld, %lld)", (long long)at[0], (long long)at[1], (long long)at[2]);
        else snprintf(where, sizeof where, "pw_at(c, %lld, %lld)", (long long)at[0], (long long)at[1]);
        pw_set_error_detail("%s: the cell read %s, outside the grid and its halo of %d (i from %d to %lld, j from %d to %lld%s): "
                            "a dependence past PW_HALO, or an unguarded read at the grid's edge",
                            cell->name, where, d->halo, -d->halo, (long long)(a->rows + d->halo - 1), -d->halo,
                            (long long)(a->cols + d->halo - 1), d->form == PW_CELL_GRID3 ? ", k likewise" : "");
        st = PW_ERR_BAD_INPUT;
    }
    return st;
}
