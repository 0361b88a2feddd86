/* cli_autowidth.h - what `--tile-w auto|model` did, in the report.  The choice itself is the
 * library's (pw_options.width_model, src/core/auto_width.h): the fit from the wisdom file, or a
 * training run on the top-left corner of the input. */
#ifndef PW_CLI_AUTOWIDTH_H
#define PW_CLI_AUTOWIDTH_H

#include "cli.h"

/* tile_w_source, and when the model chose: wisdom, training_s, training_corner, model_d_s,
 * model_tau_s_s (the same --tsv columns whatever the source: cli_absent). */
void cli_detail_autowidth(cli_report *r, const pw_run_info *info);

#endif
