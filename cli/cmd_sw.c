/* cmd_sw.c - `peerwave sw A.fa B.fa`: local alignment score of two FASTA sequences. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "fasta.h"

static const char usage[] =
    "usage: peerwave sw [options] A.fa B.fa\n"
    "Smith-Waterman-Gotoh local alignment score of the first record of A against the first of B.\n"
    "Scoring (DNA by default: match 2, mismatch -1, linear gap 1):\n"
    "  --match M --mismatch X      DNA scores (M >= 0, X <= 0); letters other than ACGTU mismatch\n"
    "  --matrix NAME               substitution matrix instead (BLOSUM62)\n"
    "  --gap-open O --gap-extend E penalties >= 0: a gap of length L costs O + (L-1)E;\n"
    "                              O == E is a linear gap\n"
    "Output: key: value lines; end_a and end_b are 1-based positions of the alignment end\n"
    "(0 when the score is 0); ties go to the smallest end_a, then the smallest end_b.\n"
    "Common options:\n" CLI_COMMON_HELP;

int cmd_sw(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"match", required_argument, 0, 'm'},  {"mismatch", required_argument, 0, 'x'},
        {"matrix", required_argument, 0, 'M'}, {"gap-open", required_argument, 0, 'o'},
        {"gap-extend", required_argument, 0, 'e'}, {"help", no_argument, 0, 'h'},
        CLI_COMMON_LONG_OPTIONS, {0, 0, 0, 0}};
    cli_common common;
    cli_common_init(&common);
    pw_sw_params params;
    pw_sw_params_init(&params);
    int64_t v;
    int opt, r;
    optind = 1;
    opterr = 0; /* our own one-line messages */
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'm':
            if (cli_parse_int("--match", optarg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return EXIT_USAGE;
            params.match = (int)v;
            break;
        case 'x':
            if (cli_parse_int("--mismatch", optarg, -PW_MAX_SCORE_MAGNITUDE, 0, &v)) return EXIT_USAGE;
            params.mismatch = (int)v;
            break;
        case 'M':
            params.matrix = pw_matrix_by_name(optarg);
            if (!params.matrix) {
                cli_error("--matrix: unknown matrix '%s' (known: BLOSUM62)", optarg);
                return EXIT_USAGE;
            }
            params.scoring = PW_SCORING_MATRIX;
            break;
        case 'o':
            if (cli_parse_int("--gap-open", optarg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return EXIT_USAGE;
            params.gap_open = (int)v;
            break;
        case 'e':
            if (cli_parse_int("--gap-extend", optarg, 0, PW_MAX_SCORE_MAGNITUDE, &v)) return EXIT_USAGE;
            params.gap_extend = (int)v;
            break;
        case 'h': fputs(usage, stdout); return 0;
        case ':': cli_error("sw: option '%s' needs a value", argv[optind - 1]); return EXIT_USAGE;
        case '?': cli_error("sw: unknown option '%s' (see peerwave sw --help)", argv[optind - 1]); return EXIT_USAGE;
        default:
            r = cli_common_option(&common, opt, optarg);
            if (r == 1) break;
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 2) {
        cli_error("sw needs two FASTA files");
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    char err[512];
    fasta_record a, b;
    if (fasta_read(argv[optind], NULL, &a, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_DATA;
    }
    if (fasta_read(argv[optind + 1], NULL, &b, err, sizeof err)) {
        cli_error("%s", err);
        fasta_free(&a);
        return EXIT_DATA;
    }
    pw_sw_result res;
    pw_status st = pw_sw(a.seq, a.length, b.seq, b.length, &params, &common.options, &res);
    if (st != PW_OK) {
        cli_error("sw %s vs %s: %s", argv[optind], argv[optind + 1], pw_status_str(st));
        fasta_free(&a);
        fasta_free(&b);
        return st == PW_ERR_INVALID_ARGUMENT || st == PW_ERR_UNSUPPORTED ? EXIT_USAGE : EXIT_DATA;
    }
    printf("score: %" PRId32 "\n", res.score);
    printf("end_a: %" PRId64 "\n", res.end_a + 1);
    printf("end_b: %" PRId64 "\n", res.end_b + 1);
    if (!common.quiet) {
        printf("name_a: %s\n", a.name);
        printf("name_b: %s\n", b.name);
        printf("length_a: %" PRId64 "\n", a.length);
        printf("length_b: %" PRId64 "\n", b.length);
        cli_print_info(&res.info);
        printf("gcups: %.3f\n", res.info.seconds > 0 ? res.info.cells / res.info.seconds / 1e9 : 0.0);
    }
    fasta_free(&a);
    fasta_free(&b);
    return 0;
}
