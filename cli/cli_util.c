/* cli_util.c - error printing, number parsing, the common options and cli_parse(). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_trace.h"
#include "io_util.h"
#include "../src/core/exec.h"
#include "../src/core/fnv1a.h"
#include "../src/dist/dist_run.h"

static pw_comm *mpi_comm; /* --mpi (cli_mpi_start) */

/* One line on stderr, written with one write (under mpirun the ranks' lines came out interleaved
 * mid-line); a rank other than 0 names itself. */
void cli_error(const char *fmt, ...)
{
    if (cli_batch_silenced()) return;
    /* a failure every rank agreed on (pw_dist_failure_take) is told by rank 0 and the rank it came
     * from, not by every rank (mpirun -np 8 printed it 8 times) */
    if (mpi_comm && pw_comm_rank(mpi_comm) != 0) {
        const int from = pw_dist_failure_take(mpi_comm);
        if (from >= 0 && from != pw_comm_rank(mpi_comm)) return;
    }
    char line[4096];
    int n = mpi_comm && pw_comm_rank(mpi_comm) != 0 ? snprintf(line, sizeof line, "peerwave (rank %d): ", pw_comm_rank(mpi_comm))
                                                    : snprintf(line, sizeof line, "peerwave: ");
    va_list ap;
    va_start(ap, fmt);
    const int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n = m < 0 ? n : n + m < (int)sizeof line - 1 ? n + m : (int)sizeof line - 2; /* (a longer one is cut) */
    line[n++] = '\n';
    fflush(stderr);
    for (int at = 0; at < n;) {
        const ssize_t w = write(2, line + at, (size_t)(n - at));
        if (w <= 0) break;
        at += (int)w;
    }
}

void cli_warn(const char *fmt, ...)
{
    if (mpi_comm && pw_comm_rank(mpi_comm) != 0) return;
    char message[3000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    cli_error("warning: %s", message);
}

static void io_warning(const char *message) { cli_warn("%s", message); }

void cli_check_failed(pw_status reference)
{
    if (reference != PW_OK) { /* (with its reason: a user cell's read outside its grid, say) */
        const char *why = pw_error_detail();
        cli_error("check FAILED: the sequential reference did not run (%s%s%s)", pw_status_str(reference),
                  why && why[0] ? ": " : "", why ? why : "");
    }
    else cli_error("check FAILED: the sequential reference differs");
}


int cli_parse_devices(const char *text, int *devices, int most, int *n)
{
    *n = 0;
    for (const char *at = text; *at;) {
        char *end;
        const long d = strtol(at, &end, 10);
        if (end == at || d < 0 || d > 1024 || *n == most || (*end && *end != ',') || (*end == ',' && !end[1])) {
            cli_error("--devices: '%s' is not a list of up to %d device numbers like 0,1,2", text, most);
            return -1;
        }
        for (int k = 0; k < *n; k++)
            if (devices[k] == (int)d) {
                cli_error("--devices: device %ld twice (a GPU takes one band or queue)", d);
                return -1;
            }
        devices[(*n)++] = (int)d;
        at = *end ? end + 1 : end;
    }
    return 0;
}

int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    /* (strtoll skips leading blanks: " 2" passed where "2 " was refused) */
    if (errno || end == text || *end != '\0' || isspace((unsigned char)text[0]) || v < lo || v > hi) {
        cli_error("%s: '%s' is not an integer in %" PRId64 "..%" PRId64, opt, text, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_int_list(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out, int most, int *n)
{
    *n = 0;
    for (const char *at = text;; at++) {
        const char *comma = strchr(at, ',');
        const size_t len = comma ? (size_t)(comma - at) : strlen(at);
        char element[32];
        if (len == 0 || len >= sizeof element) {
            cli_error("%s: '%s' is not a list like 8,16,32 (%s)", opt, text, len ? "an element too long" : "an empty element");
            return -1;
        }
        if (*n == most) {
            cli_error("%s: at most %d values", opt, most);
            return -1;
        }
        memcpy(element, at, len);
        element[len] = '\0';
        if (cli_parse_int(opt, element, lo, hi, &out[*n])) return -1;
        ++*n;
        if (!comma) return 0;
        at = comma;
    }
}

int cli_parse_double(const char *opt, const char *text, double lo, double hi, int open, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    int inside = open ? v > lo && v < hi : v >= lo && v <= hi;
    if (end == text || *end != '\0' || isspace((unsigned char)text[0]) || !isfinite(v) || !inside) {
        cli_error("%s: '%s' is not a number in %c%g, %g%c", opt, text, open ? '(' : '[', lo, hi, open ? ')' : ']');
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_size(const char *opt, const char *text, int64_t *rows, int64_t *cols)
{
    return cli_parse_size_least(opt, text, 1, NULL, rows, cols);
}

int cli_parse_size_least(const char *opt, const char *text, long long least, const char *why, int64_t *rows,
                         int64_t *cols)
{
    char *x;
    errno = 0;
    long long h = strtoll(text, &x, 10);
    if (x != text && (*x == 'x' || *x == 'X') && h >= least && !errno) {
        char *end;
        long long w = strtoll(x + 1, &end, 10);
        if (end != x + 1 && *end == '\0' && w >= least && !errno) {
            *rows = h;
            *cols = w;
            return 0;
        }
    }
    cli_error("%s: '%s' is not a size ROWSxCOLS with both at least %lld%s", opt, text, least, why ? why : "");
    return -1;
}

int cli_parse_dtype(const char *opt, const char *text, unsigned allowed, pw_dtype *out)
{
    for (int t = 0; t < PW_DTYPE_COUNT; t++)
        if ((allowed & CLI_DTYPE(t)) && !strcmp(text, pw_dtype_name((pw_dtype)t))) {
            *out = (pw_dtype)t;
            return 0;
        }
    char names[64] = "";
    for (int t = 0, n = 0; t < PW_DTYPE_COUNT; t++)
        if (allowed & CLI_DTYPE(t))
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", n++ ? ", " : "", pw_dtype_name((pw_dtype)t));
    cli_error("%s: '%s' is not one of this command's types (%s)", opt, text, names);
    return -1;
}

void cli_common_init(cli_common *c)
{
    memset(c, 0, sizeof *c);
    pw_options_init(&c->options);
    c->train_ratio = 0.1;
}

static int pick(const char *opt, const char *arg, const char *const *names, int n, int *out)
{
    for (int k = 0; k < n; k++)
        if (strcmp(arg, names[k]) == 0) {
            *out = k;
            return 0;
        }
    cli_error("%s: unknown value '%s'", opt, arg);
    return -1;
}

static const char *const backend_names[] = {"auto", "cpu", "cuda"};
static const char *const strategy_names[] = {"peer", "sequential", "barrier", "launch", "tasks"};
static const char *const shape_names[] = {"hyper", "square"};
static const char *const layout_names[] = {"auto", "row-major", "hybrid"};
static const char *const simd_names[] = {"auto", "scalar", "sse41", "avx2", "avx512"}; /* pw_simd_name() */

const char *cli_backend_name(pw_backend b) { return (unsigned)b < 3 ? backend_names[b] : "?"; }
const char *cli_strategy_name(pw_strategy s) { return (unsigned)s < 5 ? strategy_names[s] : "?"; }


enum { OPT_BACKEND = 1001, OPT_STRATEGY, OPT_SHAPE, OPT_TILE_H, OPT_TILE_W, OPT_THREADS,
       OPT_DEVICE, OPT_QUIET, OPT_TSV, OPT_CHECK, OPT_PROGRESS, OPT_TRACE, OPT_WATCHDOG, OPT_MAX_BLOCKS,
       OPT_ROWS_PER_THREAD, OPT_LAYOUT, OPT_TRAIN_RATIO, OPT_WISDOM, OPT_SIMD, OPT_MPI, OPT_GPUS, OPT_DEVICES, OPT_BALANCE,
       OPT_NCCL, OPT_BANDS_PER_GPU };

static const struct option common_options[] = {
    {"backend", required_argument, 0, OPT_BACKEND}, {"strategy", required_argument, 0, OPT_STRATEGY},
    {"tile-shape", required_argument, 0, OPT_SHAPE}, {"tile-h", required_argument, 0, OPT_TILE_H},
    {"tile-w", required_argument, 0, OPT_TILE_W},   {"threads", required_argument, 0, OPT_THREADS},
    {"device", required_argument, 0, OPT_DEVICE},   {"quiet", no_argument, 0, OPT_QUIET},
    {"tsv", no_argument, 0, OPT_TSV},               {"check", no_argument, 0, OPT_CHECK},
    {"progress", no_argument, 0, OPT_PROGRESS},     {"trace", required_argument, 0, OPT_TRACE},
    {"watchdog-ms", required_argument, 0, OPT_WATCHDOG}, {"max-blocks", required_argument, 0, OPT_MAX_BLOCKS},
    {"rows-per-thread", required_argument, 0, OPT_ROWS_PER_THREAD}, {"layout", required_argument, 0, OPT_LAYOUT},
    {"train-ratio", required_argument, 0, OPT_TRAIN_RATIO}, {"wisdom", required_argument, 0, OPT_WISDOM},
    {"simd", required_argument, 0, OPT_SIMD},       {"mpi", no_argument, 0, OPT_MPI},
    {"gpus", required_argument, 0, OPT_GPUS},       {"devices", required_argument, 0, OPT_DEVICES},
    {"balance", no_argument, 0, OPT_BALANCE},       {"nccl", no_argument, 0, OPT_NCCL},
    {"bands-per-gpu", required_argument, 0, OPT_BANDS_PER_GPU},
    {"help", no_argument, 0, 'h'}};
#define N_COMMON (int)(sizeof common_options / sizeof common_options[0])

/* 1 handled, 0 not a common option, -1 bad value. */
static int common_option(cli_common *c, int opt, const char *arg)
{
    pw_options *o = &c->options;
    int k;
    int64_t v;
    switch (opt) {
    case OPT_BACKEND:
        if (pick("--backend", arg, backend_names, 3, &k)) return -1;
        o->backend = (pw_backend)k;
        return 1;
    case OPT_STRATEGY:
        if (pick("--strategy", arg, strategy_names, 5, &k)) return -1;
        o->strategy = (pw_strategy)k;
        return 1;
    case OPT_SHAPE:
        if (pick("--tile-shape", arg, shape_names, 2, &k)) return -1;
        o->shape = (pw_tile_shape)k;
        return 1;
    case OPT_TILE_H:
        if (cli_parse_int("--tile-h", arg, 1, PW_MAX_TILE_H, &v)) return -1;
        o->tile_h = (int)v;
        return 1;
    case OPT_TILE_W:
        o->tile_w = 0; /* auto and model: the library's width_model (src/core/auto_width.h) */
        if (!strcmp(arg, "auto")) o->width_model = 0;
        else if (!strcmp(arg, "model")) o->width_model = 1;
        else if (strspn(arg, "0123456789") != strlen(arg) || !arg[0]) {
            cli_error("--tile-w: '%s' is not a width in steps, auto or model", arg);
            return -1;
        } else if (cli_parse_int("--tile-w", arg, 1, INT64_MAX / 8, &v)) return -1;
        else o->tile_w = v;
        return 1;
    case OPT_WISDOM:
        if (!arg[0]) {
            cli_error("--wisdom: give a file name, or none");
            return -1;
        }
        o->wisdom = arg;
        return 1;
    case OPT_TRAIN_RATIO:
        if (cli_parse_double("--train-ratio", arg, 0, 1, 1, &c->train_ratio)) return -1;
        o->train_ratio = c->train_ratio;
        return 1;
    case OPT_THREADS:
        if (cli_parse_int("--threads", arg, 1, PW_MAX_THREADS, &v)) return -1;
        o->threads = (int)v;
        return 1;
    case OPT_DEVICE:
        if (cli_parse_int("--device", arg, 0, 1024, &v)) return -1;
        o->device = (int)v;
        c->device_given = 1;
        return 1;
    case OPT_QUIET: c->quiet = 1; return 1;
    case OPT_MPI: c->mpi = 1; return 1;
    case OPT_BALANCE: c->balance = 1; return 1;
    case OPT_NCCL: c->nccl = 1; return 1;
    case OPT_GPUS:
        if (cli_parse_int("--gpus", arg, 1, 16, &v)) return -1;
        c->n_devices = (int)v;
        for (int d = 0; d < c->n_devices; d++) c->devices[d] = d;
        return 1;
    case OPT_BANDS_PER_GPU:
        if (cli_parse_int("--bands-per-gpu", arg, 1, 16, &v)) return -1;
        c->bands_per_gpu = (int)v;
        return 1;
    case OPT_DEVICES: return cli_parse_devices(arg, c->devices, 16, &c->n_devices) ? -1 : 1;
    case OPT_TSV: c->tsv = 1; return 1;
    case OPT_CHECK: c->check = 1; return 1;
    case OPT_PROGRESS: c->progress = 1; return 1;
    case OPT_WATCHDOG:
        if (cli_parse_int("--watchdog-ms", arg, 1, INT64_MAX / 1000000, &v)) return -1;
        o->watchdog_ms = v;
        return 1;
    case OPT_MAX_BLOCKS:
        if (cli_parse_int("--max-blocks", arg, 1, 1 << 30, &v)) return -1;
        o->max_blocks = (int)v;
        return 1;
    case OPT_ROWS_PER_THREAD:
        if (cli_parse_int("--rows-per-thread", arg, 1, 8, &v)) return -1;
        if (v & (v - 1)) {
            cli_error("--rows-per-thread: %s is not 1, 2, 4 or 8", arg);
            return -1;
        }
        o->rows_per_thread = (int)v;
        return 1;
    case OPT_SIMD:
        if (pick("--simd", arg, simd_names, 5, &k)) return -1;
        o->simd = (pw_simd)k;
        return 1;
    case OPT_LAYOUT:
        if (pick("--layout", arg, layout_names, 3, &k)) return -1;
        o->layout = (pw_layout)k;
        return 1;
    case OPT_TRACE:
        c->trace_path = arg;
        c->options.trace = cli_trace_collect;
        c->options.trace_user = &c->trace;
        return 1;
    }
    return 0;
}

static uint64_t arguments_hash(int argc, char **argv);

/* Remember the option just parsed by its long name (a short option's: the long option with the
 * same value, "o" -> "output"), once; inside a batch, also the file an output option names. */
int cli_i64_as_i32(pw_image *img)
{
    unsigned char *bytes = (unsigned char *)img->data;
    const int64_t n = img->rows * img->cols;
    if (img->stride != 0 && img->stride != img->cols) return 1;
    for (int64_t k = 0; k < n; k++) {
        int64_t v;
        memcpy(&v, bytes + 8 * k, 8);
        if (v < INT32_MIN || v > INT32_MAX) return 1;
    }
    for (int64_t k = 0; k < n; k++) { /* narrowing front to back never overwrites an unread value */
        int64_t v;
        memcpy(&v, bytes + 8 * k, 8);
        const int32_t w = (int32_t)v;
        memcpy(bytes + 4 * k, &w, 4);
    }
    img->type = PW_I32;
    img->stride = img->cols;
    return 0;
}

/* path with its directory resolved (the file itself too where it exists): 0, or -1 when the
 * directory does not resolve. */
static int resolved_path_within(const char *path, char out[PATH_MAX], int links)
{
    if (realpath(path, out)) return 0;
    const char *slash = strrchr(path, '/');
    /* a link to a file not there yet: writing through it creates its target, so that is the file */
    struct stat st;
    char target[PATH_MAX], joined[2 * PATH_MAX];
    ssize_t n;
    if (links < 8 && !lstat(path, &st) && S_ISLNK(st.st_mode) && (n = readlink(path, target, sizeof target - 1)) > 0) {
        target[n] = '\0';
        if (target[0] == '/' || !slash) snprintf(joined, sizeof joined, "%s", target);
        else snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - path), path, target);
        return strlen(joined) < PATH_MAX ? resolved_path_within(joined, out, links + 1) : -1;
    }
    char dir[PATH_MAX], where[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, where)) return -1;
    return snprintf(out, PATH_MAX, "%s/%s", strcmp(where, "/") ? where : "", slash ? slash + 1 : path) >= PATH_MAX ? -1 : 0;
}

/* The absolute path a file would be written at (links followed, also one to a file not there yet). */
static int resolved_path(const char *path, char out[PATH_MAX]) { return resolved_path_within(path, out, 0); }

/* A fatal signal while a command runs user code (a cell: compiled into this process and run on
 * its threads, unchecked): one line on stderr and exit 1, instead of the shell's bare "Segmentation
 * fault".  Only write(2) and _exit here (async-signal-safe); the message is made beforehand. */
static char crash_line[4][320];
static int crash_len[4];
static const int crash_signals[4] = {SIGSEGV, SIGFPE, SIGBUS, SIGILL};

static void on_crash(int sig)
{
    for (int k = 0; k < 4; k++)
        if (crash_signals[k] == sig && write(2, crash_line[k], (size_t)crash_len[k]) < 0) break;
    _exit(1);
}

void cli_crash_guard(const char *what)
{
    static const char *const names[4] = {"SIGSEGV, a memory access out of bounds", "SIGFPE, an arithmetic fault such as an "
                                         "integer division by zero", "SIGBUS, a bad memory access", "SIGILL, an illegal instruction"};
    for (int k = 0; k < 4; k++) {
        crash_len[k] = snprintf(crash_line[k], sizeof crash_line[k],
                                "peerwave: %s ended the process (%s); a cell must read only inside its inputs and "
                                "not divide an integer by zero (docs/EXTENDING.md)\n", what, names[k]);
        if (crash_len[k] >= (int)sizeof crash_line[k]) crash_len[k] = (int)sizeof crash_line[k] - 1;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_crash;
        sa.sa_flags = SA_RESETHAND; /* (a fault inside the handler: the default action) */
        sigemptyset(&sa.sa_mask);
        sigaction(crash_signals[k], &sa, NULL);
    }
}

int cli_same_file(const char *a, const char *b)
{
    if (!strcmp(a, b)) return 1;
    struct stat sa, sb; /* (hard links too) */
    if (!stat(a, &sa) && !stat(b, &sb)) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ra[PATH_MAX], rb[PATH_MAX];
    return !resolved_path(a, ra) && !resolved_path(b, rb) && !strcmp(ra, rb);
}

static void note_option(cli_common *c, const struct option *all, int n, int opt, int index, const char *arg)
{
    const char *name = index >= 0 ? all[index].name : NULL;
    for (int k = 0; k < n && !name; k++)
        if (all[k].val == opt) name = all[k].name;
    if (!name) return;
    int seen = 0;
    for (int k = 0; k < c->n_given && !seen; k++) seen = !strcmp(c->given[k], name);
    if (!seen && c->n_given < (int)(sizeof c->given / sizeof c->given[0])) c->given[c->n_given++] = name;
    static const char *const inputs[] = {"init", "grid", "query", "db", "input"};
    for (size_t k = 0; arg && k < sizeof inputs / sizeof inputs[0]; k++)
        if (!strcmp(name, inputs[k]) && c->n_inputs < (int)(sizeof c->input_path / sizeof c->input_path[0])) {
            /* (--input NAME=FILE: the command's option split it in place, NAME then FILE) */
            const char *eq = strchr(arg, '=');
            c->input_path[c->n_inputs++] = !strcmp(name, "input") ? (eq ? eq + 1 : arg + strlen(arg) + 1) : arg;
        }
    static const char *const outputs[] = {"output", "path", "plot", "view", "trace", "csv", "svg"}; /* (csv, svg: tune's) */
    for (size_t k = 0; arg && k < sizeof outputs / sizeof outputs[0]; k++) {
        if (strcmp(name, outputs[k])) continue;
        if (cli_in_batch()) cli_batch_output(name, arg);
        int o = 0; /* (a repeated option's last value is the one the command uses) */
        while (o < c->n_outputs && strcmp(c->output_option[o], name)) o++;
        if (o < (int)(sizeof c->output_path / sizeof c->output_path[0])) {
            c->output_option[o] = name, c->output_path[o] = arg;
            if (o == c->n_outputs) c->n_outputs++;
        }
    }
}

const char *cli_option_given(const cli_common *c, const char *const *names)
{
    for (int k = 0; k < c->n_given; k++)
        for (const char *const *m = names; *m; m++)
            if (!strcmp(c->given[k], *m)) return c->given[k];
    return NULL;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_common *common, void *ctx, int *first)
{
    /* (before getopt reorders argv and the options split NAME=VALUE words in place) */
    const uint64_t line = arguments_hash(argc, argv);
    struct option all[64];
    int n = 0;
    for (const struct option *o = cmd->options; o && o->name && n < 64 - N_COMMON - 1; o++) all[n++] = *o;
    for (int k = 0; k < N_COMMON; k++) all[n++] = common_options[k];
    memset(&all[n], 0, sizeof all[n]);
    char shortopts[32];
    snprintf(shortopts, sizeof shortopts, ":h%s", cmd->shortopts ? cmd->shortopts : "");
    cli_common_init(common);
    optind = 1;
    opterr = 0; /* our own one-line messages */
    int opt, index;
    while ((index = -1, opt = getopt_long(argc, argv, shortopts, all, &index)) != -1) {
        if (opt == 'h') {
            fputs(cmd->usage, stdout);
            return 1;
        }
        if (opt == ':') {
            cli_error("%s: option '%s' needs a value", cmd->name, argv[optind - 1]);
            return -1;
        }
        if (opt == '?') {
            cli_error("%s: unknown option '%s' (see peerwave %s --help)", cmd->name, argv[optind - 1], cmd->name);
            return -1;
        }
        if (optarg && optarg[0] == '-' && optarg[1] == '-' && optarg[2]) { /* `-o --quiet`: a forgotten value */
            /* (the option's own word: the one before its value, or the value's own when attached) */
            const char *option = optind >= 2 && argv[optind - 1] == optarg ? argv[optind - 2] : argv[optind - 1];
            cli_error("%s: option '%s' needs a value, not the option '%s' (for a file of that name: ./%s)", cmd->name,
                      option, optarg, optarg);
            return -1;
        }
        int r = common_option(common, opt, optarg);
        if (r < 0) return -1;
        if (r == 0 && cmd->option(ctx, opt, optarg)) return -1;
        note_option(common, all, n, opt, index, optarg);
    }
    int args = argc - optind;
    if (args < cmd->min_args || args > cmd->max_args) {
        /* (say what was there: a third file, or a batch line's trailing "# note", read as "needs two") */
        if (args > cmd->max_args)
            cli_error("%s needs %s, not %d arguments (the first extra one: '%s'; see peerwave %s --help)", cmd->name,
                      cmd->args_hint, args, argv[optind + cmd->max_args], cmd->name);
        else
            cli_error("%s needs %s (see peerwave %s --help)", cmd->name, cmd->args_hint, cmd->name);
        return -1;
    }
    for (int k = optind; k < argc; k++)
        if (!argv[k][0]) {
            cli_error("%s: argument %d is empty (an empty file name)", cmd->name, k - optind + 1);
            return -1;
        }
    *first = optind;
    /* an output over an input would destroy it (and under --mpi, ranks read their bands of a file
     * that rank 0 has begun to rewrite) */
    for (int o = 0; o < common->n_outputs; o++)
        if (!common->output_path[o][0]) {
            cli_error("%s: --%s: an empty file name", cmd->name, common->output_option[o]);
            return -1;
        }
    for (int o = 0; o < common->n_outputs; o++) {
        /* two outputs of one command in one file: the later one's bytes would replace the other's
         * (dtw --path x.npy --plot x.npy left an SVG where the path's .npy was reported) */
        for (int p = 0; p < o; p++)
            if (!io_is_stdout(common->output_path[o]) && cli_same_file(common->output_path[o], common->output_path[p])) {
                cli_error("%s: --%s and --%s name one file, %s (give each its own)", cmd->name, common->output_option[p],
                          common->output_option[o], common->output_path[o]);
                return -1;
            }
        for (int k = optind; k < argc; k++)
            if (!io_is_stdout(common->output_path[o]) && cli_same_file(common->output_path[o], argv[k])) {
                cli_error("%s: --%s %s is also an input: it would be overwritten (write elsewhere)", cmd->name,
                          common->output_option[o], common->output_path[o]);
                return -1;
            }
        /* (an option's input, e.g. heat --init G -o G, advances a state in place: one process writes
         * the output whole and renames it over the input; under --mpi the ranks read their bands of
         * a file that rank 0 has begun to rewrite) */
        for (int k = 0; common->mpi && k < common->n_inputs; k++)
            if (!io_is_stdout(common->output_path[o]) && cli_same_file(common->output_path[o], common->input_path[k])) {
                cli_error("%s: --%s %s is also an input: under --mpi it would be rewritten while the ranks read it "
                          "(write elsewhere)", cmd->name, common->output_option[o], common->output_path[o]);
                return -1;
            }
    }
    if (cli_in_batch()) { /* (a batch line's job runs on the batch's queue, which never looks at these) */
        static const char *const not_in_batch[] = {"mpi", "gpus", "devices", "bands-per-gpu", "balance", "nccl", NULL};
        const char *o = cli_option_given(common, not_in_batch);
        if (o) {
            cli_error("%s: --%s does not apply to a line of peerwave batch: its jobs run in this one process through "
                      "the batch's queue (spread them over GPUs with the batch's own --gpus/--devices; run an MPI job "
                      "by itself under mpirun)", cmd->name, o);
            return -1;
        }
    }
    if (common->trace_path && common->options.strategy == PW_STRATEGY_SEQUENTIAL) { /* (it ran, wrote -o, then said so) */
        cli_error("%s: --trace records tiles of the peer, barrier and tasks strategies; the sequential strategy has none",
                  cmd->name);
        return -1;
    }
    if (common->n_devices > 0 && strstr(pw_build_info(), "no CUDA")) {
        cli_error("--gpus/--devices: this build has no CUDA (%s)", pw_build_info());
        return -1;
    }
    if (common->n_devices > 1) /* (before CUDA starts: a lazy kernel load may synchronise a device a band waits on) */
        setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    if (common->n_devices > 1 && common->mpi) {
        cli_error("--gpus/--devices and --mpi: one or the other (under mpirun each rank takes one GPU: --device)");
        return -1;
    }
    if (common->bands_per_gpu > 1 && common->n_devices < 1) {
        cli_error("--bands-per-gpu goes with --gpus or --devices");
        return -1;
    }
    if (common->n_devices * (common->bands_per_gpu ? common->bands_per_gpu : 1) > 64) {
        cli_error("--bands-per-gpu %d on %d GPUs: %d bands, at most 64", common->bands_per_gpu, common->n_devices,
                  common->n_devices * common->bands_per_gpu);
        return -1;
    }
    if (common->balance && !common->mpi && common->n_devices * (common->bands_per_gpu > 1 ? common->bands_per_gpu : 1) < 2) {
        cli_error("--balance goes with --mpi, --gpus or --devices (it sizes the bands of several ranks or GPUs: two at least)");
        return -1;
    }
    if (common->nccl && !common->mpi) {
        cli_error("--nccl goes with --mpi (GPU bands of mpirun's processes; --gpus hands over directly)");
        return -1;
    }
    if (common->mpi && cli_mpi_start(line, common->options.watchdog_ms)) return -1;
    const char *world = getenv("OMPI_COMM_WORLD_SIZE"); /* (mpirun's, or another MPI's) */
    if (!world) world = getenv("PMI_SIZE");
    if (!common->mpi && world && atoi(world) > 1)
        cli_warn("started by mpirun (%d ranks) without --mpi: each rank runs the whole job by itself "
                  "(ranks given --mpi wait for ranks without it until their --watchdog-ms, 120 s by default)", atoi(world));
    if (common->nccl) {
        const pw_status st = pw_comm_use_nccl(mpi_comm);
        if (st != PW_OK) {
            cli_error("--nccl: %s", cli_status_text(st));
            return -1;
        }
    }
    if (common->mpi && !common->device_given) { /* under mpirun each rank takes its own GPU of its host */
        const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
        if (!local) local = getenv("MPI_LOCALRANKID");
        if (local) common->options.device = atoi(local);
    }
    return cli_progress_attach(common) ? -1 : 0;
}

/* --mpi: this process is one rank of mpirun's; the job runs as bands of columns over them
 * (pw_dist_job_run) and only rank 0 prints (the others' standard output goes to /dev/null). */

static void mpi_end(void)
{
    pw_comm_free(mpi_comm);
    mpi_comm = NULL;
    pw_comm_finalize();
}

/* A hash of the command line but for what may differ between ranks (their device, their threads:
 * `mpirun -np 1 peerwave ... --device 0 : -np 1 peerwave ... --device 1`). */
static uint64_t arguments_hash(int argc, char **argv)
{
    uint64_t h = PW_FNV1A_BASIS;
    for (int k = 0; k < argc; k++) {
        const char *a = argv[k];
        if (!strcmp(a, "--device") || !strcmp(a, "--threads")) {
            k++; /* (and its value) */
            continue;
        }
        if (!strncmp(a, "--device=", 9) || !strncmp(a, "--threads=", 10)) continue;
        for (const char *c = a;; c++) {
            h = pw_fnv1a_step(h, (unsigned char)*c);
            if (!*c) break;
        }
    }
    return h;
}

int cli_mpi_rank(void) { return mpi_comm ? pw_comm_rank(mpi_comm) : 0; }

int cli_mpi_agree(int ok)
{
    if (!mpi_comm) return ok;
    const int size = pw_comm_size(mpi_comm);
    int *all = malloc(sizeof *all * (size_t)size);
    int every = all && pw_comm_allgather(mpi_comm, &ok, all, sizeof ok) == PW_OK;
    for (int k = 0; every && k < size; k++)
        if (!all[k]) {
            if (ok) cli_error("rank %d failed (its message says why)", k);
            every = 0;
        }
    free(all);
    return every;
}

/* The start's watchdog: MPI's start (and the command lines' comparison after it) waits for every
 * rank, so a rank started without --mpi (or one that ended at once: --help) left the others
 * waiting in it for ever; after the run's watchdog (--watchdog-ms, else 120 s, as a distributed
 * run's start) this rank says so and ends. */
static int mpi_start(uint64_t line);
static atomic_int mpi_started;

static double mpi_start_limit_s;

static void *mpi_start_watch(void *arg)
{
    (void)arg;
    const double began = pw_seconds_now();
    while (!atomic_load(&mpi_started)) {
        if (pw_seconds_now() - began > mpi_start_limit_s) {
            char line[300];
            const int n = snprintf(line, sizeof line,
                                   "peerwave: --mpi: the ranks did not all start within %.0f s (one started without "
                                   "--mpi, or ended at once, e.g. with --help?); stopping\n", mpi_start_limit_s);
            if (n > 0 && write(2, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1)) < 0) _exit(EXIT_DATA);
            _exit(EXIT_DATA);
        }
        struct timespec t = {0, 50 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    return NULL;
}

int cli_mpi_start(uint64_t line, int64_t watchdog_ms)
{
    if (mpi_comm) return 0;
    mpi_start_limit_s = watchdog_ms > 0 ? (double)watchdog_ms / 1000 : 120;
    pthread_t watch;
    const int watching = pthread_create(&watch, NULL, mpi_start_watch, NULL) == 0;
    const int code = mpi_start(line);
    atomic_store(&mpi_started, 1);
    if (watching) pthread_join(watch, NULL);
    return code;
}

static int mpi_start(uint64_t line)
{
    pw_status st = pw_comm_mpi(&mpi_comm);
    if (st != PW_OK) {
        cli_error("--mpi: %s", cli_status_text(st));
        return -1;
    }
    atexit(mpi_end);
    io_set_warn(io_warning); /* (the readers' warnings: rank 0's alone) */
    if (pw_comm_rank(mpi_comm) != 0 && !freopen("/dev/null", "w", stdout)) {
        cli_error("--mpi: rank %d cannot quiet its output", pw_comm_rank(mpi_comm));
        return -1;
    }
    /* The same command line on every rank (files, sizes, options), before any other collective:
     * ranks running different commands would wait in different collectives for ever. */
    const int size = pw_comm_size(mpi_comm);
    const uint64_t mine = line;
    uint64_t *all = malloc(sizeof *all * (size_t)size);
    if (!all || pw_comm_allgather(mpi_comm, &mine, all, sizeof mine) != PW_OK) {
        free(all);
        cli_error("--mpi: the ranks could not compare their command lines");
        return -1;
    }
    int differs = -1;
    for (int k = 0; k < size && differs < 0; k++)
        if (all[k] != all[0]) differs = k;
    free(all);
    if (differs >= 0) {
        cli_error("--mpi: rank %d was called with other arguments than rank 0 (every rank runs the same command on the "
                  "same files; only --device and --threads may differ)",
                  differs);
        return -1;
    }
    return 0;
}

pw_comm *cli_mpi_comm(void) { return mpi_comm; }

const char *cli_status_text(pw_status st)
{
    static char text[400];
    const char *detail = pw_error_detail();
    /* out of memory: the detail names the setting that asks for less (an alignment's saved rows) */
    /* (--mpi: every failure of a distributed run names its rank and reason there) */
    if ((st == PW_ERR_CUDA || st == PW_ERR_NO_DEVICE || st == PW_ERR_UNSUPPORTED || st == PW_ERR_ILLEGAL_DEPENDENCE ||
         st == PW_ERR_OUT_OF_MEMORY || st == PW_ERR_INTERNAL || st == PW_ERR_OVERFLOW || st == PW_ERR_INVALID_ARGUMENT ||
         st == PW_ERR_BAD_INPUT || st == PW_ERR_INVALID_SIZE ||
         mpi_comm) &&
        detail[0])
        snprintf(text, sizeof text, "%s (%s)", pw_status_str(st), detail);
    else
        snprintf(text, sizeof text, "%s", pw_status_str(st));
    return text;
}

int cli_status_exit(pw_status st)
{
    switch (st) {
    case PW_ERR_INVALID_ARGUMENT:
    case PW_ERR_INVALID_TILE:
    case PW_ERR_UNSUPPORTED:
        return EXIT_USAGE;
    case PW_ERR_CANCELLED:
        return 130; /* as a shell reports a program ended by Ctrl-C */
    default:
        return EXIT_DATA;
    }
}

pw_options cli_reference_options(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.strategy = PW_STRATEGY_SEQUENTIAL;
    return o;
}

/* --trace under --mpi: each rank draws its own band; rank k > 0 into PATH with ".rankK" before its
 * extension (trace.svg: trace.rank1.svg), rank 0 into PATH itself. */
static const char *rank_trace_path(const char *path, char *out, size_t n)
{
    const int rank = mpi_comm ? pw_comm_rank(mpi_comm) : 0;
    if (rank == 0 || io_is_stdout(path)) return path; /* (a rank's stdout past 0 is /dev/null) */
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path, *dot = strrchr(name, '.');
    const size_t stem = dot && dot > name ? (size_t)(dot - path) : strlen(path); /* (".svg" is a name, no extension) */
    const int len = snprintf(out, n, "%.*s.rank%d%s", (int)stem, path, rank, path + stem);
    return len >= 0 && (size_t)len < n ? out : path; /* (too long to extend: the path as given) */
}

int cli_finish(cli_common *c, cli_report *r, const char *command)
{
    char ranked[4200];
    int code = c->trace_path ? cli_trace_finish(&c->trace, rank_trace_path(c->trace_path, ranked, sizeof ranked), command, r)
                             : 0;
    if (!c->trace_path) { /* the same --tsv columns without --trace */
        static const char *const keys[] = {"trace", "trace_tiles", "trace_workers", "trace_span_ms", "trace_idle_corner_pct",
                                           "trace_idle_intermediate_pct", "trace_wait_pct", "trace_mean_tile_us"};
        for (int k = 0; k < 8; k++) cli_absent(r, 1, keys[k]);
    }
    cli_trace_free(&c->trace);
    if (code == 0) cli_report_print(r, c);
    return code;
}
