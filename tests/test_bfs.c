/*
 * test_bfs.c - breadth-first search (peerwave_tasks.h) and the graph readers (formats/graph_file.h).
 *
 * Levels of every engine (task engine on distributed and central queues, 1..8 threads; the
 * textbook queue) equal a queue written here, on random graphs: sparse and dense random digraphs,
 * grids (long diameters), stars, chains, graphs in pieces, self-loops and repeated edges; the info
 * (reached, depth, edges looked at) derived independently.  Bad graphs and sources are refused
 * before any work; the cancel flag stops a run.  The readers: each format read back as the edges
 * written, and every kind of malformed file named with its line.
 *
 * --gpu: the same searches on the CUDA backend (task engine on per-SM queues and on one queue,
 * and one launch a level), plus larger graphs whose levels outgrow a block (spawned tasks) and
 * long grids (thousands of levels); exit 77 where there is no GPU.
 */
#include <string.h>

#include "graph_file.h"
#include "peerwave_tasks.h"
#include "test_util.h"

static int on_gpu;

typedef struct edges {
    int64_t n, m;
    int64_t *from, *to;
} edges;

static void add(edges *e, int64_t u, int64_t v)
{
    e->from = realloc(e->from, sizeof(int64_t) * (size_t)(e->m + 1));
    e->to = realloc(e->to, sizeof(int64_t) * (size_t)(e->m + 1));
    e->from[e->m] = u, e->to[e->m] = v, e->m++;
}

/* CSR of the edges (each vertex's edges in the order given). */
static pw_graph csr(const edges *e)
{
    int64_t *off = calloc((size_t)e->n + 1, sizeof *off), *tg = malloc(sizeof *tg * (size_t)(e->m + 1));
    for (int64_t k = 0; k < e->m; k++) off[e->from[k] + 1]++;
    for (int64_t v = 0; v < e->n; v++) off[v + 1] += off[v];
    int64_t *fill = malloc(sizeof *fill * (size_t)e->n);
    memcpy(fill, off, sizeof *fill * (size_t)e->n);
    for (int64_t k = 0; k < e->m; k++) tg[fill[e->from[k]]++] = e->to[k];
    free(fill);
    return (pw_graph){e->n, off, tg};
}

static void random_graph(edges *e, int shape)
{
    memset(e, 0, sizeof *e);
    switch (shape) {
    case 0: { /* sparse random digraph */
        e->n = test_range(1, 3000);
        const int64_t m = test_range(0, 3 * e->n);
        for (int64_t k = 0; k < m; k++) add(e, test_range(0, e->n - 1), test_range(0, e->n - 1));
        break;
    }
    case 1: { /* dense */
        e->n = test_range(1, 200);
        for (int64_t u = 0; u < e->n; u++)
            for (int64_t v = 0; v < e->n; v++)
                if (test_rand() % 4 == 0) add(e, u, v);
        break;
    }
    case 2: { /* a grid, both ways: diameter rows + cols */
        const int64_t r = test_range(1, 80), c = test_range(1, 80);
        e->n = r * c;
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++) {
                if (i + 1 < r) add(e, i * c + j, (i + 1) * c + j), add(e, (i + 1) * c + j, i * c + j);
                if (j + 1 < c) add(e, i * c + j, i * c + j + 1), add(e, i * c + j + 1, i * c + j);
            }
        break;
    }
    case 3: /* a star out of 0, and self-loops, repeated edges */
        e->n = test_range(1, 5000);
        for (int64_t v = 1; v < e->n; v++) add(e, 0, v), add(e, v, v);
        if (e->n > 1) add(e, 0, 1);
        break;
    case 4: /* a chain (depth n - 1) */
        e->n = test_range(1, 4000);
        for (int64_t v = 0; v + 1 < e->n; v++) add(e, v, v + 1);
        break;
    default: { /* pieces: two random halves with no edge between */
        e->n = test_range(2, 2000);
        const int64_t h = e->n / 2;
        for (int64_t k = 0; k < 2 * e->n; k++) {
            const int64_t side = test_rand() % 2;
            const int64_t lo = side ? h : 0, hi = side ? e->n - 1 : h - 1;
            if (hi >= lo) add(e, test_range(lo, hi), test_range(lo, hi));
        }
        break;
    }
    }
}

/* The reference: a queue, written here. */
static void reference(const pw_graph *g, int64_t s, int32_t *level, pw_bfs_info *info)
{
    memset(info, 0, sizeof *info);
    for (int64_t v = 0; v < g->vertices; v++) level[v] = -1;
    int64_t *q = malloc(sizeof *q * (size_t)g->vertices), head = 0, tail = 0;
    level[s] = 0, q[tail++] = s;
    while (head < tail) {
        const int64_t v = q[head++];
        info->edges += g->offsets[v + 1] - g->offsets[v];
        if (level[v] > info->depth) info->depth = level[v];
        for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
            if (level[g->targets[e]] < 0) level[g->targets[e]] = level[v] + 1, q[tail++] = g->targets[e];
    }
    info->reached = tail;
    free(q);
}

static void random_searches(void)
{
    for (int trial = 0; trial < 120; trial++) {
        edges e;
        random_graph(&e, trial % 6);
        pw_graph g = csr(&e);
        const int64_t s = test_range(0, g.vertices - 1);
        int32_t *want = malloc(sizeof *want * (size_t)g.vertices), *got = malloc(sizeof *got * (size_t)g.vertices);
        pw_bfs_info ref, info;
        reference(&g, s, want, &ref);
        for (int engine = 0; engine < 3; engine++) {
            pw_options o;
            pw_options_init(&o);
            o.threads = (int)test_range(1, 8);
            o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
            /* the GPU's engines: the task engine on both kinds of queue, and a launch a level */
            if (on_gpu && engine == PW_BFS_SEQUENTIAL) engine = PW_BFS_LEVELS;
            pw_status st = pw_bfs(&g, s, (pw_bfs_engine)engine, &o, got, &info);
            CHECK(st == PW_OK && !memcmp(want, got, sizeof *got * (size_t)g.vertices),
                  "shape %d, %lld vertices, %lld edges, source %lld, engine %d, %d threads: %s or levels differ",
                  trial % 6, (long long)g.vertices, (long long)e.m, (long long)s, engine, o.threads, pw_status_str(st));
            CHECK(info.reached == ref.reached && info.depth == ref.depth && info.edges == ref.edges,
                  "shape %d engine %d: reached %lld/%lld depth %d/%d edges %lld/%lld", trial % 6, engine,
                  (long long)info.reached, (long long)ref.reached, info.depth, ref.depth, (long long)info.edges,
                  (long long)ref.edges);
        }
        free(want), free(got), free(e.from), free(e.to), free((void *)g.offsets), free((void *)g.targets);
    }
}

static void bad_input(void)
{
    int64_t off[4] = {0, 1, 2, 2}, tg[2] = {1, 2};
    pw_graph g = {3, off, tg};
    int32_t lv[3];
    CHECK(pw_bfs(&g, 3, PW_BFS_TASKS, NULL, lv, NULL) == PW_ERR_INVALID_ARGUMENT, "source past the end");
    CHECK(pw_bfs(&g, -1, PW_BFS_TASKS, NULL, lv, NULL) == PW_ERR_INVALID_ARGUMENT, "negative source");
    CHECK(pw_bfs(&g, 0, (pw_bfs_engine)9, NULL, lv, NULL) == PW_ERR_INVALID_ARGUMENT, "unknown engine");
    CHECK(pw_bfs(NULL, 0, PW_BFS_TASKS, NULL, lv, NULL) == PW_ERR_NULL_ARGUMENT, "no graph");
    CHECK(pw_bfs(&g, 0, PW_BFS_TASKS, NULL, NULL, NULL) == PW_ERR_NULL_ARGUMENT, "no levels");
    int64_t down[4] = {0, 2, 1, 2};
    pw_graph gd = {3, down, tg};
    CHECK(pw_bfs(&gd, 0, PW_BFS_TASKS, NULL, lv, NULL) == PW_ERR_BAD_INPUT, "offsets that go down");
    /* offsets that rise past the targets' end and then go down: refused before any target is read
     * (the targets' check read past a one-element array: the ASan build sees it) */
    int64_t rise[3] = {0, 3, 1}, *one = malloc(sizeof *one);
    one[0] = 1;
    pw_graph gr = {2, rise, one};
    CHECK(pw_bfs(&gr, 0, PW_BFS_SEQUENTIAL, NULL, lv, NULL) == PW_ERR_BAD_INPUT &&
              strstr(pw_error_detail(), "go down at vertex 1"),
          "offsets that go down after rising past the targets: %s", pw_error_detail());
    free(one);
    int64_t far[2] = {1, 7};
    pw_graph gf = {3, off, far};
    CHECK(pw_bfs(&gf, 0, PW_BFS_SEQUENTIAL, NULL, lv, NULL) == PW_ERR_BAD_INPUT, "an edge outside the graph");
    CHECK(strstr(pw_error_detail(), "7") != NULL, "the bad edge named: %s", pw_error_detail());
    pw_graph g0 = {0, off, tg};
    CHECK(pw_bfs(&g0, 0, PW_BFS_TASKS, NULL, lv, NULL) == PW_ERR_INVALID_SIZE, "no vertices");
    pw_options o;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    CHECK(pw_bfs(&g, 0, PW_BFS_LEVELS, &o, lv, NULL) == PW_ERR_UNSUPPORTED, "a launch a level on the CPU");
    o.backend = PW_BACKEND_CUDA; /* the reference on the GPU; or (no GPU) the backend itself */
    const pw_status cuda_seq = pw_bfs(&g, 0, PW_BFS_SEQUENTIAL, &o, lv, NULL);
    CHECK(cuda_seq == PW_ERR_UNSUPPORTED || cuda_seq == PW_ERR_NO_DEVICE, "the textbook queue on the GPU: %s",
          pw_status_str(cuda_seq));
    volatile int stop = 1;
    pw_options_init(&o);
    o.backend = PW_BACKEND_CPU;
    o.cancel = &stop;
    edges e;
    random_graph(&e, 2);
    pw_graph big = csr(&e);
    int32_t *l2 = malloc(sizeof *l2 * (size_t)big.vertices);
    for (int engine = 0; engine < 3; engine++)
        CHECK(big.vertices < 2 || pw_bfs(&big, 0, (pw_bfs_engine)engine, &o, l2, NULL) == PW_ERR_CANCELLED,
              "the cancel flag (engine %d)", engine);
    free(l2), free(e.from), free(e.to), free((void *)big.offsets), free((void *)big.targets);
}

/* ---- the readers ---- */

static int read_text(const char *text, int undirected, int64_t max_vertices, graph_file *g, char *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int r = graph_read_stream(f, "g", undirected, max_vertices, g, err, 256);
    fclose(f);
    return r;
}

/* Vertex v's edges as text "a b c". */
static void edges_of(const pw_graph *g, int64_t v, char *out)
{
    out[0] = '\0';
    for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
        sprintf(out + strlen(out), "%s%lld", e > g->offsets[v] ? " " : "", (long long)g->targets[e]);
}

static void readers(void)
{
    char err[256], s[128];
    graph_file g;
    CHECK(read_text("%%MatrixMarket matrix coordinate real general\n% c\n4 4 3\n1 2 0.5\n3 1 2\n2 4 1\n", 0,
                    GRAPH_MAX_VERTICES, &g, err) == 0, "mtx general: %s", err);
    CHECK(g.graph.vertices == 4 && !strcmp(g.format, "matrix-market"), "mtx: %lld vertices", (long long)g.graph.vertices);
    edges_of(&g.graph, 0, s);
    CHECK(!strcmp(s, "1"), "mtx: vertex 0 -> '%s'", s);
    edges_of(&g.graph, 2, s);
    CHECK(!strcmp(s, "0"), "mtx: vertex 2 -> '%s'", s);
    graph_file_free(&g);
    CHECK(read_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n", 0, GRAPH_MAX_VERTICES, &g,
                    err) == 0, "mtx symmetric: %s", err);
    edges_of(&g.graph, 0, s);
    CHECK(!strcmp(s, "1") && g.graph.offsets[3] == 3, "mtx symmetric: 0 -> '%s', %lld edges", s,
          (long long)g.graph.offsets[3]);
    graph_file_free(&g);
    CHECK(read_text("c road\np sp 3 2\nc arcs\na 1 2 7\na 2 3 1\n", 1, GRAPH_MAX_VERTICES, &g, err) == 0, "dimacs: %s", err);
    edges_of(&g.graph, 1, s);
    CHECK(!strcmp(g.format, "dimacs") && !strcmp(s, "0 2"), "dimacs undirected: 1 -> '%s'", s);
    graph_file_free(&g);
    /* the banner in lower case, after a byte order mark: still Matrix Market (1-based, its size line no edge) */
    CHECK(read_text("\357\273\277%%matrixmarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n", 0, GRAPH_MAX_VERTICES, &g,
                    err) == 0 && !strcmp(g.format, "matrix-market") && g.graph.vertices == 3 && g.graph.offsets[3] == 2,
          "mtx banner in lower case after a BOM: %s (%s, %lld vertices)", err, g.format, (long long)g.graph.vertices);
    graph_file_free(&g);
    /* a max-flow file: its node lines (source and sink) say nothing about the arcs */
    CHECK(read_text("c flow\np max 4 3\nn 1 s\nn 4 t\na 1 2 5\na 2 3 4\na 3 4 3\n", 0, GRAPH_MAX_VERTICES, &g, err) == 0,
          "dimacs max-flow: %s", err);
    edges_of(&g.graph, 2, s);
    CHECK(g.graph.vertices == 4 && g.graph.offsets[4] == 3 && !strcmp(s, "3"), "dimacs max-flow: 2 -> '%s'", s);
    graph_file_free(&g);
    CHECK(read_text("# edges\n0 5 1.5\n\n5 2\n", 0, GRAPH_MAX_VERTICES, &g, err) == 0, "edge list: %s", err);
    CHECK(g.graph.vertices == 6 && !strcmp(g.format, "edge-list"), "edge list: %lld vertices", (long long)g.graph.vertices);
    graph_file_free(&g);
    static const struct {
        const char *text, *says;
    } bad[] = {{"%%MatrixMarket matrix array real general\n2 2\n", "coordinate"},
               {"%%MatrixMarket matrix coordinate real sideways\n2 2 1\n1 1\n", "symmetry"},
               {"%%MatrixMarket matrix coordinate real general\n2 2\n", "line 2"},
               {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3\n", "line 3"},
               {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1\n", "2 declared"},
               {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n2 2\n", "line 4"},
               {"%%MatrixMarket matrix coordinate real general\n2 2 1\nx 1\n", "line 3"},
               {"%%MatrixMarket matrix coordinate real general\n", "no size"},
               /* not square: rows and columns would number different things (a bipartite graph) */
               {"%%MatrixMarket matrix coordinate real general\n3 4 1\n1 2 1\n", "3 x 4"},
               {"p sp 2 1\na 1 3 1\n", "line 2"},
               {"p sp 2 2\na 1 2 1\n", "2 declared"},
               {"c only a comment\n", "no problem"},
               {"p sp 2 1\nz 1 2\n", "line 2"},
               {"n 1 s\np max 2 1\na 1 2 1\n", "line 1"}, /* (a node line before the problem line) */
               {"0 1\n1 x\n", "line 2"},
               {"0 -1\n", "line 1"},
               {"0 99\n", "vertex numbers"},
               {"\n# nothing\n", "no vertices"},
               {"0 1\n\0001 2\n", "NUL"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const size_t len = bad[k].text[0] == '0' && strstr(bad[k].says, "NUL") ? 9 : strlen(bad[k].text);
        FILE *f = fmemopen((void *)bad[k].text, len, "r");
        int r = graph_read_stream(f, "g", 0, 50, &g, err, sizeof err);
        fclose(f);
        CHECK(r == -1 && strstr(err, bad[k].says), "bad file %zu: %d, '%s' (want '%s')", k, r, err, bad[k].says);
    }
    CHECK(graph_read("/nonexistent/graph.mtx", 0, 10, &g, err, sizeof err) == -1 && strstr(err, "graph.mtx"),
          "a missing file: %s", err);
}

/* The k-th allocation failing: PW_ERR_OUT_OF_MEMORY (or the right levels when it comes after the
 * last allocation), never a hang; nothing leaked (the sanitizer build). */
void pw_debug_alloc_reset(void);
long pw_debug_alloc_count(void);

static void failing_allocations(void)
{
    edges e;
    random_graph(&e, 3); /* a star: its large level spawns tasks */
    pw_graph g = csr(&e);
    int32_t *want = malloc(sizeof *want * (size_t)g.vertices), *got = malloc(sizeof *got * (size_t)g.vertices);
    pw_bfs_info ref;
    reference(&g, 0, want, &ref);
    for (int k = 1; k <= 10; k++) {
        char env[8];
        snprintf(env, sizeof env, "%d", k);
        setenv("PEERWAVE_DEBUG_FAIL_ALLOC", env, 1);
        pw_debug_alloc_reset();
        pw_options o;
        pw_options_init(&o);
        o.threads = 3;
        o.backend = PW_BACKEND_CPU;
        const pw_status st = pw_bfs(&g, 0, k % 2 ? PW_BFS_TASKS : PW_BFS_TASKS_CENTRAL, &o, got, NULL);
        const long made = pw_debug_alloc_count();
        unsetenv("PEERWAVE_DEBUG_FAIL_ALLOC");
        const int right = st == PW_OK && !memcmp(want, got, sizeof *got * (size_t)g.vertices);
        /* (a thread of the team may fail to start: the run goes on, on fewer threads) */
        CHECK(k <= made ? st == PW_ERR_OUT_OF_MEMORY || right : right, "allocation %d of %ld failing: %s", k, made,
              pw_status_str(st));
    }
    free(want), free(got), free(e.from), free(e.to), free((void *)g.offsets), free((void *)g.targets);
}

/* GPU: graphs whose levels outgrow a block (a star, an R-MAT-like skew: tasks spawned over the
 * queues) and long grids (a few thousand levels, each small), on every GPU engine. */
static void large_gpu_searches(void)
{
    for (int trial = 0; trial < 6; trial++) {
        edges e;
        memset(&e, 0, sizeof e);
        if (trial % 3 == 0) { /* a long grid, both ways */
            const int64_t r = test_range(500, 1500), c = test_range(2, 40);
            e.n = r * c;
            for (int64_t i = 0; i < r; i++)
                for (int64_t j = 0; j < c; j++) {
                    if (i + 1 < r) add(&e, i * c + j, (i + 1) * c + j), add(&e, (i + 1) * c + j, i * c + j);
                    if (j + 1 < c) add(&e, i * c + j, i * c + j + 1), add(&e, i * c + j + 1, i * c + j);
                }
        } else if (trial % 3 == 1) { /* a two-level star: wide levels */
            e.n = test_range(20000, 60000);
            for (int64_t v = 1; v < e.n; v++) add(&e, v < 100 ? 0 : test_range(0, 99), v);
        } else { /* skewed random: a few hubs */
            e.n = test_range(20000, 80000);
            const int64_t m = 6 * e.n;
            for (int64_t k = 0; k < m; k++) {
                const int64_t u = test_rand() % 4 ? test_range(0, 63) : test_range(0, e.n - 1);
                add(&e, u, test_range(0, e.n - 1)), add(&e, test_range(0, e.n - 1), u);
            }
        }
        pw_graph g = csr(&e);
        int32_t *want = malloc(sizeof *want * (size_t)g.vertices), *got = malloc(sizeof *got * (size_t)g.vertices);
        pw_bfs_info ref, info;
        reference(&g, 0, want, &ref);
        static const pw_bfs_engine engines[] = {PW_BFS_TASKS, PW_BFS_TASKS_CENTRAL, PW_BFS_LEVELS};
        for (int k = 0; k < 3; k++) {
            pw_options o;
            pw_options_init(&o);
            o.backend = PW_BACKEND_CUDA;
            const pw_status st = pw_bfs(&g, 0, engines[k], &o, got, &info);
            CHECK(st == PW_OK && !memcmp(want, got, sizeof *got * (size_t)g.vertices) && info.reached == ref.reached &&
                      info.depth == ref.depth && info.edges == ref.edges,
                  "large %d (%lld vertices, %lld edges) engine %d: %s, reached %lld/%lld depth %d/%d", trial,
                  (long long)g.vertices, (long long)e.m, (int)engines[k], pw_status_str(st), (long long)info.reached,
                  (long long)ref.reached, info.depth, ref.depth);
            if (k < 2) printf("large %d engine %d: %lld tasks, %lld steals, depth %d\n", trial, (int)engines[k],
                              (long long)info.tasks, (long long)info.steals, info.depth);
        }
        free(want), free(got), free(e.from), free(e.to), free((void *)g.offsets), free((void *)g.targets);
    }
}

int main(int argc, char **argv)
{
    on_gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    if (on_gpu) {
        int64_t off[2] = {0, 0};
        pw_graph one = {1, off, off};
        int32_t lv[1];
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        const pw_status st = pw_bfs(&one, 0, PW_BFS_TASKS, &o, lv, NULL);
        if (st == PW_ERR_NO_DEVICE || st == PW_ERR_UNSUPPORTED) {
            printf("no GPU: skipped\n");
            return 77;
        }
    }
    test_seed(5);
    random_searches();
    bad_input();
    if (on_gpu) {
        large_gpu_searches();
    } else {
        failing_allocations();
        readers();
    }
    return test_finish();
}
