/* cli_autowidth.c - see cli_autowidth.h. */
#include <inttypes.h>

#include "cli_autowidth.h"

void cli_detail_autowidth(cli_report *r, const pw_run_info *info)
{
    static const char *const sources[] = {"default", "given", "model"};
    static const char *const wisdom[] = {"off", "hit", "saved", "unsaved"};
    cli_detail(r, "tile_w_source", "%s", sources[info->width_source]);
    if (info->width_source != PW_WIDTH_MODEL) { /* no model: the same --tsv columns, absent */
        static const char *const keys[] = {"wisdom", "training_s", "training_corner", "model_d_s", "model_tau_s_s"};
        for (int k = 0; k < 5; k++) cli_absent(r, 1, keys[k]);
        return;
    }
    cli_detail(r, "wisdom", "%s", wisdom[info->wisdom]);
    cli_detail(r, "training_s", "%.6f", info->training_seconds);
    if (info->training_rows)
        cli_detail(r, "training_corner", "%" PRId64 "x%" PRId64, info->training_rows, info->training_cols);
    else cli_absent(r, 1, "training_corner");
    cli_detail(r, "model_d_s", "%.4g", info->model_d_s);
    cli_detail(r, "model_tau_s_s", "%.4g", info->model_tau_s);
}
