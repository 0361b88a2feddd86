/* cli_autowidth.c - see cli_autowidth.h. */
#include <inttypes.h>

#include "cli_autowidth.h"

pw_status cli_auto_width(const cli_common *c, pw_options *o, pw_corner_fn fn, void *ctx, int64_t rows, int64_t cols,
                         cli_autowidth *aw)
{
    aw->source = "default";
    if (!c) return PW_OK;
    if (c->tile_w_mode == CLI_TILE_W_GIVEN) {
        aw->source = "given";
        return PW_OK;
    }
    if (o->strategy != PW_STRATEGY_PEER || o->shape != PW_TILE_HYPER) return PW_OK;
    if (c->tile_w_mode == CLI_TILE_W_AUTO && (double)rows * (double)cols < (double)PW_MODEL_TRAIN_MIN_CELLS) return PW_OK;
    pw_status st = pw_model_train(fn, ctx, rows, cols, 0, c->train_ratio, o, 1, &aw->fit);
    if (st != PW_OK) return st;
    o->tile_w = pw_model_fit_width(&aw->fit, rows, cols, PW_MODEL_TILED);
    aw->source = "model";
    return PW_OK;
}

void cli_detail_autowidth(cli_report *r, const cli_autowidth *aw)
{
    cli_detail(r, "tile_w_source", "%s", aw->source ? aw->source : "default");
    if (!aw->source || aw->source[0] != 'm') return;
    cli_detail(r, "training_s", "%.6f", aw->fit.seconds);
    cli_detail(r, "training_corner", "%" PRId64 "x%" PRId64, aw->fit.corner_rows, aw->fit.corner_cols);
    cli_detail(r, "model_d_s", "%.4g", aw->fit.d);
    cli_detail(r, "model_tau_s_s", "%.4g", aw->fit.tau_s);
}
