/*
 * tile_trace.h - per-worker recording of tile timings for the trace sink.
 *
 * Each worker appends to its own growable array (no sharing, no locks); after the sweep the
 * records are handed to the user's sink from the calling thread.  With no sink nothing is
 * allocated and the engines skip the clock reads.
 */
#ifndef PW_TILE_TRACE_H
#define PW_TILE_TRACE_H

#include "../core/trace_hold.h"

typedef struct pw_tile_trace {
    pw_trace_buffer *workers; /* one per worker, NULL when tracing is off */
    int n_workers;
    int64_t origin_ns;
} pw_tile_trace;

/* Prepare for n_workers; off (and PW_OK) when sink is NULL. */
pw_status pw_tile_trace_open(pw_tile_trace *tr, int n_workers, pw_trace_fn sink);

void pw_tile_trace_add(pw_tile_trace *tr, int worker, int64_t tile_row, int64_t tile_col,
                       int64_t wait_ns, int64_t start_ns, int64_t end_ns);

/* Deliver every record to sink, free the buffers; PW_ERR_OUT_OF_MEMORY if records were lost. */
pw_status pw_tile_trace_close(pw_tile_trace *tr, pw_trace_fn sink, void *user);

#endif
