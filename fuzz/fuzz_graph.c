/* fuzz_graph.c - libFuzzer target: Matrix Market, DIMACS and edge-list graphs; the first byte
 * picks undirected.  A graph read is searched (pw_bfs, the task engine and the textbook queue must
 * agree), so the CSR the reader claims is exercised, not only its bytes. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "graph_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    FILE *f = fuzz_open(data + 1, size - 1);
    if (!f) return 0;
    graph_file g;
    char err[256];
    /* at most 4096 vertices: a header may declare any size, the fuzzer's memory is limited */
    if (graph_read_stream(f, "fuzz.graph", data[0] & 1, 4096, &g, err, sizeof err) == 0) {
        const int64_t n = g.graph.vertices;
        int32_t *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
        pw_options o;
        pw_options_init(&o);
        o.threads = 2;
        if (a && b && pw_bfs(&g.graph, 0, PW_BFS_TASKS, &o, a, NULL) == PW_OK &&
            pw_bfs(&g.graph, 0, PW_BFS_SEQUENTIAL, &o, b, NULL) == PW_OK && memcmp(a, b, sizeof *a * (size_t)n))
            abort(); /* the engines disagree */
        free(a), free(b);
        graph_file_free(&g);
    } else {
        fuzz_message(err);
    }
    fclose(f);
    return 0;
}
