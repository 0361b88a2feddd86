/* checks.h - argument validation shared by the host and the device-pointer entry points, so both
 * accept and refuse exactly the same calls. */
#ifndef PW_CHECKS_H
#define PW_CHECKS_H

#include "peerwave.h"
#include "scoring.h"

pw_status pw_sat_check(const pw_image *in, const pw_image *out);
/* The largest sum of |x| a float summed-area table of type out (f32, f64) is sure to hold: half
 * the type's range (room for the rounding of the sums in the type's own arithmetic). */
double pw_sat_float_sum_limit(pw_dtype out);
pw_status pw_inthist_check(const pw_image *in, int bins, double lo, double hi, const int32_t *out);
pw_status pw_stencil_check(const pw_image *grid, int64_t sweeps);
/* SOR's omega in (0, 2): PW_ERR_INVALID_ARGUMENT with the detail otherwise. */
pw_status pw_sor_omega_check(double omega);
/* A host grid's values: finite, and at most a quarter of the type's largest (PW_ERR_BAD_INPUT,
 * PW_ERR_OVERFLOW, with the cell in the detail); a distributed band checks its own, its column 0
 * being the whole grid's col0 (the detail names the cell in the whole grid). */
pw_status pw_stencil_values_check(const pw_image *grid, int64_t col0);
/* st, or PW_ERR_OVERFLOW (with its detail) when a successful run's residual is not finite. */
pw_status pw_stencil_residual_check(pw_status st, const double *residual);

/* The residual pw_heat and pw_sor report, of a grid in host memory, in the one order every engine
 * and device keeps (stencil_cell.h), the rows on several threads. */
double pw_stencil_residual(const pw_image *grid);
/* Its parts (stencil_cell.h): sums[i] (interior row i) continued over the interior columns. */
void pw_stencil_residual_sums(const pw_image *grid, double *sums);

/* HEAT/SOR on CUDA: the tile height when the caller leaves it to us.  The warp processor
 * (src/cuda/device/stencil_warp_proc.cuh) measured best at 32-64 on the H100 (8215477, 16384^2,
 * w = 1024, one sweep: h = 32 / 64 / 128: 3.92 / 3.80 / 6.83 ms; 8 pipelined sweeps, h = 32 /
 * 64: 11.5 / 12.8 ms). */
#define PW_STENCIL_CUDA_TILE_H 64
/* SW and DTW on CUDA, likewise: the warp processor (src/cuda/device/warp_proc.cuh) at h = 64 / 128
 * / 256 on the H200 (PW+HT, w = 128): SW 65536^2 33.0 / 45.4 / 67.7 ms, 262144^2 191 / 276 / 387;
 * DTW 23.3 / 26.0 / 45.2 and 109 / 135 / 196 (d923e16). */
#define PW_LINEAR_CUDA_TILE_H 64
/* SW with many rows, at the model's (wide) tiles, is faster at h = 128 (R = 4 rows a thread: more
 * cells a step between hand-overs) once there are enough tile-rows for every worker; at 65536 rows
 * there are not.  H200, 2026-11-28 (kernel seconds, h = 64 -> 128, model widths): M. leprae x M.
 * tuberculosis 1/-3/5/2 16.27 -> 12.33 s (11.70 at w = 4096), random DNA 262144^2 linear gap
 * 85.8 -> 79.2 ms (73.2 at w = 1024), 65536^2 13.2 -> 15.7 ms.  DTW stays at 64 (262144^2 51.5
 * against 70-79 ms). */
#define PW_SW_TALL_CUDA_TILE_H 128
#define PW_SW_TALL_ROWS 262144
/* Also builds the score table. */
pw_status pw_sw_check(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                      const void *result, pw_score_table *table);
pw_status pw_dtw_check(const void *a, int64_t n, const void *b, int64_t m, pw_dtw_cost cost, const void *result);

#endif
