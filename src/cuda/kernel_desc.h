/*
 * kernel_desc.h - which kernel runs a problem on the GPU, as data: the kernel descriptor and the
 * one selector that fills it.  Plain C with no CUDA in it (so CI, which has no GPU, tests the
 * choices), used by the app glue (*_apps.cu) to instantiate the processor it names and by the
 * launcher (launch.cuh) for the block's threads and shared memory.  A kernel compiled at run time
 * (src/jit/) is chosen by the same function, so user cells get the fast processors by the same
 * rules as the built-in apps.
 *
 * The processors (src/cuda/device/):
 *   LINEAR          one thread per R rows, a block barrier a step; bus, left, diag (linear_proc.cuh)
 *   WARP            one warp per tile-row, R = h / 32 rows a thread, shuffles (warp_proc.cuh)
 *   FULL            one thread a row, neighbours from global memory, any skew (full_proc.cuh)
 *   PREFIX_SUM      prefix sums of rows and columns, square tiles (prefix_sum_proc.cuh)
 *   STENCIL_WARP    three warps, in-place five-point sweeps on hyper tiles (stencil_warp_proc.cuh)
 *   STENCIL_WINDOW  the tile's window of the grid in shared memory (stencil_window_proc.cuh)
 *
 * Debugging and measuring switches (docs/RELIABILITY.md), read here and nowhere else:
 *   PEERWAVE_LINEAR_PROCESSOR=block     LINEAR instead of WARP
 *   PEERWAVE_SAT_PROCESSOR=scan|diag|global   PREFIX_SUM (default), LINEAR first, FULL
 *   PEERWAVE_STENCIL_PROCESSOR=warp|window|global   STENCIL_WARP (default), _WINDOW, FULL
 *   PEERWAVE_PIPELINE_SWEEPS=0          one launch per sweep instead of pipelined sweeps (user cells
 *                                       on the CPU engines too: one run of the engine a sweep)
 *   PEERWAVE_SPIN_POLLS=N               polls a wait makes before it sleeps between them
 *   PEERWAVE_3D=plane|flat              3-D user cells plane by plane, or over the flattened space
 *   PEERWAVE_3D_TILE=KWxNW              the 3-D processor's tile (planes a thread x warps; more
 *                                       knobs below at tile3_kw)
 *   PEERWAVE_SW_LANES=pairs             SW on 16-bit pairs of lanes (EXPERIMENTAL: correct on an
 *                                       H200 since 2026-11-28 but 1.4-2.2x slower; the 32-bit lanes
 *                                       are the default)
 *   PEERWAVE_SW_ENGINE=rows|rows32|tiles  SW of one pair on the warp-rows engine whatever its size,
 *                                       or never (pw_swr_choose)
 */
#ifndef PW_KERNEL_DESC_H
#define PW_KERNEL_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "../core/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pw_processor {
    PW_PROC_LINEAR = 0,
    PW_PROC_WARP,
    PW_PROC_FULL,
    PW_PROC_PREFIX_SUM,
    PW_PROC_STENCIL_WARP,
    PW_PROC_STENCIL_WINDOW,
    PW_PROC_COUNT
} pw_processor;

/* The processor's name ("warp", ...), for reports and tests. */
const char *pw_processor_name(pw_processor p);

/* What an application offers the selector: the forms of its cell it has (a bit 1 << pw_processor
 * for each processor it can be run on) and the shape of its values. */
typedef struct pw_cell_shape {
    unsigned forms;     /* bits 1 << PW_PROC_... */
    int value_bytes;    /* the value a cell produces (T, Out, F) */
    int planes;         /* output planes (INTHIST: bins), else 1 */
    int several_planes; /* its scan source makes a plane per bin (INTHIST), however many are asked */
    int linear_rows;    /* its LINEAR form is built for this many rows a thread only (SAT's diag
                           form: 1); 0: any of 1, 2, 4, 8 (the rows_per_thread option) */
} pw_cell_shape;

#define PW_FORM(p) (1u << (p))

/* The forms the built-in apps' GPU glue offers, one list for the glue and for
 * pw_app_waits_in_chunks (the width model's question). */
#define PW_FORMS_LINEAR_APP (PW_FORM(PW_PROC_WARP) | PW_FORM(PW_PROC_LINEAR)) /* SW, DTW: linear_run.cuh */
#define PW_FORMS_SAT (PW_FORM(PW_PROC_PREFIX_SUM) | PW_FORM(PW_PROC_LINEAR) | PW_FORM(PW_PROC_FULL)) /* full_apps.cu */
#define PW_FORMS_INTHIST (PW_FORM(PW_PROC_PREFIX_SUM) | PW_FORM(PW_PROC_FULL))                  /* full_apps.cu */
/* HEAT/SOR (stencil_apps.cu): these on a row-major grid, and FullProc on any layout */
#define PW_FORMS_STENCIL_ROW_MAJOR (PW_FORM(PW_PROC_STENCIL_WARP) | PW_FORM(PW_PROC_STENCIL_WINDOW))

/* How 3-D user cells (PW_FORM(grid3)) run on the GPU: PW_3D_TILES, the 3-D processor
 * (Warp3Proc) where the cell's dependences, halo and value allow and the strategy is peer, else
 * the flattened space; PW_3D_PLANE (PEERWAVE_3D=plane) plane by plane (PlaneProc) where the
 * dependences allow; PW_3D_FLAT (PEERWAVE_3D=flat) the 2-D engines over rows x (cols x planes). */
typedef enum pw_layout_3d { PW_3D_TILES = 0, PW_3D_PLANE, PW_3D_FLAT } pw_layout_3d;

/* The switches above, as read from the environment. */
typedef struct pw_kernel_switches {
    int linear_block;     /* PEERWAVE_LINEAR_PROCESSOR=block */
    int sat_processor;    /* 0 scan, 1 diag, 2 global */
    int stencil_processor;/* 0 warp, 1 window, 2 global */
    int pipeline_sweeps;  /* 1 unless PEERWAVE_PIPELINE_SWEEPS=0 */
    unsigned spin_polls;  /* PW_SPIN_POLLS unless PEERWAVE_SPIN_POLLS is a count >= 0 */
    int layout_3d;        /* pw_layout_3d: PEERWAVE_3D=plane or flat (else tiles) */
    int tile3_kw, tile3_nw; /* PEERWAVE_3D_TILE=KWxNW[xAHEADxCHUNK[xBLOCKS[xCHAINS]]] (KW, NW: 1, 2,
                               4 or 8; AHEAD 1-8, CHUNK 1-16; BLOCKS an SM the registers allow,
                               <= 2048 threads; CHAINS 1, 2 or 4): the 3-D processor's planes a
                               thread, warps a block, slices in flight, steps between hand-overs,
                               blocks an SM, rows a thread (j chains); 0: the defaults
                               (proc_shapes.h; BLOCKS 0 with CHAINS: the processor's default) */
    int tile3_ahead, tile3_chunk, tile3_blocks, tile3_chains;
    int sw_packed_lanes;  /* PEERWAVE_SW_LANES=pairs */
    int sw_engine;        /* pw_sw_engine_ask: PEERWAVE_SW_ENGINE=rows|rows32|tiles (else auto) */
    int pairs_lanes32;    /* PEERWAVE_PAIRS_LANES=32: many SW pairs in 32-bit lanes only (a measuring switch) */
} pw_kernel_switches;

/* SW of one pair: what PEERWAVE_SW_ENGINE asks.  AUTO: the warp-rows engine (sw_warp_rows.cu)
 * where pw_swr_choose takes the pair, else the tile engines; ROWS: the warp-rows engine wherever
 * it can run (16-bit pairs where DPX is, the 32-bit rerun on overflow); ROWS32: it with 32-bit
 * lanes only; TILES: never it. */
typedef enum pw_sw_engine_ask { PW_SW_ENGINE_AUTO = 0, PW_SW_ENGINE_ROWS, PW_SW_ENGINE_ROWS32, PW_SW_ENGINE_TILES } pw_sw_engine_ask;

/* What the warp-rows engine's shape depends on: the GPU (SMs, resident blocks of 8 warps an SM
 * for each lane width at the run's shared memory, DPX in hardware) and the caller's block cap. */
typedef struct pw_swr_gpu {
    int sms;
    int per_sm32, per_sm16; /* occupancy (0: that kernel cannot run) */
    int dpx;                /* sm_90 and later */
    int64_t block_cap;      /* pw_options.max_blocks (0: none) */
} pw_swr_gpu;

/* Its shape for a pair of rows x cols (rows: the sequence down the warps' registers). */
typedef struct pw_swr_shape {
    int pairs;                  /* 16-bit pairs of tile-rows, else 32-bit lanes */
    int64_t tile_rows;          /* of 32 R rows */
    int64_t grid, warps;        /* blocks of 8 warps */
    int64_t rounds;             /* of `warps` tile-rows (two a warp for pairs) */
    int64_t lag;                /* pairs: the high halves' columns behind (D = 64 warps + 256) */
    int64_t available_blocks;   /* the most the GPU (and the cap) would have run */
} pw_swr_shape;

/* 1 and the shape where the engine takes the pair, 0 where it does not (the tile engines run):
 * AUTO takes a pair whose first round gives 16 warps an SM of the whole GPU (2/3 of three blocks
 * of 8), whose columns outlast the pipeline's fill (64 columns a warp: a round's columns 8x that
 * for pairs, all rounds' columns 10x for 32-bit lanes), with
 * pairs where DPX is and their first round is as full; ROWS / ROWS32 take any pair the GPU can
 * run; and none past the 32-bit counters (rounds x (cols + lag + 1) < 2^32) or 2^31 - 32 R rows.
 * Rounds are balanced: the fewest warps that need no more rounds than the whole (capped) grid. */
int pw_swr_choose(const pw_swr_gpu *gpu, pw_sw_engine_ask ask, int rows_per_thread, int64_t rows, int64_t cols,
                  pw_swr_shape *out);

/* The shape pw_swr_choose gave for one GPU, redealt for `gpus` GPUs of its kind (rounds dealt out:
 * global round g on GPU g mod gpus, docs/DESIGN-NOTES.md): the fewest warps a GPU for the fewest
 * rounds a GPU.  0 where it cannot (the counters' bound). */
int pw_swr_spread(pw_swr_shape *sh, int gpus, int64_t cols);

/* Polls a wait makes back to back before it starts sleeping between them (device/sync.cuh). */
#define PW_SPIN_POLLS 64

void pw_kernel_switches_read(pw_kernel_switches *out);

/* PW_OK, or PW_ERR_INVALID_ARGUMENT naming a switch set to none of its values (the read above
 * takes such a value as the default): pw_plan_make refuses a run under one. */
pw_status pw_kernel_switches_check(void);

/* How a block of the kernel is launched. */
typedef struct pw_launch_needs {
    int threads;               /* a block */
    size_t smem;               /* dynamic shared memory a block, bytes */
    int warps_per_scheduler;   /* peer grid: at most this many warps on each of an SM's four
                                  schedulers, the same number on each (0: no such rule) */
} pw_launch_needs;

typedef struct pw_kernel_desc {
    pw_processor processor;
    int rows_per_thread;   /* LINEAR: lanes a thread; WARP: h / 32; STENCIL_WARP: ceil(h / 32); else 1 */
    pw_tiling tiling;      /* the tiles the processor runs: the plan's, re-cut where the processor
                              needs (whole chunks, a minimum width, PREFIX_SUM's square tiles) */
    int prefetch;          /* PREFIX_SUM: the next chunk's inputs loaded while one runs (peer) */
    int pipelined_sweeps;  /* in-place sweeps pipelined in one peer, barrier or tasks launch */
    int deep_sweep_reads;  /* FULL: the kernel is FullProc<App, true>, whose peer waits reach every
                              row of the previous sweep the tiling's sweep reads name (M > 1) */
    unsigned spin_polls;
    pw_launch_needs needs;
    int64_t cells_per_sweep; /* cells a sweep computes when the tiling's rows x cols is not that
                                (the 3-D processor's tiling counts tiles); 0: rows x cols */
    int64_t face_tiles_k;    /* the 3-D processor: the tiling's n_rows tiles are a face of
                                n_rows / face_tiles_k by face_tiles_k tiles (core/work.h); 0: 2-D */
} pw_kernel_desc;

/* The kernel for `cell` under `plan` (a CUDA plan) with the given switches (NULL: read them).
 * PW_ERR_UNSUPPORTED when none of the cell's forms suits the plan; PW_ERR_INVALID_TILE when the
 * re-cut tiling cannot be built. */
pw_status pw_select_kernel(const pw_plan *plan, const pw_cell_shape *cell, const pw_kernel_switches *switches,
                           pw_kernel_desc *out);

/* Steps a processor that waits inside its tiles waits for at a time (the width model's chunk). */
#define PW_CHUNK_STEPS 32

/* Whether the built-in application `app` (the width model's name for its runs: "sw", "dtw-f32",
 * "sat-u8-i32", "inthist-...", "heat-f32", "sor-f64" ...) runs under `plan` on a processor that
 * waits for the row above inside its tiles, PW_CHUNK_STEPS at a time (WARP, PREFIX_SUM,
 * STENCIL_WARP: the width model's CHUNKED kind), rather than once a tile (LINEAR, FULL,
 * STENCIL_WINDOW, and every CPU engine: TILED).  The selector decides, from the forms each app's
 * GPU glue offers (linear_run.cuh, full_apps.cu, stencil_apps.cu). */
int pw_app_waits_in_chunks(const char *app, const pw_plan *plan);

/* The peer grid for a processor whose rule limits warps per scheduler (needs.warps_per_scheduler):
 * each SM's four schedulers get the same number of warps, at most that many. */
int64_t pw_even_peer_grid(int64_t grid, int64_t sms, int warps_per_scheduler);

/* Limits of the processors' re-cut tiles. */
#define PW_WARP_PEER_MIN_W 128                /* WARP in the peer schedule: the narrowest tile */
#define PW_WARP_MAX_STEPS ((int64_t)1 << 30)  /* WARP: tile steps are counted in 32 bits */
#define PW_STENCIL_WINDOW_MAX (100 * 1024)    /* STENCIL_WINDOW: shared memory at most */

#ifdef __cplusplus
}
#endif

#endif
