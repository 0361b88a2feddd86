/*
 * proc_shapes.h - the sizes of each tile processor's block: threads and shared memory, and the
 * offsets inside its shared memory that depend on them.  Plain C (PW_HD): the host reads them to
 * launch (kernel_desc.c), the processors to address their buffers, so the two can never
 * disagree; NVRTC compiles it with the rest of the device code.
 */
#ifndef PW_DEVICE_PROC_SHAPES_H
#define PW_DEVICE_PROC_SHAPES_H

#include "../../core/fixed_width.h"
#include "../../core/hd.h"

/* ---- PrefixSumProc (prefix_sum_proc.cuh) ---- */
#define PW_SCAN_ROWS_PER_WARP 8
#define PW_SCAN_CHUNK 128      /* columns per pass: 32 threads x 4 */
#define PW_SCAN_MAX_TILE_H 128 /* 16 warps: 512 threads */

PW_HD static inline int pw_scan_warps(int64_t h) { return (int)((h + PW_SCAN_ROWS_PER_WARP - 1) / PW_SCAN_ROWS_PER_WARP); }
/* Two chunk buffers, each the warps' column totals and the row above (a chunk's writes never meet
 * the previous chunk's reads). */
PW_HD static inline size_t pw_scan_buffers_bytes(int64_t h, int out_bytes)
{
    return 2 * (size_t)(pw_scan_warps(h) + 1) * PW_SCAN_CHUNK * (size_t)out_bytes;
}
PW_HD static inline size_t pw_scan_carries_bytes(int64_t h, int planes, int out_bytes)
{
    return (size_t)planes * (size_t)pw_scan_warps(h) * PW_SCAN_ROWS_PER_WARP * (size_t)out_bytes;
}
/* Several planes keep their row carries in shared memory where they take at most 32 KB (INTHIST:
 * 64 bins at h = 128); one plane keeps them in registers. */
PW_HD static inline int pw_scan_carries_in_smem(int64_t h, int planes, int many_planes, int out_bytes)
{
    return many_planes && pw_scan_carries_bytes(h, planes, out_bytes) <= 32 * 1024;
}
PW_HD static inline size_t pw_scan_smem_bytes(int64_t h, int planes, int many_planes, int out_bytes)
{
    return pw_scan_buffers_bytes(h, out_bytes) +
           (pw_scan_carries_in_smem(h, planes, many_planes, out_bytes) ? pw_scan_carries_bytes(h, planes, out_bytes) : 0);
}

/* ---- StencilWarpProc (stencil_warp_proc.cuh): R rows a thread ---- */
#define PW_STENCIL_WARP_CHUNK 32
#define PW_STENCIL_WARP_PITCH 33     /* a buffer row: 33 values, plus one per 32 rows (row_base) */
#define PW_STENCIL_WARP_LOOKAHEAD 2  /* chunks on their way while the loads warp finishes one */
#define PW_STENCIL_WARP_BUFFERS (PW_STENCIL_WARP_LOOKAHEAD + 2)
#define PW_STENCIL_WARP_THREADS 96   /* steps, loads and stores warps */

PW_HD static inline int64_t pw_stencil_warp_row_base(int64_t row) { return row * PW_STENCIL_WARP_PITCH + row / 32; }
/* A chunk buffer: the lanes' 32 R rows, the row below, the row above. */
PW_HD static inline int64_t pw_stencil_warp_buffer_elems(int rows_per_thread)
{
    return pw_stencil_warp_row_base(32 * (int64_t)rows_per_thread + 2);
}
/* The buffers, then the first column's values (prev and self of every lane), then a word a buffer
 * saying whether its chunk was abandoned. */
PW_HD static inline size_t pw_stencil_warp_seeds_offset(int rows_per_thread, int value_bytes)
{
    return PW_STENCIL_WARP_BUFFERS * (size_t)pw_stencil_warp_buffer_elems(rows_per_thread) * (size_t)value_bytes;
}
PW_HD static inline size_t pw_stencil_warp_status_offset(int rows_per_thread, int value_bytes)
{
    return pw_stencil_warp_seeds_offset(rows_per_thread, value_bytes) + 2 * 32 * (size_t)rows_per_thread * (size_t)value_bytes;
}
PW_HD static inline size_t pw_stencil_warp_smem_bytes(int rows_per_thread, int value_bytes)
{
    return pw_stencil_warp_status_offset(rows_per_thread, value_bytes) + PW_STENCIL_WARP_BUFFERS * sizeof(int);
}

/* ---- StencilWindowProc (stencil_window_proc.cuh): the tile's window of the grid ---- */
PW_HD static inline size_t pw_stencil_window_bytes(int64_t h, int64_t w, int value_bytes)
{
    return (size_t)(h + 2) * (size_t)(w + h + 1) * (size_t)value_bytes;
}

/* ---- LinearProc (linear_proc.cuh): R rows a thread, two slots a thread ---- */
PW_HD static inline size_t pw_linear_smem_bytes(int64_t h, int rows_per_thread, int value_bytes)
{
    return 2 * (size_t)(h / rows_per_thread) * (size_t)value_bytes;
}

/* ---- Warp3Proc (warp3_proc.cuh): 3-D tiles of 32 R rows (j) x NW warps x KW planes (k) ---- */
#define PW_WARP3_KW 4        /* planes (k) a thread computes a step, in order (the default) */
#define PW_WARP3_NW 8        /* warps a block, one after another along k (the default) */
#define PW_WARP3_AHEAD 4     /* slices whose copies are on their way while a step runs */
#define PW_WARP3_CHUNK 4     /* steps between waits for (and publishes to) the neighbour tiles */
#define PW_WARP3_CHAINS 1    /* rows (j) a thread, 32 apart: independent k chains it interleaves */

/* A slice: the row before the tile's 32 R (from the tile before in j), then its rows, ... */
PW_HD static inline int pw_warp3_rows(int chains) { return 32 * chains + 1; }
/* ... each with the plane before the warp's KW (k - 1). */
PW_HD static inline int pw_warp3_pitch(int kw) { return kw + 1; }
/* A block's tile: 32 R rows by nw * kw planes; the grid of tiles over (cols, planes). */
PW_HD static inline int64_t pw_warp3_tiles_j(int64_t cols, int chains) { return (cols + 32 * chains - 1) / (32 * chains); }
PW_HD static inline int64_t pw_warp3_tiles_k(int64_t planes, int kw, int nw) { return (planes + nw * kw - 1) / (nw * kw); }
/* Steps of a tile: a thread (lane L, chain r, warp w) computes row i at step i + L + 32 r + w. */
PW_HD static inline int64_t pw_warp3_steps(int64_t rows, int nw, int chains) { return rows + 32 * chains - 1 + nw - 1; }
/* AHEAD slices on their way, the one computed and the one being stored: AHEAD + 2 slots a warp. */
PW_HD static inline int pw_warp3_slots(int ahead) { return ahead + 2; }
PW_HD static inline size_t pw_warp3_smem_bytes(int kw, int nw, int ahead, int chains, int value_bytes)
{
    return (size_t)nw * (size_t)pw_warp3_slots(ahead) * (size_t)pw_warp3_rows(chains) * (size_t)pw_warp3_pitch(kw) *
           (size_t)value_bytes;
}

#endif
