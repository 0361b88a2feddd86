/* cmd_sat.c - `peerwave sat IMAGE -o out.npy`: summed-area table of an image or grid. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/sat_accuracy.h"
#include "cli.h"
#include "cli_autowidth.h"
#include "image_file.h"
#include "io_util.h"

static const char usage[] =
    "usage: peerwave sat [options] IMAGE [-o OUT.npy]\n"
    "Summed-area table S(i,j) = sum of x over rows 0..i and columns 0..j.\n"
    "IMAGE: PGM (P2/P5, 8 or 16 bit), PNG (8 or 16 bit grey) or .npy (2-D u8, u16, i32, f32, f64,\n"
    "and i64 whose values fit i32: numpy's default integers);\n"
    "the format is told from the file's first bytes.\n"
    "  -o, --output OUT.npy  write the table as .npy (rows, cols)\n"
    "  --type T              output type: i32, i64, f32 or f64.  Default: i32 for integer input\n"
    "                        when no sum can overflow it, else i64; the input's type for float\n"
    "                        input.  A type the sums would overflow is refused (exit 1) with a\n"
    "                        message naming a wider one; integer results are exact.  NaN and\n"
    "                        infinite values are errors.\n"
    "Output: total (the bottom-right entry, the sum of the whole image), then sizes, run details\n"
    "and gpix_per_s.\n"
    CLI_COMMON_HELP;

typedef struct sat_args {
    const char *output;
    int type; /* 0 = automatic, else pw_dtype + 1 */
} sat_args;

static int sat_option(void *ctx, int opt, const char *arg)
{
    sat_args *a = ctx;
    pw_dtype t;
    switch (opt) {
    case 'o': a->output = arg; return 0;
    case 't':
        if (cli_parse_dtype("--type", arg, CLI_DTYPE(PW_I32) | CLI_DTYPE(PW_I64) | CLI_DTYPE(PW_F32) | CLI_DTYPE(PW_F64), &t))
            return -1;
        a->type = (int)t + 1;
        return 0;
    }
    return -1;
}

static const struct option sat_options[] = {{"output", required_argument, 0, 'o'},
                                            {"type", required_argument, 0, 't'},
                                            {0, 0, 0, 0}};

static const cli_command sat_command = {"sat", usage, "o:", sat_options, sat_option, 1, 1, "one image file"};

typedef struct sat_job {
    const pw_image *in;
    pw_image *out;
    pw_options options;
    pw_run_info info;
} sat_job;

static pw_status run_sat(void *p)
{
    sat_job *j = p; /* tile_w 0: the library's width rule (--tile-w auto|model) */
    return pw_sat(j->in, j->out, &j->options, &j->info);
}

static int is_float(pw_dtype t) { return t == PW_F32 || t == PW_F64; }

/* The first NaN or infinity of a float image in row-major order: 1 and its (row, column), or 0. */
static int first_non_finite(const pw_image *img, int64_t *row, int64_t *col)
{
    const int64_t stride = img->stride ? img->stride : img->cols; /* (elements; 0: packed rows) */
    for (int64_t i = 0; i < img->rows; i++)
        for (int64_t j = 0; j < img->cols; j++) {
            const double v = img->type == PW_F32 ? (double)((const float *)img->data)[i * stride + j]
                                                 : ((const double *)img->data)[i * stride + j];
            if (!isfinite(v)) {
                *row = i, *col = j;
                return 1;
            }
        }
    return 0;
}


/* The entry at element index k of img, as text. */
static void element_text(const pw_image *img, int64_t k, char *buf, size_t n)
{
    switch (img->type) {
    case PW_I32: snprintf(buf, n, "%" PRId32, ((int32_t *)img->data)[k]); break;
    case PW_I64: snprintf(buf, n, "%" PRId64, ((int64_t *)img->data)[k]); break;
    case PW_F32: snprintf(buf, n, "%.9g", ((float *)img->data)[k]); break;
    default: snprintf(buf, n, "%.17g", ((double *)img->data)[k]); break;
    }
}

int cmd_sat(int argc, char **argv)
{
    sat_args args = {NULL, 0};
    cli_common common;
    int first, r = cli_parse(&sat_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    const char *path = argv[first];
    if (common.mpi && args.output && !common.check && cli_is_npy(path))
        return cli_sat_bands(&common, path, args.output, args.type); /* (each rank its band of the files) */
    char err[512];
    pw_image in = {0}, out = {0}, ref = {0};
    const int read = image_read(path, &in, err, sizeof err) == 0;
    if (!read) cli_error("%s", err);
    if (!cli_mpi_agree(read)) {
        if (read) free(in.data);
        return EXIT_DATA;
    }
    int code = 0;
    const pw_dtype file_type = in.type;
    if (in.type == PW_I64 && cli_i64_as_i32(&in)) { /* numpy's default integers: fine while they fit */
        cli_error("%s: int64 values beyond 32 bits are not supported (u8, u16, i32, f32, f64; or int64 within "
                  "int32's range): convert to float64",
                  path);
        code = EXIT_DATA;
        goto out;
    }
    pw_dtype type = args.type ? (pw_dtype)(args.type - 1)
                    : is_float(in.type) ? in.type
                    : pw_sat_fits(&in, PW_I32) ? PW_I32 : PW_I64;
    if (is_float(in.type) && !is_float(type)) {
        cli_error("%s: %s input needs a float output type (--type f32 or f64)", path, pw_dtype_name(in.type));
        code = EXIT_USAGE;
        goto out;
    }
    int64_t bad_i, bad_j;
    if (is_float(in.type) && first_non_finite(&in, &bad_i, &bad_j)) { /* (as dtw refuses them) */
        cli_error("%s: row %" PRId64 ", column %" PRId64 " is NaN or infinite", path, bad_i, bad_j);
        code = EXIT_DATA;
        goto out;
    }
    if (!pw_sat_fits(&in, type)) {
        if (type == PW_F64)
            cli_error("%s: sums over this image exceed the range of f64", path);
        else
            cli_error("%s: sums over this image could pass %s's range (bounded by the sum of |values|); use --type %s",
                      path, pw_dtype_name(type),
                      type == PW_I32 ? "i64" : type == PW_F32 ? "f64" : "f64 (i64 cannot hold them either)");
        code = EXIT_DATA;
        goto out;
    }
    out = (pw_image){type, in.rows, in.cols, 0, NULL};
    out.data = io_alloc((uint64_t)in.rows * (uint64_t)in.cols, pw_dtype_size(type), "the summed-area table", err, sizeof err);
    if (!out.data) {
        cli_error("%s", err);
        code = EXIT_DATA;
        goto out;
    }
    sat_job job = {&in, &out, common.options};
    pw_job run;
    pw_job_init(&run, PW_JOB_SAT);
    run.u.sat.in = &in, run.u.sat.out = &out, run.options = job.options, run.info = &job.info;
    pw_status st = cli_run_pw_job(&common, "sat", &run);
    if (st != PW_OK) {
        cli_error("sat %s: %s", path, cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    cli_report rep = {0};
    char text[64];
    element_text(&out, in.rows * in.cols - 1, text, sizeof text);
    cli_result(&rep, "total", "%s", text);
    if (common.check && job.info.backend == PW_BACKEND_CUDA && (type == PW_F32 || type == PW_F64)) {
        /* The GPU sums floats by scans, in another order than the recurrence: compare with the
         * exact sums within the bound of apps/sat_accuracy.h. */
        double ratio = pw_sat_error_ratio(&in, &out);
        if (!(ratio >= 0 && ratio <= 1)) {
            cli_error("check FAILED: %s", ratio < 0 ? "out of memory" : "a sum is outside the float error bound");
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
        cli_detail(&rep, "check_error_of_bound", "%.3g", ratio);
    } else if (common.check) {
        ref = out;
        ref.data = io_alloc((uint64_t)in.rows * (uint64_t)in.cols, pw_dtype_size(type), "the reference table", err, sizeof err);
        sat_job rj = {&in, &ref, cli_reference_options()};
        st = ref.data ? run_sat(&rj) : PW_ERR_OUT_OF_MEMORY;
        size_t bytes = (size_t)(in.rows * in.cols) * pw_dtype_size(type);
        if (st != PW_OK || memcmp(ref.data, out.data, bytes)) {
            cli_check_failed(st);
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
        cli_absent(&rep, 1, "check_error_of_bound");
    } else {
        cli_absent(&rep, 0, "check");
        cli_absent(&rep, 1, "check_error_of_bound");
    }
    int64_t shape[2] = {in.rows, in.cols};
    if (args.output && (code = cli_write_output(&rep, args.output, type, 2, shape, out.data))) goto out;
    if (!args.output) cli_absent(&rep, 1, "output");
    cli_detail(&rep, "rows", "%" PRId64, in.rows);
    cli_detail(&rep, "cols", "%" PRId64, in.cols);
    cli_detail(&rep, "input_type", "%s", pw_dtype_name(file_type));
    cli_detail(&rep, "output_type", "%s", pw_dtype_name(type));
    cli_detail_info(&rep, &job.info);
    cli_detail_autowidth(&rep, &job.info);
    cli_detail(&rep, "gpix_per_s", "%.3f", job.info.seconds > 0 ? (double)job.info.cells / job.info.seconds / 1e9 : 0.0);
    code = cli_finish(&common, &rep, "sat");
out:
    free(in.data);
    free(out.data);
    free(ref.data);
    return code;
}
