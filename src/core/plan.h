/*
 * plan.h - an execution plan: options resolved against one problem (backend, strategy, tiling,
 * worker count).  Every app entry point builds one with pw_plan_make() and hands it, with its
 * kernel, to pw_execute() (exec.h).
 */
#ifndef PW_PLAN_H
#define PW_PLAN_H

#include "peerwave.h"
#include "band.h"
#include "monitor.h"
#include "tiling.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_plan {
    pw_backend backend;   /* resolved: CPU or CUDA */
    pw_strategy strategy;
    pw_tiling tiling;
    int workers;          /* CPU: threads the engine starts at most; CUDA: block cap (0 = none) */
    int workers_available;/* CPU: threads before the cap at the tile-row count (run info) */
    pw_simd simd;         /* CPU: the vector set an app's tile processor may use (never AUTO);
                             the app says in its run info what it did use */
    pw_layout layout;     /* CUDA full-storage apps: resolved, never AUTO */
    int rows_per_thread;  /* CUDA linear apps: lanes per thread asked for (1, 2, 4, 8; divides tile
                             h), or 0: the kernel selector's choice (src/cuda/kernel_desc.h) */
    int device;           /* CUDA device index */
    int sw_prune;         /* CUDA SW: block pruning (pw_options.sw_prune) */
    int inthist_f32_math; /* an f32 image's inthist edges in float arithmetic (pw_options.inthist_f32_edges) */
    int inthist_closed;   /* inthist's last bin holds hi too (pw_options.inthist_closed) */
    pw_trace_fn trace;
    void *trace_user;
    int64_t watchdog_ns;  /* 0 = the engine's default */
    void *stream;         /* CUDA stream (cudaStream_t), NULL = legacy default stream */
    int64_t stuck_row;    /* debug fault injection: a tile-row that never publishes; -1 = none */
    int task_queues_central; /* the tasks strategy's one central queue (the dissertation's CQ, for
                                comparison) instead of distributed queues with stealing, on the CPU
                                and the GPU: PEERWAVE_TASK_QUEUES=central, read here only */
    pw_monitor monitor;   /* progress hook and cancel flag (monitor.h); an app whose run is more
                             than rows x cols cells (sweeps, bins) sets monitor.cells */
    pw_monitor_state monitor_state; /* the run's report clock (monitor.state points here) */
    const pw_band_edges *edges; /* NULL, or this run is one band of a larger one (band.h): the CPU
                                   peer engine waits for and reports its edge rows */
    int64_t edge_sweep0;  /* the whole run's sweep number of this execution's first sweep */
    int64_t edge_cols;    /* the band's columns that read a neighbour's halo or are its halo: the
                             first and last edge_cols (0: 1; a user grid cell's reach) */
    int64_t edge_rows_below; /* rows below its own that a cell reads in the right halo (the old
                             values a grid cell's dependence (di, dj > 0) reads at (i + di, j + dj)) */
    const void *band;     /* CUDA apps: NULL, or the pw_band (core/band.h) this run is; the app's
                             glue attaches to it (SW and DTW so far: cuda/linear_apps.cu) */
    void *cuda_band;      /* CUDA: NULL, or the band's device words and polling (cuda/gpu_band.cuh) */
} pw_plan;

/* Check *options (NULL = defaults) and resolve automatic choices for a rows x cols space with the
 * given skew.  Returns the documented status for bad options. */
pw_status pw_plan_make(const pw_options *options, int64_t rows, int64_t cols, int skew,
                       pw_plan *plan);

/* pw_plan_make for an app with its own CUDA tile height: a CUDA plan whose caller left tile_h
 * to the library gets cuda_tile_h (0: the library's; the CPU keeps its own rule). */
pw_status pw_plan_make_app(const pw_options *options, int64_t rows, int64_t cols, int skew, int cuda_tile_h,
                           pw_plan *plan);

/* *options, or the defaults where options is NULL: a copy the caller may change. */
pw_options pw_options_or_defaults(const pw_options *options);

/* *out: the options (or the defaults) for a CPU run on the tiles' engines (the CPU backend; a
 * trace kept: the pass's tiles are the run's), for the forward passes that keep the alignment search's rows (apps/sw_saving.h,
 * apps/dtw_saving.h).  PW_ERR_UNSUPPORTED where the strategy runs no tiles (sequential: the
 * reference loop, as asked; launch: the GPU's), so the caller takes its row-by-row way. */
pw_status pw_options_cpu_tiles(const pw_options *options, pw_options *out);

/* Validate an options struct without a problem (used by pw_plan_make). */
pw_status pw_options_check(const pw_options *options);

/* Online CPU cores (>= 1). */
int pw_cpu_count(void);

/* The backend options->backend means here: AUTO is CUDA when this build has it and the device
 * answers (not for the SEQUENTIAL strategy, a CPU engine), else CPU.  Asking for CUDA without it:
 * PW_ERR_UNSUPPORTED (built without nvcc) or the probe's error. */
pw_status pw_backend_resolve(const pw_options *options, pw_backend *backend);

/* Under AUTO, a batch of many small jobs (pw_sw_search, pw_sw_pairs, pw_dtw_search) too small to
 * repay the GPU's start-up runs on the CPU threads: fewer than PW_AUTO_GPU_MIN_CELLS cells a
 * thread, which the vector lanes finish in about 10 ms (at 5 GCUPS a core, protein's rate; DNA's is
 * 2-4x that), against ~0.4 s for a process's first CUDA context and its buffers.  *backend is
 * left as it is otherwise (and always under an explicit backend). */
#define PW_AUTO_GPU_MIN_CELLS 5e7
void pw_backend_small_work(const pw_options *options, double cells, int threads, pw_backend *backend);

#ifdef __cplusplus
}
#endif

#endif
