/* tile_trace.c - see tile_trace.h. */
#include <stdlib.h>

#include "team.h"
#include "tile_trace.h"
#include "../core/alloc.h"

pw_status pw_tile_trace_open(pw_tile_trace *tr, int n_workers, pw_trace_fn sink)
{
    tr->workers = NULL;
    tr->n_workers = n_workers;
    tr->origin_ns = pw_now_ns();
    if (!sink) return PW_OK;
    tr->workers = pw_calloc((size_t)n_workers, sizeof *tr->workers);
    return tr->workers ? PW_OK : PW_ERR_OUT_OF_MEMORY;
}

void pw_tile_trace_add(pw_tile_trace *tr, int worker, int64_t tile_row, int64_t tile_col,
                       int64_t wait_ns, int64_t start_ns, int64_t end_ns)
{
    pw_trace_record *rec = pw_trace_buffer_append(&tr->workers[worker]);
    if (!rec) return;
    rec->worker = worker;
    rec->tile_row = tile_row;
    rec->tile_col = tile_col;
    rec->wait_ns = wait_ns - tr->origin_ns;
    rec->start_ns = start_ns - tr->origin_ns;
    rec->end_ns = end_ns - tr->origin_ns;
}

pw_status pw_tile_trace_close(pw_tile_trace *tr, pw_trace_fn sink, void *user)
{
    if (!tr->workers) return PW_OK;
    pw_status st = PW_OK;
    for (int w = 0; w < tr->n_workers; w++) {
        const pw_status wst = pw_trace_buffer_release(&tr->workers[w], sink, user);
        if (st == PW_OK) st = wst;
    }
    free(tr->workers);
    tr->workers = NULL;
    return st;
}
