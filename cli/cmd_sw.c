/* cmd_sw.c - `peerwave sw A.fa B.fa`: local alignment score of two FASTA sequences, and with
 * --align the alignment itself (report, view, SAM, picture: cli_align.c, align_plot.c). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io_util.h"
#include "cli_align.h"
#include "cli_autowidth.h"
#include "cli_sw_batch.h"
#include "fasta.h"

static const char usage[] =
    "usage: peerwave sw [options] A.fa B.fa\n"
    "       peerwave sw [options] --query Q.fa --db DB.fa [--top K | --pairs]\n"
    "Smith-Waterman-Gotoh local alignment score of a record of A against a record of B\n"
    "(FASTA or multi-FASTA; the first record of each unless named).\n"
    "Scoring (DNA by default: match 2, mismatch -1, linear gap 1):\n"
    "  --match M --mismatch X      DNA scores (M >= 0, X <= 0); case-insensitive A C G T, U = T;\n"
    "                              N and IUPAC codes (R Y K M S W B D H V) score as mismatches,\n"
    "                              also against themselves; other letters (protein) too, with a\n"
    "                              warning on stderr\n"
    "  --matrix NAME               protein substitution matrix: BLOSUM45 BLOSUM50 BLOSUM62\n"
    "                              BLOSUM80 BLOSUM90 PAM30 PAM70 PAM250 (letters outside\n"
    "                              ARNDCQEGHILKMFPSTWYVBZX* score as X; case-insensitive)\n"
    "  --gap-open O --gap-extend E penalties >= 0: a gap of length L costs O + (L-1)E\n"
    "                              (parasail's convention); O == E is a linear gap\n"
    "  --name-a NAME --name-b NAME the record to take from A / B (the header's first word)\n"
    "  --prune                     GPU: skip the parts of the matrix that can no longer reach\n"
    "                              the best score found so far (exact: the same score and end;\n"
    "                              pruned_cells says how many; the CPU ignores it)\n"
    "Batches (many pairs; TSV of the best hits, a header line first):\n"
    "  --query Q.fa --db DB.fa     every record of Q against every record of DB: each\n"
    "                              query's best --top hits (default 10), best first (score,\n"
    "                              then the earlier record); columns query rank record score\n"
    "                              end_query end_record query_length record_length\n"
    "  --top K                     hits kept a query (1 .. 100000)\n"
    "  --pairs                     record k of Q against record k of DB (equal counts; with --gpus N\n"
    "                              or --devices the pairs split between the GPUs)\n"
    "  --skip-bad                  leave out malformed records (each named on stderr)\n"
    "                              instead of refusing the file\n"
    "  --schedule one|hdss|static  one: --backend alone (default); hdss: the GPU and the CPU\n"
    "                              cores together, blocks of records sized by their measured\n"
    "                              rates (HDSS); static: fixed shares from --weights G,C\n"
    "                              A search takes the scoring options and, of the common\n"
    "                              ones, --backend --device --threads --simd --gpus --devices\n"
    "                              --quiet --progress --tsv; the others (and --name-a/--name-b,\n"
    "                              --align, --prune) are for one pair and refused\n"
    "Input: '-' gap characters and white space are ignored; digits and other symbols (a '>'\n"
    "inside a line too) are errors.  Files may be gzip-compressed (A.fa.gz, bgzip's too).\n"
    "Output (key: value, or --tsv): score, end_a, end_b: 1-based positions of the last aligned\n"
    "letters in A and B (0 when the score is 0); ties go to the smallest end_a, then end_b;\n"
    "then names, lengths, run details and gcups (billions of cells per second).\n"
    "Alignment (linear space: the score pass, then passes over the aligned region):\n"
    "  --align                     also the optimal alignment: start_a, start_b (1-based\n"
    "                              first aligned letters), columns, matches, mismatches,\n"
    "                              gap_columns, gaps, identity (matches / columns), a line\n"
    "                              cigar: (=, X, I: a letter of A only, D: of B only) and the\n"
    "                              three-line view (alignments of up to 10000 columns; not\n"
    "                              with --quiet or --tsv, which also leaves out the cigar)\n"
    "  --view FILE                 write the three-line view to FILE (any length)\n"
    "  --format sam                print SAM instead of the report (A is the read, B the\n"
    "                              reference; letters of A outside the alignment soft-clipped)\n"
    "  --plot FILE.svg             draw the alignment over a dot plot of the two sequences\n"
    "Ties: the end with the smallest end_a, then end_b; the start nearest to it; between them\n"
    "the alignment that crosses the middle row of each split at the smallest column (the\n"
    "manual's section on alignments).  Needs --gap-open >= --gap-extend, and (n + m + 2) x\n"
    "(the largest |score| or gap-open + gap-extend, + 1) below 2^29 (the costs' 32 bits).\n"
    CLI_COMMON_HELP;

typedef struct sw_args {
    pw_sw_params params;
    const char *name_a, *name_b;
    int align, sam, prune;
    int dna_scores_given; /* --match or --mismatch: refused with --matrix */
    const char *view_path, *plot_path;
    cli_sw_batch_args batch;
} sw_args;

#define VIEW_MAX_COLUMNS 10000 /* a longer view goes to --view FILE only */

static int sw_option(void *ctx, int opt, const char *arg)
{
    sw_args *a = ctx;
    int64_t v;
    switch (opt) {
    case 'm':
        if (cli_parse_int("--match", arg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return -1;
        a->params.match = (int)v;
        a->dna_scores_given = 1;
        return 0;
    case 'x':
        if (cli_parse_int("--mismatch", arg, -PW_MAX_SCORE_MAGNITUDE, 0, &v)) return -1;
        a->params.mismatch = (int)v;
        a->dna_scores_given = 1;
        return 0;
    case 'M':
        a->params.matrix = pw_matrix_by_name(arg);
        if (!a->params.matrix) {
            cli_error("--matrix: unknown matrix '%s' (BLOSUM45 BLOSUM50 BLOSUM62 BLOSUM80 BLOSUM90 PAM30 PAM70 PAM250)", arg);
            return -1;
        }
        a->params.scoring = PW_SCORING_MATRIX;
        return 0;
    case 'o':
        if (cli_parse_int("--gap-open", arg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return -1;
        a->params.gap_open = (int)v;
        return 0;
    case 'e':
        if (cli_parse_int("--gap-extend", arg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return -1;
        a->params.gap_extend = (int)v;
        return 0;
    case 'A': a->name_a = arg; return 0;
    case 'B': a->name_b = arg; return 0;
    case 'L': a->align = 1; return 0;
    case 'R': a->prune = 1; return 0;
    case 'q': a->batch.query_path = arg; return 0;
    case 'd': a->batch.db_path = arg; return 0;
    case 'p': a->batch.pairs = 1; return 0;
    case 'k': a->batch.skip_bad = 1; return 0;
    case 'S':
        if (!strcmp(arg, "one")) a->batch.schedule.schedule = PW_BATCH_ONE;
        else if (!strcmp(arg, "hdss")) a->batch.schedule.schedule = PW_BATCH_HDSS;
        else if (!strcmp(arg, "static")) a->batch.schedule.schedule = PW_BATCH_STATIC;
        else {
            cli_error("--schedule: unknown value '%s' (one, hdss or static)", arg);
            return -1;
        }
        return 0;
    case 'W': {
        char *end;
        a->batch.schedule.gpu_weight = strtod(arg, &end);
        if (*end == ',') a->batch.schedule.cpu_weight = strtod(end + 1, &end);
        if (*end || !(a->batch.schedule.gpu_weight > 0) || !(a->batch.schedule.cpu_weight > 0)) {
            cli_error("--weights: two positive numbers G,C expected, got '%s'", arg);
            return -1;
        }
        return 0;
    }
    case 't':
        if (cli_parse_int("--top", arg, 1, 100000, &v)) return -1;
        a->batch.top = (int)v;
        return 0;
    case 'V': a->view_path = arg, a->align = 1; return 0;
    case 'P': a->plot_path = arg, a->align = 1; return 0;
    case 'F':
        if (strcmp(arg, "sam") == 0) a->sam = a->align = 1;
        else if (strcmp(arg, "report") == 0) a->sam = 0; /* (the last --format counts) */
        else {
            cli_error("--format: unknown value '%s' (report or sam)", arg);
            return -1;
        }
        return 0;
    }
    return -1;
}

static const struct option sw_options[] = {
    {"match", required_argument, 0, 'm'},      {"mismatch", required_argument, 0, 'x'},
    {"matrix", required_argument, 0, 'M'},     {"gap-open", required_argument, 0, 'o'},
    {"gap-extend", required_argument, 0, 'e'}, {"name-a", required_argument, 0, 'A'},
    {"name-b", required_argument, 0, 'B'},     {"align", no_argument, 0, 'L'},
    {"view", required_argument, 0, 'V'},       {"plot", required_argument, 0, 'P'},
    {"format", required_argument, 0, 'F'},     {"prune", no_argument, 0, 'R'},
    {"query", required_argument, 0, 'q'},      {"db", required_argument, 0, 'd'},
    {"top", required_argument, 0, 't'},        {"pairs", no_argument, 0, 'p'},
    {"skip-bad", no_argument, 0, 'k'},         {"schedule", required_argument, 0, 'S'},
    {"weights", required_argument, 0, 'W'},    {0, 0, 0, 0}};

static const cli_command sw_command = {"sw", usage, NULL, sw_options, sw_option, 0, 2,
                                      "two FASTA files (or --query and --db)"};

typedef struct sw_job {
    const fasta_record *a, *b;
    const pw_sw_params *params;
    pw_options options;
    pw_sw_result result;
    int align;
    pw_alignment alignment;
} sw_job;

static pw_status run_sw(void *p)
{
    sw_job *j = p; /* tile_w 0: the library's width rule (--tile-w auto|model) */
    if (!j->align)
        return pw_sw(j->a->seq, j->a->length, j->b->seq, j->b->length, j->params, &j->options, &j->result);
    pw_status st = pw_sw_align(j->a->seq, j->a->length, j->b->seq, j->b->length, j->params, &j->options,
                               &j->alignment);
    if (st != PW_OK) return st;
    j->result.score = j->alignment.score;
    j->result.end_a = j->alignment.end_a;
    j->result.end_b = j->alignment.end_b;
    j->result.info = j->alignment.info;
    return PW_OK;
}

/* The command line, for SAM's @PG line. */
static void command_line(int argc, char **argv, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int k = 0; k < argc && at + 1 < len; k++) {
        int w = snprintf(out + at, len - at, "%s%s", k ? " " : "", argv[k]);
        if (w < 0) break;
        at += (size_t)w;
    }
    /* a header line is one line of tab-separated fields: a tab or newline inside an argument (a
     * file's name) would end CL: there and break the SAM; such bytes become spaces (samtools
     * refused the file) */
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = ' ';
}

/* What --align adds after the score pass: SAM, or the report's lines, the view, the picture. */
static int finish_alignment(const sw_args *args, sw_job *job, cli_report *rep,
                            int argc, char **argv)
{
    const pw_alignment *al = &job->alignment;
    if (args->view_path) {
        FILE *f = io_open_text_output(args->view_path);
        if (!f) {
            cli_error("--view %s: cannot create the file (%s)", args->view_path, strerror(errno));
            return EXIT_DATA;
        }
        const int written = cli_print_view(f, al, job->a, job->b, job->params) == 0;
        if (!written) io_abandon_text_output(f); /* (the old file stays, or none) */
        if (!written || io_close_text_output(f) != 0) {
            cli_error("--view %s: cannot write the file", args->view_path);
            return EXIT_DATA;
        }
        cli_detail(rep, "view", "%s", args->view_path);
    } else {
        cli_absent(rep, 1, "view");
    }
    if (args->plot_path) {
        int code = cli_plot_alignment(args->plot_path, al, job->a, job->b);
        if (code) return code;
        cli_detail(rep, "plot", "%s", args->plot_path);
    } else {
        cli_absent(rep, 1, "plot");
    }
    if (args->sam) {
        char cl[1024];
        command_line(argc, argv, cl, sizeof cl);
        if (cli_write_sam(stdout, al, job->a, job->b, cl) || fflush(stdout)) {
            cli_error("writing SAM failed");
            return EXIT_DATA;
        }
        return 0;
    }
    cli_report_alignment(rep, al);
    return 0;
}

int cli_sw_warn_protein(const pw_sw_params *params, const char *path, const char *record, const char *seq, int64_t n,
                        int64_t most)
{
    if (params->scoring == PW_SCORING_MATRIX) return 0;
    static const char nucleotide[] = "ACGTUNRYKMSWBDHV"; /* (with N, the IUPAC codes) */
    for (int64_t k = 0; k < n && k < most; k++) {
        const int c = toupper((unsigned char)seq[k]);
        if (c == '*' || !strchr(nucleotide, c)) {
            cli_warn("%s%s%s: letter '%c' at %" PRId64 " is no nucleotide code: protein? It is scored as DNA "
                      "(a mismatch to everything); protein needs --matrix (e.g. BLOSUM62)",
                      path, record ? ", record " : "", record ? record : "", seq[k], k + 1);
            return 1;
        }
    }
    return 0;
}

int cmd_sw(int argc, char **argv)
{
    sw_args args = {.name_a = NULL};
    pw_sw_params_init(&args.params);
    cli_common common;
    int first, r = cli_parse(&sw_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    if (args.dna_scores_given && args.params.scoring == PW_SCORING_MATRIX) {
        cli_error("--match and --mismatch score DNA; --matrix takes every score from its table (one or the other)");
        return EXIT_USAGE;
    }
    if (args.batch.query_path || args.batch.db_path) {
        if (!args.batch.query_path || !args.batch.db_path || first != argc) {
            cli_error("sw: --query and --db go together, without positional files (--help)");
            return EXIT_USAGE;
        }
        /* Options of the one-pair run that a search never looks at (it runs each pair on one CPU
         * thread or GPU warp with fixed settings: src/batch/pair_options.h): refused, not ignored. */
        static const char *const one_pair[] = {"name-a", "name-b", "align", "view", "plot", "format", "prune",
                                               "check", "trace", "strategy", "tile-shape", "tile-h", "tile-w",
                                               "train-ratio", "wisdom", "layout", "rows-per-thread", "max-blocks",
                                               "watchdog-ms", "mpi", "balance", "nccl", "bands-per-gpu", NULL};
        const char *o = cli_option_given(&common, one_pair);
        if (o) {
            cli_error("sw: --%s does not apply to --query/--db searches (it is for one pair: sw A.fa B.fa)", o);
            return EXIT_USAGE;
        }
        if (args.batch.pairs && args.batch.skip_bad) {
            cli_error("sw: --skip-bad would pair the wrong records with --pairs");
            return EXIT_USAGE;
        }
        if (args.batch.schedule.schedule == PW_BATCH_STATIC && !(args.batch.schedule.gpu_weight > 0)) {
            cli_error("sw: --schedule static needs --weights G,C (e.g. the rates a --schedule hdss run reported)");
            return EXIT_USAGE;
        }
        if (args.batch.schedule.schedule != PW_BATCH_STATIC && args.batch.schedule.gpu_weight > 0) {
            cli_error("sw: --weights G,C goes with --schedule static (the other schedules measure the split)");
            return EXIT_USAGE;
        }
        if (args.batch.pairs && args.batch.top) {
            cli_error("sw: --pairs reports one hit a pair: no --top");
            return EXIT_USAGE;
        }
        if (args.batch.pairs && args.batch.schedule.schedule != PW_BATCH_ONE) {
            cli_error("sw --pairs runs on one backend (several GPUs: --gpus N splits the pairs between them), not "
                      "--schedule %s", args.batch.schedule.schedule == PW_BATCH_HDSS ? "hdss" : "static");
            return EXIT_USAGE;
        }
        if (common.n_devices > 1 && !args.batch.pairs && args.batch.schedule.schedule == PW_BATCH_ONE) {
            cli_error("sw --db over several GPUs: with --schedule hdss or static (every GPU and the CPU pull blocks of "
                      "records from one queue), not --schedule one (--pairs splits the pairs between the GPUs)");
            return EXIT_USAGE;
        }
        if (common.n_devices == 1) common.options.device = common.devices[0];
        args.batch.schedule.devices = common.n_devices > 1 ? common.devices : NULL;
        args.batch.schedule.n_devices = common.n_devices > 1 ? common.n_devices : 0;
        args.batch.params = &args.params;
        if (!args.batch.top) args.batch.top = 10;
        return cmd_sw_batch(&args.batch, &common);
    }
    static const char *const search_only[] = {"top", "pairs", "skip-bad", "schedule", "weights", NULL};
    const char *search_option = cli_option_given(&common, search_only);
    if (search_option) { /* (the other way round: a one-pair run would ignore them) */
        cli_error("sw: --%s is for --query/--db searches, not one pair (--help)", search_option);
        return EXIT_USAGE;
    }
    if (argc - first != 2) {
        cli_error("sw: two FASTA files, or --query Q.fa --db DB.fa (--help)");
        return EXIT_USAGE;
    }
    if (args.sam && common.tsv) { /* (SAM was printed and --tsv dropped, silently) */
        cli_error("sw: --format sam and --tsv are two output formats: give one");
        return EXIT_USAGE;
    }
    const char *path_a = argv[first], *path_b = argv[first + 1];
    char err[512];
    fasta_record a = {0}, b = {0};
    int read = fasta_read(path_a, args.name_a, &a, err, sizeof err) == 0;
    if (read && fasta_read(path_b, args.name_b, &b, err, sizeof err)) read = 0, fasta_free(&a);
    if (!read) cli_error("%s", err);
    if (!cli_mpi_agree(read)) {
        if (read) fasta_free(&a), fasta_free(&b);
        return EXIT_DATA;
    }
    if (!cli_sw_warn_protein(&args.params, path_a, NULL, a.seq, a.length, a.length))
        cli_sw_warn_protein(&args.params, path_b, NULL, b.seq, b.length, b.length);
    sw_job job = {&a, &b, &args.params, common.options};
    job.options.sw_prune = args.prune;
    job.align = args.align;
    pw_job run; /* the score alone is a library job (and a queue job in `peerwave batch`) */
    pw_job_init(&run, PW_JOB_SW);
    run.u.sw.a = a.seq, run.u.sw.n = a.length, run.u.sw.b = b.seq, run.u.sw.m = b.length;
    run.u.sw.params = args.params, run.u.sw.result = &job.result, run.options = job.options;
    pw_status st = job.align ? cli_run_job(&common, "sw --align", run_sw, &job) : cli_run_pw_job(&common, "sw", &run);
    int code = 0;
    if (st != PW_OK) {
        cli_error("sw %s vs %s: %s", path_a, path_b, cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    const pw_sw_result *res = &job.result;
    cli_report rep = {0};
    cli_result(&rep, "score", "%" PRId32, res->score);
    cli_result(&rep, "end_a", "%" PRId64, res->end_a + 1);
    cli_result(&rep, "end_b", "%" PRId64, res->end_b + 1);
    if (common.check) {
        sw_job ref = {&a, &b, &args.params, cli_reference_options()};
        st = run_sw(&ref);
        if (st != PW_OK || ref.result.score != res->score || ref.result.end_a != res->end_a ||
            ref.result.end_b != res->end_b) {
            cli_error("check FAILED: the sequential reference gives score %" PRId32 " at %" PRId64 ", %" PRId64 " (%s)",
                      ref.result.score, ref.result.end_a + 1, ref.result.end_b + 1, pw_status_str(st));
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    cli_detail(&rep, "name_a", "%s", a.name);
    cli_detail(&rep, "name_b", "%s", b.name);
    cli_detail(&rep, "length_a", "%" PRId64, a.length);
    cli_detail(&rep, "length_b", "%" PRId64, b.length);
    cli_detail_info(&rep, &res->info);
    cli_detail_autowidth(&rep, &job.result.info);
    if (args.prune) cli_detail(&rep, "pruned_cells", "%" PRId64, res->info.pruned_cells);
    else cli_absent(&rep, 1, "pruned_cells");
    if (res->info.lane_bits) cli_detail(&rep, "lane_bits", "%d", res->info.lane_bits);
    else cli_absent(&rep, 1, "lane_bits");
    cli_detail(&rep, "transposed", "%s", res->info.transposed ? "yes" : "no");
    cli_detail(&rep, "gcups", "%.3f", res->info.seconds > 0 ? (double)res->info.cells / res->info.seconds / 1e9 : 0.0);
    if (args.align) {
        code = finish_alignment(&args, &job, &rep, argc, argv);
        if (code || args.sam) goto out;
    } else { /* the same --tsv columns as with --align, each "-" */
        cli_absent(&rep, 1, "view");
        cli_absent(&rep, 1, "plot");
        cli_report_alignment(&rep, NULL);
    }
    code = cli_finish(&common, &rep, "sw");
    if (code == 0 && args.align && !common.tsv) {
        printf("cigar: %s\n", job.alignment.cigar);
        if (!common.quiet && job.alignment.columns > 0 && job.alignment.columns <= VIEW_MAX_COLUMNS) {
            printf("\n");
            cli_print_view(stdout, &job.alignment, &a, &b, &args.params);
        }
    }
out:
    pw_alignment_free(&job.alignment);
    fasta_free(&a);
    fasta_free(&b);
    return code;
}
