/* auto_width.c - see auto_width.h. */
#include <stdio.h>
#include <string.h>

#include "auto_width.h"
#include "../cuda/kernel_desc.h"
#include "plan.h"
#include "wisdom.h"

#define PW_DEFAULT_TRAIN_RATIO 0.1
#define PW_CHUNKED_MIN_TILES 16 /* tiles a tile-row at least under the CHUNKED model (below) */

int pw_width_from_model(const pw_options *o, int64_t rows, int64_t cols)
{
    if (rows < 1 || cols < 1) return 0;
    if (o->tile_w != 0 || o->width_model < 0) return 0;
    if (o->strategy != PW_STRATEGY_PEER || o->shape != PW_TILE_HYPER) return 0; /* what the model describes */
    return o->width_model > 0 || (double)rows * (double)cols >= (double)PW_MODEL_TRAIN_MIN_CELLS;
}

/* Fill o->tile_w from the wisdom file or a training run, and info's width fields. */
static pw_status choose(const char *app, pw_options *o, int cuda_tile_h, pw_corner_fn run, void *ctx, int64_t rows,
                        int64_t cols, pw_run_info *w)
{
    pw_plan plan;
    pw_status st = pw_plan_make_app(o, rows, cols, 0, cuda_tile_h, &plan);
    if (st != PW_OK) return st;
    /* The corners run at the h the whole run will have (the app's CUDA h, or the CPU plan's for
     * the full row count): with h pinned in the options, the fit describes the tiles that run,
     * and the wisdom key (which names h) finds it again. */
    o->tile_h = (int)plan.tiling.h;
    char buf[4096], key[PW_WISDOM_KEY_MAX];
    const char *path = o->wisdom ? (strcmp(o->wisdom, "none") ? o->wisdom : NULL) : pw_wisdom_default_path(buf, sizeof buf);
    if (path && pw_wisdom_key(app, &plan, key, sizeof key) != PW_OK) path = NULL;
    /* The model's kind: a processor that waits for the row above inside its tiles, a chunk at a
     * time (the GPU's for every app by default), lets a tile-row follow about h + chunk steps
     * behind whatever the width (CHUNKED); one that waits once a tile, a whole tile behind
     * (TILED).  TILED on the GPU picked 183 for SW at 262144^2, h = 128, from a noisy fit: 132 ms
     * against 86-90 at 512-2048 on an H200 (docs/PERFORMANCE.md, session 10).  Its fits are
     * remembered apart (the key names the chunk). */
    const double chunk = pw_app_waits_in_chunks(app, &plan) ? PW_CHUNK_STEPS : 0;
    if (path && chunk > 0) {
        const size_t used = strlen(key);
        if (snprintf(key + used, sizeof key - used, "|chunk=%d", (int)chunk) >= (int)(sizeof key - used)) path = NULL;
    }
    pw_model_fit fit;
    w->wisdom = PW_WISDOM_OFF;
    if (path && pw_wisdom_find(path, key, &fit)) {
        w->wisdom = PW_WISDOM_HIT;
        fit.h = plan.tiling.h;
    } else {
        const double ratio = o->train_ratio > 0 ? o->train_ratio : PW_DEFAULT_TRAIN_RATIO;
        pw_options to = *o;
        to.width_model = -1; /* (run never chooses anyway; this keeps a nested call from it) */
        double seconds = 0;
        /* One run a width; a TILED fit kept at the floor (a sample thrown by a busy machine: on a
         * loaded 2-core CI machine 8 trainings in a row on tiny corners) is measured again with
         * the median of three runs a width before it picks the width and is remembered.  (Not a
         * CHUNKED fit: there a per-tile cost too small to see lands at the floor by itself, and
         * every first run would train four times over.) */
        for (int runs = 1; runs <= 3; runs += 2) {
            st = pw_model_train(run, ctx, rows, cols, 0, ratio, &to, runs, &fit);
            if (st != PW_OK) return st;
            if (chunk > 0) pw_model_fit_kind(&fit, PW_MODEL_CHUNKED, chunk, &fit.d, &fit.tau_s);
            seconds += fit.seconds;
            if (chunk > 0 || !pw_model_fit_clamped(fit.d, fit.tau_s)) break;
        }
        fit.seconds = seconds;
        w->training_seconds = fit.seconds;
        w->training_rows = fit.corner_rows;
        w->training_cols = fit.corner_cols;
        if (path) w->wisdom = pw_wisdom_save(path, key, &fit) == 0 ? PW_WISDOM_SAVED : PW_WISDOM_UNSAVED;
    }
    w->model_d_s = fit.d;
    w->model_tau_s = fit.tau_s;
    o->tile_w = pw_auto_width_pick(&fit, chunk, rows, cols);
    return PW_OK;
}

int64_t pw_auto_width_pick(const pw_model_fit *fit, double chunk, int64_t rows, int64_t cols)
{
    const pw_model_kind kind = chunk > 0 ? PW_MODEL_CHUNKED : PW_MODEL_TILED;
    pw_model_params m = pw_model_fit_params(fit, rows, cols);
    m.chunk = chunk;
    /* CHUNKED's time falls with the width, so it would take whole rows; a tile-row keeps 16 tiles
     * or more instead: the progress hook counts finished tiles, and a whole-row tile reports a
     * run whose tile-rows are all resident only at its end.  Widths from 2048 up measured alike
     * (SW 262144^2, h = 64, H200: 4096 81.9 ms, whole row 82.8). */
    const int64_t most = kind == PW_MODEL_CHUNKED ? (cols + PW_CHUNKED_MIN_TILES - 1) / PW_CHUNKED_MIN_TILES : cols + fit->h;
    return pw_model_best_width(&m, kind, most > 0 ? most : 1);
}

pw_status pw_choose_width(const char *app, pw_options *options, int cuda_tile_h, pw_corner_fn run, void *ctx,
                          int64_t rows, int64_t cols, pw_run_info *info)
{
    pw_status st = pw_options_check(options);
    if (st != PW_OK) return st;
    memset(info, 0, sizeof *info);
    info->width_source = options->tile_w ? PW_WIDTH_GIVEN : PW_WIDTH_DEFAULT;
    if (!pw_width_from_model(options, rows, cols)) return PW_OK;
    pw_options chooser = *options;
    chooser.progress = NULL; /* the corner runs are not the run the caller watches */
    st = choose(app, &chooser, cuda_tile_h, run, ctx, rows, cols, info);
    if (st != PW_OK) return st;
    options->tile_w = chooser.tile_w;
    info->width_source = PW_WIDTH_MODEL;
    return PW_OK;
}

void pw_width_info_copy(const pw_run_info *from, pw_run_info *to)
{
    to->width_source = from->width_source;
    to->wisdom = from->wisdom;
    to->training_seconds = from->training_seconds;
    to->training_rows = from->training_rows;
    to->training_cols = from->training_cols;
    to->model_d_s = from->model_d_s;
    to->model_tau_s = from->model_tau_s;
}

pw_status pw_run_with_width(const char *app, const pw_options *options, int cuda_tile_h, pw_corner_fn run, void *ctx,
                            int64_t rows, int64_t cols, pw_run_info *info)
{
    pw_options o = pw_options_or_defaults(options);
    pw_run_info w;
    pw_status st = pw_choose_width(app, &o, cuda_tile_h, run, ctx, rows, cols, &w);
    if (st != PW_OK) return st;
    pw_run_info local;
    if (!info) info = &local;
    st = run(ctx, rows, cols, &o, info);
    pw_width_info_copy(&w, info);
    return st;
}
