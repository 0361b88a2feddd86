/* cmd_dtw.c - `peerwave dtw A B`: dynamic time warping distance of two series. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_autowidth.h"
#include "series.h"

static const char usage[] =
    "usage: peerwave dtw [options] A B\n"
    "Dynamic time warping distance D(n, m) of series A (n samples) and B (m samples):\n"
    "D(i,j) = cost(a_i, b_j) + min(D(i-1,j), D(i,j-1), D(i-1,j-1)), full warping window.\n"
    "Inputs: text with one number per line (blank lines and '#' lines skipped), one column of a\n"
    "CSV/TSV file (--column), or .npy float32/float64 of shape (n,), (n,1) or (1,n).\n"
    "NaN and infinite samples are errors.\n"
    "  --column C          CSV/TSV column of both files: a 1-based number or a header name\n"
    "  --column-a C, --column-b C   the column of A or of B only\n"
    "  --cost abs|squared  |a - b| (default) or (a - b)^2\n"
    "  --type f32|f64      arithmetic (default f64; f32 when both inputs are float32 .npy)\n"
    "Output: distance (%.17g), then lengths, run details and gcups.\n"
    CLI_COMMON_HELP;

typedef struct dtw_args {
    const char *column_a, *column_b;
    pw_dtw_cost cost;
    int type; /* 0 = automatic, else PW_F32 + 1 or PW_F64 + 1 */
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
        if (cli_parse_dtype("--type", arg, &t)) return -1;
        if (t != PW_F32 && t != PW_F64) {
            cli_error("--type: dtw computes in f32 or f64, not %s", arg);
            return -1;
        }
        a->type = (int)t + 1;
        return 0;
    }
    return -1;
}

static const struct option dtw_options[] = {{"column", required_argument, 0, 'c'},
                                            {"column-a", required_argument, 0, 'a'},
                                            {"column-b", required_argument, 0, 'b'},
                                            {"cost", required_argument, 0, 'C'},
                                            {"type", required_argument, 0, 't'},
                                            {0, 0, 0, 0}};

static const cli_command dtw_command = {"dtw", usage, NULL, dtw_options, dtw_option, 2, 2, "two series files"};

/* The series converted to the arithmetic type in place of the raw input. */
static int convert(series *s, pw_dtype to)
{
    if (s->type == to) return 0;
    size_t n = (size_t)s->length;
    void *out = malloc(n * pw_dtype_size(to));
    if (!out) return -1;
    for (size_t k = 0; k < n; k++) {
        if (to == PW_F32) ((float *)out)[k] = (float)((double *)s->data)[k];
        else ((double *)out)[k] = ((float *)s->data)[k];
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

int cmd_dtw(int argc, char **argv)
{
    dtw_args args = {NULL, NULL, PW_DTW_ABSOLUTE, 0};
    cli_common common;
    int first, r = cli_parse(&dtw_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    char err[512];
    series a = {0}, b = {0};
    int code = 0;
    if (series_read(argv[first], args.column_a, &a, err, sizeof err) ||
        series_read(argv[first + 1], args.column_b, &b, err, sizeof err)) {
        cli_error("%s", err);
        code = EXIT_DATA;
        goto out;
    }
    pw_dtype type = args.type ? (pw_dtype)(args.type - 1)
                              : (a.type == PW_F32 && b.type == PW_F32 ? PW_F32 : PW_F64);
    if (convert(&a, type) || convert(&b, type)) {
        cli_error("dtw: out of memory");
        code = EXIT_DATA;
        goto out;
    }
    dtw_job job = {&a, &b, args.cost, common.options};
    pw_status st = cli_run_job(&common, "dtw", run_dtw, &job);
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
    cli_detail(&rep, "gcups", "%.3f", job.result.info.seconds > 0 ? (double)job.result.info.cells / job.result.info.seconds / 1e9 : 0.0);
    code = cli_finish(&common, &rep, "dtw");
out:
    series_free(&a);
    series_free(&b);
    return code;
}
