/*
 * task_fn.c - your own task graph with a task function compiled at run time (peerwave_tasks.h,
 * docs/EXTENDING.md "Task functions"): the sum of an array as a tree of tasks.  Leaves sum a chunk
 * each (on the GPU with every thread of the block), inner tasks add their two children once both
 * have finished.  The same text runs on the CPU task engine and on the GPU one (--backend auto:
 * the GPU where there is one).  Build against the library and run:
 *
 *     cc examples/task_fn.c -lpeerwave -o task_fn && ./task_fn
 */
#include <stdio.h>
#include <stdlib.h>

#include "peerwave_tasks.h"

/* Tasks 0 .. leaves - 1 are the leaves; task leaves + k adds tasks 2k and 2k + 1 of the level
 * below (sums[] holds every task's result).  ints: 0 leaves, 1 chunk. */
static const char text[] =
    "PW_TASK_FN void pw_task(pw_task_ctx *t, int64_t task, int spawned)\n"
    "{\n"
    "    const int64_t *x = (const int64_t *)pw_task_buffer(t, 0);\n"
    "    int64_t *sums = (int64_t *)pw_task_buffer(t, 1);\n"
    "    const int64_t *child = (const int64_t *)pw_task_buffer(t, 2);\n"
    "    const int64_t leaves = pw_task_int(t, 0), chunk = pw_task_int(t, 1);\n"
    "    (void)spawned;\n"
    "    if (task < leaves) {\n"
    "        int64_t s = 0;\n"
    "        for (int64_t i = task * chunk + pw_task_thread(t); i < (task + 1) * chunk; i += pw_task_threads(t)) s += x[i];\n"
    "        pw_task_atomic_add(sums + task, s);\n"
    "    } else if (pw_task_thread(t) == 0) {\n"
    "        sums[task] = sums[child[2 * (task - leaves)]] + sums[child[2 * (task - leaves) + 1]];\n"
    "    }\n"
    "}\n";

int main(void)
{
    const int64_t leaves = 1024, chunk = 4096, n = leaves * chunk, tasks = 2 * leaves - 1;
    int64_t *x = malloc(sizeof *x * (size_t)n), *sums = calloc((size_t)tasks, sizeof *sums);
    int64_t *child = malloc(sizeof *child * (size_t)(2 * leaves)), *succ_at = calloc((size_t)tasks + 1, sizeof *succ_at);
    int64_t *succ = malloc(sizeof *succ * (size_t)tasks);
    int32_t *deps = calloc((size_t)tasks, sizeof *deps);
    if (!x || !sums || !child || !succ_at || !succ || !deps) return 1;
    int64_t want = 0;
    for (int64_t i = 0; i < n; i++) x[i] = (i * 7919) % 1000 - 500, want += x[i];
    /* the tree: level by level, each inner task after its two children */
    int64_t parent_of[2048], first = 0, count = leaves, next = leaves;
    while (count > 1) {
        for (int64_t k = 0; k + 1 < count; k += 2, next++) {
            child[2 * (next - leaves)] = first + k, child[2 * (next - leaves) + 1] = first + k + 1;
            parent_of[first + k] = parent_of[first + k + 1] = next;
            deps[next] = 2;
        }
        first += count, count /= 2;
    }
    for (int64_t t = 0; t + 1 < tasks; t++) succ_at[t + 1] = succ_at[t] + 1, succ[t] = parent_of[t];
    succ_at[tasks] = succ_at[tasks - 1]; /* the root has no successor */
    pw_task_fn *fn;
    if (pw_task_fn_create(text, "tree_sum.c", &fn) != PW_OK) return 1;
    void *buffers[3] = {x, sums, child};
    const size_t bytes[3] = {sizeof *x * (size_t)n, sizeof *sums * (size_t)tasks, sizeof *child * (size_t)(2 * leaves)};
    const int64_t ints[2] = {leaves, chunk};
    pw_task_data data = {buffers, bytes, 3, ints, 2, NULL, 0, 0};
    pw_task_graph g = {tasks, deps, succ_at, succ, NULL, NULL};
    pw_task_stats stats;
    const pw_status st = pw_tasks_run_fn(&g, fn, &data, PW_TASKS_DISTRIBUTED, NULL, &stats);
    if (st != PW_OK) {
        fprintf(stderr, "task_fn: %s (%s)\n%s", pw_status_str(st), pw_error_detail(), pw_task_fn_log(fn));
        return 1;
    }
    printf("sum %lld over %lld tasks on %d workers: %s\n", (long long)sums[tasks - 1], (long long)stats.executed,
           stats.workers, sums[tasks - 1] == want ? "equal to the plain loop (checked)" : "WRONG");
    const int ok = sums[tasks - 1] == want;
    pw_task_fn_free(fn);
    free(x), free(sums), free(child), free(succ_at), free(succ), free(deps);
    return ok ? 0 : 1;
}
