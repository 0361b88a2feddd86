/* batch_progress.c - progress and cancel over a whole batch run (batch_progress.h). */
#include "batch_progress.h"

void pw_batch_progress_init(pw_batch_progress *p, const pw_options *options, int64_t cells)
{
    p->done = 0;
    p->stop = 0;
    pw_monitor_init(&p->monitor, &p->state, options, cells > 0 ? cells : 1);
}

static int64_t cells_done(const void *ctx)
{
    return __atomic_load_n(&((const pw_batch_progress *)ctx)->done, __ATOMIC_RELAXED);
}

int pw_batch_progress_add(pw_batch_progress *p, int64_t cells)
{
    if (!p) return 0;
    __atomic_fetch_add(&p->done, cells, __ATOMIC_RELAXED);
    if (!pw_monitor_on(&p->monitor)) return 0;
    if (pw_monitor_tick(&p->monitor, cells_done, p, NULL)) __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
    return pw_batch_progress_stopped(p);
}

int pw_batch_progress_stopped(pw_batch_progress *p)
{
    if (!p) return 0;
    if (pw_monitor_cancel_set(&p->monitor)) __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
    return __atomic_load_n(&p->stop, __ATOMIC_RELAXED);
}

pw_status pw_batch_progress_finish(pw_batch_progress *p, pw_status st)
{
    if (st != PW_OK || !p) return st;
    /* a stop asked for while the last group ran: the caller said stop, the run says cancelled */
    if (pw_batch_progress_stopped(p)) return PW_ERR_CANCELLED;
    if (p->monitor.fn) pw_monitor_finish(&p->monitor, p->monitor.cells, NULL);
    return PW_OK;
}
