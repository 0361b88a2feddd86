/* options.c - option defaults, validation and resolution into a pw_plan. */
#include <limits.h>
#include <sched.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "plan.h"
#include "../cuda/kernel_desc.h"
#include "status_detail.h"
#include "env_number.h"
#include "../cpu/simd/simd_isa.h"
#ifdef PW_HAVE_CUDA
#include "../cuda/pw_cuda.h"
#endif

/* Automatic CPU tiling where the tile-width model does not choose (fewer than 2^26 cells, or
 * asked): lanes enough to give every worker several tile-rows, and a sync interval long enough
 * to amortise one counter hand-off -- but tiles narrow enough that a tile-row holds
 * PW_CPU_AUTO_TILES tiles a worker.  A tile-row follows the one above two tiles behind, so with
 * fewer than 2 tiles a worker in a row the workers wait on each other; 8 measured best on 2 and
 * 16 cores (bench/cpu_widths.sh, docs/PERFORMANCE.md session 23: 16 cores, SAT u8 8000^2 0.074 ->
 * 0.038 s, HEAT 0.043 -> 0.028, 64000 x 1000 0.38 -> 0.21 and 0.34 -> 0.16; 2 cores 64000 x 1000
 * 0.34 -> 0.18 and 0.23 -> 0.12), not below 64 steps (the per-tile costs). */
#define PW_CPU_AUTO_TILE_H 64
#define PW_CPU_AUTO_TILE_W 512
#define PW_CPU_AUTO_TILE_W_MIN 64
#define PW_CPU_AUTO_TILES 8

static int64_t cpu_auto_width(int64_t rows, int64_t cols, int64_t h, int threads)
{
    if (h > PW_CPU_AUTO_TILE_W) return h;
    /* (in 64 bits whatever the sizes: the plan refuses impossible ones later, with their reason) */
    const int64_t tile_rows = rows / h + (rows % h != 0), workers = threads < tile_rows ? threads : tile_rows;
    const int64_t steps = cols > INT64_MAX - h ? INT64_MAX : cols + h;
    const int64_t w = steps / ((int64_t)PW_CPU_AUTO_TILES * (workers > 0 ? workers : 1));
    return w < PW_CPU_AUTO_TILE_W_MIN ? PW_CPU_AUTO_TILE_W_MIN : w > PW_CPU_AUTO_TILE_W ? PW_CPU_AUTO_TILE_W : w;
}

/* Automatic CUDA tiling until the model exists: 128 rows (4 warps) per block, w = h (PW+HT).
 * Measured on the H100 (docs/PERFORMANCE.md): w = 4h was 2.5-3x slower than w = h, because a
 * hyper-tile-row waits for the row above to publish (c+1)w + h - 1 steps, i.e. two whole tiles,
 * so the pipeline fill grows with w. */
#define PW_CUDA_AUTO_TILE_H 128
#define PW_CUDA_AUTO_TILE_W_PER_H 1
#define PW_CUDA_AUTO_LAYOUT PW_LAYOUT_ROW_MAJOR
#ifndef PW_CUDA_MAX_TILE_H
#define PW_CUDA_MAX_TILE_H 1024
#endif

void pw_options_init(pw_options *options)
{
    if (!options) return;
    options->backend = PW_BACKEND_AUTO;
    options->strategy = PW_STRATEGY_PEER;
    options->shape = PW_TILE_HYPER;
    options->tile_h = 0;
    options->tile_w = 0;
    options->threads = 0;
    options->device = 0;
    options->max_blocks = 0;
    options->rows_per_thread = 0;
    options->layout = PW_LAYOUT_AUTO;
    options->watchdog_ms = 0;
    options->cuda_stream = NULL;
    options->trace = NULL;
    options->trace_user = NULL;
    options->progress = NULL;
    options->progress_user = NULL;
    options->progress_interval_ms = 0;
    options->cancel = NULL;
    options->width_model = 0;
    options->train_ratio = 0;
    options->wisdom = NULL;
    options->simd = PW_SIMD_AUTO;
    options->sw_prune = 0;
    options->inthist_f32_edges = 0;
    options->inthist_closed = 0;
}

pw_options pw_options_or_defaults(const pw_options *options)
{
    pw_options o;
    if (options) o = *options;
    else pw_options_init(&o);
    return o;
}

pw_status pw_options_cpu_tiles(const pw_options *options, pw_options *out)
{
    *out = pw_options_or_defaults(options);
    out->backend = PW_BACKEND_CPU; /* (the trace stays: the pass is the run's tiles, what --trace draws) */
    /* sequential: the reference loop, as asked; launch: the GPU's (refused by the caller's path) */
    return out->strategy == PW_STRATEGY_PEER || out->strategy == PW_STRATEGY_GLOBAL_BARRIER ||
                   out->strategy == PW_STRATEGY_TASKS
               ? PW_OK
               : PW_ERR_UNSUPPORTED;
}

/* The processors this process may run on: its affinity mask (taskset, a batch scheduler's
 * binding, a container's cpuset), else the ones online.  More threads than that would share
 * processors, and the peer engines' workers wait on each other tile by tile. */
int pw_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) >= 1) n = CPU_COUNT(&allowed);
#endif
    if (n < 1) return 1;
    return n > PW_MAX_THREADS ? PW_MAX_THREADS : (int)n;
}

/* A refused option: its name and value in the detail. */
static pw_status bad_option(pw_status st, const char *name, long long value)
{
    pw_set_error_detail("options.%s = %lld is out of range", name, value);
    return st;
}

/* The fault-injection switches (docs/RELIABILITY.md), read where they act (alloc.c, simd_isa.c)
 * without a check: refused here by name when set to none of their values (abc failed no
 * allocation, "avx512x" lacked avx512, "AVX512" nothing). */
static pw_status debug_switches_check(void)
{
    const char *all = getenv("PEERWAVE_DEBUG_FAIL_ALLOC_ALL");
    long long nth;
    if (pw_env_number("PEERWAVE_DEBUG_FAIL_ALLOC", 1, LLONG_MAX, &nth) < 0) {
        pw_set_error_detail("PEERWAVE_DEBUG_FAIL_ALLOC='%s': the number (>= 1) of the allocation to fail expected",
                            getenv("PEERWAVE_DEBUG_FAIL_ALLOC"));
        return PW_ERR_INVALID_ARGUMENT;
    }
    if (all && *all && strcmp(all, "0") && strcmp(all, "1")) {
        pw_set_error_detail("PEERWAVE_DEBUG_FAIL_ALLOC_ALL='%s': 0 or 1 expected", all);
        return PW_ERR_INVALID_ARGUMENT;
    }
    const char *lacks = getenv("PEERWAVE_DEBUG_CPU_LACKS");
    for (const char *p = lacks; p && *p;) { /* names apart by commas or blanks */
        const size_t len = strcspn(p, ", ");
        if (len && !((len == 5 && !strncmp(p, "sse41", 5)) || (len == 4 && !strncmp(p, "avx2", 4)) ||
                     (len == 6 && !strncmp(p, "avx512", 6)))) {
            pw_set_error_detail("PEERWAVE_DEBUG_CPU_LACKS='%s': sse41, avx2 and avx512 apart by commas expected", lacks);
            return PW_ERR_INVALID_ARGUMENT;
        }
        p += len + (p[len] != '\0');
    }
    return PW_OK;
}

pw_status pw_options_check(const pw_options *o)
{
    const pw_status A = PW_ERR_INVALID_ARGUMENT;
    /* (the enums as int: an enum without negative values is unsigned, and -1 printed as 4294967295) */
    if ((unsigned)o->backend > PW_BACKEND_CUDA) return bad_option(A, "backend", (int)o->backend);
    if ((unsigned)o->strategy > PW_STRATEGY_TASKS) return bad_option(A, "strategy", (int)o->strategy);
    if ((unsigned)o->shape > PW_TILE_SQUARE) return bad_option(A, "shape", (int)o->shape);
    if ((unsigned)o->layout > PW_LAYOUT_HYBRID) return bad_option(A, "layout", (int)o->layout);
    if (o->tile_h < 0 || o->tile_h > PW_MAX_TILE_H) return bad_option(PW_ERR_INVALID_TILE, "tile_h", o->tile_h);
    if (o->tile_w < 0) return bad_option(PW_ERR_INVALID_TILE, "tile_w", o->tile_w);
    if (o->threads < 0 || o->threads > PW_MAX_THREADS) return bad_option(A, "threads", o->threads);
    if (o->device < 0) return bad_option(A, "device", o->device);
    if (o->max_blocks < 0) return bad_option(A, "max_blocks", o->max_blocks);
    if (o->rows_per_thread != 0 && o->rows_per_thread != 1 && o->rows_per_thread != 2 && o->rows_per_thread != 4 &&
        o->rows_per_thread != 8)
        return bad_option(A, "rows_per_thread", o->rows_per_thread);
    if (o->watchdog_ms < 0 || o->watchdog_ms > INT64_MAX / 1000000) return bad_option(A, "watchdog_ms", o->watchdog_ms);
    if (o->progress_interval_ms < 0 || o->progress_interval_ms > INT64_MAX / 1000000)
        return bad_option(A, "progress_interval_ms", o->progress_interval_ms);
    if (o->width_model < -1 || o->width_model > 1) return bad_option(A, "width_model", o->width_model);
    if (!(o->train_ratio >= 0 && o->train_ratio <= 1)) {
        pw_set_error_detail("options.train_ratio = %g is not within [0, 1]", o->train_ratio);
        return A;
    }
    if ((unsigned)o->simd > PW_SIMD_AVX512) return bad_option(A, "simd", o->simd);
    if (o->sw_prune != 0 && o->sw_prune != 1) return bad_option(A, "sw_prune", o->sw_prune);
    if (o->inthist_f32_edges != 0 && o->inthist_f32_edges != 1) return bad_option(A, "inthist_f32_edges", o->inthist_f32_edges);
    if (o->inthist_closed != 0 && o->inthist_closed != 1) return bad_option(A, "inthist_closed", o->inthist_closed);
    /* the switches in the environment, here where every run's options are checked (a run that
     * makes no plan -- SW pairs on the GPU, BFS, task graphs -- read them loosely before) */
    pw_status st = pw_kernel_switches_check(); /* (the CUDA switches; PEERWAVE_PIPELINE_SWEEPS on the CPU too) */
    return st == PW_OK ? debug_switches_check() : st;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* AUTO means CUDA when this build has it and the device answers, else CPU.  The sequential
 * reference is a CPU engine, so AUTO + SEQUENTIAL is CPU. */
pw_status pw_backend_resolve(const pw_options *o, pw_backend *backend)
{
    *backend = PW_BACKEND_CPU;
    if (o->backend == PW_BACKEND_CPU) return PW_OK;
#ifdef PW_HAVE_CUDA
    /* the sequential reference runs on the CPU */
    if (o->backend == PW_BACKEND_AUTO && o->strategy == PW_STRATEGY_SEQUENTIAL) return PW_OK;
    pw_status st = pw_cuda_probe(o->device);
    if (st == PW_OK) *backend = PW_BACKEND_CUDA;
    return o->backend == PW_BACKEND_CUDA ? st : PW_OK;
#else
    if (o->backend != PW_BACKEND_CUDA) return PW_OK;
    pw_set_error_detail("the CUDA backend was asked for, and this build has no CUDA (built without nvcc)");
    return PW_ERR_UNSUPPORTED;
#endif
}

void pw_backend_small_work(const pw_options *o, double cells, int threads, pw_backend *backend)
{
    if (o->backend == PW_BACKEND_AUTO && *backend == PW_BACKEND_CUDA &&
        cells < PW_AUTO_GPU_MIN_CELLS * (threads > 0 ? threads : 1))
        *backend = PW_BACKEND_CPU;
}

/* CUDA tiles: a tile-row is one thread block, one row per thread; the grid size comes from the
 * occupancy API in the engine. */
static pw_status plan_cuda(const pw_options *o, int64_t rows, int64_t cols, int skew, int auto_h, pw_plan *plan)
{
    if (plan->strategy == PW_STRATEGY_SEQUENTIAL) return PW_ERR_UNSUPPORTED; /* CPU reference */
    int64_t h = o->tile_h ? o->tile_h : auto_h;
    if (h > PW_CUDA_MAX_TILE_H) return PW_ERR_INVALID_TILE;
    int64_t w = o->tile_w ? o->tile_w : (o->shape == PW_TILE_SQUARE ? h : PW_CUDA_AUTO_TILE_W_PER_H * h);
    plan->workers = o->max_blocks; /* 0 = occupancy decides; the engine reports the grid used */
    plan->workers_available = 0;   /* the engine knows (occupancy) */
    int r = o->rows_per_thread; /* 0: the kernel selector's choice (src/cuda/kernel_desc.c) */
    if (r && h % r) return PW_ERR_INVALID_TILE; /* asked for, and it does not divide */
    pw_status st = pw_tiling_init(&plan->tiling, rows, cols, skew, o->shape, h, w);
    /* The tiling lowers h for short spaces (rows < h): keep R a divisor of the h it kept, so
     * threads * R still covers every lane (R is a power of two). */
    while (r > 1 && plan->tiling.h % r) r /= 2;
    plan->rows_per_thread = r;
    plan->layout = o->layout == PW_LAYOUT_AUTO ? PW_CUDA_AUTO_LAYOUT : o->layout;
    return st;
}

pw_status pw_plan_make(const pw_options *options, int64_t rows, int64_t cols, int skew,
                       pw_plan *plan)
{
    return pw_plan_make_app(options, rows, cols, skew, 0, plan);
}

pw_status pw_plan_make_app(const pw_options *options, int64_t rows, int64_t cols, int skew, int cuda_tile_h,
                           pw_plan *plan)
{
    pw_options defaults;
    if (!options) {
        pw_options_init(&defaults);
        options = &defaults;
    }
    pw_status st = pw_options_check(options);
    if (st != PW_OK) return st;
    if (rows < 1 || cols < 1) {
        pw_set_error_detail("a space of %lld x %lld: every run needs at least one row and one column (an empty "
                            "sequence, series or image?)", (long long)rows, (long long)cols);
        return PW_ERR_INVALID_SIZE;
    }

    plan->strategy = options->strategy;
    plan->device = options->device;
    plan->rows_per_thread = 0;
    plan->layout = PW_LAYOUT_ROW_MAJOR;
    plan->trace = options->trace;
    plan->trace_user = options->trace_user;
    plan->watchdog_ns = options->watchdog_ms * 1000000;
    plan->stream = options->cuda_stream;
    plan->simd = PW_SIMD_SCALAR;
    plan->sw_prune = options->sw_prune;
    plan->inthist_f32_math = options->inthist_f32_edges;
    plan->inthist_closed = options->inthist_closed;
    plan->edges = NULL;
    plan->edge_sweep0 = 0;
    plan->edge_cols = 0;
    plan->edge_rows_below = 0;
    plan->cuda_band = NULL;
    plan->band = NULL;
    pw_monitor_init(&plan->monitor, &plan->monitor_state, options, pw_monitor_mul(rows, cols));
    /* Fault injection for the reliability tests (docs/RELIABILITY.md): the peer engines never
     * publish this tile-row's progress, so the row below must end in PW_ERR_TIMEOUT. */
    /* (read strictly: "" and "abc" were row 0 -- every peer run hung until the watchdog -- and a
     * misspelt queue kind the default, silently) */
    long long stuck = -1;
    if (pw_env_number("PEERWAVE_DEBUG_STUCK_ROW", 0, LLONG_MAX, &stuck) < 0) {
        pw_set_error_detail("PEERWAVE_DEBUG_STUCK_ROW='%s': a tile-row number >= 0 expected (or leave it unset)",
                            getenv("PEERWAVE_DEBUG_STUCK_ROW"));
        return PW_ERR_INVALID_ARGUMENT;
    }
    plan->stuck_row = stuck;
    const char *queues = getenv("PEERWAVE_TASK_QUEUES");
    if (queues && *queues && strcmp(queues, "central") && strcmp(queues, "local")) {
        pw_set_error_detail("PEERWAVE_TASK_QUEUES='%s': central or local expected (or leave it unset)", queues);
        return PW_ERR_INVALID_ARGUMENT;
    }
    plan->task_queues_central = queues && !strcmp(queues, "central");
    st = pw_backend_resolve(options, &plan->backend);
    if (st != PW_OK) return st;
    if (plan->backend == PW_BACKEND_CUDA)
        return plan_cuda(options, rows, cols, skew, cuda_tile_h ? cuda_tile_h : PW_CUDA_AUTO_TILE_H, plan);
    if (plan->strategy == PW_STRATEGY_LAUNCH) { /* a GPU-only baseline */
        pw_set_error_detail("the launch strategy (one kernel launch per tile diagonal) runs on the GPU only: use the "
                            "CUDA backend, or the peer, barrier, tasks or sequential strategy on the CPU");
        return PW_ERR_UNSUPPORTED;
    }

    st = pw_simd_resolve(options->simd, &plan->simd);
    if (st != PW_OK) return st;
    int threads = options->threads ? options->threads : pw_cpu_count();
    int64_t h = options->tile_h;
    if (h == 0) {
        int64_t per_worker = rows / threads;
        h = per_worker < 1 ? 1 : min64(per_worker, PW_CPU_AUTO_TILE_H);
    }
    int64_t w = options->tile_w;
    if (w == 0) w = options->shape == PW_TILE_SQUARE ? h : cpu_auto_width(rows, cols, h, threads);
    if (plan->strategy == PW_STRATEGY_SEQUENTIAL) {
        h = 1; /* the plain loop nest: one row at a time, whole rows */
        w = cols;
        threads = 1;
    }
    st = pw_tiling_init(&plan->tiling, rows, cols, skew, options->shape, h, w);
    if (st != PW_OK) return st;
    plan->workers = (int)min64(threads, plan->tiling.n_rows);
    plan->workers_available = threads;
    return PW_OK;
}
