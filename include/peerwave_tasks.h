/*
 * peerwave_tasks.h - the task-graph subsystem (seed 001 ch. 5): breadth-first search on the task
 * engine.  Wavefronts as task graphs are the PW_STRATEGY_TASKS strategy of peerwave.h.
 *
 * The engine (docs/DESIGN-NOTES.md, "Task graphs"): tasks with dependency counters, worker
 * threads fed from distributed queues (one a worker, idle workers steal) or one central queue;
 * tasks may create tasks.  Your own graphs run on it with host functions as tasks
 * (pw_tasks_run; examples/task_graph.c), or on the CPU and the GPU with a task function compiled at
 * run time (pw_tasks_run_fn; examples/task_fn.c; include/peerwave_task_cell.h).  On the GPU
 * (persistent worker blocks, per-SM queues or one queue: src/cuda/device/task_queue.cuh) run
 * breadth-first search, every app's wavefront (PW_STRATEGY_TASKS) and task functions.
 */
#ifndef PEERWAVE_TASKS_H
#define PEERWAVE_TASKS_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A directed graph in compressed sparse rows: the edges of vertex v go to targets[offsets[v] ..
 * offsets[v + 1]) (offsets: vertices + 1 entries, non-decreasing, offsets[0] = 0). */
typedef struct pw_graph {
    int64_t vertices;
    const int64_t *offsets;
    const int64_t *targets;
} pw_graph;

typedef enum pw_bfs_engine {
    PW_BFS_TASKS = 0,     /* the task engine, distributed queues (DQ): each level's frontier in
                             groups of vertices, a task a group; the last task of a level creates
                             the next level's tasks (no barrier) */
    PW_BFS_TASKS_CENTRAL, /* the same on one central queue (CQ) */
    PW_BFS_SEQUENTIAL,    /* the textbook queue on one thread: the reference */
    PW_BFS_LEVELS         /* one kernel launch a level, the host reading each level's size back:
                             the GPU baseline (CUDA backend only) */
} pw_bfs_engine;

typedef struct pw_bfs_info {
    int64_t reached;       /* vertices with a level (the source included) */
    int32_t depth;         /* the largest level */
    int64_t edges;         /* edges looked at (from every reached vertex) */
    int64_t tasks;         /* tasks run (task engines); launches (PW_BFS_LEVELS) */
    int64_t steals;        /* DQ: tasks an idle worker took from another's queue */
    int threads;           /* CPU: threads; GPU: worker blocks (task engine) or threads a block (levels) */
    double seconds;        /* the search, not the checks (GPU: kernel time, not the graph's copy) */
} pw_bfs_info;

/* Levels from `source`: level[v] = the fewest edges from source to v, -1 where v cannot be
 * reached (level: `vertices` entries).  Every engine gives the same levels.  Options: threads
 * (0: every core), cancel (looked at between tasks on the CPU: PW_ERR_CANCELLED; the GPU search
 * does not look at it), backend (AUTO: the GPU where there is one, except PW_BFS_SEQUENTIAL;
 * PW_BFS_LEVELS needs the GPU: PW_ERR_UNSUPPORTED on the CPU), device, watchdog_ms.  Errors before any work: PW_ERR_NULL_ARGUMENT, PW_ERR_INVALID_SIZE
 * (no vertices), PW_ERR_INVALID_ARGUMENT (source outside 0 .. vertices - 1, an unknown engine),
 * PW_ERR_BAD_INPUT (offsets not non-decreasing from 0, or a target outside the vertices; with
 * pw_error_detail naming the vertex), PW_ERR_OUT_OF_MEMORY. */
pw_status pw_bfs(const pw_graph *graph, int64_t source, pw_bfs_engine engine, const pw_options *options,
                 int32_t *level, pw_bfs_info *info);

/* ---- your own task graphs on the task engine ----------------------------------------------- */

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

#define PW_TASKS_MAX_WORKERS 4096

typedef struct pw_task_options {
    int workers;            /* threads; 0: one per online core; at most PW_TASKS_MAX_WORKERS */
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

/* Run the graph: each task once, after all of its predecessors (and seeing their writes: the
 * counters are acquire-release), on `workers` threads, the calling thread included; returns when
 * every task, spawned ones included, has finished.  PW_OK, PW_ERR_CANCELLED (a task returned
 * nonzero: no new task starts), PW_ERR_TIMEOUT (no task finished for watchdog_ns while tasks
 * remained: counters that never reach zero), PW_ERR_INVALID_ARGUMENT (check_acyclic and a
 * cycle, named by pw_error_detail; a negative worker count), PW_ERR_OUT_OF_MEMORY.  stats may be
 * NULL.  Tasks must not call pw_tasks_run themselves. */
pw_status pw_tasks_run(const pw_task_graph *g, const pw_task_options *options, pw_task_stats *stats);

/* From inside a task: a new task with this payload (>= 0), ready at once, run by some worker
 * before pw_tasks_run returns.  PW_ERR_OUT_OF_MEMORY, PW_ERR_INVALID_ARGUMENT (payload < 0). */
pw_status pw_tasks_spawn(pw_task_run *run, int worker, int64_t payload);

/* ---- task functions compiled at run time: your own graphs on the CPU and the GPU ------------- */

/* A task function: C text in the language of peerwave_task_cell.h (docs/EXTENDING.md, "Task
 * functions"), compiled by the system C compiler for the CPU task engine and by NVRTC for the GPU
 * one, each when first needed, both cached on disk as user cells are.  It keeps what it compiled:
 * run one pw_task_fn from one thread at a time (separate pw_task_fn objects may run at once). */
typedef struct pw_task_fn pw_task_fn;

/* Keep the text (name: shown in compiler messages, e.g. the file's path).  Nothing is compiled
 * yet.  PW_ERR_NULL_ARGUMENT, PW_ERR_BAD_INPUT (no pw_task function in the text),
 * PW_ERR_OUT_OF_MEMORY. */
pw_status pw_task_fn_create(const char *text, const char *name, pw_task_fn **out);
void pw_task_fn_free(pw_task_fn *fn);
/* The last compiler output ("" if none), e.g. after PW_ERR_COMPILE. */
const char *pw_task_fn_log(const pw_task_fn *fn);

/* What the tasks see.  Buffers are host memory (the GPU run copies each to the device and back,
 * whole); ints and reals are the parameters.  spawn_bound: at most how many spawned tasks are
 * ready at once (the GPU's queues are sized from it and the static graph: 0 means 65536); more
 * fails the GPU run with PW_ERR_OUT_OF_MEMORY. */
typedef struct pw_task_data {
    void *const *buffers;
    const size_t *bytes; /* each buffer's size */
    int n_buffers;
    const int64_t *ints;
    int n_ints;
    const double *reals;
    int n_reals;
    int64_t spawn_bound;
} pw_task_data;

/* Run the graph (g's count, deps, succ_at, succ: its run and ctx are not used) with fn as every
 * task, on options->backend (AUTO: the GPU where there is one), on distributed or central queues
 * (CPU: options->threads workers; GPU: blocks of 256 threads, as many as fit).  PW_OK;
 * PW_ERR_COMPILE (pw_error_detail: the first error with its line; pw_task_fn_log: all of it);
 * PW_ERR_INVALID_ARGUMENT (counters that do not match the successors, a cycle: named);
 * PW_ERR_TIMEOUT (no task finished for options->watchdog_ms while tasks remained; 0: 120 s on the
 * CPU, 10 s on the GPU as for its other engines);
 * PW_ERR_OUT_OF_MEMORY; PW_ERR_NO_DEVICE / PW_ERR_UNSUPPORTED (--backend cuda without a GPU or
 * NVRTC).  stats may be NULL (GPU: executed and steals; spawned is not counted there). */
pw_status pw_tasks_run_fn(const pw_task_graph *g, pw_task_fn *fn, const pw_task_data *data, pw_task_queues queues,
                          const pw_options *options, pw_task_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
