/* cmd_bfs.c - `peerwave bfs GRAPH --source S`: breadth-first levels on the task engine
 * (peerwave_tasks.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "graph_file.h"
#include "peerwave_tasks.h"

static const char usage[] =
    "usage: peerwave bfs [options] GRAPH [--source S] [-o LEVELS.npy]\n"
    "Breadth-first levels from a source vertex: the fewest edges to each vertex, on the task\n"
    "engine (tasks created as the search goes, any ready task on any free worker: CPU threads, or\n"
    "persistent GPU blocks fed from per-SM queues).\n"
    "GRAPH: Matrix Market coordinate (.mtx, square: entry i j is the edge i -> j; symmetric\n"
    "matrices both ways), DIMACS shortest-path (.gr: 'p sp N M', 'a u v w'), or an edge list\n"
    "('u v' a line, 0-based, '#' comments); told from the first line.  Values and weights (an\n"
    "edge list's further fields) are ignored: levels count edges.  At most 2^28 vertices.\n"
    "  --source S            the start vertex in the file's own numbering (1-based for .mtx and\n"
    "                        DIMACS, 0-based for edge lists; default: the first vertex)\n"
    "  --engine tasks|central|sequential|levels   task engine on distributed queues (default),\n"
    "                        on one central queue, the textbook queue on one thread (CPU), or one\n"
    "                        kernel launch a level (the GPU baseline)\n"
    "  --undirected          every edge also the other way\n"
    "  -o, --output OUT.npy  the levels as int32 .npy, a vertex an entry (0-based), -1: unreached\n"
    "Output: reached, depth, edges, then format, vertices, engine, tasks, steals, threads, seconds\n"
    "and mteps (million edges looked at a second).  --check also runs the textbook search and\n"
    "compares every level.  Only --threads, --check, --quiet, --tsv, --backend and --device of the\n"
    "common options apply; --backend auto runs tasks, central and levels on the GPU where there is\n"
    "one (seconds: kernel time, not the graph's copy; threads: worker blocks).\n"
    CLI_COMMON_HELP;

typedef struct bfs_args {
    const char *output, *source_text;
    int undirected;
    pw_bfs_engine engine;
} bfs_args;

static int bfs_option(void *ctx, int opt, const char *arg)
{
    bfs_args *a = ctx;
    switch (opt) {
    case 'o': a->output = arg; return 0;
    case 's': a->source_text = arg; return 0;
    case 'u': a->undirected = 1; return 0;
    case 'e':
        if (!strcmp(arg, "tasks")) a->engine = PW_BFS_TASKS;
        else if (!strcmp(arg, "central")) a->engine = PW_BFS_TASKS_CENTRAL;
        else if (!strcmp(arg, "sequential")) a->engine = PW_BFS_SEQUENTIAL;
        else if (!strcmp(arg, "levels")) a->engine = PW_BFS_LEVELS;
        else {
            cli_error("--engine: tasks, central, sequential or levels, not '%s'", arg);
            return -1;
        }
        return 0;
    }
    return -1;
}

static const struct option bfs_options[] = {{"output", required_argument, 0, 'o'},
                                            {"source", required_argument, 0, 's'},
                                            {"undirected", no_argument, 0, 'u'},
                                            {"engine", required_argument, 0, 'e'},
                                            {0, 0, 0, 0}};

static const cli_command bfs_command = {"bfs", usage, "o:", bfs_options, bfs_option, 1, 1, "one graph file"};

static const char *engine_name(pw_bfs_engine e)
{
    return e == PW_BFS_TASKS ? "tasks" : e == PW_BFS_TASKS_CENTRAL ? "central" : e == PW_BFS_LEVELS ? "levels" : "sequential";
}

int cmd_bfs(int argc, char **argv)
{
    bfs_args args = {NULL, NULL, 0, PW_BFS_TASKS};
    cli_common common;
    int first, r = cli_parse(&bfs_command, argc, argv, &common, &args, &first);
    if (r) return r > 0 ? 0 : EXIT_USAGE;
    /* the common options a search has no use for (they were taken and ignored; --mpi under mpirun
     * ran the whole search on every rank) */
    static const char *const not_for_bfs[] = {"strategy", "tile-shape", "tile-h", "tile-w", "trace", "max-blocks",
                                              "rows-per-thread", "layout", "train-ratio", "wisdom", "simd", "mpi",
                                              "gpus", "devices", "balance", "nccl", "bands-per-gpu", NULL};
    const char *given = cli_option_given(&common, not_for_bfs);
    if (given) {
        cli_error("bfs: --%s does not apply (of the common options bfs takes --threads, --check, --quiet, --tsv, "
                  "--backend and --device; --engine picks the search)", given);
        return EXIT_USAGE;
    }
    const char *path = argv[first];
    char err[512];
    graph_file gf;
    if (graph_read(path, args.undirected, GRAPH_MAX_VERTICES, &gf, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_DATA;
    }
    const int one_based = strcmp(gf.format, "edge-list") != 0;
    int64_t source = one_based ? 1 : 0;
    if (args.source_text && cli_parse_int("--source", args.source_text, one_based, gf.graph.vertices - 1 + one_based,
                                          &source)) {
        graph_file_free(&gf);
        return EXIT_USAGE;
    }
    source -= one_based;
    int code = 0;
    int32_t *level = malloc(sizeof *level * (size_t)gf.graph.vertices), *ref = NULL;
    pw_bfs_info info, ref_info;
    pw_status st = level ? pw_bfs(&gf.graph, source, args.engine, &common.options, level, &info) : PW_ERR_OUT_OF_MEMORY;
    if (st != PW_OK) {
        cli_error("bfs %s: %s", path, cli_status_text(st));
        code = cli_status_exit(st);
        goto out;
    }
    cli_report rep = {0};
    cli_result(&rep, "reached", "%" PRId64, info.reached);
    cli_result(&rep, "depth", "%" PRId32, info.depth);
    cli_result(&rep, "edges", "%" PRId64, info.edges);
    if (common.check) {
        ref = malloc(sizeof *ref * (size_t)gf.graph.vertices);
        st = ref ? pw_bfs(&gf.graph, source, PW_BFS_SEQUENTIAL, NULL, ref, &ref_info) : PW_ERR_OUT_OF_MEMORY;
        if (st != PW_OK || memcmp(ref, level, sizeof *ref * (size_t)gf.graph.vertices) || ref_info.reached != info.reached) {
            cli_error("check FAILED: the textbook search differs (%s)", pw_status_str(st));
            code = EXIT_DATA;
            goto out;
        }
        cli_result(&rep, "check", "ok");
    } else {
        cli_absent(&rep, 0, "check");
    }
    if (args.output) {
        int64_t shape[1] = {gf.graph.vertices};
        if ((code = cli_write_output(&rep, args.output, PW_I32, 1, shape, level))) goto out;
    } else {
        cli_absent(&rep, 1, "output");
    }
    cli_detail(&rep, "format", "%s", gf.format);
    cli_detail(&rep, "vertices", "%" PRId64, gf.graph.vertices);
    cli_detail(&rep, "graph_edges", "%" PRId64, gf.graph.offsets[gf.graph.vertices]);
    cli_detail(&rep, "engine", "%s", engine_name(args.engine));
    cli_detail(&rep, "tasks", "%" PRId64, info.tasks);
    cli_detail(&rep, "steals", "%" PRId64, info.steals);
    cli_detail(&rep, "threads", "%d", info.threads);
    cli_detail(&rep, "seconds", "%.6f", info.seconds);
    cli_detail(&rep, "mteps", "%.3f", info.seconds > 0 ? (double)info.edges / info.seconds / 1e6 : 0.0);
    code = cli_finish(&common, &rep, "bfs");
out:
    free(level);
    free(ref);
    graph_file_free(&gf);
    return code;
}
