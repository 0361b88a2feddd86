/*
 * gpu_passes.h - the large passes of an alignment or warping-path search on the GPU: each pass
 * is a run of a cell of the runtime (src/align/cells/: mm_pass.c, dtw_pass.c) through the same
 * peer engine and warp processor as any linear cell, compiled once by NVRTC and cached on disk.
 *
 * Without CUDA and NVRTC in the build, pw_align_gpu_open gives NULL and the CPU passes do all
 * the work.  Passes smaller than PW_ALIGN_GPU_CELLS cells (or $PEERWAVE_ALIGN_GPU_CELLS, a
 * tuning and testing switch) stay on the CPU, where they cost less than a launch and copies.
 */
#ifndef PW_GPU_PASSES_H
#define PW_GPU_PASSES_H

#include "align_internal.h"

#define PW_ALIGN_GPU_CELLS ((int64_t)1 << 22)

typedef struct pw_align_gpu pw_align_gpu;

typedef enum pw_align_pass_kind {
    PW_ALIGN_PASS_MM,  /* Myers-Miller, scoring given */
    PW_ALIGN_PASS_DTW,     /* warping path: squared and f32 given */
    PW_ALIGN_PASS_SW_STRIP /* the alignment search's strips (sw_strips.c), scoring given */
} pw_align_pass_kind;

/* Whether a run under options uses the GPU passes (for searches with no score pass to follow):
 * *use = 1 on a usable GPU unless the CPU is asked for; PW_ERR_NO_DEVICE / PW_ERR_UNSUPPORTED
 * when PW_BACKEND_CUDA is asked for and cannot be had. */
pw_status pw_align_gpu_wanted(const pw_options *options, int *use);

/* Ready the GPU passes of a kind for this scoring (MM: scoring; DTW: NULL) under options (device,
 * stream).  *out is NULL with PW_OK when this build cannot run them on the GPU. */
pw_status pw_align_gpu_open(pw_align_pass_kind kind, const pw_align_scoring *scoring, int squared, int f32,
                            const pw_options *options, pw_align_gpu **out);
/* The size from which passes go to the GPU. */
int64_t pw_align_gpu_min_cells(const pw_align_gpu *gpu);
/* A Myers-Miller pass (pw_mm_pass_fn; ctx = the pw_align_gpu). */
pw_status pw_align_gpu_mm_pass(void *gpu, const uint8_t *a, int64_t rows, const uint8_t *b, int64_t cols,
                               int32_t tb, int32_t *cc, int32_t *dd);
/* A DTW pass: last[j], the least cost from (0, 0) to (rows - 1, j); free_last: the cells of
 * column cols - 1 cost 0 (dtw_path.h). */
pw_status pw_align_gpu_dtw_pass(pw_align_gpu *gpu, const double *a, int64_t rows, const double *b, int64_t cols,
                                int free_last, double *last);
/* A strip pass of the alignment search (cells/sw_strip.c, over letters already reversed): its
 * last row's h and f (cols each), its last column's h (rows), the best h and its cell. */
typedef struct pw_strip_out {
    int32_t *last_h, *last_f, *col_h;
    int32_t best;
    int64_t best_i, best_j;
} pw_strip_out;
pw_status pw_align_gpu_sw_strip_pass(pw_align_gpu *gpu, const uint8_t *a, int64_t rows, const uint8_t *b,
                                     int64_t cols, int32_t tb, pw_strip_out *out);
/* The GPU passes' run information, summed (cells, seconds); backend CUDA when any ran. */
void pw_align_gpu_info(const pw_align_gpu *gpu, pw_run_info *info);
void pw_align_gpu_close(pw_align_gpu *gpu);

#endif
