/*
 * linear_orient.h - which way round a linear app (SW, DTW) runs its two sequences, and where
 * `--backend auto` runs it: decisions made once, before a run, from the shape alone.
 *
 * Orientation.  Every engine runs a pair faster with the shorter sequence down the rows
 * (measured on an H200 and its host's 16 cores, bench/shapes.sh, docs/PERFORMANCE.md session 23:
 * a 4 Mb sequence against 300 / 3000 / 30000 letters took 1.38 / 1.31 / 2.02 s on the CPU with
 * the long one down the rows and 0.061 / 0.118 / 1.21 s the other way; DTW 2M x 256 1.04 s
 * against 0.027; the GPU's tile engines 2.0-2.2x).  Down the rows, the long sequence makes many
 * short tile-rows, each a whole tile-row's lag behind the one above (the CPU's 2 tiles, the GPU's
 * h + 32 steps), and that lag, not the cells, sets the time.  DTW's distance is the same number
 * either way (the cost is symmetric and min and + see the same operands), so it is simply run
 * swapped; SW's score too where the scores table is symmetric, but its end cell's tie rule (the
 * smallest end_a, then end_b) is not symmetric: apps/sw.c finds it again (pw_sw).
 *
 * The caller's orientation is kept where the caller chose tiles (--tile-h, --tile-w: they were
 * meant for it), drew them (--trace), or asked for the sequential reference.  A swapped run's
 * pw_run_info (tile_h, tile_w, threads) describes the swapped matrix.
 */
#ifndef PW_LINEAR_ORIENT_H
#define PW_LINEAR_ORIENT_H

#include "peerwave.h"

/* Run a (n) against b (m) as b against a?  How much longer a must be: cpu_ratio where the run
 * is the CPU's, gpu_ratio where it is the GPU's. */
int pw_linear_run_swapped(const pw_options *options, int64_t n, int64_t m, double cpu_ratio, double gpu_ratio);

/* The ratios.  DTW: no cost to swap, and 2x longer already ran 1.14x (CPU) and 1.13x (GPU)
 * faster swapped.  SW's end cell costs further runs on prefixes (apps/sw.c: 15-75% of the first
 * here): on the CPU a pair 2x / 4x longer ran 2.1x / 1.9x faster the other way round, so
 * swapping pays there; the GPU's tile engines gained nothing at 2x and 1.46x at 4x, 1.19x
 * swapped at 8x (H200, bench/shapes.sh). */
#define PW_DTW_SWAP_RATIO 2.0
#define PW_SW_SWAP_RATIO_CPU 2.0
#define PW_SW_SWAP_RATIO_GPU 8.0

/* Under `--backend auto` with a GPU present: the CPU threads where they would finish first by
 * pw_linear_cpu_first (options->backend becomes CPU, or stays AUTO).  cpu_core_cells_s: a core's
 * cells a second on the app's vector tiles (an eighth of it where options->simd is scalar). */
void pw_linear_auto_backend(pw_options *options, int64_t n, int64_t m, double gpu_step_s, double cpu_core_cells_s);

/* The estimate itself: would `threads` CPU threads finish an n x m pair before the GPU?  A GPU
 * run cannot take less than its longer side's column steps, one after another (a tile-row
 * crosses the whole row, and with the shorter side down the rows few tile-rows share the GPU),
 * gpu_step_s each, plus its cells at PW_GPU_CELLS_S and PW_GPU_RUN_S whatever its size
 * (launches, copies; not the process's first CUDA context, about 0.4 s, which a one-off CLI run
 * pays); the CPU's threads share the cells.  (threads counts what the engine would start: the
 * processors online, SMT siblings included, so the CPU is overrated where they share cores.) */
int pw_linear_cpu_first(double n, double m, int threads, double gpu_step_s, double cpu_core_cells_s);
#define PW_GPU_CELLS_S 5e11
#define PW_GPU_RUN_S 2e-3

/* The rates, measured on an H200 and its host's 16 cores (bench/shapes.sh): the GPU's seconds a
 * column step (SW 4 Mb x 300-30000 letters 0.29 s: 72 ns; DTW 2M x 256-16384 0.094 s: 47 ns), a
 * core's cells a second (SW 3000 x 4 Mb 102 GCUPS on 16, DTW f32 2048 x 2M 69; f64 has half the
 * lanes). */
#define PW_SW_GPU_STEP_S 70e-9
#define PW_DTW_GPU_STEP_S 47e-9
#define PW_SW_CPU_CORE_CELLS_S 5e9
#define PW_DTW_F32_CPU_CORE_CELLS_S 4e9
#define PW_DTW_F64_CPU_CORE_CELLS_S 2e9

#endif
