/* cli_report.c - result output as "key: value" lines or, with --tsv, a header line and a value
 * line, so scripts can read either with one line of awk/cut. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "io_util.h"
#include "npy.h"

static void add(cli_report *r, int detail, const char *key, const char *fmt, va_list ap)
{
    if (r->n >= CLI_REPORT_MAX) return;
    snprintf(r->key[r->n], sizeof r->key[r->n], "%s", key);
    vsnprintf(r->value[r->n], sizeof r->value[r->n], fmt, ap);
    r->absent[r->n] = 0;
    r->detail[r->n++] = detail;
}

void cli_absent(cli_report *r, int detail, const char *key)
{
    if (r->n >= CLI_REPORT_MAX) return;
    snprintf(r->key[r->n], sizeof r->key[r->n], "%s", key);
    snprintf(r->value[r->n], sizeof r->value[r->n], "-");
    r->absent[r->n] = 1;
    r->detail[r->n++] = detail;
}

void cli_result(cli_report *r, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(r, 0, key, fmt, ap);
    va_end(ap);
}

void cli_detail(cli_report *r, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(r, 1, key, fmt, ap);
    va_end(ap);
}

void cli_detail_info(cli_report *r, const pw_run_info *info)
{
    cli_detail(r, "backend", "%s", cli_backend_name(info->backend));
    cli_detail(r, "strategy", "%s", cli_strategy_name(info->strategy));
    cli_detail(r, "tile_shape", "%s", info->shape == PW_TILE_SQUARE ? "square" : "hyper");
    cli_detail(r, "tile_h", "%d", info->tile_h);
    cli_detail(r, "tile_w", "%" PRId64, info->tile_w);
    cli_detail(r, "threads", "%d", info->threads);
    if (info->backend == PW_BACKEND_CPU) cli_detail(r, "simd", "%s", pw_simd_name(info->simd));
    else cli_absent(r, 1, "simd"); /* (the --tsv columns are the same on either backend) */
    cli_detail(r, "cells", "%" PRId64, info->cells);
    cli_detail(r, "seconds", "%.6f", info->seconds);
}

void cli_report_print(const cli_report *r, const cli_common *c)
{
    /* (an output written to stdout -- `-o -`, /dev/stdout -- keeps stdout for itself) */
    FILE *o = io_stdout_used() ? stderr : stdout;
    if (c->tsv) {
        for (int pass = 0; pass < 2; pass++) {
            int col = 0;
            for (int k = 0; k < r->n; k++) {
                if (c->quiet && r->detail[k]) continue;
                fprintf(o, "%s%s", col++ ? "\t" : "", pass ? r->value[k] : r->key[k]);
            }
            fputc('\n', o);
        }
        return;
    }
    for (int k = 0; k < r->n; k++)
        if (!(c->quiet && r->detail[k]) && !r->absent[k]) fprintf(o, "%s: %s\n", r->key[k], r->value[k]);
}

int cli_write_output(cli_report *r, const char *path, pw_dtype type, int ndim, const int64_t *shape,
                     const void *data)
{
    return cli_write_output_elements(r, path, npy_descr_of(type), ndim, shape, data);
}

int cli_write_output_elements(cli_report *r, const char *path, const char *descr, int ndim, const int64_t *shape,
                              const void *data)
{
    char err[512];
    /* (--mpi: every rank holds the whole result here -- band files go through cli_bands.c -- so
     * rank 0 writes it, and no two processes write one file) */
    pw_comm *mpi = cli_mpi_comm();
    if (mpi && pw_comm_rank(mpi) != 0) {
        cli_detail(r, "output", "%s", path);
        return 0;
    }
    if (io_named_otherwise(path, ".npy"))
        cli_warn("%s: the output is a .npy array, whatever its name's extension says", path);
    if (npy_write_elements(path, descr, ndim, shape, data, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_DATA;
    }
    cli_detail(r, "output", "%s", path);
    return 0;
}
