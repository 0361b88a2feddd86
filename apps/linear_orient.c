/* linear_orient.c - see linear_orient.h. */
#include "linear_orient.h"

#include "../src/core/plan.h"

int pw_linear_run_swapped(const pw_options *options, int64_t n, int64_t m, double cpu_ratio, double gpu_ratio)
{
    pw_options o = pw_options_or_defaults(options);
    if (o.strategy == PW_STRATEGY_SEQUENTIAL || o.tile_h != 0 || o.tile_w != 0 || o.trace) return 0;
    pw_backend backend;
    if (pw_backend_resolve(&o, &backend) != PW_OK) return 0; /* (the run says why) */
    return (double)n >= (backend == PW_BACKEND_CUDA ? gpu_ratio : cpu_ratio) * (double)m;
}

int pw_linear_cpu_first(double n, double m, int threads, double gpu_step_s, double cpu_core_cells_s)
{
    const double cells = n * m;
    const double cpu_s = cells / (cpu_core_cells_s * (threads > 0 ? threads : 1));
    const double gpu_s = (n > m ? n : m) * gpu_step_s + cells / PW_GPU_CELLS_S + PW_GPU_RUN_S;
    return cpu_s < gpu_s;
}

void pw_linear_auto_backend(pw_options *options, int64_t n, int64_t m, double gpu_step_s, double cpu_core_cells_s)
{
    /* (an explicit backend, a caller's stream, a GPU-only strategy, a build or machine without a
     * GPU: nothing to choose) */
    if (options->backend != PW_BACKEND_AUTO || options->cuda_stream || options->strategy == PW_STRATEGY_LAUNCH) return;
    pw_backend backend;
    if (pw_backend_resolve(options, &backend) != PW_OK || backend != PW_BACKEND_CUDA) return;
    const int threads = options->threads > 0 ? options->threads : pw_cpu_count();
    const double rate = options->simd == PW_SIMD_SCALAR ? cpu_core_cells_s / 8 : cpu_core_cells_s;
    if (pw_linear_cpu_first((double)n, (double)m, threads, gpu_step_s, rate)) options->backend = PW_BACKEND_CPU;
}
