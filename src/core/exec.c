/* exec.c - dispatch of one sweep to the engine the plan names, with timing. */
#include <string.h>
#include <time.h>

#include "exec.h"
#include "../cpu/cpu_engines.h"

void pw_run_info_clear(pw_run_info *info)
{
    if (info) memset(info, 0, sizeof *info);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

pw_status pw_execute(const pw_plan *plan, const pw_kernel *kernel, pw_run_info *info)
{
    /* CUDA plans go through the apps' pw_cuda_* glue; segment kernels are host code. */
    if (plan->backend != PW_BACKEND_CPU) return PW_ERR_UNSUPPORTED;
    double start = seconds_now();
    pw_status st;
    switch (plan->strategy) {
    case PW_STRATEGY_SEQUENTIAL: st = pw_cpu_sequential(plan, kernel); break;
    case PW_STRATEGY_PEER: st = pw_cpu_peer(plan, kernel); break;
    case PW_STRATEGY_GLOBAL_BARRIER: st = pw_cpu_barrier(plan, kernel); break;
    default: st = PW_ERR_UNSUPPORTED; break;
    }
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
        info->cells += t->rows * t->cols;
        info->seconds += seconds_now() - start;
    }
    return st;
}
