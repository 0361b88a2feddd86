/* cell.c - the runtime API (peerwave_runtime.h): parse a cell, check a run, pick the backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peerwave_dist.h" /* pw_dist_cell_run */
#include "../dist/dist_run.h" /* pw_dist_run_failed */
#include "../core/checked.h"
#include "../core/exec.h"
#include "../core/status_detail.h"
#include "../../apps/checks.h" /* PW_STENCIL_CUDA_TILE_H */
#include "../cuda/kernel_desc.h"
#include "cell_gpu.h"
#include "cell_internal.h"

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

void pw_cell_keep_log(pw_cell *cell, char *log)
{
    free(cell->log);
    cell->log = log;
}

pw_status pw_cell_create(const char *text, const char *name, pw_cell **out)
{
    if (!text || !out) return PW_ERR_NULL_ARGUMENT;
    *out = NULL;
    if (!name) name = "cell";
    if (strpbrk(name, "\"\\\n")) {
        pw_set_error_detail("a cell's name cannot hold quotes, backslashes or newlines");
        return PW_ERR_INVALID_ARGUMENT;
    }
    pw_cell *c = calloc(1, sizeof *c);
    if (!c) return PW_ERR_OUT_OF_MEMORY;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return PW_ERR_OUT_OF_MEMORY;
    }
    pw_status st = pw_cell_decl_parse(text, name, &c->decl);
    if (st == PW_OK) {
        c->text = copy_text(text);
        c->name = copy_text(name);
        c->types = pw_cell_decl_types(&c->decl);
        if (!c->text || !c->name || !c->types) st = PW_ERR_OUT_OF_MEMORY;
    }
    if (st != PW_OK) {
        pw_cell_free(c);
        return st;
    }
    *out = c;
    return PW_OK;
}

void pw_cell_free(pw_cell *cell)
{
    if (!cell) return;
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    pw_cell_gpu_free(cell);
#endif
    pw_cell_host_close(&cell->host);
    pw_cell_host_close(&cell->host_checked);
    free(cell->text);
    free(cell->name);
    free(cell->types);
    free(cell->log);
    pthread_mutex_destroy(&cell->lock);
    free(cell);
}

/* (NULL cell: what no cell declares -- 0, -1, none, "" -- as the accessors cannot return a status) */
pw_cell_form pw_cell_get_form(const pw_cell *cell) { return cell ? cell->decl.form : PW_CELL_LINEAR; }
size_t pw_cell_value_size(const pw_cell *cell) { return cell ? cell->decl.value_size : 0; }
int pw_cell_halo(const pw_cell *cell) { return cell ? cell->decl.halo : 0; }
int pw_cell_reduced_field(const pw_cell *cell) { return cell ? cell->decl.reduce_field : -1; }
const char *pw_cell_compile_log(const pw_cell *cell) { return cell && cell->log ? cell->log : ""; }

/* The items of one kind as a plain array (pw_cell_item begins with its field); count may be NULL. */
static const pw_cell_field *items(const pw_cell_item *it, int n, int *count, pw_cell_field *scratch)
{
    for (int k = 0; k < n; k++) scratch[k] = it[k].f;
    if (count) *count = n;
    return scratch;
}

const pw_cell_field *pw_cell_fields(const pw_cell *cell, int *count)
{
    static _Thread_local pw_cell_field scratch[PW_CELL_MAX_FIELDS];
    return items(cell ? cell->decl.fields : NULL, cell ? cell->decl.n_fields : 0, count, scratch);
}
const pw_cell_field *pw_cell_inputs(const pw_cell *cell, int *count)
{
    static _Thread_local pw_cell_field scratch[PW_CELL_MAX_ITEMS];
    return items(cell ? cell->decl.inputs : NULL, cell ? cell->decl.n_inputs : 0, count, scratch);
}
const pw_cell_field *pw_cell_params(const pw_cell *cell, int *count)
{
    static _Thread_local pw_cell_field scratch[PW_CELL_MAX_ITEMS];
    return items(cell ? cell->decl.params : NULL, cell ? cell->decl.n_params : 0, count, scratch);
}

double pw_cell_field_as_double(const pw_cell *cell, const void *value, int field)
{
    if (!cell || !value || field < 0 || field >= cell->decl.n_fields) return 0;
    return pw_cell_decl_field_value(&cell->decl, value, field);
}

/* a * b * c as a count of size-byte elements that fits in memory's address range; 0 if not. */
static int fits(int64_t a, int64_t b, int64_t c, size_t size)
{
    size_t ab;
    return pw_checked_bytes(a, b, 1, &ab) && ab <= (size_t)INT64_MAX && pw_checked_bytes((int64_t)ab, c, size, &ab);
}

/* Sizes that fit: every array the run touches must be addressable in bytes. */
static pw_status check_args(const pw_cell_decl *d, const pw_cell_args *a, int64_t planes)
{
    if (a->rows < 1 || a->cols < 1 || planes < 1) {
        pw_set_error_detail("rows %lld, cols %lld, planes %lld: each at least 1", (long long)a->rows, (long long)a->cols,
                            (long long)planes);
        return PW_ERR_INVALID_SIZE;
    }
    if (a->sweeps < 0) {
        pw_set_error_detail("sweeps %lld: at least 0 (0 means 1)", (long long)a->sweeps);
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (d->form == PW_CELL_LINEAR && a->sweeps > 1) { /* (as `peerwave run --sweeps` and Python refuse it) */
        pw_set_error_detail("sweeps %lld: a linear cell runs once (sweeps are for grid and stencil cells)", (long long)a->sweeps);
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (d->form != PW_CELL_GRID3 && a->planes > 1) {
        pw_set_error_detail("planes is for PW_FORM(grid3) cells");
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (!fits(a->rows, a->cols, planes, d->value_size)) return PW_ERR_SIZE_OVERFLOW;
    for (int k = 0; k < d->n_inputs; k++) {
        if (!fits(pw_cell_decl_input_count(d, k, a->rows, a->cols, planes), 1, 1, pw_cell_type_size(d->inputs[k].f.type)))
            return PW_ERR_SIZE_OVERFLOW;
    }
    if (d->n_inputs && !a->inputs) {
        pw_set_error_detail("the cell declares %d inputs and none were given", d->n_inputs);
        return PW_ERR_NULL_ARGUMENT;
    }
    for (int k = 0; k < d->n_inputs; k++)
        if (!a->inputs[k]) {
            pw_set_error_detail("input %s is missing", d->inputs[k].name);
            return PW_ERR_NULL_ARGUMENT;
        }
    if (d->n_params && !a->params) {
        pw_set_error_detail("the cell declares %d parameters and none were given", d->n_params);
        return PW_ERR_NULL_ARGUMENT;
    }
    if (d->form != PW_CELL_LINEAR) {
        if (!a->grid) {
            pw_set_error_detail("a grid- or stencil-form cell runs in place over args.grid, which is NULL");
            return PW_ERR_NULL_ARGUMENT;
        }
        const int64_t h2 = 2 * d->halo;
        if (a->rows > INT64_MAX / 2 || a->cols > INT64_MAX / 2 || planes > INT64_MAX / 2 ||
            !fits(a->rows + h2, a->cols + h2, d->form == PW_CELL_GRID3 ? planes + h2 : 1, d->value_size))
            return PW_ERR_SIZE_OVERFLOW;
    }
    return PW_OK;
}

/* Sweeps may overlap (the HEAT/SOR pipelining, core/work.h) when a cell reads no further than
 * its four neighbours: dependences (1, 0) and (0, 1) only, halo at most 1. */
static int pipelinable(const pw_cell_decl *d)
{
    if (d->halo > 1) return 0;
    for (int k = 0; k < d->n_deps; k++)
        if (!((d->deps[k].di == 1 && d->deps[k].dj == 0) || (d->deps[k].di == 0 && d->deps[k].dj == 1))) return 0;
    return 1;
}

#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
/* A grid3 cell that can run plane by plane, planes pipelined like in-place sweeps (the GPU's
 * PlaneProc): in-plane dependences need no skew, and what a cell reads of earlier planes is at
 * or before it in both j and k, or its right or lower neighbour (what the sweep pipelining
 * guarantees: core/tiling_geometry.h). */
static int plane_ordered(const pw_cell_decl *d)
{
    for (int k = 0; k < d->n_deps3; k++) {
        const int di = d->deps3[k][0], dj = d->deps3[k][1], dk = d->deps3[k][2];
        const int ok = di == 0 ? (dj > 0 && dk >= 0) || (dj == 0 && dk > 0)
                               : (dj >= 0 && dk >= 0) || (dj == 0 && dk == -1) || (dj == -1 && dk == 0);
        if (!ok) return 0;
    }
    return 1;
}

/* A grid3 cell the 3-D processor takes (Warp3Proc, src/cuda/device/warp3_proc.cuh): dependences
 * among the three upwind neighbours, a halo that holds them at the faces, a 4- or 8-byte value. */
static int tiles3_fits(const pw_cell_decl *d)
{
    if (!d->scalar || (d->value_size != 4 && d->value_size != 8) || d->halo < 1) return 0;
    for (int k = 0; k < d->n_deps3; k++) {
        const int di = d->deps3[k][0], dj = d->deps3[k][1], dk = d->deps3[k][2];
        if (di < 0 || dj < 0 || dk < 0 || di + dj + dk != 1) return 0;
    }
    return 1;
}

/* ... and on the GPU under these options: the default 3-D layout, the peer strategy, no trace
 * (the 3-D processor records no tiles). */
static int gpu_tiles3(const pw_cell_decl *d, const pw_options *opt)
{
    pw_kernel_switches sw;
    pw_kernel_switches_read(&sw);
    return sw.layout_3d == PW_3D_TILES && opt->strategy == PW_STRATEGY_PEER && !opt->trace && tiles3_fits(d);
}
#endif

static pw_status cell_run(pw_cell *cell, const pw_cell_args *args, const pw_options *options, pw_cell_result *result,
                          pw_comm *comm, int *joined);

/* What the ranks of a distributed run must agree on beyond the space's shape: a hash of the
 * cell's text, its inputs' contents and its parameters (arguments already checked). */
static uint64_t cell_signature(const pw_cell *cell, const pw_cell_args *args, int64_t planes)
{
    const pw_cell_decl *d = &cell->decl;
    uint64_t h = pw_dist_hash(cell->text, strlen(cell->text), 11);
    for (int k = 0; k < d->n_inputs; k++) {
        const int64_t n = pw_cell_decl_input_count(d, k, args->rows, args->cols, planes);
        h ^= pw_dist_hash(args->inputs[k], (size_t)n * pw_cell_type_size(d->inputs[k].f.type), 13 + (uint64_t)k);
    }
    if (d->n_params) h ^= pw_dist_hash(args->params, sizeof *args->params * (size_t)d->n_params, 17);
    /* every rank holds the whole grid of a grid or stencil cell (halo included): the same one
     * (a rank with other values ran and wrote a mixed result) */
    if (d->form != PW_CELL_LINEAR && args->grid) {
        const int64_t h2 = 2 * d->halo, depth = d->form == PW_CELL_GRID3 ? planes + h2 : 1;
        h ^= pw_dist_hash(args->grid, (size_t)((args->rows + h2) * (args->cols + h2) * depth) * d->value_size, 19);
    }
    return h;
}

/* A grid or grid3 cell whose dependence reaches further than its halo reads, at the grid's edge,
 * memory that is not the grid (pw_at does not check its indices: that is the engines' speed)
 * unless the cell guards those reads itself.  Only the sequential engine, the reference, checks
 * every read (cell_cpu.c), so the run says so. */
static void note_reach_past_halo(const pw_cell_decl *d, pw_cell_result *result)
{
    if (!result || result->note[0]) return;
    for (int k = 0; k < d->n_deps + d->n_deps3; k++) {
        const int n = k < d->n_deps ? 2 : 3;
        int v[3] = {0, 0, 0};
        if (n == 2) v[0] = d->deps[k].di, v[1] = d->deps[k].dj;
        else memcpy(v, d->deps3[k - d->n_deps], sizeof v);
        int far = 0; /* (a stencil's own (1, 0), (0, 1) stay within its halo of 1) */
        for (int a = 0; a < n; a++) far |= abs(v[a]) > d->halo;
        if (!far) continue;
        char dep[48];
        if (n == 2) snprintf(dep, sizeof dep, "PW_DEP(%d, %d)", v[0], v[1]);
        else snprintf(dep, sizeof dep, "PW_DEP3(%d, %d, %d)", v[0], v[1], v[2]);
        snprintf(result->note, sizeof result->note,
                 "%.36s reaches past PW_HALO(%d): edge cells read outside the grid unless the cell guards those "
                 "reads (--check checks)", dep, d->halo);
        return;
    }
}

pw_status pw_cell_run(pw_cell *cell, const pw_cell_args *args, const pw_options *options, pw_cell_result *result)
{
    if (!cell || !args) return PW_ERR_NULL_ARGUMENT;
    pthread_mutex_lock(&cell->lock);
    const pw_status st = cell_run(cell, args, options, result, NULL, NULL);
    pthread_mutex_unlock(&cell->lock);
    if (st == PW_OK) note_reach_past_halo(&cell->decl, result);
    if (st == PW_OK && result && !result->note[0] && options && options->simd > PW_SIMD_SCALAR &&
        result->info.backend == PW_BACKEND_CPU)
        snprintf(result->note, sizeof result->note, "a cell has no vector form yet: simd=%s ran scalar cells",
                 pw_simd_name(options->simd));
    return st;
}

pw_status pw_dist_cell_run(pw_comm *comm, pw_cell *cell, const pw_cell_args *args, const pw_options *options,
                           pw_cell_result *result)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    int joined = 0;
    pw_status st = PW_ERR_NULL_ARGUMENT;
    pw_cell_result local;
    if (!result) result = &local;
    if (cell && args) {
        /* The lock covers the compile only: ranks that are threads of one process may share the
         * cell, and each waits in the run for the others (a lock held through the run would
         * keep them out).  The run itself only reads the compiled cell. */
        pw_cell_result built;
        memset(&built, 0, sizeof built);
        pthread_mutex_lock(&cell->lock);
        st = pw_cell_cpu_ready(cell, 0, &built);
        pthread_mutex_unlock(&cell->lock);
        if (st == PW_OK) st = cell_run(cell, args, options, result, comm, &joined);
        /* (GPU bands report their NVRTC module's compile, cell_bands.c; CPU bands the C compiler's) */
        if (result->info.backend != PW_BACKEND_CUDA) {
            result->compiled = built.compiled, result->compile_seconds = built.compile_seconds;
            if (built.note[0]) snprintf(result->note, sizeof result->note, "%s", built.note);
        }
    }
    if (st == PW_OK) note_reach_past_halo(&cell->decl, result);
    /* a rank that failed before the ranks' run (its arguments, the compile) still takes part, so
     * that every rank ends with a failure instead of waiting for it */
    if (!joined) (void)pw_dist_run_failed(comm, st);
    return st;
}

/* A grid or grid3 cell in bands of columns (j slabs for grid3): how far it reads across a band's
 * edges (job->band_reach, band_below), or why it cannot run so.  A dependence (di, dj) has the
 * cell read (i - di, j - dj) as this sweep left it and (i + di, j + dj) as the last one did: with
 * dj >= 0 the new values come from the left neighbour, whose rows arrive in order, and the old
 * ones from the right neighbour's previous sweep; a dj < 0 would need the right neighbour's new
 * values, which wait on this band's (bands that wait on each other row by row).  Every band must
 * hold the reach: a narrower one would leave cells its neighbour reads in the band beyond.  The
 * details are short: a rank's reaches the others in 192 bytes, after "rank k: ...: ". */
static pw_status band_reach(const pw_cell_decl *d, pw_cell_job *job, const pw_options *opt, pw_comm *comm)
{
    (void)opt; /* (GPU builds: whether the 3-D processor takes a grid3 cell's GPU bands) */
    job->band_reach = 1;
    job->band_below = 0;
    if (d->form == PW_CELL_LINEAR || d->form == PW_CELL_STENCIL) return PW_OK;
    const int three = d->form == PW_CELL_GRID3, n = three ? d->n_deps3 : d->n_deps;
    for (int k = 0; k < n; k++) {
        const int di = three ? d->deps3[k][0] : d->deps[k].di, dj = three ? d->deps3[k][1] : d->deps[k].dj;
        const int dk = three ? d->deps3[k][2] : 0;
        if (three && (dk >= job->planes || -dk >= job->planes)) continue; /* (links no two cells: cell_decl.c) */
        if (dj < 0) {
            if (three)
                pw_set_error_detail("PW_DEP3(%d, %d, %d) reads the next band's values of this sweep (dj < 0): not in bands", di, dj, dk);
            else
                pw_set_error_detail("PW_DEP(%d, %d) reads the next band's values of this sweep (dj < 0): not in bands", di, dj);
            return PW_ERR_UNSUPPORTED;
        }
        if (three && dj == 0 && di > 0 && dk < 0 && job->skew != 0) {
            pw_set_error_detail("PW_DEP3(%d, 0, %d) skews the (j, k) columns; bands take tilings of skew 0", di, dk);
            return PW_ERR_UNSUPPORTED;
        }
        if (dj > job->band_reach) job->band_reach = dj;
        if (dj > 0 && di > job->band_below) job->band_below = di;
    }
    if (job->skew != 0) { /* (the cases above name their dependence; this one is a safety net) */
        pw_set_error_detail("bands take tilings of skew 0; this cell's dependences need skew %d", job->skew);
        return PW_ERR_UNSUPPORTED;
    }
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    /* GPU bands of grid3 cells are slabs of j on the 3-D processor (its tiles trade the band's
     * edges: warp3_proc.cuh); the flattened space's bands would be far slower than one GPU */
    if (opt->backend == PW_BACKEND_CUDA && three && !gpu_tiles3(d, opt)) {
        pw_set_error_detail("GPU bands take grid3 cells of the 3-D processor only (upwind PW_DEP3s, a halo, 4/8-byte "
                            "values, peer, no trace or PEERWAVE_3D); run this one on CPU bands");
        return PW_ERR_UNSUPPORTED;
    }
#endif
    for (int r = 0; pw_comm_size(comm) > 1 && r < pw_comm_size(comm); r++) { /* (one band has no neighbour) */
        int64_t first, count;
        pw_status st = pw_dist_split(comm, r, job->args->cols, &first, &count);
        if (st != PW_OK) return st;
        if (count < job->band_reach) {
            pw_set_error_detail("band %d has %lld columns, fewer than the %lld the cell reads across it", r,
                                (long long)count, (long long)job->band_reach);
            return PW_ERR_INVALID_SIZE;
        }
    }
    return PW_OK;
}

pw_status pw_cell_make_plan(const pw_cell_decl *d, const pw_cell_job *job, const pw_options *options, int64_t cols,
                            pw_plan *plan)
{
    pw_options opt = *options;
    /* Stencil and linear cells take the built-in HEAT/SOR's and SW/DTW's tile heights on the GPU
     * (the warp processors' rows a thread follow it): at the engine's default (128, four rows a
     * thread) the user heat cell ran at 0.80 of `peerwave heat` (h = 64, two) on the H200, 3.01
     * against 2.42 ms, and the user SW-Gotoh cell at 262144^2 (w = 1024) 99.7 ms against 86.7 at
     * h = 64, where it equals `peerwave sw` on the same tiles (65536^2: 16.2 against 11.8 ms). */
    const int cuda_tile_h = d->form == PW_CELL_STENCIL ? PW_STENCIL_CUDA_TILE_H
                            : d->form == PW_CELL_LINEAR ? PW_LINEAR_CUDA_TILE_H
                                                        : 0;
    pw_status st = pw_plan_make_app(&opt, job->args->rows, cols, job->skew, cuda_tile_h, plan);
    if (st == PW_OK && plan->backend == PW_BACKEND_CPU && plan->strategy == PW_STRATEGY_PEER && !job->tiles_asked &&
        (d->form == PW_CELL_GRID || d->form == PW_CELL_GRID3)) {
        /* Grid cells on the CPU peer engine, where the engine's own height (rows / workers, at most
         * 64) leaves fewer than two tile-rows a worker (spaces of few rows: a grid3 cell's i):
         * 16 tile-rows a worker at least, where the rows allow.  With one tile-row a worker the
         * wavefront's fill and drain are a large part of the run, and a band of a distributed run
         * starts only once its left neighbour's first tile-row has crossed that band -- a whole
         * round.  On 2 H200s' host (32 cores, 3 runs): lu_like.c 192^3 0.173 -> 0.109 s, 320^3
         * 0.586 -> 0.447, the demonstrator 0.041 -> 0.039 and 0.121 -> 0.103; as bands 0.71x ->
         * 1.65x one process's old time (PERFORMANCE.md, session 22).  Not where tile-rows are many
         * already: heat_grid.c at 8192^2 ran 0.147 -> 0.190 s with 15-row tiles instead of 64. */
        const int64_t workers = plan->workers_available > 0 ? plan->workers_available : 1;
        const int64_t low = job->args->rows / (16 * workers);
        if (plan->tiling.n_rows < 2 * workers && (low > 0 ? low : 1) < plan->tiling.h) {
            opt.tile_h = (int)(low > 0 ? low : 1);
            st = pw_plan_make(&opt, job->args->rows, cols, job->skew, plan);
        }
    }
    if (st != PW_OK || !(plan->backend == PW_BACKEND_CUDA && d->form == PW_CELL_LINEAR && opt.tile_w == 0)) return st;
    /* Linear cells on the GPU: tiles wider than the engine's default (h).  On the H100 at
     * 262144^2 the alignment passes' Myers-Miller cell ran at 666 / 762 / 799 / 819 GCUPS with
     * w = 128 / 256 / 512 / 1024 and the DTW cell at 274 / 294 / 298 / 299
     * (bench/align_cells.sh); narrow spaces keep 16 tiles a row or more, so a tile-row can
     * start before the one above has finished most of its row. */
    int64_t w = cols / 16;
    opt.tile_w = w > 1024 ? 1024 : w < 128 ? 128 : w;
    opt.tile_h = (int)plan->tiling.h;
    return pw_plan_make(&opt, job->args->rows, cols, job->skew, plan);
}

static pw_status cell_run(pw_cell *cell, const pw_cell_args *args, const pw_options *options, pw_cell_result *result,
                          pw_comm *comm, int *joined)
{
    pw_cell_result local;
    if (!result) result = &local;
    memset(result, 0, sizeof *result);
    result->best_i = result->best_j = -1;
    const pw_cell_decl *d = &cell->decl;
    const int64_t planes = d->form == PW_CELL_GRID3 ? args->planes : 1;
    pw_status st = check_args(d, args, planes);
    if (st != PW_OK) return st;
    pw_cell_job job = {.args = args, .sweeps = args->sweeps > 0 ? args->sweeps : 1, .planes = planes,
                       .flat_cols = args->cols, .comm = comm, .joined = joined};
    if (comm) job.signature = (int64_t)cell_signature(cell, args, planes);
    if (d->form == PW_CELL_GRID3) { /* (i, j, k) as (i, j * planes + k) on the 2-D engines */
        pw_dep flat[PW_CELL_MAX_DEPS];
        int n;
        job.flat_cols = args->cols * planes;
        job.stride = (args->cols + 2 * d->halo) * (planes + 2 * d->halo);
        st = pw_cell_decl_flat_deps(d, planes, flat, &n);
        if (st == PW_OK) st = pw_deps_skew(flat, n, &job.skew);
        if (st != PW_OK) return st;
        /* a sweep reads the one before at its dependences, the other way, and anywhere downwind
         * within its halo (or as far as a dependence reaches, on each axis): all within that
         * box's far corner, flattened (pw_at3 flags a read past it) */
        int reach[3];
        pw_cell_decl_reach3(d, reach);
        memcpy(job.sweep_reads, flat, sizeof flat[0] * (size_t)n);
        job.n_sweep_reads = n;
        if (reach[1] <= (PW_MAX_DEP_DISTANCE - reach[2]) / planes) {
            job.sweep_reads[job.n_sweep_reads++] = (pw_dep){reach[0], (int)(reach[1] * planes + reach[2])};
            job.pipelined_reads = 1;
        }
    } else if (d->form != PW_CELL_LINEAR) {
        job.stride = args->cols + 2 * d->halo;
        st = pw_deps_skew(d->deps, d->n_deps, &job.skew);
        if (st != PW_OK) return st;
        job.pipelined = pipelinable(d) && job.skew == 0;
        /* a sweep reads the one before at its dependences, the other way (EXTENDING.md), and a
         * grid cell anywhere downwind within its halo (a stencil cell reads its four neighbours) */
        memcpy(job.sweep_reads, d->deps, sizeof d->deps[0] * (size_t)d->n_deps);
        job.n_sweep_reads = d->n_deps;
        if (d->form == PW_CELL_GRID) job.sweep_reads[job.n_sweep_reads++] = (pw_dep){d->halo, d->halo};
        job.pipelined_reads = 1;
    }
    {
        pw_kernel_switches sw; /* (PEERWAVE_PIPELINE_SWEEPS=0: a sweep a run on the CPU too, for measuring) */
        pw_kernel_switches_read(&sw);
        job.pipelined_reads = job.pipelined_reads && sw.pipeline_sweeps;
    }
    pw_options opt = pw_options_or_defaults(options);
    job.tiles_asked = opt.tile_h > 0 || opt.tile_w > 0;
    if (comm && pw_comm_size(comm) == 1 && d->form != PW_CELL_LINEAR) {
        /* one rank: one band, the whole grid, no neighbour -- one process's run, any dependences */
        *joined = 1;
        comm = job.comm = NULL;
    }
    if (comm) { /* a band of a distributed run */
        st = band_reach(d, &job, &opt, comm);
        if (st != PW_OK) return st;
        if (opt.backend == PW_BACKEND_CUDA) {
            job.tiles3 = d->form == PW_CELL_GRID3; /* (band_reach let through only what the 3-D processor takes) */
            return pw_cell_run_gpu_bands(cell, &opt, &job, result);
        }
        opt.backend = PW_BACKEND_CPU; /* (AUTO: the CPU engines, as every app's bands: dist_run.c) */
    }
    pw_plan plan;
    st = pw_cell_make_plan(d, &job, &opt, job.flat_cols, &plan);
    if (st != PW_OK) return st;
    pw_run_info_clear(&result->info);
    if (plan.backend == PW_BACKEND_CUDA) {
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
        pw_kernel_switches sw;
        pw_kernel_switches_read(&sw);
        /* (the 3-D processor does not record tiles: a traced run takes the flattened space) */
        if (d->form == PW_CELL_GRID3 && sw.layout_3d == PW_3D_TILES && plan.strategy == PW_STRATEGY_PEER && !plan.trace &&
            tiles3_fits(d)) { /* (gpu_tiles3's rule, on the plan) */
            job.tiles3 = 1;
        } else if (d->form == PW_CELL_GRID3 && sw.layout_3d == PW_3D_PLANE && plane_ordered(d)) {
            /* plane by plane: a 2-D plan over (j, k), rows x sweeps sweeps of it */
            job.plane = 1;
            job.pipelined = 1; /* planes overlap as in-place sweeps do (where the descriptor allows) */
            st = pw_plan_make(&opt, args->cols, planes, 0, &plan);
            if (st != PW_OK) return st;
        }
        plan.monitor.cells = pw_monitor_mul(pw_monitor_mul(args->rows, job.flat_cols), d->form == PW_CELL_LINEAR ? 1 : job.sweeps);
        return pw_cell_run_gpu(cell, &plan, &job, result);
#else
        if (opt.backend == PW_BACKEND_CUDA) {
            pw_set_error_detail("this build has no run-time compiler (NVRTC) for GPU cells");
            return PW_ERR_UNSUPPORTED;
        }
        snprintf(result->note, sizeof result->note, "GPU present, but this build has no NVRTC: ran on the CPU");
        opt.backend = PW_BACKEND_CPU;
        st = pw_plan_make(&opt, args->rows, job.flat_cols, job.skew, &plan);
        if (st != PW_OK) return st;
#endif
    }
    plan.monitor.cells = pw_monitor_mul(pw_monitor_mul(args->rows, job.flat_cols), d->form == PW_CELL_LINEAR ? 1 : job.sweeps);
    return pw_cell_run_cpu(cell, &plan, &job, result);
}
