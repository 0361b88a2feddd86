/*
 * flowshop.h - the order of the job queue (CuMAS, seed 001 ch. 4, corrected as in DESIGN.md
 * section 9).  Internal API: the queue calls it, users do not.
 *
 * A job is three stages issued in this order: copy-in s (host to device), kernel p, copy-out r
 * (device to host), in any time unit (>= 0, finite).  Kernels run one at a time (each job's
 * kernel is taken to fill the GPU), in the order the jobs are issued.  The queue itself fixes the
 * order in which every engine serves its stages (one stream per engine, in issue order, with
 * events for the stage-to-stage dependences), so the hardware's arbitration between streams
 * never matters and the models below are what runs.
 *
 * Two or more copy engines (asyncEngineCount >= 2): copy-ins, kernels and copy-outs each have
 * their own engine, a three-machine permutation flow shop.  Job i of the order (1-based):
 *     CS_i = CS_{i-1} + s_i,   CP_i = max(CS_i, CP_{i-1}) + p_i,   CR_i = max(CP_i, CR_{i-1}) + r_i,
 * makespan CR_n.  (The chapter's delays, Eq. 4.1-4.3, and its DP cost, Eq. 4.5, are not this and
 * give wrong totals: tests/test_flowshop.c shows one by hand and counts how often Eq. 4.3 is
 * wrong.)  More than two engines are modelled as two: a third adds no bandwidth to a direction.
 *
 * One copy engine (asyncEngineCount == 1): copy-ins and copy-outs share it, one at a time, in
 * the order the queue issues them; a copy-out whose kernel has not ended holds up the copies
 * behind it.  The queue issues a job's copy-in before the previous job's copy-out, so the engine
 * serves   in_1, in_2, out_1, in_3, out_2, ..., in_n, out_{n-1}, out_n.
 * Why: issuing each job whole (in_i, out_i, in_{i+1}, ...) puts in_{i+1} behind out_i, which
 * waits for kernel i, so no copy ever overlaps a kernel; fetching one job ahead lets kernel i+1
 * start as soon as kernel i ends, and keeps at most two jobs' buffers on the device (double
 * buffering).  With CR_{-1} = CR_0 = 0 and CS_{n+1} taken as CR_{n-1}:
 *     CS_i = max(CS_{i-1}, CR_{i-2}) + s_i,   CP_i = max(CS_i, CP_{i-1}) + p_i,
 *     CR_i = max(CP_i, CS_{i+1}) + r_i        (out_i follows in_{i+1}; out_n follows out_{n-1}).
 * A one-engine schedule is never shorter than the two-engine schedule of the same order.
 *
 * Errors: PW_ERR_NULL_ARGUMENT for a missing pointer, PW_ERR_INVALID_SIZE for n <= 0,
 * PW_ERR_BAD_INPUT for a time that is negative, infinite or NaN, PW_ERR_INVALID_ARGUMENT for
 * copy_engines < 1, an order that is not a permutation of 0..n-1, a window < 1 or an exact search
 * over more than PW_FLOW_EXACT_MAX jobs; PW_ERR_OUT_OF_MEMORY.  Nothing is written on error.
 */
#ifndef PW_FLOWSHOP_H
#define PW_FLOWSHOP_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_flow_job {
    double s, p, r; /* copy-in, kernel, copy-out */
} pw_flow_job;

/* The engines after some jobs were issued: the start of the next decision (an idle GPU is all
 * zeros).  Two engines: when each engine is next free.  One engine: in_free is the shared
 * engine, out_free is unused, and the last job's copy-out (held_r) is not yet issued: it goes
 * after the next job's copy-in, or when the queue drains (pw_flow_state_finish). */
typedef struct pw_flow_state {
    int copy_engines; /* 1 or 2 */
    double in_free, kernel_free, out_free;
    double held_r;
    int held;
} pw_flow_state;

/* An idle GPU with copy_engines engines (asyncEngineCount; >= 2 is modelled as 2). */
pw_status pw_flow_state_init(pw_flow_state *st, int copy_engines);

/* Issue one job after those already in st. */
pw_status pw_flow_state_add(pw_flow_state *st, const pw_flow_job *job);

/* When the last stage issued so far ends, once the queue drains (issues a held copy-out); st
 * must have been initialised. */
double pw_flow_state_finish(const pw_flow_state *st);

/* The makespan of jobs run from an idle GPU in the given order (order[k] is the index of the
 * k-th job to issue; NULL: arrival order, i.e. FIFO). */
pw_status pw_flow_makespan(const pw_flow_job *jobs, const int *order, int n, int copy_engines,
                           double *makespan);

/* A bound every order's makespan reaches (from an idle GPU).  Both models: each single job; the
 * two-machine relaxations solved exactly by Johnson's rule (copy-in and copy-out with the kernel
 * as a time lag, Mitten's rule; copy-in and kernel plus the smallest copy-out; the smallest
 * copy-in plus kernel and copy-out); one job's copy-in and another's copy-out around all kernels.
 * One engine adds: all copies plus the idle time the engine cannot avoid before the first
 * job's copy-out (p_a - s_b) and the last job's (p_z - r_y). */
pw_status pw_flow_lower_bound(const pw_flow_job *jobs, int n, int copy_engines, double *bound);

/* A bound every split of the jobs over `devices` such GPUs reaches, whatever went where (one
 * device: pw_flow_lower_bound): each single job; the busiest device's share of each engine's
 * work (at least its sum / devices) plus the smallest stages before and after it on that device;
 * one engine: its copies' share.  A group of device queues reports the
 * bound of each one's own jobs; this one also sees a poor split. */
pw_status pw_flow_lower_bound_split(const pw_flow_job *jobs, int n, int copy_engines, int devices, double *bound);

/* The best order of jobs issued after start: branch and bound, depth first, pruned by a bound
 * of each engine's remaining work, from the heuristic's order (an optimum, not the only one).
 * n <= PW_FLOW_EXACT_MAX.  makespan may be NULL. */
#define PW_FLOW_EXACT_MAX 10
pw_status pw_flow_exact(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                        double *makespan);

/* NEH: jobs in decreasing s + p + r, each inserted where the partial order ends first (the first
 * such place); then pairs swapped while a swap shortens it.  O(n^3) per pass. */
pw_status pw_flow_neh(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                      double *makespan);

/* pw_flow_exact up to PW_FLOW_EXACT_AUTO jobs, pw_flow_neh above. */
#define PW_FLOW_EXACT_AUTO 8
pw_status pw_flow_best(const pw_flow_job *jobs, int n, const pw_flow_state *start, int *order,
                       double *makespan);

/* How the window moves over the queue.  ROLLING: order the window from the engines' state, issue
 * its first job, refill.  A job is passed by at most PW_FLOW_PATIENCE * (window - 1) later
 * arrivals: the oldest is issued when it has been, so nothing starves.  BLOCKS: CuMAS's
 * re-ordering window: issue the whole ordered window, take the next one (a job is passed by at
 * most window - 1).  On tests/test_flowshop.c's mixed queues (window 8, 48 sets of 40 jobs x
 * 25 arrival orders, over seeds 1-12), as multiples of the lower bound: two engines, ROLLING
 * 1.063, BLOCKS 1.100; one engine, ROLLING 1.004, BLOCKS 1.002.  A patience of 1 makes ROLLING
 * no better than BLOCKS (1.097 with two engines), 2 gives 1.073, unbounded 1.055: 3 keeps most of
 * the gain and bounds a job's wait.  ROLLING is the default (two engines is the common GPU). */
typedef enum pw_flow_policy { PW_FLOW_ROLLING = 0, PW_FLOW_BLOCKS } pw_flow_policy;
#define PW_FLOW_PATIENCE 3

/* One ROLLING step, for a queue whose jobs arrive while it runs: of the m (1 .. window, at most
 * PW_FLOW_WINDOW_MAX) oldest jobs not yet issued, win[0 .. m) in arrival order, the index of the
 * one to issue next from the engines' state st; oldest_passed: how many later jobs were issued
 * before win[0] (it goes first once that reaches PW_FLOW_PATIENCE * (window - 1)). */
#define PW_FLOW_WINDOW_MAX 64
int pw_flow_rolling_pick(const pw_flow_job *win, int oldest_passed, int m, int window, const pw_flow_state *st);

/* The online order of n jobs in arrival order: repeatedly the next `window` jobs not yet issued,
 * ordered by pw_flow_best from the engines' state (the window's makespan), issued by policy.
 * order[k] is the index of the k-th job to issue; makespan may be NULL. */
pw_status pw_flow_window(const pw_flow_job *jobs, int n, int copy_engines, int window,
                         pw_flow_policy policy, int *order, double *makespan);

#ifdef __cplusplus
}
#endif
#endif
