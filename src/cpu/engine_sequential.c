/* engine_sequential.c - the plain loop nest: the reference every other engine is checked
 * against.  Rows in order, each row whole, one thread. */
#include "cpu_engines.h"

pw_status pw_cpu_sequential(const pw_plan *plan, const pw_kernel *kernel)
{
    const pw_tiling *t = &plan->tiling;
    for (int64_t i = 0; i < t->rows; i++) kernel->segment(kernel->ctx, i, 0, t->cols, 0);
    return PW_OK;
}
