/*
 * peerwave_tasks.h - the task-graph subsystem (seed 001 ch. 5): breadth-first search on the task
 * engine.  Wavefronts as task graphs are the PW_STRATEGY_TASKS strategy of peerwave.h.
 *
 * The engine (docs/DESIGN-NOTES.md, "Task graphs"): tasks with dependency counters, worker
 * threads fed from distributed queues (one a worker, idle workers steal) or one central queue;
 * tasks may create tasks.  CPU threads so far; the GPU engine (persistent worker blocks) and a
 * C API for your own task graphs come next (issue 31).
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
    PW_BFS_SEQUENTIAL     /* the textbook queue on one thread: the reference */
} pw_bfs_engine;

typedef struct pw_bfs_info {
    int64_t reached;       /* vertices with a level (the source included) */
    int32_t depth;         /* the largest level */
    int64_t edges;         /* edges looked at (from every reached vertex) */
    int64_t tasks;         /* tasks run (task engines) */
    int64_t steals;        /* DQ: tasks an idle worker took from another's queue */
    int threads;
    double seconds;        /* the search, not the checks */
} pw_bfs_info;

/* Levels from `source`: level[v] = the fewest edges from source to v, -1 where v cannot be
 * reached (level: `vertices` entries).  Every engine gives the same levels.  Options: threads
 * (0: every core), cancel (looked at between tasks: PW_ERR_CANCELLED), backend (CPU; CUDA is
 * PW_ERR_UNSUPPORTED so far).  Errors before any work: PW_ERR_NULL_ARGUMENT, PW_ERR_INVALID_SIZE
 * (no vertices), PW_ERR_INVALID_ARGUMENT (source outside 0 .. vertices - 1, an unknown engine),
 * PW_ERR_BAD_INPUT (offsets not non-decreasing from 0, or a target outside the vertices; with
 * pw_error_detail naming the vertex), PW_ERR_OUT_OF_MEMORY. */
pw_status pw_bfs(const pw_graph *graph, int64_t source, pw_bfs_engine engine, const pw_options *options,
                 int32_t *level, pw_bfs_info *info);

#ifdef __cplusplus
}
#endif
#endif
