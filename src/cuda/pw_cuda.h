/*
 * pw_cuda.h - the C interface between the apps and the CUDA runtime (built only with nvcc).
 * The plain functions take host pointers, copy to the device, run the plan's strategy and copy
 * results back; the _device ones take device pointers and check/prepare their input on the
 * device.  All work is ordered on plan->stream and finished when they return; every CUDA failure
 * becomes a pw_status (PW_ERR_CUDA, PW_ERR_NO_DEVICE, PW_ERR_OUT_OF_MEMORY, PW_ERR_TIMEOUT), never
 * an exit.
 */
#ifndef PW_CUDA_H
#define PW_CUDA_H

#include <stddef.h>
#include <stdint.h>
#include "../core/plan.h"
#include "peerwave_tasks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PW_OK if `device` exists and can run kernels; PW_ERR_NO_DEVICE otherwise. */
pw_status pw_cuda_probe(int device);

/* A stream of its own on `device` (non-blocking) for work that runs beside other work: the
 * alignment passes (src/align/gpu_passes.c).  Destroying NULL does nothing. */
pw_status pw_cuda_stream_create(int device, void **stream);
void pw_cuda_stream_destroy(void *stream);

/* "cuda:<name>:<n> SMs" of `device` into buf (truncated to size), for wisdom keys. */
pw_status pw_cuda_describe(int device, char *buf, size_t size);
/* `device`'s PCI bus id ("0000:1b:00.0") into buf: which GPU it is, whatever the process's
 * CUDA_VISIBLE_DEVICES numbering (pw_comm_set_turns: ranks that share a GPU). */
pw_status pw_cuda_bus_id(int device, char *buf, size_t size);

/* Breadth-first levels on `device` (pw_bfs's CUDA backend; the graph already checked):
 * PW_BFS_TASKS / PW_BFS_TASKS_CENTRAL on the task engine, PW_BFS_LEVELS a launch a level. */
pw_status pw_cuda_bfs(const pw_graph *g, int64_t source, pw_bfs_engine engine, int device, long long watchdog_ns,
                      int32_t *level, pw_bfs_info *info);

/* Largest rows per tile (threads per block) the CUDA engine accepts. */
#define PW_CUDA_MAX_TILE_H 1024

/* Would pw_cuda_sw run this pair on the warp-rows engine (src/cuda/sw_warp_rows.cu), which uses
 * no tile width?  (pw_sw then trains no width model first.)  0 where it would not, or the GPU is
 * not there to ask. */
int pw_cuda_sw_rows_takes(const pw_plan *plan, int64_t n, int64_t m, const int32_t *scores, int alphabet,
                          int32_t gap_open, int32_t gap_extend);

/* pw_cuda_sw's warp-rows engine over `gpus` GPUs of one kind (devices; one named twice runs two
 * kernels side by side, when the plan's block cap lets both fit), rounds of warps dealt out
 * (sw_warp_rows_gpus.cu): a and b encoded, on the host.  PW_ERR_UNSUPPORTED (nothing run) where
 * the engine would not take the pair on one of them, or the GPUs cannot reach each other. */
pw_status pw_cuda_sw_warp_rows_gpus(const pw_plan *plan, const int *devices, int gpus, const uint8_t *a, int64_t n,
                                    const uint8_t *b, int64_t m, const int32_t *scores, int alphabet,
                                    int32_t gap_open, int32_t gap_extend, int32_t *score, int64_t *end_a,
                                    int64_t *end_b, pw_run_info *info);

pw_status pw_cuda_sw(const pw_plan *plan, const uint8_t *a, int64_t n,
                     const uint8_t *b, int64_t m, const int32_t *scores, int alphabet,
                     int32_t gap_open, int32_t gap_extend, int32_t *score, int64_t *end_a,
                     int64_t *end_b, pw_run_info *info);

pw_status pw_cuda_dtw_f32(const pw_plan *plan, const float *a, int64_t n,
                          const float *b, int64_t m, int squared, double *distance,
                          pw_run_info *info);
pw_status pw_cuda_dtw_f64(const pw_plan *plan, const double *a, int64_t n,
                          const double *b, int64_t m, int squared, double *distance,
                          pw_run_info *info);

/* The warping-path search's DTW (src/align/dtw_strips.c), in double (f32: float costs of the
 * samples, summed in double).  series: a, b, a reversed, b reversed (2 (n + m) values), kept on
 * the device.  pw_cuda_dtw_rows computes D over a x b, saving rows every - 1, 2 every - 1, ...
 * below n - 1 (PW_ERR_UNSUPPORTED when `every` is not a multiple of the tile height chosen).  These
 * and pw_cuda_sw_rows set *store_failed (when not NULL) where the store itself did not fit. */
typedef struct pw_cuda_rows pw_cuda_rows;
pw_status pw_cuda_dtw_rows(const pw_plan *plan, const double *series, int64_t n, int64_t m, int squared, int f32,
                           int64_t every, pw_cuda_rows **rows, double *distance, pw_run_info *info,
                           int *store_failed);
/* out[0 .. count) = saved row k's values at columns j0 .. j0 + count. */
pw_status pw_cuda_rows_read(const pw_cuda_rows *rows, int64_t k, int64_t j0, int64_t count, double *out);
/* Per saved row, its least value (host memory, owned by rows). */
const double *pw_cuda_rows_min(const pw_cuda_rows *rows);
/* A pass over rows [r0, r0 + nrows) x columns [c0, c0 + ncols) of the series (reversed ones
 * when `reversed`), from D(-1, -1) = 0: its last row into last (host); free_last: the last
 * column's cells cost 0 (dtw_path.h). */
pw_status pw_cuda_rows_pass(const pw_plan *plan, const pw_cuda_rows *rows, int reversed, int64_t r0, int64_t nrows,
                            int64_t c0, int64_t ncols, int free_last, double *last);
void pw_cuda_rows_free(pw_cuda_rows *rows);

/* The alignment search's score pass (src/align/sw_strips.c): pw_cuda_sw's run over encoded a x b,
 * also keeping H and F (the vertical-gap state) of rows every - 1, 2 every - 1, ... below n - 1 on
 * the device (PW_ERR_UNSUPPORTED when `every` is not a multiple of the tile height chosen). */
#define PW_CUDA_SW_CHUNK 1024
typedef struct pw_cuda_sw_store pw_cuda_sw_store;
pw_status pw_cuda_sw_rows(const pw_plan *plan, const uint8_t *a, int64_t n, const uint8_t *b, int64_t m,
                          const int32_t *scores, int alphabet, int32_t gap_open, int32_t gap_extend, int64_t every,
                          pw_cuda_sw_store **rows, int32_t *score, int64_t *end_a, int64_t *end_b,
                          pw_run_info *info, int *store_failed);
/* h, f [0 .. count) = saved row k's H and F at columns j0 .. j0 + count (f may be NULL). */
pw_status pw_cuda_sw_store_read(const pw_cuda_sw_store *rows, int64_t k, int64_t j0, int64_t count, int32_t *h,
                               int32_t *f);
/* Per saved row k, the largest H of each PW_CUDA_SW_CHUNK columns, at k ceil(m / CHUNK) + c (host
 * memory, owned by rows). */
const int32_t *pw_cuda_sw_store_chunk_max(const pw_cuda_sw_store *rows);
void pw_cuda_sw_store_free(pw_cuda_sw_store *rows);

pw_status pw_cuda_sat(const pw_plan *plan, const pw_image *in, pw_image *out,
                      pw_run_info *info);

/* bin: rows x cols bin indices (-1 = none); out: bins planes. */
pw_status pw_cuda_inthist(const pw_plan *plan, const int32_t *bin, int64_t rows,
                          int64_t cols, int bins, int32_t *out, pw_run_info *info);

/* In place on grid (f32/f64), `sweeps` sweeps of heat (sor = 0) or SOR. */
pw_status pw_cuda_stencil(const pw_plan *plan, pw_image *grid, int64_t sweeps,
                          int sor, double omega, pw_run_info *info);

/* ---- device-pointer variants (arguments validated by apps/device_api.c) ---- */
pw_status pw_cuda_sat_device(const pw_plan *plan, const pw_image *in, pw_image *out, pw_run_info *info);
pw_status pw_cuda_inthist_device(const pw_plan *plan, const pw_image *in, int bins, double lo, double hi,
                                 int32_t *out, pw_run_info *info);
pw_status pw_cuda_stencil_device(const pw_plan *plan, pw_image *grid, int64_t sweeps, int sor, double omega,
                                 double *residual, pw_run_info *info);
/* code: letter -> score-table index (256 entries, 255 = refused), as pw_score_table.code. */
pw_status pw_cuda_sw_device(const pw_plan *plan, const char *a, int64_t n, const char *b, int64_t m,
                            const uint8_t *code, const int32_t *scores, int alphabet, int32_t gap_open,
                            int32_t gap_extend, int32_t *score, int64_t *end_a, int64_t *end_b,
                            pw_run_info *info);
pw_status pw_cuda_dtw_f32_device(const pw_plan *plan, const float *a, int64_t n, const float *b, int64_t m,
                                 int squared, double *distance, pw_run_info *info);
pw_status pw_cuda_dtw_f64_device(const pw_plan *plan, const double *a, int64_t n, const double *b, int64_t m,
                                 int squared, double *distance, pw_run_info *info);

#ifdef __cplusplus
}
#endif
#endif
