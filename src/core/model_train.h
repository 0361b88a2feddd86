/*
 * model_train.h - fitting the tile-width model (model.h) to the machine with a short training
 * run on a corner of the real input, and picking the width for the full run.
 *
 * The model's T(w) = K(w) (w d + tau_s), where K(w) depends only on the geometry (H, W, h, P),
 * so T / K is linear in w: timed corner runs at a few widths give d (slope) and tau_s
 * (intercept) by least squares.  Small widths are included because they make the per-tile
 * cost visible: on a CPU it is tiny next to a tile's work and a fit over wide tiles alone
 * lands it at or below zero.
 *
 * Knows nothing about applications: the caller passes a function that runs the rows x cols
 * top-left corner of its problem with given options (the CLI and the benchmarks do this).
 */
#ifndef PW_MODEL_TRAIN_H
#define PW_MODEL_TRAIN_H

#include "model.h"
#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the rows x cols corner with options o; fill info (kernel seconds in info->seconds). */
typedef pw_status (*pw_corner_fn)(void *ctx, int64_t rows, int64_t cols, const pw_options *o, pw_run_info *info);

#define PW_MODEL_SAMPLES 6 /* widths a training times at most */

typedef struct pw_model_fit {
    double d, tau_s;        /* fitted seconds per diagonal step and per hand-off (TILED's) */
    int64_t h;              /* tile height of the full problem (the training used it too) */
    int workers_available;  /* threads or resident blocks the engine can use */
    int64_t corner_rows, corner_cols;
    int widths_used;
    double seconds;         /* wall time of all training runs, warm-up included */
    /* the timed runs, for fitting another kind (pw_model_fit_kind): the corner's geometry as
     * each run had it (d and tau_s unused), its width and its median seconds */
    pw_model_params sample_unit[PW_MODEL_SAMPLES];
    double sample_w[PW_MODEL_SAMPLES], sample_t[PW_MODEL_SAMPLES];
} pw_model_fit;

/* Smallest problem (cells) for which the automatic width trains: below it the fixed default
 * width is used, since the training would cost more than a better width can save. */
#define PW_MODEL_TRAIN_MIN_CELLS (1LL << 26)

/* Train on the corner of a rows x cols problem (skew as for pw_plan_make) of `ratio` of its rows
 * and of its columns, timing `runs` runs per width (median) after one warm-up run.  Options o
 * as for the full run (tile_w is ignored). */
pw_status pw_model_train(pw_corner_fn fn, void *ctx, int64_t rows, int64_t cols, int skew, double ratio,
                         const pw_options *o, int runs, pw_model_fit *fit);

/* d and tau_s of the model of `kind` (chunk: CHUNKED's, else 0) by least squares over the
 * training's samples: T = K(w) (w d + tau_s) with K the kind's, so T / K is linear in w.  A fit
 * at or below zero is kept just above it (the model stays defined). */
void pw_model_fit_kind(const pw_model_fit *fit, pw_model_kind kind, double chunk, double *d, double *tau_s);
#define PW_MODEL_FIT_FLOOR 1e-12 /* where pw_model_fit_kind keeps a d or tau_s that fell to zero or below */
/* 1 when d or tau_s was kept at the floor: the samples did not fit the model (a busy machine) */
int pw_model_fit_clamped(double d, double tau_s);

/* The model's parameters for the full rows x cols problem, with the fit's d and tau_s (TILED's)
 * and chunk 0: a CHUNKED model takes pw_model_fit_kind's d and tau_s and sets chunk itself
 * (as peerwave tune does), and pw_model_fit_width is for the other kinds. */
pw_model_params pw_model_fit_params(const pw_model_fit *fit, int64_t rows, int64_t cols);

/* The width the model of the given kind picks for the full problem (auto width: TILED). */
int64_t pw_model_fit_width(const pw_model_fit *fit, int64_t rows, int64_t cols, pw_model_kind kind);

#ifdef __cplusplus
}
#endif
#endif
