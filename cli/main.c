/* main.c - the peerwave command: subcommand dispatch. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
} commands[] = {{"sw", cmd_sw},   {"dtw", cmd_dtw},   {"sat", cmd_sat},
                {"inthist", cmd_inthist}, {"heat", cmd_heat}, {"sor", cmd_sor},
                {"tune", cmd_tune}, {"run", cmd_run}, {"batch", cmd_batch},
                {"bfs", cmd_bfs}};

static const char usage[] =
    "usage: peerwave COMMAND [options] ...\n"
    "Wavefront computations with PeerWave peer synchronisation, on the GPU or CPU threads.\n"
    "Commands:\n"
    "  sw A.fa B.fa             Smith-Waterman-Gotoh local alignment score (DNA or protein)\n"
    "  dtw A B                  dynamic time warping distance of two series (text, CSV, .npy)\n"
    "  sat IMAGE -o OUT.npy     summed-area table of a PGM, PNG or .npy image\n"
    "  inthist IMAGE --bins B -o OUT.npy   integral histogram\n"
    "  heat --size RxC --sweeps T -o OUT.npy   Gauss-Seidel heat sweeps\n"
    "  sor --size RxC --omega W -o OUT.npy     successive over-relaxation sweeps\n"
    "  tune sw|sat ...          tile-width sweep: measured time next to the width models\n"
    "  run CELL.c ...           your own recurrence (docs/EXTENDING.md), on the GPU or CPU\n"
    "  batch JOBS.tsv           a file of sw/dtw/sat/inthist/heat/sor/run command lines as one job\n"
    "                           queue (GPU copies overlapped with other jobs' kernels)\n"
    "  bfs GRAPH --source S     breadth-first levels (.mtx, DIMACS, edge list) on the task engine\n"
    "Run 'peerwave COMMAND --help' for a command's options; 'peerwave --version'.\n"
    "Exit status: 0 success, 1 bad data or a failed run, 2 bad usage.\n";

/* The command's exit status, or EXIT_DATA when its report could not be written to stdout (a full
 * disk, a closed pipe: `peerwave sw a.fa b.fa > /dev/full` exited 0 without a score). */
static int with_stdout_written(int code)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return code;
    /* (a command that failed has said why: `-o - > /dev/full` named its write, then this line
     * blamed the report, which had gone to stderr) */
    if (code == 0) cli_error("writing the results to stdout failed (%s)", errno ? strerror(errno) : "an I/O error");
    return code ? code : EXIT_DATA;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("peerwave %s\nbuild: %s\n", pw_version(), pw_build_info());
        return 0;
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(cmd, commands[k].name)) return with_stdout_written(commands[k].run(argc - 1, argv + 1));
    cli_error("unknown command '%s' (see peerwave --help)", cmd);
    return EXIT_USAGE;
}
