/* cli_autowidth.c - see cli_autowidth.h. */
#include <inttypes.h>
#include <string.h>

#include "../src/core/plan.h"
#include "../src/core/wisdom.h"
#include "cli_autowidth.h"

/* The wisdom file of this run: --wisdom, else the default (NULL: none). */
static const char *wisdom_path(const cli_common *c, char *buf, size_t size)
{
    if (c->wisdom_path) return strcmp(c->wisdom_path, "none") ? c->wisdom_path : NULL;
    return pw_wisdom_default_path(buf, size);
}

pw_status cli_auto_width(const cli_common *c, const char *app, pw_options *o, pw_corner_fn fn, void *ctx,
                         int64_t rows, int64_t cols, cli_autowidth *aw)
{
    aw->source = "default";
    if (!c) return PW_OK;
    if (c->tile_w_mode == CLI_TILE_W_GIVEN) {
        aw->source = "given";
        return PW_OK;
    }
    if (o->strategy != PW_STRATEGY_PEER || o->shape != PW_TILE_HYPER) return PW_OK;
    if (c->tile_w_mode == CLI_TILE_W_AUTO && (double)rows * (double)cols < (double)PW_MODEL_TRAIN_MIN_CELLS) return PW_OK;
    char buf[4096], key[PW_WISDOM_KEY_MAX];
    const char *path = wisdom_path(c, buf, sizeof buf);
    pw_plan plan;
    pw_status st = pw_plan_make(o, rows, cols, 0, &plan);
    if (st != PW_OK) return st;
    if (path && pw_wisdom_key(app, &plan, key, sizeof key) != PW_OK) path = NULL;
    aw->source = "model";
    aw->wisdom = "off";
    if (path && pw_wisdom_find(path, key, &aw->fit)) {
        aw->wisdom = "hit";
        aw->fit.h = plan.tiling.h;
        aw->fit.corner_rows = aw->fit.corner_cols = 0;
        aw->fit.widths_used = 0;
        aw->fit.seconds = 0;
    } else {
        st = pw_model_train(fn, ctx, rows, cols, 0, c->train_ratio, o, 1, &aw->fit);
        if (st != PW_OK) return st;
        if (path) aw->wisdom = pw_wisdom_save(path, key, &aw->fit) == 0 ? "saved" : "unsaved";
    }
    o->tile_w = pw_model_fit_width(&aw->fit, rows, cols, PW_MODEL_TILED);
    return PW_OK;
}

void cli_detail_autowidth(cli_report *r, const cli_autowidth *aw)
{
    cli_detail(r, "tile_w_source", "%s", aw->source ? aw->source : "default");
    if (!aw->source || aw->source[0] != 'm') { /* no model: the same --tsv columns, absent */
        static const char *const keys[] = {"wisdom", "training_s", "training_corner", "model_d_s", "model_tau_s_s"};
        for (int k = 0; k < 5; k++) cli_absent(r, 1, keys[k]);
        return;
    }
    cli_detail(r, "wisdom", "%s", aw->wisdom);
    cli_detail(r, "training_s", "%.6f", aw->fit.seconds);
    if (aw->fit.corner_rows) cli_detail(r, "training_corner", "%" PRId64 "x%" PRId64, aw->fit.corner_rows, aw->fit.corner_cols);
    else cli_absent(r, 1, "training_corner");
    cli_detail(r, "model_d_s", "%.4g", aw->fit.d);
    cli_detail(r, "model_tau_s_s", "%.4g", aw->fit.tau_s);
}
