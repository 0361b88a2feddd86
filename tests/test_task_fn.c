/*
 * test_task_fn.c - task functions compiled at run time (peerwave_tasks.h: pw_task_fn,
 * pw_tasks_run_fn) against results computed here:
 *   - random DAGs: each task sums its predecessors' values (read from a buffer its predecessors
 *     wrote) and scales a row of a matrix with every thread of its block; the values equal a
 *     topological evaluation written here, the matrix its expected rows;
 *   - spawning: a tree of spawned tasks, each marking itself and counting with
 *     pw_task_atomic_add: every payload exactly once;
 *   - errors: a text that does not compile (its line named), no pw_task, counters that do not
 *     match, a cycle.
 * On the CPU backend (CI); --gpu: the same on the GPU task engine, distributed and central
 * queues (exit 77 without a GPU or NVRTC).
 */
#include <string.h>

#include "peerwave_tasks.h"
#include "test_util.h"
#include "../src/tasks/task_fn.h"

static int on_gpu;

static const char dag_text[] =
    "/* buffers: 0 pred_at, 1 pred, 2 value, 3 matrix (tasks x width); ints: 0 width */\n"
    "PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)\n"
    "{\n"
    "    const int64_t *pred_at = (const int64_t *)pw_task_buffer(t, 0), *pred = (const int64_t *)pw_task_buffer(t, 1);\n"
    "    int64_t *value = (int64_t *)pw_task_buffer(t, 2);\n"
    "    double *row = (double *)pw_task_buffer(t, 3) + task * pw_task_int(t, 0);\n"
    "    (void)spawned;\n"
    "    if (pw_task_thread(t) == 0) {\n"
    "        int64_t v = task + 1;\n"
    "        for (int64_t e = pred_at[task]; e < pred_at[task + 1]; e++) v = (v + 3 * value[pred[e]]) % 1000003;\n"
    "        value[task] = v;\n"
    "    }\n"
    "    pw_task_sync(t);\n"
    "    for (int64_t j = pw_task_thread(t); j < pw_task_int(t, 0); j += pw_task_threads(t))\n"
    "        row[j] = row[j] * pw_task_real(t, 0) + (double)value[task];\n"
    "}\n";

static const char tree_text[] =
    "PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)\n"
    "{\n"
    "    int64_t *hit = (int64_t *)pw_task_buffer(t, 0), *count = (int64_t *)pw_task_buffer(t, 1);\n"
    "    const int64_t n = pw_task_int(t, 0), p = spawned ? task : 0;\n"
    "    if (pw_task_thread(t) != 0) return;\n"
    "    pw_task_atomic_add(hit + p, 1);\n"
    "    pw_task_atomic_add(count, 1);\n"
    "    if (2 * p + 1 < n) pw_task_spawn(t, 2 * p + 1);\n"
    "    if (2 * p + 2 < n) pw_task_spawn(t, 2 * p + 2);\n"
    "}\n";

static pw_options options(void)
{
    pw_options o;
    pw_options_init(&o);
    o.backend = on_gpu ? PW_BACKEND_CUDA : PW_BACKEND_CPU;
    o.threads = (int)test_range(1, 6);
    return o;
}

/* A random DAG in both directions: successors (the graph) and predecessors (the tasks read). */
typedef struct dag {
    int64_t n, m;
    int32_t *deps;
    int64_t *succ_at, *succ, *pred_at, *pred;
} dag;

static void make_dag(dag *g, int64_t n)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    int64_t *from = malloc(sizeof *from * (size_t)(4 * n + 1)), *to = malloc(sizeof *to * (size_t)(4 * n + 1));
    for (int64_t b = 1; b < n; b++) /* edges from lower to higher numbers: acyclic */
        for (int k = (int)(test_rand() % 4); k > 0; k--) from[g->m] = test_range(0, b - 1), to[g->m++] = b;
    g->deps = calloc((size_t)n, sizeof *g->deps);
    g->succ_at = calloc((size_t)n + 1, sizeof *g->succ_at);
    g->pred_at = calloc((size_t)n + 1, sizeof *g->pred_at);
    g->succ = malloc(sizeof *g->succ * (size_t)(g->m + 1));
    g->pred = malloc(sizeof *g->pred * (size_t)(g->m + 1));
    for (int64_t e = 0; e < g->m; e++) g->succ_at[from[e] + 1]++, g->pred_at[to[e] + 1]++, g->deps[to[e]]++;
    for (int64_t k = 0; k < n; k++) g->succ_at[k + 1] += g->succ_at[k], g->pred_at[k + 1] += g->pred_at[k];
    int64_t *fs = malloc(sizeof *fs * (size_t)n), *fp = malloc(sizeof *fp * (size_t)n);
    for (int64_t k = 0; k < n; k++) fs[k] = g->succ_at[k], fp[k] = g->pred_at[k];
    for (int64_t e = 0; e < g->m; e++) g->succ[fs[from[e]]++] = to[e], g->pred[fp[to[e]]++] = from[e];
    free(fs), free(fp), free(from), free(to);
}

static void free_dag(dag *g) { free(g->deps), free(g->succ_at), free(g->succ), free(g->pred_at), free(g->pred); }

static void random_dags(pw_task_fn *fn)
{
    for (int trial = 0; trial < 24; trial++) {
        dag g;
        make_dag(&g, test_range(1, trial % 3 == 0 ? 3000 : 300));
        const int64_t width = test_range(1, 700);
        int64_t *value = calloc((size_t)g.n, sizeof *value), *want = malloc(sizeof *want * (size_t)g.n);
        double *matrix = malloc(sizeof *matrix * (size_t)(g.n * width)), *expect = malloc(sizeof *expect * (size_t)(g.n * width));
        const double scale = (double)test_range(1, 9) / 4;
        for (int64_t k = 0; k < g.n * width; k++) matrix[k] = (double)(k % 97) - 40;
        /* the answer: tasks in number order are a topological order here */
        for (int64_t t = 0; t < g.n; t++) {
            int64_t v = t + 1;
            for (int64_t e = g.pred_at[t]; e < g.pred_at[t + 1]; e++) v = (v + 3 * want[g.pred[e]]) % 1000003;
            want[t] = v;
            for (int64_t j = 0; j < width; j++) expect[t * width + j] = matrix[t * width + j] * scale + (double)v;
        }
        void *buffers[4] = {g.pred_at, g.pred, value, matrix};
        const size_t bytes[4] = {8 * (size_t)(g.n + 1), 8 * (size_t)g.m, 8 * (size_t)g.n, 8 * (size_t)(g.n * width)};
        const int64_t ints[1] = {width};
        const double reals[1] = {scale};
        pw_task_data data = {buffers, bytes, 4, ints, 1, reals, 1, 0};
        pw_task_graph tg = {g.n, g.deps, g.succ_at, g.succ, NULL, NULL};
        pw_task_stats stats;
        const pw_task_queues q = trial % 2 ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED;
        pw_options o = options();
        const pw_status st = pw_tasks_run_fn(&tg, fn, &data, q, &o, &stats);
        CHECK(st == PW_OK, "dag %d (%lld tasks, %lld edges): %s (%s)", trial, (long long)g.n, (long long)g.m,
              pw_status_str(st), pw_error_detail());
        CHECK(st != PW_OK || !memcmp(value, want, sizeof *want * (size_t)g.n), "dag %d: values differ", trial);
        CHECK(st != PW_OK || !memcmp(matrix, expect, sizeof *expect * (size_t)(g.n * width)), "dag %d: rows differ",
              trial);
        CHECK(st != PW_OK || stats.executed == g.n, "dag %d: %lld tasks run of %lld", trial, (long long)stats.executed,
              (long long)g.n);
        free(value), free(want), free(matrix), free(expect), free_dag(&g);
    }
}

static void spawned_tree(pw_task_fn *fn)
{
    for (int trial = 0; trial < 6; trial++) {
        const int64_t n = test_range(1, trial < 3 ? 50 : 20000);
        int64_t *hit = calloc((size_t)n, sizeof *hit), count = 0;
        void *buffers[2] = {hit, &count};
        const size_t bytes[2] = {8 * (size_t)n, 8};
        const int64_t ints[1] = {n};
        pw_task_data data = {buffers, bytes, 2, ints, 1, NULL, 0, n};
        int32_t deps[1] = {0};
        int64_t succ_at[2] = {0, 0}, succ[1] = {0};
        pw_task_graph tg = {1, deps, succ_at, succ, NULL, NULL}; /* the root: static task 0 */
        pw_options o = options();
        const pw_status st = pw_tasks_run_fn(&tg, fn, &data, trial % 2 ? PW_TASKS_CENTRAL : PW_TASKS_DISTRIBUTED, &o, NULL);
        int64_t once = 0;
        for (int64_t p = 0; p < n; p++) once += hit[p] == 1;
        CHECK(st == PW_OK && count == n && once == n, "tree of %lld: %s, count %lld, %lld once", (long long)n,
              pw_status_str(st), (long long)count, (long long)once);
        free(hit);
    }
}

/* NVRTC (no GPU needed): the tests' task functions and the engine's headers compile for sm_90
 * and the portable target, so a header that breaks run-time compilation fails CI. */
static void nvrtc_compiles(pw_task_fn *dag_fn, pw_task_fn *tree_fn)
{
#if defined(PW_HAVE_CUDA) && defined(PW_HAVE_NVRTC)
    static const char *const targets[] = {"sm_90", "compute_80"};
    for (int k = 0; k < 2; k++) {
        CHECK(pw_task_fn_compile_gpu(dag_fn, targets[k]) == PW_OK, "NVRTC, dag.c for %s: %s", targets[k], pw_task_fn_log(dag_fn));
        CHECK(pw_task_fn_compile_gpu(tree_fn, targets[k]) == PW_OK, "NVRTC, tree.c for %s: %s", targets[k], pw_task_fn_log(tree_fn));
    }
    printf("NVRTC compiled the task functions for sm_90 and compute_80\n");
#else
    (void)dag_fn, (void)tree_fn;
    printf("built without CUDA and NVRTC: no GPU compile\n");
#endif
}

static void errors(void)
{
    pw_task_fn *fn = NULL;
    CHECK(pw_task_fn_create("int x;", "none.c", &fn) == PW_ERR_BAD_INPUT && !fn, "a text with no pw_task");
    CHECK(pw_task_fn_create(NULL, "x", &fn) == PW_ERR_NULL_ARGUMENT, "no text");
    const char *broken = "PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)\n{\n    int y = oops;\n}\n";
    CHECK(pw_task_fn_create(broken, "broken.c", &fn) == PW_OK, "create the broken one");
    int32_t deps[2] = {0, 1};
    int64_t succ_at[3] = {0, 1, 1}, succ[1] = {1};
    pw_task_graph tg = {2, deps, succ_at, succ, NULL, NULL};
    pw_task_data data = {NULL, NULL, 0, NULL, 0, NULL, 0, 0};
    pw_options o = options();
    pw_status st = pw_tasks_run_fn(&tg, fn, &data, PW_TASKS_DISTRIBUTED, &o, NULL);
    CHECK(st == PW_ERR_COMPILE && strstr(pw_error_detail(), "broken.c") && strstr(pw_error_detail(), "3"),
          "a compile error: %s, '%s'", pw_status_str(st), pw_error_detail());
    CHECK(strstr(pw_task_fn_log(fn), "oops") != NULL, "the log: '%s'", pw_task_fn_log(fn));
    pw_task_fn_free(fn);
    CHECK(pw_task_fn_create(tree_text, "tree.c", &fn) == PW_OK, "create");
    int32_t wrong[2] = {0, 2}; /* task 1 has one predecessor, not two */
    pw_task_graph bad = {2, wrong, succ_at, succ, NULL, NULL};
    CHECK(pw_tasks_run_fn(&bad, fn, &data, PW_TASKS_DISTRIBUTED, &o, NULL) == PW_ERR_INVALID_ARGUMENT, "wrong counters");
    int32_t cyc_deps[2] = {1, 1};
    int64_t cyc_at[3] = {0, 1, 2}, cyc[2] = {1, 0};
    pw_task_graph cycle = {2, cyc_deps, cyc_at, cyc, NULL, NULL};
    CHECK(pw_tasks_run_fn(&cycle, fn, &data, PW_TASKS_DISTRIBUTED, &o, NULL) == PW_ERR_INVALID_ARGUMENT, "a cycle");
    CHECK(pw_tasks_run_fn(&tg, fn, &data, (pw_task_queues)7, &o, NULL) == PW_ERR_INVALID_ARGUMENT, "unknown queues");
    pw_task_fn_free(fn);
}

int main(int argc, char **argv)
{
    on_gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    pw_task_fn *dag_fn = NULL, *tree_fn = NULL;
    if (pw_task_fn_create(dag_text, "dag.c", &dag_fn) != PW_OK || pw_task_fn_create(tree_text, "tree.c", &tree_fn) != PW_OK) {
        printf("FAIL: create\n");
        return 1;
    }
    if (on_gpu) { /* a GPU and NVRTC, or skip */
        int32_t deps[1] = {0};
        int64_t succ_at[2] = {0, 0}, succ[1] = {0}, hit = 0, count = 0, n = 1;
        void *buffers[2] = {&hit, &count};
        const size_t bytes[2] = {8, 8};
        pw_task_data data = {buffers, bytes, 2, &n, 1, NULL, 0, 0};
        pw_task_graph tg = {1, deps, succ_at, succ, NULL, NULL};
        pw_options o;
        pw_options_init(&o);
        o.backend = PW_BACKEND_CUDA;
        const pw_status st = pw_tasks_run_fn(&tg, tree_fn, &data, PW_TASKS_DISTRIBUTED, &o, NULL);
        if (st == PW_ERR_NO_DEVICE || st == PW_ERR_UNSUPPORTED) {
            printf("no GPU or no NVRTC: skipped (%s)\n", pw_error_detail());
            pw_task_fn_free(dag_fn);
            pw_task_fn_free(tree_fn);
            return 77;
        }
    }
    test_seed(31);
    if (!on_gpu) nvrtc_compiles(dag_fn, tree_fn);
    random_dags(dag_fn);
    spawned_tree(tree_fn);
    errors();
    pw_task_fn_free(dag_fn);
    pw_task_fn_free(tree_fn);
    return test_finish();
}
