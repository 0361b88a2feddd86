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
    pw_trace_buffer *b = &tr->workers[worker];
    if (b->count == b->capacity) {
        int64_t cap = b->capacity ? 2 * b->capacity : 256;
        pw_trace_record *grown = realloc(b->records, sizeof *grown * (size_t)cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->records = grown;
        b->capacity = cap;
    }
    pw_trace_record *rec = &b->records[b->count++];
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
    int failed = 0;
    for (int w = 0; w < tr->n_workers; w++) {
        pw_trace_buffer *b = &tr->workers[w];
        for (int64_t k = 0; k < b->count; k++) sink(user, &b->records[k]);
        failed |= b->failed;
        free(b->records);
    }
    free(tr->workers);
    tr->workers = NULL;
    return failed ? PW_ERR_OUT_OF_MEMORY : PW_OK;
}
