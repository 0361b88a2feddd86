/*
 * band_apps.h - the applications run on one band of columns of a distributed run (src/dist/,
 * core/band.h): the same cells and engines, with the band's first column fed by the link and its
 * last column handed on.  The arguments are the band's share (b's letters or series, the image's
 * columns); results are band-local (the caller adds the band's first column).
 */
#ifndef PW_BAND_APPS_H
#define PW_BAND_APPS_H

#include "peerwave.h"
#include "../src/core/band.h"

pw_status pw_sw_band(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                     const pw_options *options, const pw_band *band, pw_sw_result *result);
pw_status pw_dtw_band_f32(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, const pw_band *band, pw_dtw_result *result);
pw_status pw_dtw_band_f64(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                          const pw_options *options, const pw_band *band, pw_dtw_result *result);
/* The tiles of an SW or DTW band when the caller leaves them to us (tile_w 0), chosen before the
 * band's link starts (the neighbours would wait on a band that trains): options->tile_w from the
 * width model, whose training corners are plain runs of the band's own inputs on this rank's device
 * (or the wisdom file), and for SW on CUDA options->tile_h as pw_sw would take it (0 before);
 * width: the width fields for the band's result (pw_width_info_copy). */
pw_status pw_sw_band_tiles(const char *a, int64_t n, const char *b, int64_t m, const pw_sw_params *params,
                           pw_backend backend, pw_options *options, pw_run_info *width);
pw_status pw_dtw_band_tiles_f32(const float *a, int64_t n, const float *b, int64_t m, pw_dtw_cost cost,
                                pw_options *options, pw_run_info *width);
pw_status pw_dtw_band_tiles_f64(const double *a, int64_t n, const double *b, int64_t m, pw_dtw_cost cost,
                                pw_options *options, pw_run_info *width);
pw_status pw_sat_band(const pw_image *in, pw_image *out, const pw_options *options, const pw_band *band,
                      pw_run_info *info);
pw_status pw_inthist_band(const pw_image *in, int bins, double lo, double hi, int32_t *out,
                          const pw_options *options, const pw_band *band, pw_run_info *info);
/* HEAT (sor 0) and SOR: grid is the band's columns with a halo column each side; no residual
 * (the distributed caller sums it across the bands). */
pw_status pw_stencil_band(pw_image *grid, int64_t sweeps, int sor, double omega, const pw_options *options,
                          const pw_band *band, pw_run_info *info);
/* A user recurrence (pw_run, linear storage only, on the CPU): p's cols are the band's, and its
 * callbacks get the whole problem's column j (band->col0 added); band NULL: pw_run. */
pw_status pw_run_band(const pw_problem *p, const pw_options *options, const pw_band *band, pw_run_info *info);

#endif
