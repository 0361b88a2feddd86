/* cli_util.c - error printing, number parsing and the common options. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("peerwave: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < lo || v > hi) {
        cli_error("%s: '%s' is not an integer in %" PRId64 "..%" PRId64, opt, text, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

void cli_common_init(cli_common *c)
{
    pw_options_init(&c->options);
    c->quiet = 0;
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
static const char *const strategy_names[] = {"peer", "sequential", "barrier", "launch"};
static const char *const shape_names[] = {"hyper", "square"};

const char *cli_backend_name(pw_backend b) { return (unsigned)b < 3 ? backend_names[b] : "?"; }
const char *cli_strategy_name(pw_strategy s) { return (unsigned)s < 4 ? strategy_names[s] : "?"; }

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    pw_options *o = &c->options;
    int k;
    int64_t v;
    switch (opt) {
    case 1001:
        if (pick("--backend", arg, backend_names, 3, &k)) return -1;
        o->backend = (pw_backend)k;
        return 1;
    case 1002:
        if (pick("--strategy", arg, strategy_names, 4, &k)) return -1;
        o->strategy = (pw_strategy)k;
        return 1;
    case 1003:
        if (pick("--tile-shape", arg, shape_names, 2, &k)) return -1;
        o->shape = (pw_tile_shape)k;
        return 1;
    case 1004:
        if (cli_parse_int("--tile-h", arg, 1, PW_MAX_TILE_H, &v)) return -1;
        o->tile_h = (int)v;
        return 1;
    case 1005:
        if (cli_parse_int("--tile-w", arg, 1, INT64_MAX / 8, &v)) return -1;
        o->tile_w = v;
        return 1;
    case 1006:
        if (cli_parse_int("--threads", arg, 1, PW_MAX_THREADS, &v)) return -1;
        o->threads = (int)v;
        return 1;
    case 1007:
        if (cli_parse_int("--device", arg, 0, 1024, &v)) return -1;
        o->device = (int)v;
        return 1;
    case 1008:
        c->quiet = 1;
        return 1;
    }
    return 0;
}

void cli_print_info(const pw_run_info *info)
{
    printf("backend: %s\n", cli_backend_name(info->backend));
    printf("strategy: %s\n", cli_strategy_name(info->strategy));
    printf("tile_shape: %s\n", info->shape == PW_TILE_SQUARE ? "square" : "hyper");
    printf("tile_h: %d\n", info->tile_h);
    printf("tile_w: %" PRId64 "\n", info->tile_w);
    printf("threads: %d\n", info->threads);
    printf("cells: %" PRId64 "\n", info->cells);
    printf("seconds: %.6f\n", info->seconds);
}
