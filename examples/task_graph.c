/* task_graph.c - your own task graph on PeerWave's task engine (include/peerwave_tasks.h).
 *
 * A small build: each step takes some time and waits for the steps it depends on; every step,
 * run as a task, works out when it could finish at the earliest (its own time after the latest of
 * its predecessors).  A task reads its predecessors' results without locks: the engine runs it
 * only after they finished and makes their writes visible.  The answer is checked against the
 * same sums done in order.
 *
 *   cc task_graph.c $(pkg-config --cflags --libs peerwave) -o task_graph && ./task_graph
 */
#include <stdio.h>
#include <stdlib.h>

#include "peerwave_tasks.h"

enum { STEPS = 2000, MAX_PRED = 3 };

typedef struct build {
    int duration[STEPS];
    int pred[STEPS][MAX_PRED], n_pred[STEPS];
    long finish[STEPS]; /* written by step t's task, read by its successors' */
} build;

static int run_step(void *ctx, pw_task_run *run, int64_t t, int spawned, int worker)
{
    (void)run, (void)spawned, (void)worker;
    build *b = ctx;
    long start = 0;
    for (int k = 0; k < b->n_pred[t]; k++)
        if (b->finish[b->pred[t][k]] > start) start = b->finish[b->pred[t][k]];
    b->finish[t] = start + b->duration[t];
    return 0; /* nonzero would stop the run */
}

int main(void)
{
    static build b;
    static int32_t deps[STEPS];
    static int64_t succ_at[STEPS + 1], succ[STEPS * MAX_PRED];
    srand(7);
    /* step t depends on up to three earlier steps */
    for (int t = 0; t < STEPS; t++) {
        b.duration[t] = 1 + rand() % 10;
        b.n_pred[t] = t == 0 ? 0 : rand() % (MAX_PRED + 1);
        for (int k = 0; k < b.n_pred[t]; k++) b.pred[t][k] = rand() % t;
        deps[t] = b.n_pred[t];
    }
    /* successors in CSR form: count, offsets, place */
    for (int t = 0; t < STEPS; t++)
        for (int k = 0; k < b.n_pred[t]; k++) succ_at[b.pred[t][k] + 1]++;
    for (int t = 0; t < STEPS; t++) succ_at[t + 1] += succ_at[t];
    static int64_t fill[STEPS];
    for (int t = 0; t < STEPS; t++) fill[t] = succ_at[t];
    for (int t = 0; t < STEPS; t++)
        for (int k = 0; k < b.n_pred[t]; k++) succ[fill[b.pred[t][k]]++] = t;

    pw_task_graph g = {STEPS, deps, succ_at, succ, run_step, &b};
    pw_task_options o = {0, PW_TASKS_DISTRIBUTED, 0, 1}; /* every core, a queue each, refuse cycles */
    pw_task_stats stats;
    pw_status st = pw_tasks_run(&g, &o, &stats);
    if (st != PW_OK) {
        fprintf(stderr, "task_graph: %s (%s)\n", pw_status_str(st), pw_error_detail());
        return 1;
    }
    long makespan = 0, expect = 0;
    static long seq[STEPS]; /* the same, in order (a step's predecessors come before it) */
    for (int t = 0; t < STEPS; t++) {
        long start = 0;
        for (int k = 0; k < b.n_pred[t]; k++)
            if (seq[b.pred[t][k]] > start) start = seq[b.pred[t][k]];
        seq[t] = start + b.duration[t];
        if (seq[t] > expect) expect = seq[t];
        if (b.finish[t] > makespan) makespan = b.finish[t];
    }
    printf("%d steps on %d threads (%lld steals): the build takes %ld at the earliest (%s)\n", STEPS, stats.workers,
           (long long)stats.steals, makespan, makespan == expect ? "checked" : "WRONG");
    return makespan == expect ? 0 : 1;
}
