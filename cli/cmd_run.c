/* cmd_run.c - `peerwave run CELL.c`: a user cell (include/peerwave_cell.h, docs/EXTENDING.md) on
 * any backend and strategy, its inputs from files, its parameters from the command line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fasta.h"
#include "io_util.h"
#include "npy.h"
#include "peerwave_runtime.h"

static const char run_usage[] =
    "usage: peerwave run CELL.c [--input NAME=FILE]... [--param NAME=VALUE]... [options]\n"
    "Run a user cell (docs/EXTENDING.md): compiled with the system C compiler for the CPU and\n"
    "with NVRTC for the GPU, cached under ~/.cache/peerwave/cells ($PEERWAVE_CACHE).\n"
    "  --input NAME=FILE   the cell's input NAME: a .npy of its type (1-D for axes i or j, or\n"
    "                      for a table of N elements; 2-D rows x cols for ij); for uint8_t\n"
    "                      inputs also a FASTA file (the first record's letters) or any other\n"
    "                      file (its bytes, line breaks removed)\n"
    "  --param NAME=VALUE  the cell's parameter NAME (every declared one is required)\n"
    "  --size RxC[xP]      the space when no input fixes it (grid forms: a zero grid; P planes\n"
    "                      for a grid3 cell)\n"
    "  --grid GRID.npy     grid forms: the starting grid, (rows + 2 halo) x (cols + 2 halo)\n"
    "                      (x (planes + 2 halo) for grid3)\n"
    "  --sweeps T          grid form: sweeps (default 1)\n"
    "  -o, --output OUT    write the result as .npy: the grid (grid form) or the last row\n"
    "                      (linear form with a PW_VALUE)\n"
    "Cells also run as bands of columns: --mpi under mpirun (the CPU engines, or each rank's GPU\n"
    "with --backend cuda), --gpus N / --devices 0,1 (a band a GPU): linear and stencil cells,\n"
    "and grid cells whose dependences all have dj >= 0; grid3 cells (bands of j) on the CPU, and on\n"
    "GPUs those the 3-D processor takes (upwind dependences).\n"
    "Output: last (the value of the last cell; one line a field), best, best_i, best_j with\n"
    "PW_REDUCE, compiled (yes: this run compiled the cell; no: from the cache), compile_s,\n"
    "then run details and gcups.\n" CLI_COMMON_HELP;

#define MAX_KV 64

typedef struct run_args {
    const char *input_name[MAX_KV], *input_file[MAX_KV];
    int n_inputs;
    const char *param_name[MAX_KV], *param_text[MAX_KV];
    double param_value[MAX_KV];
    int n_params;
    int64_t rows, cols, planes, sweeps;
    const char *grid, *output;
} run_args;

/* Split "NAME=REST" (in place: arg is argv's). */
static int split_kv(const char *opt, const char *arg, const char **name, const char **rest)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        cli_error("%s: expected NAME=VALUE, got '%s'", opt, arg);
        return -1;
    }
    *(char *)eq = 0;
    *name = arg;
    *rest = eq + 1;
    return 0;
}

/* --size RxCxP: three whole numbers, each at least 1 (planes at most 2^61, as the engines take). */
static int parse_size3(const char *arg, int64_t *rows, int64_t *cols, int64_t *planes)
{
    long long v[3];
    const char *p = arg;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        v[k] = strtoll(p, &end, 10);
        const int sep_ok = k < 2 ? (*end == 'x' || *end == 'X') : *end == '\0';
        if (end == p || errno || v[k] < 1 || !sep_ok || (k == 2 && v[k] > INT64_MAX / 4)) {
            cli_error("--size: '%s' is not a size ROWSxCOLSxPLANES with all three at least 1", arg);
            return -1;
        }
        p = end + 1;
    }
    *rows = v[0], *cols = v[1], *planes = v[2];
    return 0;
}

static int run_option(void *ctx, int opt, const char *arg)
{
    run_args *a = ctx;
    const char *name, *rest;
    switch (opt) {
    case 'I':
        if (a->n_inputs == MAX_KV || split_kv("--input", arg, &name, &rest)) return -1;
        a->input_name[a->n_inputs] = name;
        a->input_file[a->n_inputs++] = rest;
        return 0;
    case 'P':
        if (a->n_params == MAX_KV || split_kv("--param", arg, &name, &rest)) return -1;
        for (int k = 0; k < a->n_params; k++)
            if (!strcmp(a->param_name[k], name)) { /* (as --input: one value a name, not the last one silently) */
                cli_error("--param %s: given twice", name);
                return -1;
            }
        a->param_name[a->n_params] = name;
        a->param_text[a->n_params] = rest;
        char label[96]; /* (the message names the parameter: --param match: 'abc' is not a number) */
        snprintf(label, sizeof label, "--param %s", name);
        return cli_parse_double(label, rest, -1e308, 1e308, 0, &a->param_value[a->n_params++]);
    case 's': {
        /* RxC, or RxCxP for a grid3 cell (two separators: its own message, naming all three) */
        const size_t first = strcspn(arg, "xX");
        if (!arg[first] || !arg[first + 1 + strcspn(arg + first + 1, "xX")]) return cli_parse_size("--size", arg, &a->rows, &a->cols);
        return parse_size3(arg, &a->rows, &a->cols, &a->planes);
    }
    case 'g': a->grid = arg; return 0;
    case 'T': return cli_parse_int("--sweeps", arg, 1, INT64_MAX / 2, &a->sweeps);
    case 'o': a->output = arg; return 0;
    }
    return -1;
}

static const struct option run_options[] = {
    {"input", required_argument, 0, 'I'}, {"param", required_argument, 0, 'P'}, {"size", required_argument, 0, 's'},
    {"grid", required_argument, 0, 'g'},  {"sweeps", required_argument, 0, 'T'}, {"output", required_argument, 0, 'o'},
    {0, 0, 0, 0}};

/* The .npy element type of a cell type ("<i2": npy_array.descr's form), or NULL. */
static const char *cell_descr(pw_cell_type t)
{
    static const char *const names[PW_CT_COUNT] = {"|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<f4", "<f8"};
    return (int)t >= 0 && t < PW_CT_COUNT ? names[t] : NULL;
}

/* The C name of a .npy element type (its cell type's), for messages. */
static const char *descr_name(const char *descr)
{
    for (int t = 0; t < PW_CT_COUNT; t++)
        if (!strcmp(descr, cell_descr((pw_cell_type)t))) return pw_cell_type_name((pw_cell_type)t);
    return descr;
}

/* A file's bytes without line breaks (the buffer grows: /proc files and pipes say no size). */
static char *read_text(const char *path, int64_t *n, char *err, int errlen)
{
    FILE *f = io_open_input(path, err, errlen); /* (its reason: no such file, a directory, ...) */
    if (!f) return NULL;
    size_t cap = 4096, k = 0;
    char *buf = malloc(cap);
    for (int c; buf && (c = fgetc(f)) != EOF;) {
        if (c == '\n' || c == '\r') continue;
        if (k == cap) {
            char *t = cap < ((size_t)1 << 40) ? realloc(buf, cap * 2) : NULL;
            if (!t) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = t;
            cap *= 2;
        }
        buf[k++] = (char)c;
    }
    fclose(f);
    if (!buf) return io_fail(err, errlen, "%s: cannot read (or too large)", path), NULL;
    *n = (int64_t)k;
    return buf;
}

/* One input: its data (malloc'd), element count, and the rows / columns it implies. */
static int load_input(const pw_cell_field *f, const char *path, void **data, int64_t *rows, int64_t *cols,
                      int64_t *planes, char *err, int errlen)
{
    size_t len = strlen(path);
    int64_t n = 0;
    if (len > 4 && !strcmp(path + len - 4, ".npy")) {
        npy_array a;
        if (npy_read_elements(path, &a, err, errlen)) return -1;
        if (strcmp(a.descr, cell_descr(f->type))) {
            npy_free(&a);
            return io_fail(err, errlen, "%s: holds %s, input %s is %s", path, descr_name(a.descr), f->name,
                           pw_cell_type_name(f->type));
        }
        if (f->axes == PW_AXES_TABLE) { /* a table: exactly its declared size */
            if (a.ndim != 1 || a.shape[0] != f->count) {
                npy_free(&a);
                return io_fail(err, errlen, "%s: input %s is a table of %" PRId64 " elements (a 1-D .npy)", path,
                               f->name, f->count);
            }
            *data = a.data;
            return 0;
        }
        const int dims = (f->axes & PW_AXES_I ? 1 : 0) + (f->axes & PW_AXES_J ? 1 : 0) + (f->axes & PW_AXES_K ? 1 : 0);
        if (dims == 1 && a.ndim == 2 && (a.shape[0] == 1 || a.shape[1] == 1)) /* a column or a row: its values (as dtw takes them) */
            a.ndim = 1, a.shape[0] = a.count;
        if (a.ndim != dims) {
            npy_free(&a);
            return io_fail(err, errlen, "%s: %d dimensions, input %s needs %d", path, a.ndim, f->name, dims);
        }
        *data = a.data;
        int d = 0; /* the shape in axis order i, j, k */
        if (f->axes & PW_AXES_I) *rows = a.shape[d++];
        if (f->axes & PW_AXES_J) *cols = a.shape[d++];
        if (f->axes & PW_AXES_K) *planes = a.shape[d++];
        return 0;
    }
    if (f->type != PW_CT_U8 || (f->axes != PW_AXES_I && f->axes != PW_AXES_J))
        return io_fail(err, errlen, "%s: input %s (%s) is read from .npy only (text and FASTA: uint8_t along i or j)", path,
                       f->name, pw_cell_type_name(f->type));
    const char *dot = strrchr(path, '.');
    if (dot && (!strcmp(dot, ".fa") || !strcmp(dot, ".fasta") || !strcmp(dot, ".fna"))) {
        fasta_record r;
        if (fasta_read(path, NULL, &r, err, errlen)) return -1;
        *data = r.seq;
        n = r.length;
        free(r.name);
    } else if (!(*data = read_text(path, &n, err, errlen))) {
        return -1;
    }
    if (n < 1) return io_fail(err, errlen, "%s: empty", path);
    if (f->axes == PW_AXES_I) *rows = n;
    else *cols = n;
    return 0;
}

/* Agree one dimension: 0 = unknown yet. */
static int agree(int64_t *have, int64_t got, const char *what, const char *from, char *err, int errlen)
{
    if (!got) return 0;
    if (*have && *have != got)
        return io_fail(err, errlen, "%s: %" PRId64 " %s, but another input or --size says %" PRId64, from, got, what, *have);
    *have = got;
    return 0;
}

typedef struct run_job {
    pw_cell *cell;
    pw_cell_args args;
    pw_options options;
    pw_cell_result result;
} run_job;

static pw_status run_cell(void *p)
{
    run_job *j = p;
    return pw_cell_run(j->cell, &j->args, &j->options, &j->result);
}

static void report_value(cli_report *rep, pw_cell *cell, const char *key, const void *value, int only_field)
{
    int n;
    const pw_cell_field *f = pw_cell_fields(cell, &n);
    for (int k = 0; k < n; k++) {
        if (only_field >= 0 && k != only_field) continue;
        char name[32];
        if (n == 1) snprintf(name, sizeof name, "%s", key);
        else snprintf(name, sizeof name, "%s_%s", key, f[k].name);
        cli_result(rep, name, "%.17g", pw_cell_field_as_double(cell, value, k));
    }
}

/* An integer parameter written as an integer is read exactly (the double that --param parsed
 * rounds past 2^53, silently): the API takes parameters as doubles, so a 64-bit one beyond
 * +-2^53 is refused here, by name.  Nonzero: said why. */
static int integer_param_exact(const char *name, pw_cell_type type, const char *text, double *value)
{
    if (type == PW_CT_F32 || type == PW_CT_F64) return 0;
    char *end;
    errno = 0;
    const long long v = strtoll(text, &end, 10);
    if (end == text || *end) return 0; /* not an integer literal (1e3): the library checks the double */
    const long long exact = 9007199254740992LL; /* 2^53 */
    if (errno == ERANGE || v > exact || v < -exact) {
        cli_error("--param %s=%s: integer parameters reach the cell as doubles, exact only within +-2^53 "
                  "(9007199254740992)", name, text);
        return -1;
    }
    *value = (double)v;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_args a;
    memset(&a, 0, sizeof a);
    a.sweeps = 1;
    const cli_command command = {"run", run_usage, "o:", run_options, run_option, 1, 1, "one cell file"};
    cli_common common;
    int first, r = cli_parse(&command, argc, argv, &common, &a, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    const char *cell_path = argv[first];
    if (common.options.width_model > 0) { /* (it was taken and ignored: the width the engines pick) */
        cli_error("--tile-w model: the tile-width model is for the built-in commands; a cell takes a width "
                  "(--tile-w N) or the engines' own (auto)");
        return EXIT_USAGE;
    }
    if (!cli_in_batch()) cli_crash_guard("run: the cell"); /* (the batch has its own) */
    char err[512];
    int code = 0;
    int64_t text_len;
    pw_cell *cell = NULL;
    void *inputs[PW_CELL_MAX_ITEMS] = {0};
    double params[PW_CELL_MAX_ITEMS];
    void *grid = NULL, *ref_grid = NULL, *out_row = NULL;
    char why[256] = "";
    FILE *tf = io_open_input(cell_path, why, sizeof why);
    char *text = NULL;
    if (tf) {
        const int64_t size = io_remaining_bytes(tf);
        if (size < 0) snprintf(why, sizeof why, "%s: not a regular file", cell_path);
        else if (size >= (1 << 24)) snprintf(why, sizeof why, "%s: %lld bytes, more than a cell file's 16 MiB", cell_path, (long long)size);
        else if (!(text = calloc((size_t)size + 1, 1))) snprintf(why, sizeof why, "%s: out of memory", cell_path);
        text_len = text ? (int64_t)fread(text, 1, (size_t)size, tf) : 0;
        fclose(tf);
        if (text && text_len != size) {
            free(text);
            text = NULL;
            snprintf(why, sizeof why, "%s: read error", cell_path);
        }
    }
    if (!text) {
        cli_error("cannot read the cell file: %s", why);
        return EXIT_DATA;
    }
    pw_status st = pw_cell_create(text, cell_path, &cell);
    free(text);
    if (st != PW_OK) {
        cli_error("%s", pw_error_detail());
        return EXIT_DATA;
    }
    int n_in, n_par, n_fields;
    const pw_cell_field *fin = pw_cell_inputs(cell, &n_in);
    pw_cell_field in_fields[PW_CELL_MAX_ITEMS], par_fields[PW_CELL_MAX_ITEMS];
    memcpy(in_fields, fin, sizeof *fin * (size_t)n_in);
    const pw_cell_field *fpar = pw_cell_params(cell, &n_par);
    memcpy(par_fields, fpar, sizeof *fpar * (size_t)n_par);
    const pw_cell_field *fields = pw_cell_fields(cell, &n_fields);
    const pw_cell_type vtype = fields[0].type;
    const int grid_form = pw_cell_get_form(cell) != PW_CELL_LINEAR, halo = pw_cell_halo(cell);
    const int three_d = pw_cell_get_form(cell) == PW_CELL_GRID3;
    if (a.planes && !three_d) {
        cli_error("--size RxCxP: planes are for grid3 cells");
        code = EXIT_USAGE;
        goto out;
    }
    const size_t vsize = pw_cell_value_size(cell);

    /* every --input and --param must name something the cell declares, and each once */
    int read = 1; /* (the inputs read: agreed by every rank under --mpi) */
    for (int k = 0; k < a.n_inputs && read; k++) {
        int hit = -1;
        for (int q = 0; q < n_in; q++)
            if (!strcmp(in_fields[q].name, a.input_name[k])) hit = q;
        if (hit < 0 || inputs[hit]) {
            cli_error("--input %s: %s", a.input_name[k], hit < 0 ? "the cell declares no such input" : "given twice");
            code = EXIT_USAGE;
            goto out;
        }
        int64_t rr = 0, cc = 0, pp = 0;
        if (load_input(&in_fields[hit], a.input_file[k], &inputs[hit], &rr, &cc, &pp, err, sizeof err) ||
            agree(&a.rows, rr, "rows", a.input_file[k], err, sizeof err) || agree(&a.cols, cc, "columns", a.input_file[k], err, sizeof err) ||
            agree(&a.planes, pp, "planes", a.input_file[k], err, sizeof err)) {
            cli_error("%s", err);
            read = 0;
        }
    }
    if (!cli_mpi_agree(read)) {
        code = EXIT_DATA;
        goto out;
    }
    for (int q = 0; q < n_in; q++)
        if (!inputs[q]) {
            cli_error("the cell needs --input %s=FILE", in_fields[q].name);
            code = EXIT_USAGE;
            goto out;
        }
    for (int q = 0; q < n_par; q++) {
        int hit = -1;
        for (int k = 0; k < a.n_params; k++)
            if (!strcmp(a.param_name[k], par_fields[q].name)) hit = k;
        if (hit < 0) {
            cli_error("the cell needs --param %s=VALUE (%s)", par_fields[q].name, pw_cell_type_name(par_fields[q].type));
            code = EXIT_USAGE;
            goto out;
        }
        params[q] = a.param_value[hit];
        if (integer_param_exact(par_fields[q].name, par_fields[q].type, a.param_text[hit], &params[q])) {
            code = EXIT_USAGE;
            goto out;
        }
    }
    for (int k = 0; k < a.n_params; k++) {
        int hit = 0;
        for (int q = 0; q < n_par; q++) hit += !strcmp(a.param_name[k], par_fields[q].name);
        if (hit != 1) {
            cli_error("--param %s: the cell declares no such parameter", a.param_name[k]);
            code = EXIT_USAGE;
            goto out;
        }
    }
    if (grid_form && a.grid) {
        npy_array g;
        const int got = npy_read_elements(a.grid, &g, err, sizeof err) == 0;
        if (!got) cli_error("%s", err);
        if (!cli_mpi_agree(got)) {
            if (got) npy_free(&g);
            code = EXIT_DATA;
            goto out;
        }
        grid = g.data;
        const int dims = three_d ? 3 : 2;
        if (n_fields == 1 && strcmp(g.descr, cell_descr(vtype))) {
            cli_error("%s: holds %s, the cell's value is %s", a.grid, descr_name(g.descr), pw_cell_type_name(vtype));
            code = EXIT_DATA;
            goto out;
        }
        if (n_fields != 1 || g.ndim != dims || g.shape[0] <= 2 * halo ||
            g.shape[1] <= 2 * halo || (three_d && g.shape[2] <= 2 * halo)) {
            cli_error("%s: needs a %d-D %s grid larger than the halo (%d on every side)", a.grid, dims,
                      pw_cell_type_name(vtype), halo);
            code = EXIT_DATA;
            goto out;
        }
        if (agree(&a.rows, g.shape[0] - 2 * halo, "rows inside the halo", a.grid, err, sizeof err) ||
            agree(&a.cols, g.shape[1] - 2 * halo, "columns inside the halo", a.grid, err, sizeof err) ||
            (three_d && agree(&a.planes, g.shape[2] - 2 * halo, "planes inside the halo", a.grid, err, sizeof err))) {
            cli_error("%s", err);
            code = EXIT_DATA;
            goto out;
        }
    } else if (a.grid) {
        cli_error("--grid is for grid- and stencil-form cells");
        code = EXIT_USAGE;
        goto out;
    }
    if (!grid_form && a.sweeps != 1) {
        cli_error("--sweeps is for grid- and stencil-form cells (a linear cell's run is one pass)");
        code = EXIT_USAGE;
        goto out;
    }
    if (!a.rows || !a.cols || (three_d && !a.planes)) {
        if (three_d && a.rows && a.cols)
            cli_error("a grid3 cell needs three sizes: --size RxCxP (planes too)");
        else
            cli_error("the size is not known: give --size %s%s", three_d ? "RxCxP" : "RxC", n_in ? " or inputs along every axis" : "");
        code = EXIT_USAGE;
        goto out;
    }
    size_t grid_bytes = 0;
    if (grid_form) {
        /* (checked: --size near 2^63 overflowed the halo's addition, and the products wrapped) */
        int64_t r2, c2, p2 = 1, cells, bytes;
        const int overflows = __builtin_add_overflow(a.rows, 2 * (int64_t)halo, &r2) ||
                              __builtin_add_overflow(a.cols, 2 * (int64_t)halo, &c2) ||
                              (three_d && __builtin_add_overflow(a.planes, 2 * (int64_t)halo, &p2)) ||
                              __builtin_mul_overflow(r2, c2, &cells) || __builtin_mul_overflow(cells, p2, &cells) ||
                              __builtin_mul_overflow(cells, (int64_t)vsize, &bytes) || (uint64_t)bytes > SIZE_MAX;
        if (overflows) {
            cli_error("the grid (the size and the halo of %d on every side) overflows 64 bits", halo);
            code = EXIT_DATA;
            goto out;
        }
        grid_bytes = (size_t)bytes;
        if (!grid && !(grid = io_alloc(grid_bytes, 1, "the grid", err, sizeof err))) {
            cli_error("%s", err);
            code = EXIT_DATA;
            goto out;
        }
        if (!a.grid) memset(grid, 0, grid_bytes);
        if (common.check && !(ref_grid = io_alloc(grid_bytes, 1, "the reference grid", err, sizeof err))) {
            cli_error("%s", err);
            code = EXIT_DATA;
            goto out;
        }
        if (ref_grid) memcpy(ref_grid, grid, grid_bytes);
    } else if (a.output && !(out_row = io_alloc((uint64_t)a.cols, vsize, "the last row", err, sizeof err))) {
        cli_error("%s", err);
        code = EXIT_DATA;
        goto out;
    }

    run_job job;
    memset(&job, 0, sizeof job);
    job.cell = cell;
    job.options = common.options;
    job.args = (pw_cell_args){a.rows, a.cols, (const void *const *)inputs, params, grid, a.sweeps, out_row, NULL, a.planes};
    /* as a pw_job: a line of `peerwave batch` queues it, --mpi runs it as bands over the ranks */
    pw_job as_job;
    pw_job_init(&as_job, PW_JOB_CELL);
    as_job.u.cell.cell = cell, as_job.u.cell.args = job.args, as_job.u.cell.result = &job.result;
    as_job.options = job.options;
    st = cli_run_pw_job(&common, "run", &as_job);
    if (st != PW_OK) {
        cli_error("%s", st == PW_ERR_COMPILE ? pw_error_detail() : cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    cli_report rep = {0};
    if (!grid_form) report_value(&rep, cell, "last", job.result.last, -1);
    if (pw_cell_reduced_field(cell) >= 0) {
        report_value(&rep, cell, "best", job.result.best, pw_cell_reduced_field(cell));
        cli_result(&rep, "best_i", "%" PRId64, job.result.best_i);
        cli_result(&rep, "best_j", "%" PRId64, job.result.best_j);
    }
    if (common.check) {
        run_job ref;
        memset(&ref, 0, sizeof ref);
        ref.cell = cell;
        ref.options = cli_reference_options();
        ref.args = job.args;
        ref.args.grid = ref_grid;
        ref.args.last_row = NULL;
        st = run_cell(&ref);
        int same = st == PW_OK;
        for (int k = 0; k < n_fields; k++) { /* field by field: padding bytes are nobody's */
            const size_t at = fields[k].offset, sz = pw_cell_type_size(fields[k].type);
            same = same && !memcmp(ref.result.last + at, job.result.last + at, sz) && !memcmp(ref.result.best + at, job.result.best + at, sz);
        }
        same = same &&
                   ref.result.best_i == job.result.best_i && ref.result.best_j == job.result.best_j &&
                   (!grid_form || !memcmp(ref_grid, grid, grid_bytes));
        if (!same) {
            cli_check_failed(st);
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    if (a.output) {
        if (n_fields != 1) {
            cli_error("-o: the value must be one PW_VALUE (not a struct)");
            code = EXIT_USAGE;
            goto out;
        }
        int64_t shape[3] = {grid_form ? a.rows + 2 * halo : a.cols, a.cols + 2 * halo, a.planes + 2 * halo};
        if ((code = cli_write_output_elements(&rep, a.output, cell_descr(vtype), !grid_form ? 1 : three_d ? 3 : 2, shape,
                                              grid_form ? grid : out_row)))
            goto out;
    } else {
        cli_absent(&rep, 1, "output");
    }
    cli_detail(&rep, "compiled", "%s", job.result.compiled ? "yes" : "no (cached)");
    cli_detail(&rep, "compile_s", "%.3f", job.result.compile_seconds);
    if (job.result.note[0]) cli_detail(&rep, "note", "%s", job.result.note);
    else cli_absent(&rep, 1, "note");
    cli_detail(&rep, "rows", "%" PRId64, a.rows);
    cli_detail(&rep, "cols", "%" PRId64, a.cols);
    if (three_d) cli_detail(&rep, "planes", "%" PRId64, a.planes);
    if (grid_form) cli_detail(&rep, "sweeps", "%" PRId64, a.sweeps);
    cli_detail_info(&rep, &job.result.info);
    cli_detail(&rep, "gcups", "%.3f", job.result.info.seconds > 0 ? (double)job.result.info.cells / job.result.info.seconds / 1e9 : 0.0);
    code = cli_finish(&common, &rep, "run");
out:
    for (int q = 0; q < PW_CELL_MAX_ITEMS; q++) free(inputs[q]);
    free(grid);
    free(ref_grid);
    free(out_row);
    pw_cell_free(cell);
    return code;
}
