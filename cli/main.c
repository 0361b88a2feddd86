/* main.c - the peerwave command: subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_sw(int argc, char **argv);

static const char usage[] =
    "usage: peerwave COMMAND [options] ...\n"
    "Wavefront computations with PeerWave peer synchronisation, on the GPU or CPU threads.\n"
    "Commands:\n"
    "  sw A.fa B.fa     Smith-Waterman-Gotoh local alignment score\n"
    "Run 'peerwave COMMAND --help' for a command's options; 'peerwave --version'.\n";

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
        printf("peerwave %s\n", pw_version());
        return 0;
    }
    if (!strcmp(cmd, "sw")) return cmd_sw(argc - 1, argv + 1);
    cli_error("unknown command '%s'", cmd);
    fputs(usage, stderr);
    return EXIT_USAGE;
}
