/* cli.h - shared pieces of the peerwave command: exit codes, errors, common options. */
#ifndef PW_CLI_H
#define PW_CLI_H

#include <stdint.h>
#include "peerwave.h"

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* Print "peerwave: <message>" to stderr (printf-style). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a whole decimal integer in [lo, hi]; 0 on success, -1 (with a message) otherwise. */
int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out);

/* The options every subcommand shares.  cli_common_option() handles one getopt_long result;
 * returns 1 if it was a common option, 0 if not, -1 on a bad value (message printed). */
typedef struct cli_common {
    pw_options options;
    int quiet;
} cli_common;

#define CLI_COMMON_LONG_OPTIONS                                  \
    {"backend", required_argument, 0, 1001},                     \
    {"strategy", required_argument, 0, 1002},                    \
    {"tile-shape", required_argument, 0, 1003},                  \
    {"tile-h", required_argument, 0, 1004},                      \
    {"tile-w", required_argument, 0, 1005},                      \
    {"threads", required_argument, 0, 1006},                     \
    {"device", required_argument, 0, 1007},                      \
    {"quiet", no_argument, 0, 1008}

#define CLI_COMMON_HELP                                                                    \
    "  --backend auto|cpu|cuda     where to run (default auto: CUDA if available)\n"      \
    "  --strategy peer|sequential|barrier|launch   schedule (default peer)\n"            \
    "  --tile-shape hyper|square   tile shape (default hyper)\n"                          \
    "  --tile-h N                  rows per tile (default automatic)\n"                   \
    "  --tile-w N                  tile width in steps (default automatic)\n"             \
    "  --threads N                 CPU threads (default: all cores)\n"                    \
    "  --device N                  CUDA device index (default 0)\n"                       \
    "  --quiet                     print only the result lines\n"

void cli_common_init(cli_common *c);
int cli_common_option(cli_common *c, int opt, const char *arg);

const char *cli_backend_name(pw_backend b);
const char *cli_strategy_name(pw_strategy s);

/* Print the run_info lines (backend, strategy, tiles, threads, cells, seconds). */
void cli_print_info(const pw_run_info *info);

#endif
