/* cli_autowidth.h - `--tile-w auto|model`: the tile width from the model (src/core/model.h),
 * fitted by a short training run on the top-left corner of the real input (model_train.h). */
#ifndef PW_CLI_AUTOWIDTH_H
#define PW_CLI_AUTOWIDTH_H

#include "../src/core/model_train.h"
#include "cli.h"

typedef struct cli_autowidth {
    const char *source; /* "given" (--tile-w N), "default" (the library's fixed width), "model" */
    pw_model_fit fit;   /* when source is "model" */
    const char *wisdom; /* when source is "model": "hit" (no training), "saved", "unsaved", "off" */
} cli_autowidth;

/* Before the main run, in the job: with --tile-w model, or auto (the default) on a problem of at
 * least PW_MODEL_TRAIN_MIN_CELLS cells, and the peer strategy with hyper tiles (the schedule the
 * model describes), set o->tile_w to the model's pick: with the fit remembered for `app` (its
 * kind and types, e.g. "sat-u8-i32") on this machine in the wisdom file (src/core/wisdom.h,
 * --wisdom), else trained on the corner through fn and then remembered.  c == NULL (reference
 * runs) leaves o alone. */
pw_status cli_auto_width(const cli_common *c, const char *app, pw_options *o, pw_corner_fn fn, void *ctx,
                         int64_t rows, int64_t cols, cli_autowidth *aw);

/* tile_w_source, and the training's figures when the model chose. */
void cli_detail_autowidth(cli_report *r, const cli_autowidth *aw);

#endif
