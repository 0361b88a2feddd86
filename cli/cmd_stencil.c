/* cmd_stencil.c - `peerwave heat` and `peerwave sor`: Gauss-Seidel sweeps over a grid.  The two
 * differ only in omega (heat is SOR with omega = 1 in the library's own terms), so they share
 * this file. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_autowidth.h"
#include "image_file.h"
#include "io_util.h"

#define STENCIL_USAGE_COMMON                                                                       \
    "Grid: --size ROWSxCOLS (interior 0, top edge 1, other edges 0: a plate heated along one\n" \
    "side) or --init GRID.npy (2-D f32 or f64); boundary rows and columns stay fixed.\n"        \
    "  --size RxC          grid size, both at least 3\n"                                       \
    "  --init GRID.npy     starting grid\n"                                                    \
    "  --sweeps T          Gauss-Seidel sweeps (default 1)\n"                                  \
    "  --type f32|f64      arithmetic (default f32 for --size; an --init grid keeps its type\n"  \
    "                      unless --type converts it)\n"  \
    "  -o, --output OUT    write the final grid as .npy\n"                                     \
    "Output: residual (root mean square over the interior of neighbour mean - value after the\n" \
    "last sweep), then sweeps, sizes, run details and gpix_per_s (cells x sweeps per second).\n"

static const char heat_usage[] =
    "usage: peerwave heat [options] (--size RxC | --init GRID.npy) [--sweeps T] [-o OUT.npy]\n"
    "Heat equation steady state by Gauss-Seidel: A(i,j) = (up + left + down + right) / 4,\n"
    "updated in place row by row; the sum taken as ((down + right) + left) + up in the grid's\n"
    "type, so every backend and strategy gives the same bits.\n" STENCIL_USAGE_COMMON CLI_COMMON_HELP;

static const char sor_usage[] =
    "usage: peerwave sor [options] (--size RxC | --init GRID.npy) [--omega W] [-o OUT.npy]\n"
    "Successive over-relaxation: A(i,j) = (1-W) A(i,j) + W (up + left + down + right) / 4,\n"
    "computed as (1-W) A(i,j) + (W/4) (((down + right) + left) + up) with 1-W and W/4 rounded to\n"
    "the grid's type once (the same bits on every backend and strategy).\n"
    "  --omega W           relaxation factor in (0, 2) (default 1.5)\n" STENCIL_USAGE_COMMON CLI_COMMON_HELP;

typedef struct stencil_args {
    int sor;
    const char *output, *init;
    int64_t rows, cols, sweeps;
    pw_dtype type;
    double omega;
    int have_omega, type_given;
} stencil_args;

static int stencil_option(void *ctx, int opt, const char *arg)
{
    stencil_args *a = ctx;
    switch (opt) {
    case 'o': a->output = arg; return 0;
    case 'i': a->init = arg; return 0;
    case 's':
        return cli_parse_size_least("--size", arg, 3, " (a grid's boundary plus interior)", &a->rows, &a->cols);
    case 'T': return cli_parse_int("--sweeps", arg, 1, INT64_MAX / 2, &a->sweeps);
    case 't':
        if (cli_parse_dtype("--type", arg, CLI_DTYPE(PW_F32) | CLI_DTYPE(PW_F64), &a->type)) return -1;
        a->type_given = 1;
        return 0;
    case 'w':
        a->have_omega = 1;
        return cli_parse_double("--omega", arg, 0, 2, 1, &a->omega);
    }
    return -1;
}

static const struct option stencil_options[] = {
    {"output", required_argument, 0, 'o'}, {"init", required_argument, 0, 'i'},
    {"size", required_argument, 0, 's'},   {"sweeps", required_argument, 0, 'T'},
    {"type", required_argument, 0, 't'},   {"omega", required_argument, 0, 'w'},
    {0, 0, 0, 0}};

typedef struct stencil_job {
    pw_image *grid;
    const stencil_args *args;
    pw_options options;
    double residual;
    pw_run_info info;
} stencil_job;

static pw_status sweep(const stencil_job *j, pw_image *grid, int64_t sweeps, const pw_options *o, double *residual,
                       pw_run_info *info)
{
    if (j->args->sor) return pw_sor(grid, sweeps, j->args->omega, o, residual, info);
    return pw_heat(grid, sweeps, o, residual, info);
}

static pw_status run_stencil(void *p)
{
    stencil_job *j = p; /* tile_w 0: the library's width rule (--tile-w auto|model) */
    return sweep(j, j->grid, j->args->sweeps, &j->options, &j->residual, &j->info);
}

/* --type asked of an --init grid of the other float type: its values in that type (f32 -> f64
 * exactly; f64 -> f32 rounded, a value past f32's range refused).  It was ignored. */
static int convert_grid(const char *path, pw_image *g, pw_dtype to, char *err, int errlen)
{
    const int64_t n = g->rows * g->cols, stride = g->stride ? g->stride : g->cols;
    void *data = io_alloc((uint64_t)n, pw_dtype_size(to), "the grid in the asked type", err, errlen);
    if (!data) return -1;
    for (int64_t i = 0; i < g->rows; i++)
        for (int64_t j = 0; j < g->cols; j++) {
            if (to == PW_F64) {
                ((double *)data)[i * g->cols + j] = ((const float *)g->data)[i * stride + j];
                continue;
            }
            const double v = ((const double *)g->data)[i * stride + j];
            if (isfinite(v) && fabs(v) > FLT_MAX) {
                free(data);
                return io_fail(err, errlen, "%s: the value %.17g at (%" PRId64 ", %" PRId64 ") does not fit f32 (--type f32)",
                               path, v, i, j);
            }
            ((float *)data)[i * g->cols + j] = (float)v;
        }
    free(g->data);
    *g = (pw_image){to, g->rows, g->cols, 0, data};
    return 0;
}

/* The starting grid: from --init, or the heated-plate default for --size. */
static int make_grid(const stencil_args *a, pw_image *g, char *err, int errlen)
{
    if (a->init) {
        if (image_read(a->init, g, err, errlen)) return -1;
        if (g->type != PW_F32 && g->type != PW_F64)
            return io_fail(err, errlen, "%s: a grid must be f32 or f64, not %s", a->init, pw_dtype_name(g->type));
        if (g->rows < 3 || g->cols < 3)
            return io_fail(err, errlen, "%s: a %" PRId64 "x%" PRId64 " grid; at least 3x3 needed", a->init, g->rows, g->cols);
        return a->type_given && a->type != g->type ? convert_grid(a->init, g, a->type, err, errlen) : 0;
    }
    *g = (pw_image){a->type, a->rows, a->cols, 0, NULL};
    int64_t cells;
    if (__builtin_mul_overflow(a->rows, a->cols, &cells)) /* (the product wrapped to a tiny grid, then overran it) */
        return io_fail(err, errlen, "a %" PRId64 "x%" PRId64 " grid: its size overflows 64 bits", a->rows, a->cols);
    g->data = io_alloc((uint64_t)cells, pw_dtype_size(a->type), "the grid", err, errlen);
    if (!g->data) return -1;
    memset(g->data, 0, (size_t)cells * pw_dtype_size(a->type));
    for (int64_t j = 0; j < a->cols; j++) {
        if (a->type == PW_F32) ((float *)g->data)[j] = 1.0f;
        else ((double *)g->data)[j] = 1.0;
    }
    return 0;
}

static int cmd_stencil(int argc, char **argv, int sor)
{
    stencil_args args = {sor, NULL, NULL, 0, 0, 1, PW_F32, 1.5, 0};
    const cli_command command = {sor ? "sor" : "heat", sor ? sor_usage : heat_usage, "o:",
                                 stencil_options, stencil_option, 0, 0, "no positional arguments"};
    cli_common common;
    int first, r = cli_parse(&command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    if (!sor && args.have_omega) {
        cli_error("heat: --omega belongs to sor");
        return EXIT_USAGE;
    }
    if (!args.init == !args.rows) {
        cli_error("%s needs exactly one of --size and --init", command.name);
        return EXIT_USAGE;
    }
    if (common.mpi && args.init && args.output && !common.check && cli_is_npy(args.init))
        return cli_stencil_bands(&common, args.init, args.output, sor, args.sweeps, args.omega,
                                 args.type_given ? (int)args.type + 1 : 0); /* (bands of the files) */
    char err[512];
    pw_image grid = {0}, ref = {0};
    int code = 0;
    const int made = make_grid(&args, &grid, err, sizeof err) == 0;
    if (!made) cli_error("%s", err);
    if (!cli_mpi_agree(made)) {
        code = EXIT_DATA;
        goto out;
    }
    size_t bytes = (size_t)(grid.rows * grid.cols) * pw_dtype_size(grid.type);
    if (common.check) { /* keep the starting grid for the reference run */
        ref = grid;
        ref.data = io_alloc(bytes, 1, "the reference grid", err, sizeof err);
        if (!ref.data) {
            cli_error("%s", err);
            code = EXIT_DATA;
            goto out;
        }
        memcpy(ref.data, grid.data, bytes);
    }
    stencil_job job = {&grid, &args, common.options, 0};
    pw_job run;
    pw_job_init(&run, args.sor ? PW_JOB_SOR : PW_JOB_HEAT);
    run.u.stencil.grid = &grid, run.u.stencil.sweeps = args.sweeps, run.u.stencil.omega = args.omega;
    run.u.stencil.residual = &job.residual, run.options = job.options, run.info = &job.info;
    pw_status st = cli_run_pw_job(&common, command.name, &run);
    if (st != PW_OK) {
        cli_error("%s%s%s: %s", command.name, args.init ? " " : "", args.init ? args.init : "", cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    cli_report rep = {0};
    cli_result(&rep, "residual", "%.17g", job.residual);
    if (common.check) {
        stencil_job rj = {&ref, &args, cli_reference_options(), 0};
        st = run_stencil(&rj);
        if (st != PW_OK || memcmp(ref.data, grid.data, bytes) || rj.residual != job.residual) {
            cli_check_failed(st);
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    int64_t shape[2] = {grid.rows, grid.cols};
    if (args.output && (code = cli_write_output(&rep, args.output, grid.type, 2, shape, grid.data))) goto out;
    if (!args.output) cli_absent(&rep, 1, "output");
    cli_detail(&rep, "sweeps", "%" PRId64, args.sweeps);
    if (sor) cli_detail(&rep, "omega", "%.17g", args.omega);
    cli_detail(&rep, "rows", "%" PRId64, grid.rows);
    cli_detail(&rep, "cols", "%" PRId64, grid.cols);
    cli_detail(&rep, "type", "%s", pw_dtype_name(grid.type));
    cli_detail_info(&rep, &job.info);
    cli_detail_autowidth(&rep, &job.info);
    cli_detail(&rep, "gpix_per_s", "%.3f", job.info.seconds > 0 ? (double)job.info.cells / job.info.seconds / 1e9 : 0.0);
    code = cli_finish(&common, &rep, command.name);
out:
    free(grid.data);
    free(ref.data);
    return code;
}

int cmd_heat(int argc, char **argv) { return cmd_stencil(argc, argv, 0); }
int cmd_sor(int argc, char **argv) { return cmd_stencil(argc, argv, 1); }
