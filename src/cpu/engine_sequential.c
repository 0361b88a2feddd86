/* engine_sequential.c - the plain loop nest: the reference every other engine is checked
 * against.  Rows in order, each row whole, one thread. */
#include "cpu_engines.h"

pw_status pw_cpu_sequential(const pw_plan *plan, const pw_kernel *kernel, pw_cpu_monitor *monitor)
{
    const pw_tiling *t = &plan->tiling; /* one lane a tile-row, one tile a row */
    for (int64_t i = 0; i < t->rows; i++) {
        kernel->segment(kernel->ctx, i, 0, t->cols, 0);
        if (pw_cpu_monitor_tiles(monitor, pw_tiling_end_tile(t, i) - pw_tiling_first_tile(t, i))) break;
    }
    return PW_OK;
}
