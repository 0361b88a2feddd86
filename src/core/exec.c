/* exec.c - dispatch of one sweep to the engine the plan names, with timing. */
#include <string.h>
#include <time.h>

#include "exec.h"
#include "status_detail.h"
#include "../cpu/cpu_engines.h"
#include "../cpu/cpu_monitor.h"

void pw_run_info_clear(pw_run_info *info)
{
    if (info) memset(info, 0, sizeof *info);
}

double pw_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Progress counters (8 bytes each) or tile tasks (about 60 bytes) of one pipelined run at most,
 * as on the GPU: more sweeps run in batches of runs. */
#define PW_CPU_SWEEP_COUNTERS (1 << 20)
#define PW_CPU_SWEEP_TASKS (1 << 20)

/* `sweeps` sweeps (> 1 only on the peer, barrier and tasks engines, pipelined) of the plan's engine, timed. */
static pw_status run_engine(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_run_info *info)
{
    /* CUDA plans go through the apps' pw_cuda_* glue; segment kernels are host code. */
    if (plan->backend != PW_BACKEND_CPU) return PW_ERR_UNSUPPORTED;
    double start = pw_seconds_now();
    pw_status st;
    pw_cpu_monitor monitor; /* the hook's view of this execution: after the run's earlier ones */
    pw_cpu_monitor_open(&monitor, &plan->monitor, &plan->tiling, sweeps, info ? info->cells : 0);
    if (plan->edges && (plan->strategy != PW_STRATEGY_PEER || plan->tiling.skew != 0)) {
        /* (the band link speaks to the peer engine; a skewed cell would read the right band's rows) */
        pw_set_error_detail("a band of a distributed run runs on the peer strategy, without skew");
        return PW_ERR_UNSUPPORTED;
    }
    switch (plan->strategy) {
    case PW_STRATEGY_SEQUENTIAL: st = pw_cpu_sequential(plan, kernel, &monitor); break;
    case PW_STRATEGY_PEER: st = pw_cpu_peer(plan, kernel, sweeps, &monitor); break;
    case PW_STRATEGY_GLOBAL_BARRIER: st = pw_cpu_barrier(plan, kernel, sweeps, &monitor); break;
    case PW_STRATEGY_TASKS: st = pw_cpu_tasks(plan, kernel, sweeps, &monitor); break;
    default: st = PW_ERR_UNSUPPORTED; break;
    }
    if (st == PW_OK && pw_cpu_monitor_stopped(&monitor)) st = PW_ERR_CANCELLED;
    if (info) {
        const pw_tiling *t = &plan->tiling;
        info->backend = plan->backend;
        info->strategy = plan->strategy;
        info->shape = t->shape;
        info->tile_h = (int)t->h;
        info->tile_w = t->w;
        info->threads = plan->workers;
        info->threads_available = plan->workers_available;
        info->skew = t->skew;
        info->simd = kernel->simd != PW_SIMD_AUTO && plan->strategy != PW_STRATEGY_SEQUENTIAL ? kernel->simd
                                                                                              : PW_SIMD_SCALAR;
        info->cells += t->rows * t->cols * sweeps;
        info->seconds += pw_seconds_now() - start;
        if (st == PW_OK && monitor.m) pw_monitor_finish(monitor.m, info->cells, NULL);
    }
    return st;
}

pw_status pw_execute(const pw_plan *plan, const pw_kernel *kernel, pw_run_info *info)
{
    return run_engine(plan, kernel, 1, info);
}

/* (the peer, barrier and tasks engines pipeline in-place sweeps, the peer and tasks ones in batches
 * that bound their counters and graphs; a band of a distributed run speaks to the peer engine
 * only) */
int64_t pw_execute_sweeps_a_run(const pw_plan *plan)
{
    const pw_tiling *t = &plan->tiling;
    switch (plan->strategy) {
    case PW_STRATEGY_PEER: return t->n_rows >= PW_CPU_SWEEP_COUNTERS ? 1 : PW_CPU_SWEEP_COUNTERS / t->n_rows;
    case PW_STRATEGY_GLOBAL_BARRIER: return plan->edges ? 1 : PW_CPU_SWEEP_COUNTERS; /* (no counters: a bound) */
    case PW_STRATEGY_TASKS: {
        const int64_t tiles = pw_tiling_tile_count(t, 1);
        return plan->edges || tiles >= PW_CPU_SWEEP_TASKS ? 1 : PW_CPU_SWEEP_TASKS / tiles;
    }
    default: return 1;
    }
}

pw_status pw_execute_sweeps(const pw_plan *plan, const pw_kernel *kernel, int64_t sweeps, pw_run_info *info)
{
    pw_status st = PW_OK;
    const int64_t batch = pw_execute_sweeps_a_run(plan);
    pw_plan part = *plan; /* (edge_sweep0: the band link counts sweeps over the whole run) */
    for (int64_t done = 0; done < sweeps && st == PW_OK; done += batch) {
        part.edge_sweep0 = plan->edge_sweep0 + done;
        st = run_engine(&part, kernel, sweeps - done < batch ? sweeps - done : batch, info);
    }
    return st;
}
