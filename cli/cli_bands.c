/*
 * cli_bands.c - `--mpi` with .npy files in and out (sat; heat and sor with --init): each rank reads
 * only its band of columns of the input and writes only its band into the output, so an input
 * larger than one machine's memory runs (docs/DISTRIBUTED.md).  Every step that can fail on one
 * rank is agreed on by all (a rank that went on alone would wait for the others forever).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/checks.h"
#include "cli.h"
#include "io_util.h"
#include "npy.h"

int cli_is_npy(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char magic[6] = {0};
    const int ok = f && fread(magic, 1, 6, f) == 6 && !memcmp(magic, "\x93NUMPY", 6);
    if (f) fclose(f);
    return ok;
}


/* Every rank's header of its input file, compared: each reads only its band of columns, so a rank
 * whose file had another width ran, and the output was a mix of the two (rows and types were
 * caught later, widths not).  0 where every rank read a header and all are the same array. */
typedef struct band_header {
    int64_t rows, cols, type;
} band_header;

static int agree_band_header(pw_comm *c, const char *path, int ok, const npy_array *a)
{
    if (!cli_mpi_agree(ok)) return 0; /* (a rank that read no header: every rank says so) */
    const int n = pw_comm_size(c);
    band_header mine = {a->shape[0], a->shape[1], (int64_t)a->type};
    band_header *all = malloc(sizeof *all * (size_t)n);
    int same = all && pw_comm_allgather(c, &mine, all, sizeof mine) == PW_OK;
    for (int k = 1; same && k < n; k++)
        if (all[k].rows != all[0].rows || all[k].cols != all[0].cols || all[k].type != all[0].type) {
            if (pw_comm_rank(c) == 0)
                cli_error("%s: rank %d's file is a %lldx%lld %s array, rank 0's a %lldx%lld %s: every rank must read "
                          "the same array", path, k, (long long)all[k].rows, (long long)all[k].cols,
                          pw_dtype_name((pw_dtype)all[k].type), (long long)all[0].rows, (long long)all[0].cols,
                          pw_dtype_name((pw_dtype)all[0].type));
            same = 0;
        }
    free(all);
    return same;
}

/* The band's columns of path: [first, first + count) of its cols (halo: that many more each side),
 * the widths first measured by speed under --balance. */
static int read_band(const cli_common *common, pw_comm *c, const char *path, int64_t halo, pw_image *band,
                     int64_t *first, int64_t *count, int64_t *cols)
{
    if (common->balance && pw_comm_measure_weight(c, &common->options, NULL) != PW_OK) {
        cli_error("--balance: %s", cli_status_text(PW_ERR_INVALID_ARGUMENT));
        return EXIT_DATA;
    }
    char err[512] = "";
    npy_array a = {0};
    FILE *f = fopen(path, "rb");
    int ok = f && !npy_read_header(f, path, &a, err, sizeof err);
    if (f) fclose(f);
    if (ok && a.ndim != 2) snprintf(err, sizeof err, "%s: a band of columns needs a 2-D array", path), ok = 0;
    if (!ok) cli_error("%s", f ? err : "cannot open the input");
    if (!agree_band_header(c, path, ok, &a)) return EXIT_DATA;
    *cols = ok ? a.shape[1] : 0;
    pw_status st = ok ? pw_dist_split(c, pw_comm_rank(c), *cols - 2 * halo, first, count) : PW_OK;
    if (ok && st != PW_OK) {
        cli_error("%s: %s", path, cli_status_text(st));
        ok = 0;
    }
    if (ok && npy_read_columns(path, *first, *count + 2 * halo, &a, cols, err, sizeof err)) {
        cli_error("%s", err);
        ok = 0;
    }
    if (!cli_mpi_agree(ok)) {
        if (ok) npy_free(&a);
        return EXIT_DATA;
    }
    *band = (pw_image){a.type, a.shape[0], a.shape[1], 0, a.data};
    return 0;
}

/* out_path: rank 0 creates it (rows x cols of type), then every rank writes its columns. */
static int write_band(pw_comm *c, const char *out_path, const pw_image *band, int64_t cols, int64_t first)
{
    char err[512];
    int ok = 1;
    if (pw_comm_rank(c) == 0 && npy_create(out_path, band->type, band->rows, cols, err, sizeof err)) {
        cli_error("%s", err);
        ok = 0;
    }
    if (!cli_mpi_agree(ok)) return EXIT_DATA;
    if (npy_write_columns(out_path, first, band->cols, band->stride ? band->stride : band->cols, band->type, band->data, err, sizeof err)) {
        cli_error("%s", err);
        ok = 0;
    }
    return cli_mpi_agree(ok) ? 0 : EXIT_DATA;
}

/* What the whole image's float checks need from this rank's band (cmd_sat.c's checks, made over
 * the bands): its first NaN or infinity in row-major order (row -1: none) and its sum of |x|. */
typedef struct band_values {
    int64_t bad_row, bad_col; /* (the column in the whole image) */
    double abs_sum;
} band_values;

static band_values float_band_values(const pw_image *band, int64_t first)
{
    band_values v = {-1, -1, 0};
    for (int64_t i = 0; i < band->rows; i++)
        for (int64_t j = 0; j < band->cols; j++) {
            const double x = band->type == PW_F32 ? (double)((const float *)band->data)[i * band->cols + j]
                                                  : ((const double *)band->data)[i * band->cols + j];
            if (!isfinite(x) && v.bad_row < 0) v.bad_row = i, v.bad_col = first + j;
            v.abs_sum += fabs(x);
        }
    return v;
}

/* The whole image's float checks over the bands (as the single process makes them on the whole
 * image: a NaN or infinity, the first in row-major order, is an error, and so are sums past half
 * the output type's range, apps/sat.c): 0, or an exit code, the same on every rank (rank 0 says
 * why).  Without them a band run wrote NaN and infinite tables and exited 0. */
static int sat_band_floats(pw_comm *c, const char *path, const pw_image *band, int64_t first, pw_dtype type)
{
    const int n = pw_comm_size(c);
    band_values mine = float_band_values(band, first), *all = malloc(sizeof *all * (size_t)n);
    if (!all || pw_comm_allgather(c, &mine, all, sizeof mine) != PW_OK) {
        free(all);
        cli_error("sat: the ranks could not compare their bands' values");
        return EXIT_DATA;
    }
    band_values whole = {-1, -1, 0};
    for (int r = 0; r < n; r++) {
        whole.abs_sum += all[r].abs_sum;
        if (all[r].bad_row >= 0 && (whole.bad_row < 0 || all[r].bad_row < whole.bad_row ||
                                    (all[r].bad_row == whole.bad_row && all[r].bad_col < whole.bad_col)))
            whole.bad_row = all[r].bad_row, whole.bad_col = all[r].bad_col;
    }
    free(all);
    const int speak = pw_comm_rank(c) == 0;
    if (whole.bad_row >= 0) {
        if (speak) cli_error("%s: row %" PRId64 ", column %" PRId64 " is NaN or infinite", path, whole.bad_row, whole.bad_col);
        return EXIT_DATA;
    }
    if (!(whole.abs_sum <= pw_sat_float_sum_limit(type))) {
        if (speak) {
            if (type == PW_F64) cli_error("%s: sums over this image exceed the range of f64", path);
            else cli_error("%s: sums over this image could pass %s's range (bounded by the sum of |values|); use --type f64",
                           path, pw_dtype_name(type));
        }
        return EXIT_DATA;
    }
    return 0;
}

int cli_sat_bands(cli_common *common, const char *path, const char *out_path, int asked_type)
{
    pw_comm *c = cli_mpi_comm();
    pw_image in = {0}, out = {0};
    int64_t first, count, cols;
    int code = read_band(common, c, path, 0, &in, &first, &count, &cols);
    if (code) return code;
    const pw_dtype file_type = in.type;
    /* numpy's default integers, as one process takes them: int32 sums where every band's values fit */
    if (in.type == PW_I64 && !cli_mpi_agree(!cli_i64_as_i32(&in))) {
        if (pw_comm_rank(c) == 0)
            cli_error("%s: int64 values beyond 32 bits are not supported (u8, u16, i32, f32, f64; or int64 within "
                      "int32's range): convert to float64", path);
        free(in.data);
        return EXIT_DATA;
    }
    int ok = in.type == PW_U8 || in.type == PW_U16 || in.type == PW_I32 || in.type == PW_F32 || in.type == PW_F64;
    if (!ok) cli_error("%s: %s input is not supported by sat with band files (u8, u16, i32, f32, f64)", path,
                       pw_dtype_name(in.type));
    const int is_float = in.type == PW_F32 || in.type == PW_F64;
    pw_dtype type = asked_type ? (pw_dtype)(asked_type - 1) : is_float ? in.type : PW_I32;
    if (ok && is_float != (type == PW_F32 || type == PW_F64) && is_float) {
        cli_error("%s: %s input needs a float output type (--type f32 or f64)", path, pw_dtype_name(in.type));
        ok = 0;
    }
    pw_status st = PW_OK;
    pw_run_info info = {0};
    pw_options o = common->options;
    if (o.backend == PW_BACKEND_AUTO) o.backend = PW_BACKEND_CPU; /* (bands: CPU so far) */
    int agreed = cli_mpi_agree(ok);
    if (agreed && is_float && (code = sat_band_floats(c, path, &in, first, type))) {
        free(in.data);
        return code;
    }
    for (int attempt = 0; agreed && attempt < 2; attempt++) {
        out = (pw_image){type, in.rows, in.cols, 0, malloc((size_t)(in.rows * in.cols) * pw_dtype_size(type) + 1)};
        if (!out.data) cli_error("sat: out of memory for the band's table");
        if (!(agreed = cli_mpi_agree(out.data != NULL))) break;
        st = pw_dist_sat(c, &in, &out, &o, &info); /* (its status is every rank's) */
        if (st == PW_ERR_OVERFLOW && !asked_type && type == PW_I32) { /* the automatic type: i32 when it fits */
            free(out.data);
            out.data = NULL;
            type = PW_I64;
            continue;
        }
        break;
    }
    if (!agreed || st != PW_OK) {
        if (agreed) cli_error("sat %s: %s", path, cli_status_text(st));
        free(in.data);
        free(out.data);
        return agreed ? cli_status_exit(st) : EXIT_DATA;
    }
    code = write_band(c, out_path, &out, cols, first);
    /* the whole table's last entry is the last rank's */
    char text[64] = "", *all = malloc(64 * (size_t)pw_comm_size(c));
    const int64_t k = in.rows * in.cols - 1;
    if (type == PW_I32) snprintf(text, sizeof text, "%" PRId32, ((int32_t *)out.data)[k]);
    else if (type == PW_I64) snprintf(text, sizeof text, "%" PRId64, ((int64_t *)out.data)[k]);
    else if (type == PW_F32) snprintf(text, sizeof text, "%.9g", ((float *)out.data)[k]);
    else snprintf(text, sizeof text, "%.17g", ((double *)out.data)[k]);
    if (!all || pw_comm_allgather(c, text, all, sizeof text) != PW_OK) code = code ? code : EXIT_DATA;
    if (!code) {
        cli_report rep = {0};
        cli_result(&rep, "total", "%s", all + 64 * (size_t)(pw_comm_size(c) - 1));
        cli_absent(&rep, 0, "check");
        cli_absent(&rep, 1, "check_error_of_bound");
        cli_detail(&rep, "output", "%s", out_path);
        cli_detail(&rep, "rows", "%" PRId64, in.rows);
        cli_detail(&rep, "cols", "%" PRId64, cols);
        cli_detail(&rep, "input_type", "%s", pw_dtype_name(file_type));
        cli_detail(&rep, "output_type", "%s", pw_dtype_name(type));
        cli_detail(&rep, "ranks", "%d (bands of columns read and written by each)", pw_comm_size(c));
        cli_detail_info(&rep, &info);
        code = cli_finish(common, &rep, "sat");
    }
    free(all);
    free(in.data);
    free(out.data);
    return code;
}

int cli_stencil_bands(cli_common *common, const char *init, const char *out_path, int sor, int64_t sweeps, double omega,
                      int asked_type)
{
    pw_comm *c = cli_mpi_comm();
    const char *name = sor ? "sor" : "heat";
    pw_image band = {0};
    int64_t first, count, cols;
    int code = read_band(common, c, init, 1, &band, &first, &count, &cols);
    if (code) return code;
    int ok = (band.type == PW_F32 || band.type == PW_F64) && band.rows >= 3;
    if (!ok) cli_error("%s: a grid must be f32 or f64 and at least 3x3", init);
    if (ok && asked_type && (pw_dtype)(asked_type - 1) != band.type) { /* (one process converts; bands keep the file's) */
        if (pw_comm_rank(c) == 0)
            cli_error("%s: --type %s with band files: the grid keeps the file's type, %s (convert the file, or run "
                      "without -o)", init, pw_dtype_name((pw_dtype)(asked_type - 1)), pw_dtype_name(band.type));
        ok = 0;
    }
    pw_options o = common->options;
    if (o.backend == PW_BACKEND_AUTO) o.backend = PW_BACKEND_CPU;
    pw_run_info info = {0};
    double residual = 0;
    pw_status st = PW_OK;
    const int agreed = cli_mpi_agree(ok);
    if (agreed) {
        st = sor ? pw_dist_sor(c, &band, sweeps, omega, &o, &residual, &info) : pw_dist_heat(c, &band, sweeps, &o, &residual, &info);
        if (st != PW_OK) cli_error("%s: %s", name, cli_status_text(st));
    }
    if (!agreed || st != PW_OK) {
        free(band.data);
        return agreed ? cli_status_exit(st) : EXIT_DATA;
    }
    /* the band's own columns; the first and last ranks also the grid's border columns */
    const int last = pw_comm_rank(c) == pw_comm_size(c) - 1, lead = pw_comm_rank(c) == 0;
    pw_image own = band;
    own.stride = band.cols;
    own.cols = count + lead + last;
    own.data = (char *)band.data + (size_t)(lead ? 0 : 1) * pw_dtype_size(band.type);
    code = write_band(c, out_path, &own, cols, lead ? 0 : first + 1);
    if (!code) {
        cli_report rep = {0};
        cli_result(&rep, "residual", "%.17g", residual);
        cli_absent(&rep, 0, "check");
        cli_detail(&rep, "output", "%s", out_path);
        cli_detail(&rep, "sweeps", "%" PRId64, sweeps);
        if (sor) cli_detail(&rep, "omega", "%.17g", omega);
        cli_detail(&rep, "rows", "%" PRId64, band.rows);
        cli_detail(&rep, "cols", "%" PRId64, cols);
        cli_detail(&rep, "type", "%s", pw_dtype_name(band.type));
        cli_detail(&rep, "ranks", "%d (bands of columns read and written by each)", pw_comm_size(c));
        cli_detail_info(&rep, &info);
        code = cli_finish(common, &rep, name);
    }
    free(band.data);
    return code;
}
