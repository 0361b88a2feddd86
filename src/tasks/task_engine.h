/*
 * task_engine.h - the task-graph engine on CPU threads (seed 001 ch. 5, issue 31): tasks with
 * dependency counters, a graph given up front (static) and tasks that create tasks (dynamic),
 * workers fed from distributed queues (one a worker, idle workers steal) or one central queue.
 *
 * A task becomes ready when its last predecessor finishes: each finished task decrements its
 * successors' counters (acquire-release read-modify-write), and whoever brings a counter to zero
 * queues that task; the queues' locks order the push before the pop, so a task sees every write
 * of every predecessor.  Nothing assumes the workers run at the same time: a worker only ever
 * runs ready tasks, never waits on one.  A run in which no task finishes for the watchdog's time
 * while tasks remain (a graph whose counters never reach zero) ends in PW_ERR_TIMEOUT.
 * Internal; the GPU engine and the public API come later (docs/DESIGN-NOTES.md, "Task graphs").
 */
#ifndef PW_TASK_ENGINE_H
#define PW_TASK_ENGINE_H

#include <stdint.h>

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pw_task_queues {
    PW_TASKS_DISTRIBUTED = 0, /* a queue a worker; an idle worker steals from the others (DQ) */
    PW_TASKS_CENTRAL          /* one queue for all (CQ) */
} pw_task_queues;

typedef struct pw_task_run pw_task_run; /* a graph being run: what a task may spawn into */

/* The graph: static tasks 0 .. count - 1; successors in CSR form (the tasks that wait for t are
 * succ[succ_at[t] .. succ_at[t + 1])); deps[t] = how many tasks t waits for (the number of times
 * it appears in succ).  run(ctx, run, task, spawned, worker): a static task's index, or a spawned
 * task's payload (spawned = 1).  Returning nonzero stops the run (PW_ERR_CANCELLED). */
typedef struct pw_task_graph {
    int64_t count;
    const int32_t *deps;
    const int64_t *succ_at;
    const int64_t *succ;
    int (*run)(void *ctx, pw_task_run *run, int64_t task, int spawned, int worker);
    void *ctx;
} pw_task_graph;

typedef struct pw_task_options {
    int workers;            /* threads (>= 1) */
    pw_task_queues queues;
    int64_t watchdog_ns;    /* 0: 120 s */
    int check_acyclic;      /* refuse a graph with a cycle before running anything */
} pw_task_options;

typedef struct pw_task_stats {
    int64_t executed;       /* tasks run, static and spawned */
    int64_t spawned;
    int64_t steals;         /* DQ: tasks an idle worker took from another's queue */
    int workers;            /* the team that ran */
} pw_task_stats;

/* PW_OK; PW_ERR_INVALID_ARGUMENT for a cycle or counters that do not match the successors (with
 * pw_error_detail naming a task), PW_ERR_OUT_OF_MEMORY. */
pw_status pw_tasks_check(const pw_task_graph *g);

/* Run the graph: PW_OK, PW_ERR_CANCELLED (a task said stop), PW_ERR_TIMEOUT (see above),
 * PW_ERR_INVALID_ARGUMENT (check_acyclic: a cycle), PW_ERR_OUT_OF_MEMORY.  stats may be NULL. */
pw_status pw_tasks_run(const pw_task_graph *g, const pw_task_options *options, pw_task_stats *stats);

/* From inside a task: a new task with this payload (>= 0), ready at once, run by some worker
 * before pw_tasks_run returns.  PW_ERR_OUT_OF_MEMORY, PW_ERR_INVALID_ARGUMENT (payload < 0). */
pw_status pw_tasks_spawn(pw_task_run *run, int worker, int64_t payload);

#ifdef __cplusplus
}
#endif
#endif
