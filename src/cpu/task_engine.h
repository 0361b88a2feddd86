/*
 * task_engine.h - the task-graph engine on CPU threads (seed 001 ch. 5, issue 31).  Its API is
 * public (include/peerwave_tasks.h: pw_task_graph, pw_tasks_run, pw_tasks_spawn, pw_tasks_check);
 * this header is what the library's own users of it include (src/cpu/engine_tasks.c, bfs.c).
 *
 * A task becomes ready when its last predecessor finishes: each finished task decrements its
 * successors' counters (acquire-release read-modify-write), and whoever brings a counter to zero
 * queues that task; the queues' locks order the push before the pop, so a task sees every write
 * of every predecessor.  Nothing assumes the workers run at the same time: a worker only ever
 * runs ready tasks, never waits on one.  A run in which no task finishes for the watchdog's time
 * while tasks remain (a graph whose counters never reach zero) ends in PW_ERR_TIMEOUT.
 */
#ifndef PW_TASK_ENGINE_H
#define PW_TASK_ENGINE_H

#include "peerwave_tasks.h"

#endif
