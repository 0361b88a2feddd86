/*
 * trace_hold.h - tile records kept in memory before they reach the user's trace sink: the CPU
 * engines' per-worker buffers (cpu/tile_trace.h), and a run whose result may be thrown away (a
 * grid3 cell's pipelined sweeps that read past their reach run again: jit/cell_cpu.c,
 * cuda/user_cells.cu), whose tiles the sink should get only if it stands.
 */
#ifndef PW_CORE_TRACE_HOLD_H
#define PW_CORE_TRACE_HOLD_H

#include "peerwave.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pw_trace_buffer {
    pw_trace_record *records;
    int64_t count, capacity;
    int failed; /* an allocation failed: the trace is incomplete */
} pw_trace_buffer;

/* A slot for one more record at the buffer's end, or NULL (b->failed set) where it cannot grow. */
pw_trace_record *pw_trace_buffer_append(pw_trace_buffer *b);

/* A pw_trace_fn: keeps a copy of the record in the pw_trace_buffer `buffer`. */
void pw_trace_buffer_keep(void *buffer, const pw_trace_record *record);

/* Hand every record to sink (NULL: drop them) and free them; the buffer is empty again.
 * PW_ERR_OUT_OF_MEMORY if records were lost on the way in. */
pw_status pw_trace_buffer_release(pw_trace_buffer *b, pw_trace_fn sink, void *user);

#ifdef __cplusplus
}
#endif

#endif
