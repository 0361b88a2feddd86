/* cmd_tune.c - `peerwave tune sw|sat ...`: measure run time against tile width, next to the two
 * tile-width models (src/core/model.h) fitted by a short training run on a corner of the input,
 * and say how far the model's pick is from the measured best. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/core/model_train.h"
#include "cli.h"
#include "fasta.h"
#include "image_file.h"
#include "io_util.h"

static const char usage[] =
    "usage: peerwave tune sw (A.fa B.fa | --random N) [options]\n"
    "       peerwave tune sat (IMAGE | --random N) [options]\n"
    "Times the run at a range of tile widths and prints, for each, the measured seconds and the\n"
    "models' predictions (seed paper section 4, the consistent-lag variant, and that variant with\n"
    "the tiling's integer lag, which --tile-w auto uses), and the chunked variant (a tile-row\n"
    "waits 32 steps at a time inside tiles, as the GPU processors do; its own fit).  The models'\n"
    "d (seconds per diagonal step of a tile) and tau_s (one counter hand-off) come from a\n"
    "training run on the top-left corner of the input at widths 1 .. 2h.  The table goes to\n"
    "stdout, to stderr with --tsv or --quiet (stdout then holds only the result lines).\n"
    "  --random N         a random N x N problem instead of files (DNA; u8 image; N >= 8)\n"
    "  --widths LIST      comma-separated widths (default 8, 16, ..., 4096 up to the row length)\n"
    "  --runs K           timed runs per width, median taken (default 3)\n"
    "  --csv FILE         the table as CSV\n"
    "  --svg FILE         measured and predicted time against width (log scale)\n"
    CLI_COMMON_HELP;

#define MAX_WIDTHS 64
#define TUNE_MIN_RANDOM 8 /* the narrowest default width: a random N x N problem has rows of N */

typedef struct tune_args {
    int64_t random_n, runs, widths[MAX_WIDTHS];
    int n_widths;
    const char *csv, *svg;
} tune_args;

static int tune_option(void *ctx, int opt, const char *arg)
{
    tune_args *a = ctx;
    switch (opt) {
    case 'n': /* (smaller problems have rows shorter than the narrowest default width: no row to time) */
        if (cli_parse_int("--random", arg, 1, 1 << 22, &a->random_n)) return -1;
        if (a->random_n < TUNE_MIN_RANDOM) {
            cli_error("--random %s: too small to time; at least %d (the narrowest default tile width)", arg,
                      TUNE_MIN_RANDOM);
            return -1;
        }
        return 0;
    case 'k': return cli_parse_int("--runs", arg, 1, 99, &a->runs);
    case 'c': a->csv = arg; return 0;
    case 's': a->svg = arg; return 0;
    case 'w': return cli_parse_int_list("--widths", arg, 1, INT64_MAX / 8, a->widths, MAX_WIDTHS, &a->n_widths);
    }
    return -1;
}

static const struct option tune_options[] = {
    {"random", required_argument, 0, 'n'},      {"runs", required_argument, 0, 'k'},
    {"csv", required_argument, 0, 'c'},
    {"svg", required_argument, 0, 's'},         {"widths", required_argument, 0, 'w'},
    {0, 0, 0, 0}};

/* The problem being tuned: SW of a and b, or SAT of img (into out). */
typedef struct problem {
    int sat;
    char *a, *b;
    int64_t n, m;
    pw_image img, out;
} problem;

/* One run of the rows x cols top-left corner; kernel seconds and the run's info. */
static pw_status run_once(void *ctx, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info)
{
    const problem *p = ctx;
    if (!p->sat) {
        pw_sw_params params;
        pw_sw_params_init(&params);
        pw_sw_result r;
        pw_status st = pw_sw(p->a, rows, p->b, cols, &params, o, &r);
        *info = r.info;
        return st;
    }
    pw_image in = p->img, out = p->out;
    in.rows = out.rows = rows;
    in.cols = out.cols = cols;
    in.stride = p->img.cols;
    out.stride = p->img.cols;
    return pw_sat(&in, &out, o, info);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median kernel seconds of `runs` runs after one warm-up. */
static pw_status timed(problem *p, int64_t rows, int64_t cols, pw_options o, int64_t w, int64_t runs,
                       double *seconds, pw_run_info *info)
{
    double t[100];
    o.tile_w = w;
    pw_status st = run_once(p, rows, cols, &o, info);
    for (int64_t k = 0; k < runs && st == PW_OK; k++) {
        st = run_once(p, rows, cols, &o, info);
        t[k] = info->seconds;
    }
    if (st != PW_OK) return st;
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    *seconds = t[runs / 2];
    return PW_OK;
}

static pw_model_params model_of(const pw_run_info *info, int64_t rows, int64_t cols, double d, double tau_s)
{
    pw_model_params m = {(double)rows, (double)cols, (double)info->tile_h, (double)info->threads, d, tau_s, 0};
    return m;
}

static int load(const tune_args *args, const char *app, char **argv, int first, int argc, problem *p)
{
    char err[512];
    memset(p, 0, sizeof *p);
    p->sat = !strcmp(app, "sat");
    if (!p->sat && strcmp(app, "sw")) {
        cli_error("tune: unknown application '%s' (sw or sat)", app);
        return EXIT_USAGE;
    }
    int files = argc - first;
    if ((args->random_n && files) || (!args->random_n && files != (p->sat ? 1 : 2))) {
        cli_error("tune %s needs %s or --random N", app, p->sat ? "one image" : "two FASTA files");
        return EXIT_USAGE;
    }
    uint64_t x = 12345;
    if (!p->sat) {
        if (args->random_n) {
            p->n = p->m = args->random_n;
            p->a = io_alloc((uint64_t)p->n, 1, "sequence A", err, sizeof err);
            p->b = p->a ? io_alloc((uint64_t)p->m, 1, "sequence B", err, sizeof err) : NULL;
            if (!p->b) return cli_error("%s", err), EXIT_DATA;
            for (int64_t k = 0; k < p->n; k++) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                p->a[k] = "ACGT"[x >> 62];
                p->b[k] = (x >> 40) % 5 ? p->a[k] : "ACGT"[(x >> 20) & 3];
            }
            return 0;
        }
        fasta_record ra, rb;
        if (fasta_read(argv[first], NULL, &ra, err, sizeof err)) return cli_error("%s", err), EXIT_DATA;
        if (fasta_read(argv[first + 1], NULL, &rb, err, sizeof err)) {
            fasta_free(&ra);
            return cli_error("%s", err), EXIT_DATA;
        }
        free(ra.name), free(rb.name);
        p->a = ra.seq, p->n = ra.length, p->b = rb.seq, p->m = rb.length;
        return 0;
    }
    if (args->random_n) {
        int64_t n = args->random_n;
        p->img = (pw_image){PW_U8, n, n, 0, io_alloc((uint64_t)(n * n), 1, "the image", err, sizeof err)};
        if (!p->img.data) return cli_error("%s", err), EXIT_DATA;
        for (int64_t k = 0; k < n * n; k++) ((uint8_t *)p->img.data)[k] = (uint8_t)((uint64_t)k * 2654435761u >> 24);
    } else if (image_read(argv[first], &p->img, err, sizeof err)) {
        return cli_error("%s", err), EXIT_DATA;
    }
    pw_dtype out = p->img.type == PW_F32 || p->img.type == PW_F64 ? p->img.type : PW_I64;
    p->out = (pw_image){out, p->img.rows, p->img.cols, 0,
                        io_alloc((uint64_t)(p->img.rows * p->img.cols), pw_dtype_size(out), "the table", err, sizeof err)};
    if (!p->out.data) return cli_error("%s", err), EXIT_DATA;
    p->n = p->img.rows, p->m = p->img.cols;
    return 0;
}

static void write_svg(FILE *f, const char *app, int n, const int64_t *w, const double *meas, const double *paper,
                      const double *cons, const double *tiled)
{
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < n; k++) {
        double v[4] = {meas[k], paper[k], cons[k], tiled[k]};
        for (int q = 0; q < 4; q++)
            if (v[q] > 0) lo = fmin(lo, v[q]), hi = fmax(hi, v[q]);
    }
    double x0 = log2((double)w[0]), x1 = log2((double)w[n - 1]);
    if (x1 <= x0) x1 = x0 + 1;
    if (hi <= lo) hi = lo * 2;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"460\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<title>tune %s</title>\n"
               "<text x=\"60\" y=\"24\" font-size=\"14\">%s: time against tile width (measured: black dots; paper model: "
               "blue; consistent-lag model: orange; with the integer lag: green)</text>\n<rect x=\"60\" y=\"40\" width=\"660\" height=\"360\" fill=\"none\" stroke=\"#999\"/>\n",
            app, app);
    const double *series[4] = {meas, paper, cons, tiled};
    const char *colour[4] = {"black", "#1f77b4", "#ff7f0e", "#2ca02c"}, *names[4] = {"measured", "paper", "consistent", "tiled"};
    for (int s = 0; s < 4; s++) {
        fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" points=\"", names[s],
                colour[s], s == 0 ? 1 : 2);
        for (int k = 0; k < n; k++)
            fprintf(f, "%.1f,%.1f ", 60 + (log2((double)w[k]) - x0) / (x1 - x0) * 660,
                    400 - (series[s][k] - lo) / (hi - lo) * 360);
        fprintf(f, "\"/>\n");
    }
    for (int k = 0; k < n; k++) {
        double x = 60 + (log2((double)w[k]) - x0) / (x1 - x0) * 660;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n<text x=\"%.1f\" y=\"416\" text-anchor=\"middle\">%" PRId64 "</text>\n", x,
                400 - (meas[k] - lo) / (hi - lo) * 360, x, w[k]);
    }
    fprintf(f, "<text x=\"4\" y=\"48\">%.3g s</text>\n<text x=\"4\" y=\"400\">%.3g s</text>\n<text x=\"360\" y=\"440\">tile width w</text>\n</svg>\n", hi, lo);
}

int cmd_tune(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) return fputs(usage, stdout), 0;
        cli_error("tune needs an application: sw or sat (see peerwave tune --help)");
        return EXIT_USAGE;
    }
    const char *app = argv[1];
    tune_args args = {0, 3, {0}, 0, NULL, NULL};
    const cli_command command = {"tune", usage, NULL, tune_options, tune_option, 0, 2, "its input files"};
    cli_common common;
    int first, r = cli_parse(&command, argc - 1, argv + 1, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    /* (tune trains and times afresh; it checks nothing, shows no progress, and sets the widths itself:
     * these were taken and ignored) */
    static const char *const not_for_tune[] = {"wisdom", "trace", "check", "progress", "tile-w", NULL};
    const char *given = cli_option_given(&common, not_for_tune);
    if (given) {
        cli_error("tune: --%s does not apply (tune trains and times every width itself; its table goes to --csv "
                  "and --svg)", given);
        return EXIT_USAGE;
    }
    static const char *const one_process[] = {"mpi", "gpus", "devices", "bands-per-gpu", "balance", "nccl", NULL};
    if ((given = cli_option_given(&common, one_process))) { /* (under mpirun each rank tuned alone: n tables) */
        cli_error("tune: --%s does not apply (tune times one process on one device)", given);
        return EXIT_USAGE;
    }
    /* the table on stdout, or on stderr where stdout holds only the result lines (--tsv: a header
     * line and a value line; --quiet) */
    FILE *table = common.tsv || common.quiet ? stderr : stdout;
    problem p;
    int code = load(&args, app, argv + 1, first, argc - 1, &p);
    if (code) goto out;
    pw_options o = common.options;
    pw_status st = PW_OK;
    if (o.tile_h == 0) {
        /* The tile height the library takes for the whole problem at a given width (SW on CUDA:
         * 64, apps/checks.h), fixed for the training corners too: left to themselves they take
         * the library's default CUDA height (model_train.c), and the model would be fitted to
         * other tiles than the runs it predicts.  One run of the whole problem finds it. */
        pw_options whole = o;
        whole.tile_w = 1024;
        pw_run_info probe;
        st = run_once(&p, p.n, p.m, &whole, &probe);
        if (st == PW_OK) o.tile_h = probe.tile_h;
    }

    pw_model_fit fit;
    if (st == PW_OK) st = pw_model_train(run_once, &p, p.n, p.m, 0, common.train_ratio, &o, 3, &fit);
    if (st != PW_OK) {
        cli_error("tune %s: training run: %s", app, cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    const double d = fit.d, tau_s = fit.tau_s;
    /* the chunked kind's own d and tau_s from the same timed runs (the GPU processors' chunk) */
    const double chunk = 32;
    double d_chunked, tau_chunked;
    pw_model_fit_kind(&fit, PW_MODEL_CHUNKED, chunk, &d_chunked, &tau_chunked);
    const int64_t h = fit.h;
    pw_run_info info;

    if (args.n_widths == 0)
        for (int64_t w = TUNE_MIN_RANDOM; w <= 4096 && w <= p.m + h; w *= 2) args.widths[args.n_widths++] = w;
    if (args.n_widths == 0) { /* (files with short rows: an empty table and no best would say nothing) */
        cli_error("tune %s: rows of %" PRId64 " cells are too short for the narrowest default width (%d): give "
                  "--widths, or a larger input", app, p.m, TUNE_MIN_RANDOM);
        code = EXIT_DATA;
        goto out;
    }
    double meas[MAX_WIDTHS], paper[MAX_WIDTHS], cons[MAX_WIDTHS], tiled[MAX_WIDTHS], chunked[MAX_WIDTHS];
    FILE *csv = args.csv ? io_open_text_output(args.csv) : NULL;
    if (args.csv && !csv) {
        cli_error("--csv %s: cannot write (%s)", args.csv, strerror(errno));
        code = EXIT_DATA;
        goto out;
    }
    if (csv) fprintf(csv, "width,measured_s,paper_s,consistent_s,tiled_s,chunked_s\n");
    fprintf(table, "%8s %12s %12s %12s %12s %12s\n", "width", "measured_s", "paper_s", "consistent_s", "tiled_s", "chunked_s");
    double best = INFINITY;
    int64_t best_w = 0;
    pw_model_params full = {0}, full_chunked = {0};
    for (int k = 0; k < args.n_widths; k++) {
        st = timed(&p, p.n, p.m, o, args.widths[k], args.runs, &meas[k], &info);
        if (st != PW_OK) {
            cli_error("tune %s at width %" PRId64 ": %s", app, args.widths[k], cli_status_text(st));
            code = cli_status_exit(st);
            if (csv) io_abandon_text_output(csv); /* (the old table stays, or none) */
            goto out;
        }
        full = model_of(&info, p.n, p.m, d, tau_s);
        paper[k] = pw_model_time(&full, PW_MODEL_PAPER, (double)args.widths[k]);
        cons[k] = pw_model_time(&full, PW_MODEL_CONSISTENT, (double)args.widths[k]);
        tiled[k] = pw_model_time(&full, PW_MODEL_TILED, (double)args.widths[k]);
        full_chunked = model_of(&info, p.n, p.m, d_chunked, tau_chunked);
        full_chunked.chunk = chunk;
        chunked[k] = pw_model_time(&full_chunked, PW_MODEL_CHUNKED, (double)args.widths[k]);
        fprintf(table, "%8" PRId64 " %12.6f %12.6f %12.6f %12.6f %12.6f\n", args.widths[k], meas[k], paper[k], cons[k],
                tiled[k], chunked[k]);
        if (csv)
            fprintf(csv, "%" PRId64 ",%.9g,%.9g,%.9g,%.9g,%.9g\n", args.widths[k], meas[k], paper[k], cons[k], tiled[k],
                    chunked[k]);
        if (meas[k] < best) best = meas[k], best_w = args.widths[k];
    }
    if (csv && io_close_text_output(csv) != 0) { /* (which looks at ferror too) */ /* (a full disk, /dev/full: said, exit 1) */
        cli_error("--csv %s: write failed", args.csv);
        code = EXIT_DATA;
        goto out;
    }
    cli_report rep = {0};
    for (int kind = 0; kind < PW_MODEL_KINDS; kind++) {
        const pw_model_params *m = kind == PW_MODEL_CHUNKED ? &full_chunked : &full;
        int64_t pick = pw_model_best_width(m, (pw_model_kind)kind, p.m + h);
        double t = NAN;
        st = timed(&p, p.n, p.m, o, pick, args.runs, &t, &info);
        const char *name = kind == PW_MODEL_PAPER        ? "paper"
                           : kind == PW_MODEL_CONSISTENT ? "consistent"
                           : kind == PW_MODEL_TILED      ? "tiled"
                                                         : "chunked";
        char key[48];
        snprintf(key, sizeof key, "%s_pick", name);
        cli_result(&rep, key, "%" PRId64, pick);
        snprintf(key, sizeof key, "%s_pick_s", name);
        cli_result(&rep, key, "%.6f", st == PW_OK ? t : NAN);
        snprintf(key, sizeof key, "%s_pick_vs_best_pct", name);
        cli_result(&rep, key, "%.1f", st == PW_OK ? 100 * (t - best) / best : NAN);
    }
    cli_result(&rep, "measured_best_width", "%" PRId64, best_w);
    cli_result(&rep, "measured_best_s", "%.6f", best);
    cli_detail(&rep, "d_s", "%.4g", d);
    cli_detail(&rep, "tau_s_s", "%.4g", tau_s);
    cli_detail(&rep, "training_corner", "%" PRId64 "x%" PRId64, fit.corner_rows, fit.corner_cols);
    cli_detail(&rep, "training_s", "%.6f", fit.seconds);
    cli_detail(&rep, "tile_h", "%" PRId64, h);
    cli_detail(&rep, "workers", "%d", info.threads);
    cli_detail(&rep, "backend", "%s", cli_backend_name(info.backend));
    cli_detail(&rep, "strategy", "%s", cli_strategy_name(info.strategy));
    if (args.svg) {
        FILE *f = io_open_text_output(args.svg);
        if (!f) {
            cli_error("--svg %s: cannot write (%s)", args.svg, strerror(errno));
            code = EXIT_DATA;
            goto out;
        }
        write_svg(f, app, args.n_widths, args.widths, meas, paper, cons, tiled);
        if (io_close_text_output(f) != 0) {
            cli_error("--svg %s: write failed", args.svg);
            code = EXIT_DATA;
            goto out;
        }
        cli_detail(&rep, "svg", "%s", args.svg);
    } else {
        cli_absent(&rep, 1, "svg"); /* (--tsv: the same columns whatever the options) */
    }
    if (args.csv) cli_detail(&rep, "csv", "%s", args.csv);
    else cli_absent(&rep, 1, "csv");
    cli_report_print(&rep, &common);
out:
    free(p.a), free(p.b), free(p.img.data), free(p.out.data);
    return code;
}
