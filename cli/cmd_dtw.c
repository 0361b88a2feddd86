/* cmd_dtw.c - `peerwave dtw A B`: dynamic time warping distance of two series. */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io_util.h"
#include "cli_align.h"
#include "cli_autowidth.h"
#include "cli_dtw_batch.h"
#include "npy.h"
#include "series.h"

static const char usage[] =
    "usage: peerwave dtw [options] A B\n"
    "       peerwave dtw [options] --query Q --db DB [--top K | --pairs]\n"
    "Dynamic time warping distance D(n, m) of series A (n samples) and B (m samples):\n"
    "D(i,j) = cost(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)), full warping window.\n"
    "Inputs: text with one number per line (blank lines and '#' lines skipped), one column of a\n"
    "CSV/TSV file (--column), or .npy float32/float64 (integers: as float64) of shape (n,),\n"
    "(n,1) or (1,n).\n"
    "NaN and infinite samples are errors.\n"
    "  --column C          CSV/TSV column of both files: a 1-based number or a header name\n"
    "  --column-a C, --column-b C   the column of A or of B only\n"
    "  --cost abs|squared  |a - b| (default) or (a - b)^2\n"
    "  --type f32|f64      arithmetic (default f64; f32 when both inputs are float32 .npy)\n"
    "  --path OUT          also an optimal warping path (linear space): OUT.npy gets an int64\n"
    "                      array of shape (length, 2), any other name text lines \"i j\";\n"
    "                      0-based cells from (0, 0) to (n-1, m-1).  Ties: the manual's\n"
    "                      section on alignments\n"
    "  --plot FILE.svg     draw the path over the two series (implies finding the path)\n"
    "Many series (every CPU core, or the GPU under --backend cuda/auto; a series per row of a\n"
    "2-D .npy -- a 1-D one is one series,\n"
    "integers read as float64 -- or per text line of numbers separated by blanks or commas;\n"
    "series numbered from 0):\n"
    "  --query Q --db DB   every series of Q against every series of DB: each query's --top\n"
    "                      nearest (default 10; distance, then the earlier series) as TSV:\n"
    "                      query rank record distance query_length record_length\n"
    "  --top K             series kept a query (1 .. 100000)\n"
    "  --pairs             series k of Q against series k of DB (equal counts)\n"
    "Output: distance (%.17g), then lengths, run details and gcups; with --path also\n"
    "path_length and path_cost (the costs along the path, summed in double).\n"
    CLI_COMMON_HELP;

typedef struct dtw_args {
    const char *column_a, *column_b;
    pw_dtw_cost cost;
    int type; /* 0 = automatic, else PW_F32 + 1 or PW_F64 + 1 */
    const char *path_out, *plot_path;
    cli_dtw_batch_args batch;
} dtw_args;

static int dtw_option(void *ctx, int opt, const char *arg)
{
    dtw_args *a = ctx;
    pw_dtype t;
    switch (opt) {
    case 'c': a->column_a = a->column_b = arg; return 0;
    case 'a': a->column_a = arg; return 0;
    case 'b': a->column_b = arg; return 0;
    case 'C':
        if (!strcmp(arg, "abs")) a->cost = PW_DTW_ABSOLUTE;
        else if (!strcmp(arg, "squared")) a->cost = PW_DTW_SQUARED;
        else {
            cli_error("--cost: unknown value '%s' (abs or squared)", arg);
            return -1;
        }
        return 0;
    case 't':
        if (cli_parse_dtype("--type", arg, CLI_DTYPE(PW_F32) | CLI_DTYPE(PW_F64), &t)) return -1;
        a->type = (int)t + 1;
        return 0;
    case 'p': a->path_out = arg; return 0;
    case 'P': a->plot_path = arg; return 0;
    case 'q': a->batch.query_path = arg; return 0;
    case 'd': a->batch.db_path = arg; return 0;
    case 'r': a->batch.pairs = 1; return 0;
    case 'k': {
        int64_t v;
        if (cli_parse_int("--top", arg, 1, 100000, &v)) return -1;
        a->batch.top = (int)v;
        return 0;
    }
    }
    return -1;
}

static const struct option dtw_options[] = {{"column", required_argument, 0, 'c'},
                                            {"column-a", required_argument, 0, 'a'},
                                            {"column-b", required_argument, 0, 'b'},
                                            {"cost", required_argument, 0, 'C'},
                                            {"type", required_argument, 0, 't'},
                                            {"path", required_argument, 0, 'p'},
                                            {"plot", required_argument, 0, 'P'},
                                            {"query", required_argument, 0, 'q'},
                                            {"db", required_argument, 0, 'd'},
                                            {"top", required_argument, 0, 'k'},
                                            {"pairs", no_argument, 0, 'r'},
                                            {0, 0, 0, 0}};

static const cli_command dtw_command = {"dtw", usage, NULL, dtw_options, dtw_option, 0, 2,
                                       "two series files (or --query and --db)"};

/* The series (from `path`) converted to the arithmetic type in place of the raw input; nonzero
 * after a message: no memory, or a sample beyond float32's range for --type f32. */
static int convert(series *s, pw_dtype to, const char *path)
{
    if (s->type == to) return 0;
    size_t n = (size_t)s->length;
    void *out = malloc(n * pw_dtype_size(to));
    if (!out) {
        cli_error("dtw: out of memory");
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        if (to == PW_F32) {
            const double x = ((double *)s->data)[k];
            if (fabs(x) > FLT_MAX) {
                cli_error("%s: sample %zu (%g) is beyond float32's range: --type f64", path, k + 1, x);
                free(out);
                return -1;
            }
            ((float *)out)[k] = (float)x;
        } else {
            ((double *)out)[k] = ((float *)s->data)[k];
        }
    }
    free(s->data);
    s->data = out;
    s->type = to;
    return 0;
}

typedef struct dtw_job {
    const series *a, *b;
    pw_dtw_cost cost;
    pw_options options;
    pw_dtw_result result;
} dtw_job;

/* The first n and m samples. */
static pw_status dtw_prefix(const dtw_job *j, int64_t n, int64_t m, const pw_options *o, pw_dtw_result *r)
{
    if (j->a->type == PW_F32) return pw_dtw_f32(j->a->data, n, j->b->data, m, j->cost, o, r);
    return pw_dtw_f64(j->a->data, n, j->b->data, m, j->cost, o, r);
}

static pw_status run_dtw(void *p)
{
    dtw_job *j = p;
    return dtw_prefix(j, j->a->length, j->b->length, &j->options, &j->result);
}

/* The path as .npy (int64, (length, 2)) or text ("i j" lines); -1 with the reason in err. */
static int write_path(const char *out, const pw_warp_path *p, char *err, int errlen)
{
    size_t len = strlen(out);
    if (len >= 4 && strcmp(out + len - 4, ".npy") == 0) {
        int64_t *pairs = malloc(sizeof *pairs * 2 * (size_t)p->length);
        if (!pairs) {
            snprintf(err, (size_t)errlen, "out of memory");
            return -1;
        }
        for (int64_t k = 0; k < p->length; k++) {
            pairs[2 * k] = p->i[k];
            pairs[2 * k + 1] = p->j[k];
        }
        int64_t shape[2] = {p->length, 2};
        int r = npy_write(out, PW_I64, 2, shape, pairs, err, errlen);
        free(pairs);
        return r;
    }
    FILE *f = io_open_text_output(out);
    if (!f) {
        snprintf(err, (size_t)errlen, "cannot create the file (%s)", strerror(errno));
        return -1;
    }
    fprintf(f, "# i j: 0-based cells of an optimal warping path\n");
    for (int64_t k = 0; k < p->length; k++) fprintf(f, "%" PRId64 " %" PRId64 "\n", p->i[k], p->j[k]);
    if (io_close_text_output(f) != 0) {
        snprintf(err, (size_t)errlen, "write failed");
        return -1;
    }
    return 0;
}

/* --path and --plot: find the path (on the backend of the options), write and draw it. */
static int dtw_path_outputs(const dtw_args *args, const dtw_job *job, pw_dtype type, cli_report *rep)
{
    pw_warp_path path;
    const series *a = job->a, *b = job->b;
    pw_status st = type == PW_F32 ? pw_dtw_path_f32(a->data, a->length, b->data, b->length, job->cost, &job->options, &path)
                                  : pw_dtw_path_f64(a->data, a->length, b->data, b->length, job->cost, &job->options, &path);
    if (st != PW_OK) {
        cli_error("dtw --path: %s", cli_status_text(st));
        return cli_status_exit(st);
    }
    int code = 0;
    char err[512];
    if (args->path_out && write_path(args->path_out, &path, err, (int)sizeof err)) {
        cli_error("--path %s: %s", args->path_out, err);
        code = EXIT_DATA;
    }
    if (!code && args->plot_path)
        code = cli_plot_warp_path(args->plot_path, &path, a->data, a->length, b->data, b->length, type == PW_F32);
    if (!code) {
        cli_result(rep, "path_length", "%" PRId64, path.length);
        cli_result(rep, "path_cost", "%.17g", path.distance);
        if (args->path_out) cli_detail(rep, "path", "%s", args->path_out);
        else cli_absent(rep, 1, "path");
        if (args->plot_path) cli_detail(rep, "plot", "%s", args->plot_path);
        else cli_absent(rep, 1, "plot");
        cli_detail(rep, "seconds_path", "%.6f", path.seconds);
        cli_detail(rep, "cells_path", "%" PRId64, path.cells);
        if (path.info.cells > 0) { /* (the GPU's part of the path search, when it had one) */
            cli_detail(rep, "cells_path_gpu", "%" PRId64, path.info.cells);
            cli_detail(rep, "seconds_path_gpu", "%.6f", path.info.seconds);
        } else {
            cli_absent(rep, 1, "cells_path_gpu");
            cli_absent(rep, 1, "seconds_path_gpu");
        }
    }
    pw_warp_path_free(&path);
    return code;
}

int cmd_dtw(int argc, char **argv)
{
    dtw_args args = {NULL, NULL, PW_DTW_ABSOLUTE, 0, NULL, NULL, {0}};
    cli_common common;
    int first, r = cli_parse(&dtw_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    if (args.batch.query_path || args.batch.db_path) {
        if (!args.batch.query_path || !args.batch.db_path || first != argc) {
            cli_error("dtw: --query and --db go together, without positional files (--help)");
            return EXIT_USAGE;
        }
        /* Options of the one-pair run that a search never looks at (as sw's: cmd_sw.c) */
        static const char *const one_pair[] = {"path", "plot", "column", "column-a", "column-b", "type", "check",
                                               "trace", "strategy", "tile-shape", "tile-h", "tile-w", "train-ratio",
                                               "wisdom", "layout", "rows-per-thread", "max-blocks", "watchdog-ms",
                                               "mpi", "balance", "nccl", "bands-per-gpu", NULL};
        const char *o = cli_option_given(&common, one_pair);
        if (o) {
            cli_error("dtw: --%s does not apply to --query/--db searches (it is for one pair: dtw A B)", o);
            return EXIT_USAGE;
        }
        if (args.batch.pairs && args.batch.top) {
            cli_error("dtw: --pairs reports one distance a pair: no --top");
            return EXIT_USAGE;
        }
        if (common.n_devices > 1 || common.bands_per_gpu > 1) {
            cli_error("dtw --query/--db runs on one GPU (--device); several GPUs share sw --db searches only");
            return EXIT_USAGE;
        }
        if (common.n_devices == 1) common.options.device = common.devices[0];
        if (!args.batch.top) args.batch.top = 10;
        args.batch.cost = args.cost;
        return cmd_dtw_batch(&args.batch, &common);
    }
    if (args.batch.top || args.batch.pairs) { /* (as sw says it) */
        cli_error("dtw: --%s is for --query/--db searches, not one pair (--help)", args.batch.top ? "top" : "pairs");
        return EXIT_USAGE;
    }
    if (argc - first != 2) {
        cli_error("dtw: two series files, or --query Q --db DB (--help)");
        return EXIT_USAGE;
    }
    char err[512];
    series a = {0}, b = {0};
    int code = 0;
    const int read = !series_read(argv[first], args.column_a, &a, err, sizeof err) &&
                     !series_read(argv[first + 1], args.column_b, &b, err, sizeof err);
    if (!read) cli_error("%s", err);
    if (!cli_mpi_agree(read)) {
        code = EXIT_DATA;
        goto out;
    }
    pw_dtype type = args.type ? (pw_dtype)(args.type - 1)
                              : (a.type == PW_F32 && b.type == PW_F32 ? PW_F32 : PW_F64);
    if (convert(&a, type, argv[first]) || convert(&b, type, argv[first + 1])) {
        code = EXIT_DATA;
        goto out;
    }
    dtw_job job = {&a, &b, args.cost, common.options};
    pw_job run;
    pw_job_init(&run, PW_JOB_DTW);
    run.u.dtw.type = type, run.u.dtw.a = a.data, run.u.dtw.n = a.length, run.u.dtw.b = b.data, run.u.dtw.m = b.length;
    run.u.dtw.cost = args.cost, run.u.dtw.result = &job.result, run.options = job.options;
    pw_status st = cli_run_pw_job(&common, "dtw", &run);
    if (st != PW_OK) {
        cli_error("dtw %s vs %s: %s", argv[first], argv[first + 1], cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    cli_report rep = {0};
    cli_result(&rep, "distance", "%.17g", job.result.distance);
    if (common.check) {
        dtw_job ref = {&a, &b, args.cost, cli_reference_options()};
        st = run_dtw(&ref);
        if (st != PW_OK || ref.result.distance != job.result.distance) {
            cli_error("check FAILED: the sequential reference gives %.17g (%s)", ref.result.distance, pw_status_str(st));
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    cli_detail(&rep, "length_a", "%" PRId64, a.length);
    cli_detail(&rep, "length_b", "%" PRId64, b.length);
    cli_detail(&rep, "type", "%s", pw_dtype_name(type));
    cli_detail(&rep, "cost", "%s", args.cost == PW_DTW_SQUARED ? "squared" : "abs");
    cli_detail_info(&rep, &job.result.info);
    cli_detail_autowidth(&rep, &job.result.info);
    cli_detail(&rep, "transposed", "%s", job.result.info.transposed ? "yes" : "no");
    cli_detail(&rep, "gcups", "%.3f", job.result.info.seconds > 0 ? (double)job.result.info.cells / job.result.info.seconds / 1e9 : 0.0);
    if (args.path_out || args.plot_path) {
        code = dtw_path_outputs(&args, &job, type, &rep);
        if (code) goto out;
    } else { /* the same --tsv columns as with --path, each "-" */
        static const char *const results[] = {"path_length", "path_cost"};
        static const char *const details[] = {"path", "plot", "seconds_path", "cells_path", "cells_path_gpu", "seconds_path_gpu"};
        for (int k = 0; k < 2; k++) cli_absent(&rep, 0, results[k]);
        for (int k = 0; k < 6; k++) cli_absent(&rep, 1, details[k]);
    }
    code = cli_finish(&common, &rep, "dtw");
out:
    series_free(&a);
    series_free(&b);
    return code;
}
