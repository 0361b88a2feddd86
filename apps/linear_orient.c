/* linear_orient.c - see linear_orient.h. */
#include "linear_orient.h"

#include "../src/core/plan.h"

int pw_linear_swaps(const pw_options *options, int64_t n, int64_t m, double cpu_ratio, double gpu_ratio)
{
    pw_options o = pw_options_or_defaults(options);
    if (o.strategy == PW_STRATEGY_SEQUENTIAL || o.tile_h != 0 || o.tile_w != 0 || o.trace) return 0;
    pw_backend backend;
    if (pw_backend_resolve(&o, &backend) != PW_OK) return 0; /* (the run says why) */
    return (double)n >= (backend == PW_BACKEND_CUDA ? gpu_ratio : cpu_ratio) * (double)m;
}

/* The estimates' rates: a CPU core's cells a second on these pairs' vector tiles (SW 3000 x 4 Mb
 * on 16 cores 102 GCUPS, DTW 2048 x 2M 69: 4-6.5 a core), the GPU's cells a second once its
 * tile-rows fill it (SW and DTW run 340-1300 GCUPS on an H200), and what a GPU run costs
 * whatever its size (launches, copies; not the process's first CUDA context). */
#define CPU_CORE_CELLS_S 5e9
#define GPU_CELLS_S 5e11
#define GPU_RUN_S 2e-3

void pw_linear_auto_backend(pw_options *options, int64_t n, int64_t m, double gpu_step_s)
{
    if (options->backend != PW_BACKEND_AUTO || options->cuda_stream || options->strategy == PW_STRATEGY_LAUNCH) return;
    pw_backend backend;
    if (pw_backend_resolve(options, &backend) != PW_OK || backend != PW_BACKEND_CUDA) return;
    const double cells = (double)n * (double)m;
    const int threads = options->threads > 0 ? options->threads : pw_cpu_count();
    const double cpu_s = cells / (CPU_CORE_CELLS_S * (threads > 0 ? threads : 1));
    const double gpu_s = (double)(n > m ? n : m) * gpu_step_s + cells / GPU_CELLS_S + GPU_RUN_S;
    if (cpu_s < gpu_s) options->backend = PW_BACKEND_CPU;
}
