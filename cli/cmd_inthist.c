/* cmd_inthist.c - `peerwave inthist IMAGE --bins B -o out.npy`: integral histogram. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_autowidth.h"
#include "image_file.h"
#include "io_util.h"

static const char usage[] =
    "usage: peerwave inthist [options] IMAGE --bins B [-o OUT.npy]\n"
    "Integral histogram: B planes, plane b the summed-area table of [bin(x) == b], so any\n"
    "rectangle's histogram is 4 lookups per bin.  Bins split [LO, HI] into B equal parts, HI\n"
    "in the last one, as numpy.histogram's; values outside fall in no bin.\n"
    "IMAGE: PGM, PNG (8/16-bit grey) or .npy (2-D u8, u16 or f32).\n"
    "  --bins B            number of bins, 1..4096 (default 16)\n"
    "  --range LO,HI       value range (default: [0, 256) for 8-bit, [0, 65536) for 16-bit,\n"
    "                      [min, max] of the data for f32 (one value v: [v-0.5, v+0.5];\n"
    "                      NaN or infinite samples are then an error); values outside an\n"
    "                      explicit range, NaN too, fall in no bin)\n"
    "  -o, --output OUT    write the planes as .npy int32 of shape (B, rows, cols)\n"
    "Output: counted (pixels that fell in a bin), bins, range, run details, gpix_per_s.\n"
    CLI_COMMON_HELP;

typedef struct inthist_args {
    const char *output;
    int64_t bins;
    int have_range;
    double lo, hi;
} inthist_args;

static int inthist_option(void *ctx, int opt, const char *arg)
{
    inthist_args *a = ctx;
    switch (opt) {
    case 'o': a->output = arg; return 0;
    case 'b': return cli_parse_int("--bins", arg, 1, PW_MAX_BINS, &a->bins);
    case 'r': {
        const char *comma = strchr(arg, ',');
        char lo[64];
        if (comma && (size_t)(comma - arg) < sizeof lo) {
            memcpy(lo, arg, (size_t)(comma - arg));
            lo[comma - arg] = 0;
            if (!cli_parse_double("--range LO", lo, -HUGE_VAL, HUGE_VAL, 1, &a->lo) &&
                !cli_parse_double("--range HI", comma + 1, -HUGE_VAL, HUGE_VAL, 1, &a->hi)) {
                if (a->lo < a->hi) {
                    a->have_range = 1;
                    return 0;
                }
                cli_error("--range: LO must be below HI");
                return -1;
            }
            return -1;
        }
        cli_error("--range: '%s' is not LO,HI", arg);
        return -1;
    }
    }
    return -1;
}

static const struct option inthist_options[] = {{"output", required_argument, 0, 'o'},
                                                {"bins", required_argument, 0, 'b'},
                                                {"range", required_argument, 0, 'r'},
                                                {0, 0, 0, 0}};

static const cli_command inthist_command = {"inthist", usage, "o:", inthist_options, inthist_option, 1, 1, "one image file"};

typedef struct inthist_job {
    const pw_image *in;
    const inthist_args *args;
    int32_t *out;
    pw_options options;
    pw_run_info info;
} inthist_job;

static pw_status run_inthist(void *p)
{
    inthist_job *j = p; /* tile_w 0: the library's width rule (--tile-w auto|model) */
    return pw_inthist(j->in, (int)j->args->bins, j->args->lo, j->args->hi, j->out, &j->options, &j->info);
}

int cmd_inthist(int argc, char **argv)
{
    inthist_args args = {NULL, 16, 0, 0, 0};
    cli_common common;
    int first, r = cli_parse(&inthist_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    const char *path = argv[first];
    char err[512];
    pw_image in = {0};
    int32_t *out = NULL, *ref = NULL;
    const int read = image_read(path, &in, err, sizeof err) == 0;
    if (!read) cli_error("%s", err);
    if (!cli_mpi_agree(read)) {
        if (read) free(in.data);
        return EXIT_DATA;
    }
    int code = 0;
    if (in.type != PW_U8 && in.type != PW_U16 && in.type != PW_F32) {
        cli_error("%s: %s input is not supported (u8, u16 or f32)", path, pw_dtype_name(in.type));
        code = EXIT_DATA;
        goto out;
    }
    int closed; /* (the default f32 range's [min, max]: numpy's closed last bin, as every range here) */
    pw_status range_st;
    if (!args.have_range) {
        if (in.type != PW_F32) {
            args.lo = 0, args.hi = in.type == PW_U8 ? 256 : 65536;
        } else if ((range_st = pw_inthist_default_range(&in, &args.lo, &args.hi, &closed)) != PW_OK) {
            cli_error("%s: %s", path, *pw_error_detail() ? pw_error_detail() : pw_status_str(range_st)); /* (NaN or infinite samples) */
            code = EXIT_DATA;
            goto out;
        }
    }
    uint64_t planes = (uint64_t)args.bins * (uint64_t)in.rows * (uint64_t)in.cols;
    out = io_alloc(planes, sizeof *out, "the histogram planes", err, sizeof err);
    if (!out) {
        cli_error("%s", err);
        code = EXIT_DATA;
        goto out;
    }
    /* the default f32 range: its edges as numpy (>= 2.0) computes them for it, in float arithmetic;
     * any range: a value equal to its top in the last bin, as numpy.histogram puts it */
    common.options.inthist_f32_edges = in.type == PW_F32 && !args.have_range;
    common.options.inthist_closed = 1;
    inthist_job job = {&in, &args, out, common.options};
    pw_job run;
    pw_job_init(&run, PW_JOB_INTHIST);
    run.u.inthist.in = &in, run.u.inthist.bins = (int)args.bins, run.u.inthist.lo = args.lo, run.u.inthist.hi = args.hi;
    run.u.inthist.out = out, run.options = job.options, run.info = &job.info;
    pw_status st = cli_run_pw_job(&common, "inthist", &run);
    if (st != PW_OK) {
        cli_error("inthist %s: %s", path, cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    int64_t counted = 0, last = in.rows * in.cols - 1;
    for (int64_t b = 0; b < args.bins; b++) counted += out[b * (last + 1) + last];
    cli_report rep = {0};
    cli_result(&rep, "counted", "%" PRId64, counted);
    if (common.check) {
        ref = io_alloc(planes, sizeof *ref, "the reference planes", err, sizeof err);
        inthist_job rj = {&in, &args, ref, cli_reference_options()};
        rj.options.inthist_f32_edges = common.options.inthist_f32_edges;
        rj.options.inthist_closed = common.options.inthist_closed;
        st = ref ? run_inthist(&rj) : PW_ERR_OUT_OF_MEMORY;
        if (st != PW_OK || memcmp(ref, out, (size_t)planes * sizeof *out)) {
            cli_check_failed(st);
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    int64_t shape[3] = {args.bins, in.rows, in.cols};
    if (args.output && (code = cli_write_output(&rep, args.output, PW_I32, 3, shape, out))) goto out;
    if (!args.output) cli_absent(&rep, 1, "output");
    cli_detail(&rep, "bins", "%" PRId64, args.bins);
    cli_detail(&rep, "range", "%.9g,%.9g", args.lo, args.hi);
    cli_detail(&rep, "rows", "%" PRId64, in.rows);
    cli_detail(&rep, "cols", "%" PRId64, in.cols);
    cli_detail_info(&rep, &job.info);
    cli_detail_autowidth(&rep, &job.info);
    cli_detail(&rep, "gpix_per_s", "%.3f", job.info.seconds > 0 ? (double)(in.rows * in.cols) / job.info.seconds / 1e9 : 0.0);
    code = cli_finish(&common, &rep, "inthist");
out:
    free(in.data);
    free(out);
    free(ref);
    return code;
}
