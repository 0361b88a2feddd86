/*
 * auto_width.h - tile_w = 0 means the tile-width model (pw_options.width_model): the six
 * applications' host functions run through pw_run_with_width, which picks the width (from the
 * wisdom file, or trained on the top-left corner of the input through the same run function)
 * and then runs the whole problem.  One rule for library callers and the CLI (--tile-w).
 */
#ifndef PW_AUTO_WIDTH_H
#define PW_AUTO_WIDTH_H

#include "model_train.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run `app`'s problem of rows x cols (cells the rule counts; skew 0) under `options`, the width
 * chosen as width_model says when tile_w is 0.  run(ctx, r, c, o, info) computes the top-left
 * r x c of the problem with options o as given (the corner runs, then the whole problem with
 * r, c = rows, cols), never choosing a width itself.  app names the kind of run in the wisdom
 * file ("sw", "sat-u8-i32" ...).  cuda_tile_h: the app's CUDA tile height when options leave h
 * to it (as for pw_plan_make_app; 0: the library's), so that the corners run at the whole run's
 * h.  info: the whole run's, with the width's source and training. */
pw_status pw_run_with_width(const char *app, const pw_options *options, int cuda_tile_h, pw_corner_fn run, void *ctx,
                            int64_t rows, int64_t cols, pw_run_info *info);

/* pw_run_with_width's choice without the whole run: options->tile_w becomes the model's width
 * where the model applies (else it stays), info gets the width fields (pw_width_info_copy).  For a
 * caller that runs the problem itself later, e.g. one band of a distributed run: its corners run
 * here as plain problems, before the band's link starts (src/dist/dist_apps.c). */
pw_status pw_choose_width(const char *app, pw_options *options, int cuda_tile_h, pw_corner_fn run, void *ctx,
                          int64_t rows, int64_t cols, pw_run_info *info);

/* The width the automatic rule takes from a fit (its d and tau_s those of the kind): the CHUNKED
 * model where chunk > 0 (the app's processor waits inside its tiles, that many steps at a time:
 * pw_app_waits_in_chunks), with 16 tiles a row at least, else the TILED one. */
int64_t pw_auto_width_pick(const pw_model_fit *fit, double chunk, int64_t rows, int64_t cols);

/* The width fields of a pw_run_info (source, wisdom, training, model) from one to another. */
void pw_width_info_copy(const pw_run_info *from, pw_run_info *to);

/* Will pw_run_with_width take the model's width for this problem?  (options already checked.) */
int pw_width_from_model(const pw_options *options, int64_t rows, int64_t cols);

#ifdef __cplusplus
}
#endif

#endif
